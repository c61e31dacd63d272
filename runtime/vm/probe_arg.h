/* probe_arg.h: the arguments a backend is never asked about. A probe whose
 * argument names a file (probe_arg_kind) is answered only for an absolute
 * path: a relative one ("bin", ".", "node_modules/.bin", " /usr/bin",
 * "~/bin", "") would be resolved by whoever uses it against its working
 * directory, which the agent may choose (the driver is started in the
 * agent's workspace), so no backend can say what it names. The check is
 * made once, in hp_backend_ask, for every backend (live, rootfs, facts) and
 * every caller (the VM, the root helper), so a path that enters a probe
 * from a param, a PATH entry or a recorded fact is refused the same way.
 */
#ifndef HP_PROBE_ARG_H
#define HP_PROBE_ARG_H

#include <stdbool.h>

#include "lib/pool.h"
#include "model/domain.h"
#include "model/value.h"

typedef enum {
	HP_ARG_PLAIN,   /* not a path: a name, a number, a role, nothing */
	HP_ARG_PATH,    /* one absolute path */
} hp_probe_arg_kind;

/* What the argument of probe p is. Every probe is listed: a new probe that
 * is not is a compile error (-Wswitch), so none takes a path unchecked. */
hp_probe_arg_kind hp_probe_arg_kind_of(hp_probe_id p);

/* Why s (len bytes) cannot be used as an absolute path, or NULL when it
 * can: empty, relative, or holding a NUL byte. The sentence names s. */
const char *hp_path_arg_problem(const char *s, size_t len, hp_pool *pool);

/* When arg may not be asked about, *out is UNKNOWN with the reason and the
 * answer is true; false when the backend may be asked. */
bool hp_probe_arg_refused(hp_probe_id p, const hp_value *arg, hp_pool *pool, hp_value *out);

#endif
