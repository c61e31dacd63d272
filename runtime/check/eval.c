/* eval.c: a program evaluated end to end (eval.h). */
#include "check/eval.h"

#include <stdlib.h>
#include <string.h>

static void run_here(void *ctx, const hp_bc *bc, const hp_globals *g, hp_role role, hp_backend *b,
                     const hp_limits *lim, hp_role_result *out)
{
	(void)ctx;
	hp_vm_run_role(bc, g, role, b, lim, out);
}

bool hp_eval_run(const hp_bc *bc, hp_backend *b, const hp_param_override *ov, size_t nov,
                 const hp_eval_opts *opts, hp_eval *ev, hp_err *err)
{
	memset(ev, 0, sizeof *ev);
	ev->bc = bc;
	hp_eval_opts o = {0};
	if (opts)
		o = *opts;
	if (!o.run_role)
		o.run_role = run_here;
	if (!hp_globals_eval(bc, b, ov, nov, o.limits, &ev->globals, err))
		return false;
	hp_value name = hp_v_str(HP_ENVD_SETTING, (uint32_t)strlen(HP_ENVD_SETTING));
	ev->envd_setting =
	    hp_globals_ask(bc, b, o.limits, &ev->globals, HP_PROBE_ENV, &name);
	/* Each role's run is its own (the results are combined below, by
	 * role), so the order is the check's to choose: the agent's first,
	 * whose child makes the scans, the longest run (live, it is started
	 * and runs beside what follows: its sudo job, then root's child), then
	 * root's, then the driver's, short, once the agent's is done. */
	static const hp_role order[] = {HP_ROLE_AGENT, HP_ROLE_ROOT, HP_ROLE_HANGAR};
	_Static_assert(sizeof order / sizeof order[0] == HP_ROLE_COUNT, "every role once");
	for (size_t i = 0; i < HP_ROLE_COUNT; i++) {
		hp_role r = order[i];
		if (bc->role_index[r] < 0)
			hp_role_result_init(&ev->roles[r], r);
		else if (o.roles && !(o.roles & (1u << r)))
			hp_role_result_not_run(&ev->roles[r], r, "not asked to run");
		else
			o.run_role(o.ctx, bc, &ev->globals, r, b, o.limits, &ev->roles[r]);
	}
	if (o.finish)
		o.finish(o.ctx);
	const hp_role_result *rs[HP_ROLE_COUNT];
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		rs[r] = &ev->roles[r];
	ev->rules = hp_xcalloc(bc->nrules ? bc->nrules : 1, sizeof *ev->rules);
	hp_combine(bc, rs, ev->rules);
	return true;
}

void hp_eval_free(hp_eval *ev)
{
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		hp_role_result_free(&ev->roles[r]);
	hp_globals_free(&ev->globals);
	free(ev->rules);
	memset(ev, 0, sizeof *ev);
}

static const char *const result_words[HP_RESULT_COUNT] = {"PASS ", "FAIL ", "ERROR", "SKIP ",
                                                                  "WAIVE"};

static void print_cond(hp_buf *b, const hp_eval *ev, hp_provider p, uint32_t i)
{
	const hp_bc *bc = ev->bc;
	const hp_bc_cond *c = &bc->conds[i];
	hp_buf_printf(b, "%-12s %s %s: ", hp_provider_names[p],
	              c->kind == HP_BC_NEEDS ? "split needs" : "never split when",
	              hp_bc_str(bc, c->text));
	hp_value_format(b, &ev->globals.conds[i]);
	hp_buf_putc(b, '\n');
}

void hp_eval_print(hp_buf *b, const hp_eval *ev)
{
	const hp_bc *bc = ev->bc;
	unsigned count[HP_RESULT_COUNT] = {0};
	hp_buf_printf(b, "policy \"%s\" version %lld\n\n", hp_bc_str(bc, bc->name),
	              (long long)bc->version);
	for (uint32_t i = 0; i < bc->nrules; i++) {
		const hp_bc_rule *r = &bc->rules[i];
		const hp_rule_result *rr = &ev->rules[i];
		count[rr->result]++;
		hp_buf_printf(b, "%s %s: %s\n", result_words[rr->result], hp_bc_str(bc, r->id),
		              hp_bc_str(bc, r->title));
		if (rr->result == HP_RESULT_PASS)
			continue;
		hp_buf_puts(b, "      ");
		hp_rule_result_evidence(b, bc, rr);
		hp_buf_putc(b, '\n');
		if (r->remedy != HP_BC_NONE && rr->result != HP_RESULT_SKIPPED)
			hp_buf_printf(b, "      remedy: %s\n", hp_bc_str(bc, r->remedy));
	}
	if (bc->nconds) {
		hp_buf_puts(b, "\nprovider conditions:\n");
		for (uint32_t p = 0; p < bc->nproviders; p++) {
			const hp_bc_provider *pv = &bc->providers[p];
			for (uint32_t k = pv->first; k < pv->first + pv->count; k++)
				print_cond(b, ev, (hp_provider)pv->provider, k);
		}
	}
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		const hp_role_result *rr = &ev->roles[r];
		const char *why = hp_role_result_str(rr, rr->reason);
		if (rr->status == HP_RUN_STOPPED)
			hp_buf_printf(b, "\nthe checks of role %s stopped: %s\n", hp_role_names[r],
			              why ? why : "");
		else if (rr->status == HP_RUN_NOT_RUN)
			hp_buf_printf(b, "\nrole %s did not run: %s\n", hp_role_names[r],
			              why ? why : "");
	}
	hp_buf_printf(b, "\n%u rules: %u pass, %u fail, %u error, %u skipped\n", bc->nrules,
	              count[HP_RESULT_PASS], count[HP_RESULT_FAIL], count[HP_RESULT_ERROR],
	              count[HP_RESULT_SKIPPED]);
}

static const char *keep_buf(hp_strv *keep, hp_buf *b)
{
	hp_strv_push(keep, b->data ? b->data : "");
	hp_buf_free(b);
	return keep->v[keep->n - 1];
}

static const char *keep_loc(hp_strv *keep, const hp_bc *bc, hp_bc_loc loc)
{
	hp_buf b = {0};
	hp_bc_loc_format(&b, bc, loc);
	return keep_buf(keep, &b);
}

void hp_eval_rule_outcomes(const hp_eval *ev, hp_rule_outcome *out, hp_strv *keep)
{
	const hp_bc *bc = ev->bc;
	for (uint32_t i = 0; i < bc->nrules; i++) {
		const hp_bc_rule *r = &bc->rules[i];
		hp_buf b = {0};
		hp_rule_result_evidence(&b, bc, &ev->rules[i]);
		out[i].id = hp_bc_str(bc, r->id);
		out[i].title = hp_bc_str(bc, r->title);
		out[i].remedy = r->remedy == HP_BC_NONE ? NULL : hp_bc_str(bc, r->remedy);
		out[i].location = keep_loc(keep, bc, r->loc);
		out[i].result = ev->rules[i].result;
		out[i].applies = r->applies;
		out[i].evidence = keep_buf(keep, &b);
	}
}

bool hp_eval_provider(const hp_eval *ev, hp_provider p, hp_provider_policy *pp, hp_condition *conds,
                      hp_strv *keep)
{
	const hp_bc *bc = ev->bc;
	int pi = bc->provider_index[p];
	if (pi < 0)
		return false;
	const hp_bc_provider *pv = &bc->providers[pi];
	memset(pp, 0, sizeof *pp);
	pp->provider = p;
	pp->default_setting = (hp_setting)pv->uid_split;
	/* needs first, then never, each in policy order */
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++) {
		hp_condition *first = conds + k;
		size_t n = 0;
		for (uint32_t i = pv->first; i < pv->first + pv->count; i++) {
			const hp_bc_cond *c = &bc->conds[i];
			if (c->kind != (pass ? HP_BC_NEVER : HP_BC_NEEDS))
				continue;
			const hp_value *v = &ev->globals.conds[i];
			hp_buf b = {0};
			hp_value_format(&b, v);
			hp_condition *o = &conds[k++];
			o->text = hp_bc_str(bc, c->text);
			o->location = keep_loc(keep, bc, c->loc);
			o->holds =
			    v->state == HP_VAL_KNOWN ? (v->u.b ? HP_TRUE : HP_FALSE) : HP_UNKNOWN;
			o->observed = keep_buf(keep, &b);
			o->because = c->because == HP_BC_NONE ? NULL : hp_bc_str(bc, c->because);
			n++;
		}
		if (pass) {
			pp->never = first;
			pp->nnever = n;
		} else {
			pp->needs = first;
			pp->nneeds = n;
		}
	}
	return true;
}
