/* cleanup.c: on a termination signal, kill everything the check started
 * (cleanup.h). The buffers are static: a signal handler has only a small
 * stack, and the runtime is single-threaded. */
#include "cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

enum { MAX_PROCS = 16384, ROUNDS = 16 };

static const int fatal[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};
#define NFATAL (sizeof fatal / sizeof fatal[0])

static struct sigaction saved[NFATAL];
static bool installed;

static pid_t pids[MAX_PROCS], ppids[MAX_PROCS], desc[MAX_PROCS];
static bool mark[MAX_PROCS];
static char dents[32768];

/* A decimal number at s (up to a non-digit); -1 when there is none. */
static long number(const char *s, const char **end)
{
	long v = 0;
	const char *p = s;
	while (*p >= '0' && *p <= '9' && v < 100000000)
		v = v * 10 + (*p++ - '0');
	*end = p;
	return p == s ? -1 : v;
}

/* The parent of pid from /proc/PID/stat, read through procfd; -1 when gone. */
static pid_t parent_of(int procfd, const char *pid)
{
	char rel[32], buf[512];
	size_t n = 0;
	while (pid[n] && n < 12) {
		rel[n] = pid[n];
		n++;
	}
	memcpy(rel + n, "/stat", 6);
	int fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold anything, so the last ')' */
	const char *rp = NULL;
	for (ssize_t i = 0; i < k; i++)
		if (buf[i] == ')')
			rp = buf + i;
	if (!rp || rp[1] != ' ' || !rp[2] || rp[3] != ' ')
		return -1;
	const char *end;
	long pp = number(rp + 4, &end);
	return pp < 0 ? -1 : (pid_t)pp;
}

/* Every process's pid and parent; the count. */
static size_t list_procs(int procfd)
{
	size_t n = 0;
	if (lseek(procfd, 0, SEEK_SET) < 0)
		return 0;
	for (;;) {
		long got = syscall(SYS_getdents64, procfd, dents, sizeof dents);
		if (got <= 0)
			break;
		for (long off = 0; off < got;) {
			const char *rec = dents + off;
			unsigned short reclen;
			memcpy(&reclen, rec + 16, sizeof reclen);
			const char *name = rec + 19;
			off += reclen;
			const char *end;
			long pid = number(name, &end);
			if (pid <= 0 || *end || n == MAX_PROCS)
				continue;
			pid_t pp = parent_of(procfd, name);
			if (pp < 0)
				continue;
			pids[n] = (pid_t)pid;
			ppids[n] = pp;
			n++;
		}
	}
	return n;
}

int hp_kill_descendants(void)
{
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return 0;
	struct statfs sf;
	if (fstatfs(procfd, &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC) {
		close(procfd);
		return 0;
	}
	pid_t self = getpid();
	int killed = 0;
	for (int round = 0; round < ROUNDS; round++) {
		size_t n = list_procs(procfd);
		for (size_t i = 0; i < n; i++)
			mark[i] = false;
		/* the descendants: a fixed point over the parent links */
		size_t nd = 0;
		desc[nd++] = self;
		bool grew = true;
		while (grew) {
			grew = false;
			for (size_t i = 0; i < n; i++) {
				if (mark[i])
					continue;
				for (size_t j = 0; j < nd; j++)
					if (ppids[i] == desc[j]) {
						mark[i] = true;
						desc[nd++] = pids[i];
						grew = true;
						break;
					}
			}
		}
		int now = 0;
		for (size_t i = 0; i < n; i++)
			if (mark[i] && kill(pids[i], SIGKILL) == 0)
				now++;
		killed += now;
		if (now == 0)
			break;
	}
	close(procfd);
	return killed;
}

static void on_fatal(int sig)
{
	hp_kill_descendants();
	signal(sig, SIG_DFL);
	raise(sig);
}

void hp_cleanup_install(void)
{
	if (installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &sa, &saved[i]);
	installed = true;
}

void hp_cleanup_restore(void)
{
	if (!installed)
		return;
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &saved[i], NULL);
	installed = false;
}
