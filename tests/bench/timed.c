/* timed.c: runs a command with its standard streams as they are and writes
 * its wall time in milliseconds to descriptor 3 (standard error when 3 is
 * not open); exits with the command's status (128 + N for signal N). For
 * tests/bench/fleet.sh, which times each check inside its sandbox.
 *   timed CMD [ARG...] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: timed CMD [ARG...]\n");
		return 2;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid_t p = fork();
	if (p < 0)
		return 125;
	if (p == 0) {
		if (fcntl(3, F_GETFD) >= 0)
			close(3);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int st;
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR)
			return 125;
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	FILE *out = fcntl(3, F_GETFD) >= 0 ? fdopen(3, "w") : stderr;
	if (out) {
		fprintf(out, "%.3f\n", ms);
		fflush(out);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
