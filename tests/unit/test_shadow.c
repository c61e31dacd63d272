/* test_shadow.c: etc/shadow and the three-valued "is the password empty". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_file.h"
#include "etc/colonfile.h"
#include "etc/shadow.h"
#include "lib/buf.h"

static const char passwd[] = "root:x:0:0:root:/root:/bin/ash\n"
                             "agent:x:1000:1000::/home/agent:/bin/sh\n"
                             "nopw::1001:1001::/:/bin/sh\n"
                             "locked:*:1002:1002::/:/bin/sh\n"
                             "old:$1$abc$def:1003:1003::/:/bin/sh\n"
                             "missing:x:1004:1004::/:/bin/sh\n"
                             "adjunct:##adjunct:1005:1005::/:/bin/sh\n"
                             "bang:x:1006:1006::/:/bin/sh\n"
                             "hash:x:1007:1007::/:/bin/sh\n";
static const char group[] = "root:x:0:\n";

static hp_userdb *db_new(void)
{
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse(passwd, strlen(passwd), "etc/passwd", group, strlen(group),
	                                "etc/group", &err);
	assert_non_null(db);
	return db;
}

static hp_shadow *sh_parse(const char *text, hp_err *err)
{
	return hp_etc_shadow_parse(text, strlen(text), "etc/shadow", err);
}

static void test_alpine_empty_root(void **state)
{
	(void)state;
	hp_userdb *db = db_new();
	hp_err err = {{0}};
	/* CVE-2019-5021: Alpine's Docker images shipped this line */
	hp_shadow *sh = sh_parse("root:::0:::::\n"
	                         "agent:!:19000:0:99999:7:::\n"
	                         "bang:!!:19000::::::\n"
	                         "hash:$6$salt$hash:19000:0:99999:7:::\n",
	                         &err);
	assert_non_null(sh);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "root", &err), HP_TRUE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "agent", &err), HP_FALSE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "bang", &err), HP_FALSE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "hash", &err), HP_FALSE);
	/* the passwd field decides when it is not "x" */
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "nopw", &err), HP_TRUE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "locked", &err), HP_FALSE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "old", &err), HP_FALSE);
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "missing", &err), HP_UNKNOWN);
	assert_string_equal(err.msg, "etc/shadow has no entry for \"missing\"");
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "adjunct", &err), HP_UNKNOWN);
	assert_string_equal(err.msg, "user \"adjunct\" has a \"##\" password field, which points "
	                             "to a password adjunct file");
	assert_int_equal(hp_etc_password_empty(db, sh, "etc/shadow", "nobody", &err), HP_UNKNOWN);
	assert_string_equal(err.msg, "no user \"nobody\"");
	assert_string_equal(hp_etc_shadow_password(sh, "hash"), "$6$salt$hash");
	assert_null(hp_etc_shadow_password(sh, "missing"));
	hp_etc_shadow_free(sh);

	/* no readable shadow file: unknown wherever it would decide */
	assert_int_equal(hp_etc_password_empty(db, NULL, "etc/shadow", "root", &err), HP_UNKNOWN);
	assert_string_equal(err.msg, "etc/shadow could not be read");
	assert_int_equal(hp_etc_password_empty(db, NULL, "etc/shadow", "nopw", &err), HP_TRUE);
	hp_etc_userdb_free(db);
}

static void test_debian12_shadow(void **state)
{
	(void)state;
	size_t pl, gl, sl;
	char *pw = hp_fixture_read("tests/fixtures/etc/debian12/passwd", &pl);
	char *gr = hp_fixture_read("tests/fixtures/etc/debian12/group", &gl);
	char *sh_text = hp_fixture_read("tests/fixtures/etc/debian12/shadow", &sl);
	hp_err err = {{0}};
	hp_userdb *db = hp_etc_userdb_parse(pw, pl, "etc/passwd", gr, gl, "etc/group", &err);
	hp_shadow *sh = hp_etc_shadow_parse(sh_text, sl, "etc/shadow", &err);
	assert_non_null(db);
	assert_non_null(sh);
	for (size_t i = 0; i < hp_etc_userdb_nusers(db); i++)
		assert_int_equal(
		    hp_etc_password_empty(db, sh, "etc/shadow", hp_etc_userdb_user_at(db, i)->name, &err),
		    HP_FALSE);
	hp_etc_shadow_free(sh);
	hp_etc_userdb_free(db);
	free(pw);
	free(gr);
	free(sh_text);
}

static void expect_error(const char *text, const char *msg)
{
	hp_err err = {{0}};
	assert_null(sh_parse(text, &err));
	assert_string_equal(err.msg, msg);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("root:::0::::\n",
	             "etc/shadow:1: 8 fields, expected 9 "
	             "(name:password:lastchg:min:max:warn:inactive:expire:reserved)");
	expect_error("root:*:x:0:99999:7:::\n",
	             "etc/shadow:1: last change \"x\" is not empty or a number of days");
	expect_error("root:*:1:0:99999:7::-1:\n",
	             "etc/shadow:1: expiry date \"-1\" is not empty or a number of days");
	expect_error("root:*:::::::\nroot::::::::\n",
	             "etc/shadow:2: duplicate user \"root\" (first at line 1)");
	expect_error("+:::::::\n", "etc/shadow:1: NIS compat line starting with '+' (entries from "
	                           "NIS cannot be checked)");
	expect_error("root::::::::\r\n",
	             "etc/shadow:1: carriage return in line (libcs disagree on CRLF files)");
}

static void test_locked(void **state)
{
	(void)state;
	hp_userdb *db = db_new();
	hp_err err = {{0}};
	hp_shadow *sh = sh_parse("root:*:19000:0:99999:7:::\n"
	                         "agent:!:19000:0:99999:7:::\n"
	                         "bang:!!:19000::::::\n"
	                         "hash:!$6$salt$hash:19000:0:99999:7:::\n",
	                         &err);
	assert_non_null(sh);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "root", &err), HP_PW_LOCKED);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "agent", &err), HP_PW_LOCKED);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "bang", &err), HP_PW_LOCKED);
	/* usermod -L: a '!' before the hash */
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "hash", &err), HP_PW_LOCKED);
	/* the passwd field decides when it is not "x": '*' locked, a hash not */
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "locked", &err), HP_PW_LOCKED);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "old", &err), HP_PW_HASH);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "nopw", &err), HP_PW_EMPTY);
	assert_int_equal(hp_etc_password_state(db, sh, "etc/shadow", "missing", &err), HP_PW_UNKNOWN);
	assert_string_equal(err.msg, "etc/shadow has no entry for \"missing\"");
	assert_int_equal(hp_etc_password_state(db, NULL, "etc/shadow", "root", &err), HP_PW_UNKNOWN);
	assert_string_equal(err.msg, "etc/shadow could not be read");
	hp_etc_shadow_free(sh);
	assert_int_equal(hp_etc_password_field(""), HP_PW_EMPTY);
	assert_int_equal(hp_etc_password_field("*LK*"), HP_PW_LOCKED);
	assert_int_equal(hp_etc_password_field("x"), HP_PW_HASH);
	assert_int_equal(hp_etc_password_field("$y$j9T$salt$hash"), HP_PW_HASH);
	assert_int_equal(hp_etc_password_field("abcdefghijklm"), HP_PW_HASH);
	hp_etc_userdb_free(db);
}

static void test_gshadow(void **state)
{
	(void)state;
	static const char groups[] = "root:x:0:\n"
	                             "sudo:x:27:\n"
	                             "hangar:x:999:\n"
	                             "staff:$1$abc$def:50:\n"
	                             "ops:!:60:\n"
	                             "none::70:\n";
	hp_err err = {{0}};
	hp_userdb *db = hp_etc_userdb_parse(passwd, strlen(passwd), "etc/passwd", groups,
	                                    strlen(groups), "etc/group", &err);
	assert_non_null(db);
	const char text[] = "root:*::\n"
	                    "sudo:$6$salt$hash::\n"
	                    "hangar:!:agent,ops:\n";
	/* (members: test_gshadow_members) */
	hp_gshadow *gs = hp_etc_gshadow_parse(text, strlen(text), "etc/gshadow", &err);
	assert_non_null(gs);
	assert_int_equal(hp_etc_group_password_state(db, gs, false, "etc/gshadow", "root", &err),
	                 HP_PW_LOCKED);
	assert_int_equal(hp_etc_group_password_state(db, gs, false, "etc/gshadow", "sudo", &err),
	                 HP_PW_HASH);
	const char *pw, *admins, *members;
	assert_true(hp_etc_gshadow_entry(gs, "hangar", &pw, &admins, &members));
	assert_string_equal(pw, "!");
	assert_string_equal(admins, "agent,ops");
	assert_string_equal(members, "");
	assert_false(hp_etc_gshadow_entry(gs, "staff", &pw, &admins, &members));
	/* no gshadow entry: etc/group's field, which newgrp then compares */
	assert_int_equal(hp_etc_group_password_state(db, gs, false, "etc/gshadow", "staff", &err),
	                 HP_PW_HASH);
	assert_int_equal(hp_etc_group_password_state(db, gs, false, "etc/gshadow", "ops", &err),
	                 HP_PW_LOCKED);
	assert_int_equal(hp_etc_group_password_state(db, gs, false, "etc/gshadow", "none", &err),
	                 HP_PW_EMPTY);
	hp_etc_gshadow_free(gs);
	/* no etc/gshadow at all: "x" is no crypt result */
	assert_int_equal(hp_etc_group_password_state(db, NULL, true, "etc/gshadow", "hangar", &err),
	                 HP_PW_LOCKED);
	/* one that could not be read: unknown */
	assert_int_equal(hp_etc_group_password_state(db, NULL, false, "etc/gshadow", "hangar", &err),
	                 HP_PW_UNKNOWN);
	assert_string_equal(err.msg, "etc/gshadow could not be read");
	assert_int_equal(hp_etc_group_password_state(db, NULL, true, "etc/gshadow", "wheel", &err),
	                 HP_PW_UNKNOWN);
	assert_string_equal(err.msg, "no group \"wheel\"");
	/* malformed: rejected whole, with the line */
	assert_null(hp_etc_gshadow_parse("root:*:\n", 8, "etc/gshadow", &err));
	assert_null(hp_etc_gshadow_parse("root:*::\nroot:!::\n", 18, "etc/gshadow", &err));
	assert_string_equal(err.msg, "etc/gshadow:2: duplicate group \"root\" (first at line 1)");
	hp_etc_userdb_free(db);
}

/* The fourth field: whom newgrp lets in without a password when the group
 * has an entry (it replaces etc/group's member list), kept as written. */
static void test_gshadow_members(void **state)
{
	(void)state;
	hp_err err = {{0}};
	const char text[] = "root:*::\n"
	                    "sudo:*::agent\n"
	                    "hangar:!:ops:agent,ops,driver\n"
	                    "docker:!::\n";
	hp_gshadow *gs = hp_etc_gshadow_parse(text, strlen(text), "etc/gshadow", &err);
	assert_non_null(gs);
	const char *pw, *admins, *members;
	assert_true(hp_etc_gshadow_entry(gs, "sudo", &pw, &admins, &members));
	assert_string_equal(pw, "*");
	assert_string_equal(admins, "");
	assert_string_equal(members, "agent");
	assert_true(hp_etc_gshadow_entry(gs, "hangar", &pw, &admins, &members));
	assert_string_equal(admins, "ops");
	assert_string_equal(members, "agent,ops,driver");
	assert_true(hp_etc_gshadow_entry(gs, "docker", &pw, &admins, &members));
	assert_string_equal(members, "");
	hp_etc_gshadow_free(gs);
}

/* A list newgrp or glibc could read differently from us is refused whole,
 * with file:line: an empty name (",agent" or "agent,"), a blank (glibc
 * skips one before a name, shadow's own reader keeps it), a control
 * character; the same for administrators. */
static void test_gshadow_lists_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"root:*::\nsudo:*::agent,\n", "etc/gshadow:2: empty name in the member list"},
	    {"sudo:*::,agent\n", "etc/gshadow:1: empty name in the member list"},
	    {"sudo:*::ops,,agent\n", "etc/gshadow:1: empty name in the member list"},
	    {"sudo:*::ops, agent\n",
	     "etc/gshadow:1: member name \" agent\" contains a blank or control character"},
	    {"sudo:*::agent \n",
	     "etc/gshadow:1: member name \"agent \" contains a blank or control character"},
	    {"sudo:*::ag\tent\n",
	     "etc/gshadow:1: member name \"ag\\x09ent\" contains a blank or control character"},
	    {"sudo:*::ag\x7f\n",
	     "etc/gshadow:1: member name \"ag\\x7f\" contains a blank or control character"},
	    {"sudo:*:,agent:\n", "etc/gshadow:1: empty name in the administrator list"},
	    {"sudo:*:agent ops:\n", "etc/gshadow:1: administrator name \"agent ops\" contains a "
	                           "blank or control character"},
	    /* a fifth field is no member list (newgrp's reader would refuse the line) */
	    {"sudo:*::agent:\n", NULL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		hp_err err = {{0}};
		hp_gshadow *gs = hp_etc_gshadow_parse(bad[i].text, strlen(bad[i].text),
		                                      "etc/gshadow", &err);
		if (gs)
			fail_msg("accepted: %s", bad[i].text);
		if (bad[i].msg)
			assert_string_equal(err.msg, bad[i].msg);
		else
			assert_true(strncmp(err.msg, "etc/gshadow:1: ", 15) == 0);
	}
}

/* A member list as long as a line may be (the colon reader's bound) is
 * read; one byte more is refused with the line, never cut. */
static void test_gshadow_members_bounded(void **state)
{
	(void)state;
	hp_buf b = {0};
	hp_buf_append(&b, "sudo:*::", 8);
	size_t names = 0;
	while (b.len + 7 <= HP_COLON_MAX_LINE) {
		char name[16];
		int n = snprintf(name, sizeof name, "%su%05zu", names ? "," : "", names);
		hp_buf_append(&b, name, (size_t)n);
		names++;
	}
	while (b.len < HP_COLON_MAX_LINE)
		hp_buf_putc(&b, 'x'); /* the last name longer, up to the line's bound */
	hp_buf_putc(&b, '\n');
	hp_err err = {{0}};
	hp_gshadow *gs = hp_etc_gshadow_parse(b.data, b.len, "etc/gshadow", &err);
	assert_non_null(gs);
	const char *pw, *admins, *members;
	assert_true(hp_etc_gshadow_entry(gs, "sudo", &pw, &admins, &members));
	assert_int_equal(strlen(members), HP_COLON_MAX_LINE - 8);
	assert_true(strncmp(members, "u00000,u00001,", 14) == 0);
	hp_etc_gshadow_free(gs);
	b.len--; /* the newline */
	hp_buf_append(&b, "y\n", 2);
	assert_null(hp_etc_gshadow_parse(b.data, b.len, "etc/gshadow", &err));
	assert_true(strncmp(err.msg, "etc/gshadow:1: ", 15) == 0);
	hp_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alpine_empty_root),
	    cmocka_unit_test(test_debian12_shadow),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_locked),
	    cmocka_unit_test(test_gshadow),
	    cmocka_unit_test(test_gshadow_members),
	    cmocka_unit_test(test_gshadow_lists_malformed),
	    cmocka_unit_test(test_gshadow_members_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
