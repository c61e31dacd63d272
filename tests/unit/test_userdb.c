/* test_userdb.c: etc/passwd and etc/group parsing, lookups, a user's groups,
 * and every fail-closed rule with its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_file.h"
#include "etc/userdb.h"

static const char base_group[] = "root:x:0:\nagent:x:1000:\n";

static hp_userdb *parse(const char *pw, const char *gr, hp_err *err)
{
	return hp_etc_userdb_parse(pw, strlen(pw), "etc/passwd", gr, strlen(gr), "etc/group", err);
}

/* Parsing fails with exactly this message. */
static void expect_error(const char *pw, const char *gr, const char *msg)
{
	hp_err err = {{0}};
	hp_userdb *db = parse(pw, gr, &err);
	assert_null(db);
	assert_string_equal(err.msg, msg);
}

static void expect_passwd_error(const char *pw, const char *msg)
{
	expect_error(pw, base_group, msg);
}

static void test_debian12(void **state)
{
	(void)state;
	size_t pl, gl;
	char *pw = hp_fixture_read("tests/fixtures/etc/debian12/passwd", &pl);
	char *gr = hp_fixture_read("tests/fixtures/etc/debian12/group", &gl);
	hp_err err = {{0}};
	hp_userdb *db = hp_etc_userdb_parse(pw, pl, "etc/passwd", gr, gl, "etc/group", &err);
	assert_non_null(db);
	assert_int_equal(hp_etc_userdb_nusers(db), 18);
	assert_int_equal(hp_etc_userdb_ngroups(db), 38);
	assert_int_equal(hp_etc_userdb_nfindings(db), 0);

	const hp_user *root = hp_etc_userdb_user(db, "root");
	assert_non_null(root);
	assert_int_equal(root->uid, 0);
	assert_int_equal(root->gid, 0);
	assert_string_equal(root->home, "/root");
	assert_string_equal(root->shell, "/bin/bash");
	assert_string_equal(root->passwd, "x");
	assert_int_equal(root->line, 1);

	const hp_user *nobody = hp_etc_userdb_user_by_uid(db, 65534);
	assert_non_null(nobody);
	assert_string_equal(nobody->name, "nobody");
	const hp_user *apt = hp_etc_userdb_user(db, "_apt");
	assert_non_null(apt);
	assert_int_equal(apt->uid, 42);
	assert_int_equal(apt->gid, 65534);
	assert_string_equal(apt->gecos, "");
	const hp_user *list = hp_etc_userdb_user(db, "list");
	assert_string_equal(list->gecos, "Mailing List Manager");

	const hp_group *sudo = hp_etc_userdb_group(db, "sudo");
	assert_non_null(sudo);
	assert_int_equal(sudo->gid, 27);
	assert_int_equal(sudo->nmembers, 0);
	assert_string_equal(hp_etc_userdb_group_by_gid(db, 65534)->name, "nogroup");

	assert_null(hp_etc_userdb_user(db, "agent"));
	assert_null(hp_etc_userdb_user(db, "roo"));
	assert_null(hp_etc_userdb_user(db, ""));
	assert_null(hp_etc_userdb_user_by_uid(db, 1000));
	assert_null(hp_etc_userdb_group(db, "wheel"));
	assert_null(hp_etc_userdb_group_by_gid(db, 4242));

	hp_user_groups g;
	hp_etc_userdb_user_groups(db, root, &g);
	assert_int_equal(g.ngids, 1);
	assert_int_equal(g.gids[0], 0);
	assert_int_equal(g.nnames, 1);
	assert_string_equal(g.names[0], "root");
	hp_etc_user_groups_free(&g);

	hp_etc_userdb_free(db);
	free(pw);
	free(gr);
}

static void test_user_groups(void **state)
{
	(void)state;
	hp_err err = {{0}};
	hp_userdb *db = parse("root:x:0:0:root:/root:/bin/bash\n"
	                      "agent:x:1000:1000::/home/agent:/bin/bash\n"
	                      "bob:x:1001:1001::/home/bob:/bin/sh\n"
	                      "ghost:x:1002:4242::/:/bin/sh\n",
	                      "root:x:0:\n"
	                      "sudo:x:27:bob,agent\n"
	                      "agent:x:1000:\n"
	                      "docker:x:999:agent,agent\n"
	                      "admin:x:27:agent\n"
	                      "bob:x:1001:\n"
	                      "staff:x:50:bob\n",
	                      &err);
	assert_non_null(db);

	hp_user_groups g;
	hp_etc_userdb_user_groups(db, hp_etc_userdb_user(db, "agent"), &g);
	/* primary first, then memberships in file order, no duplicate gids */
	assert_int_equal(g.ngids, 3);
	assert_int_equal(g.gids[0], 1000);
	assert_int_equal(g.gids[1], 27);
	assert_int_equal(g.gids[2], 999);
	/* every name of every gid: sudo and admin share 27 */
	assert_int_equal(g.nnames, 4);
	assert_string_equal(g.names[0], "agent");
	assert_string_equal(g.names[1], "sudo");
	assert_string_equal(g.names[2], "admin");
	assert_string_equal(g.names[3], "docker");
	hp_etc_user_groups_free(&g);

	hp_etc_userdb_user_groups(db, hp_etc_userdb_user(db, "bob"), &g);
	assert_int_equal(g.ngids, 3);
	assert_int_equal(g.gids[0], 1001);
	assert_int_equal(g.gids[1], 27);
	assert_int_equal(g.gids[2], 50);
	hp_etc_user_groups_free(&g);

	/* a primary gid without a group entry has no name */
	hp_etc_userdb_user_groups(db, hp_etc_userdb_user(db, "ghost"), &g);
	assert_int_equal(g.ngids, 1);
	assert_int_equal(g.gids[0], 4242);
	assert_int_equal(g.nnames, 0);
	hp_etc_user_groups_free(&g);

	const hp_group *sudo = hp_etc_userdb_group(db, "sudo");
	assert_int_equal(sudo->nmembers, 2);
	assert_string_equal(sudo->members[0], "bob");
	assert_string_equal(sudo->members[1], "agent");
	/* by gid: the first group in file order, as getgrgid */
	assert_string_equal(hp_etc_userdb_group_by_gid(db, 27)->name, "sudo");
	hp_etc_userdb_free(db);
}

static void test_first_by_uid_and_uid0_findings(void **state)
{
	(void)state;
	hp_err err = {{0}};
	hp_userdb *db = parse("root:x:0:0:root:/root:/bin/bash\n"
	                      "toor:x:0:0::/root:/bin/sh\n"
	                      "agent:x:1000:1000::/home/agent:/bin/bash\n"
	                      "admin:x:1000:1000::/home/admin:/bin/bash\n"
	                      "zero:x:000:0::/:/bin/sh\n",
	                      base_group, &err);
	assert_non_null(db);
	assert_string_equal(hp_etc_userdb_user_by_uid(db, 0)->name, "root");
	assert_string_equal(hp_etc_userdb_user_by_uid(db, 1000)->name, "agent");
	assert_int_equal(hp_etc_userdb_user(db, "zero")->uid, 0);
	assert_int_equal(hp_etc_userdb_nfindings(db), 2);
	assert_string_equal(hp_etc_userdb_finding(db, 0),
	                    "etc/passwd:2: account \"toor\" has uid 0 besides root");
	assert_string_equal(hp_etc_userdb_finding(db, 1),
	                    "etc/passwd:5: account \"zero\" has uid 0 besides root");
	assert_null(hp_etc_userdb_finding(db, 2));
	hp_etc_userdb_free(db);
}

static void test_layout_tolerance(void **state)
{
	(void)state;
	hp_err err = {{0}};
	/* blank lines are skipped, the last line needs no newline, ids may
	 * have leading zeros, fields other than ids may be empty */
	hp_userdb *db = parse("\nroot:x:0:0:root:/root:/bin/bash\n  \n\t\nagent::01000:1000:::",
	                      "root:x:0:\n\nagent:x:1000:", &err);
	assert_non_null(db);
	assert_int_equal(hp_etc_userdb_nusers(db), 2);
	const hp_user *a = hp_etc_userdb_user(db, "agent");
	assert_int_equal(a->uid, 1000);
	assert_int_equal(a->line, 5);
	assert_string_equal(a->passwd, "");
	assert_string_equal(a->shell, "");
	assert_int_equal(hp_etc_userdb_group(db, "agent")->line, 3);
	hp_etc_userdb_free(db);

	db = parse("", "", &err);
	assert_non_null(db);
	assert_int_equal(hp_etc_userdb_nusers(db), 0);
	assert_null(hp_etc_userdb_user(db, "root"));
	hp_etc_userdb_free(db);

	/* the largest id is (uid_t)-2 */
	db = parse("big:x:4294967294:4294967294::/:/bin/sh\n", "big:x:4294967294:\n", &err);
	assert_non_null(db);
	assert_int_equal(hp_etc_userdb_user(db, "big")->uid, 4294967294u);
	hp_etc_userdb_free(db);
}

static void test_id_errors(void **state)
{
	(void)state;
	expect_passwd_error("a:x:abc:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid \"abc\" is not a decimal number");
	expect_passwd_error("a:x: 1:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid \" 1\" is not a decimal number");
	expect_passwd_error("a:x:1x:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid \"1x\" is not a decimal number");
	expect_passwd_error("a:x:+1:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid \"+1\" is not a decimal number");
	expect_passwd_error(
	    "a:x:-1:0::/:/bin/sh\n",
	    "etc/passwd:1: uid \"-1\" is negative (-1 is (uid_t)-1, which setresuid "
	    "reads as 'unchanged')");
	expect_passwd_error("a:x:4294967295:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid 4294967295 is (uid_t)-1, which setresuid reads as "
	                    "'unchanged'");
	expect_passwd_error("a:x:004294967295:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid 4294967295 is (uid_t)-1, which setresuid reads as "
	                    "'unchanged'");
	expect_passwd_error(
	    "a:x:4294967296:0::/:/bin/sh\n",
	    "etc/passwd:1: uid \"4294967296\" is out of range (largest is 4294967294)");
	expect_passwd_error("a:x:99999999999999999999999999:0::/:/bin/sh\n",
	                    "etc/passwd:1: uid \"99999999999999999999999999\" is out of range "
	                    "(largest is 4294967294)");
	expect_passwd_error("a:x::0::/:/bin/sh\n", "etc/passwd:1: empty uid (glibc reads it as 0)");
	expect_passwd_error("a:x:1::::\n", "etc/passwd:1: empty gid (glibc reads it as 0)");
	expect_passwd_error(
	    "a:x:1:-1:::\n",
	    "etc/passwd:1: gid \"-1\" is negative (-1 is (gid_t)-1, which setresgid "
	    "reads as 'unchanged')");
	expect_error(
	    "root:x:0:0::/:/bin/sh\n", "g:x:4294967295:\n",
	    "etc/group:1: gid 4294967295 is (gid_t)-1, which setresgid reads as 'unchanged'");
	expect_error("root:x:0:0::/:/bin/sh\n", "g:x:wheel:\n",
	             "etc/group:1: gid \"wheel\" is not a decimal number");
}

static void test_line_errors(void **state)
{
	(void)state;
	expect_passwd_error("root:x:0:0:root:/root:/bin/bash\nagent:x:1000:1000::/home/agent\n",
	                    "etc/passwd:2: 6 fields, expected 7 (name:password:uid:gid:gecos:home:"
	                    "shell)");
	expect_passwd_error("a:x:1:1::/:/bin/sh:extra\n",
	                    "etc/passwd:1: 8 fields, expected 7 (name:password:uid:gid:gecos:home:"
	                    "shell)");
	expect_error("root:x:0:0::/:/bin/sh\n", "sudo:x:27\n",
	             "etc/group:1: 3 fields, expected 4 (name:password:gid:members)");
	expect_passwd_error("root:x:0:0::/:/bin/sh\r\n",
	                    "etc/passwd:1: carriage return in line (libcs disagree on CRLF files)");
	expect_passwd_error(
	    "# users\nroot:x:0:0::/:/bin/sh\n",
	    "etc/passwd:1: comment line (musl reads it as an entry, glibc skips it)");
	expect_passwd_error(
	    "root:x:0:0::/:/bin/sh\n toor:x:0:0::/:/bin/sh\n",
	    "etc/passwd:2: line starts with a blank (glibc skips it, musl does not)");
	expect_passwd_error("root:x:0:0::/:/bin/sh\n\n+::::::\n",
	                    "etc/passwd:3: NIS compat line starting with '+' (entries from NIS "
	                    "cannot be checked)");
	expect_passwd_error("-agent::::::\n",
	                    "etc/passwd:1: NIS compat line starting with '-' (entries from NIS "
	                    "cannot be checked)");
	expect_error("root:x:0:0::/:/bin/sh\n", "root:x:0:\n+@admins:x::\n",
	             "etc/group:2: NIS compat line starting with '+' (entries from NIS cannot be "
	             "checked)");
	expect_passwd_error(":x:0:0::/:/bin/sh\n", "etc/passwd:1: empty user name");
	expect_error("root:x:0:0::/:/bin/sh\n", ":x:0:\n", "etc/group:1: empty group name");
	expect_passwd_error(
	    "a b:x:1:1::/:/bin/sh\n",
	    "etc/passwd:1: user name \"a b\" contains a blank or control character");
	expect_passwd_error("a\x1b[31m:x:1:1::/:/bin/sh\n",
	                    "etc/passwd:1: user name \"a\\x1b[31m\" contains a blank or control "
	                    "character");
	expect_passwd_error(
	    "root:x:0:0::/:/bin/sh\nagent:x:1:1::/:/bin/sh\nroot:x:5:5::/:/bin/sh\n",
	    "etc/passwd:3: duplicate user \"root\" (first at line 1)");
	expect_error("root:x:0:0::/:/bin/sh\n", "sudo:x:27:\nwheel:x:10:\nsudo:x:28:\n",
	             "etc/group:3: duplicate group \"sudo\" (first at line 1)");
	expect_error("root:x:0:0::/:/bin/sh\n", "sudo:x:27:a,,b\n",
	             "etc/group:1: empty member name in the member list");
	expect_error("root:x:0:0::/:/bin/sh\n", "sudo:x:27:a,\n",
	             "etc/group:1: empty member name in the member list");
	expect_error("root:x:0:0::/:/bin/sh\n", "sudo:x:27:a, b\n",
	             "etc/group:1: member name \" b\" contains a blank or control character");
	/* quotes in names are escaped in messages */
	expect_passwd_error("a\"b:x:1:1::/:/bin/sh\na\"b:x:1:1::/:/bin/sh\n",
	                    "etc/passwd:2: duplicate user \"a\\x22b\" (first at line 1)");
}

static void test_nul_long_and_many(void **state)
{
	(void)state;
	hp_err err = {{0}};
	static const char nul[] = "root:x:0:0::/:/bin/sh\nag\0ent:x:1:1::/:/bin/sh\n";
	assert_null(hp_etc_userdb_parse(nul, sizeof nul - 1, "etc/passwd", base_group,
	                            strlen(base_group), "etc/group", &err));
	assert_string_equal(err.msg, "etc/passwd:2: NUL byte in line");

	/* a line of exactly the limit is fine, one more byte is not */
	size_t n = HP_COLON_MAX_LINE + 64;
	char *big = malloc(n + 1);
	memcpy(big, "a:x:1:1:", 8);
	size_t gecos = HP_COLON_MAX_LINE - strlen("a:x:1:1:::/bin/sh");
	memset(big + 8, 'g', gecos);
	strcpy(big + 8 + gecos, "::/bin/sh\n");
	assert_int_equal(strlen(big), HP_COLON_MAX_LINE + 1);
	hp_userdb *db = parse(big, base_group, &err);
	assert_non_null(db);
	hp_etc_userdb_free(db);
	memcpy(big, "a:x:1:1:g", 9);
	strcpy(big + 8 + gecos, "g::/bin/sh");
	expect_passwd_error(big, "etc/passwd:1: line longer than 65536 bytes");
	free(big);

	size_t count = HP_COLON_MAX_ENTRIES + 1;
	char *many = malloc(count * 32);
	char *p = many;
	for (size_t i = 0; i < count; i++)
		p += sprintf(p, "u%zu:x:%zu:1::/:/bin/sh\n", i, i + 1);
	expect_passwd_error(many, "etc/passwd:100001: more than 100000 entries");
	free(many);
}

/* 10,000 users and 10,000 groups, every user in 3 groups: parsing and the
 * lookups policies make stay linear. The budget is generous (a loaded or
 * sanitized build is slower); quadratic behaviour would blow it many times. */
static void test_scale(void **state)
{
	(void)state;
	enum { N = 10000 };
	char *pw = malloc(N * 64), *gr = malloc(N * 96);
	char *p = pw, *q = gr;
	for (int i = 0; i < N; i++) {
		p += sprintf(p, "user%d:x:%d:%d:User %d:/home/user%d:/bin/bash\n", i, 1000 + i,
		             1000 + i, i, i);
		q += sprintf(q, "group%d:x:%d:user%d,user%d,user%d\n", i, 1000 + i, i, (i + 1) % N,
		             (i + 2) % N);
	}
	hp_err err = {{0}};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	hp_userdb *db = hp_etc_userdb_parse(pw, (size_t)(p - pw), "etc/passwd", gr, (size_t)(q - gr),
	                                "etc/group", &err);
	assert_non_null(db);
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "user%d", i);
		const hp_user *u = hp_etc_userdb_user(db, name);
		assert_non_null(u);
		assert_ptr_equal(hp_etc_userdb_user_by_uid(db, 1000u + (unsigned)i), u);
		hp_user_groups g;
		hp_etc_userdb_user_groups(db, u, &g);
		assert_int_equal(g.ngids, 3);
		hp_etc_user_groups_free(&g);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	assert_true(ms < 250.0);
	hp_etc_userdb_free(db);
	free(pw);
	free(gr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian12),
	    cmocka_unit_test(test_user_groups),
	    cmocka_unit_test(test_first_by_uid_and_uid0_findings),
	    cmocka_unit_test(test_layout_tolerance),
	    cmocka_unit_test(test_id_errors),
	    cmocka_unit_test(test_line_errors),
	    cmocka_unit_test(test_nul_long_and_many),
	    cmocka_unit_test(test_scale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
