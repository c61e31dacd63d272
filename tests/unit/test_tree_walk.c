/* test_tree_walk.c: every entry below a directory, once, on descriptors:
 * the order of visits, symlinks shown and not followed, a directory the
 * walking identity cannot search skipped, one it can search but not list
 * unknown, a visitor that stops the walk, and the bounds: entries (the
 * last one allowed and the first one past), time and depth, each unknown
 * past it. Entries below the top are shown by name and facts and opened
 * only when asked: a name another file took meanwhile is unknown, one
 * removed leads nowhere, a directory that is listed but not searched is
 * skipped, and a refused statx by name falls back to a descriptor. A
 * directory on its parent's mount takes its parent's filesystem type; one
 * on a mount of its own is asked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "lib/strv.h"
#include "os/tree_walk.h"

static char *dir;
static hp_root root;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fx_dir(dir, "pkg", 0755, 0, 0);
	fx_dir(dir, "pkg/lib", 0755, 0, 0);
	fx_dir(dir, "pkg/lib/deep", 0755, 0, 0);
	fx_file(dir, "pkg/lib/deep/x.js", "x", 0644, 0, 0);
	fx_file(dir, "pkg/index.js", "x", 0644, 0, 0);
	fx_link(dir, "pkg/out", "/etc");
	fx_dir(dir, "pkg/closed", 0700, 0, 0);
	fx_file(dir, "pkg/closed/hidden", "x", 0666, 0, 0);
	fx_dir(dir, "pkg/searchonly", 0711, 0, 0);
	fx_file(dir, "pkg/searchonly/guess", "x", 0644, 0, 0);
	hp_err e;
	return hp_os_root_open(&root, dir, HP_ROOT_OFFLINE, &e) != HP_TRUE;
}

static int teardown(void **state)
{
	(void)state;
	if (dir) {
		hp_os_root_close(&root);
		fx_rmtree(dir);
	}
	return 0;
}

typedef struct {
	hp_strv seen;
	const char *stop_at;
	int slow; /* sleep 5 ms on the first visit below the top */
} rec;

static hp_tri record(void *vctx, const hp_tree_entry *te, hp_err *why)
{
	rec *r = vctx;
	if (r->slow && !te->is_top) {
		r->slow = 0;
		nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
	}
	hp_strv_pushf(&r->seen, "%s%s%s", te->path, te->info->type == HP_FT_SYMLINK ? "@" : "",
	              te->is_top ? " (top)" : "");
	if (r->stop_at && strcmp(te->path, r->stop_at) == 0) {
		hp_err_set(why, "stopped");
		return HP_TRUE;
	}
	return HP_FALSE;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_every_entry_once(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	rec r = {{0}, NULL, 0};
	hp_tree_limits lim = {0, 0, 0};
	hp_err e;
	int missing;
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &lim, record, &r, &missing, &e), HP_FALSE);
	qsort(r.seen.v, r.seen.n, sizeof *r.seen.v, cmp);
	const char *want[] = {"/pkg (top)",
	                      "/pkg/closed",
	                      "/pkg/closed/hidden",
	                      "/pkg/index.js",
	                      "/pkg/lib",
	                      "/pkg/lib/deep",
	                      "/pkg/lib/deep/x.js",
	                      "/pkg/out@",
	                      "/pkg/searchonly",
	                      "/pkg/searchonly/guess"};
	assert_int_equal(r.seen.n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < r.seen.n; i++)
		assert_string_equal(r.seen.v[i], want[i]);
	assert_int_equal(lim.entries, 9);
	hp_strv_free(&r.seen);
	/* a file alone, a path that is not there */
	rec f = {{0}, NULL, 0};
	assert_int_equal(hp_os_tree_walk(&root, "/pkg/index.js", 0, &lim, record, &f, &missing, &e),
	                 HP_FALSE);
	assert_int_equal(f.seen.n, 1);
	hp_strv_free(&f.seen);
	assert_int_equal(hp_os_tree_walk(&root, "/none", 0, &lim, record, &f, &missing, &e), HP_FALSE);
	assert_int_equal(missing, 1);
}

static void test_stop_and_bounds(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	rec r = {{0}, "/pkg/lib/deep/x.js", 0};
	hp_tree_limits lim = {0, 0, 0};
	hp_err e;
	int missing;
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &lim, record, &r, &missing, &e), HP_TRUE);
	assert_string_equal(e.msg, "stopped");
	hp_strv_free(&r.seen);
	rec b = {{0}, NULL, 0};
	hp_tree_limits small = {3, 0, 0};
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &small, record, &b, &missing, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/pkg: more than 3 entries");
	hp_strv_free(&b.seen);
	/* the tree has 9 entries below its top: 9 allowed is enough, 8 is not */
	rec x = {{0}, NULL, 0};
	hp_tree_limits nine = {9, 0, 0};
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &nine, record, &x, &missing, &e),
	                 HP_FALSE);
	hp_strv_free(&x.seen);
	hp_tree_limits eight = {8, 0, 0};
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &eight, record, &x, &missing, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/pkg: more than 8 entries");
	hp_strv_free(&x.seen);
}

/* A walk past its time (the clock is read every 256 entries) and a tree
 * deeper than HP_TREE_MAX_DEPTH are unknown, never "nothing found". */
static void test_time_and_depth(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *d = fx_tmpdir();
	fx_dir(d, "many", 0755, 0, 0);
	for (int i = 0; i < 300; i++) {
		char n[32];
		snprintf(n, sizeof n, "many/f%03d", i);
		fx_file(d, n, "", 0644, 0, 0);
	}
	char rel[2 * (HP_TREE_MAX_DEPTH + 2) + 8] = "deep";
	fx_dir(d, rel, 0755, 0, 0);
	for (int i = 0; i <= HP_TREE_MAX_DEPTH; i++) {
		strcat(rel, "/d");
		fx_dir(d, rel, 0755, 0, 0);
	}
	hp_root r;
	hp_err e;
	assert_int_equal(hp_os_root_open(&r, d, HP_ROOT_OFFLINE, &e), HP_TRUE);
	int missing;
	rec slow = {{0}, NULL, 1};
	hp_tree_limits lim = {0, 1, 0};
	assert_int_equal(hp_os_tree_walk(&r, "/many", 0, &lim, record, &slow, &missing, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/many: the walk took longer than 1 ms");
	hp_strv_free(&slow.seen);
	/* the same walk with time enough sees every file */
	rec all = {{0}, NULL, 0};
	hp_tree_limits dflt = {0, 0, 0};
	assert_int_equal(hp_os_tree_walk(&r, "/many", 0, &dflt, record, &all, &missing, &e),
	                 HP_FALSE);
	assert_int_equal(all.seen.n, 301);
	hp_strv_free(&all.seen);
	rec deep = {{0}, NULL, 0};
	assert_int_equal(hp_os_tree_walk(&r, "/deep", 0, &dflt, record, &deep, &missing, &e),
	                 HP_UNKNOWN);
	char want[512];
	snprintf(want, sizeof want, "more than %d directories deep: /%s", (int)HP_TREE_MAX_DEPTH,
	         rel);
	assert_string_equal(e.msg, want);
	hp_strv_free(&deep.seen);
	hp_os_root_close(&r);
	fx_rmtree(d);
}

/* as another uid: pkg/closed cannot be searched (skipped), pkg/searchonly
 * can be searched but not listed (unknown) */
static int as_other(void *arg)
{
	(void)arg;
	rec r = {{0}, NULL, 0};
	hp_tree_limits lim = {0, 0, 0};
	hp_err e;
	int missing;
	hp_tri t = hp_os_tree_walk(&root, "/pkg/closed", HP_RES_DENIED_FALSE, &lim, record, &r,
	                        &missing, &e);
	/* the top itself resolves (its parent is searchable): it is shown, and
	 * nothing below it, which this uid cannot reach */
	if (t != HP_FALSE || r.seen.n != 1)
		return 1;
	t = hp_os_tree_walk(&root, "/pkg/lib", HP_RES_DENIED_FALSE, &lim, record, &r, &missing, &e);
	if (t != HP_FALSE)
		return 2;
	t = hp_os_tree_walk(&root, "/pkg", HP_RES_DENIED_FALSE, &lim, record, &r, &missing, &e);
	if (t != HP_UNKNOWN || strcmp(e.msg, "/pkg/searchonly: can be searched but not listed") != 0)
		return 3;
	return 0;
}

static void test_unreachable(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(fx_run_as(FX_OTHER, FX_OTHER, as_other, NULL), 0);
}

/* Below the top nothing is opened to be shown: each entry comes as its
 * directory's descriptor and its name, with the facts of one statx, and a
 * descriptor on it when asked is of the file those facts describe. */
static hp_tri lazy(void *vctx, const hp_tree_entry *te, hp_err *why)
{
	int *bad = vctx;
	if (te->is_top) {
		if (te->fd < 0 || te->dir != te->info)
			*bad = 1;
		return HP_FALSE;
	}
	const char *base = strrchr(te->path, '/') + 1;
	if (te->fd != -1 || te->dirfd < 0 || strcmp(te->name, base) != 0 || !te->dir ||
	    te->dir->type != HP_FT_DIR || te->dir_fs_magic == 0)
		*bad = 2;
	/* a directory the walk enters comes open for listing, and asking
	 * for a descriptor on it gives that one, not another open */
	bool isdir = te->info->type == HP_FT_DIR;
	if (isdir != (te->lfd >= 0) || (isdir && (!te->lfd_info || te->lfd_info->ino != te->info->ino)))
		*bad = 5;
	int fd;
	hp_fileinfo now;
	if (hp_os_tree_entry_open(te, &fd, &now, why) != HP_TRUE)
		*bad = 3;
	else if (now.dev != te->info->dev || now.ino != te->info->ino || now.type != te->info->type)
		*bad = 4;
	else if (isdir != (fd == te->lfd))
		*bad = 6;
	hp_os_tree_entry_close(te, fd);
	/* given back, the walk's own is still open: it goes on listing it */
	if (isdir && fcntl(te->lfd, F_GETFD) < 0)
		*bad = 7;
	return HP_FALSE;
}

static void test_entries_opened_when_asked(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int bad = 0;
	hp_tree_limits lim = {0, 0, 0};
	hp_err e;
	int missing;
	assert_int_equal(hp_os_tree_walk(&root, "/pkg", 0, &lim, lazy, &bad, &missing, &e), HP_FALSE);
	assert_int_equal(bad, 0);
	assert_int_equal(lim.entries, 9);
	/* a caller's top too long for the paths built below it: unknown, the
	 * descriptor closed */
	char *longtop = hp_xmalloc(HP_PATH_MAX + 2);
	memset(longtop, 'a', HP_PATH_MAX + 1);
	longtop[0] = '/';
	longtop[HP_PATH_MAX + 1] = '\0';
	int tfd = dup(root.fd);
	assert_true(tfd >= 0);
	assert_int_equal(hp_os_tree_walk_at(&root, tfd, NULL, longtop, &lim, lazy, &bad, &e),
	                 HP_UNKNOWN);
	assert_true(strncmp(e.msg, "a path longer than", 18) == 0);
	assert_true(fcntl(tfd, F_GETFD) < 0);
	free(longtop);
}

/* A visitor that changes the tree under the walk, as a racing writer
 * would: "a" gets b's file, "c" is removed, and in another tree the empty
 * directory "sub" gets the directory "sub2" while the visitor looks at it. */
typedef struct {
	const char *dir;
	hp_tri a, c;
	char why_a[sizeof(hp_err)];
	int saw_sub2; /* sub2's file shown under sub's name */
} swap;

static hp_tri swapper(void *vctx, const hp_tree_entry *te, hp_err *why)
{
	swap *w = vctx;
	char *from = NULL, *to = NULL;
	int fd;
	hp_fileinfo now;
	hp_err e;
	e.msg[0] = '\0';
	if (strcmp(te->path, "/swap/a") == 0) {
		from = fx_path(w->dir, "swap/b");
		to = fx_path(w->dir, "swap/a");
		assert_int_equal(rename(from, to), 0);
		w->a = hp_os_tree_entry_open(te, &fd, &now, &e);
		snprintf(w->why_a, sizeof w->why_a, "%s", e.msg);
	} else if (strcmp(te->path, "/swap/c") == 0) {
		to = fx_path(w->dir, "swap/c");
		assert_int_equal(unlink(to), 0);
		w->c = hp_os_tree_entry_open(te, &fd, &now, &e);
	} else if (strcmp(te->path, "/swapdir/sub") == 0) {
		from = fx_path(w->dir, "swapdir/sub2");
		to = fx_path(w->dir, "swapdir/sub");
		assert_int_equal(rename(from, to), 0);
	} else if (strcmp(te->path, "/swapdir/sub/x") == 0) {
		w->saw_sub2 = 1;
	}
	free(from);
	free(to);
	(void)why;
	return HP_FALSE;
}

static void test_entry_changed_meanwhile(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *d = fx_tmpdir();
	fx_dir(d, "swap", 0755, 0, 0);
	fx_file(d, "swap/a", "a", 0644, 0, 0);
	fx_file(d, "swap/b", "b", 0644, 0, 0);
	fx_file(d, "swap/c", "c", 0644, 0, 0);
	fx_dir(d, "swapdir", 0755, 0, 0);
	fx_dir(d, "swapdir/sub", 0755, 0, 0);
	fx_dir(d, "swapdir/sub2", 0755, 0, 0);
	fx_file(d, "swapdir/sub2/x", "x", 0644, 0, 0);
	hp_root r;
	hp_err e;
	assert_int_equal(hp_os_root_open(&r, d, HP_ROOT_OFFLINE, &e), HP_TRUE);
	swap w = {d, HP_TRUE, HP_TRUE, "", 0};
	hp_tree_limits lim = {0, 0, 0};
	int missing;
	assert_int_equal(hp_os_tree_walk(&r, "/swap", 0, &lim, swapper, &w, &missing, &e), HP_FALSE);
	assert_int_equal(w.a, HP_UNKNOWN);
	assert_string_equal(w.why_a, "/swap/a: another file took its name while the walk looked at it");
	assert_int_equal(w.c, HP_FALSE);
	/* sub2 is never entered under the name sub: the walk lists the
	 * directory the visitor was shown, which the rename removed, so
	 * whichever it lists first, it stops at sub, unknown */
	assert_int_equal(hp_os_tree_walk(&r, "/swapdir", 0, &lim, swapper, &w, &missing, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/swapdir/sub: reading the directory: No such file or directory");
	assert_int_equal(w.saw_sub2, 0);
	hp_os_root_close(&r);
	fx_rmtree(d);
}

/* As another uid, a directory it may list but not search (r--): what is
 * in it cannot be reached, so it is not entered, as one it cannot open. */
static char *rodir;

static int walk_readonly(void *arg)
{
	(void)arg;
	hp_root r;
	hp_err e;
	if (hp_os_root_open(&r, rodir, HP_ROOT_OFFLINE, &e) != HP_TRUE)
		return 1;
	rec seen = {{0}, NULL, 0};
	hp_tree_limits lim = {0, 0, 0};
	int missing;
	hp_tri t = hp_os_tree_walk(&r, "/top", HP_RES_DENIED_FALSE, &lim, record, &seen, &missing, &e);
	int bad = t != HP_FALSE ? 2 : seen.seen.n != 3 ? 3 : 0;
	for (size_t i = 0; i < seen.seen.n && !bad; i++)
		if (strstr(seen.seen.v[i], "hidden"))
			bad = 4;
	hp_strv_free(&seen.seen);
	hp_os_root_close(&r);
	return bad;
}

static void test_listed_not_searched(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	rodir = fx_tmpdir();
	fx_dir(rodir, "top", 0755, 0, 0);
	fx_file(rodir, "top/f", "f", 0644, 0, 0);
	fx_dir(rodir, "top/ro", 0744, 0, 0);
	fx_file(rodir, "top/ro/hidden", "x", 0666, 0, 0);
	assert_int_equal(fx_run_as(FX_OTHER, FX_OTHER, walk_readonly, NULL), 0);
	fx_rmtree(rodir);
	rodir = NULL;
}

/* statx refused (EPERM from a seccomp profile, ENOSYS): every entry is
 * still seen, its facts read on a descriptor. */
static int walk_without_statx(void *arg)
{
	const int nr[] = {SYS_statx};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || fx_seccomp_fail(nr, 1, *(int *)arg) < 0)
		return 10;
	rec r = {{0}, NULL, 0};
	hp_tree_limits lim = {0, 0, 0};
	hp_err e;
	int missing;
	hp_tri t = hp_os_tree_walk(&root, "/pkg", 0, &lim, record, &r, &missing, &e);
	int bad = t != HP_FALSE ? 11 : r.seen.n != 10 ? 12 : 0;
	hp_strv_free(&r.seen);
	return bad;
}

static void test_statx_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int errs[] = {38 /* ENOSYS */, 1 /* EPERM */};
	for (int i = 0; i < 2; i++)
		assert_int_equal(fx_in_child(walk_without_statx, &errs[i]), 0);
}

/* The filesystem type each entry's directory is shown with: a mount
 * inside the tree is of its own type, never its parent's. */
typedef struct {
	long in_mount, beside;
} magics;

static hp_tri note_magic(void *vctx, const hp_tree_entry *te, hp_err *why)
{
	(void)why;
	magics *m = vctx;
	if (strcmp(te->path, "/mt/inner/sub/f") == 0)
		m->in_mount = te->dir_fs_magic;
	else if (strcmp(te->path, "/mt/plain/g") == 0)
		m->beside = te->dir_fs_magic;
	return HP_FALSE;
}

static int walk_over_mount(void *arg)
{
	const char *d = arg;
	char *inner = fx_path(d, "mt/inner");
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", inner, "tmpfs", 0, "mode=0755") < 0)
		return 10;
	fx_dir(d, "mt/inner/sub", 0755, 0, 0);
	fx_file(d, "mt/inner/sub/f", "f", 0644, 0, 0);
	struct statfs outer;
	if (statfs(d, &outer) < 0 || outer.f_type == TMPFS_MAGIC)
		return 11; /* the test needs the tree itself on another type */
	hp_root r;
	hp_err e;
	if (hp_os_root_open(&r, d, 0, &e) != HP_TRUE)
		return 12;
	magics m = {0, 0};
	hp_tree_limits lim = {0, 0, 0};
	int missing;
	hp_tri t = hp_os_tree_walk(&r, "/mt", 0, &lim, note_magic, &m, &missing, &e);
	hp_os_root_close(&r);
	free(inner);
	if (t != HP_FALSE)
		return 13;
	if (m.in_mount != TMPFS_MAGIC)
		return 14;
	if (m.beside != (long)outer.f_type)
		return 15;
	return 0;
}

static void test_fs_type_per_mount(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *d = fx_tmpdir();
	fx_dir(d, "mt", 0755, 0, 0);
	fx_dir(d, "mt/inner", 0755, 0, 0);
	fx_dir(d, "mt/plain", 0755, 0, 0);
	fx_file(d, "mt/plain/g", "g", 0644, 0, 0);
	struct statfs sf;
	if (statfs(d, &sf) == 0 && sf.f_type == TMPFS_MAGIC) {
		fx_rmtree(d);
		skip(); /* a tree on tmpfs cannot tell a tmpfs mount apart */
	}
	assert_int_equal(fx_in_child(walk_over_mount, d), 0);
	fx_rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_entry_once),
	    cmocka_unit_test(test_stop_and_bounds),
	    cmocka_unit_test(test_time_and_depth),
	    cmocka_unit_test(test_unreachable),
	    cmocka_unit_test(test_entries_opened_when_asked),
	    cmocka_unit_test(test_entry_changed_meanwhile),
	    cmocka_unit_test(test_listed_not_searched),
	    cmocka_unit_test(test_statx_refused),
	    cmocka_unit_test(test_fs_type_per_mount),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
