/* verdict.c: rule results and provider conditions into decisions and a report. */
#include "check/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "check/decide.h"
#include "check/report.h"

bool hp_verdict_knows_provider(const hp_bc *bc, hp_provider p, hp_err *err)
{
	if (bc->provider_index[p] >= 0)
		return true;
	hp_err_set(err,
	           "policy '%s' says nothing about provider %s: add a `provider %s { ... }` block",
	           hp_bc_str(bc, bc->name), hp_provider_names[p], hp_provider_names[p]);
	return false;
}

/* The (mode, provider) bits of every mode of provider p. */
static hp_applies provider_bits(hp_provider p)
{
	hp_applies bits = 0;
	for (int m = 0; m < HP_MODE_COUNT; m++)
		bits |= HP_APPLIES_BIT(m, p);
	return bits;
}

int hp_verdict(const hp_run_view *run, const hp_verdict_opts *o, hp_buf *out)
{
	const hp_eval *ev = run->eval;
	const hp_bc *bc = ev->bc;
	hp_strv keep = {0};

	hp_condition *conds = hp_xcalloc(bc->nconds ? bc->nconds : 1, sizeof *conds);
	hp_provider_policy pp;
	hp_eval_provider(ev, o->provider, &pp, conds, &keep);
	pp.unbuilt = hp_provider_unbuilt(o->provider);
	/* envd's setting: the deciding call's, and the one the run saw where
	 * that differs (a recording made in the sandbox); either can forbid
	 * the split, neither can allow one */
	hp_envd_reading envd[2];
	size_t nenvd = 0;
	if (hp_provider_has_envd(o->provider)) {
		envd[nenvd++] = (hp_envd_reading){o->envd_env, "the deciding call's environment"};
		const hp_value *seen = &ev->envd_setting;
		const char *raw = NULL;
		if (seen->state == HP_VAL_KNOWN && seen->type == HP_T_STR) {
			hp_strv_push(&keep, seen->u.s.p);
			raw = keep.v[keep.n - 1];
		}
		bool differs = raw ? !o->envd_env || strcmp(raw, o->envd_env) != 0 : false;
		if (differs)
			envd[nenvd++] = (hp_envd_reading){raw, "the facts (recorded in the sandbox)"};
	}
	pp.envd = envd;
	pp.nenvd = nenvd;

	hp_rule_outcome *outs = hp_xcalloc(bc->nrules ? bc->nrules : 1, sizeof *outs);
	hp_eval_rule_outcomes(ev, outs, &keep);
	/* The report shows a rule's evidence only when it did not pass. */
	hp_report_rule *rules = hp_xcalloc(bc->nrules ? bc->nrules : 1, sizeof *rules);
	for (uint32_t i = 0; i < bc->nrules; i++)
		rules[i] = (hp_report_rule){outs[i].id,
		                            outs[i].title,
		                            outs[i].location,
		                            outs[i].remedy,
		                            outs[i].result,
		                            &outs[i].evidence,
		                            outs[i].result == HP_RESULT_PASS ? 0 : 1,
		                            !(outs[i].applies & provider_bits(o->provider))};

	hp_uid_split setting =
	    hp_uid_split_resolve(o->uid_split_flag, o->uid_split_env, pp.default_setting);
	hp_decisions d;
	hp_decide(&pp, &setting, outs, bc->nrules, run->offline, run->live_needed, &d);
	hp_report rep = {hp_bc_str(bc, bc->name),
	                 o->provider,
	                 setting,
	                 o->mode,
	                 &d,
	                 rules,
	                 bc->nrules,
	                 run->offline,
	                 run->notes,
	                 pp.unbuilt};
	if (o->json)
		hp_report_json(&rep, out);
	else
		hp_report_text(&rep, o->colour, out);
	int status = hp_decision_exit[d.decision[o->mode]];

	hp_decisions_free(&d);
	hp_strv_free(&keep);
	free(conds);
	free(outs);
	free(rules);
	return status;
}
