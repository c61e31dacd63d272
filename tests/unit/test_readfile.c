/* test_readfile.c: the one capped read loop (hp_read_fd_all) and the
 * reader of trusted paths around it (lib/readfile.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/readfile.h"

/* A pipe holding n bytes of 'x', its write end closed: a file of unknown size. */
static int pipe_of(size_t n)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	char buf[256];
	memset(buf, 'x', sizeof buf);
	for (size_t done = 0; done < n;) {
		size_t k = n - done < sizeof buf ? n - done : sizeof buf;
		assert_int_equal(write(p[1], buf, k), (ssize_t)k);
		done += k;
	}
	close(p[1]);
	return p[0];
}

static void test_cap_boundaries(void **state)
{
	(void)state;
	char *b;
	size_t len;
	/* exactly the cap: read, NUL-terminated */
	int fd = pipe_of(100);
	assert_int_equal(hp_read_fd_all(fd, 100, 0, &b, &len), 0);
	assert_int_equal(len, 100);
	assert_int_equal(b[100], '\0');
	free(b);
	close(fd);
	/* one byte more: EFBIG, whatever size was expected */
	size_t hints[] = {0, 50, 100, 101, 5000};
	for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
		fd = pipe_of(101);
		errno = 0;
		assert_int_equal(hp_read_fd_all(fd, 100, hints[i], &b, &len), -1);
		assert_int_equal(errno, EFBIG);
		close(fd);
	}
	/* empty */
	fd = pipe_of(0);
	assert_int_equal(hp_read_fd_all(fd, 100, 0, &b, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(b, "");
	free(b);
	close(fd);
	/* more than a first buffer, with a wrong hint */
	fd = pipe_of(10000);
	assert_int_equal(hp_read_fd_all(fd, 20000, 10, &b, &len), 0);
	assert_int_equal(len, 10000);
	free(b);
	close(fd);
	/* a read error is reported with its errno */
	errno = 0;
	assert_int_equal(hp_read_fd_all(-1, 100, 0, &b, &len), -1);
	assert_int_equal(errno, EBADF);
}

static void test_regular_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/hp-readfile-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/f", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("hello", f);
	fclose(f);
	uint8_t *d;
	size_t len;
	hp_err e;
	assert_true(hp_read_regular_file(path, 5, &d, &len, &e));
	assert_int_equal(len, 5);
	assert_memory_equal(d, "hello", 5);
	free(d);
	assert_false(hp_read_regular_file(path, 4, &d, &len, &e));
	char want[128];
	snprintf(want, sizeof want, "%s: 5 bytes, more than the limit of 4", path);
	assert_string_equal(e.msg, want);
	assert_false(hp_read_regular_file(dir, 4, &d, &len, &e));
	snprintf(want, sizeof want, "%s: not a regular file", dir);
	assert_string_equal(e.msg, want);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cap_boundaries),
	    cmocka_unit_test(test_regular_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
