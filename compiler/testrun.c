/* testrun.c: cases run through check's own path, and coverage (testrun.h). */
#include "testrun.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/policy.h"
#include "check/session.h"
#include "check/verdict.h"
#include "probe/docset.h"
#include "probe/facts.h"

extern char **environ;

typedef struct {
	char *path;
	hp_bc *bc; /* NULL: it did not compile */
	uint32_t *rule_item, *assert_item;
} prog;

struct hp_testrun {
	prog *progs;
	size_t nprogs, cap;
	hp_cov_item *items;
	size_t nitems, icap;
};

hp_testrun *hp_testrun_new(void)
{
	return hp_xcalloc(1, sizeof(hp_testrun));
}

void hp_testrun_free(hp_testrun *tr)
{
	if (!tr)
		return;
	for (size_t i = 0; i < tr->nprogs; i++) {
		free(tr->progs[i].path);
		hp_bc_free(tr->progs[i].bc);
		free(tr->progs[i].rule_item);
		free(tr->progs[i].assert_item);
	}
	free(tr->progs);
	for (size_t i = 0; i < tr->nitems; i++) {
		free(tr->items[i].file);
		free(tr->items[i].rule);
		free(tr->items[i].text);
	}
	free(tr->items);
	free(tr);
}

const hp_cov_item *hp_testrun_coverage(const hp_testrun *tr, size_t *n)
{
	*n = tr->nitems;
	return tr->items;
}

/* A source location's file as a path: relative names are relative to the
 * directory of the policy that was compiled. */
static char *loc_path(const char *policy, const char *file)
{
	const char *slash = strrchr(policy, '/');
	if (file[0] == '/' || !slash)
		return hp_xstrdup(file);
	return hp_xasprintf("%.*s/%s", (int)(slash - policy), policy, file);
}

/* The item for a rule or assertion at a place, made when first seen: the
 * same rule reached through two policies (one including the other) is
 * one item. */
static uint32_t item(hp_testrun *tr, bool is_rule, const char *policy, const hp_bc *bc,
                     hp_bc_loc loc, const char *rule, const char *text)
{
	char *file = loc_path(policy, hp_bc_str(bc, loc.file));
	for (size_t i = 0; i < tr->nitems; i++) {
		hp_cov_item *it = &tr->items[i];
		if (it->is_rule == is_rule && it->line == loc.line && it->col == loc.col &&
		    strcmp(it->file, file) == 0) {
			free(file);
			return (uint32_t)i;
		}
	}
	tr->items = hp_xgrow(tr->items, &tr->icap, tr->nitems + 1, sizeof *tr->items);
	tr->items[tr->nitems] = (hp_cov_item){is_rule, file, loc.line, loc.col,
	                                      hp_xstrdup(rule), hp_xstrdup(text), false, false};
	return (uint32_t)tr->nitems++;
}

static prog *load(hp_testrun *tr, const char *path, hp_err *err)
{
	err->msg[0] = '\0';
	for (size_t i = 0; i < tr->nprogs; i++)
		if (strcmp(tr->progs[i].path, path) == 0) {
			if (!tr->progs[i].bc)
				hp_err_set(err, "%s: the policy does not compile", path);
			return tr->progs[i].bc ? &tr->progs[i] : NULL;
		}
	tr->progs = hp_xgrow(tr->progs, &tr->cap, tr->nprogs + 1, sizeof *tr->progs);
	prog *p = &tr->progs[tr->nprogs++];
	memset(p, 0, sizeof *p);
	p->path = hp_xstrdup(path);
	p->bc = hp_policy_load(path, err);
	if (!p->bc) {
		if (!err->msg[0])
			hp_err_set(err, "%s: the policy does not compile", path);
		return NULL;
	}
	const hp_bc *bc = p->bc;
	p->rule_item = hp_xcalloc(bc->nrules + 1, sizeof *p->rule_item);
	p->assert_item = hp_xcalloc(bc->nasserts + 1, sizeof *p->assert_item);
	for (uint32_t r = 0; r < bc->nrules; r++) {
		const hp_bc_rule *ru = &bc->rules[r];
		p->rule_item[r] = item(tr, true, path, bc, ru->loc, hp_bc_str(bc, ru->id),
		                       hp_bc_str(bc, ru->title));
		for (uint32_t a = ru->first; a < ru->first + ru->count && a < bc->nasserts; a++)
			p->assert_item[a] = item(tr, false, path, bc, bc->asserts[a].loc,
			                         hp_bc_str(bc, ru->id),
			                         hp_bc_str(bc, bc->asserts[a].text));
	}
	return p;
}

bool hp_testrun_add_policy(hp_testrun *tr, const char *path, hp_err *err)
{
	return load(tr, path, err) != NULL;
}

/* --- the environment of the deciding call ------------------------------------ */

/* A case sees only its own HANGAR_ settings, never those of whoever runs
 * the tests: they are saved, cleared, and put back afterwards. */
typedef struct {
	hp_strv saved; /* NAME=VALUE */
	const hp_test_case *c;
} env_scope;

static void env_enter(env_scope *e, const hp_test_case *c)
{
	memset(e, 0, sizeof *e);
	e->c = c;
	for (char **p = environ; p && *p; p++)
		if (strncmp(*p, "HANGAR_", 7) == 0)
			hp_strv_push(&e->saved, *p);
	for (size_t i = 0; i < e->saved.n; i++) {
		char *name = hp_xstrndup(e->saved.v[i], strcspn(e->saved.v[i], "="));
		unsetenv(name);
		free(name);
	}
	for (size_t i = 0; i < c->env_names.n; i++)
		setenv(c->env_names.v[i], c->env_values.v[i], 1);
}

static void env_leave(env_scope *e)
{
	for (size_t i = 0; i < e->c->env_names.n; i++)
		unsetenv(e->c->env_names.v[i]);
	for (size_t i = 0; i < e->saved.n; i++) {
		const char *eq = strchr(e->saved.v[i], '=');
		char *name = hp_xstrndup(e->saved.v[i], (size_t)(eq - e->saved.v[i]));
		setenv(name, eq + 1, 1);
		free(name);
	}
	hp_strv_free(&e->saved);
}

/* --- one case --------------------------------------------------------------------- */

static void diff(hp_case_result *out, const char *evidence, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void diff(hp_case_result *out, const char *evidence, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	hp_strv_push(&out->diffs, line);
	hp_strv_push(&out->evidence, evidence ? evidence : "");
}

static void error(hp_case_result *out, const char *msg)
{
	out->status = HP_CASE_ERROR;
	diff(out, NULL, "%s", msg);
}

static int rule_index(const hp_bc *bc, const char *id)
{
	for (uint32_t i = 0; i < bc->nrules; i++)
		if (strcmp(hp_bc_str(bc, bc->rules[i].id), id) == 0)
			return (int)i;
	return -1;
}

static void cover(hp_testrun *tr, const prog *p, const hp_session *s)
{
	const hp_bc *bc = p->bc;
	for (uint32_t r = 0; r < bc->nrules; r++) {
		hp_cov_item *it = &tr->items[p->rule_item[r]];
		it->seen_pass |= s->eval.rules[r].result == HP_RESULT_PASS;
		it->seen_fail |= s->eval.rules[r].result == HP_RESULT_FAIL;
	}
	for (int role = 0; role < HP_ROLE_COUNT; role++) {
		const hp_role_result *rr = &s->eval.roles[role];
		for (uint32_t k = 0; k < rr->noutcomes; k++) {
			const hp_outcome *o = &rr->outcomes[k];
			if (o->assertion >= bc->nasserts)
				continue;
			hp_cov_item *it = &tr->items[p->assert_item[o->assertion]];
			it->seen_pass |= o->kind == HP_OUT_HOLDS;
			it->seen_fail |= o->kind == HP_OUT_FAILS;
		}
	}
}

/* What the decision of a mode rests on, for a message. */
static char *mode_evidence(const hp_judgement *j, int m)
{
	hp_buf b = {0};
	const hp_strv *rs = &j->d.reasons[m];
	for (size_t i = 0; i < rs->n; i++)
		hp_buf_printf(&b, "%sreason: %s", i ? "\n" : "", rs->v[i]);
	if (!rs->n)
		hp_buf_puts(&b, "nothing kept this mode from splitting");
	char *s = hp_xstrdup(b.data);
	hp_buf_free(&b);
	return s;
}

static bool counts_for(const hp_rule_outcome *r, hp_provider p)
{
	for (int m = 0; m < HP_MODE_COUNT; m++)
		if (r->applies & HP_APPLIES_BIT(m, p))
			return true;
	return false;
}

static void compare(const hp_test_case *c, const hp_bc *bc, const hp_judgement *j,
                    hp_case_result *out)
{
	/* modes that differ the same way, for the same reasons, are one line */
	bool said[HP_MODE_COUNT] = {false};
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		if (said[m] || c->modes[m] < 0 || (int)j->d.decision[m] == c->modes[m])
			continue;
		char *ev = mode_evidence(j, m);
		hp_buf names = {0};
		hp_buf_puts(&names, hp_mode_names[m]);
		for (int k = m + 1; k < HP_MODE_COUNT; k++) {
			if (c->modes[k] != c->modes[m] || j->d.decision[k] != j->d.decision[m] ||
			    c->mode_line[k] != c->mode_line[m])
				continue;
			char *other = mode_evidence(j, k);
			if (strcmp(other, ev) == 0) {
				said[k] = true;
				hp_buf_printf(&names, ", %s", hp_mode_names[k]);
			}
			free(other);
		}
		diff(out, ev, "%s:%u: decision for %s turns: expected %s, got %s", c->file,
		     c->mode_line[m], names.data, hp_decision_names[c->modes[m]],
		     hp_decision_names[j->d.decision[m]]);
		hp_buf_free(&names);
		free(ev);
	}
	bool *listed = hp_xcalloc(bc->nrules + 1, sizeof *listed);
	for (size_t i = 0; i < c->nrules; i++) {
		int r = rule_index(bc, c->rules[i].id);
		if (r < 0) {
			char msg[700];
			snprintf(msg, sizeof msg, "%s:%u:%u: policy '%s' has no rule '%s'", c->file,
			         c->rules[i].line, c->rules[i].col, hp_bc_str(bc, bc->name),
			         c->rules[i].id);
			error(out, msg);
			continue;
		}
		listed[r] = true;
		if (j->rules[r].result != c->rules[i].result)
			diff(out, j->rules[r].evidence, "%s:%u: rule %s: expected %s, got %s",
			     c->file, c->rules[i].line, c->rules[i].id,
			     hp_result_names[c->rules[i].result], hp_result_names[j->rules[r].result]);
	}
	/* other_rules: the rules that count for the case's provider, as the
	 * report lists them (a rule `when provider != kubernetes` says nothing
	 * about a pod) */
	if (c->other_rules >= 0)
		for (uint32_t r = 0; r < bc->nrules; r++)
			if (!listed[r] && counts_for(&j->rules[r], (hp_provider)c->provider) &&
			    (int)j->rules[r].result != c->other_rules)
				diff(out, j->rules[r].evidence,
				     "%s:%u: rule %s (other_rules): expected %s, got %s", c->file,
				     c->other_line, j->rules[r].id, hp_result_names[c->other_rules],
				     hp_result_names[j->rules[r].result]);
	free(listed);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void hp_testrun_case(hp_testrun *tr, const hp_test_case *c, hp_case_result *out)
{
	memset(out, 0, sizeof *out);
	out->c = c;
	out->status = HP_CASE_PASS;
	double t0 = now();
	hp_err err;
	prog *p = load(tr, c->policy, &err);
	if (!p) {
		error(out, err.msg);
		return;
	}
	if (!hp_verdict_knows_provider(p->bc, (hp_provider)c->provider, &err)) {
		char msg[700];
		snprintf(msg, sizeof msg, "%s:%u:%u: %s", c->file, c->line, c->col, err.msg);
		error(out, msg);
		return;
	}
	hp_facts *f = hp_probe_facts_new();
	/* a test's facts are its authors', not a sandbox's recording: they
	 * may stand for a document (docs/testing.md) */
	hp_probe_facts_allow_documents(f);
	bool ok = true;
	/* documents answer in front of the facts, as check --document does */
	hp_docset *docs = c->doc_names.n ? hp_probe_docset_new() : NULL;
	for (size_t i = 0; ok && i < c->doc_names.n; i++) {
		char *spec = hp_xasprintf("%s=%s", c->doc_names.v[i], c->doc_files.v[i]);
		ok = hp_probe_docset_add(docs, spec, &err);
		free(spec);
	}
	for (size_t i = 0; ok && i < c->facts_files.n; i++)
		ok = hp_probe_facts_load_file(f, c->facts_files.v[i], &err);
	for (size_t i = 0; ok && i < c->ninline; i++)
		ok = hp_probe_facts_amend(f, c->file, c->inline_facts[i].text, c->inline_facts[i].len,
		                    &err);
	if (!ok) {
		error(out, err.msg);
		hp_probe_facts_free(f);
		hp_probe_docset_free(docs);
		return;
	}
	hp_param_override *ov = hp_xcalloc(c->param_names.n + 1, sizeof *ov);
	for (size_t i = 0; i < c->param_names.n; i++)
		ov[i] = (hp_param_override){c->param_names.v[i], c->param_values.v[i]};
	hp_session_opts so;
	hp_session_opts_default(&so);
	so.source = HP_SESSION_FACTS;
	so.docs = docs;
	so.facts = hp_probe_facts_backend(f);
	so.params = ov;
	so.nparams = c->param_names.n;

	env_scope e;
	env_enter(&e, c);
	/* waivers are read as check reads them, today from the case's clock */
	hp_waivers w = {0};
	int64_t today;
	ok = hp_today(&today, &err);
	for (size_t i = 0; ok && i < c->waiver_files.n; i++)
		ok = hp_waivers_load_file(&w, c->waiver_files.v[i], today, &err);
	if (ok)
		ok = hp_waivers_check(&w, p->bc, &err);
	hp_session s;
	hp_session_status st = ok ? hp_session_run(p->bc, &so, &s, &err) : HP_SESSION_USAGE;
	if (!ok) {
		error(out, err.msg);
	} else if (st == HP_SESSION_OK) {
		hp_run_view run = {&s.eval, s.offline, s.live_needed, &s.notes, f};
		hp_verdict_opts vo = {.provider = (hp_provider)c->provider,
		                      .mode = HP_MODE_ASK,
		                      .uid_split_env = getenv("HANGAR_UID_SPLIT"),
		                      .format = HP_FMT_TEXT,
		                      .waivers = &w,
		                      .sidecar_env = getenv("HANGAR_K8S_DRIVER_SIDECAR"),
		                      .envd_env = getenv(HP_ENVD_SETTING)};
		hp_judgement j;
		hp_judge(&run, &vo, &j);
		cover(tr, p, &s);
		compare(c, p->bc, &j, out);
		hp_judgement_free(&j);
	} else {
		char msg[700];
		snprintf(msg, sizeof msg, "%s:%u:%u: case '%s' could not run: %s", c->file,
		         c->line, c->col, c->name, err.msg);
		error(out, msg);
	}
	env_leave(&e);
	if (ok)
		hp_session_free(&s);
	hp_waivers_free(&w);
	hp_probe_facts_free(f);
	hp_probe_docset_free(docs);
	free(ov);
	if (out->status == HP_CASE_PASS && out->diffs.n)
		out->status = HP_CASE_FAIL;
	out->seconds = now() - t0;
}

void hp_case_result_free(hp_case_result *r)
{
	hp_strv_free(&r->diffs);
	hp_strv_free(&r->evidence);
}
