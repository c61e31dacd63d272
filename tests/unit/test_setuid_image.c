/* test_setuid_image.c: setuid and setgid executables (to anyone, with the
 * ids they set) and file-capability executables on a whole fixture tree (deep directories, symlinks not
 * followed, the bounds: entries, time and depth, each unknown past it), a
 * mount inside an offline image, the mount table's nosuid and kernel filesystems,
 * a mount walked and one skipped in a private mount namespace, and a
 * mount of a single file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "os/setuid_image.h"

static char *dir;
static hp_root root;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fx_dir(dir, "usr", 0755, 0, 0);
	fx_dir(dir, "usr/bin", 0755, 0, 0);
	fx_dir(dir, "usr/local", 0755, 0, 0);
	fx_dir(dir, "usr/local/lib", 0755, 0, 0);
	fx_dir(dir, "usr/local/lib/a", 0755, 0, 0);
	fx_dir(dir, "usr/local/lib/a/b", 0755, 0, 0);
	fx_dir(dir, "opt", 0755, 0, 0);
	fx_dir(dir, "home", 0755, 0, 0);
	fx_dir(dir, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_file(dir, "usr/bin/su", "x", 04755, 0, 0);
	fx_file(dir, "usr/bin/ls", "x", 0755, 0, 0);
	fx_file(dir, "usr/bin/crontab", "x", 02755, 0, 42); /* setgid, not root's */
	fx_file(dir, "usr/local/lib/a/b/rootsh", "x", 04755, 0, 0);
	fx_file(dir, "opt/sgid", "x", 02711, 0, 0);
	fx_file(dir, "opt/noexec", "x", 04644, 0, 0);
	fx_file(dir, "home/agent/mine", "x", 04755, FX_AGENT, 0); /* setuid to the agent */
	fx_file(dir, "home/agent/capped", "x", 0755, 0, 0);
	fx_link(dir, "usr/bin/to-su", "/usr/bin/su");
	char *cb = fx_path(dir, "home/agent/capped");
	cap_t c = cap_from_text("cap_setuid+ep");
	int r = cap_set_file(cb, c);
	cap_free(c);
	free(cb);
	if (r != 0)
		return 1;
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

static void test_whole_tree(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_setuid_budget b;
	memset(&b, 0, sizeof b);
	hp_suid_list l;
	hp_err e;
	assert_int_equal(hp_os_setuid_image(&root, NULL, &b, &l, &e), HP_TRUE);
	/* every set-id executable, whoever it sets (crontab's group 42, the
	 * agent's own mine), with the ids it sets; noexec runs as no one */
	const char *want[] = {"/home/agent/capped", "/home/agent/mine", "/opt/sgid",
	                      "/usr/bin/crontab", "/usr/bin/su", "/usr/local/lib/a/b/rootsh"};
	const unsigned why[] = {HP_FILE_CAPS, HP_SUID, HP_SGID | HP_SGID_ROOT, HP_SGID,
	                        HP_SUID | HP_SUID_ROOT, HP_SUID | HP_SUID_ROOT};
	const unsigned uid[] = {0, FX_AGENT, 0, 0, 0, 0};
	const unsigned gid[] = {0, 0, 0, 42, 0, 0};
	assert_int_equal(l.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(l.v[i].name, want[i]);
		assert_int_equal(l.v[i].why, why[i]);
		assert_int_equal(l.v[i].uid, uid[i]);
		assert_int_equal(l.v[i].gid, gid[i]);
	}
	assert_int_equal(l.v[4].mode, 04755);
	/* every entry once: 9 directories and 10 files and links below the root */
	assert_int_equal(b.entries, 18);
	assert_int_equal(b.trees, 1);
	hp_os_suid_list_free(&l);
}

/* What a mode makes a file when run: set-id to anyone, root's marked. */
static void test_setid_bits(void **state)
{
	(void)state;
	assert_int_equal(hp_os_setid_bits(0755, 0, 0), 0);
	assert_int_equal(hp_os_setid_bits(04755, 0, 5), HP_SUID | HP_SUID_ROOT);
	assert_int_equal(hp_os_setid_bits(04755, 999, 0), HP_SUID);
	assert_int_equal(hp_os_setid_bits(02755, 999, 0), HP_SGID | HP_SGID_ROOT);
	assert_int_equal(hp_os_setid_bits(02755, 0, 999), HP_SGID);
	assert_int_equal(hp_os_setid_bits(06755, 2, 999), HP_SUID | HP_SGID);
	assert_int_equal(hp_os_setid_bits(06755, 0, 0),
	                 HP_SUID | HP_SUID_ROOT | HP_SGID | HP_SGID_ROOT);
}

static void test_bounds(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_setuid_budget b;
	memset(&b, 0, sizeof b);
	b.max_entries = 5;
	hp_suid_list l;
	hp_err e;
	assert_int_equal(hp_os_setuid_image(&root, NULL, &b, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "more than 5 entries on the filesystems that honour setuid");
	assert_int_equal(l.n, 0);
	/* a subtree alone, and a tree that does not exist */
	memset(&b, 0, sizeof b);
	assert_int_equal(hp_os_setuid_tree(&root, "/usr/local", 0, &b, 0, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].name, "/usr/local/lib/a/b/rootsh");
	hp_os_suid_list_free(&l);
	assert_int_equal(hp_os_setuid_tree(&root, "/nope", 0, &b, 0, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 0);
	assert_int_equal(hp_os_setuid_tree(&root, "rel", 0, &b, 0, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "rel: not an absolute path");
	/* 18 entries below the root: 18 allowed is enough, 17 is not */
	memset(&b, 0, sizeof b);
	b.max_entries = 18;
	assert_int_equal(hp_os_setuid_image(&root, NULL, &b, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 6);
	hp_os_suid_list_free(&l);
	memset(&b, 0, sizeof b);
	b.max_entries = 17;
	assert_int_equal(hp_os_setuid_image(&root, NULL, &b, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "more than 17 entries on the filesystems that honour setuid");
}

/* A walk past its deadline (the clock is read every 1024 entries) and a
 * setuid shell deeper than HP_SETUID_IMAGE_MAX_DEPTH are unknown, never
 * "none found". */
static void test_time_and_depth(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *d = fx_tmpdir();
	fx_dir(d, "many", 0755, 0, 0);
	for (int i = 0; i < 1100; i++) {
		char n[32];
		snprintf(n, sizeof n, "many/f%04d", i);
		fx_file(d, n, "", 0644, 0, 0);
	}
	char rel[2 * (HP_SETUID_IMAGE_MAX_DEPTH + 2) + 16] = "deep";
	fx_dir(d, rel, 0755, 0, 0);
	for (int i = 0; i < HP_SETUID_IMAGE_MAX_DEPTH; i++) {
		strcat(rel, "/d");
		fx_dir(d, rel, 0755, 0, 0);
	}
	strcat(rel, "/rootsh");
	fx_file(d, rel, "x", 04755, 0, 0);
	hp_root r;
	hp_err e;
	assert_int_equal(hp_os_root_open(&r, d, HP_ROOT_OFFLINE, &e), HP_TRUE);
	hp_setuid_budget b;
	memset(&b, 0, sizeof b);
	hp_suid_list l = {NULL, 0};
	/* a deadline long past */
	assert_int_equal(hp_os_setuid_tree(&r, "/many", 0, &b, 1, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "the walk took longer than its 20000 ms, at /many");
	hp_os_suid_list_free(&l);
	memset(&b, 0, sizeof b);
	assert_int_equal(hp_os_setuid_tree(&r, "/many", 0, &b, 0, &l, &e), HP_TRUE);
	assert_int_equal(b.entries, 1100);
	hp_os_suid_list_free(&l);
	memset(&b, 0, sizeof b);
	assert_int_equal(hp_os_setuid_image(&r, NULL, &b, &l, &e), HP_UNKNOWN);
	char want[1024];
	snprintf(want, sizeof want, "more than %d directories deep: /%.*s",
	         (int)HP_SETUID_IMAGE_MAX_DEPTH, (int)(strlen(rel) - strlen("/rootsh")), rel);
	/* the message holds 511 bytes: the reason and the path's start */
	assert_int_equal(strncmp(e.msg, want, sizeof e.msg - 1), 0);
	assert_int_equal(l.n, 0);
	hp_os_root_close(&r);
	fx_rmtree(d);
}

/* Offline, a filesystem mounted inside the image is not walked across (it
 * is not the image's): the answer is unknown. In a private mount
 * namespace. */
static int offline_mount(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 10;
	char *o = fx_path(dir, "opt");
	if (mount("t1", o, "tmpfs", 0, "mode=0755") != 0)
		return 11;
	hp_root r;
	hp_err e;
	if (hp_os_root_open(&r, dir, HP_ROOT_OFFLINE, &e) != HP_TRUE)
		return 12;
	hp_setuid_budget b;
	memset(&b, 0, sizeof b);
	hp_suid_list l;
	hp_tri t = hp_os_setuid_image(&r, NULL, &b, &l, &e);
	if (t != HP_UNKNOWN)
		return 13;
	if (strcmp(e.msg, "/opt: a mount inside the image") != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 14;
	}
	return 0;
}

static void test_offline_mount(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(offline_mount(NULL));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static hp_mount mk(const char *mp, const char *opts, const char *type)
{
	hp_mount m;
	memset(&m, 0, sizeof m);
	m.mount_point = (char *)mp;
	m.options = (char *)opts;
	m.fstype = (char *)type;
	return m;
}

static void test_mount_options(void **state)
{
	(void)state;
	hp_mount a = mk("/", "rw,nosuid,relatime", "ext4");
	hp_mount b = mk("/", "rw,relatime", "ext4");
	hp_mount c = mk("/", "nosuidx,rw", "ext4");
	hp_mount d = mk("/", "nosuid", "ext4");
	assert_true(hp_os_mount_nosuid(&a));
	assert_false(hp_os_mount_nosuid(&b));
	assert_false(hp_os_mount_nosuid(&c));
	assert_true(hp_os_mount_nosuid(&d));
	assert_true(hp_os_setuid_fs_skipped("proc"));
	assert_true(hp_os_setuid_fs_skipped("cgroup2"));
	assert_false(hp_os_setuid_fs_skipped("tmpfs"));
	assert_false(hp_os_setuid_fs_skipped("overlay"));
	assert_false(hp_os_setuid_fs_skipped("ext4"));
}

/* In a private mount namespace: / nosuid, a tmpfs without nosuid holding a
 * setuid shell, another tmpfs with nosuid holding one too, and a setuid
 * file bound on itself without nosuid. Only the first and the last count. */
static int live_mounts(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 10;
	char *a = fx_path(dir, "opt"), *h = fx_path(dir, "home"), *su = fx_path(dir, "usr/bin/su");
	char *cron = fx_path(dir, "usr/bin/crontab");
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_NOSUID, NULL) != 0)
		return 11;
	if (mount("t1", a, "tmpfs", 0, "mode=0755") != 0 ||
	    mount("t2", h, "tmpfs", MS_NOSUID, "mode=0755") != 0)
		return 12;
	fx_file(dir, "opt/rootsh", "x", 04755, 0, 0);
	fx_file(dir, "home/rootsh", "x", 04755, 0, 0);
	if (mount(su, su, NULL, MS_BIND, NULL) != 0 ||
	    mount(NULL, su, NULL, MS_REMOUNT | MS_BIND, NULL) != 0)
		return 13;
	/* a mount of one file, setgid to a group not root's: found with it */
	if (mount(cron, cron, NULL, MS_BIND, NULL) != 0 ||
	    mount(NULL, cron, NULL, MS_REMOUNT | MS_BIND, NULL) != 0)
		return 17;
	hp_root slash;
	hp_err e;
	if (hp_os_root_open(&slash, "/", 0, &e) != HP_TRUE)
		return 14;
	hp_mounts m;
	if (hp_os_mounts_read(&m, &e) != HP_TRUE)
		return 15;
	hp_setuid_budget b;
	memset(&b, 0, sizeof b);
	hp_suid_list l;
	hp_tri t = hp_os_setuid_image(&slash, &m, &b, &l, &e);
	hp_os_mounts_free(&m);
	if (t != HP_TRUE) {
		fprintf(stderr, "%s\n", e.msg);
		return 16;
	}
	char *want_opt = hp_xasprintf("%s/rootsh", a);
	int found_opt = 0, found_home = 0, found_su = 0, found_cron = 0;
	for (size_t i = 0; i < l.n; i++) {
		found_cron += strcmp(l.v[i].name, cron) == 0 && l.v[i].why == HP_SGID &&
		              l.v[i].gid == 42 && l.v[i].uid == 0;
		found_opt += strcmp(l.v[i].name, want_opt) == 0;
		found_home += strstr(l.v[i].name, "/home/rootsh") != NULL;
		found_su += strcmp(l.v[i].name, su) == 0;
	}
	hp_os_suid_list_free(&l);
	if (found_opt != 1)
		return 20;
	if (found_home != 0)
		return 21;
	if (found_su != 1)
		return 22;
	if (found_cron != 1)
		return 23;
	return 0;
}

static void test_live_mounts(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(live_mounts(NULL));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_whole_tree),
	    cmocka_unit_test(test_setid_bits),
	    cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_time_and_depth),
	    cmocka_unit_test(test_offline_mount),
	    cmocka_unit_test(test_mount_options),
	    cmocka_unit_test(test_live_mounts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
