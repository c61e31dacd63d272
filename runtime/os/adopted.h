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
 * child the check has not reaped keeps its pid and its group's id, so a
 * pidfd read from the socket reaches no process but the one it names and
 * that process's group. What names it is the socket's other end: only
 * the job and its runs before their exec ever hold it, processes of the
 * agent's uid that are not dumpable (the agent can neither trace them nor
 * take their descriptors), and every other child of the check closes it.
 * The job announces its runs only where it is not the first process of a
 * pid namespace of its own: there the kernel stops them, and an
 * announcement could only fail (the agent can fill its quota of
 * descriptors in flight) and make the answer unknown.
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
 * kernel without waitid(P_PIDFD), Linux 5.4): false. Never blocks for
 * long: a process the kernel will not let it signal (a seccomp profile
 * refusing pidfd_send_signal) is left at once, and one that has not
 * exited half a second after its SIGKILL (uninterruptible sleep) is left
 * unreaped: false. */
bool hp_os_reap_adopted(int pidfd);

/* Read every announcement queued on sock (the announcers' end closed or
 * not) without waiting, and hp_os_reap_adopted each pidfd; the number of
 * processes killed and reaped. */
int hp_os_reap_announced(int sock);

#endif
