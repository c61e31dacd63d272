/* child.h: run a function in a forked child that has become a role, with a
 * deadline, and get its answers back over a pipe as a framed message
 * (frame.h). docs/runtime.md, A.10–A.12, C.30, C.31 and the
 * CVE-2024-21626 attack (stray descriptors, cwd outside the root).
 *
 * In the child, before the function runs:
 *   - a process group of its own (the deadline kills the whole group);
 *   - stdin, stdout and stderr on /dev/null (an agent-role child must not
 *     write into the report);
 *   - every other descriptor closed except the result pipe and keep_fds:
 *     close_range(2) over the gaps, or /proc/self/fd when close_range is
 *     missing or filtered, or a loop up to the descriptor limit;
 *   - the working directory set to cwd_fd (the root), never left where the
 *     runtime was started;
 *   - the identity taken (identity.h), and only then PR_SET_PDEATHSIG
 *     (a credential change clears it), and a check that the parent is still
 *     the one that forked it.
 * If any of these fails, the child sends a reason instead of results.
 *
 * The parent reads at most max_msg bytes until the deadline, then waits
 * for the exit (a pidfd when the kernel has them). On the deadline, an
 * oversized message, or anything else that goes wrong, it SIGKILLs the
 * child's process group and the child, and always reaps it. The result is
 * HP_TRUE only when the child exited 0 after sending one well-formed
 * message; otherwise HP_UNKNOWN with a reason:
 *   "child exceeded its 200 ms deadline"
 *   "child sent more than 4096 bytes"
 *   "child killed by signal 11"
 *   "child exited with status 3"
 *   "child sent a malformed message: frame: bad magic"
 *   "identity: setuid(0) succeeded: ..." (the child's own reason)
 * The calling process becomes a child subreaper (PR_SET_CHILD_SUBREAPER),
 * so grandchildren killed with the group are reaped here, not left as
 * zombies under a container init that may not reap.
 * The runtime is single-threaded; fork is the only way these children are
 * made (sudo_live.c vforks only a child that execs at once).
 */
#ifndef HP_CHILD_H
#define HP_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/frame.h"
#include "os/identity.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

typedef struct {
	const hp_identity *identity; /* NULL: unchanged */
	int cwd_fd;                  /* directory to work in; -1: "/" */
	const int *keep_fds;         /* descriptors the function needs */
	size_t nkeep;
	int deadline_ms; /* > 0 */
	size_t max_msg;  /* bytes; > HP_FRAME_HEADER */
	size_t max_records;
	/* 1: the child is the first process (init) of a pid namespace of its own
	 * (CLONE_NEWPID, which needs CAP_SYS_ADMIN), so that nothing it starts
	 * can outlive it: when it dies, by the deadline or with the whole check
	 * (its PR_SET_PDEATHSIG), the kernel kills every process in the
	 * namespace, a grandchild that double-forked, changed its session or
	 * ran a setuid program (which clears its own PDEATHSIG) included.
	 * Where the namespace cannot be made the child is not started:
	 * "child: no pid namespace of its own: Operation not permitted",
	 * unless pid_namespace_optional is set. */
	int own_pid_namespace;
	/* 1: where the kernel refuses the namespace (EPERM without
	 * CAP_SYS_ADMIN, as in a Docker container with its default
	 * capabilities; EINVAL, ENOSPC, EUSERS, ENOSYS), start an ordinary
	 * child instead: its process group is killed at the deadline and
	 * when the check ends, but a process that left the group outlives
	 * the child unless it is found another way (the sudo job's runs
	 * announce pidfds of themselves: adopted.h), and can outlive a
	 * SIGKILL of the check (docs/runtime.md, the sudo probe). */
	int pid_namespace_optional;
} hp_child_opts;

/* The tag the child layer uses for a reason instead of results. */
enum { HP_CHILD_TAG_ERROR = 0xffff };

/* The function run in the child: it adds records (tags below
 * HP_FRAME_TAG_RESERVED) to out and returns 0; a non-zero return sends
 * "the child's function failed" instead of the records. */
typedef int (*hp_child_fn)(void *arg, hp_frame_writer *out);

/* Run fn(arg) in a child as described. On HP_TRUE, *result holds the
 * records (free with hp_frame_free). */
hp_tri hp_os_child_run(const hp_child_opts *o, hp_child_fn fn, void *arg, hp_frame *result,
                    hp_err *why);

/* The same in two steps, so that a caller can run other children while
 * this one works: hp_os_child_start forks it (HP_TRUE, or HP_UNKNOWN with
 * why and nothing started); hp_os_child_finish reads its message until
 * the deadline counted from the start, reaps it and answers as
 * hp_os_child_run does. Every started child must be finished. */
typedef struct {
	pid_t pid; /* -1: none */
	int pidfd, fd;
	int64_t end;
	int deadline_ms;
	size_t max_msg, max_records;
} hp_child;

hp_tri hp_os_child_start(const hp_child_opts *o, hp_child_fn fn, void *arg, hp_child *c,
                         hp_err *why);
hp_tri hp_os_child_finish(hp_child *c, hp_frame *result, hp_err *why);

/* What the caller does for the child while it waits for its message: fd
 * is watched beside the child's result pipe, and serve(ctx, fd, end) is
 * called each time it is readable (end: the child's deadline, as
 * hp_os_now_ms counts); serve returns false to stop watching fd (its peer
 * closed it, or it sent something malformed). The child's questions are
 * answered before its message is read further. */
typedef struct {
	int fd;
	bool (*serve)(void *ctx, int fd, int64_t end);
	void *ctx;
} hp_child_service;

/* hp_os_child_finish, answering svc (NULL: none) meanwhile. */
hp_tri hp_os_child_finish_serving(hp_child *c, const hp_child_service *svc, hp_frame *result,
                                  hp_err *why);

/* Close every descriptor above 2 except keep[0..n) (used in the child, and
 * by sudo_live before exec). 0, or -1 when even the fallback failed. */
int hp_os_close_fds_except(const int *keep, size_t n);

/* For any process the runtime forks: default handlers for every signal
 * and an empty mask (the parent's handlers are not the child's business). */
void hp_os_reset_signals(void);

/* Wait, without reaping, until child pid exits or the monotonic deadline
 * end (hp_os_now_ms) passes: 0, or -1 at the deadline. pidfd may be -1. */
int hp_os_wait_exit(pid_t pid, int pidfd, int64_t end);

/* SIGKILL child pid's process group and pid (pidfd when there is one),
 * reap it and what its group left behind; its wait status. */
int hp_os_kill_reap(pid_t pid, int pidfd);

/* Reap what is left of process group pgid among the caller's children
 * (orphans come to the caller when it is a child subreaper): for about
 * 200 ms at most, until none is left. */
void hp_os_reap_group(pid_t pgid);

#endif
