/* sudo_live.h: the live sudo probe: can the agent run sudo without a
 * password? (docs/runtime.md, C.25–C.31.)
 *
 * Asked in a child that is the agent the way any of its processes could
 * be (identity.h HP_ID_PLAIN: its uid, gid and groups, no capabilities,
 * never no_new_privs: sudo refuses to run under it, C.28, which must
 * never read as "no sudo"). hp_os_sudo_probe_as forks that child;
 * hp_os_sudo_probe is what runs inside it.
 *
 * Candidates: "sudo" in each directory given (the driver's PATH entries and
 * the standard directories), resolved inside the root with the CHASE_SAFE
 * rule (B.16), each file once (by device and inode). A candidate runs
 * only when it is a regular file, owned by root, setuid, not writable by
 * the agent and not replaceable by it through any directory on the way
 * (access.h, replace.h, asked as the agent). A file that is not setuid root
 * cannot grant root: false for that candidate. One that the agent could
 * write or replace is not run: unknown.
 *
 * Each verified candidate runs twice, `sudo -n -k -- true` and then
 * `sudo -n -k -l` (C.26, C.27; the second not when the first says true,
 * which decides), one after the other (each with its own deadline, output
 * pipe and process group), never -R or -h: each
 * started with vfork where close_range(2) works (the child makes system
 * calls only, then execs: no copy of the prober's memory is made and torn
 * down for it), else with fork; announced first, when the options ask,
 * by a pidfd of itself sent to the check (adopted.h), or not run; executed from its verified descriptor
 * (execveat with AT_EMPTY_PATH, C.25), no PATH lookup, in a new session
 * with no controlling terminal, stdin /dev/null, stdout and stderr one pipe,
 * every other descriptor closed, core dumps off, and an environment of
 * exactly PATH=/usr/sbin:/usr/bin:/sbin:/bin and LC_ALL=C: nothing from the
 * check's own environment (LD_PRELOAD, BASH_ENV, SUDO_ASKPASS...) reaches
 * it. At the deadline the process group is SIGKILLed; it is always reaped.
 * Output past the cap is unknown (C.31).
 *
 * A run answers: exit 0: true; a refusal that says a password is required
 * or the user may not run the command: false; anything else (a signal, the
 * deadline, too much output, "no new privileges", "you do not exist in the
 * passwd database", a nosuid mount): unknown, with sudo's first line.
 * A candidate is true if either run is, false if both are false, else
 * unknown. The probe is true if any candidate is, unknown if any is, false
 * otherwise (also when no sudo exists). A live "false" is only half the
 * answer: the policy pairs it with the static sudoers check (C.28).
 */
#ifndef HP_SUDO_LIVE_H
#define HP_SUDO_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/frame.h"
#include "os/identity.h"
#include "os/safe_path.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

typedef struct {
	int deadline_ms; /* each run of sudo; > 0 */
	size_t out_cap;  /* bytes of output kept; more is unknown */
	/* each run's process sends a pidfd of itself on announce_fd before
	 * it execs, and one that cannot is not run (adopted.h) */
	bool announce;
	int announce_fd;
} hp_sudo_opts;

/* The directories always searched, besides the driver's PATH. */
extern const char *const hp_os_sudo_std_dirs[];
extern const size_t hp_os_sudo_n_std_dirs;

/* What one run did. */
typedef struct {
	int timed_out, overflow, signaled, exit_status;
	char *out; /* NUL-terminated; the caller frees */
	size_t len;
} hp_sudo_run;

/* Verify "sudo" under dir (inside r) as the calling process. HP_TRUE with
 * *fd an O_PATH descriptor of the verified binary; HP_FALSE when there is
 * no setuid-root file there; HP_UNKNOWN otherwise. why is always set. */
hp_tri hp_os_sudo_verify(const hp_root *r, const char *dir, int *fd, hp_err *why);

/* Run the binary behind fd with argv (argv[0] first) as described. HP_TRUE
 * when it ran (whatever it answered: see run), HP_UNKNOWN when it could not
 * be started. */
hp_tri hp_os_sudo_exec(int fd, const char *const argv[], const hp_sudo_opts *o, hp_sudo_run *run,
                    hp_err *why);

/* What a run means (see above). */
hp_tri hp_os_sudo_classify(const hp_sudo_run *run, const hp_sudo_opts *o, hp_err *why);

/* The probe, in the calling process (already the agent's plain child). */
hp_tri hp_os_sudo_probe(const hp_root *r, const char *const *dirs, size_t ndirs, const hp_sudo_opts *o,
                     hp_err *why);

/* The probe in a child (child.h): hp_os_sudo_child is the child's function,
 * which runs hp_os_sudo_probe on an hp_sudo_job and sends its answer and
 * reason back as a frame; hp_os_sudo_child_answer reads that frame in the
 * parent (UNKNOWN, "sudo: the child's answer is malformed", when it is not
 * what hp_os_sudo_child writes). The frame's tags are sudo_live.c's alone. */
typedef struct {
	const hp_root *r;
	const char *const *dirs;
	size_t ndirs;
	const hp_sudo_opts *o;
} hp_sudo_job;
int hp_os_sudo_child(void *job, hp_frame_writer *out);
hp_tri hp_os_sudo_child_answer(const hp_frame *f, hp_err *why);

/* The probe in a child with identity id (HP_ID_PLAIN), with an overall
 * deadline covering every run. */
hp_tri hp_os_sudo_probe_as(const hp_root *r, const hp_identity *id, const char *const *dirs,
                        size_t ndirs, const hp_sudo_opts *o, hp_err *why);

#endif
