/* exchange-loop.c: swap two paths with renameat2(RENAME_EXCHANGE) as fast
 * as possible for a while: the symlink-exchange race of runc
 * CVE-2021-30465, replayed against a running check by an e2e test.
 *
 *   exchange-loop A B MILLIS   prints nothing; exit 1 if a swap fails
 *
 * Test-only. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE 2
#endif

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: exchange-loop A B MILLIS\n");
		return 2;
	}
	long end = now_ms() + strtol(argv[3], NULL, 10);
	/* an even number of swaps leaves the tree as it was */
	while (now_ms() < end)
		for (int i = 0; i < 2; i++)
			if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
			            RENAME_EXCHANGE) < 0)
				return 1;
	return 0;
}
