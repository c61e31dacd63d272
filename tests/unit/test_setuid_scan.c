/* test_setuid_scan.c: setuid-root, setgid-root and file-capability
 * executables in a fixture directory, symlinks to them, and the bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fixture.h"
#include "os/setuid_scan.h"

static char *dir;
static hp_root root;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fx_dir(dir, "bin", 0755, 0, 0);
	fx_dir(dir, "other", 0755, 0, 0);
	fx_file(dir, "bin/su", "x", 04755, 0, 0);
	fx_file(dir, "bin/sg", "x", 02755, 0, 0);
	fx_file(dir, "bin/sgother", "x", 02755, 0, 42);
	fx_file(dir, "bin/suid_noexec", "x", 04644, 0, 0);
	fx_file(dir, "bin/suid_user", "x", 04755, FX_AGENT, 0);
	fx_file(dir, "bin/plain", "x", 0755, 0, 0);
	fx_file(dir, "bin/capbin", "x", 0755, 0, 0);
	fx_file(dir, "other/su2", "x", 04755, 0, 0);
	fx_link(dir, "bin/link_to_su", "/other/su2");
	fx_link(dir, "bin/dangling", "/nowhere");
	fx_dir(dir, "bin/sdir", 04755, 0, 0);
	char *cb = fx_path(dir, "bin/capbin");
	cap_t c = cap_from_text("cap_net_raw+ep");
	int r = cap_set_file(cb, c);
	cap_free(c);
	free(cb);
	if (r != 0)
		return 1;
	hp_err e;
	return hp_os_root_open(&root, dir, 0, &e) != HP_TRUE;
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

static void test_finds_each_kind(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_suid_list l;
	hp_err e;
	assert_int_equal(hp_os_setuid_scan(&root, "/bin", 100, &l, &e), HP_TRUE);
	const char *names[] = {"capbin", "link_to_su", "sg", "su"};
	const unsigned whys[] = {HP_FILE_CAPS, HP_SUID_ROOT, HP_SGID_ROOT, HP_SUID_ROOT};
	assert_int_equal(l.n, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(l.v[i].name, names[i]);
		assert_int_equal(l.v[i].why, whys[i]);
	}
	assert_int_equal(l.v[1].via_symlink, 1);
	assert_int_equal(l.v[3].mode, 04755);
	hp_os_suid_list_free(&l);
	/* an ordinary directory: empty, not unknown */
	assert_int_equal(hp_os_setuid_scan(&root, "/other/..", 100, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 0);
}

/* With the system's own / as the root, symlinks are resolved by the kernel
 * (the fast path): the same answers, including a link to a setuid-root
 * file elsewhere, a dangling link and a link to a file with capabilities. */
static void test_live_root_same_answers(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *other = fx_path(dir, "other/su2");
	char *capbin = fx_path(dir, "bin/capbin");
	fx_dir(dir, "live", 0755, 0, 0);
	fx_link(dir, "live/to_su2", other);
	fx_link(dir, "live/to_caps", capbin);
	fx_link(dir, "live/dangling", "/nowhere/at/all");
	fx_file(dir, "live/plain", "x", 0755, 0, 0);
	hp_root slash;
	hp_err e;
	assert_int_equal(hp_os_root_open(&slash, "/", 0, &e), HP_TRUE);
	char *live = fx_path(dir, "live");
	hp_suid_list l;
	assert_int_equal(hp_os_setuid_scan(&slash, live, 100, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].name, "to_caps");
	assert_int_equal(l.v[0].why, HP_FILE_CAPS);
	assert_int_equal(l.v[0].via_symlink, 1);
	assert_string_equal(l.v[1].name, "to_su2");
	assert_int_equal(l.v[1].why, HP_SUID_ROOT);
	assert_int_equal(l.v[1].mode, 04755);
	assert_int_equal(l.v[1].via_symlink, 1);
	hp_os_suid_list_free(&l);
	hp_os_root_close(&slash);
	free(live);
	free(other);
	free(capbin);
}

/* Live root, links into the same directory (answered from what the scan
 * read of their targets): a link, a link to a link, a self loop, and links
 * to a plain file, a setuid-root file and one with capabilities, each the
 * same answer as its target's. */
static void test_live_links_in_the_directory(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	fx_dir(dir, "memo", 0755, 0, 0);
	fx_file(dir, "memo/capfile", "x", 0755, 0, 0);
	fx_file(dir, "memo/su3", "x", 04755, 0, 0);
	fx_file(dir, "memo/plain", "x", 0755, 0, 0);
	fx_link(dir, "memo/to_capfile", "capfile");
	fx_link(dir, "memo/chain", "to_capfile");
	fx_link(dir, "memo/to_su3", "su3");
	fx_link(dir, "memo/to_plain", "plain");
	fx_link(dir, "memo/loop", "loop");
	char *cf = fx_path(dir, "memo/capfile");
	cap_t c = cap_from_text("cap_net_raw+ep");
	assert_int_equal(cap_set_file(cf, c), 0);
	cap_free(c);
	hp_root slash;
	hp_err e;
	assert_int_equal(hp_os_root_open(&slash, "/", 0, &e), HP_TRUE);
	char *memo = fx_path(dir, "memo");
	hp_suid_list l;
	assert_int_equal(hp_os_setuid_scan(&slash, memo, 100, &l, &e), HP_TRUE);
	const char *names[] = {"capfile", "chain", "su3", "to_capfile", "to_su3"};
	const unsigned whys[] = {HP_FILE_CAPS, HP_FILE_CAPS, HP_SUID_ROOT, HP_FILE_CAPS,
	                         HP_SUID_ROOT};
	const int via[] = {0, 1, 0, 1, 1};
	assert_int_equal(l.n, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(l.v[i].name, names[i]);
		assert_int_equal(l.v[i].why, whys[i]);
		assert_int_equal(l.v[i].via_symlink, via[i]);
	}
	hp_os_suid_list_free(&l);
	/* the capability removed: read again, not remembered from before */
	assert_int_equal(removexattr(cf, "security.capability"), 0);
	assert_int_equal(hp_os_setuid_scan(&slash, memo, 100, &l, &e), HP_TRUE);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].name, "su3");
	assert_string_equal(l.v[1].name, "to_su3");
	hp_os_suid_list_free(&l);
	hp_os_root_close(&slash);
	free(memo);
	free(cf);
}

/* getxattrat missing (ENOSYS, kernels before 6.13) or refused (EPERM, a
 * seccomp profile): the capability is read through /proc/self/fd instead,
 * with the same answers, live root and image root alike. */
static int scan_denied(void *arg)
{
	const int nr[] = {464 /* getxattrat */};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || fx_seccomp_fail(nr, 1, *(int *)arg) < 0)
		return 10;
	hp_suid_list l;
	hp_err e;
	if (hp_os_setuid_scan(&root, "/bin", 100, &l, &e) != HP_TRUE)
		return 11;
	int bad = l.n != 4 || strcmp(l.v[0].name, "capbin") || l.v[0].why != HP_FILE_CAPS;
	hp_os_suid_list_free(&l);
	return bad ? 12 : 0;
}

static void test_without_getxattrat(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int errs[] = {38 /* ENOSYS */, 1 /* EPERM */};
	for (int i = 0; i < 2; i++)
		assert_int_equal(fx_in_child(scan_denied, &errs[i]), 0);
}

/* Capabilities that cannot be read (an I/O error, whatever the call) make
 * the scan unknown: never "no capabilities". */
static int scan_xattr_fails(void *arg)
{
	const int nr[] = {464 /* getxattrat */, SYS_getxattr, SYS_lgetxattr, SYS_fgetxattr};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || fx_seccomp_fail(nr, 4, *(int *)arg) < 0)
		return 10;
	hp_suid_list l;
	hp_err e;
	/* through a symbolic link (the walk inside the root) and directly */
	if (hp_os_setuid_scan(&root, "/bin", 100, &l, &e) != HP_UNKNOWN)
		return 11;
	if (!strstr(e.msg, "reading security.capability: Input/output error"))
		return 12;
	if (hp_os_setuid_scan(&root, "/other", 100, &l, &e) != HP_UNKNOWN)
		return 13;
	return strcmp(e.msg, "/other/su2: reading security.capability: Input/output error") ? 14
	                                                                                   : 0;
}

static void test_caps_unreadable(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int err = EIO;
	assert_int_equal(fx_in_child(scan_xattr_fails, &err), 0);
}

static void test_bounds_and_errors(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_suid_list l;
	hp_err e;
	assert_int_equal(hp_os_setuid_scan(&root, "/bin", 5, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/bin: more than 5 entries");
	assert_null(l.v);
	assert_int_equal(hp_os_setuid_scan(&root, "/nope", 5, &l, &e), HP_FALSE);
	assert_int_equal(hp_os_setuid_scan(&root, "/bin/plain", 5, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/bin/plain: not a directory (file)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_finds_each_kind),
	    cmocka_unit_test(test_live_root_same_answers),
	    cmocka_unit_test(test_live_links_in_the_directory),
	    cmocka_unit_test(test_without_getxattrat),
	    cmocka_unit_test(test_caps_unreadable),
	    cmocka_unit_test(test_bounds_and_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
