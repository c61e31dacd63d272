/* combine.h: from the roles' results to one result per rule.
 *
 * A rule fails if any of its assertions failed; else it is an error if any
 * was UNKNOWN or ABSENT, or a role it has assertions in stopped on a limit;
 * else it is skipped if any was SKIPPED, or a role it has assertions in did
 * not run; else it passes. The deciding assertion is the first outcome of
 * the deciding kind, in role order (root, hangar, agent) then run order. */
#ifndef HP_COMBINE_H
#define HP_COMBINE_H

#include <stdint.h>

#include "lib/buf.h"
#include "model/bytecode.h"
#include "vm/result.h"

typedef struct {
	hp_result result;
	int role;                   /* the deciding outcome's role, or -1 */
	const hp_outcome *decider;  /* the deciding outcome, or NULL */
	const hp_role_result *from; /* the role result it is in */
	/* when a role's state decided (stopped, not run): why, else NULL */
	const char *why;
	uint32_t count[HP_OUT_COUNT]; /* the rule's outcomes, by kind */
	/* the roles (a bit per role) the rule has checks in that did not run
	 * or stopped, whatever decided the rule: their checks have no
	 * outcome to count, and never pass */
	uint8_t unrun;
} hp_rule_result;

/* roles[r] is role r's result, or NULL when it did not run (skipped, no
 * reason). out has one entry per rule of bc. */
void hp_combine(const hp_bc *bc, const hp_role_result *const roles[HP_ROLE_COUNT],
                hp_rule_result *out);

/* The evidence of a rule result, on one line: the deciding outcome
 * (hp_outcome_format), or why a role decided, or for a pass how many
 * checks held. */
void hp_rule_result_evidence(hp_buf *b, const hp_bc *bc, const hp_rule_result *rr);

#endif
