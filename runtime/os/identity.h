/* identity.h: becoming a role in a forked child, the way the real process
 * starts (docs/runtime.md, A.1–A.12). Called once, in a fresh
 * single-threaded child (child.h does it), before any probe runs; there is
 * no way back, and none is wanted.
 *
 *   HP_ID_UNCHANGED  root: the runtime's own identity, untouched.
 *   HP_ID_KEEP_CAPS  hangar, as util-linux setpriv starts the driver:
 *                    PR_SET_KEEPCAPS(1); setgroups, setresgid, setresuid
 *                    (in that order, A.1); permitted, effective and
 *                    inheritable set to keep_caps with libcap; each kept
 *                    capability raised in the ambient set (a raise needs it
 *                    in both permitted and inheritable, A.7);
 *                    PR_SET_KEEPCAPS(0). The bounding set is left alone, as
 *                    setpriv does.
 *   HP_ID_NO_CAPS    agent, as libcap's cap_set_mode(CAP_MODE_NOPRIV): while
 *                    still root, the bounding set is dropped up to
 *                    /proc/sys/kernel/cap_last_cap (not the compile-time
 *                    CAP_LAST_CAP, A.6) and the securebits NOROOT,
 *                    NO_SETUID_FIXUP, KEEP_CAPS and NO_CAP_AMBIENT_RAISE are
 *                    set and locked; then setgroups, setresgid, setresuid;
 *                    then every set emptied. Always non-dumpable.
 *   HP_ID_PLAIN      any process of the user, the way a login or
 *                    `docker exec --user` starts one: groups, gid and uid,
 *                    every capability set emptied, the bounding set and
 *                    securebits as they were, never no_new_privs. The sudo
 *                    probe runs sudo this way: the harness's restrictions
 *                    are not something every agent process has, and sudo
 *                    refuses to run under no_new_privs (C.28).
 *
 * no_new_privs is set when asked (the policy says so per role), then
 * PR_SET_DUMPABLE is set after the last credential change (the kernel resets
 * it on a uid change, A.10); both are read back.
 *
 * Every step's result is checked, and the state is read back afterwards
 * (A.8: a raise that silently did nothing is caught): getresuid,
 * getresgid and getgroups equal what was asked (A.4); the capability
 * sets, securebits, no_new_privs and dumpable are what they should be
 * (capstate.h, both sources); setuid(0) and setgroups() fail, unless the
 * role keeps CAP_SETUID or CAP_SETGID, whose whole point is that it can.
 * Ids equal to (uid_t)-1 or (gid_t)-1 are refused before anything changes
 * (A.3: setresuid(-1, -1, -1) succeeds and changes nothing). The process
 * must be single-threaded (A.12): glibc's set*id calls are used, never
 * raw system calls.
 *
 * Resolving user names to ids is the etc parsers' job; this takes numbers.
 */
#ifndef HP_IDENTITY_H
#define HP_IDENTITY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

typedef enum { HP_ID_UNCHANGED, HP_ID_KEEP_CAPS, HP_ID_NO_CAPS, HP_ID_PLAIN } hp_id_kind;

enum { HP_ID_MAX_GROUPS = 1024 };

typedef struct {
	hp_id_kind kind;
	uid_t uid;
	gid_t gid;
	const gid_t *groups; /* supplementary groups, from etc/group */
	size_t ngroups;
	uint64_t keep_caps; /* HP_ID_KEEP_CAPS: bit n keeps capability n */
	int no_new_privs;   /* HP_ID_KEEP_CAPS, HP_ID_NO_CAPS */
	int dumpable;       /* HP_ID_KEEP_CAPS, HP_ID_PLAIN: 1 as after the driver's
	                     * execve (a canary), 0 for a probe child */
} hp_identity;

/* Become id. HP_TRUE when every step and every check passed; otherwise
 * HP_UNKNOWN with why saying which step or check failed, and the process
 * must run nothing on the role's behalf (it may be half-switched): every
 * probe of the role is then an error. Never HP_FALSE. */
hp_tri hp_os_identity_become(const hp_identity *id, hp_err *why);

/* The checks alone, on the calling process (become runs them). */
hp_tri hp_os_identity_verify(const hp_identity *id, hp_err *why);

#endif
