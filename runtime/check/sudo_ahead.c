/* sudo_ahead.c: a role's sudo probe in a job of its own (sudo_ahead.h). */
#include "check/sudo_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/adopted.h"
#include "os/child.h"
#include "os/sudo_live.h"

enum {
	MAX_SUDO_DIRS = 64,   /* directories searched for sudo */
	SUDO_OUT_CAP = 65536, /* bytes of one run's output */
	JOB_SLACK_MS = 2000,  /* the job's own deadline beyond its sudo runs */
};

/* The check's own PATH, then the standard directories, each once. */
static size_t sudo_dirs(char **dirs, char **path_copy)
{
	size_t n = 0;
	const char *path = getenv("PATH");
	*path_copy = hp_xstrdup(path ? path : "");
	for (char *save = NULL, *d = strtok_r(*path_copy, ":", &save); d && n < MAX_SUDO_DIRS;
	     d = strtok_r(NULL, ":", &save)) {
		if (d[0] != '/')
			continue;
		dirs[n++] = d;
	}
	for (size_t i = 0; i < hp_os_sudo_n_std_dirs && n < MAX_SUDO_DIRS; i++)
		dirs[n++] = (char *)hp_os_sudo_std_dirs[i];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;
		for (size_t j = 0; j < k && !dup; j++)
			dup = strcmp(dirs[j], dirs[i]) == 0;
		if (!dup)
			dirs[k++] = dirs[i];
	}
	return k;
}

/* What the job's process needs: the question, where the answer goes, and
 * where its runs announce themselves. */
typedef struct {
	const hp_sudo_ask *a;
	int answer_fd, runs_fd;
} job_arg;

/* The answer on the pipe: '0' + the hp_tri, then why. A short write
 * leaves the reader with less: no answer, or a cut reason. */
static void put_answer(int fd, hp_tri t, const char *why)
{
	char c = (char)('0' + t);
	if (write(fd, &c, 1) == 1)
		(void)!write(fd, why, strlen(why));
}

/* In the job: already the role's user (or, without root, this process as
 * it is), in a pid namespace of its own where it can have one. */
static int job_main(void *varg, hp_frame_writer *out)
{
	(void)out;
	const job_arg *ja = varg;
	const hp_sudo_ask *a = ja->a;
	char *dirs[MAX_SUDO_DIRS + 8];
	char *copy;
	size_t n = sudo_dirs(dirs, &copy);
	unsigned per = a->sudo_ms;
	if ((unsigned)a->left_ms / 4 < per)
		per = (unsigned)a->left_ms / 4;
	hp_err e;
	e.msg[0] = '\0';
	hp_tri t;
	if (per < 10) {
		hp_err_set(&e, "sudo: not asked: the check's deadline is too close");
		t = HP_UNKNOWN;
	} else {
		/* the first process of a pid namespace takes its runs with it;
		 * elsewhere they announce themselves, where the kernel gives
		 * pidfds (Linux 5.3, and no seccomp profile refusing them) */
		hp_sudo_opts so = {.deadline_ms = (int)per,
		                   .out_cap = SUDO_OUT_CAP,
		                   .announce = getpid() != 1 && hp_os_announce_works(),
		                   .announce_fd = ja->runs_fd};
		t = hp_os_sudo_probe(a->root, (const char *const *)dirs, n, &so, &e);
	}
	put_answer(ja->answer_fd, t, e.msg);
	free(copy);
	return 0;
}

void hp_sudo_ahead_init(hp_sudo_ahead *j)
{
	j->pid = 0;
	j->pidfd = j->fd = j->write_fd = j->done_fd = j->runs_fd = -1;
}

bool hp_sudo_ahead_open(hp_sudo_ahead *j)
{
	hp_sudo_ahead_init(j);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return false;
	j->fd = p[0];
	j->write_fd = p[1];
	return true;
}

bool hp_sudo_ahead_start(hp_sudo_ahead *j, const hp_sudo_ask *a)
{
	if (j->write_fd < 0 && !hp_sudo_ahead_open(j))
		return false;
	/* as root, the job becomes the role's user the way any of its
	 * processes could be (sudo refuses to run under no_new_privs, which
	 * must never read as "no sudo"); without root it is this process */
	hp_identity plain;
	if (a->as_root) {
		plain = *a->id;
		plain.kind = HP_ID_PLAIN;
		plain.no_new_privs = 0;
		plain.dumpable = 0;
	}
	/* the runs' announcements (adopted.h): without a pid namespace, how
	 * this process finds a run the job did not live to reap */
	int runs[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, runs) < 0) {
		close(j->write_fd);
		j->write_fd = -1;
		return false;
	}
	j->runs_fd = runs[0];
	int keep[3] = {a->root->fd, j->write_fd, runs[1]};
	/* two runs per candidate at most, plus room for the checks */
	int64_t total = (int64_t)a->sudo_ms * 2 * MAX_SUDO_DIRS + JOB_SLACK_MS;
	if (total > a->left_ms)
		total = a->left_ms > 0 ? a->left_ms : 1;
	hp_child_opts co = {.identity = a->as_root ? &plain : NULL,
	                    .cwd_fd = a->root->fd,
	                    .keep_fds = keep,
	                    .nkeep = 3,
	                    .deadline_ms = (int)total,
	                    .max_msg = 4096,
	                    .max_records = 4,
	                    /* sudo and whatever it starts die with the job */
	                    .own_pid_namespace = a->as_root,
	                    /* a container without CAP_SYS_ADMIN still gets
	                     * its sudo probe answered */
	                    .pid_namespace_optional = 1};
	job_arg ja = {a, j->write_fd, runs[1]};
	hp_child c;
	hp_err e;
	hp_tri started = hp_os_child_start(&co, job_main, &ja, &c, &e);
	/* the job holds the write end now; if it did not start, the reader
	 * finds the pipe closed: no answer, unknown */
	close(j->write_fd);
	j->write_fd = -1;
	close(runs[1]);
	if (started != HP_TRUE)
		return false;
	j->pid = c.pid;
	j->pidfd = c.pidfd;
	j->done_fd = c.fd;
	return true;
}

void hp_sudo_ahead_stop(hp_sudo_ahead *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->write_fd >= 0)
		close(j->write_fd);
	if (j->done_fd >= 0)
		close(j->done_fd);
	if (j->pid > 0) {
		hp_os_kill_reap(j->pid, j->pidfd);
		if (j->pidfd >= 0)
			close(j->pidfd);
	}
	/* the job is reaped: a run it did not reap is this process's now */
	if (j->runs_fd >= 0) {
		hp_os_reap_announced(j->runs_fd);
		close(j->runs_fd);
	}
	hp_sudo_ahead_init(j);
}
