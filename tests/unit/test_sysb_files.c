/* test_sysb_files.c: the live/rootfs backend's answers about single
 * paths and the setuid scans on a fixture image: a path's type, mode,
 * owners and links, arguments that are not absolute, setuid_root of a
 * directory, the whole-image setuid and setgid scans and how a failed
 * walk stays unknown; then LIVE probes skipped offline, env, and a root
 * that cannot be opened. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysb_fixture.h"

static void test_file_facts(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/bin"), "\"symlink\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/bin/"), "\"dir\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/etc/pipe"), "\"fifo\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/etc/passwd"), "\"file\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_MODE, "/tmp"), "1023");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_MODE, "/bin/sudo"), "2541");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "/bin/sudo"), "0");
	char want[64];
	snprintf(want, sizeof want, "%u", (unsigned)FX_HANGAR);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_OWNER, "/var/lib/hangar-ctl"),
	                    want);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_LINKS, "/etc/hard"), "2");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "/nope"),
	                    "absent (/nope: no such file or directory)");
	/* a symlink out of the image leads to the image's own /etc */
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/passwd"), "\"file\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/shadow"), "\"file\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/hostname"),
	                    "absent (/escape/hostname: no such file or directory)");
	/* a path that is not absolute never reaches the backend (vm/probe_arg.h) */
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, ""),
	                    "unknown (an empty path: as a PATH entry it is the working directory, "
	                    "which the agent may choose)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "usr/bin"),
	                    "unknown ('usr/bin' is not an absolute path: it is resolved against "
	                    "the working directory of whoever uses it, which the agent may "
	                    "choose)");
}

static void test_setuid_root(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/bin"),
	                    "{ \"newgrp\", \"su2\", \"sudo\" }");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/local/bin"), "{}");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/games"), "{}");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/etc/passwd"),
	                    "unknown (/etc/passwd: not a directory (file))");
}

static void test_setuid_image(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_file(f->dir, "opt/rootsh", "#!", 04755, 0, 0);
	/* offline: the whole image; symlinks (su2) are found where they lead */
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE),
	                    "{ \"/opt/rootsh\", \"/usr/bin/newgrp\", \"/usr/bin/sudo\" }");
	/* setid_image: whoever a program sets (wall's tty, the agent's own
	 * mine), from the same walk: a program added after the first answer
	 * is in neither, since the image was walked once */
	fx_file(f->dir, "opt/later", "#!", 04755, FX_HANGAR, 0);
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE),
	                    "{ \"/opt/rootsh\", \"/usr/bin/mine\", \"/usr/bin/newgrp\", "
	                    "\"/usr/bin/sudo\", \"/usr/bin/wall\" }");
}

/* A walk that fails (offline, a filesystem mounted inside the image is not
 * the image's) is unknown for both probes, the second answered from the
 * first's failure, never from what was seen before it. In a private mount
 * namespace. */
static int failed_walk(sx_fx *f)
{
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 10;
	char *o = fx_path(f->dir, "opt");
	if (mount("t1", o, "tmpfs", 0, "mode=0755") != 0)
		return 11;
	free(o);
	const char *a = sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE);
	if (strcmp(a, "unknown (/opt: a mount inside the image)") != 0) {
		fprintf(stderr, "%s\n", a);
		return 12;
	}
	a = sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE);
	if (strcmp(a, "unknown (/opt: a mount inside the image)") != 0) {
		fprintf(stderr, "%s\n", a);
		return 13;
	}
	return 0;
}

static void test_setid_image_unknown(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(failed_walk(f));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* setid_image asked first, a setuid program of hangar's among them; and a
 * walk that fails is unknown for both probes. */
static void test_setid_image(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_file(f->dir, "opt/driversh", "#!", 04755, FX_HANGAR, FX_HANGAR);
	fx_file(f->dir, "opt/grp", "#!", 02711, 0, FX_HANGAR);
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE),
	                    "{ \"/opt/driversh\", \"/opt/grp\", \"/usr/bin/mine\", "
	                    "\"/usr/bin/newgrp\", \"/usr/bin/sudo\", \"/usr/bin/wall\" }");
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE),
	                    "{ \"/usr/bin/newgrp\", \"/usr/bin/sudo\" }");
}

static void test_live_skipped(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_none(f, HP_ROLE_AGENT, HP_PROBE_SUDO),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(sx_ask_none(f, HP_ROLE_AGENT, HP_PROBE_CAPS_AMBIENT),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(sx_ask_none(f, HP_ROLE_AGENT, HP_PROBE_NO_NEW_PRIVS),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_READ_ONLY, "/"),
	                    "skipped (needs a live sandbox)");
	hp_value r = hp_v_role(HP_ROLE_HANGAR);
	assert_string_equal(sx_show(f, hp_backend_ask(hp_probe_sys_backend(sx_sb(f)), HP_ROLE_AGENT,
	                                           HP_PROBE_SIGNAL, &r, &f->pool)),
	                    "skipped (needs a live sandbox)");
	/* a role probe asked for another role than the process runs */
	assert_string_equal(sx_ask_str(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE, "/"),
	                    "unknown (writable: asked as hangar in the process of role agent)");
}

static void test_env(void **state)
{
	sx_fx *f = *state;
	setenv("HP_TEST_ENV", "a value", 1);
	unsetenv("HP_TEST_UNSET");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HP_TEST_ENV"), "\"a value\"");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HP_TEST_UNSET"), "absent");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "A=B"),
	                    "unknown (env(\"A=B\"): not a variable name)");
}

static void test_bad_root(void **state)
{
	(void)state;
	hp_sys_opts o = {.kind = HP_SYS_ROOTFS, .root_dir = "/nonexistent/image"};
	hp_err e;
	assert_null(hp_probe_sys_open(&o, &e));
	assert_string_equal(e.msg, "/nonexistent/image: cannot open as a root directory: No such "
	                           "file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_file_facts, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_setuid_root, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_setuid_image, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_setid_image, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_setid_image_unknown, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_live_skipped, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_env, sx_setup, sx_teardown),
	    cmocka_unit_test(test_bad_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
