/* procs.h: the procs_visible probe: can the calling process (a role's
 * child) see processes of another uid in /proc? (a driver
 * whose processes the agent can list leaks its command lines and
 * environment sizes, and makes it a target.)
 *
 * /proc is checked to be procfs, then its numeric entries are read (at
 * most max_entries: past that, unknown). A process counts as uid's when its
 * /proc/PID/status is readable and its real uid is uid, or, when the status
 * is hidden (hidepid=1), when the owner of its /proc/PID directory is uid:
 * the kernel shows the effective uid there even for a non-dumpable process
 * (task_dump_owner exempts the pid directory, since Linux 4.11). Processes
 * that exit meanwhile are skipped.
 *
 * Processes the caller says are not the system's own are not counted
 * (skip: the check's processes of another role's run, session.c): a
 * process whose pid is one of skip, or one whose status is readable and
 * whose parent, or an ancestor up to 8 steps up, is one of them (what a
 * skipped sudo job started). The pids must stay pinned (unreaped children
 * of the check) while this runs.
 *
 * hp_os_proc_pid_visible asks the same about one pid (a canary the runtime
 * started as that uid, so the pid cannot have been reused): whether its
 * /proc entry exists for the caller (hidepid=2 hides it; hidepid=1 only
 * hides what is inside).
 */
#ifndef HP_PROCS_H
#define HP_PROCS_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

enum { HP_PROCS_MAX_DEFAULT = 1 << 16 };

hp_tri hp_os_procs_visible(uid_t uid, size_t max_entries, const pid_t *skip, size_t nskip,
                           hp_err *why);
hp_tri hp_os_proc_pid_visible(pid_t pid, hp_err *why);

#endif
