/* test_command_files.c: the files a command run by name on a PATH depends
 * on, on a fixture root laid out as npm installs a package globally: the
 * PATH lookup, symlink hops, "#!" interpreters (env's command on the same
 * PATH), the package root and Node's node_modules lookup; and the pure
 * "#!" and env parsers with every way they refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_fixture.h"
#include "fixture.h"
#include "os/command_files.h"

static char *dir;
static hp_root root;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	const char *dirs[] = {"usr", "usr/bin", "usr/local", "usr/local/bin", "usr/local/lib",
	                      "usr/local/lib/node_modules",
	                      "usr/local/lib/node_modules/@anthropic-ai",
	                      "usr/local/lib/node_modules/@anthropic-ai/claude-code",
	                      "usr/local/lib/node_modules/@anthropic-ai/claude-code/bin", "opt",
	                      "sbin", "sbin/node", "rootonly", "elf", "home", "home/agent"};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		fx_dir(dir, dirs[i], 0755, 0, 0);
	fx_link(dir, "bin", "usr/bin");
	fx_file(dir, "usr/local/lib/node_modules/@anthropic-ai/claude-code/package.json", "{}",
	        0644, 0, 0);
	fx_file(dir, "usr/local/lib/node_modules/@anthropic-ai/claude-code/bin/cli.js",
	        "#!/usr/bin/env node\nconsole.log(1)\n", 0755, 0, 0);
	fx_link(dir, "usr/local/bin/claude",
	        "../lib/node_modules/@anthropic-ai/claude-code/bin/cli.js");
	/* a program with no loader and no dynamic section, as a static one */
	const fx_elf plain = {0};
	fx_elf_file(dir, "usr/bin/env", &plain, 0755, 0, 0);
	fx_elf_file(dir, "usr/bin/node-real", &plain, 0755, 0, 0);
	fx_link(dir, "usr/bin/node", "node-real");
	fx_elf_file(dir, "usr/bin/sh", &plain, 0755, 0, 0);
	fx_file(dir, "opt/tool", "#! /usr/bin/sh -e\n", 0755, 0, 0);
	fx_file(dir, "opt/relative", "#!sh\n", 0755, 0, 0);
	fx_file(dir, "opt/loop1", "#!/opt/loop2\n", 0755, 0, 0);
	fx_file(dir, "opt/loop2", "#!/opt/loop1\n", 0755, 0, 0);
	fx_file(dir, "opt/noexec", "x", 0644, 0, 0);
	fx_file(dir, "opt/envmissing", "#!/usr/bin/env nothere\n", 0755, 0, 0);
	fx_elf_file(dir, "sbin/claude", &plain, 0700, 0, 0);
	fx_elf_file(dir, "sbin/env", &plain, 0700, 0, 0);
	fx_elf_file(dir, "rootonly/node", &plain, 0700, 0, 0);
	fx_file(dir, "home/agent/ld.so", "", 0755, FX_AGENT, FX_AGENT);
	fx_elf_file(dir, "usr/bin/ld-real", &plain, 0755, 0, 0);
	fx_link(dir, "usr/bin/ld-link", "ld-real");
	const fx_elf agent_ld = {.interp = "/home/agent/ld.so"};
	fx_elf_file(dir, "elf/interp", &agent_ld, 0755, 0, 0);
	const fx_elf linked_ld = {.interp = "/usr/bin/ld-link"};
	fx_elf_file(dir, "elf/ldlink", &linked_ld, 0755, 0, 0);
	const fx_elf rpath = {.interp = "/usr/bin/ld-real",
	                      .runpath = "$ORIGIN/../lib:/opt/lib",
	                      .needed = {"libc.so.6", "${ORIGIN}/../opt/libabs.so"}};
	fx_elf_file(dir, "elf/rpath", &rpath, 0755, 0, 0);
	const fx_elf lib = {.rpath = "$ORIGIN/sub", .needed = {"/usr/bin/ld-real"}};
	fx_elf_file(dir, "opt/libabs.so", &lib, 0644, 0, 0);
	const fx_elf platform = {.runpath = "/opt/$PLATFORM"};
	fx_elf_file(dir, "elf/platform", &platform, 0755, 0, 0);
	const fx_elf relneeded = {.needed = {"lib/x.so"}};
	fx_elf_file(dir, "elf/relneeded", &relneeded, 0755, 0, 0);
	const fx_elf relinterp = {.interp = "ld.so"};
	fx_elf_file(dir, "elf/relinterp", &relinterp, 0755, 0, 0);
	const fx_elf foreign = {.machine = 2 /* EM_SPARC */};
	fx_elf_file(dir, "elf/foreign", &foreign, 0755, 0, 0);
	fx_file(dir, "elf/broken", "\177ELF", 0755, 0, 0);
	fx_file(dir, "elf/script", "echo hi\n", 0755, 0, 0);
	fx_file(dir, "elf/empty", "", 0755, 0, 0);
	hp_err e;
	return hp_os_root_open(&root, dir, HP_ROOT_OFFLINE, &e) != HP_TRUE;
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

static void expect(const hp_strv *l, const char *const *want, size_t n)
{
	for (size_t i = 0; i < l->n && i < n; i++)
		assert_string_equal(l->v[i], want[i]);
	assert_int_equal(l->n, n);
}

static void test_npm_global(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	/* /opt/noexec is not executable: looked past, as execvp does */
	assert_int_equal(hp_os_command_files(&root, "claude:/opt:/usr/local/bin:/usr/bin", &l, &e),
	                 HP_TRUE);
	const char *want[] = {
	    "/usr/local/bin/claude",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code/bin/cli.js",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code",
	    "/usr/local/bin/../lib/node_modules",
	    "/usr/bin/env",
	    "/usr/bin/node",
	    "/usr/bin/node-real",
	};
	expect(&l, want, sizeof want / sizeof want[0]);
	hp_strv_free(&l);
}

/* A file only root can execute earlier on the PATH: the driver's execvp
 * passes over it to the next, so both are in the list; a directory named
 * like the command, and a file without an execute bit, no one runs. */
static void test_runner_decides(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_command_files(&root, "claude:/sbin:/usr/local/bin:/usr/bin", &l,
	                                     &e),
	                 HP_TRUE);
	const char *want[] = {
	    "/sbin/claude",
	    "/usr/local/bin/claude",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code/bin/cli.js",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code",
	    "/usr/local/bin/../lib/node_modules",
	    "/usr/bin/env",
	    "/usr/bin/node",
	    "/usr/bin/node-real",
	};
	expect(&l, want, sizeof want / sizeof want[0]);
	hp_strv_free(&l);
	/* env's command looked up the same way (sbin/node is a directory);
	 * sbin/claude, after the claude found, is in the list too */
	assert_int_equal(hp_os_command_files(&root, "claude:/usr/local/bin:/sbin:/rootonly:/usr/bin",
	                                     &l, &e),
	                 HP_TRUE);
	const char *want2[] = {
	    "/usr/local/bin/claude",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code/bin/cli.js",
	    "/usr/local/bin/../lib/node_modules/@anthropic-ai/claude-code",
	    "/usr/local/bin/../lib/node_modules",
	    "/usr/bin/env",
	    "/rootonly/node",
	    "/usr/bin/node",
	    "/usr/bin/node-real",
	    "/sbin/claude",
	};
	expect(&l, want2, sizeof want2 / sizeof want2[0]);
	hp_strv_free(&l);
}

static void test_interpreters(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_command_files(&root, "tool:/opt", &l, &e), HP_TRUE);
	const char *want[] = {"/opt/tool", "/usr/bin/sh"};
	expect(&l, want, 2);
	hp_strv_free(&l);
	assert_int_equal(hp_os_command_files(&root, "/opt/tool", &l, &e), HP_TRUE);
	hp_strv_free(&l);
	assert_int_equal(hp_os_command_files(&root, "relative:/opt", &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/opt/relative: the interpreter 'sh' is not an absolute path: "
	                           "the kernel resolves it against the working directory");
	assert_int_equal(hp_os_command_files(&root, "loop1:/opt", &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/opt/loop1: interpreters nested more than 4 deep");
	assert_int_equal(hp_os_command_files(&root, "envmissing:/opt", &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/opt/envmissing: env runs nothere, which is on no directory "
	                           "of the PATH");
	assert_int_equal(hp_os_command_files(&root, "noexec:/opt", &l, &e), HP_FALSE);
	assert_string_equal(e.msg, "no noexec on the PATH /opt");
	assert_int_equal(hp_os_command_files(&root, "claude:/nowhere", &l, &e), HP_FALSE);
	assert_int_equal(hp_os_command_files(&root, "/opt/none", &l, &e), HP_FALSE);
}

/* What the kernel and the loader run for a file without "#!": an ELF
 * program's loader (PT_INTERP) and its library directories (DT_RUNPATH,
 * DT_RPATH, $ORIGIN expanded) and the libraries it names by path; for
 * anything else, and an ELF file of another machine, /bin/sh, which
 * execvp runs it with when the kernel refuses it. */
static void test_loader_and_shell(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	static const struct {
		const char *spec;
		const char *want[6];
	} ok[] = {
	    {"interp:/elf", {"/elf/interp", "/home/agent/ld.so"}},
	    {"ldlink:/elf", {"/elf/ldlink", "/usr/bin/ld-link", "/usr/bin/ld-real"}},
	    {"rpath:/elf",
	     {"/elf/rpath", "/usr/bin/ld-real", "/elf/../lib", "/opt/lib", "/elf/../opt/libabs.so",
	      "/elf/../opt/sub"}},
	    {"script:/elf", {"/elf/script", "/bin/sh"}},
	    {"empty:/elf", {"/elf/empty", "/bin/sh"}},
	    {"foreign:/elf", {"/elf/foreign", "/bin/sh"}},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		if (hp_os_command_files(&root, ok[i].spec, &l, &e) != HP_TRUE)
			fail_msg("%s: %s", ok[i].spec, e.msg);
		size_t n = 0;
		while (n < 6 && ok[i].want[n])
			n++;
		expect(&l, ok[i].want, n);
		hp_strv_free(&l);
	}
	static const char *const bad[][2] = {
	    {"platform:/elf", "/elf/platform: library path '/opt/$PLATFORM': $LIB and $PLATFORM "
	                      "depend on the loader's build and the CPU"},
	    {"relneeded:/elf", "/elf/relneeded: the library 'lib/x.so' is a relative path: the "
	                       "loader opens it from the working directory"},
	    {"relinterp:/elf", "/elf/relinterp: the loader 'ld.so' is not an absolute path: the "
	                       "kernel resolves it against the working directory"},
	    {"broken:/elf", "/elf/broken: a truncated ELF header, or one of an unknown class or "
	                    "byte order"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(hp_os_command_files(&root, bad[i][0], &l, &e), HP_UNKNOWN);
		assert_string_equal(e.msg, bad[i][1]);
	}
}

static void test_shebang_parse(void **state)
{
	(void)state;
	char *i, *a;
	hp_err e;
	const char *s = "#!/usr/bin/env -S node --no-warnings\nrest";
	assert_int_equal(hp_os_shebang_parse(s, strlen(s), &i, &a, &e), HP_TRUE);
	assert_string_equal(i, "/usr/bin/env");
	assert_string_equal(a, "-S node --no-warnings");
	free(i);
	free(a);
	s = "#!\t/bin/sh  \r\n";
	assert_int_equal(hp_os_shebang_parse(s, strlen(s), &i, &a, &e), HP_TRUE);
	assert_string_equal(i, "/bin/sh");
	assert_string_equal(a, "");
	free(i);
	free(a);
	assert_int_equal(hp_os_shebang_parse("\177ELF", 4, &i, &a, &e), HP_FALSE);
	/* a file that ends without a newline ends its line */
	assert_int_equal(hp_os_shebang_parse("#!/bin/sh", 9, &i, &a, &e), HP_TRUE);
	assert_string_equal(i, "/bin/sh");
	free(i);
	free(a);
	char longline[256];
	memset(longline, 'x', sizeof longline);
	memcpy(longline, "#!/", 3);
	assert_int_equal(hp_os_shebang_parse(longline, sizeof longline, &i, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "the \"#!\" line is longer than 256 bytes");
	assert_int_equal(hp_os_shebang_parse("#!   \n", 6, &i, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "the \"#!\" line names no interpreter");
}

static void test_env_command(void **state)
{
	(void)state;
	char *c;
	hp_err e;
	assert_int_equal(hp_os_env_command("node", &c, &e), HP_TRUE);
	assert_string_equal(c, "node");
	free(c);
	assert_int_equal(hp_os_env_command("-S NODE_OPTIONS=x -i node --flag", &c, &e), HP_TRUE);
	assert_string_equal(c, "node");
	free(c);
	/* without -S the kernel passes one word: env looks up that name */
	assert_int_equal(hp_os_env_command("node --flag", &c, &e), HP_TRUE);
	assert_string_equal(c, "node --flag");
	free(c);
	assert_int_equal(hp_os_env_command("-S -u HOME node", &c, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "env: option -u is not understood here");
	assert_int_equal(hp_os_env_command("-S A=1", &c, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "env -S A=1: no command");
	assert_int_equal(hp_os_env_command("-i node", &c, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "env -i node: an option env does not split without -S");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_npm_global),
	    cmocka_unit_test(test_runner_decides),
	    cmocka_unit_test(test_interpreters),
	    cmocka_unit_test(test_loader_and_shell),
	    cmocka_unit_test(test_shebang_parse),
	    cmocka_unit_test(test_env_command),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
