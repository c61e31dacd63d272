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

/* --- hp_safe_write: what `check` writes ---------------------------------------------- */

static char want[512];

static const char *at(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* The refusal for path, with the target and the directory left as they were. */
static void refused(const char *path, const char *msg, int files)
{
	hp_err err = {{0}};
	assert_false(hp_safe_write(path, "new", 3, 0644, &err));
	assert_string_equal(err.msg, msg);
	assert_int_equal(entries(), files);
}

static void test_safe_fixed_mode(void **state)
{
	(void)state;
	hp_err err = {{0}};
	mode_t old = umask(022);
	assert_true(hp_safe_write(at("r.json"), "one", 3, 0644, &err));
	assert_int_equal(mode_of(at("r.json")), 0644);
	/* an existing file's mode is not kept: the file is new */
	assert_int_equal(chmod(at("r.json"), 0600), 0);
	assert_true(hp_safe_write(at("r.json"), "two", 3, 0644, &err));
	assert_int_equal(mode_of(at("r.json")), 0644);
	assert_true(hp_safe_write(at("rec.yaml"), "three", 5, 0600, &err));
	assert_int_equal(mode_of(at("rec.yaml")), 0600);
	/* the umask narrows it */
	umask(027);
	assert_true(hp_safe_write(at("r.json"), "four", 4, 0644, &err));
	assert_int_equal(mode_of(at("r.json")), 0640);
	/* and never widens it: a umask of 0 leaves the fixed mode */
	umask(0);
	assert_true(hp_safe_write(at("rec.yaml"), "five", 4, 0600, &err));
	assert_int_equal(mode_of(at("rec.yaml")), 0600);
	umask(old);
	assert_int_equal(entries(), 2);
	/* a relative path, with . and .., is walked from the working directory */
	char cwd[256];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	assert_true(hp_safe_write("./sub/../rel.json", "six", 3, 0644, &err) == false);
	assert_int_equal(mkdir("sub", 0755), 0);
	assert_true(hp_safe_write("./sub/../rel.json", "six", 3, 0644, &err));
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(mode_of(at("rel.json")), 0644);
}

static void test_safe_refusals(void **state)
{
	(void)state;
	/* a symbolic link as the file: even one to a file the caller owns */
	put(at("real"), "old", 0600);
	assert_int_equal(symlink(at("real"), at("out.json")), 0);
	snprintf(want, sizeof want,
	         "%s: the file is a symbolic link, which is not followed: its owner could "
	         "point it anywhere",
	         at("out.json"));
	refused(at("out.json"), want, 2);
	/* a symbolic link on the way */
	assert_int_equal(mkdir(at("d"), 0755), 0);
	assert_int_equal(symlink(at("d"), at("link")), 0);
	snprintf(want, sizeof want,
	         "%s/link/x.json: %s/link is a symbolic link, which is not followed: its owner "
	         "could point it anywhere (name the directory it points to)",
	         dir, dir);
	refused(at("link/x.json"), want, 4);
	/* a directory writable by others without the sticky bit */
	assert_int_equal(chmod(at("d"), 0777), 0);
	snprintf(want, sizeof want,
	         "%s/d/x.json: directory %s/d is writable by others (mode 0777) without the "
	         "sticky bit: they could replace what is written there",
	         dir, dir);
	refused(at("d/x.json"), want, 4);
	assert_int_equal(chmod(at("d"), 0775), 0);
	snprintf(want, sizeof want,
	         "%s/d/x.json: directory %s/d is writable by its group (mode 0775) without the "
	         "sticky bit: they could replace what is written there",
	         dir, dir);
	refused(at("d/x.json"), want, 4);
	/* with the sticky bit, only root or the caller could move the caller's file */
	assert_int_equal(chmod(at("d"), 01777), 0);
	hp_err err = {{0}};
	assert_true(hp_safe_write(at("d/x.json"), "ok", 2, 0644, &err));
	/* a file others can write is not taken over, nor a FIFO or a directory */
	put(at("shared.json"), "old", 0666);
	snprintf(want, sizeof want,
	         "%s: the file is writable by others (mode 0666): remove it, or write "
	         "somewhere else",
	         at("shared.json"));
	refused(at("shared.json"), want, 5);
	assert_int_equal(chmod(at("shared.json"), 0620), 0);
	snprintf(want, sizeof want,
	         "%s: the file is writable by its group (mode 0620): remove it, or write "
	         "somewhere else",
	         at("shared.json"));
	refused(at("shared.json"), want, 5);
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	snprintf(want, sizeof want, "%s: not a regular file, not replacing it", at("fifo"));
	refused(at("fifo"), want, 6);
	snprintf(want, sizeof want, "%s/d/: names a directory, not a file", dir);
	refused(at("d/"), want, 6);
	snprintf(want, sizeof want, "%s/real/x: cannot open directory %s/real: Not a directory", dir,
	         dir);
	refused(at("real/x"), want, 6);
	snprintf(want, sizeof want,
	         "%s/nope/x: cannot open directory %s/nope: No such file or directory", dir, dir);
	refused(at("nope/x"), want, 6);
	assert_false(hp_safe_write("", "x", 1, 0644, &err));
	assert_string_equal(err.msg, "an empty path names no file");
	/* the old content of every refused target is still there */
	FILE *f = fopen(at("real"), "r");
	char got[8] = {0};
	assert_int_equal(fread(got, 1, sizeof got - 1, f), 3);
	fclose(f);
	assert_string_equal(got, "old");
}

/* Another user's directory or file: the agent's home, a file it made. */
static void test_safe_other_owner(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		printf("# needs root to give files to another user\n");
		skip();
	}
	hp_err err = {{0}};
	assert_int_equal(mkdir(at("agent"), 0755), 0);
	assert_int_equal(chown(at("agent"), 65534, 65534), 0);
	snprintf(want, sizeof want,
	         "%s/agent/r.json: directory %s/agent is owned by uid 65534, neither root nor "
	         "the caller: its owner could replace what is written there",
	         dir, dir);
	refused(at("agent/r.json"), want, 1);
	/* a sticky directory others can write: the agent's file in it is refused,
	 * root's is replaced */
	assert_int_equal(mkdir(at("tmp"), 01777), 0);
	assert_int_equal(chmod(at("tmp"), 01777), 0);
	put(at("tmp/r.json"), "agent's", 0644);
	assert_int_equal(chown(at("tmp/r.json"), 65534, 65534), 0);
	snprintf(want, sizeof want,
	         "%s/tmp/r.json: the file is owned by uid 65534, neither root nor the caller: "
	         "remove it, or write somewhere else",
	         dir);
	refused(at("tmp/r.json"), want, 2);
	assert_int_equal(chown(at("tmp/r.json"), 0, 0), 0);
	assert_true(hp_safe_write(at("tmp/r.json"), "root's", 6, 0644, &err));
	struct stat st;
	assert_int_equal(lstat(at("tmp/r.json"), &st), 0);
	assert_int_equal(st.st_uid, 0);
	/* temporary names planted beforehand change nothing: the name is random and
	 * created with O_EXCL, never through a link */
	for (int i = 0; i < 4; i++) {
		char n[64];
		snprintf(n, sizeof n, "tmp/.r.json.tmp.%016x", i);
		assert_int_equal(symlink("/etc/passwd", at(n)), 0);
	}
	assert_true(hp_safe_write(at("tmp/r.json"), "again", 5, 0644, &err));
	assert_int_equal(lstat(at("tmp/r.json"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_write_replace_keep_mode, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failures_leave_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_safe_fixed_mode, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_safe_refusals, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_safe_other_owner, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
