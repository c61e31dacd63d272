/* test_mount_content.c: whether a filesystem's content is the role's, from
 * mountinfo lines (FUSE's daemon) and from trees that stand in for
 * /sys/dev/block and /dev (a loop device's backing file, a partition's
 * disk, a device-mapper device's devices, a writable block node); then,
 * as the agent, what access, the write shortcut and writable_ancestor
 * answer for root's files on a filesystem whose backing the agent
 * writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fixture.h"
#include "os/access.h"
#include "os/mount_content.h"
#include "os/mounts.h"
#include "os/replace.h"

/* One mountinfo line, parsed: the caller frees the table. */
static const hp_mount *line(hp_mounts *m, const char *text)
{
	hp_err e;
	assert_int_equal(hp_os_mounts_parse(text, strlen(text), m, &e), HP_TRUE);
	assert_int_equal(m->n, 1);
	return &m->v[0];
}

static void fuse_case(const char *text, uid_t uid, hp_tri want, const char *msg)
{
	hp_mounts m;
	const hp_mount *x = line(&m, text);
	hp_err e;
	e.msg[0] = '\0';
	assert_int_equal(hp_os_content_fuse(x, uid, &e), want);
	if (msg)
		assert_non_null(strstr(e.msg, msg));
	/* the whole verdict says the same: no device to look at */
	hp_cred c = {uid, uid, NULL, 0, 0};
	hp_content_env env = {"/nonexistent/sys", "/nonexistent/dev"};
	assert_int_equal(hp_os_content_of_mount(x, &env, &c, &e), want);
	hp_os_mounts_free(&m);
}

static void test_fuse_daemon(void **state)
{
	(void)state;
	fuse_case("50 1 0:50 / /usr/local/sbin ro - fuse.sshfs h:/x "
	          "rw,user_id=1000,group_id=1000\n",
	          1000, HP_TRUE, "served for uid 1000, the role's");
	fuse_case("50 1 0:50 / /mnt rw - fuse /dev/fuse rw,user_id=1000,group_id=1000,"
	          "allow_other\n",
	          1000, HP_TRUE, NULL);
	fuse_case("50 1 0:50 / /mnt rw - fuse.sshfs h:/x rw,user_id=0,group_id=0\n", 1000,
	          HP_FALSE, NULL);
	fuse_case("50 1 0:50 / /mnt rw - fuse.rclone r: rw,user_id=1001,group_id=1001\n", 1000,
	          HP_UNKNOWN, "uid 1001, not root");
	fuse_case("50 1 0:50 / /mnt rw - fuse x rw,group_id=0\n", 1000, HP_UNKNOWN,
	          "no user_id");
	fuse_case("50 1 0:50 / /mnt rw - fuse x rw,user_id=,group_id=0\n", 1000, HP_UNKNOWN,
	          "malformed");
	fuse_case("50 1 0:50 / /mnt rw - fuse x rw,user_id=1000x\n", 1000, HP_UNKNOWN,
	          "malformed");
	/* not FUSE: the option means nothing */
	fuse_case("50 1 0:50 / /mnt rw - tmpfs fuse rw,user_id=1000\n", 1000, HP_FALSE, NULL);
	fuse_case("50 1 0:50 / /mnt rw - fusectl fusectl rw\n", 1000, HP_FALSE, NULL);
}

/* A tree standing in for /sys/dev/block and /dev. */
typedef struct {
	char *dir, *sys, *dev;
	hp_content_env env;
	hp_cred agent;
} fake;

static fake *fake_new(void)
{
	fake *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	fx_dir(f->dir, "sys", 0755, 0, 0);
	fx_dir(f->dir, "dev", 0755, 0, 0);
	fx_dir(f->dir, "devices", 0755, 0, 0);
	f->sys = fx_path(f->dir, "sys");
	f->dev = fx_path(f->dir, "dev");
	f->env = (hp_content_env){f->sys, f->dev};
	f->agent = (hp_cred){FX_AGENT, FX_AGENT, NULL, 0, 0};
	return f;
}

static void fake_free(fake *f)
{
	hp_os_content_env_set(NULL);
	free(f->sys);
	free(f->dev);
	fx_rmtree(f->dir);
	free(f);
}

static int setup(void **state)
{
	*state = fake_new();
	return 0;
}

static int teardown(void **state)
{
	fake_free(*state);
	return 0;
}

/* sys/M:m as /sys has it: a link to its directory below devices/ */
static void fake_device(fake *f, const char *devno, const char *where)
{
	char rel[256], target[256];
	snprintf(rel, sizeof rel, "devices/%s", where);
	for (char *sl = strchr(rel + 8, '/'); sl; sl = strchr(sl + 1, '/')) {
		*sl = '\0';
		struct stat st;
		char *p = fx_path(f->dir, rel);
		if (stat(p, &st) < 0)
			fx_dir(f->dir, rel, 0755, 0, 0);
		free(p);
		*sl = '/';
	}
	fx_dir(f->dir, rel, 0755, 0, 0);
	snprintf(rel, sizeof rel, "devices/%s/dev", where);
	fx_file(f->dir, rel, devno, 0444, 0, 0);
	snprintf(rel, sizeof rel, "sys/%s", devno);
	snprintf(target, sizeof target, "../devices/%s", where);
	fx_link(f->dir, rel, target);
}

static void fake_loop(fake *f, const char *devno, const char *where, const char *backing)
{
	fake_device(f, devno, where);
	char rel[256];
	snprintf(rel, sizeof rel, "devices/%s/loop", where);
	fx_dir(f->dir, rel, 0755, 0, 0);
	snprintf(rel, sizeof rel, "devices/%s/loop/backing_file", where);
	char *text = hp_xasprintf("%s\n", backing);
	fx_file(f->dir, rel, text, 0444, 0, 0);
	free(text);
}

static hp_tri verdict(fake *f, const char *text, hp_err *e)
{
	hp_mounts m;
	const hp_mount *x = line(&m, text);
	e->msg[0] = '\0';
	hp_tri t = hp_os_content_of_mount(x, &f->env, &f->agent, e);
	hp_os_mounts_free(&m);
	return t;
}

static const char ext4_on_loop[] = "60 1 7:0 / /usr/local/sbin ro - ext4 /dev/loop0 ro\n";

static void test_loop_backing(void **state)
{
	FX_NEED_ROOT();
	fake *f = *state;
	hp_err e;
	/* root's image in root's directory: root's */
	fx_dir(f->dir, "img", 0755, 0, 0);
	fx_file(f->dir, "img/root.img", "", 0600, 0, 0);
	char *img = fx_path(f->dir, "img/root.img");
	fake_loop(f, "7:0", "virtual/block/loop0", img);
	assert_int_equal(verdict(f, ext4_on_loop, &e), HP_FALSE);
	/* the agent's image: every file on the filesystem is the agent's */
	assert_int_equal(chown(img, FX_AGENT, FX_AGENT), 0);
	assert_int_equal(verdict(f, ext4_on_loop, &e), HP_TRUE);
	assert_non_null(strstr(e.msg, "the role can write"));
	assert_non_null(strstr(e.msg, "root.img"));
	/* root's 0666 image */
	assert_int_equal(chown(img, 0, 0), 0);
	assert_int_equal(chmod(img, 0666), 0);
	assert_int_equal(verdict(f, ext4_on_loop, &e), HP_TRUE);
	assert_int_equal(chmod(img, 0600), 0);
	/* root's image in a directory the agent owns: it can put another
	 * file under the name the check finds it by */
	char *dir = fx_path(f->dir, "img");
	assert_int_equal(chown(dir, FX_AGENT, FX_AGENT), 0);
	free(dir);
	assert_int_equal(verdict(f, ext4_on_loop, &e), HP_TRUE);
	assert_non_null(strstr(e.msg, "can replace"));
	free(img);
}

static void test_loop_unknowns(void **state)
{
	FX_NEED_ROOT();
	fake *f = *state;
	hp_err e;
	fake_loop(f, "7:0", "virtual/block/loop0", "/var/tmp/disk.img (deleted)");
	assert_int_equal(verdict(f, ext4_on_loop, &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "is deleted"));
	fake_loop(f, "7:1", "virtual/block/loop1", "/nonexistent/hp-test/disk.img");
	assert_int_equal(verdict(f, "61 1 7:1 / /mnt ro - ext4 /dev/loop1 ro\n", &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "not found from here"));
	/* a loop device /sys does not describe */
	assert_int_equal(verdict(f, "62 1 7:9 / /mnt ro - squashfs /dev/loop9 ro\n", &e),
	                 HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "not in /sys"));
	/* no /sys at all */
	hp_content_env none = {"/nonexistent/sys", f->dev};
	hp_mounts m;
	const hp_mount *x = line(&m, ext4_on_loop);
	assert_int_equal(hp_os_content_of_mount(x, &none, &f->agent, &e), HP_UNKNOWN);
	hp_os_mounts_free(&m);
}

static void test_block_nodes(void **state)
{
	FX_NEED_ROOT();
	fake *f = *state;
	hp_err e;
	/* a partition of a disk, the disk's node root's 0660 */
	fake_device(f, "8:0", "pci/block/sda");
	fake_device(f, "8:1", "pci/block/sda/sda1");
	fx_file(f->dir, "devices/pci/block/sda/sda1/partition", "1\n", 0444, 0, 0);
	char *sda = fx_path(f->dir, "dev/sda");
	assert_int_equal(mknod(sda, S_IFBLK | 0660, makedev(8, 0)), 0);
	static const char part[] = "70 1 8:1 / / rw - ext4 /dev/sda1 rw\n";
	assert_int_equal(verdict(f, part, &e), HP_FALSE);
	/* the whole disk writable by anyone: the partition is the agent's */
	assert_int_equal(chmod(sda, 0666), 0);
	hp_os_content_env_set(NULL); /* forget the nodes found */
	assert_int_equal(verdict(f, part, &e), HP_TRUE);
	assert_non_null(strstr(e.msg, "dev/sda lets the role write block device 8:0"));
	/* a device-mapper device on a loop device of the agent's image */
	assert_int_equal(chmod(sda, 0660), 0);
	hp_os_content_env_set(NULL);
	fake_device(f, "253:0", "virtual/block/dm-0");
	fx_dir(f->dir, "devices/virtual/block/dm-0/slaves", 0755, 0, 0);
	fx_link(f->dir, "devices/virtual/block/dm-0/slaves/loop3", "../../loop3");
	fx_file(f->dir, "agent.img", "", 0600, FX_AGENT, FX_AGENT);
	char *img = fx_path(f->dir, "agent.img");
	fake_loop(f, "7:3", "virtual/block/loop3", img);
	static const char dm[] = "71 1 253:0 / /srv ro - xfs /dev/mapper/x ro\n";
	assert_int_equal(verdict(f, dm, &e), HP_TRUE);
	assert_non_null(strstr(e.msg, "agent.img"));
	/* a node the agent may write, and a device /sys does not describe:
	 * which devices the mount is made of is not known */
	assert_int_equal(chown(img, 0, 0), 0);
	assert_int_equal(verdict(f, dm, &e), HP_FALSE);
	char *other = fx_path(f->dir, "dev/other");
	assert_int_equal(mknod(other, S_IFBLK | 0600, makedev(9, 9)), 0);
	assert_int_equal(chown(other, FX_AGENT, FX_AGENT), 0);
	hp_os_content_env_set(NULL);
	assert_int_equal(verdict(f, "72 1 8:5 / /opt ro - ext4 /dev/sdb ro\n", &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "not in /sys"));
	/* without such a node, a device /sys does not describe is no doubt */
	assert_int_equal(unlink(other), 0);
	hp_os_content_env_set(NULL);
	assert_int_equal(verdict(f, "72 1 8:5 / /opt ro - ext4 /dev/sdb ro\n", &e), HP_FALSE);
	/* mounts with no device are never looked at */
	assert_int_equal(verdict(f, "73 1 0:40 / /tmp rw - tmpfs tmpfs rw\n", &e), HP_FALSE);
	assert_int_equal(verdict(f, "74 1 0:41 / / rw - overlay overlay rw,lowerdir=/l\n", &e),
	                 HP_FALSE);
	free(sda);
	free(other);
	free(img);
}

/* An overlay's layers: a merged directory shows its topmost layer's owner
 * and mode and every layer's entries. */
static void test_overlay_layers(void **state)
{
	FX_NEED_ROOT();
	fake *f = *state;
	hp_err e;
	fx_dir(f->dir, "top", 0755, 0, 0);
	fx_dir(f->dir, "low", 0755, 0, 0);
	fx_dir(f->dir, "up", 0755, 0, 0);
	fx_dir(f->dir, "work", 0755, 0, 0);
	char *text = hp_xasprintf("80 1 0:80 / /usr/local/sbin ro - overlay overlay "
	                          "ro,lowerdir=%s/top:%s/low,upperdir=%s/up,workdir=%s/work,"
	                          "redirect_dir=on\n",
	                          f->dir, f->dir, f->dir, f->dir);
	assert_int_equal(verdict(f, text, &e), HP_FALSE);
	static const char *const layers[] = {"low", "up", "work"};
	for (size_t i = 0; i < 3; i++) {
		char *p = fx_path(f->dir, layers[i]);
		assert_int_equal(chown(p, FX_AGENT, FX_AGENT), 0);
		assert_int_equal(verdict(f, text, &e), HP_TRUE);
		assert_non_null(strstr(e.msg, layers[i]));
		assert_int_equal(chown(p, 0, 0), 0);
		assert_int_equal(chmod(p, 0777), 0);
		assert_int_equal(verdict(f, text, &e), HP_TRUE);
		assert_int_equal(chmod(p, 0755), 0);
		free(p);
	}
	free(text);
	/* layers this namespace does not show (a container's, on the host) */
	assert_int_equal(verdict(f, "81 1 0:81 / / rw - overlay overlay rw,lowerdir=/nonexistent/"
	                            "l1:/nonexistent/l2,upperdir=/nonexistent/u,workdir=/"
	                            "nonexistent/w\n",
	                         &e),
	                 HP_FALSE);
	text = hp_xasprintf("82 1 0:82 / / rw - overlay overlay rw,lowerdir+=%s/top,"
	                    "datadir+=%s/low\n", f->dir, f->dir);
	char *p = fx_path(f->dir, "low");
	assert_int_equal(chown(p, FX_AGENT, FX_AGENT), 0);
	assert_int_equal(verdict(f, text, &e), HP_TRUE);
	free(p);
	free(text);
}

/* --- the verdict where the role's answers are made ------------------------------- */

typedef struct {
	fake *f;
	char *file, *dir;
} live_case;

static int ask_as_agent(void *arg)
{
	live_case *c = arg;
	hp_root r;
	hp_err e;
	int fd;
	if (hp_os_root_open(&r, "/", 0, &e) != HP_TRUE ||
	    hp_os_resolve(&r, c->file, 0, &fd, &e) != HP_TRUE)
		return 10;
	/* root's 0644 file: writable, since the filesystem is the agent's */
	if (hp_os_access_live(fd, HP_ACC_WRITE, &e) != HP_TRUE)
		return 11;
	if (!strstr(e.msg, "the role can write"))
		return 12;
	/* the shortcut that rules a write out by owner and mode must not */
	hp_fileinfo fi;
	hp_self self;
	hp_os_self_read(&self);
	if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE)
		return 13;
	if (hp_os_access_ruled_out(&fi, TMPFS_MAGIC, &self, HP_ACC_WRITE) != HP_UNKNOWN)
		return 14;
	close(fd);
	/* root's directory: what is in it can be replaced */
	if (hp_os_replaceable_live(&r, c->file, &e) != HP_TRUE)
		return 15;
	if (!strstr(e.msg, "can change the filesystem"))
		return 16;
	hp_os_root_close(&r);
	return 0;
}

static void test_live_answers(void **state)
{
	FX_NEED_ROOT();
	fake *f = *state;
	struct stat st;
	assert_int_equal(stat(f->dir, &st), 0);
	if (major(st.st_dev) == 0) {
		print_message("skipped: the fixture's filesystem has no block device\n");
		skip();
	}
	/* the fixture's own device, standing for a loop device of the
	 * agent's image */
	char devno[32];
	snprintf(devno, sizeof devno, "%u:%u", major(st.st_dev), minor(st.st_dev));
	fx_file(f->dir, "agent.img", "", 0600, FX_AGENT, FX_AGENT);
	char *img = fx_path(f->dir, "agent.img");
	fake_loop(f, devno, "virtual/block/loopX", img);
	fx_dir(f->dir, "sbin", 0755, 0, 0);
	fx_file(f->dir, "sbin/claude", "#!/bin/sh\n", 0755, 0, 0);
	live_case c = {f, fx_path(f->dir, "sbin/claude"), NULL};
	hp_os_content_env_set(&f->env);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, ask_as_agent, &c), 0);
	/* root's image: nothing changes for the agent */
	assert_int_equal(chown(img, 0, 0), 0);
	hp_os_content_env_set(&f->env);
	assert_int_not_equal(fx_run_as(FX_AGENT, FX_AGENT, ask_as_agent, &c), 0);
	free(c.file);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fuse_daemon),
	    cmocka_unit_test_setup_teardown(test_loop_backing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_loop_unknowns, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_block_nodes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_overlay_layers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_live_answers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
