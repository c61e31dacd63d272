/* test_walkmemo.c: walks that take their steps into directories from a
 * memo report the same steps and end on the same file as walks that open
 * everything, through symlinks, '..', missing names and a root; the memo
 * holds directories only, by their parent's identity and the name, and
 * stops at its bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "os/safe_path.h"
#include "os/walkmemo.h"

typedef struct {
	char *dir;
	hp_root root;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	const char *d = f->dir;
	fx_dir(d, "usr", 0755, 0, 0);
	fx_dir(d, "usr/bin", 0755, 0, 0);
	fx_dir(d, "usr/lib", 0755, 0, 0);
	fx_dir(d, "usr/lib/tool", 0755, 0, 0);
	fx_file(d, "usr/bin/real", "x", 0755, 0, 0);
	fx_file(d, "usr/lib/tool/run", "x", 0755, 0, 0);
	fx_link(d, "usr/bin/same", "real");
	fx_link(d, "usr/bin/up", "../lib/tool/run");
	fx_link(d, "usr/bin/abs", "/etc/alt/abs");
	fx_link(d, "bin", "usr/bin");
	fx_dir(d, "etc", 0755, 0, 0);
	fx_dir(d, "etc/alt", 0755, 0, 0);
	fx_link(d, "etc/alt/abs", "/usr/bin/real");
	fx_link(d, "usr/bin/dangling", "/nowhere/x");
	hp_err e;
	assert_int_equal(hp_os_root_open(&f->root, d, 0, &e), HP_TRUE);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	hp_os_root_close(&f->root);
	fx_rmtree(f->dir);
	free(f);
	return 0;
}

/* The steps a walk reports, as text: directory inode, name, entry inode. */
typedef struct {
	char buf[4096];
	size_t len;
	int bad_fd; /* a step whose descriptor does not describe its entry */
} trace;

static void record(void *vctx, const hp_step *st)
{
	trace *t = vctx;
	struct stat s;
	if (st->entry && (fstatat(st->entryfd, "", &s, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0 ||
	                  s.st_ino != st->entry->ino))
		t->bad_fd = 1;
	if (fstatat(st->dirfd, "", &s, AT_EMPTY_PATH) < 0 || s.st_ino != st->dir->ino)
		t->bad_fd = 1;
	int n = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%lu/%s=%lu ",
	                 (unsigned long)st->dir->ino, st->name,
	                 st->entry ? (unsigned long)st->entry->ino : 0ul);
	if (n > 0 && (size_t)n < sizeof t->buf - t->len)
		t->len += (size_t)n;
}

static const char *const paths[] = {
    "usr/bin/real",  "bin/same",         "bin/up",  "usr/bin/abs", "usr/bin/../lib/tool/run",
    "usr/bin/",      "usr/bin/dangling", "missing", "usr/missing", "/",
    "bin/../../etc", "etc/alt/abs",
};

static void walk_once(fx *f, const char *path, hp_walkmemo *m, trace *t, hp_tri *res,
                      ino_t *ino)
{
	memset(t, 0, sizeof *t);
	int fd = -1;
	hp_err e;
	*res = hp_os_resolve_walk_memo(&f->root, path, 0, record, t, m, &fd, &e);
	*ino = 0;
	if (fd >= 0) {
		struct stat s;
		assert_int_equal(fstat(fd, &s), 0);
		*ino = s.st_ino;
		close(fd); /* the caller's own descriptor, even from the memo */
	}
}

/* The same steps, the same end, the first time (filling the memo) and the
 * second (taking from it), as without one. */
static void test_same_walks(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
			trace plain, memo;
			hp_tri r1, r2;
			ino_t i1, i2;
			walk_once(f, paths[i], NULL, &plain, &r1, &i1);
			walk_once(f, paths[i], m, &memo, &r2, &i2);
			if (strcmp(plain.buf, memo.buf) != 0)
				print_error("%s (round %d):\n  plain %s\n  memo  %s\n", paths[i], round,
				            plain.buf, memo.buf);
			assert_string_equal(plain.buf, memo.buf);
			assert_int_equal(r1, r2);
			assert_true(i1 == i2);
			assert_false(memo.bad_fd);
		}
	hp_os_walkmemo_free(m);
}

/* What the memo keeps: directories, by parent and name; never a file or a
 * symlink; and the root's facts. */
static void test_keeps_directories(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	trace t;
	hp_tri r;
	ino_t ino;
	walk_once(f, "bin/same", m, &t, &r, &ino);
	assert_int_equal(r, HP_TRUE);
	const hp_fileinfo *root = hp_os_walkmemo_root(m, &f->root);
	assert_non_null(root);
	assert_true(root->ino == f->root.ino);
	const hp_fileinfo *usr = NULL, *bin = NULL, *x = NULL;
	assert_true(hp_os_walkmemo_get(m, root, "usr", &usr) >= 0);
	assert_int_equal(usr->type, HP_FT_DIR);
	assert_true(hp_os_walkmemo_get(m, usr, "bin", &bin) >= 0);
	/* the symlink "bin", the file and the link "same" are not kept */
	assert_int_equal(hp_os_walkmemo_get(m, root, "bin", &x), -1);
	assert_int_equal(hp_os_walkmemo_get(m, bin, "same", &x), -1);
	assert_int_equal(hp_os_walkmemo_get(m, bin, "real", &x), -1);
	/* by name: another name in the same directory is not the same step */
	assert_int_equal(hp_os_walkmemo_get(m, root, "usr2", &x), -1);
	/* a parent without a mount id is never looked up */
	hp_fileinfo nomnt = *root;
	nomnt.has_mnt_id = 0;
	assert_int_equal(hp_os_walkmemo_get(m, &nomnt, "usr", &x), -1);
	hp_os_walkmemo_free(m);
	hp_os_walkmemo_free(NULL);
}

static void test_bounded(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	const hp_fileinfo *root = hp_os_walkmemo_root(m, &f->root);
	assert_non_null(root);
	hp_fileinfo rinfo = *root;
	char name[32];
	for (int i = 0; i < HP_WALKMEMO_MAX + 10; i++) {
		snprintf(name, sizeof name, "d%d", i);
		hp_os_walkmemo_put(m, &rinfo, name, f->root.fd, &rinfo);
	}
	const hp_fileinfo *x;
	snprintf(name, sizeof name, "d%d", HP_WALKMEMO_MAX - 1);
	assert_true(hp_os_walkmemo_get(m, &rinfo, name, &x) >= 0);
	snprintf(name, sizeof name, "d%d", HP_WALKMEMO_MAX);
	assert_int_equal(hp_os_walkmemo_get(m, &rinfo, name, &x), -1);
	/* and walks go on without it, opening as before */
	trace t;
	hp_tri r;
	ino_t ino;
	walk_once(f, "usr/lib/tool/run", m, &t, &r, &ino);
	assert_int_equal(r, HP_TRUE);
	hp_os_walkmemo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_same_walks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_keeps_directories, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bounded, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
