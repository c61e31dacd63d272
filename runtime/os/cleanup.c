/* cleanup.c: on a termination signal, kill everything the check started
 * (cleanup.h). The buffers are static: a signal handler has only a small
 * stack, and the runtime is single-threaded. */
#include "os/cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

enum { MAX_PROCS = 16384, ROUNDS = 16 };

static const int fatal[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};
#define NFATAL (sizeof fatal / sizeof fatal[0])

static struct sigaction saved[NFATAL], saved_alarm;
static struct itimerval saved_timer;
static bool installed, armed;
static char backstop_msg[96];
static size_t backstop_len;

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

int hp_os_kill_descendants(void)
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
	hp_os_kill_descendants();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_backstop(int sig)
{
	(void)sig;
	hp_os_kill_descendants();
	(void)!write(STDERR_FILENO, backstop_msg, backstop_len);
	_exit(4);
}

/* Decimal digits of v into p; the length. */
static size_t put_uint(char *p, unsigned v)
{
	char t[16];
	size_t n = 0;
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof t);
	for (size_t i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

void hp_os_cleanup_install(unsigned backstop_ms)
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
	if (backstop_ms == 0)
		return;
	static const char a[] = "hangar-policy: the check did not finish within ";
	static const char b[] = " ms\n";
	memcpy(backstop_msg, a, sizeof a - 1);
	backstop_len = sizeof a - 1;
	backstop_len += put_uint(backstop_msg + backstop_len, backstop_ms);
	memcpy(backstop_msg + backstop_len, b, sizeof b - 1);
	backstop_len += sizeof b - 1;
	sa.sa_handler = on_backstop;
	sigaction(SIGALRM, &sa, &saved_alarm);
	struct itimerval t = {
	    {0, 0}, {(time_t)(backstop_ms / 1000), (suseconds_t)(backstop_ms % 1000) * 1000}};
	setitimer(ITIMER_REAL, &t, &saved_timer);
	armed = true;
}

void hp_os_cleanup_restore(void)
{
	if (!installed)
		return;
	if (armed) {
		setitimer(ITIMER_REAL, &saved_timer, NULL);
		sigaction(SIGALRM, &saved_alarm, NULL);
		armed = false;
	}
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal[i], &saved[i], NULL);
	installed = false;
}
