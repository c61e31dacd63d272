/* test_sudo_conf.c: what etc/sudo.conf says about sudo's policy: the
 * sudoers file it names, and everything that makes the policy unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_file.h"
#include "etc/sudo_conf.h"

static void parse(const char *text, hp_sudo_conf *c)
{
	hp_etc_sudo_conf_parse(text, strlen(text), "/etc/sudo.conf", "/etc/sudoers", c);
}

static void expect_ok(const char *text, const char *sudoers)
{
	hp_sudo_conf c;
	parse(text, &c);
	assert_true(c.ok);
	assert_string_equal(c.sudoers_file, sudoers);
	hp_etc_sudo_conf_free(&c);
}

static void expect_bad(const char *text, const char *why)
{
	hp_sudo_conf c;
	parse(text, &c);
	assert_false(c.ok);
	assert_string_equal(c.why, why);
	hp_etc_sudo_conf_free(&c);
}

static void test_debian12(void **state)
{
	(void)state;
	size_t len;
	char *text = hp_fixture_read("tests/fixtures/etc/debian12/sudo.conf", &len);
	hp_sudo_conf c;
	hp_etc_sudo_conf_parse(text, len, "/etc/sudo.conf", "/etc/sudoers", &c);
	assert_true(c.ok);
	assert_string_equal(c.sudoers_file, "/etc/sudoers");
	hp_etc_sudo_conf_free(&c);
	free(text);
	hp_etc_sudo_conf_default(&c, "/usr/local/etc/sudoers");
	assert_true(c.ok);
	assert_string_equal(c.sudoers_file, "/usr/local/etc/sudoers");
	hp_etc_sudo_conf_free(&c);
}

static void test_sudoers_file(void **state)
{
	(void)state;
	expect_ok("Plugin sudoers_policy sudoers.so sudoers_file=/etc/sudoers.alt\n",
	          "/etc/sudoers.alt");
	expect_ok("plugin\tsudoers_policy /usr/libexec/sudo/sudoers.so sudoers_mode=0440 \\\n"
	          "  sudoers_file=/opt/sudoers ignore_perms=true  # moved\n"
	          "Plugin sudoers_io sudoers.so\nPlugin sudoers_audit sudoers.so\n",
	          "/opt/sudoers");
	expect_ok("Path askpass /usr/bin/ssh-askpass\nPATH plugin_dir /usr/lib/sudo\n"
	          "Set disable_coredump false\nSet group_source dynamic\n"
	          "Debug sudo /var/log/sudo_debug all@warn\n   \n# Plugin evil evil.so\n",
	          "/etc/sudoers");
}

static void test_unknown(void **state)
{
	(void)state;
	expect_bad("Plugin python_policy python_plugin.so ModulePath=/x.py\n",
	           "/etc/sudo.conf:1: a plugin that may be a policy plugin other than sudoers: "
	           "python_policy");
	expect_bad(
	    "\nPlugin sudoers_policy /tmp/sudoers.so.evil\n",
	    "/etc/sudo.conf:2: a sudoers plugin loaded from a library other than sudoers.so: "
	    "/tmp/sudoers.so.evil");
	expect_bad("Plugin sudoers_policy sudoers.so sudoers_file=sudoers.local\n",
	           "/etc/sudo.conf:1: a sudoers_file that is not an absolute path: "
	           "sudoers_file=sudoers.local");
	expect_bad("Plugin sudoers_policy sudoers.so\nPlugin sudoers_policy sudoers.so\n",
	           "/etc/sudo.conf:2: a second policy plugin: sudoers_policy");
	expect_bad("Plugin sudoers_policy sudoers.so sudoers_fil=/x\n",
	           "/etc/sudo.conf:1: a sudoers plugin option the runtime does not know: "
	           "sudoers_fil=/x");
	expect_bad("Plugin sudoers_policy\n", "/etc/sudo.conf:1: a Plugin line without a symbol "
	                                      "and a path: sudoers_policy");
	expect_bad("Set secret_mode on\n",
	           "/etc/sudo.conf:1: a Set the runtime does not know: secret_mode on");
	expect_bad("Path sudoers /etc/x\n",
	           "/etc/sudo.conf:1: a Path the runtime does not know: sudoers /etc/x");
	expect_bad("Plugins sudoers_policy sudoers.so\n",
	           "/etc/sudo.conf:1: a line sudo.conf does not have: Plugins sudoers_policy "
	           "sudoers.so");
	expect_bad(
	    "Plugin sudoers_policy \\\n sudo\\\nsudoers.so\n",
	    "/etc/sudo.conf:1: a sudoers plugin loaded from a library other than sudoers.so: "
	    "sudosudoers.so");
	hp_sudo_conf c;
	static const char nul[] = "Set max_groups 8\0\n";
	hp_etc_sudo_conf_parse(nul, sizeof nul - 1, "/etc/sudo.conf", "/etc/sudoers", &c);
	assert_false(c.ok);
	assert_string_equal(c.why, "/etc/sudo.conf: NUL byte in the file");
	hp_etc_sudo_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian12),
	    cmocka_unit_test(test_sudoers_file),
	    cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
