/* backend.h: the probe backend interface, the one way the VM asks the
 * system a question. A backend answers the probes of probes.def as a role:
 *
 *   live    the running sandbox (syscalls, in the role's own child process)
 *   rootfs  an unpacked image directory, nothing in it executed
 *   facts   answers recorded earlier or written by hand (facts.h)
 *
 * A backend is a struct whose first member is `hp_backend`, pointing at its
 * operations table. The VM never looks past that member.
 */
#ifndef HP_BACKEND_H
#define HP_BACKEND_H

#include "lib/pool.h"
#include "model/domain.h"
#include "model/value.h"
#include "vm/probe_arg.h"

typedef struct hp_backend hp_backend;

typedef struct {
	const char *name; /* "live", "rootfs", "facts": shown in evidence */
	/* Answer probe as role. arg is the probe's argument: a KNOWN value of
	 * the probe's argument type (hp_probes[probe].arg), or a KNOWN value of
	 * type HP_T_NONE for a probe without one. The VM only asks with known
	 * arguments, and asks each (role, probe, argument) at most once per run.
	 *
	 * The answer is one of:
	 *   a KNOWN value of the probe's result type (hp_probes[probe].result);
	 *   hp_v_absent(): known not to exist (no such user, path, variable);
	 *   hp_v_unknown(REASON): it could not be asked or not trusted;
	 *   hp_v_skipped(REASON): deliberately not asked (a LIVE probe offline).
	 * It never fails in any other way: every error is UNKNOWN, never false.
	 * A path argument that is not absolute never reaches it
	 * (probe_arg.h: hp_backend_ask answers UNKNOWN for every backend).
	 * An answer of another type is turned into UNKNOWN by the VM.
	 *
	 * Memory: strings, lists, records and reasons in the answer come from
	 * pool (it is the run's; hp_pool_alloc returns NULL past its limit,
	 * and the answer is then UNKNOWN "memory limit") or from storage the
	 * backend keeps until it is destroyed. */
	hp_value (*ask)(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
	                hp_pool *pool);
	/* Free the backend (may be NULL when there is nothing to free). */
	void (*destroy)(hp_backend *b);
	/* Where the last answer to this question came from, for evidence
	 * ("pod.yaml:23:11: spec.containers[1].securityContext.privileged"),
	 * in pool or the backend's storage; NULL when there is nothing to say.
	 * The op itself may be NULL. */
	const char *(*where)(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
	                     hp_pool *pool);
} hp_backend_ops;

struct hp_backend {
	const hp_backend_ops *ops;
};

static inline hp_value hp_backend_ask(hp_backend *b, hp_role role, hp_probe_id probe,
                                      const hp_value *arg, hp_pool *pool)
{
	/* a path that is not absolute names nothing any backend can know */
	hp_value refused;
	if (hp_probe_arg_refused(probe, arg, pool, &refused))
		return refused;
	return b->ops->ask(b, role, probe, arg, pool);
}

static inline const char *hp_backend_where(hp_backend *b, hp_role role, hp_probe_id probe,
                                           const hp_value *arg, hp_pool *pool)
{
	return b->ops->where ? b->ops->where(b, role, probe, arg, pool) : NULL;
}

static inline void hp_backend_destroy(hp_backend *b)
{
	if (b && b->ops->destroy)
		b->ops->destroy(b);
}

#endif
