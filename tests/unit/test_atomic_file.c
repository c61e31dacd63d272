/* test_atomic_file.c: whole-file writes through a temporary file and rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomic_file.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/hp-atomic.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd);
}

static int entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_write_replace_keep_mode(void **state)
{
	(void)state;
	char path[128], got[16] = {0};
	snprintf(path, sizeof path, "%s/out.json", dir);
	hp_err err = {{0}};
	assert_true(hp_atomic_write(path, "first", 5, 0640, &err));
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(chmod(path, 0600), 0);
	assert_true(hp_atomic_write(path, "second", 6, 0644, &err));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600); /* an existing file keeps its mode */
	FILE *f = fopen(path, "r");
	assert_int_equal(fread(got, 1, sizeof got - 1, f), 6);
	fclose(f);
	assert_string_equal(got, "second");
	assert_int_equal(entries(), 1); /* no temporary file left */
}

static void test_failures_leave_nothing(void **state)
{
	(void)state;
	char path[128];
	hp_err err = {{0}};
	snprintf(path, sizeof path, "%s/missing/out", dir);
	assert_false(hp_atomic_write(path, "x", 1, 0644, &err));
	char want[256];
	snprintf(want, sizeof want,
	         "%s/missing/out: cannot create a temporary file: No such file or directory", dir);
	assert_string_equal(err.msg, want);
	/* never replaces something that is not a regular file */
	assert_false(hp_atomic_write(dir, "x", 1, 0644, &err));
	snprintf(want, sizeof want, "%s: not a regular file, not overwriting it", dir);
	assert_string_equal(err.msg, want);
	assert_int_equal(entries(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_write_replace_keep_mode, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failures_leave_nothing, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
