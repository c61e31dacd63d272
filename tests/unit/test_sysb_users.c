/* test_sysb_users.c: the live/rootfs backend's users, groups and
 * passwords, read from a fixture image's etc files: every field, the
 * gshadow members, the uid-0 and second-account findings, nsswitch
 * sources other than files, and every way those files fail closed
 * (missing, malformed, not regular). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysb_fixture.h"

static void test_users(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char want[512];
	snprintf(
	    want, sizeof want,
	    "user \"agent\" (uid %u, gid %u, home \"/home/agent\", shell \"/bin/sh\", groups { "
	    "\"agent\", \"docker\" })",
	    (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"), want);
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, FX_AGENT), want);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "nobody"),
	                    "absent (no user \"nobody\" in etc/passwd)");
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, 4294967295LL),
	                    "unknown (user_by_uid(4294967295): not a uid)");
	snprintf(want, sizeof want, "group \"docker\" (gid %u, members { \"agent\" })",
	         (unsigned)FX_GROUP);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP, "docker"), want);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP, "wheel"),
	                    "absent (no group \"wheel\" in etc/group)");
}

static void test_passwords(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "hangar"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "agent"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "nobody"),
	                    "absent (no user \"nobody\" in etc/passwd)");
	/* the accounts su takes: root's empty password and the agent's hash,
	 * not hangar's locked one */
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_USERS_UNLOCKED),
	                    "{ \"root\", \"agent\" }");
}

/* Read in the asking process (root's child does so: hp_probe_sys_secrets_here)
 * or by the reader process, every answer is the same, each failure too. */
static void test_passwords_read_here(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	fx_file(f->dir, "etc/gshadow", "root:*::\nhangar:!::agent\ndocker:$6$x:ops:\n", 0640, 0, 0);
	static const struct {
		hp_probe_id probe;
		const char *arg;
	} asks[] = {
	    {HP_PROBE_PASSWORD_EMPTY, "root"},        {HP_PROBE_PASSWORD_EMPTY, "agent"},
	    {HP_PROBE_PASSWORD_LOCKED, "hangar"},     {HP_PROBE_PASSWORD_LOCKED, "nobody"},
	    {HP_PROBE_GSHADOW_MEMBERS, "hangar"},     {HP_PROBE_GROUP_ADMINS, "docker"},
	    {HP_PROBE_GROUP_PASSWORD_SET, "docker"},  {HP_PROBE_GROUP_PASSWORD_SET, "agent"},
	};
	enum { N = sizeof asks / sizeof asks[0] };
	char by_reader[N + 1][256], here[N + 1][256];
	for (int pass = 0; pass < 2; pass++) {
		char (*out)[256] = pass ? here : by_reader;
		hp_sysbackend *s = sx_open_image(f->dir);
		if (pass)
			hp_probe_sys_secrets_here(s);
		hp_backend *b = hp_probe_sys_backend(s);
		for (size_t i = 0; i < N; i++) {
			hp_value arg = hp_v_str(asks[i].arg, (uint32_t)strlen(asks[i].arg));
			sx_format(hp_backend_ask(b, HP_ROLE_ROOT, asks[i].probe, &arg, &f->pool),
			          out[i], sizeof out[i]);
		}
		hp_value none = hp_v_none();
		sx_format(hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_USERS_UNLOCKED, &none, &f->pool),
		          out[N], sizeof out[N]);
		hp_backend_destroy(b);
	}
	for (size_t i = 0; i <= N; i++)
		assert_string_equal(here[i], by_reader[i]);
	assert_string_equal(here[N], "{ \"root\", \"agent\" }");
	assert_string_equal(here[6], "true");
	/* a failure reads the same too */
	sx_put(f->dir, "etc/shadow", "root::19000::::::\nroot::19000::::::\n");
	hp_sysbackend *s = sx_open_image(f->dir);
	hp_probe_sys_secrets_here(s);
	hp_backend *b = hp_probe_sys_backend(s);
	hp_value arg = hp_v_str("root", 4);
	assert_string_equal(sx_show(f, hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY,
	                                              &arg, &f->pool)),
	                    "unknown (etc/shadow:2: duplicate user \"root\" (first at line 1))");
	hp_backend_destroy(b);
}

/* One account whose state is not known makes the whole list unknown: the
 * one left out could be the one with a grant. */
static void test_users_unlocked_unknown(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char *p = fx_path(f->dir, "etc/shadow");
	assert_int_equal(unlink(p), 0);
	free(p);
	fx_file(f->dir, "etc/shadow", "root:!:19000::::::\nhangar:!:19000::::::\n", 0640, 0, 0);
	assert_string_equal(sx_ask_none(f, HP_ROLE_ROOT, HP_PROBE_USERS_UNLOCKED),
	                    "unknown (the password of \"agent\": etc/shadow has no entry for "
	                    "\"agent\")");
}

static void test_shadow_missing(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char *p = fx_path(f->dir, "etc/shadow");
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"),
	                    "unknown (etc/shadow does not exist)");
}

/* gshadow_members: who newgrp lets in without a password (gshadow's list
 * replaces etc/group's when the group has an entry); absent when it has
 * none or there is no gshadow, unknown when gshadow cannot be read or is
 * malformed, and group_admins unknown with it. */
static void test_gshadow_members(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	fx_file(f->dir, "etc/gshadow", "root:*::\nhangar:!::agent\ndocker:!:ops:\n", 0640, 0, 0);
	static const struct {
		hp_probe_id probe;
		const char *group, *want;
	} cases[] = {
	    {HP_PROBE_GSHADOW_MEMBERS, "hangar", "{ \"agent\" }"},
	    {HP_PROBE_GSHADOW_MEMBERS, "root", "{}"},
	    /* docker's etc/group members (agent) are not newgrp's once gshadow
	     * has an entry: its own list, empty, is */
	    {HP_PROBE_GSHADOW_MEMBERS, "docker", "{}"},
	    {HP_PROBE_GROUP_ADMINS, "docker", "{ \"ops\" }"},
	    {HP_PROBE_GSHADOW_MEMBERS, "agent", "absent (etc/gshadow has no entry for \"agent\")"},
	    {HP_PROBE_GROUP_ADMINS, "agent", "{}"},
	    {HP_PROBE_GSHADOW_MEMBERS, "wheel", "absent (no group \"wheel\" in etc/group)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, cases[i].probe, cases[i].group),
		                    cases[i].want);
}

static void test_gshadow_missing(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"),
	                    "absent (etc/gshadow does not exist)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_ADMINS, "hangar"), "{}");
}

static void test_gshadow_malformed(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	fx_file(f->dir, "etc/gshadow", "root:*::\nhangar:!::ops, agent\n", 0640, 0, 0);
	static const char why[] = "unknown (etc/gshadow:2: member name \" agent\" contains a blank "
	                          "or control character)";
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"), why);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "root"), why);
	/* who administers a group is not known either (it was {} before) */
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_ADMINS, "root"), why);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_PASSWORD_SET, "root"), why);
}

/* gshadow that is not a regular file (a FIFO the agent planted would hang
 * a reader) is unknown, never absent */
static void test_gshadow_not_regular(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char *p = fx_path(f->dir, "etc/gshadow");
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"),
	                    "unknown (etc/gshadow: not a regular file (fifo))");
}

static void test_uid0_finding(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_put(f->dir, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\ntoor:x:0:0::/root:/bin/sh\n");
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, 0),
	                    "unknown (etc/passwd:2: account \"toor\" has uid 0 besides root: "
	                    "which account uid 0 names is ambiguous)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"),
	                    "unknown (etc/passwd:2: account \"toor\" has uid 0 besides root: its "
	                    "password counts as much as root's)");
	/* by name the answer is exact */
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "toor"),
	    "user \"toor\" (uid 0, gid 0, home \"/root\", shell \"/bin/sh\", groups { "
	    "\"root\" })");
}

static void test_nss_other_source(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_put(f->dir, "etc/nsswitch.conf", "passwd: files ldap\ngroup: files\n");
	const char *v = sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent");
	assert_string_equal(v, "unknown (etc/nsswitch.conf:1: passwd uses \"ldap\", which can "
	                       "supply entries that are not in the files)");
}

static void test_nss_systemd_records(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_put(f->dir, "etc/nsswitch.conf", "passwd: files systemd\ngroup: files systemd\n");
	char want[512];
	snprintf(want, sizeof want,
	         "user \"agent\" (uid %u, gid %u, home \"/home/agent\", shell "
	         "\"/bin/sh\", groups { \"agent\", \"docker\" })",
	         (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"), want);
	hp_backend_destroy(hp_probe_sys_backend(f->s));
	f->s = NULL;
	fx_dir(f->dir, "etc/userdb", 0755, 0, 0);
	sx_put(f->dir, "etc/userdb/ghost.user", "{}");
	const char *v = sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent");
	assert_non_null(strstr(v, "(/etc/userdb/ghost.user exists)"));
	assert_int_equal(strncmp(v, "unknown (", 9), 0);
}

static void test_passwd_fifo(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char *p = fx_path(f->dir, "etc/passwd");
	assert_int_equal(unlink(p), 0);
	free(p);
	fx_fifo(f->dir, "etc/passwd", 0644);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"),
	                    "unknown (etc/passwd: not a regular file (fifo))");
}

static void test_passwd_malformed(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_put(f->dir, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\nagent:x:-1:1000::/:/bin/sh\n");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "root"),
	                    "unknown (etc/passwd:2: uid \"-1\" is negative (-1 is (uid_t)-1, which "
	                    "setresuid reads as 'unchanged'))");
}

static void test_passwd_missing(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	char *p = fx_path(f->dir, "etc/group");
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "root"),
	                    "unknown (etc/group does not exist)");
}

static void test_user_ids(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	uid_t u;
	gid_t g;
	gid_t *gids;
	size_t n;
	hp_err e;
	assert_int_equal(hp_probe_sys_user_ids(sx_sb(f), "agent", -1, &u, &g, &gids, &n, &e), HP_TRUE);
	assert_int_equal(u, FX_AGENT);
	assert_int_equal(g, FX_AGENT);
	assert_int_equal(n, 2);
	assert_int_equal(gids[0], FX_AGENT);
	assert_int_equal(gids[1], FX_GROUP);
	free(gids);
	assert_int_equal(hp_probe_sys_user_ids(sx_sb(f), NULL, 0, &u, &g, &gids, &n, &e), HP_TRUE);
	assert_int_equal(u, 0);
	free(gids);
	assert_int_equal(hp_probe_sys_user_ids(sx_sb(f), "ghost", -1, &u, &g, &gids, &n, &e), HP_FALSE);
	assert_string_equal(e.msg, "no user \"ghost\" in etc/passwd");
	assert_null(gids);
}

static void test_users_with_uid(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 0), "{ \"root\" }");
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 4242), "{}");
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, -1),
	                    "unknown (users_with_uid(-1): not a uid)");
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 4294967295LL),
	                    "unknown (users_with_uid(4294967295): not a uid)");
	/* a second account of the driver's uid, in the file's order */
	char pw[1024];
	snprintf(pw, sizeof pw,
	         "root:x:0:0:root:/root:/bin/sh\n"
	         "hangar:x:%u:%u:driver:/var/lib/hangar:/usr/sbin/nologin\n"
	         "agent:x:%u:%u:agent:/home/agent:/bin/sh\n"
	         "driver2:x:%u:%u::/:/bin/sh\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_AGENT,
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR);
	sx_put(f->dir, "etc/passwd", pw);
	hp_backend_destroy(hp_probe_sys_backend(f->s));
	f->s = NULL;
	assert_string_equal(sx_ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, (int64_t)FX_HANGAR),
	                    "{ \"hangar\", \"driver2\" }");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_users, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_passwords, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_passwords_read_here, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_shadow_missing, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_members, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_missing, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_malformed, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_not_regular, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_users_unlocked_unknown, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_uid0_finding, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_nss_other_source, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_nss_systemd_records, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_fifo, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_malformed, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_missing, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_user_ids, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_users_with_uid, sx_setup, sx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
