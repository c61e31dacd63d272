/* capstate.h: a process's capability sets, no_new_privs, dumpable flag,
 * securebits and ids, as the kernel reports them: what the probes
 * caps.effective, caps.permitted, caps.inheritable, caps.ambient,
 * caps.bounding and no_new_privs answer for a role (asked in the role's
 * child), and what identity.h checks after every switch.
 *
 * For the calling process both sources are read and must agree: the Cap*
 * and NoNewPrivs lines of /proc/self/status (procfs verified) and the
 * system calls (capget through libcap, PR_CAPBSET_READ, PR_CAP_AMBIENT for
 * the capabilities both permitted and inheritable, PR_GET_NO_NEW_PRIVS).
 * A disagreement, a missing line or a set with bits past the kernel's last
 * capability is unknown. Another process is read from its /proc/PID/status
 * only (A.13; the caller pins the pid).
 *
 * Capability sets are 64-bit masks, bit n being capability n, as value.h
 * keeps the caps type.
 */
#ifndef HP_CAPSTATE_H
#define HP_CAPSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

typedef struct {
	uint64_t effective, permitted, inheritable, ambient, bounding;
	int no_new_privs;
	int dumpable;   /* -1 when not known (another process) */
	int securebits; /* -1 when not known (another process) */
	uid_t uid[4];   /* real, effective, saved, filesystem */
	gid_t gid[4];
} hp_capstate;

/* Parse the text of a /proc/PID/status file: Uid, Gid, CapInh, CapPrm,
 * CapEff, CapBnd, CapAmb and NoNewPrivs must all be there, once. */
hp_tri hp_os_capstate_parse_status(const char *buf, size_t len, hp_capstate *s, hp_err *why);

/* The calling process, from both sources (see above). */
hp_tri hp_os_capstate_self(hp_capstate *s, hp_err *why);

#endif
