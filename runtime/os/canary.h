/* canary.h: can one role reach another role's process? (the
 * signal, ptrace and proc_mem probes; docs/runtime.md, A.11, A.13, B.22, B.23.)
 *
 * The runtime (root) starts a canary as one role, say hangar: a forked
 * child that takes the role's identity (identity.h; for hangar dumpable
 * 1, as the driver is after its execve), closes every descriptor, reports
 * on a pipe that its switch succeeded, and pauses until it is killed. The
 * runtime holds it unreaped, and holds a pidfd on it, so its pid cannot be
 * reused while probes run. Another role's child (say the agent's) is
 * handed the pid, the pidfd and the report's pipe (child.h keep_fds),
 * reads the report before its first attempt (hp_os_canary_ready: nothing
 * is tried on a canary that has not said "ok"), and tries:
 *   signal    pidfd_send_signal(pidfd, 0), or kill(pid, 0) without pidfds;
 *   ptrace    PTRACE_SEIZE, and if that succeeds, an immediate
 *             PTRACE_INTERRUPT, wait and PTRACE_DETACH (the prober's exit
 *             detaches too); why records Yama's ptrace_scope (A.11);
 *   proc_mem  open /proc/PID/mem for reading, /proc checked to be procfs.
 * Success is true, EPERM or EACCES is false (for proc_mem, ENOENT while the
 * canary is alive is false as well: hidepid hides it), anything else, or a
 * canary that is no longer alive before or after the attempt, is unknown.
 * hp_os_canary_stop SIGKILLs and reaps it, always; a canary whose switch
 * failed is reaped before hp_os_canary_start returns. hp_os_canary_spawn
 * starts it without waiting for its report, so that the prober starts
 * while the canary switches (its report is then the prober's to read).
 */
#ifndef HP_CANARY_H
#define HP_CANARY_H

#include <stdint.h>
#include <sys/types.h>

#include "os/identity.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

typedef struct {
	pid_t pid;    /* 0 when not running */
	int pidfd;    /* -1 without pidfds */
	int word_fd;  /* its report, not read yet; -1 once read */
	int wait_ms;  /* how long the report may take, from the fork */
	int64_t end_ms; /* when that is (hp_os_now_ms's clock) */
	hp_tri ready; /* once read: true when it said "ok", else why says why */
	hp_err why;
} hp_canary;

/* A canary not started (pid 0, no descriptors). */
void hp_os_canary_init(hp_canary *c);
/* Fork the canary; its report is read later, by hp_os_canary_ready, in
 * this process or in a child that keeps word_fd (the runtime closes its
 * own copy once that child runs). Unknown, with nothing running, when it
 * cannot be forked. */
hp_tri hp_os_canary_spawn(hp_canary *c, const hp_identity *id, int wait_ms, hp_err *why);
/* Its report, read once (waiting at most until wait_ms after the fork,
 * however late it is asked): true when the canary runs as its role, else
 * unknown with its reason or "no word from it". */
hp_tri hp_os_canary_ready(hp_canary *c, hp_err *why);
/* Both at once; a canary that is not ready is stopped. */
hp_tri hp_os_canary_start(hp_canary *c, const hp_identity *id, int deadline_ms, hp_err *why);
void hp_os_canary_stop(hp_canary *c);

/* From the probing role's child. why is set for every answer (evidence or
 * reason). */
hp_tri hp_os_canary_signal(const hp_canary *c, hp_err *why);
hp_tri hp_os_canary_ptrace(const hp_canary *c, hp_err *why);
hp_tri hp_os_canary_proc_mem(const hp_canary *c, hp_err *why);

#endif
