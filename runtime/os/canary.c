/* canary.c: a paused process as one role, and the attempts to reach it. */
#include "os/canary.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/child.h"
#include "os/pipe_word.h"
#include "os/sysx.h"

static void canary_main(const hp_identity *id, int wfd, pid_t parent)
{
	hp_os_reset_signals();
	setpgid(0, 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	const char *err = NULL;
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		err = "canary: cannot put /dev/null on 0-2";
	else if (hp_os_close_fds_except(&wfd, 1) < 0)
		err = "canary: cannot close inherited descriptors";
	else if (chdir("/") < 0)
		err = "canary: cannot change to /";
	hp_err e;
	if (!err && hp_os_identity_become(id, &e) != HP_TRUE)
		err = e.msg;
	if (!err && (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent))
		err = "canary: its parent is gone";
	const char *msg = err ? err : "ok";
	(void)!write(wfd, msg, strlen(msg));
	close(wfd);
	if (err)
		_exit(1);
	for (;;)
		pause();
}

void hp_os_canary_stop(hp_canary *c)
{
	if (c->pid <= 0)
		return; /* never started: no descriptor is its (spawn sets them with the pid) */
	if (c->word_fd >= 0) {
		close(c->word_fd);
		c->word_fd = -1;
	}
	(void)hp_os_kill_reap(c->pid, c->pidfd);
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pid = 0;
	c->pidfd = -1;
}

void hp_os_canary_init(hp_canary *c)
{
	c->pid = 0;
	c->pidfd = -1;
	c->word_fd = -1;
	c->wait_ms = 0;
	c->end_ms = 0;
	c->ready = HP_UNKNOWN;
	hp_err_set(&c->why, "canary: not started");
}

hp_tri hp_os_canary_spawn(hp_canary *c, const hp_identity *id, int wait_ms, hp_err *why)
{
	hp_os_canary_init(c);
	c->wait_ms = wait_ms;
	c->end_ms = hp_os_now_ms() + wait_ms;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		hp_err_set(why, "canary: pipe: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		hp_err_set(why, "canary: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return HP_UNKNOWN;
	}
	if (pid == 0) {
		close(p[0]);
		canary_main(id, p[1], parent);
	}
	close(p[1]);
	c->pid = pid;
	c->pidfd = hp_os_sys_pidfd_open(pid, 0);
	c->word_fd = p[0];
	return HP_TRUE;
}

hp_tri hp_os_canary_ready(hp_canary *c, hp_err *why)
{
	if (c->word_fd >= 0) {
		char buf[600];
		bool ended;
		/* past the end, what the canary wrote is still read: only a
		 * report not there by then is missing */
		size_t n = hp_os_pipe_word(c->word_fd, buf, sizeof buf - 1, c->end_ms, &ended);
		close(c->word_fd);
		c->word_fd = -1;
		buf[n] = '\0';
		if (strcmp(buf, "ok") == 0)
			c->ready = HP_TRUE;
		else if (n == 0)
			hp_err_set(&c->why, "canary: no word from it within %d ms", c->wait_ms);
		else
			hp_err_set(&c->why, "%s", buf);
	}
	if (c->ready != HP_TRUE)
		*why = c->why;
	return c->ready;
}

hp_tri hp_os_canary_start(hp_canary *c, const hp_identity *id, int deadline_ms, hp_err *why)
{
	if (hp_os_canary_spawn(c, id, deadline_ms, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (hp_os_canary_ready(c, why) == HP_TRUE)
		return HP_TRUE;
	hp_os_canary_stop(c);
	return HP_UNKNOWN;
}

/* Is the canary still running (not exited, not a zombie)? */
static hp_tri alive(const hp_canary *c, hp_err *why)
{
	if (c->pid <= 0) {
		hp_err_set(why, "canary: not running");
		return HP_UNKNOWN;
	}
	if (c->pidfd >= 0) {
		struct pollfd pf = {c->pidfd, POLLIN, 0};
		int r = poll(&pf, 1, 0);
		if (r == 0)
			return HP_TRUE;
		hp_err_set(why, "canary: it is gone");
		return HP_UNKNOWN;
	}
	/* without pidfds: a zombie's stat line says Z */
	char rel[64], buf[512];
	snprintf(rel, sizeof rel, "%d/stat", (int)c->pid);
	hp_err e;
	if (hp_os_proc_read_small(rel, buf, sizeof buf, &e) < 0) {
		hp_err_set(why, "canary: %s", e.msg);
		return HP_UNKNOWN;
	}
	const char *rp = strrchr(buf, ')');
	if (!rp || rp[1] != ' ' || rp[2] == 'Z' || rp[2] == 'X') {
		hp_err_set(why, "canary: it is gone");
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

/* The answer, if the canary was alive both before and after the attempt. */
static hp_tri settle(const hp_canary *c, hp_tri t, hp_err *why)
{
	hp_err e;
	if (alive(c, &e) != HP_TRUE) {
		hp_err_set(why, "%s", e.msg);
		return HP_UNKNOWN;
	}
	return t;
}

hp_tri hp_os_canary_signal(const hp_canary *c, hp_err *why)
{
	if (alive(c, why) != HP_TRUE)
		return HP_UNKNOWN;
	int r = -1, e = ENOSYS;
	const char *how = "pidfd_send_signal";
	if (c->pidfd >= 0) {
		r = hp_os_sys_pidfd_send_signal(c->pidfd, 0);
		e = errno;
	}
	if (r < 0 && e == ENOSYS) {
		how = "kill";
		r = kill(c->pid, 0);
		e = errno;
	}
	if (r == 0) {
		hp_err_set(why, "%s(%d, 0) succeeded", how, (int)c->pid);
		return settle(c, HP_TRUE, why);
	}
	if (e == EPERM) {
		hp_err_set(why, "%s(%d, 0): EPERM", how, (int)c->pid);
		return settle(c, HP_FALSE, why);
	}
	hp_err_set(why, "%s(%d, 0): %s", how, (int)c->pid, strerror(e));
	return HP_UNKNOWN;
}

static void yama_note(char *buf, size_t n)
{
	int y = hp_os_yama_ptrace_scope();
	if (y < 0)
		snprintf(buf, n, "Yama not present");
	else
		snprintf(buf, n, "Yama ptrace_scope %d", y);
}

/* Undo a successful seize at once; if the tracee does not stop in time, the
 * prober's own exit detaches it. */
static void undo_seize(pid_t pid)
{
	if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) < 0)
		return;
	for (int i = 0; i < 500; i++) {
		int st;
		pid_t r = waitpid(pid, &st, __WALL | WNOHANG);
		if (r == pid)
			break;
		struct timespec ts = {0, 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
}

hp_tri hp_os_canary_ptrace(const hp_canary *c, hp_err *why)
{
	if (alive(c, why) != HP_TRUE)
		return HP_UNKNOWN;
	char y[64];
	yama_note(y, sizeof y);
	if (ptrace(PTRACE_SEIZE, c->pid, NULL, NULL) == 0) {
		undo_seize(c->pid);
		hp_err_set(why, "PTRACE_SEIZE %d succeeded (%s)", (int)c->pid, y);
		return settle(c, HP_TRUE, why);
	}
	int e = errno;
	if (e == EPERM || e == EACCES) {
		hp_err_set(why, "PTRACE_SEIZE %d: %s (%s)", (int)c->pid, strerror(e), y);
		return settle(c, HP_FALSE, why);
	}
	hp_err_set(why, "PTRACE_SEIZE %d: %s (%s)", (int)c->pid, strerror(e), y);
	return HP_UNKNOWN;
}

hp_tri hp_os_canary_proc_mem(const hp_canary *c, hp_err *why)
{
	if (alive(c, why) != HP_TRUE)
		return HP_UNKNOWN;
	int pfd = hp_os_proc_open(why);
	if (pfd < 0)
		return HP_UNKNOWN;
	char rel[48];
	snprintf(rel, sizeof rel, "%d/mem", (int)c->pid);
	int fd = openat(pfd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int e = errno;
	close(pfd);
	if (fd >= 0) {
		close(fd);
		hp_err_set(why, "/proc/%d/mem opened for reading", (int)c->pid);
		return settle(c, HP_TRUE, why);
	}
	if (e == EACCES || e == EPERM || e == ENOENT) {
		hp_err_set(why, "/proc/%d/mem: %s", (int)c->pid, strerror(e));
		return settle(c, HP_FALSE, why);
	}
	hp_err_set(why, "/proc/%d/mem: %s", (int)c->pid, strerror(e));
	return HP_UNKNOWN;
}
