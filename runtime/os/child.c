/* child.c: fork, clean up, become a role, run, report; deadline and reaping. */
#include "os/child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/sysx.h"

enum { MAX_KEEP = 64, MAX_FD_SCAN = 1 << 20 };

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

static int kept(int fd, const int *keep, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keep[i] == fd)
			return 1;
	return 0;
}

static int close_by_proc(const int *keep, size_t n)
{
	int pfd = hp_os_proc_open(NULL);
	if (pfd < 0)
		return -1;
	int dfd = openat(pfd, "self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(pfd);
	if (dfd < 0)
		return -1;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -1;
	}
	size_t cap = 64, cnt = 0;
	int *fds = hp_xmalloc(cap * sizeof *fds);
	struct dirent *e;
	while ((e = readdir(d)) && cnt < MAX_FD_SCAN) {
		char *end;
		long v = strtol(e->d_name, &end, 10);
		if (*end || end == e->d_name || v <= 2 || v == dfd || v > INT32_MAX)
			continue;
		fds = hp_xgrow(fds, &cap, cnt + 1, sizeof *fds);
		fds[cnt++] = (int)v;
	}
	closedir(d);
	for (size_t i = 0; i < cnt; i++)
		if (!kept(fds[i], keep, n))
			close(fds[i]);
	free(fds);
	return 0;
}

int hp_os_close_fds_except(const int *keep_in, size_t n)
{
	if (n > MAX_KEEP)
		return -1;
	int keep[MAX_KEEP];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (keep_in[i] > 2)
			keep[k++] = keep_in[i];
	qsort(keep, k, sizeof *keep, cmp_int);
	unsigned first = 3;
	int ok = 1;
	for (size_t i = 0; ok && i <= k; i++) {
		unsigned upto = i < k ? (unsigned)keep[i] : ~0U;
		if (i < k && (unsigned)keep[i] < first)
			continue; /* a duplicate */
		if (upto > first && hp_os_sys_close_range(first, upto - 1, 0) < 0)
			ok = 0;
		if (i < k)
			first = (unsigned)keep[i] + 1;
	}
	if (ok)
		return 0;
	if (close_by_proc(keep, k) == 0)
		return 0;
	struct rlimit rl;
	rlim_t lim = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
	if (lim == RLIM_INFINITY || lim > MAX_FD_SCAN)
		lim = MAX_FD_SCAN;
	for (int fd = 3; fd < (int)lim; fd++)
		if (!kept(fd, keep, k))
			close(fd);
	return 0;
}

static void write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t r = write(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			_exit(125);
		c += r;
		n -= (size_t)r;
	}
}

static void send_error(int fd, const char *reason)
{
	hp_frame_writer w;
	hp_frame_begin(&w);
	hp_frame_add_str(&w, HP_CHILD_TAG_ERROR, reason);
	hp_frame_end(&w);
	write_all(fd, w.b.data, w.b.len);
	_exit(0);
}

void hp_os_reset_signals(void)
{
	sigset_t all;
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* the parent's handlers are not the child's business */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
}

/* Whether the parent died before PR_SET_PDEATHSIG was set (then it never
 * fires). The parent of a pid namespace's init is outside it (getppid says
 * 0): the parent is gone when nobody holds the result pipe's read end. */
static bool orphaned(const hp_child_opts *o, int wfd, pid_t parent)
{
	if (!o->own_pid_namespace)
		return getppid() != parent;
	struct pollfd p = {wfd, POLLOUT, 0};
	return getppid() != 0 || poll(&p, 1, 0) < 0 || (p.revents & (POLLERR | POLLHUP));
}

/* Whether clone's errno says the pid namespace itself is refused (no
 * CAP_SYS_ADMIN, a seccomp filter, a nesting or count limit), not that no
 * process can be made at all. */
static bool namespace_refused(int err)
{
	return err == EPERM || err == EINVAL || err == ENOSPC || err == EUSERS || err == ENOSYS;
}

/* fork, the child made the init of a new pid namespace. Raw clone: glibc has
 * no fork with flags; the child runs only this file's code and then fn,
 * single-threaded, and glibc caches no pid since 2.25. */
static pid_t fork_newpid(void)
{
	return (pid_t)syscall(SYS_clone, (unsigned long)(CLONE_NEWPID | SIGCHLD), NULL, NULL,
	                      NULL, NULL);
}

static void child_main(const hp_child_opts *o, hp_child_fn fn, void *arg, int wfd, pid_t parent)
{
	hp_os_reset_signals();
	setpgid(0, 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		send_error(wfd, "child: cannot open /dev/null");
	for (int i = 0; i < 3; i++)
		if (dup2(null, i) < 0)
			send_error(wfd, "child: cannot put /dev/null on 0-2");
	if (null > 2)
		close(null);
	int keep[MAX_KEEP + 1];
	if (o->nkeep > MAX_KEEP)
		send_error(wfd, "child: too many descriptors to keep");
	for (size_t i = 0; i < o->nkeep; i++)
		keep[i] = o->keep_fds[i];
	keep[o->nkeep] = wfd;
	if (hp_os_close_fds_except(keep, o->nkeep + 1) < 0)
		send_error(wfd, "child: cannot close inherited descriptors");
	if ((o->cwd_fd >= 0 ? fchdir(o->cwd_fd) : chdir("/")) < 0)
		send_error(wfd, "child: cannot change to the root directory");
	if (o->identity) {
		hp_err e;
		if (hp_os_identity_become(o->identity, &e) != HP_TRUE)
			send_error(wfd, e.msg);
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || orphaned(o, wfd, parent))
		_exit(124);
	hp_frame_writer w;
	hp_frame_begin(&w);
	if (fn(arg, &w) != 0)
		send_error(wfd, "the child's function failed");
	hp_frame_end(&w);
	write_all(wfd, w.b.data, w.b.len);
	_exit(0);
}

void hp_os_reap_group(pid_t pgid)
{
	for (int i = 0; i < 100; i++) {
		pid_t r = waitpid(-pgid, NULL, WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return;
		if (r == 0) {
			struct timespec ts = {0, 2 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

int hp_os_kill_reap(pid_t pid, int pidfd)
{
	/* pid is unreaped, so neither it nor its group id can have been reused */
	kill(-pid, SIGKILL);
	if (pidfd < 0 || hp_os_sys_pidfd_send_signal(pidfd, SIGKILL) < 0)
		kill(pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	hp_os_reap_group(pid);
	return st;
}

static int remaining(int64_t end)
{
	int64_t left = end - hp_os_now_ms();
	return left < 0 ? 0 : (left > INT32_MAX ? INT32_MAX : (int)left);
}

/* Wait, without reaping, until the child exits or the deadline passes. */
int hp_os_wait_exit(pid_t pid, int pidfd, int64_t end)
{
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid)
			return 0;
		int left = remaining(end);
		if (left == 0)
			return -1;
		if (pidfd >= 0) {
			struct pollfd p = {pidfd, POLLIN, 0};
			poll(&p, 1, left);
		} else {
			struct timespec ts = {0, 2 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

hp_tri hp_os_child_start(const hp_child_opts *o, hp_child_fn fn, void *arg, hp_child *c,
                         hp_err *why)
{
	memset(c, 0, sizeof *c);
	c->pid = -1;
	c->pidfd = c->fd = -1;
	if (o->deadline_ms <= 0 || o->max_msg <= HP_FRAME_HEADER) {
		hp_err_set(why, "child: bad options (deadline %d ms, max message %zu bytes)",
		           o->deadline_ms, o->max_msg);
		return HP_UNKNOWN;
	}
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		hp_err_set(why, "child: pipe: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	int64_t end = hp_os_now_ms() + o->deadline_ms;
	pid_t parent = getpid();
	pid_t pid = o->own_pid_namespace ? fork_newpid() : fork();
	hp_child_opts plain;
	if (pid < 0 && o->own_pid_namespace && o->pid_namespace_optional &&
	    namespace_refused(errno)) {
		/* the kernel or a seccomp profile refuses the namespace (Docker's
		 * default capabilities have no CAP_SYS_ADMIN): an ordinary child,
		 * whose process group is still killed at the deadline */
		plain = *o;
		plain.own_pid_namespace = 0;
		o = &plain;
		pid = fork();
	}
	if (pid < 0 && o->own_pid_namespace) {
		hp_err_set(why, "child: no pid namespace of its own: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return HP_UNKNOWN;
	}
	if (pid < 0) {
		hp_err_set(why, "child: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return HP_UNKNOWN;
	}
	if (pid == 0) {
		close(p[0]);
		child_main(o, fn, arg, p[1], parent);
	}
	close(p[1]);
	setpgid(pid, pid); /* also done by the child: whichever runs first */
	c->pid = pid;
	c->pidfd = hp_os_sys_pidfd_open(pid, 0);
	c->fd = p[0];
	c->end = end;
	c->deadline_ms = o->deadline_ms;
	c->max_msg = o->max_msg;
	c->max_records = o->max_records;
	return HP_TRUE;
}

hp_tri hp_os_child_finish(hp_child *c, hp_frame *result, hp_err *why)
{
	return hp_os_child_finish_serving(c, NULL, result, why);
}

hp_tri hp_os_child_finish_serving(hp_child *c, const hp_child_service *svc, hp_frame *result,
                                  hp_err *why)
{
	memset(result, 0, sizeof *result);
	if (c->pid <= 0) {
		hp_err_set(why, "child: not started");
		return HP_UNKNOWN;
	}
	pid_t pid = c->pid;
	int pidfd = c->pidfd;
	int64_t end = c->end;
	size_t cap = 4096, len = 0;
	unsigned char *buf = hp_xmalloc(cap);
	hp_tri res = HP_UNKNOWN;
	int timed_out = 0, too_big = 0;
	int sfd = svc ? svc->fd : -1;
	for (;;) {
		int left = remaining(end);
		struct pollfd pf[2] = {{c->fd, POLLIN, 0}, {sfd, POLLIN, 0}};
		int r = left ? poll(pf, sfd >= 0 ? 2 : 1, left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			timed_out = 1;
			break;
		}
		/* the child's questions first: it may be waiting on one before
		 * it can finish its message */
		if (sfd >= 0 && pf[1].revents) {
			if (!svc->serve(svc->ctx, sfd, end))
				sfd = -1;
			continue;
		}
		if (len == cap)
			buf = hp_xgrow(buf, &cap, len + 1, 1);
		ssize_t n = read(c->fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len > c->max_msg) {
			too_big = 1;
			break;
		}
	}
	close(c->fd);
	if (!timed_out && !too_big && hp_os_wait_exit(pid, pidfd, end) < 0)
		timed_out = 1;
	/* whatever happened, nothing of the child's may stay running */
	int st = hp_os_kill_reap(pid, pidfd);
	if (pidfd >= 0)
		close(pidfd);
	c->pid = -1;
	c->pidfd = c->fd = -1;
	if (timed_out) {
		hp_err_set(why, "child exceeded its %d ms deadline", c->deadline_ms);
	} else if (too_big) {
		hp_err_set(why, "child sent more than %zu bytes", c->max_msg);
	} else if (WIFSIGNALED(st)) {
		hp_err_set(why, "child killed by signal %d", WTERMSIG(st));
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		hp_err_set(why, "child exited with status %d", WEXITSTATUS(st));
	} else {
		hp_err e;
		if (hp_frame_decode(buf, len, c->max_records, result, &e) != HP_TRUE) {
			hp_err_set(why, "child sent a malformed message: %s", e.msg);
		} else {
			const hp_frame_rec *er = hp_frame_find(result, HP_CHILD_TAG_ERROR);
			if (er) {
				char *s = NULL;
				if (hp_frame_rec_str(er, &s) == 0)
					hp_err_set(why, "%s", s);
				else
					hp_err_set(why, "child sent a malformed error");
				free(s);
				hp_frame_free(result);
			} else {
				res = HP_TRUE;
			}
		}
	}
	free(buf);
	return res;
}

hp_tri hp_os_child_run(const hp_child_opts *o, hp_child_fn fn, void *arg, hp_frame *result,
                    hp_err *why)
{
	hp_child c;
	memset(result, 0, sizeof *result);
	if (hp_os_child_start(o, fn, arg, &c, why) != HP_TRUE)
		return HP_UNKNOWN;
	return hp_os_child_finish(&c, result, why);
}
