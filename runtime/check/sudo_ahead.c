/* sudo_ahead.c: a role's sudo probe in a job of its own (sudo_ahead.h). */
#include "check/sudo_ahead.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os/child.h"
#include "os/sudo_live.h"
#include "os/sysx.h"

enum {
	MAX_SUDO_DIRS = 64, /* directories searched for sudo */
	SUDO_OUT_CAP = 65536, /* bytes of one run's output */
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

/* The answer, in the job: as the role's user when the check is root, else
 * as this process is (the only identity it has). */
static hp_tri ask(const hp_sudo_ask *a, hp_err *why)
{
	char *dirs[MAX_SUDO_DIRS + 8];
	char *copy;
	size_t n = sudo_dirs(dirs, &copy);
	unsigned per = a->sudo_ms;
	if ((unsigned)a->left_ms / 4 < per)
		per = (unsigned)a->left_ms / 4;
	hp_tri t;
	if (per < 10) {
		hp_err_set(why, "sudo: not asked: the check's deadline is too close");
		free(copy);
		return HP_UNKNOWN;
	}
	hp_sudo_opts so = {.deadline_ms = (int)per, .out_cap = SUDO_OUT_CAP};
	if (a->as_root) {
		hp_identity plain = *a->id;
		plain.kind = HP_ID_PLAIN;
		plain.no_new_privs = 0;
		plain.dumpable = 0;
		t = hp_os_sudo_probe_as(a->root, &plain, (const char *const *)dirs, n, &so, why);
	} else {
		hp_sudo_job sj = {a->root, (const char *const *)dirs, n, &so};
		hp_child_opts co = {.identity = NULL,
		                    .cwd_fd = a->root->fd,
		                    .keep_fds = &a->root->fd,
		                    .nkeep = 1,
		                    .deadline_ms = a->left_ms,
		                    .max_msg = 4096,
		                    .max_records = 4};
		hp_frame f;
		hp_err e;
		t = HP_UNKNOWN;
		if (hp_os_child_run(&co, hp_os_sudo_child, &sj, &f, &e) != HP_TRUE) {
			hp_err_set(why, "sudo: %s", e.msg);
		} else {
			t = hp_os_sudo_child_answer(&f, why);
			hp_frame_free(&f);
		}
	}
	free(copy);
	return t;
}

void hp_sudo_ahead_init(hp_sudo_ahead *j)
{
	j->pid = 0;
	j->pidfd = j->fd = -1;
}

bool hp_sudo_ahead_start(hp_sudo_ahead *j, const hp_sudo_ask *a)
{
	hp_sudo_ahead_init(j);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return false;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		hp_os_reset_signals();
		setpgid(0, 0);
		close(p[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
			_exit(1);
		hp_err e;
		e.msg[0] = '\0';
		char t = (char)('0' + ask(a, &e));
		if (write(p[1], &t, 1) == 1)
			(void)!write(p[1], e.msg, strlen(e.msg));
		_exit(0);
	}
	close(p[1]);
	setpgid(pid, pid);
	j->pid = pid;
	j->pidfd = hp_os_sys_pidfd_open(pid, 0);
	j->fd = p[0];
	return true;
}

void hp_sudo_ahead_stop(hp_sudo_ahead *j)
{
	if (j->pid <= 0)
		return;
	if (j->fd >= 0)
		close(j->fd);
	hp_os_kill_reap(j->pid, j->pidfd);
	if (j->pidfd >= 0)
		close(j->pidfd);
	hp_sudo_ahead_init(j);
}
