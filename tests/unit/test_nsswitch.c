/* test_nsswitch.c: which sources nsswitch.conf names for passwd, group,
 * shadow and sudoers, and the three-valued "files only" answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_file.h"
#include "etc/nsswitch.h"

static hp_nsswitch ns;

static void parse(const char *text)
{
	hp_etc_nsswitch_parse(text, strlen(text), "etc/nsswitch.conf", &ns);
}

static void test_debian12(void **state)
{
	(void)state;
	size_t len;
	char *text = hp_fixture_read("tests/fixtures/etc/debian12/nsswitch.conf", &len);
	hp_etc_nsswitch_parse(text, len, "etc/nsswitch.conf", &ns);
	free(text);
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_FILES_SYSTEMD);
	assert_int_equal(ns.src[HP_NSS_GROUP], HP_NSS_FILES_SYSTEMD);
	assert_int_equal(ns.src[HP_NSS_SHADOW], HP_NSS_FILES_SYSTEMD);
	assert_int_equal(ns.src[HP_NSS_SUDOERS], HP_NSS_FILES);
	assert_string_equal(ns.why[HP_NSS_PASSWD],
	                    "etc/nsswitch.conf:7: passwd uses systemd, which "
	                    "adds the users of systemd's user records");
	assert_string_equal(ns.why[HP_NSS_SUDOERS],
	                    "etc/nsswitch.conf has no sudoers line: it comes from the files only");

	hp_err why = {{0}};
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_PASSWD, HP_FALSE, &why), HP_TRUE);
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_PASSWD, HP_TRUE, &why), HP_FALSE);
	assert_string_equal(why.msg, "etc/nsswitch.conf:7: passwd uses systemd, which adds the "
	                             "users of systemd's user records, and there are some");
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_GROUP, HP_UNKNOWN, &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/nsswitch.conf:8: group uses systemd, which adds the "
	                             "users of systemd's user records, and whether there are any "
	                             "is unknown");
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_SUDOERS, HP_TRUE, &why), HP_TRUE);
}

static void test_missing_file(void **state)
{
	(void)state;
	hp_etc_nsswitch_default(&ns, "etc/nsswitch.conf");
	for (int d = 0; d < HP_NSS_NDB; d++)
		assert_int_equal(ns.src[d], HP_NSS_FILES);
	assert_string_equal(ns.why[HP_NSS_SHADOW],
	                    "etc/nsswitch.conf does not exist: shadow comes from the files only");
	hp_err why;
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_GROUP, HP_UNKNOWN, &why), HP_TRUE);
	/* an empty file, or one without our databases, is the same */
	parse("# nothing\nhosts: files dns\n");
	for (int d = 0; d < HP_NSS_NDB; d++)
		assert_int_equal(ns.src[d], HP_NSS_FILES);
}

static void expect(hp_nss_db db, hp_nss_sources src, const char *why)
{
	assert_int_equal(ns.src[db], src);
	assert_string_equal(ns.why[db], why);
}

static void test_other_sources(void **state)
{
	(void)state;
	static const char *const others[] = {"ldap",    "sss",        "nis", "nisplus", "compat",
	                                     "winbind", "extrausers", "db",  "cache",   "Files"};
	for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
		char text[128], why[256];
		snprintf(text, sizeof text, "passwd: files %s\n", others[i]);
		parse(text);
		snprintf(why, sizeof why,
		         "etc/nsswitch.conf:1: passwd uses \"%s\", which can "
		         "supply entries that are not in the files",
		         others[i]);
		expect(HP_NSS_PASSWD, HP_NSS_OTHER, why);
		expect(HP_NSS_GROUP, HP_NSS_FILES,
		       "etc/nsswitch.conf has no group line: it comes from the files only");
		hp_err e;
		assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_PASSWD, HP_FALSE, &e),
		                 HP_FALSE);
		assert_string_equal(e.msg, why);
	}
	parse("passwd: files\ngroup: files\ninitgroups: files ldap\n");
	expect(
	    HP_NSS_GROUP, HP_NSS_OTHER,
	    "etc/nsswitch.conf:3: initgroups uses \"ldap\", which can supply entries that are not "
	    "in the files");
	expect(HP_NSS_PASSWD, HP_NSS_FILES, "etc/nsswitch.conf:1: passwd uses files only");
	parse("shadow: systemd\n");
	expect(HP_NSS_SHADOW, HP_NSS_OTHER,
	       "etc/nsswitch.conf:1: shadow uses systemd without files");
	/* every line counts, and the first that is not files decides */
	parse("passwd: files\npasswd: sss\npasswd: nis\n");
	expect(HP_NSS_PASSWD, HP_NSS_OTHER,
	       "etc/nsswitch.conf:2: passwd uses \"sss\", which can supply entries that are not in "
	       "the files");
	parse("passwd: files systemd\npasswd: files\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_FILES_SYSTEMD);
	/* database names in any case count */
	parse("PASSWD: ldap\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_OTHER);
}

static void test_sudoers_line(void **state)
{
	(void)state;
	parse("sudoers: files\n");
	expect(HP_NSS_SUDOERS, HP_NSS_FILES, "etc/nsswitch.conf:1: sudoers uses files only");
	parse("Sudoers: FILES [NOTFOUND=return]\n");
	assert_int_equal(ns.src[HP_NSS_SUDOERS], HP_NSS_FILES);
	parse("sudoers: files sss\n");
	expect(
	    HP_NSS_SUDOERS, HP_NSS_OTHER,
	    "etc/nsswitch.conf:1: sudoers uses \"sss\", which can supply entries that are not in "
	    "the files");
	parse("sudoers: ldap\n");
	assert_int_equal(ns.src[HP_NSS_SUDOERS], HP_NSS_OTHER);
	/* systemd is no sudoers source */
	parse("sudoers: files systemd\n");
	assert_int_equal(ns.src[HP_NSS_SUDOERS], HP_NSS_OTHER);
}

static void test_syntax(void **state)
{
	(void)state;
	parse("passwd:\tfiles  [NOTFOUND=return]  systemd # ldap\n"
	      "group : files [SUCCESS=merge !UNAVAIL=continue] # comment\n"
	      "#shadow: ldap\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_FILES_SYSTEMD);
	assert_int_equal(ns.src[HP_NSS_GROUP], HP_NSS_FILES);
	assert_int_equal(ns.src[HP_NSS_SHADOW], HP_NSS_FILES);
	parse("passwd files\n");
	expect(HP_NSS_PASSWD, HP_NSS_MALFORMED, "etc/nsswitch.conf:1: a passwd line without ':'");
	hp_err e;
	assert_int_equal(hp_etc_nsswitch_files_only(&ns, HP_NSS_PASSWD, HP_FALSE, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "etc/nsswitch.conf:1: a passwd line without ':'");
	parse("\n\ngroup:   \n");
	expect(HP_NSS_GROUP, HP_NSS_MALFORMED, "etc/nsswitch.conf:3: group names no service");
	parse("passwd: files [NOTFOUND]\n");
	expect(HP_NSS_PASSWD, HP_NSS_MALFORMED,
	       "etc/nsswitch.conf:1: passwd: an action block that cannot be read: \"[NOTFOUND]\"");
	parse("passwd: files [NOTFOUND=return\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_MALFORMED);
	parse("passwd: [NOTFOUND=return] files\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_MALFORMED);
	parse("passwd: files l\"dap\n");
	expect(HP_NSS_PASSWD, HP_NSS_MALFORMED,
	       "etc/nsswitch.conf:1: passwd: a service name that cannot be read: \"l\\x22dap\"");
	/* a malformed line for another database does not matter */
	parse("hosts: files [[[\npasswd: files\n");
	assert_int_equal(ns.src[HP_NSS_PASSWD], HP_NSS_FILES);
	static const char nul[] = "passwd: files\0ldap\n";
	hp_etc_nsswitch_parse(nul, sizeof nul - 1, "etc/nsswitch.conf", &ns);
	for (int d = 0; d < HP_NSS_NDB; d++)
		expect((hp_nss_db)d, HP_NSS_MALFORMED, "etc/nsswitch.conf: NUL byte in the file");
}

static void test_userdb_paths(void **state)
{
	(void)state;
	size_t n = 0;
	while (hp_etc_nss_userdb_paths[n]) {
		assert_int_equal(hp_etc_nss_userdb_paths[n][0], '/');
		n++;
	}
	assert_int_equal(n, 6);
	assert_string_equal(hp_etc_nss_userdb_paths[0], "/etc/userdb");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian12),      cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_other_sources), cmocka_unit_test(test_sudoers_line),
	    cmocka_unit_test(test_syntax),        cmocka_unit_test(test_userdb_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
