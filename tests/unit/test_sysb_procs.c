/* test_sysb_procs.c: procs_visible in the live backend with the check's
 * word (hp_sys_role.procs_fd): the pids it names are skipped, the count
 * waits for the pipe's end, and a word that does not end in time or is
 * malformed makes the answer unknown, never a pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysb_fixture.h"

/* A paused process of uid, and its pid. */

/* procs_visible(uid) as the agent's role in this process, with the word
 * read from fd (-1: no word), waiting at most wait_ms. */
static const char *visible(uid_t uid, int fd, int wait_ms, char *out, size_t n)
{
	hp_sysbackend *s = sx_open_live(HP_ROLE_AGENT, FX_AGENT, FX_AGENT, NULL);
	assert_non_null(s);
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	ctx.cred = (hp_cred){FX_AGENT, FX_AGENT, NULL, 0, 0};
	ctx.procs_pending = fd >= 0;
	ctx.procs_fd = fd;
	ctx.procs_wait_ms = wait_ms;
	hp_probe_sys_set_role(s, &ctx);
	hp_backend *b = hp_probe_sys_backend(s);
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value arg = hp_v_int(uid);
	sx_format(hp_backend_ask(b, HP_ROLE_AGENT, HP_PROBE_PROCS_VISIBLE, &arg, &pool), out, n);
	hp_pool_free(&pool);
	hp_backend_destroy(b);
	return out;
}

static void test_word_skips(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char out[512];
	pid_t other = fx_sleeper(FX_OTHER, 0);
	assert_string_equal(visible(FX_OTHER, -1, 0, out, sizeof out), "true");
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(write(p[1], &other, sizeof other), (ssize_t)sizeof other);
	close(p[1]);
	assert_string_equal(visible(FX_OTHER, p[0], 1000, out, sizeof out), "false");
	/* an empty word skips nothing */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	close(p[1]);
	assert_string_equal(visible(FX_OTHER, p[0], 1000, out, sizeof out), "true");
	fx_stop(other);
}

static void test_word_late_or_malformed(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char out[512];
	int p[2];
	/* the pipe's end never comes: unknown at the wait's end, not a count */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_string_equal(visible(FX_OTHER, p[0], 100, out, sizeof out),
	                    "unknown (procs_visible: the check did not say which processes "
	                    "are its own in time)");
	close(p[1]);
	/* not whole pids */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	close(p[1]);
	assert_string_equal(visible(FX_OTHER, p[0], 1000, out, sizeof out),
	                    "unknown (procs_visible: the check's word about its own processes "
	                    "is malformed)");
	/* more pids than a word holds */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid_t many[HP_SYS_PROCS_MAX + 1];
	for (size_t i = 0; i < HP_SYS_PROCS_MAX + 1; i++)
		many[i] = 1;
	assert_int_equal(write(p[1], many, sizeof many), (ssize_t)sizeof many);
	close(p[1]);
	assert_string_equal(visible(FX_OTHER, p[0], 1000, out, sizeof out),
	                    "unknown (procs_visible: the check's word about its own processes "
	                    "is malformed)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_word_skips),
	    cmocka_unit_test(test_word_late_or_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
