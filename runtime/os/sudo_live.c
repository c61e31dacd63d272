/* sudo_live.c: find, verify and run sudo as the agent, fenced in. */
#include "os/sudo_live.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/access.h"
#include "os/adopted.h"
#include "os/child.h"
#include "os/replace.h"
#include "os/sysx.h"

const char *const hp_os_sudo_std_dirs[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                        "/usr/bin",        "/sbin",          "/bin"};
const size_t hp_os_sudo_n_std_dirs = sizeof hp_os_sudo_std_dirs / sizeof hp_os_sudo_std_dirs[0];

static char *const sudo_env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};

enum { MAX_CANDIDATES = 64 };

hp_tri hp_os_sudo_verify(const hp_root *r, const char *dir, int *fd, hp_err *why)
{
	*fd = -1;
	char *path = hp_xasprintf("%s/sudo", dir);
	int f;
	hp_err e;
	/* A sudo the agent cannot reach by its path is one it cannot run. */
	hp_tri t = hp_os_resolve(r, path, HP_RES_SAFE | HP_RES_DENIED_FALSE, &f, &e);
	if (t != HP_TRUE) {
		hp_err_set(why, "%s", e.msg);
		free(path);
		return t;
	}
	hp_fileinfo fi;
	if (hp_os_fd_info(f, &fi, &e) != HP_TRUE) {
		hp_err_set(why, "%s: %s", path, e.msg);
		t = HP_UNKNOWN;
	} else if (fi.type != HP_FT_FILE || fi.uid != 0 || !(fi.mode & S_ISUID)) {
		hp_err_set(why, "%s: not a setuid-root file: it cannot grant root", path);
		t = HP_FALSE;
	} else {
		hp_tri w = hp_os_access_live(f, HP_ACC_WRITE, &e);
		if (w != HP_FALSE) {
			hp_err_set(why, "%s: %s: not run", path,
			           w == HP_TRUE ? "writable by the agent" : e.msg);
			t = HP_UNKNOWN;
		} else {
			hp_tri rp = hp_os_replaceable_live(r, path, &e);
			if (rp != HP_FALSE) {
				hp_err_set(why, "not run: %s", e.msg);
				t = HP_UNKNOWN;
			} else {
				hp_err_set(why, "%s: verified", path);
				t = HP_TRUE;
			}
		}
	}
	free(path);
	if (t == HP_TRUE)
		*fd = f;
	else
		close(f);
	return t;
}

/* Before anything else in a run's process: announce it (adopted.h) or
 * say why it is not run, and end. System calls only (a vfork child). */
static void announce_or_exit(const hp_sudo_opts *o, int out)
{
	static const char msg[] = "not run: cannot announce the run to the check\n";
	if (o->announce && hp_os_announce_self(o->announce_fd) < 0) {
		(void)!write(out, msg, sizeof msg - 1);
		_exit(126);
	}
}

/* In the forked grandchild: fence in and exec. Never returns. */
static void exec_child(int fd, const char *const argv[], int out, const hp_sudo_opts *o)
{
	hp_os_reset_signals();
	announce_or_exit(o, out);
	if (setsid() < 0)
		_exit(126);
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(126);
	/* not close-on-exec: a script's interpreter opens /dev/fd/N */
	int xfd = dup(fd);
	if (xfd < 0 || hp_os_close_fds_except(&xfd, 1) < 0)
		_exit(126);
	struct rlimit core = {0, 0};
	setrlimit(RLIMIT_CORE, &core);
	syscall(SYS_execveat, xfd, "", (char *const *)argv, sudo_env, AT_EMPTY_PATH);
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fd/%d", xfd);
	execve(p, (char *const *)argv, sudo_env);
	_exit(127);
}

/* The descriptor sudo finds its own binary on (a script's /dev/fd/N). */
enum { SPAWN_XFD = 3 };

/* The same in a vfork child, which runs on its parent's memory until its
 * execve: system calls only, nothing allocated, nothing written but its
 * own stack (in is /dev/null, opened by the parent). The parent blocked
 * every signal before the vfork, so no handler of its runs here; the
 * dispositions are reset while they are blocked, then the mask emptied
 * (execve keeps a mask, and resets only handlers, not SIG_IGN). Never
 * returns. */
static void spawn_child(int fd, const char *const argv[], int out, int in, const hp_sudo_opts *o)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		_exit(126);
	announce_or_exit(o, out);
	if (setsid() < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(126);
	/* not close-on-exec: a script's interpreter opens /dev/fd/N */
	if (fd == SPAWN_XFD ? fcntl(fd, F_SETFD, 0) < 0 : dup2(fd, SPAWN_XFD) < 0)
		_exit(126);
	/* the parent made sure close_range works before it chose this way */
	if (hp_os_sys_close_range(SPAWN_XFD + 1, ~0U, 0) < 0)
		_exit(126);
	struct rlimit core = {0, 0};
	setrlimit(RLIMIT_CORE, &core);
	syscall(SYS_execveat, SPAWN_XFD, "", (char *const *)argv, sudo_env, AT_EMPTY_PATH);
	execve("/proc/self/fd/3", (char *const *)argv, sudo_env);
	_exit(127);
}

/* Whether close_range(2) works here (a kernel before 5.9, or a seccomp
 * profile, may refuse it): only then can a vfork child close what it
 * must without the allocating fallbacks. The range is past any descriptor,
 * so nothing is closed. */
static bool close_range_works(void)
{
	return hp_os_sys_close_range(~0U, ~0U, 0) == 0;
}

/* A child that execs the binary behind fd with its output on out: made
 * with vfork where it can be (no copy of this process's memory to make
 * and tear down: that is most of what starting a process costs), else
 * with fork. The child's pid, or -1 with errno. */
static pid_t spawn(int fd, const char *const argv[], int out, const hp_sudo_opts *o)
{
	if (!close_range_works()) {
		pid_t pid = fork();
		if (pid == 0)
			exec_child(fd, argv, out, o);
		return pid;
	}
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid_t pid = vfork();
	if (pid == 0)
		spawn_child(fd, argv, out, in, o);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(in);
	errno = e;
	return pid;
}

/* A run of sudo started: its process, and the read end of its output. */
typedef struct {
	pid_t pid;
	int pidfd, out;
	int64_t end;
} started;

static hp_tri exec_start(int fd, const char *const argv[], const hp_sudo_opts *o, started *st,
                         hp_err *why)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		hp_err_set(why, "sudo: pipe: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	st->end = hp_os_now_ms() + o->deadline_ms;
	/* what sudo's group leaves behind comes back here to be reaped */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	pid_t pid = spawn(fd, argv, p[1], o);
	if (pid < 0) {
		hp_err_set(why, "sudo: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return HP_UNKNOWN;
	}
	close(p[1]);
	st->pid = pid;
	st->pidfd = hp_os_sys_pidfd_open(pid, 0);
	st->out = p[0];
	return HP_TRUE;
}

/* Read a started run's output until it ends, its deadline or the cap;
 * then wait for it, kill its group and reap it. */
static void exec_collect(started *st, const hp_sudo_opts *o, hp_sudo_run *run)
{
	size_t cap = 1024;
	run->out = hp_xmalloc(cap + 1);
	for (;;) {
		int64_t left = st->end - hp_os_now_ms();
		struct pollfd pf = {st->out, POLLIN, 0};
		int r = left > 0 ? poll(&pf, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			run->timed_out = 1;
			break;
		}
		if (run->len == cap) {
			cap *= 2;
			run->out = hp_xrealloc(run->out, cap + 1);
		}
		ssize_t n = read(st->out, run->out + run->len, cap - run->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		run->len += (size_t)n;
		if (run->len > o->out_cap) {
			run->overflow = 1;
			break;
		}
	}
	close(st->out);
	run->out[run->len] = '\0';
	/* the output is closed; wait for the exit until the deadline */
	if (!run->timed_out && !run->overflow && hp_os_wait_exit(st->pid, st->pidfd, st->end) < 0)
		run->timed_out = 1;
	/* the session's process group, then the process */
	int stat = hp_os_kill_reap(st->pid, st->pidfd);
	if (st->pidfd >= 0)
		close(st->pidfd);
	if (!run->timed_out && !run->overflow) {
		if (WIFSIGNALED(stat))
			run->signaled = WTERMSIG(stat);
		else
			run->exit_status = WEXITSTATUS(stat);
	}
}

hp_tri hp_os_sudo_exec(int fd, const char *const argv[], const hp_sudo_opts *o, hp_sudo_run *run,
                    hp_err *why)
{
	memset(run, 0, sizeof *run);
	started st;
	if (exec_start(fd, argv, o, &st, why) != HP_TRUE)
		return HP_UNKNOWN;
	exec_collect(&st, o, run);
	return HP_TRUE;
}

static int says(const char *out, const char *what)
{
	return strstr(out, what) != NULL;
}

static void first_line(const char *out, char *buf, size_t n)
{
	size_t k = strcspn(out, "\n");
	if (k >= n)
		k = n - 1;
	memcpy(buf, out, k);
	buf[k] = '\0';
}

hp_tri hp_os_sudo_classify(const hp_sudo_run *run, const hp_sudo_opts *o, hp_err *why)
{
	if (run->timed_out) {
		hp_err_set(why, "sudo did not finish within %d ms and was killed", o->deadline_ms);
		return HP_UNKNOWN;
	}
	if (run->overflow) {
		hp_err_set(why, "sudo wrote more than %zu bytes", o->out_cap);
		return HP_UNKNOWN;
	}
	if (run->signaled) {
		hp_err_set(why, "sudo was killed by signal %d", run->signaled);
		return HP_UNKNOWN;
	}
	if (run->exit_status == 0) {
		hp_err_set(why, "sudo exited 0");
		return HP_TRUE;
	}
	char line[256];
	first_line(run->out, line, sizeof line);
	if (says(run->out, "a password is required") ||
	    says(run->out, "is not in the sudoers file") ||
	    says(run->out, "is not allowed to execute") || says(run->out, "may not run sudo on")) {
		hp_err_set(why, "sudo refused: %s", line);
		return HP_FALSE;
	}
	hp_err_set(why, "sudo exited %d: %s", run->exit_status, line[0] ? line : "(no output)");
	return HP_UNKNOWN;
}

/* Both runs of one verified binary: true if either is, false if both are,
 * else unknown; why comes from the run that decided. One after the other:
 * the role's child asks for the answer last, after its scans, so two at
 * once would only take a CPU from it (and where making address spaces
 * does not overlap, two at once cost much more CPU than one after the
 * other); and once the first says true, the second could change neither
 * the answer nor its why, so it is not run. */
static hp_tri run_candidate(int fd, const hp_sudo_opts *o, hp_err *why)
{
	static const char *const a_true[] = {"sudo", "-n", "-k", "--", "true", NULL};
	/* -k on both: each asks what the agent's grants allow, never a
	 * credential sudo cached for it, and neither reads or writes sudo's
	 * timestamp file (one record per parent process the agent ever ran
	 * sudo from, read one read(2) per record: a file the agent can grow
	 * without bound, and a file left behind by the check) */
	static const char *const a_list[] = {"sudo", "-n", "-k", "-l", NULL};
	static const char *const names[] = {"sudo -n -k true", "sudo -n -k -l"};
	const char *const *runs[] = {a_true, a_list};
	hp_tri t[2] = {HP_FALSE, HP_FALSE};
	hp_err e[2];
	started st[2];
	e[1].msg[0] = '\0';
	for (int i = 0; i < 2 && !(i == 1 && t[0] == HP_TRUE); i++) {
		t[i] = exec_start(fd, runs[i], o, &st[i], &e[i]);
		if (t[i] != HP_TRUE)
			continue;
		hp_sudo_run run;
		memset(&run, 0, sizeof run);
		exec_collect(&st[i], o, &run);
		t[i] = hp_os_sudo_classify(&run, o, &e[i]);
		free(run.out);
	}
	hp_tri res = hp_tri_or(t[0], t[1]);
	int k = (res == HP_TRUE) ? (t[0] == HP_TRUE ? 0 : 1)
	                         : (res == HP_UNKNOWN ? (t[0] == HP_UNKNOWN ? 0 : 1) : 0);
	hp_err_set(why, "%s: %s", names[k], e[k].msg);
	return res;
}

hp_tri hp_os_sudo_probe(const hp_root *r, const char *const *dirs, size_t ndirs, const hp_sudo_opts *o,
                     hp_err *why)
{
	dev_t devs[MAX_CANDIDATES];
	ino_t inos[MAX_CANDIDATES];
	size_t nseen = 0;
	hp_tri res = HP_FALSE;
	hp_err_set(why, "no setuid-root sudo found");
	for (size_t i = 0; i < ndirs; i++) {
		int fd;
		hp_err e;
		hp_tri v = hp_os_sudo_verify(r, dirs[i], &fd, &e);
		if (v == HP_FALSE)
			continue;
		if (v == HP_UNKNOWN) {
			if (res == HP_FALSE)
				hp_err_set(why, "%s", e.msg);
			res = HP_UNKNOWN;
			continue;
		}
		hp_fileinfo fi;
		if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE) {
			close(fd);
			res = HP_UNKNOWN;
			continue;
		}
		int dup_seen = 0;
		for (size_t k = 0; k < nseen; k++)
			dup_seen |= devs[k] == fi.dev && inos[k] == fi.ino;
		if (dup_seen) {
			close(fd);
			continue;
		}
		if (nseen == MAX_CANDIDATES) {
			close(fd);
			hp_err_set(why, "more than %d sudo binaries", MAX_CANDIDATES);
			return HP_UNKNOWN;
		}
		devs[nseen] = fi.dev;
		inos[nseen++] = fi.ino;
		hp_tri t = run_candidate(fd, o, &e);
		close(fd);
		if (t == HP_TRUE) {
			hp_err_set(why, "%s/sudo: %s", dirs[i], e.msg);
			return HP_TRUE;
		}
		if (t == HP_UNKNOWN) {
			if (res == HP_FALSE)
				hp_err_set(why, "%s/sudo: %s", dirs[i], e.msg);
			res = HP_UNKNOWN;
		} else if (res == HP_FALSE) {
			hp_err_set(why, "%s/sudo: %s", dirs[i], e.msg);
		}
	}
	return res;
}

/* The records of the sudo child's frame. */
enum { TAG_ANSWER = 1, TAG_WHY = 2 };

int hp_os_sudo_child(void *arg, hp_frame_writer *out)
{
	const hp_sudo_job *j = arg;
	hp_err e;
	e.msg[0] = '\0';
	hp_tri t = hp_os_sudo_probe(j->r, j->dirs, j->ndirs, j->o, &e);
	hp_frame_add_u64(out, TAG_ANSWER, (uint64_t)t);
	hp_frame_add_str(out, TAG_WHY, e.msg);
	return 0;
}

hp_tri hp_os_sudo_child_answer(const hp_frame *f, hp_err *why)
{
	uint64_t v;
	char *s = NULL;
	hp_tri t = HP_UNKNOWN;
	const hp_frame_rec *rt = hp_frame_find(f, TAG_ANSWER), *rw = hp_frame_find(f, TAG_WHY);
	if (rt && rw && hp_frame_rec_u64(rt, &v) == 0 && v <= HP_UNKNOWN &&
	    hp_frame_rec_str(rw, &s) == 0) {
		t = (hp_tri)v;
		hp_err_set(why, "%s", s);
	} else {
		hp_err_set(why, "sudo: the child's answer is malformed");
	}
	free(s);
	return t;
}

hp_tri hp_os_sudo_probe_as(const hp_root *r, const hp_identity *id, const char *const *dirs,
                        size_t ndirs, const hp_sudo_opts *o, hp_err *why)
{
	if (id->kind != HP_ID_PLAIN) {
		hp_err_set(why, "sudo: asked as a restricted identity (it must be a plain one)");
		return HP_UNKNOWN;
	}
	hp_sudo_job a = {r, dirs, ndirs, o};
	/* two runs per candidate at most, plus room for the checks */
	int64_t total = (int64_t)o->deadline_ms * 2 * (int64_t)(ndirs ? ndirs : 1) + 2000;
	hp_child_opts co = {.identity = id,
	                    .cwd_fd = r->fd,
	                    .keep_fds = &r->fd,
	                    .nkeep = 1,
	                    .deadline_ms = total > 600000 ? 600000 : (int)total,
	                    .max_msg = 4096,
	                    .max_records = 4,
	                    /* sudo and whatever it starts die with this child */
	                    .own_pid_namespace = 1,
	                    /* a container without CAP_SYS_ADMIN still gets
	                     * its sudo probe answered */
	                    .pid_namespace_optional = 1};
	hp_frame f;
	hp_err e;
	if (hp_os_child_run(&co, hp_os_sudo_child, &a, &f, &e) != HP_TRUE) {
		hp_err_set(why, "sudo: %s", e.msg);
		return HP_UNKNOWN;
	}
	hp_tri t = hp_os_sudo_child_answer(&f, why);
	hp_frame_free(&f);
	return t;
}
