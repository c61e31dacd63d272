/* test_tree_walk.c: every entry below a directory, once, on descriptors:
 * the order of visits, symlinks shown and not followed, a directory the
 * walking identity cannot search skipped, one it can search but not list
 * unknown, a visitor that stops the walk, and the bounds: entries (the
 * last one allowed and the first one past), time and depth, each unknown
 * past it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_entry_once),
	    cmocka_unit_test(test_stop_and_bounds),
	    cmocka_unit_test(test_time_and_depth),
	    cmocka_unit_test(test_unreachable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
