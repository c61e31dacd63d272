/* adopted.h: processes that outlive the process that started them, found
 * and stopped by the subreaper they fall to (docs/runtime.md, the sudo
 * probe).
 *
 * A job of the check runs setuid programs (sudo) as a role's user, each in
 * a session of its own. Where the job is the first process of a pid
 * namespace, nothing it starts outlives it. Where the kernel refuses the
 * namespace (a container without CAP_SYS_ADMIN), a run still in flight
 * when the job dies (the deadline, or the role's user killing its own
 * process) is reparented to the check, a child subreaper (child.h), and a
 * process group kill of the job does not reach it. So each such run
 * announces itself before it execs: it sends a pidfd of itself over a
 * socket (SOCK_SEQPACKET, SCM_RIGHTS) whose other end the check keeps. A
 * run that cannot announce itself does not exec: the job reads that as a
 * failed run, never as an answer. Once the job is reaped, the check reads
 * every announcement: a run its job did not reap is the check's child now,
 * and is killed and reaped with its process group; a run already reaped,
 * or a pidfd of any process that is not the check's child, is left
 * alone. A pidfd names its process whatever becomes of the pid, and a
 * child the check has not reaped keeps its pid and its group's id, so
 * nothing else is ever signalled.
 */
#ifndef HP_OS_ADOPTED_H
#define HP_OS_ADOPTED_H

#include <stdbool.h>

/* Whether this kernel gives pidfds (pidfd_open(2), Linux 5.3): only then
 * can a run announce itself. */
bool hp_os_announce_works(void);

/* Send a pidfd of the calling process on sock. System calls only, nothing
 * allocated: for a vfork child before its execve. 0, or -1 with errno. */
int hp_os_announce_self(int sock);

/* Kill and reap the process behind pidfd, with its process group, if it is
 * a child of the calling process that is not reaped yet: true; else
 * nothing is done (a process that is not its child, one already reaped, a
 * kernel without waitid(P_PIDFD), Linux 5.4): false. */
bool hp_os_reap_adopted(int pidfd);

/* Read every announcement queued on sock (the announcers' end closed or
 * not) without waiting, and hp_os_reap_adopted each pidfd; the number of
 * processes killed and reaped. */
int hp_os_reap_announced(int sock);

#endif
