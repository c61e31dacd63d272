/* test_mounts.c: the mountinfo parser (escapes, every malformed shape), and
 * mount_point / read_only / fs_type on real mounts made in a private mount
 * namespace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "os/mounts.h"
#include "os/safe_path.h"

static const char sample[] =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime shared:1 master:2 - ext4 /dev/vda rw\n"
    "40 27 0:40 / /mnt/with\\040space ro,nosuid - tmpfs tmp\\134fs rw,size=64k\n"
    "41 27 0:41 /sub /srv rw - overlay overlay ro,lowerdir=/a\n";

static void test_parse_sample(void **state)
{
	(void)state;
	hp_mounts m;
	hp_err e;
	assert_int_equal(hp_os_mounts_parse(sample, sizeof sample - 1, &m, &e), HP_TRUE);
	assert_int_equal(m.n, 4);
	assert_int_equal(m.v[1].id, 27);
	assert_int_equal(m.v[1].parent, 1);
	assert_int_equal(m.v[1].major, 254);
	assert_string_equal(m.v[1].fstype, "ext4");
	assert_int_equal(m.v[1].read_only, 0);
	assert_string_equal(m.v[2].mount_point, "/mnt/with space");
	assert_string_equal(m.v[2].source, "tmp\\fs");
	assert_int_equal(m.v[2].read_only, 1); /* per-mount ro */
	assert_int_equal(m.v[3].read_only, 1); /* superblock ro */
	assert_string_equal(m.v[3].root, "/sub");
	hp_os_mounts_free(&m);
}

static void expect_bad(const char *text, const char *msg)
{
	hp_mounts m;
	hp_err e;
	assert_int_equal(hp_os_mounts_parse(text, strlen(text), &m, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, msg);
	assert_null(m.v);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_bad("", "mountinfo: no mounts");
	expect_bad("x 1 0:1 / / rw - ext4 a rw\n", "mountinfo line 1: bad mount id");
	expect_bad("1 1 0:1 / / rw - ext4 a rw\n2 1 01 / /a rw - ext4 a rw\n",
	           "mountinfo line 2: bad device number");
	expect_bad("1 1 0:1 / / rw ext4 a rw\n", "mountinfo line 1: no ' - ' separator");
	expect_bad("1 1 0:1 / /\n", "mountinfo line 1: too few fields");
	expect_bad("1 1 0:1 / / rw - ext4 a\n", "mountinfo line 1: too few fields after ' - '");
	expect_bad("1 1 0:1 / / rw - ext4 a rw x\n", "mountinfo line 1: extra fields at the end");
	expect_bad("1 1 0:1 / rel rw - ext4 a rw\n",
	           "mountinfo line 1: mount point is not absolute");
	expect_bad("1 1 0:99999999999 / / rw - ext4 a rw\n", "mountinfo line 1: bad device number");
	expect_bad("99999999999999999999999 1 0:1 / / rw - ext4 a rw\n",
	           "mountinfo line 1: bad mount id");
	const char nul[] = "1 1 0:1 / / rw - ext4 a rw\0\n";
	hp_mounts m;
	hp_err e;
	assert_int_equal(hp_os_mounts_parse(nul, sizeof nul - 1, &m, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "mountinfo line 1: NUL byte");
	char *longline = malloc(70000);
	memset(longline, 'a', 69999);
	longline[69999] = '\0';
	expect_bad(longline, "mountinfo line 1: longer than 65536 bytes");
	free(longline);
}

static void test_live_root_and_proc(void **state)
{
	(void)state;
	hp_mounts m;
	hp_err e;
	assert_int_equal(hp_os_mounts_read(&m, &e), HP_TRUE);
	hp_root r;
	assert_int_equal(hp_os_root_open(&r, "/", 0, &e), HP_TRUE);
	int fd;
	assert_int_equal(hp_os_resolve(&r, "/", 0, &fd, &e), HP_TRUE);
	assert_int_equal(hp_os_mount_point(&m, fd, &e), HP_TRUE);
	close(fd);
	assert_int_equal(hp_os_resolve(&r, "/proc", 0, &fd, &e), HP_TRUE);
	assert_int_equal(hp_os_mount_point(&m, fd, &e), HP_TRUE);
	const char *type;
	assert_int_equal(hp_os_mount_fs_type(&m, fd, &type, &e), HP_TRUE);
	assert_string_equal(type, "proc");
	close(fd);
	assert_int_equal(hp_os_resolve(&r, "/proc/self", 0, &fd, &e), HP_TRUE);
	assert_int_equal(hp_os_mount_point(&m, fd, &e), HP_FALSE);
	close(fd);
	hp_os_root_close(&r);
	hp_os_mounts_free(&m);
}

/* In a private mount namespace: a read-only tmpfs whose mount point has a
 * space in its name, and a bind mount of a directory onto another on the
 * same filesystem (same device: only the mount id tells). */
static int in_namespace(const char *dir)
{
	char *m1 = fx_path(dir, "with space");
	char *b = fx_path(dir, "bind");
	char *src = fx_path(dir, "src");
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", m1, "tmpfs", MS_RDONLY, "size=64k") < 0 ||
	    mount(src, b, NULL, MS_BIND, NULL) < 0)
		return 10;
	hp_mounts m;
	hp_err e;
	if (hp_os_mounts_read(&m, &e) != HP_TRUE)
		return 11;
	hp_root r;
	if (hp_os_root_open(&r, dir, 0, &e) != HP_TRUE)
		return 12;
	int fd;
	const char *type;
	if (hp_os_resolve(&r, "with space", 0, &fd, &e) != HP_TRUE)
		return 13;
	if (hp_os_mount_point(&m, fd, &e) != HP_TRUE)
		return 14;
	if (hp_os_mount_read_only(&m, fd, &e) != HP_TRUE)
		return 15;
	if (hp_os_mount_fs_type(&m, fd, &type, &e) != HP_TRUE || strcmp(type, "tmpfs") != 0)
		return 16;
	const hp_mount *x;
	if (hp_os_mount_of_fd(&m, fd, &x, &e) != HP_TRUE || strcmp(x->mount_point, m1) != 0)
		return 17;
	close(fd);
	if (hp_os_resolve(&r, "bind", 0, &fd, &e) != HP_TRUE)
		return 18;
	if (hp_os_mount_point(&m, fd, &e) != HP_TRUE)
		return 19;
	if (hp_os_mount_read_only(&m, fd, &e) != HP_FALSE)
		return 20;
	close(fd);
	if (hp_os_resolve(&r, "src", 0, &fd, &e) != HP_TRUE)
		return 21;
	if (hp_os_mount_point(&m, fd, &e) != HP_FALSE)
		return 22;
	close(fd);
	hp_os_root_close(&r);
	hp_os_mounts_free(&m);
	return 0;
}

static void test_mounts_in_namespace(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *dir = fx_tmpdir();
	fx_dir(dir, "with space", 0755, 0, 0);
	fx_dir(dir, "bind", 0755, 0, 0);
	fx_dir(dir, "src", 0755, 0, 0);
	pid_t pid = fork();
	if (pid == 0)
		_exit(in_namespace(dir));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	fx_rmtree(dir);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_sample),
	    cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_live_root_and_proc),
	    cmocka_unit_test(test_mounts_in_namespace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
