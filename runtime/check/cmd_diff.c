/* cmd_diff.c: hangar-policy diff A.yaml B.yaml: two facts files (two
 * recordings of one sandbox, say before a pause and after the resume)
 * compared question by question, and what that changes for a policy.
 *
 * Each file is loaded on its own and the policy evaluated on each, as
 * `check --facts` would. A question is changed when one file answers it
 * and the other does not, or their answers differ (another value, or
 * another of absent, unknown and skipped; a reason alone is not a change).
 * For each changed question: both answers with their file:line, and the
 * rules whose assertions looked at it in either run; then every rule whose
 * result differs between the runs. Exit 0 when no changed question is one
 * the policy asks, 1 when one is, 2 for bad usage or a file that does not
 * load. Nothing is written; no system is looked at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/cli.h"
#include "check/commands.h"
#include "check/default_policy.h"
#include "check/policy.h"
#include "check/session.h"
#include "lib/buf.h"
#include "lib/pool.h"
#include "lib/textesc.h"
#include "probe/facts.h"

const char hp_help_diff[] =
    "A and B are facts files (docs/facts.md), typically two recordings of one\n"
    "sandbox made with check --record: before a pause and after the resume, or\n"
    "of a snapshot and of its fork ('-': standard input, for one of them).\n"
    "Every question whose answer changed is printed with both answers and both\n"
    "file:line, and the rules that use it; then every rule whose result\n"
    "changes. Nothing is changed or looked at besides the two files and the\n"
    "policy.\n"
    "\n"
    "exit status:\n"
    "  0  no answer the policy uses changed\n"
    "  1  an answer the policy uses changed (listed)\n"
    "  2  bad usage, or a policy or facts file that does not load\n";

/* A question a run asked, by hash: the fact it was recorded as (in role
 * result src) and the rule whose assertion looked at it, or -1 when none
 * did (phase one: params, identities, conditions, settings). */
typedef struct {
	uint64_t hash;
	int rule;
	const hp_role_result *src;
	uint32_t fact;
} use;

/* One run of the policy on one file. */
typedef struct {
	const char *path;
	hp_facts *facts;
	hp_session s;
	bool ran;
	use *uses; /* sorted by hash */
	size_t nuses;
} side;

static uint64_t fact_hash(unsigned probe, unsigned role, const hp_value *arg)
{
	return hp_question_hash(probe, hp_probes[probe].scope == HP_SCOPE_ROLE ? role : 0, arg);
}

static int cmp_use(const void *a, const void *b)
{
	uint64_t x = ((const use *)a)->hash, y = ((const use *)b)->hash;
	return x < y ? -1 : x > y;
}

static void add_use(side *x, size_t *cap, const hp_role_result *r, uint32_t fi, int rule,
                    hp_pool *pool)
{
	const hp_fact *f = &r->facts[fi];
	hp_value arg;
	if (f->probe >= HP_PROBE_COUNT || !hp_role_result_value(r, f->arg, pool, &arg))
		return;
	x->uses = hp_xgrow(x->uses, cap, x->nuses + 1, sizeof *x->uses);
	x->uses[x->nuses++] = (use){fact_hash(f->probe, f->role, &arg), rule, r, fi};
}

/* Every question the run asked, and the rules whose assertions saw each. */
static void index_uses(side *x, const hp_bc *bc, hp_pool *pool)
{
	size_t cap = 0;
	const hp_role_result *g = &x->s.eval.globals.facts;
	for (uint32_t i = 0; i < g->nfacts; i++)
		add_use(x, &cap, g, i, -1, pool);
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		const hp_role_result *rr = &x->s.eval.roles[r];
		for (uint32_t i = 0; i < rr->nfacts; i++)
			add_use(x, &cap, rr, i, -1, pool);
		for (uint32_t o = 0; o < rr->noutcomes; o++) {
			const hp_outcome *out = &rr->outcomes[o];
			if (out->assertion >= bc->nasserts)
				continue;
			for (uint32_t k = 0; k < out->obs_count; k++) {
				if ((size_t)out->obs_first + k >= rr->nobs)
					break;
				uint32_t fi = rr->obs[out->obs_first + k];
				if (fi < rr->nfacts)
					add_use(x, &cap, rr, fi, (int)bc->asserts[out->assertion].rule,
					        pool);
			}
		}
	}
	if (x->nuses)
		qsort(x->uses, x->nuses, sizeof *x->uses, cmp_use);
}

static bool load_side(side *x, const hp_bc *bc, hp_err *err)
{
	x->facts = hp_probe_facts_new();
	if (hp_cli_is_stdio(x->path)) {
		uint8_t *data;
		size_t len;
		if (!hp_cli_read_stdin(HP_FACTS_MAX_FILE, &data, &len, err))
			return false;
		x->path = HP_STDIN_NAME;
		bool ok = hp_probe_facts_load(x->facts, x->path, (const char *)data, len, err);
		free(data);
		if (!ok)
			return false;
	} else if (!hp_probe_facts_load_file(x->facts, x->path, err)) {
		return false;
	}
	hp_session_opts so;
	hp_session_opts_default(&so);
	so.source = HP_SESSION_FACTS;
	so.facts = hp_probe_facts_backend(x->facts);
	hp_session_status st = hp_session_run(bc, &so, &x->s, err);
	x->ran = true;
	return st == HP_SESSION_OK;
}

/* The first use of hash h in x, or NULL. */
static const use *first_use(const side *x, uint64_t h)
{
	size_t lo = 0, hi = x->nuses;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->uses[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nuses && x->uses[lo].hash == h ? &x->uses[lo] : NULL;
}

static void free_side(side *x)
{
	if (x->ran)
		hp_session_free(&x->s);
	hp_probe_facts_free(x->facts);
	free(x->uses);
}

/* Whether two answers say the same (reasons aside). */
static bool same_answer(const hp_value *a, const hp_value *b)
{
	if (a->state != b->state)
		return false;
	return a->state != HP_VAL_KNOWN || hp_value_equal(a, b);
}

static bool same_question(const hp_fact_view *a, const hp_fact_view *b)
{
	if (a->probe != b->probe || a->role != b->role)
		return false;
	if ((a->container == NULL) != (b->container == NULL) ||
	    (a->container && strcmp(a->container, b->container) != 0))
		return false;
	if (a->arg->state != b->arg->state)
		return false;
	return a->arg->state != HP_VAL_KNOWN || hp_value_equal(a->arg, b->arg);
}

/* probe("arg") as ROLE, as evidence writes it. */
static void question_text(hp_buf *b, const hp_fact_view *q)
{
	const hp_probe_info *pi = &hp_probes[q->probe];
	hp_buf_puts(b, pi->name);
	if (pi->arg != HP_T_NONE) {
		hp_buf_putc(b, '(');
		hp_value_format(b, q->arg);
		hp_buf_putc(b, ')');
	}
	if (pi->scope == HP_SCOPE_ROLE)
		hp_buf_printf(b, " as %s", q->role < 0 ? "every role" : hp_role_names[q->role]);
	if (q->container) {
		hp_esc_buf eb;
		hp_buf_printf(b, " in container %s", hp_escs(&eb, q->container));
	}
}

/* Whether a recorded fact of a run (asked as role) is question q. */
static bool fact_is(const hp_role_result *r, const hp_fact *f, const hp_fact_view *q,
                    hp_pool *pool)
{
	if (f->probe != (uint32_t)q->probe)
		return false;
	if (hp_probes[q->probe].scope == HP_SCOPE_ROLE && q->role >= 0 &&
	    f->role != (uint32_t)q->role)
		return false;
	hp_value arg;
	if (!hp_role_result_value(r, f->arg, pool, &arg))
		return false;
	if (arg.state != q->arg->state)
		return false;
	return arg.state != HP_VAL_KNOWN || hp_value_equal(&arg, q->arg);
}

/* Whether run x asked question q: at all (rule_wanted -1), or in an
 * assertion of rule rule_wanted. A fact for every role is each role's
 * question. */
static bool uses_of(const side *x, const hp_fact_view *q, hp_pool *pool, int rule_wanted)
{
	int r0 = 0, r1 = 0;
	if (hp_probes[q->probe].scope == HP_SCOPE_ROLE) {
		r0 = q->role < 0 ? 0 : q->role;
		r1 = q->role < 0 ? HP_ROLE_COUNT - 1 : q->role;
	}
	for (int r = r0; r <= r1; r++) {
		uint64_t h = fact_hash((unsigned)q->probe, (unsigned)r, q->arg);
		for (const use *u = first_use(x, h); u && u < x->uses + x->nuses && u->hash == h;
		     u++) {
			if (rule_wanted >= 0 && u->rule != rule_wanted)
				continue;
			if (fact_is(u->src, &u->src->facts[u->fact], q, pool))
				return true;
		}
	}
	return false;
}

/* Whether run x asked q at all (phase one or any role). */
static bool asked(const side *x, const hp_fact_view *q, hp_pool *pool)
{
	return uses_of(x, q, pool, -1);
}

/* Whether an assertion of rule ri looked at q in run x. */
static bool rule_used(const hp_bc *bc, const side *x, uint32_t ri, const hp_fact_view *q,
                      hp_pool *pool)
{
	(void)bc;
	return uses_of(x, q, pool, (int)ri);
}

static void answer_line(hp_buf *b, const char *path, const hp_fact_view *f)
{
	if (!f) {
		hp_buf_printf(b, "  %s: not answered (unknown)\n", path);
		return;
	}
	hp_buf_printf(b, "  %s:%u: ", path, f->line);
	hp_value_format(b, f->answer);
	/* modes read as people write them */
	if (f->probe == HP_PROBE_MODE && f->answer->state == HP_VAL_KNOWN &&
	    f->answer->type == HP_T_INT && f->answer->u.i >= 0)
		hp_buf_printf(b, " (0o%llo)", (unsigned long long)f->answer->u.i);
	hp_buf_putc(b, '\n');
}

/* One changed question: prints it, and says whether the policy asks it. */
static bool report_change(hp_buf *b, const hp_bc *bc, const side *x, const side *y,
                          const hp_fact_view *fa, const hp_fact_view *fb, hp_pool *pool)
{
	const hp_fact_view *q = fa ? fa : fb;
	hp_buf_puts(b, "\nchanged: ");
	question_text(b, q);
	hp_buf_putc(b, '\n');
	answer_line(b, x->path, fa);
	answer_line(b, y->path, fb);
	hp_buf b2 = {0};
	size_t n = 0;
	for (uint32_t i = 0; i < bc->nrules; i++) {
		if (!rule_used(bc, x, i, q, pool) && !rule_used(bc, y, i, q, pool))
			continue;
		hp_buf_printf(&b2, "%s%s", n++ ? ", " : "", hp_bc_str(bc, bc->rules[i].id));
		hp_result ra = x->s.eval.rules[i].result, rb = y->s.eval.rules[i].result;
		if (ra != rb)
			hp_buf_printf(&b2, " (%s -> %s)", hp_result_names[ra], hp_result_names[rb]);
	}
	bool used = n > 0 || asked(x, q, pool) || asked(y, q, pool);
	if (n)
		hp_buf_printf(b, "  used by: %s\n", b2.data);
	else if (used)
		hp_buf_puts(b, "  used by: the policy, in no rule's assertion (a param, a role's "
		               "identity, a provider condition or hangar's own settings)\n");
	else
		hp_buf_puts(b, "  used by: nothing the policy asks\n");
	hp_buf_free(&b2);
	return used;
}

int hp_cmd_diff(int argc, char **argv)
{
	const char *policy = NULL;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_diff_policy:
			policy = o.arg;
			break;
		}
	}
	if (o.noperands != 2)
		return hp_cli_usage_error("diff", o.noperands < 2
		                                      ? "two facts files are needed, A and B"
		                                      : "two facts files, not more");
	const char *files[2] = {o.operands[0], o.operands[1]};
	if (hp_cli_is_stdio(files[0]) && hp_cli_is_stdio(files[1]))
		return hp_cli_usage_error("diff", "standard input can be only one of the two files");
	hp_err err;
	if (policy && hp_cli_is_stdio(policy) &&
	    (hp_cli_is_stdio(files[0]) || hp_cli_is_stdio(files[1])))
		return hp_cli_usage_error("diff", "standard input can be only one of the inputs");
	hp_bc *bc = policy ? hp_policy_load_operand(policy, &err) : hp_default_policy_load(&err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("diff", "%s", err.msg);
		return HP_EXIT_USAGE;
	}
	side x, y;
	memset(&x, 0, sizeof x);
	memset(&y, 0, sizeof y);
	x.path = files[0];
	y.path = files[1];
	int rc = HP_EXIT_USAGE;
	if (!load_side(&x, bc, &err) || !load_side(&y, bc, &err)) {
		hp_cli_error("diff", "%s", err.msg);
		goto out;
	}

	hp_pool pool;
	hp_pool_init(&pool, 256u << 20);
	index_uses(&x, bc, &pool);
	index_uses(&y, bc, &pool);
	hp_buf b = {0};
	size_t changed = 0, used = 0;
	size_t na = hp_probe_facts_count(x.facts), nb = hp_probe_facts_count(y.facts);
	/* B's questions by hash, so that matching stays n log n on any file */
	use *bi = hp_xcalloc(nb ? nb : 1, sizeof *bi);
	for (size_t k = 0; k < nb; k++) {
		hp_fact_view fb;
		hp_probe_facts_get(y.facts, k, &fb);
		bi[k] = (use){fact_hash((unsigned)fb.probe, fb.role < 0 ? 0 : (unsigned)fb.role,
		                        fb.arg),
		              (int)k, NULL, 0};
	}
	qsort(bi, nb, sizeof *bi, cmp_use);
	side index;
	memset(&index, 0, sizeof index);
	index.uses = bi;
	index.nuses = nb;
	bool *matched = hp_xcalloc(nb ? nb : 1, 1);
	for (size_t i = 0; i < na; i++) {
		hp_fact_view fa, fb;
		hp_probe_facts_get(x.facts, i, &fa);
		uint64_t h = fact_hash((unsigned)fa.probe, fa.role < 0 ? 0 : (unsigned)fa.role,
		                       fa.arg);
		bool found = false;
		for (const use *u = first_use(&index, h); u && u < bi + nb && u->hash == h; u++) {
			hp_probe_facts_get(y.facts, (size_t)u->rule, &fb);
			if (matched[u->rule] || !same_question(&fa, &fb))
				continue;
			found = matched[u->rule] = true;
			if (!same_answer(fa.answer, fb.answer)) {
				changed++;
				used += report_change(&b, bc, &x, &y, &fa, &fb, &pool);
			}
			break;
		}
		if (!found) {
			changed++;
			used += report_change(&b, bc, &x, &y, &fa, NULL, &pool);
		}
	}
	for (size_t k = 0; k < nb; k++) {
		if (matched[k])
			continue;
		hp_fact_view fb;
		hp_probe_facts_get(y.facts, k, &fb);
		changed++;
		used += report_change(&b, bc, &x, &y, NULL, &fb, &pool);
	}
	free(matched);
	free(bi);

	size_t rules_changed = 0;
	for (uint32_t i = 0; i < bc->nrules; i++) {
		hp_result ra = x.s.eval.rules[i].result, rb = y.s.eval.rules[i].result;
		if (ra == rb)
			continue;
		if (!rules_changed++)
			hp_buf_puts(&b, "\nrules whose result changes:\n");
		hp_buf_printf(&b, "  %s: %s -> %s\n", hp_bc_str(bc, bc->rules[i].id),
		              hp_result_names[ra], hp_result_names[rb]);
	}
	printf("%s -> %s: %zu answer%s changed, %zu used by the policy; %zu rule%s change%s\n",
	       x.path, y.path, changed, changed == 1 ? "" : "s", used, rules_changed,
	       rules_changed == 1 ? "" : "s", rules_changed == 1 ? "s" : "");
	fputs(b.data ? b.data : "", stdout);
	rc = (used || rules_changed) ? HP_EXIT_FINDINGS : HP_EXIT_OK;
	if (fflush(stdout) != 0)
		rc = HP_EXIT_CANNOT_RUN;
	hp_buf_free(&b);
	hp_pool_free(&pool);
out:
	free_side(&x);
	free_side(&y);
	hp_bc_free(bc);
	return rc;
}
