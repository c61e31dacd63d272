/* eval.h: evaluating a verified program, as one library call: phase one
 * (params, identities, provider conditions, as root), each role's checks
 * through a backend, and the rule results. `check` is a thin command over
 * it; the live runner plugs in its own way of running a role (a forked
 * child with the role's identity) through hp_eval_opts.run_role.
 *
 * Adapters give decide.h what it reads: one hp_rule_outcome per rule and a
 * provider's conditions as hp_provider_policy. */
#ifndef HP_EVAL_H
#define HP_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "vm/backend.h"
#include "lib/buf.h"
#include "model/bytecode.h"
#include "check/combine.h"
#include "check/decide.h"
#include "vm/result.h"
#include "lib/strv.h"
#include "vm/vm.h"

/* How one role's checks are run. The default runs them in this process
 * (hp_vm_run_role); a live runner forks a child that takes the role's
 * identity, runs hp_vm_run_role there, and sends the result back
 * (hp_role_result_encode / hp_role_result_decode), or fills out with
 * hp_role_result_not_run when the role cannot run. A runner may also
 * leave out to be filled later, while the next roles run, by its
 * finish hook, which the evaluation calls once after the last role and
 * before any rule is combined. */
typedef void (*hp_run_role_fn)(void *ctx, const hp_bc *bc, const hp_globals *g, hp_role role,
			       hp_backend *b, const hp_limits *lim, hp_role_result *out);
typedef void (*hp_finish_roles_fn)(void *ctx);

typedef struct {
	hp_run_role_fn run_role; /* NULL: in this process */
	void *ctx;
	unsigned roles;          /* bit per role to run (1u << HP_ROLE_x); 0: all */
	const hp_limits *limits; /* NULL: hp_limits_default */
	hp_finish_roles_fn finish; /* NULL: none; else called after the last role */
} hp_eval_opts;

typedef struct {
	const hp_bc *bc;
	hp_globals globals;
	hp_role_result roles[HP_ROLE_COUNT]; /* every role, declared or not */
	hp_rule_result *rules;               /* one per rule */
	/* HP_ENVD_SETTING as the backend answered it (the live system's
	 * environment, or a recording's): asked after phase one whatever the
	 * policy, so that every recording carries it */
	hp_value envd_setting;
} hp_eval;

/* false only for a bad --param (err set: exit status 2). */
bool hp_eval_run(const hp_bc *bc, hp_backend *b, const hp_param_override *ov, size_t nov,
		 const hp_eval_opts *opts, hp_eval *ev, hp_err *err);
void hp_eval_free(hp_eval *ev);

/* Each rule's result with its evidence, the provider conditions, and a
 * count, as text for people. */
void hp_eval_print(hp_buf *b, const hp_eval *ev);

/* One outcome per rule for hp_decide; the strings live in keep. */
void hp_eval_rule_outcomes(const hp_eval *ev, hp_rule_outcome *out, hp_strv *keep);
/* Provider p's default and evaluated conditions for hp_decide. conds must
 * hold bc->nconds entries; strings live in keep. false when the policy
 * does not declare p. */
bool hp_eval_provider(const hp_eval *ev, hp_provider p, hp_provider_policy *pp,
		      hp_condition *conds, hp_strv *keep);

#endif
