/* test_walkmemo.c: walks that take their steps into directories from a
 * memo report the same steps and end on the same file as walks that open
 * everything, through symlinks, '..', missing names and a root; the memo
 * holds directories only, by their parent's identity and the name, and
 * stops at its bound; with a directory's listing kept, the walks that come
 * to its entries take their facts and texts from it (the first look
 * stands), never a directory's, and the same steps otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "os/safe_path.h"
#include "os/walkmemo.h"

typedef fx_rooted fx;

static void fill_tree(const char *d)
{
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
}

static int setup(void **state)
{
	*state = fx_rooted_new(fill_tree);
	return 0;
}

static int teardown(void **state)
{
	fx_rooted_free(*state);
	return 0;
}

/* The steps a walk reports, as text: directory inode, name, entry inode. */
typedef struct {
	char buf[4096];
	size_t len;
	int bad_fd; /* a step whose descriptor does not describe its entry */
} trace;

static void append_step(trace *t, const hp_step *st)
{
	int n = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%lu/%s=%lu ",
	                 (unsigned long)st->dir->ino, st->name,
	                 st->entry ? (unsigned long)st->entry->ino : 0ul);
	if (n > 0 && (size_t)n < sizeof t->buf - t->len)
		t->len += (size_t)n;
}

static void record(void *vctx, const hp_step *st)
{
	trace *t = vctx;
	struct stat s;
	if (st->entry && (fstatat(st->entryfd, "", &s, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0 ||
	                  s.st_ino != st->entry->ino))
		t->bad_fd = 1;
	if (fstatat(st->dirfd, "", &s, AT_EMPTY_PATH) < 0 || s.st_ino != st->dir->ino)
		t->bad_fd = 1;
	append_step(t, st);
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

/* Under a low descriptor limit the memo holds at most a quarter of it. */
static void test_bounded_by_fd_limit(void **state)
{
	fx *f = *state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {64, 64};
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(2);
		hp_walkmemo *m = hp_os_walkmemo_new();
		const hp_fileinfo *root = hp_os_walkmemo_root(m, &f->root);
		if (!root)
			_exit(3);
		hp_fileinfo rinfo = *root;
		char name[32];
		for (int i = 0; i < 40; i++) {
			snprintf(name, sizeof name, "d%d", i);
			hp_os_walkmemo_put(m, &rinfo, name, f->root.fd, &rinfo);
		}
		const hp_fileinfo *x;
		int kept15 = hp_os_walkmemo_get(m, &rinfo, "d15", &x) >= 0;
		int kept16 = hp_os_walkmemo_get(m, &rinfo, "d16", &x) >= 0;
		hp_os_walkmemo_free(m);
		_exit(kept15 && !kept16 ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* The listing of rel under f's root, as writable_entries reads one: every
 * entry with one statx by name, sorted by name, into *n entries. */
static hp_listed *read_listing(fx *f, const char *rel, hp_fileinfo *dir, size_t *n)
{
	int fd = openat(f->root.fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	hp_err e;
	assert_int_equal(hp_os_fd_info(fd, dir, &e), HP_TRUE);
	DIR *d = hp_os_opendir_path(fd);
	assert_non_null(d);
	hp_listed *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		v = hp_xgrow(v, &cap, *n + 1, sizeof *v);
		hp_listed *en = &v[(*n)++];
		en->name = hp_xstrdup(de->d_name);
		en->text = NULL;
		en->have = hp_os_entry_info(dirfd(d), de->d_name, &en->info) == 0;
	}
	closedir(d);
	for (size_t i = 1; i < *n; i++) /* insertion sort: a handful */
		for (size_t j = i; j > 0 && strcmp(v[j - 1].name, v[j].name) > 0; j--) {
			hp_listed x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v;
}

static void keep(fx *f, hp_walkmemo *m, const char *rel)
{
	hp_fileinfo dir;
	size_t n;
	hp_listed *v = read_listing(f, rel, &dir, &n);
	assert_true(hp_os_walkmemo_keep_listing(m, &dir, v, n));
}

/* The steps as text, as record() writes them, and how many reached the
 * visitor without a descriptor though they have an entry; a directory
 * always has one that describes it. */
typedef struct {
	trace t;
	int taken;
} ltrace;

static void record_listed(void *vctx, const hp_step *st)
{
	ltrace *l = vctx;
	if (st->entry && st->entryfd < 0) {
		l->taken++;
		if (st->entry->type == HP_FT_DIR)
			l->t.bad_fd = 1;
		struct stat sd;
		if (fstatat(st->dirfd, "", &sd, AT_EMPTY_PATH) < 0 || sd.st_ino != st->dir->ino)
			l->t.bad_fd = 1;
		append_step(&l->t, st);
		return;
	}
	record(&l->t, st);
}

static hp_tri walk_listed(fx *f, const char *path, unsigned flags, hp_walkmemo *m, ltrace *l,
                          ino_t *ino)
{
	memset(l, 0, sizeof *l);
	int fd = -1;
	hp_err e;
	hp_tri r = hp_os_resolve_walk_memo(&f->root, path, flags, record_listed, l, m, &fd, &e);
	*ino = 0;
	if (fd >= 0) {
		struct stat s;
		assert_int_equal(fstat(fd, &s), 0);
		*ino = s.st_ino;
		close(fd);
	}
	return r;
}

/* With the listings of usr/bin and etc/alt kept, every walk reports the
 * same steps and ends where it did without them, with and without
 * HP_RES_NO_FD, and those that pass a listed symlink take it from there;
 * a walk that needs a descriptor where it ends gets one. */
static void test_listing_same_walks(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	keep(f, m, "usr/bin");
	keep(f, m, "etc/alt");
	int taken = 0;
	static const unsigned flagsets[] = {0, HP_RES_NO_FD, HP_RES_NOFOLLOW,
	                                    HP_RES_NOFOLLOW | HP_RES_NO_FD};
	for (size_t k = 0; k < sizeof flagsets / sizeof flagsets[0]; k++)
		for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
			ltrace plain, memo;
			ino_t i1, i2;
			hp_tri r1 = walk_listed(f, paths[i], flagsets[k], NULL, &plain, &i1);
			hp_tri r2 = walk_listed(f, paths[i], flagsets[k], m, &memo, &i2);
			if (strcmp(plain.t.buf, memo.t.buf) != 0)
				print_error("%s (flags %u):\n  plain %s\n  memo  %s\n", paths[i],
				            flagsets[k], plain.t.buf, memo.t.buf);
			assert_string_equal(plain.t.buf, memo.t.buf);
			assert_int_equal(r1, r2);
			assert_true(i1 == i2);
			assert_false(memo.t.bad_fd);
			assert_false(plain.t.bad_fd);
			taken += memo.taken - plain.taken;
			/* a walk that keeps its end's descriptor has it */
			if (!(flagsets[k] & HP_RES_NO_FD) && r1 == HP_TRUE)
				assert_true(i2 != 0);
		}
	/* bin/same, usr/bin/abs, etc/alt/abs... came through a kept link */
	assert_true(taken > 0);
	hp_os_walkmemo_free(m);
}

/* What a kept listing says stands for the memo's walks: a link's text
 * once read, and an entry's facts, though the tree changed since. */
static void test_listing_first_look_stands(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	keep(f, m, "usr/bin");
	ltrace l;
	ino_t real, other, ino;
	assert_int_equal(walk_listed(f, "usr/bin/same", 0, m, &l, &real), HP_TRUE);
	/* same -> real is now same -> other, and real's mode is changed */
	char p[4096];
	snprintf(p, sizeof p, "%s/usr/bin/same", f->dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("other", p), 0);
	fx_file(f->dir, "usr/bin/other", "y", 0755, 0, 0);
	assert_int_equal(walk_listed(f, "usr/bin/other", 0, NULL, &l, &other), HP_TRUE);
	snprintf(p, sizeof p, "%s/usr/bin/real", f->dir);
	assert_int_equal(chmod(p, 0700), 0);
	/* without the memo the walk sees the change; with it, the text read
	 * first (and "other", which the listing never held, is looked at) */
	assert_int_equal(walk_listed(f, "usr/bin/same", 0, NULL, &l, &ino), HP_TRUE);
	assert_true(ino == other);
	assert_int_equal(walk_listed(f, "usr/bin/same", 0, m, &l, &ino), HP_TRUE);
	assert_true(ino == real);
	/* the facts a walk's end is given are the listing's */
	hp_fileinfo dir;
	int dfd = openat(f->root.fd, "usr/bin", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	hp_err e;
	assert_int_equal(hp_os_fd_info(dfd, &dir, &e), HP_TRUE);
	close(dfd);
	hp_listed *en = hp_os_walkmemo_listed(m, &dir, "real");
	assert_non_null(en);
	assert_int_equal(en->info.mode, 0755);
	assert_null(hp_os_walkmemo_listed(m, &dir, "other"));
	hp_os_walkmemo_free(m);
}

/* A listed directory is never taken from the listing (walks step into it
 * on a descriptor, which record() checks), nor an entry without facts; a listing is refused past
 * the bounds and for a directory with no mount id, and stays its
 * caller's. */
static void test_listing_kept_and_refused(void **state)
{
	fx *f = *state;
	hp_walkmemo *m = hp_os_walkmemo_new();
	hp_fileinfo dir;
	size_t n;
	hp_listed *v = read_listing(f, "usr", &dir, &n);
	assert_true(hp_os_walkmemo_keep_listing(m, &dir, v, n));
	hp_listed *sub = hp_os_walkmemo_listed(m, &dir, "bin");
	assert_non_null(sub);
	assert_int_equal(sub->info.type, HP_FT_DIR);
	ltrace l;
	ino_t ino;
	assert_int_equal(walk_listed(f, "usr/bin/real", HP_RES_NO_FD, m, &l, &ino), HP_TRUE);
	assert_false(l.t.bad_fd);
	hp_fileinfo nomnt = dir;
	nomnt.has_mnt_id = 0;
	assert_null(hp_os_walkmemo_listed(m, &nomnt, "lib"));
	hp_listed *w = read_listing(f, "usr/bin", &dir, &n);
	hp_fileinfo bin = dir;
	for (size_t i = 0; i < n; i++)
		w[i].have = strcmp(w[i].name, "real") != 0;
	nomnt = dir;
	nomnt.has_mnt_id = 0;
	assert_false(hp_os_walkmemo_keep_listing(m, &nomnt, w, n));
	assert_true(hp_os_walkmemo_keep_listing(m, &bin, w, n));
	assert_null(hp_os_walkmemo_listed(m, &bin, "real"));
	assert_non_null(hp_os_walkmemo_listed(m, &bin, "same"));
	/* the count of listings is bounded */
	size_t kept = 2;
	while (hp_os_walkmemo_keep_listing(m, &bin, NULL, 0))
		kept++;
	assert_int_equal(kept, HP_WALKMEMO_LISTINGS);
	hp_os_walkmemo_free(m);
	/* and so is the count of entries in all */
	m = hp_os_walkmemo_new();
	hp_listed one = {.name = NULL};
	assert_false(hp_os_walkmemo_keep_listing(m, &bin, &one, HP_WALKMEMO_LISTED + 1));
	assert_true(hp_os_walkmemo_keep_listing(m, &bin, NULL, 0));
	hp_os_walkmemo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_same_walks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_keeps_directories, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bounded_by_fd_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_listing_same_walks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_listing_first_look_stands, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_listing_kept_and_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
