/* vm.h: runs verified bytecode against a probe backend.
 *
 * Execution model (docs/bytecode.md, "Execution"):
 *   1. hp_globals_eval, once, as root: every param (its --param override
 *      instead of its code when one is given), every role's identity and
 *      every provider condition, in table order. Only GLOBAL probes can be
 *      asked here (the verifier sees to it), and they are asked as root.
 *   2. hp_vm_run_role, once per role, in production in a child process
 *      that has switched to the role's identity: the role's checks run
 *      against the backend and fill an hp_role_result (result.h), which is
 *      plain data the child can send back (hp_role_result_encode).
 *   3. hp_combine (combine.h) turns the roles' results into rule results.
 *
 * Values are three-valued (value.h). An assertion whose value is not a
 * known bool is an error (UNKNOWN, ABSENT) or skipped (SKIPPED), never a
 * pass. The verifier proves a bound on every region; the limits here are a
 * second line of defence, and they also bound what the verifier cannot
 * see: time spent in the backend and memory. A run that hits one stops,
 * and every rule it could not finish is an error.
 */
#ifndef HP_VM_H
#define HP_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/backend.h"
#include "vm/params.h"
#include "model/bytecode.h"
#include "lib/pool.h"
#include "vm/result.h"
#include "model/value.h"

#define HP_VM_DEFAULT_MILLIS 30000u      /* wall time of one run */
#define HP_VM_DEFAULT_MEMORY (64u << 20) /* bytes of values and results of one run */

typedef struct {
	uint64_t max_steps;  /* instructions */
	uint64_t max_probes; /* questions to the backend (cached answers included) */
	uint64_t max_millis; /* wall time; 0: none */
	size_t max_memory;   /* bytes */
} hp_limits;

/* HP_BC_MAX_STEPS, HP_BC_MAX_PROBES, HP_VM_DEFAULT_MILLIS, HP_VM_DEFAULT_MEMORY */
void hp_limits_default(hp_limits *l);

typedef struct {
	uint32_t first, count;
} hp_obs_range;

/* What phase one computed. Values point into pool (or the program). */
typedef struct {
	hp_pool pool;
	hp_value *params;                 /* one per param */
	bool *overridden;                 /* one per param */
	hp_value identity[HP_ROLE_COUNT]; /* declared roles: a uid (int) or a user */
	hp_value *conds;                  /* one per provider condition: a bool */
	hp_role_result facts;             /* what phase one asked (role root) */
	/* phase one's answers, kept as values so that role runs answer the
	 * same GLOBAL questions the same way without asking again */
	uint32_t nseeds;
	uint8_t *seed_probe;
	hp_value *seed_arg, *seed_ans;
	const char **seed_where; /* the backend's where for each, or NULL */
	/* which of facts' observations (facts.obs[first .. first + count))
	 * each param and each role's identity looked at, answers found in the
	 * cache included: where a role's user came from */
	hp_obs_range *param_obs;                /* one per param; empty when overridden */
	hp_obs_range identity_obs[HP_ROLE_COUNT];
} hp_globals;

/* Phase one. false (with err) only for a bad override: an unknown name or
 * a value that does not parse. Everything else is a value, maybe UNKNOWN. */
bool hp_globals_eval(const hp_bc *bc, hp_backend *b, const hp_param_override *ov, size_t nov,
                     const hp_limits *lim, hp_globals *g, hp_err *err);
void hp_globals_free(hp_globals *g);

/* Ask one more GLOBAL question after phase one, as if the policy had:
 * the answer joins phase one's facts (so --record writes it and --facts
 * answers it) and its seeds; a question phase one asked already is not
 * asked again. For hangar's own settings, which a recording made in the
 * sandbox can make stricter. The answer's memory is the globals' pool. */
hp_value hp_globals_ask(const hp_bc *bc, hp_backend *b, const hp_limits *lim, hp_globals *g,
                        hp_probe_id probe, const hp_value *arg);

/* Phase two for one role. out is initialised here; free it with
 * hp_role_result_free. A role the program does not declare gets a complete
 * run with no outcomes. */
void hp_vm_run_role(const hp_bc *bc, const hp_globals *g, hp_role role, hp_backend *b,
                    const hp_limits *lim, hp_role_result *out);

#endif
