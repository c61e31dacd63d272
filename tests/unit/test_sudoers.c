/* test_sudoers.c: the sudoers reading end to end: real distribution files,
 * the grants hangar cares about (sudo group, E2B's NOPASSWD user, aliases,
 * includedir drop-ins, CVE-2019-14287), the rule semantics (negation, last
 * match, uncertain matches), includes and their bounds, sudo.conf and
 * nsswitch, and every problem message, pinned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_file.h"
#include "etc/sudoers/sudoers.h"
#include "etc/sudoers/sudoers_memfs.h"

/* Users: agent (1000, in docker), bob (1001, in sudo), Carol (1002),
 * alias1000 (a second name for uid 1000, after agent), admin2 (1003,
 * primary group admin, which shares gid 27 with sudo). */
static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
                             "agent:x:1000:1000::/home/agent:/bin/bash\n"
                             "bob:x:1001:1001::/home/bob:/bin/bash\n"
                             "Carol:x:1002:1002::/home/carol:/bin/bash\n"
                             "alias1000:x:1000:1000::/home/agent:/bin/bash\n"
                             "admin2:x:1003:27::/home/admin2:/bin/bash\n";
static const char group[] = "root:x:0:\n"
                            "sudo:x:27:bob\n"
                            "admin:x:27:\n"
                            "agent:x:1000:\n"
                            "bob:x:1001:\n"
                            "carol:x:1002:\n"
                            "docker:x:999:agent\n"
                            "Wheel:x:10:agent\n";

static hp_userdb *db;

static int setup(void **state)
{
	(void)state;
	hp_err err;
	db = hp_etc_userdb_parse(passwd, strlen(passwd), "etc/passwd", group, strlen(group),
	                     "etc/group", &err);
	return db ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	hp_etc_userdb_free(db);
	return 0;
}

/* Load files given as path, text, path, text, ..., NULL. */
static hp_sudoers *load_files(const char *first, ...)
{
	static hp_memfile files[16];
	static hp_memfs fs;
	size_t n = 0;
	va_list ap;
	va_start(ap, first);
	for (const char *p = first; p && n < 16; p = va_arg(ap, const char *)) {
		const char *text = va_arg(ap, const char *);
		files[n++] = (hp_memfile){p, text, strlen(text)};
	}
	va_end(ap);
	fs = (hp_memfs){files, n};
	hp_sudo_files cb = hp_sudoers_memfs_callbacks(&fs);
	return hp_sudoers_load("/etc/sudoers", &cb);
}

static hp_tri grants(hp_sudoers *s, const char *user, hp_sudo_verdict *v)
{
	return hp_sudoers_grants_user(s, db, user, v);
}

/* The answer for user from a single /etc/sudoers, and its reason. */
static void expect(const char *text, const char *user, hp_tri want, const char *why)
{
	hp_sudoers *s = load_files("/etc/sudoers", text, NULL);
	hp_sudo_verdict v;
	hp_tri got = grants(s, user, &v);
	if (got != want || (why && strcmp(v.why, why) != 0))
		print_message("sudoers:\n%s\nuser %s: got %d (%s)\n", text, user, got, v.why);
	assert_int_equal(got, want);
	if (why)
		assert_string_equal(v.why, why);
	hp_sudoers_free(s);
}

static void expect_problem(const char *text, const char *problem)
{
	hp_sudoers *s = load_files("/etc/sudoers", text, NULL);
	if (hp_sudoers_nproblems(s) != 1 || strcmp(hp_sudoers_problem(s, 0), problem) != 0)
		print_message("sudoers:\n%s\nproblems: %zu, first: %s\n", text,
		              hp_sudoers_nproblems(s),
		              hp_sudoers_problem(s, 0) ? hp_sudoers_problem(s, 0) : "(none)");
	assert_int_equal(hp_sudoers_nproblems(s), 1);
	assert_string_equal(hp_sudoers_problem(s, 0), problem);
	hp_sudo_verdict v;
	assert_int_equal(grants(s, "agent", &v), HP_UNKNOWN);
	assert_string_equal(v.why, problem);
	hp_sudoers_free(s);
}

static void test_debian12(void **state)
{
	(void)state;
	size_t n1, n2;
	char *sudoers = hp_fixture_read("tests/fixtures/etc/debian12/sudoers", &n1);
	char *readme = hp_fixture_read("tests/fixtures/etc/debian12/sudoers.d/README", &n2);
	hp_sudoers *s = load_files("/etc/sudoers", sudoers, "/etc/sudoers.d/README", readme, NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(hp_sudoers_nfiles(s), 2);
	hp_sudo_verdict v;
	assert_int_equal(grants(s, "root", &v), HP_TRUE);
	assert_string_equal(v.why, "/etc/sudoers:47: \"root ALL=(ALL:ALL) ALL\" grants root");
	assert_false(v.nopasswd);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	assert_string_equal(v.why, "/etc/sudoers:50: \"%sudo ALL=(ALL:ALL) ALL\" grants bob");
	assert_int_equal(grants(s, "agent", &v), HP_FALSE);
	assert_string_equal(v.why, "no rule in the 2 sudoers files read grants agent");
	/* admin2's primary group is gid 27, named sudo by the first group entry */
	assert_int_equal(grants(s, "admin2", &v), HP_TRUE);
	assert_int_equal(grants(s, "nobody", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "no user \"nobody\" in the passwd file");
	hp_sudoers_free(s);
	free(sudoers);
	free(readme);
}

static void test_ubuntu_and_e2b(void **state)
{
	(void)state;
	/* Ubuntu's sudoers, with the agent added to sudo */
	static const char ubuntu[] =
	    "Defaults\tenv_reset\n"
	    "Defaults\tmail_badpass\n"
	    "Defaults\tsecure_path=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:"
	    "/usr/bin:/sbin:/bin:/snap/bin\"\n"
	    "Defaults\tuse_pty\n"
	    "root\tALL=(ALL:ALL) ALL\n"
	    "%admin ALL=(ALL) ALL\n"
	    "%sudo\tALL=(ALL:ALL) ALL\n"
	    "@includedir /etc/sudoers.d\n";
	hp_sudoers *s =
	    load_files("/etc/sudoers", ubuntu, "/etc/sudoers.d/README", "# nothing\n", NULL);
	hp_sudo_verdict v;
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	assert_string_equal(v.why, "/etc/sudoers:7: \"%sudo ALL=(ALL:ALL) ALL\" grants bob");
	/* admin2 is in gid 27: by name "sudo" (getgrgid's answer) and by gid
	 * "admin" too */
	assert_int_equal(grants(s, "admin2", &v), HP_TRUE);
	assert_int_equal(grants(s, "agent", &v), HP_FALSE);
	hp_sudoers_free(s);

	/* E2B's base image: the sandbox user may run anything without a password */
	s = load_files("/etc/sudoers", ubuntu, "/etc/sudoers.d/agent",
	               "agent ALL=(ALL:ALL) NOPASSWD: ALL\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_true(v.nopasswd);
	assert_string_equal(v.why, "/etc/sudoers.d/agent:1: \"agent ALL=(ALL:ALL) NOPASSWD: ALL\" "
	                           "grants agent without a password");
	hp_sudoers_free(s);
}

static void test_grants(void **state)
{
	(void)state;
	/* CVE-2019-14287: a runas list that excludes root still grants */
	expect("agent ALL=(ALL, !root) /usr/bin/vim\n", "agent", HP_TRUE,
	       "/etc/sudoers:1: \"agent ALL=(ALL, !root) /usr/bin/vim\" grants agent");
	/* ALL with exceptions is still ALL */
	expect("agent ALL = ALL, !/bin/sh, !/bin/bash\n", "agent", HP_TRUE, NULL);
	/* any single command, sudoedit, list, a directory, a regex, a digest */
	expect("agent ALL = /usr/bin/apt update\n", "agent", HP_TRUE, NULL);
	expect("agent ALL = sudoedit /etc/motd\n", "agent", HP_TRUE, NULL);
	expect("agent ALL = list\n", "agent", HP_TRUE, NULL);
	expect("agent ALL = /usr/local/bin/\n", "agent", HP_TRUE, NULL);
	expect("agent ALL = ^/usr/sbin/(user|group)(add|del)$\n", "agent", HP_TRUE, NULL);
	expect(
	    "agent ALL = sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef "
	    "/bin/ls\n",
	    "agent", HP_TRUE, NULL);
	/* options and tags never take a grant away */
	expect("agent ALL = (root) NOTAFTER=20000101000000Z CWD=* TIMEOUT=1m NOEXEC: NOPASSWD: "
	       "/bin/true\n",
	       "agent", HP_TRUE, NULL);
	/* by uid, by group, by gid, the primary group */
	expect("#1000 ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("%docker ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("%#999 ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("%agent ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("%#1000 ALL = ALL\n", "agent", HP_TRUE, NULL);
	/* a user who is not named does not get it */
	expect("bob ALL = ALL\n%sudo ALL = ALL\n#1001 ALL=ALL\n", "agent", HP_FALSE, NULL);
	/* a rule for another host may apply: the host name is not known */
	expect("agent buildhost = ALL\n", "agent", HP_TRUE, NULL);
	expect("agent 10.0.0.0/8, !buildhost = ALL\n", "agent", HP_TRUE, NULL);
	/* a later host section of the same rule */
	expect("agent !ALL = ALL : ALL = /bin/ls\n", "agent", HP_TRUE,
	       "/etc/sudoers:1: \"agent !ALL = ALL : ALL = /bin/ls\" grants agent");
}

static void test_nopasswd(void **state)
{
	(void)state;
	hp_sudoers *s = load_files(
	    "/etc/sudoers", "agent ALL = /bin/ls, NOPASSWD: /bin/cat, PASSWD: /bin/df\n", NULL);
	hp_sudo_verdict v;
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_true(v.nopasswd);
	hp_sudoers_free(s);

	s = load_files("/etc/sudoers", "agent ALL = NOPASSWD: !/bin/ls, PASSWD: /bin/cat\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_false(v.nopasswd);
	hp_sudoers_free(s);

	/* Defaults !authenticate makes every rule it covers passwordless */
	s = load_files("/etc/sudoers",
	               "Defaults:agent !authenticate\nagent ALL = /bin/ls\n"
	               "bob ALL = /bin/ls\n",
	               NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_true(v.nopasswd);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	assert_false(v.nopasswd);
	hp_sudoers_free(s);
	s = load_files("/etc/sudoers", "Defaults>root !authenticate\nbob ALL = /bin/ls\n", NULL);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	assert_true(v.nopasswd);
	hp_sudoers_free(s);
	/* the first rule that needs no password is the evidence */
	s = load_files("/etc/sudoers", "agent ALL = /bin/ls\n%docker ALL = NOPASSWD: ALL\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_true(v.nopasswd);
	assert_string_equal(v.why, "/etc/sudoers:2: \"%docker ALL = NOPASSWD: ALL\" grants agent "
	                           "without a password");
	hp_sudoers_free(s);
}

static void test_negation(void **state)
{
	(void)state;
	/* the last member that matches decides */
	expect("ALL, !agent ALL = ALL\n", "agent", HP_FALSE, NULL);
	expect("ALL, !agent ALL = ALL\n", "bob", HP_TRUE, NULL);
	expect("!agent, ALL ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("!!agent ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("!bob ALL = ALL\n", "agent", HP_FALSE, NULL);
	expect("ALL, !%docker ALL = ALL\n", "agent", HP_FALSE, NULL);
	expect("ALL, !#1000 ALL = ALL\n", "agent", HP_FALSE, NULL);
	/* only negated commands grant nothing */
	expect("agent ALL = !ALL\n", "agent", HP_FALSE, NULL);
	expect("agent ALL = !/bin/sh, !/bin/bash\n", "agent", HP_FALSE, NULL);
	/* a host list that can never match */
	expect("agent !ALL = ALL\n", "agent", HP_FALSE, NULL);
	/* negated aliases flip what they hold */
	expect("User_Alias EVERYONE_BUT = ALL, !agent\nEVERYONE_BUT ALL = ALL\n", "agent", HP_FALSE,
	       NULL);
	expect("User_Alias EVERYONE_BUT = ALL, !agent\nALL, !EVERYONE_BUT ALL = ALL\n", "agent",
	       HP_TRUE, NULL);
	expect("Cmnd_Alias SHELLS = !/bin/sh\nagent ALL = SHELLS\n", "agent", HP_FALSE, NULL);
	expect("Cmnd_Alias SHELLS = !/bin/sh\nagent ALL = !SHELLS\n", "agent", HP_TRUE, NULL);
	expect("Cmnd_Alias SHELLS = /bin/sh\nagent ALL = !SHELLS\n", "agent", HP_FALSE, NULL);
	/* an undefined Cmnd_Alias matches nothing */
	expect("agent ALL = NOSUCH\n", "agent", HP_FALSE, NULL);
}

static void test_aliases(void **state)
{
	(void)state;
	expect("User_Alias ADMINS = bob, OPS\n"
	       "User_Alias OPS = %docker\n"
	       "Host_Alias HERE = ALL\n"
	       "Runas_Alias R = root, operator\n"
	       "Cmnd_Alias UPDATE = /usr/bin/apt update, /usr/bin/apt upgrade\n"
	       "Cmd_Alias MORE = UPDATE\n"
	       "ADMINS HERE = (R) MORE\n",
	       "agent", HP_TRUE, "/etc/sudoers:7: \"ADMINS HERE = (R) MORE\" grants agent");
	expect("User_Alias A = bob : B = agent\nB ALL = ALL\n", "agent", HP_TRUE, NULL);
	/* an undefined user alias is matched as a name (case aside) */
	expect("AGENTS ALL = ALL\n", "agent", HP_FALSE, NULL);
	/* a Host_Alias that excludes every host */
	expect("Host_Alias NOWHERE = !ALL\nagent NOWHERE = ALL\n", "agent", HP_FALSE, NULL);
	/* duplicate and self-referring aliases are problems */
	expect_problem("User_Alias A = bob\nUser_Alias A = agent\nA ALL = ALL\n",
	               "/etc/sudoers:2: User_Alias A is defined twice (first at /etc/sudoers:1)");
	expect_problem("User_Alias A = B\nUser_Alias B = bob, A\nA ALL = ALL\n",
	               "/etc/sudoers:1: User_Alias A refers to itself (through B)");
	/* the same name for two kinds is allowed */
	expect("User_Alias X = agent\nCmnd_Alias X = /bin/ls\nX ALL = X\n", "agent", HP_TRUE, NULL);
}

static void test_uncertain(void **state)
{
	(void)state;
	expect("+admins ALL = ALL\n", "agent", HP_UNKNOWN,
	       "/etc/sudoers:1: \"+admins ALL = ALL\" may grant agent: netgroup +admins cannot be "
	       "checked offline");
	/* sudo compares names without regard to case by default, but not
	 * every version does */
	expect("AGENT_ ALL = ALL\nAgent ALL = ALL\n", "agent", HP_UNKNOWN,
	       "/etc/sudoers:2: \"Agent ALL = ALL\" may grant agent: user \"Agent\" matches "
	       "\"agent\" only if case is ignored (sudo's case_insensitive_user)");
	expect("%wheel ALL = ALL\n", "agent", HP_UNKNOWN,
	       "/etc/sudoers:1: \"%wheel ALL = ALL\" may grant agent: group \"wheel\" matches "
	       "\"Wheel\" only if case is ignored (sudo's case_insensitive_group)");
	/* by name admin2's gid 27 is "sudo", by gid "admin" is 27 too */
	expect("%admin ALL = ALL\n", "admin2", HP_UNKNOWN,
	       "/etc/sudoers:1: \"%admin ALL = ALL\" may grant admin2: %admin matches by gid or by "
	       "name, not both (sudo's match_group_by_gid)");
	/* uncertainty under a negation is uncertainty too */
	expect("ALL, !+admins ALL = ALL\n", "agent", HP_UNKNOWN, NULL);
	/* a certain grant elsewhere decides */
	expect("+admins ALL = ALL\nagent ALL = /bin/ls\n", "agent", HP_TRUE, NULL);
	/* non-Unix groups only match through a group plugin */
	expect("%:admins ALL = ALL\n", "agent", HP_FALSE, NULL);
	expect("Defaults group_plugin=\"sample_group.so /etc/sudo-group\"\n%:admins ALL = ALL\n",
	       "agent", HP_UNKNOWN,
	       "/etc/sudoers:2: \"%:admins ALL = ALL\" may grant agent: non-Unix group %:admins is "
	       "answered by the group plugin");
	/* uid 1000 has a second name; sudo sees the first, agent */
	expect("alias1000 ALL = ALL\n", "alias1000", HP_FALSE, NULL);
	expect("agent ALL = ALL\n", "alias1000", HP_TRUE,
	       "/etc/sudoers:1: \"agent ALL = ALL\" grants agent");
	/* a negative uid is read differently by sudo versions */
	expect("#-1 ALL = ALL\n#4294967295 ALL = ALL\n", "agent", HP_FALSE, NULL);
}

static void test_syntax(void **state)
{
	(void)state;
	/* comments, continuations, quotes, escapes */
	expect("# agent ALL = ALL\n"
	       "bob ALL = ALL # agent ALL = ALL\n"
	       "agent \\\n"
	       "  ALL = \\\n"
	       "  /bin/ls\n",
	       "agent", HP_TRUE, "/etc/sudoers:3: \"agent \\x5c\" grants agent");
	expect("\"agent\" ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("ag\\x65nt ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("\"%docker\" ALL = ALL\n", "agent", HP_TRUE, NULL);
	expect("bob ALL = /bin/echo a\\,b, /bin/ls \\\n  -l\r\nagent ALL = /bin/echo \\# x\n",
	       "agent", HP_TRUE, NULL);
	/* '#' before a digit is a uid, not a comment */
	expect("#1000 ALL=ALL\n", "agent", HP_TRUE, NULL);
	expect("#1001 ALL=ALL\n#agent ALL=ALL\n", "agent", HP_FALSE, NULL);
	/* a command's arguments end at '#', and the rest is a comment */
	expect("agent ALL = /bin/ls #, ALL\n", "agent", HP_TRUE, NULL);
	/* "Defaults" only starts a Defaults line as a bare word */
	expect(
	    "Defaults env_reset, !lecture, env_keep += \"HOME PATH\", secure_path=/usr/bin:/bin\n"
	    "Defaults:%sudo, bob !requiretty\nDefaults@host !fqdn\nDefaults!/usr/bin/su "
	    "!syslog\nDefaults>root,operator log_output\n",
	    "agent", HP_FALSE, "no rule in the 1 sudoers file read grants agent");
	expect("Defaults\\x20 ALL = ALL\n", "agent", HP_FALSE, NULL);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_problem("agent ALL\n",
	               "/etc/sudoers:1:10: expected '=' after the host list, found end of line");
	expect_problem("agent ALL = vim\n",
	               "/etc/sudoers:1:13: expected a fully qualified command, "
	               "a directory, sudoedit, list, a Cmnd_Alias or ALL, found "
	               "\"vim\"");
	expect_problem("agent ALL = (root /bin/ls\n",
	               "/etc/sudoers:1:19: expected ')', found path /bin/ls");
	expect_problem("\"agent ALL = ALL\n", "/etc/sudoers:1:1: line break in a quoted string");
	expect_problem("agent ALL = /bin/ls \\d\n",
	               "/etc/sudoers:1:21: a backslash escape sudo does not accept in command "
	               "arguments");
	expect_problem("agent ALL = ^/bin/ls\n", "/etc/sudoers:1:13: expected a fully qualified "
	                                         "command, a directory, sudoedit, list, a "
	                                         "Cmnd_Alias or ALL, found \"^/bin/ls\"");
	expect_problem("agent ALL = /bin/ls ^foo\n",
	               "/etc/sudoers:1:21: unterminated regular expression");
	expect_problem("User_Alias admins = bob\n", "/etc/sudoers:1:12: expected an alias name "
	                                            "(capital letters, digits and '_'), found "
	                                            "\"admins\"");
	expect_problem("User_Alias ALL = bob\n",
	               "/etc/sudoers:1:12: expected an alias name (capital "
	               "letters, digits and '_'), found ALL");
	expect_problem(
	    "Defaults env_reset env_keep\n",
	    "/etc/sudoers:1:20: expected ',' or the end of the line, found \"env_keep\"");
	expect_problem(
	    "Defaults\n",
	    "/etc/sudoers:1:9: expected a blank before the Defaults parameters, found end "
	    "of line");
	expect_problem("Defaults !env_reset=1\n", "/etc/sudoers:1:20: expected ',' or the end of "
	                                          "the line after a negated parameter, found '='");
	expect_problem("agent ALL = sha256:abc /bin/ls\n",
	               "/etc/sudoers:1:20: a digest of the wrong length");
	expect_problem("NOPASSWD: agent ALL = ALL\n",
	               "/etc/sudoers:1:1: expected a user, group, alias or ALL, found NOPASSWD:");
	expect_problem("agent ALL = TIMEOUT /bin/ls\n",
	               "/etc/sudoers:1:21: expected '=' after the option name, found path /bin/ls");
	expect_problem("agent ALL = (root:) ALL\n",
	               "/etc/sudoers:1:19: expected a group name, alias or ALL, found ')'");
	expect("agent ALL = (:) ALL\nbob ALL = () ALL\n", "agent", HP_TRUE, NULL);
	expect_problem("agent ALL = (root : %wheel) ALL\n",
	               "/etc/sudoers:1:21: expected a group name, alias or ALL, found \"%wheel\"");
	expect_problem("agent %sudo = ALL\n",
	               "/etc/sudoers:1:7: expected a host, alias or ALL, found \"%sudo\"");
	expect_problem("bob ALL = ALL\r\n% ALL = ALL\n", "/etc/sudoers:2:1: empty group");
	expect_problem("agent > ALL\n",
	               "/etc/sudoers:1:7: a character no sudoers token starts with");
	expect_problem("agent ALL = ALL\rbob ALL=ALL\n",
	               "/etc/sudoers:1:16: carriage return not followed by a newline");
	expect_problem("agent ALL = ALL \\\nDefaults env_reset\n",
	               "/etc/sudoers:2:1: expected ',', ':' or the end of the line, found "
	               "\"Defaults\"");
	expect_problem("\\\nDefaults env_reset\n",
	               "/etc/sudoers:2:1: \"Defaults\" after a line continuation");
	/* the entry after an error is still read */
	hp_sudoers *s = load_files("/etc/sudoers", "agent ALL = = \nagent ALL = /bin/ls\n", NULL);
	hp_sudo_verdict v;
	assert_int_equal(hp_sudoers_nproblems(s), 1);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_int_equal(grants(s, "bob", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "/etc/sudoers:1:13: expected a fully qualified command, a "
	                           "directory, sudoedit, list, a Cmnd_Alias or ALL, found '='");
	hp_sudoers_free(s);
	static const char nul[] = "bob ALL = ALL\nagent\0 ALL = ALL\n";
	hp_memfile f = {"/etc/sudoers", nul, sizeof nul - 1};
	hp_memfs fs = {&f, 1};
	hp_sudo_files cb = hp_sudoers_memfs_callbacks(&fs);
	s = hp_sudoers_load("/etc/sudoers", &cb);
	assert_int_equal(grants(s, "agent", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "/etc/sudoers:2: NUL byte in the file");
	hp_sudoers_free(s);
}

static void test_includes(void **state)
{
	(void)state;
	hp_sudo_verdict v;
	/* includedir: sorted, '.' and '~' names skipped; relative include */
	hp_sudoers *s = load_files(
	    "/etc/sudoers", "#includedir /etc/sudoers.d\n@include sudoers.local\n",
	    "/etc/sudoers.d/10-bob", "bob ALL = ALL\n", "/etc/sudoers.d/agent.conf",
	    "agent ALL = ALL\n", "/etc/sudoers.d/agent~", "agent ALL = ALL\n",
	    "/etc/sudoers.d/09-first", "User_Alias X = bob\n", "/etc/sudoers.local",
	    "%docker ALL = /bin/ls\n", "/etc/sudoers.d/sub/deeper", "agent ALL = ALL\n", NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(hp_sudoers_nfiles(s), 4);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_string_equal(v.why, "/etc/sudoers.local:1: \"%docker ALL = /bin/ls\" grants agent");
	hp_sudoers_free(s);

	s = load_files("/etc/sudoers", "@includedir /etc/sudoers.d\n", "/etc/sudoers.d/b",
	               "agent ALL = ALL\n", "/etc/sudoers.d/a", "User_Alias A = bob\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_string_equal(v.why, "/etc/sudoers.d/b:1: \"agent ALL = ALL\" grants agent");
	hp_sudoers_free(s);

	/* a missing includedir is fine, a missing include file is not */
	expect("@includedir /etc/sudoers.d\n", "agent", HP_FALSE, NULL);
	expect_problem("@include /etc/sudoers.local\n",
	               "/etc/sudoers:1:1: cannot include /etc/sudoers.local: it does not exist");
	expect_problem("@include /etc/sudoers.%h\n", "/etc/sudoers:1:1: include path "
	                                             "\"/etc/sudoers.%h\" names the host (%h), "
	                                             "which is not known offline");
	expect_problem("@include\n", "/etc/sudoers:1:9: an include directive without a path");
	expect_problem("@include /etc/a /etc/b\n",
	               "/etc/sudoers:1:17: expected the end of the line after the include path, "
	               "found path /etc/b");
	/* a quoted path, and #include with a blank only */
	s = load_files("/etc/sudoers", "#include \"/etc/my sudoers\"\n#include/etc/x\n",
	               "/etc/my sudoers", "agent ALL = ALL\n", "/etc/x", "bob ALL = ALL\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_int_equal(grants(s, "bob", &v), HP_FALSE);
	hp_sudoers_free(s);
	/* "  #include" is a comment, "@include" after blanks is not */
	s = load_files("/etc/sudoers", "  #include /etc/x\n  @include /etc/y\n", "/etc/x",
	               "agent ALL = ALL\n", "/etc/y", "bob ALL = ALL\n", NULL);
	assert_int_equal(grants(s, "agent", &v), HP_FALSE);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	hp_sudoers_free(s);

	/* loops */
	s = load_files("/etc/sudoers", "@include /etc/a\n", "/etc/a", "@include b\n", "/etc/b",
	               "@include /etc/./a\nagent ALL = ALL\n", NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 1);
	assert_string_equal(hp_sudoers_problem(s, 0),
	                    "/etc/b:1:1: include loop: /etc/./a is already being read");
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_int_equal(grants(s, "bob", &v), HP_UNKNOWN);
	hp_sudoers_free(s);
	expect_problem("@include /etc/sudoers\n",
	               "/etc/sudoers:1:1: include loop: /etc/sudoers is already being read");
	expect_problem("@includedir /etc\n",
	               "/etc/sudoers:1:1: include loop: /etc/sudoers is already being read");
	/* including the same file twice is no loop */
	s = load_files("/etc/sudoers", "@include /etc/a\n@include /etc/a\n", "/etc/a",
	               "bob ALL = ALL\n", NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(hp_sudoers_nfiles(s), 3);
	hp_sudoers_free(s);
}

/* A chain of includes deeper than sudo allows, and one that doubles at
 * every level: both end at a bound, with a message. */
static void test_include_bounds(void **state)
{
	(void)state;
	enum { N = 140 };
	static hp_memfile files[N];
	static char paths[N][32], texts[N][64];
	for (int i = 0; i < N; i++) {
		snprintf(paths[i], sizeof paths[i], i ? "/etc/s%d" : "/etc/sudoers", i);
		snprintf(texts[i], sizeof texts[i], "@include /etc/s%d\n@include /etc/s%d\n", i + 1,
		         i + 1);
		files[i] = (hp_memfile){paths[i], texts[i], strlen(texts[i]) / 2};
	}
	hp_memfs fs = {files, N};
	hp_sudo_files cb = hp_sudoers_memfs_callbacks(&fs);
	hp_sudoers *s = hp_sudoers_load("/etc/sudoers", &cb);
	assert_int_equal(hp_sudoers_nproblems(s), 1);
	assert_string_equal(hp_sudoers_problem(s, 0),
	                    "/etc/s128:1:1: includes nested deeper than 128 (at /etc/s129)");
	assert_int_equal(hp_sudoers_nfiles(s), 129);
	hp_sudoers_free(s);

	/* 2^12 includes of shallow files */
	fs.n = 12;
	for (int i = 0; i < 11; i++)
		files[i].len = strlen(texts[i]);
	files[11].len = 0;
	s = hp_sudoers_load("/etc/sudoers", &cb);
	assert_int_equal(hp_sudoers_nfiles(s), HP_SUDOERS_MAX_FILES);
	assert_string_equal(hp_sudoers_problem(s, 0),
	                    "/etc/s10:2:1: more than 1024 sudoers files to read (at /etc/s11)");
	hp_sudo_verdict v;
	assert_int_equal(grants(s, "agent", &v), HP_UNKNOWN);
	hp_sudoers_free(s);
}

static hp_sudo_io failing_read(void *ctx, const char *path, char **buf, size_t *len, hp_err *err)
{
	(void)ctx;
	(void)buf;
	(void)len;
	hp_err_set(err, "%s: not a regular file (fifo)", path);
	return strcmp(path, "/etc/sudoers") == 0 ? HP_SUDO_IO_MISSING : HP_SUDO_IO_ERROR;
}

static hp_sudo_io failing_list(void *ctx, const char *path, char ***names, hp_err *err)
{
	(void)ctx;
	(void)names;
	hp_err_set(err, "%s: permission denied", path);
	return HP_SUDO_IO_ERROR;
}

static void test_system(void **state)
{
	(void)state;
	hp_sudo_verdict v;
	static const char conf_moved[] =
	    "# sudo.conf\nPlugin sudoers_policy sudoers.so sudoers_file=/etc/sudoers.alt "
	    "sudoers_mode=0440\nPlugin sudoers_io sudoers.so\nSet disable_coredump false\n"
	    "Path askpass /usr/X11R6/bin/ssh-askpass\n";
	hp_memfile files[] = {
	    {"/etc/sudo.conf", conf_moved, sizeof conf_moved - 1},
	    {"/etc/sudoers", "bob ALL = ALL\n", 14},
	    {"/etc/sudoers.alt", "agent ALL = ALL\n", 16},
	};
	hp_memfs fs = {files, 3};
	hp_sudo_files cb = hp_sudoers_memfs_callbacks(&fs);
	hp_sudoers *s = hp_sudoers_load_system(&cb, NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_int_equal(grants(s, "bob", &v), HP_FALSE);
	hp_sudoers_free(s);

	/* no sudo.conf: the default sudoers */
	fs.files = files + 1;
	fs.n = 2;
	s = hp_sudoers_load_system(&cb, NULL);
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	hp_sudoers_free(s);

	/* nsswitch naming sss for sudoers */
	hp_nsswitch ns;
	static const char nss[] = "passwd: files\nsudoers: files sss\n";
	hp_etc_nsswitch_parse(nss, sizeof nss - 1, "/etc/nsswitch.conf", &ns);
	s = hp_sudoers_load_system(&cb, &ns);
	assert_int_equal(grants(s, "agent", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "/etc/nsswitch.conf:2: sudoers uses \"sss\", which can supply "
	                           "entries that are not in the files");
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	hp_sudoers_free(s);

	/* a sudo built from source reads /usr/local/etc: both places count */
	hp_memfile local[] = {
	    {"/etc/sudoers", "bob ALL = ALL\n", 14},
	    {"/usr/local/etc/sudoers", "agent ALL = ALL\n", 16},
	};
	hp_memfs fs3 = {local, 2};
	hp_sudo_files cb3 = hp_sudoers_memfs_callbacks(&fs3);
	s = hp_sudoers_load_system(&cb3, NULL);
	assert_int_equal(hp_sudoers_nproblems(s), 0);
	assert_int_equal(grants(s, "agent", &v), HP_TRUE);
	assert_string_equal(v.why, "/usr/local/etc/sudoers:1: \"agent ALL = ALL\" grants agent");
	assert_int_equal(grants(s, "bob", &v), HP_TRUE);
	assert_int_equal(grants(s, "root", &v), HP_FALSE);
	assert_string_equal(v.why, "no rule in the 2 sudoers files read grants root");
	hp_sudoers_free(s);
	fs3.files = local + 1;
	fs3.n = 1;
	s = hp_sudoers_load_system(&cb3, NULL);
	assert_int_equal(grants(s, "root", &v), HP_FALSE);
	assert_string_equal(v.why, "no rule in the 1 sudoers file read grants root");
	hp_sudoers_free(s);

	/* no sudoers at all: sudo refuses everyone */
	fs.n = 0;
	s = hp_sudoers_load_system(&cb, NULL);
	assert_int_equal(grants(s, "root", &v), HP_FALSE);
	assert_string_equal(v.why, "/etc/sudoers does not exist: sudo grants nothing");
	hp_sudoers_free(s);

	/* what cannot be read is unknown */
	hp_sudo_files bad = {NULL, failing_read, failing_list};
	s = hp_sudoers_load_system(&bad, NULL);
	assert_int_equal(grants(s, "root", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "cannot read /etc/sudo.conf: /etc/sudo.conf: not a regular file "
	                           "(fifo) (and 2 more problems)");
	assert_string_equal(
	    hp_sudoers_problem(s, 2),
	    "cannot read /usr/local/etc/sudoers: /usr/local/etc/sudoers: not a regular "
	    "file (fifo)");
	hp_sudoers_free(s);
	fs.files = files + 1;
	fs.n = 2;
	hp_memfile inc[] = {{"/etc/sudoers", "@includedir /etc/sudoers.d\n", 27}};
	hp_memfs fs2 = {inc, 1};
	hp_sudo_files cb2 = hp_sudoers_memfs_callbacks(&fs2);
	cb2.list_dir = failing_list;
	s = hp_sudoers_load("/etc/sudoers", &cb2);
	assert_int_equal(grants(s, "root", &v), HP_UNKNOWN);
	assert_string_equal(v.why, "/etc/sudoers:1:1: cannot list /etc/sudoers.d: /etc/sudoers.d: "
	                           "permission denied");
	hp_sudoers_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian12),       cmocka_unit_test(test_ubuntu_and_e2b),
	    cmocka_unit_test(test_grants),         cmocka_unit_test(test_nopasswd),
	    cmocka_unit_test(test_negation),       cmocka_unit_test(test_aliases),
	    cmocka_unit_test(test_uncertain),      cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_syntax_errors),  cmocka_unit_test(test_includes),
	    cmocka_unit_test(test_include_bounds), cmocka_unit_test(test_system),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
