/* cleanup.h: nothing the check started may outlive it, even when the check
 * itself is interrupted (docs/runtime.md, "The session").
 *
 * Role children, canaries and the sudo job set PR_SET_PDEATHSIG, so they
 * die with the check. What they start in turn does not always: sudo runs
 * in a session of its own, and the kernel clears the parent-death signal
 * when a set-user-ID program is executed. So while a session runs, the
 * termination signals (SIGHUP, SIGINT, SIGQUIT, SIGTERM) are caught: the
 * handler SIGKILLs every descendant of the check, found through /proc (the
 * check is a child subreaper, so orphans of its children are its own), then
 * restores the default action and re-raises the signal. The handler uses
 * only async-signal-safe system calls and a fixed stack buffer.
 */
#ifndef HP_CLEANUP_H
#define HP_CLEANUP_H

/* Catch the termination signals until hp_os_cleanup_restore; the previous
 * dispositions are kept. Not nested: a second install is a no-op.
 *
 * backstop_ms > 0 also arms a timer (ITIMER_REAL, SIGALRM) for the whole
 * check: the session keeps every child within its deadline, but what the
 * check does itself (reading etc files, phase one's global probes) can
 * block on a hung filesystem; when the timer fires, the handler kills
 * every descendant, writes "hangar-policy: the check did not finish within
 * N ms" to stderr and exits with status 4 (the check could not run). */
void hp_os_cleanup_install(unsigned backstop_ms);
void hp_os_cleanup_restore(void);

/* SIGKILL every descendant of the calling process (async-signal-safe);
 * the number of processes signalled. */
int hp_os_kill_descendants(void);

#endif
