/* combine.c: per-rule results from the roles' outcomes (combine.h). */
#include "check/combine.h"

#include <stdlib.h>
#include <string.h>

/* How strongly each outcome kind decides: fail > error > skipped > pass. */
static int rank_of(uint32_t kind)
{
	switch (kind) {
	case HP_OUT_FAILS:
		return 3;
	case HP_OUT_UNKNOWN:
	case HP_OUT_ABSENT:
		return 2;
	case HP_OUT_SKIPPED:
		return 1;
	default:
		return 0;
	}
}

static const hp_result result_of_rank[4] = {HP_RESULT_PASS, HP_RESULT_SKIPPED, HP_RESULT_ERROR,
                                            HP_RESULT_FAIL};

void hp_combine(const hp_bc *bc, const hp_role_result *const roles[HP_ROLE_COUNT],
                hp_rule_result *out)
{
	int *rank = hp_xcalloc(bc->nrules ? bc->nrules : 1, sizeof *rank);
	for (uint32_t i = 0; i < bc->nrules; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].result = HP_RESULT_PASS;
		out[i].role = -1;
	}
	for (int role = 0; role < HP_ROLE_COUNT; role++) {
		const hp_role_result *r = roles[role];
		if (r && r->status == HP_RUN_NOT_RUN)
			r = NULL;
		/* a role that did not run, or stopped: its rules cannot pass */
		if (!r || r->status == HP_RUN_STOPPED) {
			int rk = r ? 2 : 1;
			const char *why = r ? hp_role_result_str(r, r->reason)
			                  : roles[role]
			                      ? hp_role_result_str(roles[role], roles[role]->reason)
			                      : NULL;
			for (uint32_t i = 0; i < bc->nrules; i++) {
				if (!(bc->rules[i].roles & (1u << role)))
					continue;
				/* kept even when a failure decides the rule: a waiver
				 * of that failure must not cover the checks that never
				 * ran (waiver.c) */
				out[i].unrun |= (uint8_t)(1u << role);
				if (rank[i] >= rk)
					continue;
				rank[i] = rk;
				out[i].role = role;
				out[i].decider = NULL;
				out[i].from = roles[role];
				out[i].why =
				    why ? why : (r ? "the run stopped" : "the role did not run");
			}
			if (!r)
				continue;
		}
		for (uint32_t k = 0; k < r->noutcomes; k++) {
			const hp_outcome *o = &r->outcomes[k];
			if (o->assertion >= bc->nasserts || o->kind >= HP_OUT_COUNT)
				continue;
			uint32_t i = bc->asserts[o->assertion].rule;
			out[i].count[o->kind]++;
			int rk = rank_of(o->kind);
			if (rk > rank[i]) {
				rank[i] = rk;
				out[i].role = role;
				out[i].decider = o;
				out[i].from = r;
				out[i].why = NULL;
			}
		}
	}
	for (uint32_t i = 0; i < bc->nrules; i++)
		out[i].result = result_of_rank[rank[i]];
	free(rank);
}

void hp_rule_result_evidence(hp_buf *b, const hp_bc *bc, const hp_rule_result *rr)
{
	if (rr->decider && rr->from) {
		hp_outcome_format(b, bc, rr->from, rr->decider);
		return;
	}
	if (rr->why) {
		if (rr->role >= 0)
			hp_buf_printf(b, "as %s: %s", hp_role_names[rr->role], rr->why);
		else
			hp_buf_puts(b, rr->why);
		return;
	}
	uint32_t held = rr->count[HP_OUT_HOLDS];
	if (held)
		hp_buf_printf(b, "%u check%s held", held, held == 1 ? "" : "s");
	else
		hp_buf_puts(b, "no check ran");
}
