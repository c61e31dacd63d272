/* bench_setuid_scan.c: the PATH setuid scan (setuid_root) as a live
 * check's root child runs it, on this machine's directories.
 *
 *   make bench && build/bench/bench_setuid_scan [ROUNDS] [DIR...]
 *
 * Each round scans every DIR (default: the Debian driver PATH's
 * /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin) with "/" as the
 * root, as the live check does; prints what was found and the CPU time of
 * a round (this process's, so other load changes it little): the best and
 * the median of ROUNDS (default 300), after one round to warm the caches.
 * Never fails on time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "os/setuid_scan.h"

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 300;
	static const char *const def[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
	                                  "/usr/bin"};
	const char *const *dirs = argc > 2 ? (const char *const *)argv + 2 : def;
	int ndirs = argc > 2 ? argc - 2 : 4;
	if (rounds < 1)
		rounds = 1;
	hp_root root;
	hp_err e;
	if (hp_os_root_open(&root, "/", 0, &e) != HP_TRUE) {
		fprintf(stderr, "bench_setuid_scan: %s\n", e.msg);
		return 1;
	}
	double *t = calloc((size_t)rounds, sizeof *t);
	if (!t)
		return 1;
	size_t found = 0;
	for (int k = -1; k < rounds; k++) {
		double t0 = cpu_ms();
		found = 0;
		for (int d = 0; d < ndirs; d++) {
			hp_suid_list l;
			if (hp_os_setuid_scan(&root, dirs[d], HP_SETUID_SCAN_MAX_DEFAULT, &l, &e) ==
			    HP_TRUE) {
				found += l.n;
				hp_os_suid_list_free(&l);
			}
		}
		if (k >= 0)
			t[k] = cpu_ms() - t0;
	}
	qsort(t, (size_t)rounds, sizeof *t, cmp_double);
	printf("%d directories, %zu privilege-raising entries found; CPU per round: best %.3f ms, "
	       "median %.3f ms (%d rounds)\n",
	       ndirs, found, t[0], t[rounds / 2], rounds);
	free(t);
	hp_os_root_close(&root);
	return 0;
}
