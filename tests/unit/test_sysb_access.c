/* test_sysb_access.c: access computed from a fixture image's owners,
 * modes and ACLs for a role's credentials, writable_ancestor, and the
 * computed answer checked against the kernel's in a child that is the
 * agent: agreeing, and disagreeing (unknown, naming both answers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysb_fixture.h"

static void test_access_computed(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	sx_acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/local/bin"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/bin"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/acl"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/etc/shadow"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXECUTABLE, "/usr/bin/ls"), "true");
	/* the owner can always chmod */
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/tmp/agentf"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/nowhere"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/nowhere"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/usr/bin/ls"), "true");
	/* behind a directory the agent cannot search: it cannot read the key by
	 * its name, but whether the key is there is not the agent's to know */
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"),
	                    "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/var/lib/hangar-ctl/key"),
	                    "false");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/var/lib/hangar-ctl/key"),
	    "unknown (/var/lib/hangar-ctl/key: the role cannot search the directory holding "
	    "'key' (computed))");
	/* the hangar role owns it */
	sx_as_role(f, HP_ROLE_HANGAR, FX_HANGAR, FX_HANGAR, 0);
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_HANGAR, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"), "true");
	/* root reads everything */
	sx_as_role(f, HP_ROLE_ROOT, 0, 0, ~0ull >> 23);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_READABLE, "/etc/shadow"), "true");
}

static void test_ancestor_computed(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/local/bin/tool"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/bin"),
	                    "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/tmp/rootf"),
	                    "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/tmp/agentf"),
	                    "true");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/home/agent/x/y"), "true");
}

/* A symlink that leads nowhere, at the path or in a parent's place, is
 * there in all but its target: exists() says true, since whoever can
 * create the target makes the path exist after the check (a dangling
 * /etc/ld.so.preload to a file the agent may create later). A plain
 * missing name stays false. */
static void dangling_links(sx_fx *f)
{
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/ld.so.preload"),
	                    "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/gone/x/y"),
	                    "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/nothing/x"),
	                    "false");
	/* still nothing to read or write there now */
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/etc/ld.so.preload"),
	                    "false");
}

static void plant_dangling(const char *dir)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/etc/ld.so.preload", dir);
	assert_int_equal(symlink("/home/agent/preload", p), 0);
	snprintf(p, sizeof p, "%s/etc/gone", dir);
	assert_int_equal(symlink("../home/agent/later", p), 0);
}

static void test_exists_dangling(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	plant_dangling(f->dir);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	dangling_links(f);
}

/* In a child that is the agent (uid and gid only): the kernel's answer is
 * asked too, and agrees with the computed one. */
static int kernel_child(void *arg)
{
	sx_fx *f = arg;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	ctx.cred = (hp_cred){FX_AGENT, FX_AGENT, NULL, 0, 0};
	hp_probe_sys_set_role(f->s, &ctx);
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/local/bin"), "true") != 0)
		return 1;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/acl"), "true") != 0)
		return 2;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin"), "false") != 0)
		return 3;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/local/bin/x"),
	           "true") != 0)
		return 4;
	/* resolution is the kernel's too: the agent cannot search hangar-ctl */
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"),
	           "false") != 0)
		return 5;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/var/lib/hangar-ctl/key"),
	           "unknown (/var/lib/hangar-ctl/key: a directory on the way refuses search)") != 0)
		return 6;
	/* the kernel's resolution finds the dangling links too */
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/ld.so.preload"), "true") != 0)
		return 7;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/gone/x/y"), "true") != 0)
		return 8;
	if (strcmp(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/etc/nothing/x"), "false") != 0)
		return 9;
	return 0;
}

static void test_access_kernel_and_computed(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	sx_acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	plant_dangling(f->dir);
	sx_sb(f);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, kernel_child, f), 0);
}

/* The kernel and the image's owners and modes disagree (here because the
 * credentials the computed answer uses are not the process's, as when an
 * LSM or the filesystem on this machine denies what the image allows):
 * unknown, naming both answers. */
static int disagree_child(void *arg)
{
	sx_fx *f = arg;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	/* credentials that differ from the process's: the kernel says no where
	 * the computed answer, for uid FX_OTHER, says yes */
	ctx.cred = (hp_cred){FX_OTHER, FX_OTHER, NULL, 0, 0};
	hp_probe_sys_set_role(f->s, &ctx);
	const char *v = sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/other");
	return strcmp(v, "unknown (/etc/other: the kernel, asked as agent on this machine, says "
	                 "no; the image's owners, modes and ACLs say yes (an LSM, a mount option "
	                 "or the filesystem here differs from the image's))") != 0;
}

static void test_access_disagreement(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	fx_file(f->dir, "etc/other", "x", 0600, FX_OTHER, FX_OTHER);
	sx_sb(f);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, disagree_child, f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_access_computed, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_ancestor_computed, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_exists_dangling, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_access_kernel_and_computed, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_access_disagreement, sx_setup, sx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
