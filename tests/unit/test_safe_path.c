/* test_safe_path.c: resolution inside a root and beneath a directory
 * (openat2 and the walker must agree), where a directory really is, lstat
 * facts, and the bounded reader, on real fixture trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/bounded_read.h"
#include "fixture.h"
#include "os/safe_path.h"

typedef struct {
	char *dir;
	hp_root root[2]; /* [0] openat2, [1] the walker */
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	const char *d = f->dir;
	fx_dir(d, "etc", 0755, 0, 0);
	fx_file(d, "etc/secret", "image secret\n", 0640, 0, 42);
	fx_file(d, "etc/passwd", "root:x:0:0::/root:/bin/sh\n", 0644, 0, 0);
	fx_dir(d, "a", 0755, 0, 0);
	fx_dir(d, "a/b", 0755, 0, 0);
	fx_file(d, "a/b/c", "c\n", 04755, 0, 0);
	fx_link(d, "abs", "/etc/secret");
	fx_link(d, "up", "../../../../..");
	fx_link(d, "a/rel", "../etc");
	fx_link(d, "loop1", "loop2");
	fx_link(d, "loop2", "loop1");
	fx_link(d, "dangling", "/nowhere");
	fx_fifo(d, "etc/fifo", 0644);
	fx_dir(d, "home", 0755, 0, 0);
	fx_dir(d, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_file(d, "home/agent/mine", "x", 0644, FX_AGENT, FX_AGENT);
	fx_file(d, "home/agent/roots", "x", 0644, 0, 0);
	fx_link(d, "home/agent/tosecret", "/etc/secret");
	fx_dir(d, "locked", 0700, 0, 0);
	fx_file(d, "locked/f", "x", 0644, 0, 0);
	for (int i = 0; i < 2; i++) {
		hp_err e;
		assert_int_equal(hp_os_root_open(&f->root[i], d, i ? HP_ROOT_WALK : 0, &e), HP_TRUE);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	hp_os_root_close(&f->root[0]);
	hp_os_root_close(&f->root[1]);
	fx_rmtree(f->dir);
	free(f);
	return 0;
}

static ino_t ino_of(const char *dir, const char *rel)
{
	char *p = fx_path(dir, rel);
	struct stat st;
	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_ino;
}

static hp_tri info(fx *f, int i, const char *path, unsigned fl, hp_fileinfo *fi, hp_err *e)
{
	memset(e, 0, sizeof *e);
	return hp_os_path_info(&f->root[i], path, fl, fi, e);
}

static void test_plain_and_modes(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "/a/b/c", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.type, HP_FT_FILE);
		assert_int_equal(fi.mode, 04755);
		assert_int_equal(fi.uid, 0);
		assert_int_equal(fi.nlink, 1);
		assert_int_equal(fi.ino, ino_of(f->dir, "a/b/c"));
		assert_int_equal(info(f, i, "etc/secret", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.gid, 42);
		assert_int_equal(fi.mode, 0640);
		assert_int_equal(info(f, i, "/", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.type, HP_FT_DIR);
		assert_int_equal(fi.ino, f->root[i].ino);
		assert_int_equal(info(f, i, "etc/fifo", 0, &fi, &e), HP_TRUE);
		assert_string_equal(hp_os_ftype_name(fi.type), "fifo");
	}
}

/* A stream through the resolved descriptor lists that very directory, and
 * the descriptor is closed whether or not one could be opened. */
static void test_opendir_path(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_err e;
		int fd = -1;
		assert_int_equal(hp_os_resolve(&f->root[i], "/home", 0, &fd, &e), HP_TRUE);
		DIR *d = hp_os_opendir_path(fd);
		assert_non_null(d);
		assert_int_equal(fcntl(fd, F_GETFD), -1);
		int agent = 0, others = 0;
		struct dirent *de;
		while ((de = readdir(d)))
			if (strcmp(de->d_name, "agent") == 0)
				agent++;
			else if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
				others++;
		closedir(d);
		assert_int_equal(agent, 1);
		assert_int_equal(others, 0);
		assert_int_equal(hp_os_resolve(&f->root[i], "/etc/secret", 0, &fd, &e), HP_TRUE);
		errno = 0;
		assert_null(hp_os_opendir_path(fd));
		assert_int_equal(errno, ENOTDIR);
		assert_int_equal(fcntl(fd, F_GETFD), -1);
	}
}

static void test_absolute_symlink_stays_in_root(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "abs", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc/secret"));
		assert_int_equal(info(f, i, "abs", HP_RES_NOFOLLOW, &fi, &e), HP_TRUE);
		assert_string_equal(hp_os_ftype_name(fi.type), "symlink");
		assert_int_equal(info(f, i, "home/agent/tosecret", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc/secret"));
		/* relative through a symlink with .. */
		assert_int_equal(info(f, i, "a/rel/passwd", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc/passwd"));
	}
}

/* A trailing slash names a directory, with openat2 and with the walker
 * alike: a symlink in the last place is followed even when not following
 * was asked, and a file there does not resolve. */
static void test_trailing_slash(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "up", HP_RES_NOFOLLOW, &fi, &e), HP_TRUE);
		assert_string_equal(hp_os_ftype_name(fi.type), "symlink");
		assert_int_equal(info(f, i, "up/", HP_RES_NOFOLLOW, &fi, &e), HP_TRUE);
		assert_string_equal(hp_os_ftype_name(fi.type), "dir");
		assert_int_equal(fi.ino, f->root[i].ino);
		assert_int_equal(info(f, i, "a/rel/", HP_RES_NOFOLLOW, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc"));
		assert_int_equal(info(f, i, "etc/secret/", 0, &fi, &e), HP_FALSE);
		assert_int_equal(info(f, i, "abs/", 0, &fi, &e), HP_FALSE);
	}
}

static void test_dotdot_never_leaves_root(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "../../../../etc/passwd", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc/passwd"));
		assert_int_equal(info(f, i, "up/etc/secret", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, ino_of(f->dir, "etc/secret"));
		assert_int_equal(info(f, i, "a/b/../../..", 0, &fi, &e), HP_TRUE);
		assert_int_equal(fi.ino, f->root[i].ino);
		/* the host's own files are never reached */
		assert_int_equal(info(f, i, "up/tmp", 0, &fi, &e), HP_FALSE);
	}
}

/* beneath the directory a: what stays below it resolves, whatever links
 * it follows; what leaves it (an absolute path or link, a '..' above it,
 * a relative link through one that leaves) is unknown, never taken back
 * to a as the root is, by openat2 and the walker alike */
static void test_beneath(void **state)
{
	fx *f = *state;
	fx_link(f->dir, "a/b/out", "../../etc");    /* reads as a relative link, leaves a */
	fx_link(f->dir, "a/b/via", "out/passwd");   /* no '..', through the one above */
	fx_link(f->dir, "a/b/abs", "/a/b/c");       /* absolute, to a file below a */
	fx_link(f->dir, "a/b/back", "../b/./c");    /* '..' that stays below a */
	fx_link(f->dir, "a/b/chain", "back");       /* a link to the one above */
	char *a = fx_path(f->dir, "a");
	int afd = open(a, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(afd >= 0);
	free(a);
	for (int i = 0; i < 2; i++) {
		hp_root r;
		hp_err e;
		assert_int_equal(hp_os_root_at(&r, afd, f->root[i].flags, &e), HP_TRUE);
		static const struct {
			const char *path;
			hp_tri want;
		} cases[] = {
		    {"b/c", HP_TRUE},         {"b/back", HP_TRUE},   {"b/chain", HP_TRUE},
		    {"b/../b/c", HP_TRUE},    {"b/missing", HP_FALSE}, {"b/out", HP_UNKNOWN},
		    {"b/via", HP_UNKNOWN},    {"b/abs", HP_UNKNOWN}, {"/b/c", HP_UNKNOWN},
		    {"../a/b/c", HP_UNKNOWN}, {"b/../../a/b/c", HP_UNKNOWN},
		};
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
			int fd;
			e.msg[0] = '\0';
			hp_tri t = hp_os_resolve(&r, cases[k].path, HP_RES_BENEATH, &fd, &e);
			if (t != cases[k].want)
				print_error("%s (%s): %d, want %d (%s)\n", cases[k].path,
				            i ? "walker" : "openat2", t, cases[k].want, e.msg);
			assert_int_equal(t, cases[k].want);
			if (fd >= 0)
				close(fd);
		}
		int fd;
		assert_int_equal(hp_os_resolve(&r, "b/via", HP_RES_BENEATH, &fd, &e), HP_UNKNOWN);
		assert_string_equal(e.msg, "b/via: resolution would leave the directory it must "
		                           "stay beneath, or cross a mount point");
		hp_os_root_close(&r);
	}
	close(afd);
}

/* where a directory is, by its parents, whatever path led to it: a/b by
 * a link from the root's top (a/rel leads to etc, not below a) */
static void test_dir_within(void **state)
{
	fx *f = *state;
	fx_link(f->dir, "tob", "a/b");
	for (int i = 0; i < 2; i++) {
		hp_fileinfo a, etc;
		hp_err e;
		assert_int_equal(hp_os_path_info(&f->root[i], "/a", 0, &a, &e), HP_TRUE);
		assert_int_equal(hp_os_path_info(&f->root[i], "/etc", 0, &etc, &e), HP_TRUE);
		static const struct {
			const char *path;
			hp_tri in_a, in_etc;
		} cases[] = {
		    {"/tob", HP_TRUE, HP_FALSE},
		    {"/a", HP_TRUE, HP_FALSE},
		    {"/a/b/../rel", HP_FALSE, HP_TRUE},
		    {"/", HP_FALSE, HP_FALSE},
		};
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
			int fd;
			assert_int_equal(hp_os_resolve(&f->root[i], cases[k].path, 0, &fd, &e), HP_TRUE);
			assert_int_equal(hp_os_dir_within(&f->root[i], fd, &a, &e), cases[k].in_a);
			assert_int_equal(hp_os_dir_within(&f->root[i], fd, &etc, &e), cases[k].in_etc);
			close(fd);
		}
	}
}

static void test_missing_and_loops(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "etc/nothing", 0, &fi, &e), HP_FALSE);
		assert_string_equal(e.msg, "etc/nothing: no such file or directory");
		assert_int_equal(info(f, i, "etc/passwd/x", 0, &fi, &e), HP_FALSE);
		assert_int_equal(info(f, i, "dangling", 0, &fi, &e), HP_FALSE);
		assert_int_equal(info(f, i, "dangling", HP_RES_NOFOLLOW, &fi, &e), HP_TRUE);
		assert_int_equal(info(f, i, "loop1", 0, &fi, &e), HP_UNKNOWN);
		assert_string_equal(e.msg,
		                    "loop1: too many levels of symbolic links, or a magic link");
		assert_int_equal(info(f, i, "", 0, &fi, &e), HP_UNKNOWN);
		assert_string_equal(e.msg, "empty path");
	}
}

static void test_long_path_is_unknown(void **state)
{
	fx *f = *state;
	char *p = malloc(5000);
	memset(p, 'a', 4999);
	p[4999] = '\0';
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, p, 0, &fi, &e), HP_UNKNOWN);
		assert_string_equal(e.msg, "path longer than 4095 bytes");
	}
	free(p);
}

/* A chain of 41 symlinks is one too many for the walker, as for the kernel. */
static void test_symlink_chain_bound(void **state)
{
	fx *f = *state;
	fx_dir(f->dir, "chain", 0755, 0, 0);
	char rel[64], tgt[64];
	for (int k = 0; k < 41; k++) {
		snprintf(rel, sizeof rel, "chain/l%d", k);
		snprintf(tgt, sizeof tgt, "l%d", k + 1);
		fx_link(f->dir, rel, tgt);
	}
	fx_file(f->dir, "chain/l41", "end", 0644, 0, 0);
	for (int i = 0; i < 2; i++) {
		hp_fileinfo fi;
		hp_err e;
		assert_int_equal(info(f, i, "chain/l1", 0, &fi, &e), HP_TRUE);
		assert_int_equal(info(f, i, "chain/l0", 0, &fi, &e), HP_UNKNOWN);
	}
}

static void test_safe_mode_refuses_owner_change(void **state)
{
	fx *f = *state;
	hp_fileinfo fi;
	hp_err e;
	assert_int_equal(hp_os_path_info(&f->root[0], "home/agent/mine", HP_RES_SAFE, &fi, &e),
	                 HP_TRUE);
	assert_int_equal(hp_os_path_info(&f->root[0], "home/agent/roots", HP_RES_SAFE, &fi, &e),
	                 HP_UNKNOWN);
	char want[256];
	snprintf(want, sizeof want,
	         "home/agent/roots: unsafe ownership step at 'roots' (owned by uid 0, in a "
	         "directory owned by uid %d)",
	         FX_AGENT);
	assert_string_equal(e.msg, want);
	/* a symlink planted by the agent that leads to a root file: each step
	 * is safe (the agent's link in the agent's dir, then root's tree) */
	char *l = fx_path(f->dir, "home/agent/tosecret");
	assert_int_equal(lchown(l, FX_AGENT, FX_AGENT), 0);
	free(l);
	assert_int_equal(hp_os_path_info(&f->root[0], "home/agent/tosecret", HP_RES_SAFE, &fi, &e),
	                 HP_TRUE);
}

typedef struct {
	char names[32][64];
	int n;
} seen;

static void record(void *ctx, const hp_step *s)
{
	seen *v = ctx;
	if (v->n < 32)
		snprintf(v->names[v->n++], 64, "%s", s->name);
}

static void test_walk_reports_every_step(void **state)
{
	fx *f = *state;
	seen v = {.n = 0};
	int fd;
	hp_err e;
	assert_int_equal(hp_os_resolve_walk(&f->root[0], "a/rel/../a/b/c", 0, record, &v, &fd, &e),
	                 HP_TRUE);
	close(fd);
	const char *want[] = {"a", "rel", "etc", "a", "b", "c"};
	assert_int_equal(v.n, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(v.names[i], want[i]);
}

static void test_magic_links_refused(void **state)
{
	(void)state;
	hp_root live;
	hp_err e;
	assert_int_equal(hp_os_root_open(&live, "/", 0, &e), HP_TRUE);
	int fd;
	assert_int_equal(hp_os_resolve(&live, "/proc/self/root/etc", 0, &fd, &e), HP_UNKNOWN);
	assert_string_equal(
	    e.msg, "/proc/self/root/etc: too many levels of symbolic links, or a magic link");
	hp_os_root_close(&live);
}

/* Offline, a mount inside the image is not crossed (RESOLVE_NO_XDEV). In a
 * private mount namespace of a child, so nothing is left mounted. */
static void test_offline_does_not_cross_mounts(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_dir(f->dir, "mnt", 0755, 0, 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *m = fx_path(f->dir, "mnt");
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("tmpfs", m, "tmpfs", 0, "size=64k") < 0)
			_exit(3);
		int rc = 0;
		for (int i = 0; i < 2; i++) {
			hp_root r;
			hp_err e;
			hp_fileinfo fi;
			unsigned fl = HP_ROOT_OFFLINE | (i ? HP_ROOT_WALK : 0);
			if (hp_os_root_open(&r, f->dir, fl, &e) != HP_TRUE)
				_exit(4);
			if (hp_os_path_info(&r, "mnt", 0, &fi, &e) != HP_UNKNOWN ||
			    strcmp(e.msg, "mnt: resolution would cross a mount point or leave the "
			                  "root") != 0)
				rc = 5 + i;
			hp_os_root_close(&r);
			if (hp_os_root_open(&r, f->dir, i ? HP_ROOT_WALK : 0, &e) != HP_TRUE ||
			    hp_os_path_info(&r, "mnt", 0, &fi, &e) != HP_TRUE)
				rc = 7 + i;
			hp_os_root_close(&r);
		}
		_exit(rc);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* --- the bounded reader --- */

static void test_read_regular(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		char *buf;
		size_t len;
		hp_err e;
		assert_int_equal(hp_os_read_file_in_root(&f->root[i], "abs", 100, &buf, &len, &e),
		                 HP_TRUE);
		assert_int_equal(len, 13);
		assert_string_equal(buf, "image secret\n");
		free(buf);
		assert_int_equal(
		    hp_os_read_file_in_root(&f->root[i], "etc/secret", 13, &buf, &len, &e), HP_TRUE);
		free(buf);
	}
}

static void test_read_refuses_fifo_dir_and_big(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 2; i++) {
		char *buf = (char *)1;
		size_t len;
		hp_err e;
		/* a FIFO nobody writes to: would block forever if it were opened */
		assert_int_equal(hp_os_read_file_in_root(&f->root[i], "etc/fifo", 100, &buf, &len, &e),
		                 HP_UNKNOWN);
		assert_string_equal(e.msg, "etc/fifo: not a regular file (fifo)");
		assert_null(buf);
		assert_int_equal(hp_os_read_file_in_root(&f->root[i], "etc", 100, &buf, &len, &e),
		                 HP_UNKNOWN);
		assert_string_equal(e.msg, "etc: not a regular file (dir)");
		assert_int_equal(
		    hp_os_read_file_in_root(&f->root[i], "etc/secret", 12, &buf, &len, &e),
		    HP_UNKNOWN);
		assert_string_equal(e.msg, "etc/secret: larger than the 12-byte cap");
		assert_int_equal(hp_os_read_file_in_root(&f->root[i], "etc/none", 12, &buf, &len, &e),
		                 HP_FALSE);
	}
}

/* /dev/zero never ends: refused before it is opened. */
static void test_read_refuses_device(void **state)
{
	(void)state;
	hp_root live;
	hp_err e;
	assert_int_equal(hp_os_root_open(&live, "/", 0, &e), HP_TRUE);
	char *buf;
	size_t len;
	assert_int_equal(hp_os_read_file_in_root(&live, "/dev/zero", 1 << 20, &buf, &len, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/dev/zero: not a regular file (char)");
	hp_os_root_close(&live);
}

static int read_locked(void *arg)
{
	fx *f = arg;
	char *buf;
	size_t len;
	hp_err e;
	if (hp_os_read_file_in_root(&f->root[0], "locked/f", 100, &buf, &len, &e) != HP_UNKNOWN)
		return 1;
	if (strcmp(e.msg, "locked/f: a directory on the way refuses search") != 0)
		return 2;
	if (hp_os_read_file_in_root(&f->root[1], "locked/f", 100, &buf, &len, &e) != HP_UNKNOWN)
		return 3;
	return 0;
}

static void test_permission_denied_is_unknown(void **state)
{
	FX_NEED_ROOT();
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, read_locked, *state), 0);
}

/* openat2 refused by a seccomp filter (ENOSYS, EPERM): the walker answers,
 * the same answers. */
static int answers_without_openat2(fx *f)
{
	hp_fileinfo fi;
	hp_err e;
	if (info(f, 0, "abs", 0, &fi, &e) != HP_TRUE || fi.ino != ino_of(f->dir, "etc/secret"))
		return 1;
	if (info(f, 0, "up/etc/passwd", 0, &fi, &e) != HP_TRUE)
		return 2;
	if (info(f, 0, "loop1", 0, &fi, &e) != HP_UNKNOWN)
		return 3;
	if (info(f, 0, "etc/nothing", 0, &fi, &e) != HP_FALSE)
		return 4;
	char *buf;
	size_t len;
	if (hp_os_read_file_in_root(&f->root[0], "etc/secret", 100, &buf, &len, &e) != HP_TRUE)
		return 5;
	free(buf);
	return 0;
}

static void test_openat2_filtered(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	const int errs[] = {ENOSYS, EPERM};
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			const int nr[] = {SYS_openat2};
			if (fx_seccomp_fail(nr, 1, errs[i]) < 0)
				_exit(50);
			_exit(answers_without_openat2(f));
		}
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_int_equal(st, 0);
	}
}

/* /proc replaced by something that is not procfs: the reader does not trust
 * it, and reads through openat2 instead. */
static void test_read_without_procfs(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	pid_t pid = fork();
	if (pid == 0) {
		if (fx_hide_procfs() < 0)
			_exit(60);
		char *buf;
		size_t len;
		hp_err e;
		if (hp_os_read_file_in_root(&f->root[0], "etc/secret", 100, &buf, &len, &e) != HP_TRUE)
			_exit(61);
		free(buf);
		/* the walker has no openat2 to fall back on: unknown, with the reason */
		if (hp_os_read_file_in_root(&f->root[1], "etc/secret", 100, &buf, &len, &e) !=
		        HP_UNKNOWN ||
		    strcmp(e.msg, "etc/secret: cannot reopen for reading without procfs") != 0)
			_exit(62);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(st, 0);
}

/* One file on one mount: the device, the inode and the mount id all
 * agree, and both know their mount id. */
static void test_same_file_on_mount(void **state)
{
	(void)state;
	hp_fileinfo a = {.dev = 1, .ino = 2, .mnt_id = 3, .has_mnt_id = 1};
	hp_fileinfo b = a;
	assert_true(hp_os_same_file_on_mount(&a, &b));
	b.mnt_id = 4; /* the same directory bound elsewhere */
	assert_false(hp_os_same_file_on_mount(&a, &b));
	b = a;
	b.ino = 5;
	assert_false(hp_os_same_file_on_mount(&a, &b));
	b = a;
	b.dev = 6;
	assert_false(hp_os_same_file_on_mount(&a, &b));
	b = a;
	b.has_mnt_id = 0;
	assert_false(hp_os_same_file_on_mount(&a, &b));
	assert_false(hp_os_same_file_on_mount(&b, &a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_plain_and_modes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_absolute_symlink_stays_in_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trailing_slash, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dotdot_never_leaves_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_beneath, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dir_within, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_and_loops, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_long_path_is_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_symlink_chain_bound, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_safe_mode_refuses_owner_change, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_walk_reports_every_step, setup, teardown),
	    cmocka_unit_test(test_magic_links_refused),
	    cmocka_unit_test_setup_teardown(test_offline_does_not_cross_mounts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_regular, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_refuses_fifo_dir_and_big, setup, teardown),
	    cmocka_unit_test(test_read_refuses_device),
	    cmocka_unit_test_setup_teardown(test_permission_denied_is_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_openat2_filtered, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_opendir_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_without_procfs, setup, teardown),
	    cmocka_unit_test(test_same_file_on_mount),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
