/* bench_processes.c: what processes cost on this machine, the figures a
 * live check's shape rests on (docs/performance.md, "The figures on
 * machine F"): a fork that exits at once, one at a time and two loops at
 * once (whether two address spaces made at once overlap); fork then exec
 * against vfork then exec; the first touch of a fresh anonymous page; one
 * system call. With a uid and gid, also `sudo -n -k true` and `sudo -n -k
 * -l` run as them at once and one after the other (wall and CPU), as the
 * check's sudo job could run them. Each figure is the median of its runs.
 *
 *   make bench && build/bench/bench_processes [UID GID]
 */
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 15 };

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_d);
	return v[n / 2];
}

/* n forks that exit at once, each waited for; ms per fork */
static double forks(int n)
{
	double t0 = now_ms();
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	return (now_ms() - t0) / n;
}

/* loops of forks side by side: ms per fork in each */
static double forks_at_once(int loops, int n)
{
	double t0 = now_ms();
	for (int j = 0; j < loops; j++)
		if (fork() == 0) {
			forks(n);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	return (now_ms() - t0) / n;
}

/* one run of prog, started with fork or vfork, waited for */
static void exec_once(const char *prog, int use_vfork)
{
	char *const argv[] = {(char *)prog, NULL};
	pid_t p = use_vfork ? vfork() : fork();
	if (p == 0) {
		execv(prog, argv);
		_exit(127);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
}

/* n runs of prog; ms per run */
static double execs(const char *prog, int use_vfork, int n)
{
	double t0 = now_ms();
	for (int i = 0; i < n; i++)
		exec_once(prog, use_vfork);
	return (now_ms() - t0) / n;
}

/* microseconds a page for the first write to n fresh anonymous pages */
static double first_touch(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	double t0 = now_ms();
	for (size_t i = 0; i < n; i++)
		m[i * page] = 1;
	double us = (now_ms() - t0) * 1e3 / (double)n;
	munmap(m, n * page);
	return us;
}

static double syscalls(int n)
{
	double t0 = now_ms();
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (now_ms() - t0) * 1e3 / n;
}

/* sudo as uid and gid, argv from the check's two runs; its pid */
static pid_t sudo(uid_t uid, gid_t gid, int list)
{
	pid_t p = fork();
	if (p != 0)
		return p;
	char *const t[] = {"sudo", "-n", "-k", "--", "true", NULL};
	char *const l[] = {"sudo", "-n", "-k", "-l", NULL};
	char *const env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
	int nul = open("/dev/null", O_RDWR);
	if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(nul, 2) < 0 || setsid() < 0 ||
	    setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 ||
	    setresuid(uid, uid, uid) != 0)
		_exit(126);
	execve("/usr/bin/sudo", list ? l : t, env);
	_exit(127);
}

static double cpu_ms(const struct rusage *r)
{
	return (double)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1e3 +
	       (double)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) / 1e3;
}

/* both runs, at once or one after the other: wall and CPU, ms */
static void sudo_pair(uid_t uid, gid_t gid, int at_once, double *wall, double *cpu)
{
	struct rusage r1, r2;
	int st;
	double t0 = now_ms();
	pid_t a = sudo(uid, gid, 0);
	if (!at_once)
		wait4(a, &st, 0, &r1);
	pid_t b = sudo(uid, gid, 1);
	if (at_once)
		wait4(a, &st, 0, &r1);
	wait4(b, &st, 0, &r2);
	*wall = now_ms() - t0;
	*cpu = cpu_ms(&r1) + cpu_ms(&r2);
}

int main(int argc, char **argv)
{
	double v[ROUNDS], w[ROUNDS];
	for (int i = 0; i < ROUNDS; i++)
		v[i] = forks(50);
	printf("fork, exit, wait:                 %.3f ms\n", median(v, ROUNDS));
	for (int i = 0; i < ROUNDS; i++)
		v[i] = forks_at_once(2, 50);
	printf("the same, two loops at once:      %.3f ms a fork in each (1x: they overlap, 2x: they do not)\n",
	       median(v, ROUNDS));
	for (int i = 0; i < ROUNDS; i++) {
		v[i] = execs("/bin/true", 0, 10);
		w[i] = execs("/bin/true", 1, 10);
	}
	printf("fork then exec /bin/true:         %.3f ms\n", median(v, ROUNDS));
	printf("vfork then exec /bin/true:        %.3f ms\n", median(w, ROUNDS));
	for (int i = 0; i < ROUNDS; i++)
		v[i] = first_touch(1024);
	printf("first write to a fresh page:      %.2f us\n", median(v, ROUNDS));
	for (int i = 0; i < ROUNDS; i++)
		v[i] = syscalls(20000);
	printf("one system call (getppid):        %.2f us\n", median(v, ROUNDS));
	if (argc == 3) {
		uid_t uid = (uid_t)strtoul(argv[1], NULL, 10);
		gid_t gid = (gid_t)strtoul(argv[2], NULL, 10);
		double cw[ROUNDS], cc[ROUNDS];
		for (int i = 0; i < ROUNDS; i++) {
			sudo_pair(uid, gid, 1, &v[i], &w[i]);
			sudo_pair(uid, gid, 0, &cw[i], &cc[i]);
		}
		printf("sudo's two runs at once:          %.2f ms wall, %.2f ms CPU\n", median(v, ROUNDS),
		       median(w, ROUNDS));
		printf("one after the other:              %.2f ms wall, %.2f ms CPU\n", median(cw, ROUNDS),
		       median(cc, ROUNDS));
	}
	return 0;
}
