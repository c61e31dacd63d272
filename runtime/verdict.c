/* verdict.c: provider conditions and rule results into decisions and a report. */
#include "verdict.h"

#include <stdlib.h>

#include "decide.h"
#include "report.h"

bool hp_verdict_knows_provider(const hp_bc *bc, hp_provider p, hp_err *err)
{
	if (bc->provider_index[p] >= 0)
		return true;
	hp_err_set(err,
	           "policy '%s' says nothing about provider %s: add a `provider %s { ... }` block",
	           hp_bc_str(bc, bc->name), hp_provider_names[p], hp_provider_names[p]);
	return false;
}

static char *loc_string(const hp_bc *bc, hp_bc_loc loc)
{
	hp_buf b = {0};
	hp_bc_loc_format(&b, bc, loc);
	return b.data ? b.data : hp_xstrdup("");
}

static hp_tri cond_tri(const hp_value *v)
{
	if (v->state == HP_VAL_KNOWN && v->type == HP_T_BOOL)
		return v->u.b ? HP_TRUE : HP_FALSE;
	return HP_UNKNOWN; /* ABSENT, UNKNOWN, SKIPPED: not proven either way */
}

int hp_verdict(const hp_run_view *run, const hp_verdict_opts *o, hp_buf *out)
{
	const hp_bc *bc = run->bc;
	const hp_bc_provider *bp = &bc->providers[bc->provider_index[o->provider]];

	/* The provider's conditions, split into `split needs` and `never split`. */
	hp_condition *needs = hp_xcalloc(bp->count, sizeof *needs);
	hp_condition *never = hp_xcalloc(bp->count, sizeof *never);
	char **strings = hp_xcalloc(2 * (size_t)bp->count + 1, sizeof *strings);
	size_t nneeds = 0, nnever = 0, nstrings = 0;
	for (uint32_t i = 0; i < bp->count; i++) {
		const hp_bc_cond *c = &bc->conds[bp->first + i];
		const hp_value *v = &run->conds[bp->first + i];
		hp_buf obs = {0};
		hp_buf_puts(&obs, "it is ");
		hp_value_format(&obs, v);
		strings[nstrings++] = obs.data;
		char *loc = loc_string(bc, c->loc);
		strings[nstrings++] = loc;
		hp_condition cond = {hp_bc_str(bc, c->text), loc, cond_tri(v), obs.data,
		                     c->because == HP_BC_NONE ? NULL : hp_bc_str(bc, c->because)};
		if (c->kind == HP_BC_NEVER)
			never[nnever++] = cond;
		else
			needs[nneeds++] = cond;
	}
	hp_provider_policy pp = {o->provider, (hp_setting)bp->uid_split, needs, nneeds, never,
	                         nnever};

	/* Rules: their result, where they count, and one line of evidence. */
	hp_rule_outcome *outs = hp_xcalloc(bc->nrules, sizeof *outs);
	hp_report_rule *rrules = hp_xcalloc(bc->nrules, sizeof *rrules);
	char **evidence = hp_xcalloc(bc->nrules, sizeof *evidence);
	char **locs = hp_xcalloc(bc->nrules, sizeof *locs);
	size_t live_needed = 0;
	for (uint32_t i = 0; i < bc->nrules; i++) {
		const hp_bc_rule *r = &bc->rules[i];
		const hp_rule_result *rr = &run->rules[i];
		hp_buf ev = {0};
		hp_rule_result_evidence(&ev, bc, rr);
		evidence[i] = ev.data ? ev.data : hp_xstrdup("");
		locs[i] = loc_string(bc, r->loc);
		const char *remedy = r->remedy == HP_BC_NONE ? NULL : hp_bc_str(bc, r->remedy);
		outs[i] = (hp_rule_outcome){hp_bc_str(bc, r->id),
		                            hp_bc_str(bc, r->title),
		                            remedy,
		                            locs[i],
		                            rr->result,
		                            r->applies,
		                            evidence[i]};
		rrules[i] = (hp_report_rule){hp_bc_str(bc, r->id),
		                             hp_bc_str(bc, r->title),
		                             locs[i],
		                             remedy,
		                             rr->result,
		                             (const char *const *)&evidence[i],
		                             rr->result == HP_RESULT_PASS ? 0 : 1};
		if (run->offline)
			live_needed += rr->count[HP_OUT_SKIPPED];
	}

	hp_uid_split setting =
	    hp_uid_split_resolve(o->uid_split_flag, o->uid_split_env, (hp_setting)bp->uid_split);
	hp_decisions d;
	hp_decide(&pp, &setting, outs, bc->nrules, run->offline, live_needed, &d);
	hp_report rep = {hp_bc_str(bc, bc->name),
	                 o->provider,
	                 setting,
	                 o->mode,
	                 &d,
	                 rrules,
	                 bc->nrules,
	                 run->offline,
	                 run->notes};
	if (o->json)
		hp_report_json(&rep, out);
	else
		hp_report_text(&rep, o->colour, out);
	int status = hp_decision_exit[d.decision[o->mode]];

	hp_decisions_free(&d);
	for (uint32_t i = 0; i < bc->nrules; i++) {
		free(evidence[i]);
		free(locs[i]);
	}
	for (size_t i = 0; i < nstrings; i++)
		free(strings[i]);
	free(evidence);
	free(locs);
	free(outs);
	free(rrules);
	free(strings);
	free(needs);
	free(never);
	return status;
}
