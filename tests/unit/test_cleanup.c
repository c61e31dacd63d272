/* test_cleanup.c: what a check started dies with it: a termination signal
 * kills every descendant (grandchildren in sessions of their own included)
 * before the check goes, and the backstop timer ends a check that overruns
 * its deadline, with its message and status 4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/cleanup.h"

/* A checker process: it starts a grandchild in a session of its own that
 * would sleep for a long time, reports the grandchild's pid, and is then
 * killed by SIGTERM. */
static void test_signal_kills_descendants(void **state)
{
	(void)state;
	/* orphans come back here, so the test can see how they ended */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t checker = fork();
	assert_true(checker >= 0);
	if (checker == 0) {
		close(p[0]);
		hp_os_cleanup_install(0);
		pid_t g = fork();
		if (g == 0) {
			setsid();
			for (;;)
				pause();
		}
		if (write(p[1], &g, sizeof g) != sizeof g)
			_exit(3);
		for (;;)
			pause();
	}
	close(p[1]);
	pid_t g = 0;
	assert_int_equal(read(p[0], &g, sizeof g), (ssize_t)sizeof g);
	close(p[0]);
	assert_int_equal(kill(checker, SIGTERM), 0);
	int st;
	assert_int_equal(waitpid(checker, &st, 0), checker);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	/* the grandchild was killed by the checker's handler, not left */
	assert_int_equal(waitpid(g, &st, 0), g);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
}

static void test_backstop(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t checker = fork();
	assert_true(checker >= 0);
	if (checker == 0) {
		close(p[0]);
		dup2(p[1], 2);
		hp_os_cleanup_install(50);
		for (;;)
			pause();
	}
	close(p[1]);
	char buf[128];
	ssize_t n = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "hangar-policy: the check did not finish within 50 ms\n");
	int st;
	assert_int_equal(waitpid(checker, &st, 0), checker);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 4);
}

/* Restored: the timer no longer fires, the signals are as they were. */
static void test_restore(void **state)
{
	(void)state;
	pid_t checker = fork();
	assert_true(checker >= 0);
	if (checker == 0) {
		hp_os_cleanup_install(30);
		hp_os_cleanup_restore();
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
		struct sigaction sa;
		sigaction(SIGTERM, NULL, &sa);
		_exit(sa.sa_handler == SIG_DFL ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(checker, &st, 0), checker);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_signal_kills_descendants),
	    cmocka_unit_test(test_backstop),
	    cmocka_unit_test(test_restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
