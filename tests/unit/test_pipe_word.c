/* test_pipe_word.c: a word read to its end from a pipe: ended when the
 * writers close it, late when they do not by the deadline (what they wrote
 * is kept, and read even past it), cut at the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "os/pipe_word.h"
#include "os/sysx.h"

static void test_ended(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(write(p[1], "ok", 2), 2);
	close(p[1]);
	char buf[16];
	bool ended;
	assert_int_equal(hp_os_pipe_word(p[0], buf, sizeof buf, hp_os_now_ms() + 1000, &ended), 2);
	assert_true(ended);
	assert_memory_equal(buf, "ok", 2);
	close(p[0]);
}

static void test_late(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(write(p[1], "par", 3), 3);
	char buf[16];
	bool ended;
	int64_t t0 = hp_os_now_ms();
	/* written, never closed: kept, and late */
	assert_int_equal(hp_os_pipe_word(p[0], buf, sizeof buf, t0 + 50, &ended), 3);
	assert_false(ended);
	assert_true(hp_os_now_ms() - t0 >= 50);
	/* past its deadline what is there is still read, and then the end */
	assert_int_equal(write(p[1], "t", 1), 1);
	close(p[1]);
	assert_int_equal(hp_os_pipe_word(p[0], buf, sizeof buf, t0, &ended), 1);
	assert_int_equal(buf[0], 't');
	close(p[0]);
}

static void test_cap(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(write(p[1], "0123456789", 10), 10);
	close(p[1]);
	char buf[4];
	bool ended;
	assert_int_equal(hp_os_pipe_word(p[0], buf, sizeof buf, hp_os_now_ms() + 1000, &ended), 4);
	assert_false(ended);
	assert_memory_equal(buf, "0123", 4);
	close(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ended),
	    cmocka_unit_test(test_late),
	    cmocka_unit_test(test_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
