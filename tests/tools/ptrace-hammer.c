/* ptrace-hammer.c: an agent's process that tries, as fast as it can, to get
 * into the check's processes of its own uid (the agent role's child): attach
 * with PTRACE_SEIZE, open /proc/PID/mem, read /proc/PID/environ, copy a
 * descriptor with pidfd_getfd. A live e2e test runs it as the agent while
 * checks run, and expects attempts and no success (bubblewrap
 * CVE-2016-8659: a dumpable child of the agent's uid can be traced).
 * A success counts only when the process is still one of the check's
 * afterwards: a process that has meanwhile exec'd another program (a
 * fake sudo script in a test, run as the agent) is no longer the check's.
 *
 *   ptrace-hammer UID MILLIS MARK   prints "ATTEMPTS SEIZED MEM ENVIRON FDS"
 *
 * A target is a process of real uid UID whose command line contains MARK
 * (a path only this test's check has on its command line: the role
 * children are forks of the check and keep it), so that no other process
 * of that uid on the machine is ever touched.
 *
 * Test-only. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Whether /proc/PID has real uid uid and mark in its command line. */
static int is_target(const char *pid, unsigned uid, const char *mark)
{
	char p[64], buf[4096];
	snprintf(p, sizeof p, "/proc/%s/status", pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *u = strstr(buf, "\nUid:");
	if (!u || strtoul(u + 5, NULL, 10) != uid)
		return 0;
	snprintf(p, sizeof p, "/proc/%s/cmdline", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return strstr(buf, mark) != NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: ptrace-hammer UID MILLIS MARK\n");
		return 2;
	}
	unsigned uid = (unsigned)strtoul(argv[1], NULL, 10);
	long end = now_ms() + strtol(argv[2], NULL, 10);
	const char *mark = argv[3];
	long attempts = 0, seize = 0, mem = 0, environ_ok = 0, getfd = 0;
	char self[32];
	snprintf(self, sizeof self, "%d", (int)getpid());
	while (now_ms() < end) {
		DIR *d = opendir("/proc");
		if (!d)
			return 1;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
			    strcmp(e->d_name, self) == 0)
				continue;
			if (!is_target(e->d_name, uid, mark))
				continue;
			attempts++;
			pid_t pid = (pid_t)atoi(e->d_name);
			if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) == 0) {
				seize += is_target(e->d_name, uid, mark);
				ptrace(PTRACE_DETACH, pid, NULL, NULL);
			}
			char p[64];
			snprintf(p, sizeof p, "/proc/%d/mem", (int)pid);
			int fd = open(p, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				mem += is_target(e->d_name, uid, mark);
				close(fd);
			}
			snprintf(p, sizeof p, "/proc/%d/environ", (int)pid);
			fd = open(p, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				char b[16];
				if (read(fd, b, sizeof b) > 0)
					environ_ok += is_target(e->d_name, uid, mark);
				close(fd);
			}
			int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
			if (pfd >= 0) {
				for (int t = 0; t < 8; t++) {
					int got = (int)syscall(SYS_pidfd_getfd, pfd, t, 0);
					if (got >= 0) {
						getfd += is_target(e->d_name, uid, mark);
						close(got);
					}
				}
				close(pfd);
			}
		}
		closedir(d);
	}
	/* one line: attempts, then successes by kind */
	printf("%ld %ld %ld %ld %ld\n", attempts, seize, mem, environ_ok, getfd);
	return 0;
}
