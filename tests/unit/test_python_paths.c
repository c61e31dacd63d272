/* test_python_paths.c: what CPython's startup reads, on a fixture root laid
 * out as Debian installs python3 (prefix /usr, merged /usr), as python.org
 * builds install it elsewhere (site-packages, versions told by the
 * directories only), and the layouts that are unknown: a virtual
 * environment, a build directory, no landmark; the directories a .pth
 * file's path lines add. Through command_files too:
 * a "#!/usr/bin/env python3" script gets its interpreter's paths. */
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
#include "os/python_paths.h"

static char *dir;
/* a static program: no loader, no dynamic section (what command_files reads
 * of an ELF) */
static const fx_elf static_program = {.dynamic = false};
static hp_root root;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	const char *dirs[] = {"usr", "usr/bin", "usr/lib", "usr/lib/python3.11",
	                      "usr/lib/python3.11/lib-dynload", "usr/lib/python3",
	                      "usr/lib/python3/dist-packages", "etc", "etc/python3.11", "opt",
	                      "opt/py", "opt/py/bin", "opt/py/lib", "opt/py/lib/python3.12",
	                      "opt/py/lib/python3.12/lib-dynload", "opt/py/lib/python3.12/site-packages",
	                      "opt/py/lib/python3.12/site-packages/rel", "opt/extra",
	                      "opt/py/lib/python3.13",
	                      "opt/py/lib/python3.13/lib-dynload", "opt/py/lib/python3.x",
	                      "venv", "venv/bin", "build", "nolm", "nolm/bin", "scripts"};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		fx_dir(dir, dirs[i], 0755, 0, 0);
	fx_link(dir, "bin", "usr/bin");
	fx_link(dir, "opt/pybin", "/usr/bin");
	fx_elf_file(dir, "usr/bin/python3.11", &static_program, 0755, 0, 0);
	fx_link(dir, "usr/bin/python3", "python3.11");
	fx_elf_file(dir, "usr/bin/env", &static_program, 0755, 0, 0);
	fx_elf_file(dir, "usr/bin/node", &static_program, 0755, 0, 0);
	fx_file(dir, "usr/lib/python3.11/os.py", "", 0644, 0, 0);
	fx_elf_file(dir, "opt/py/bin/python3", &static_program, 0755, 0, 0);
	fx_file(dir, "opt/py/lib/python3.12/os.py", "", 0644, 0, 0);
	fx_file(dir, "opt/py/lib/python3.13/os.pyc", "", 0644, 0, 0);
	fx_file(dir, "opt/py/lib/python3.12/site-packages/x.pth",
	        "# a comment\nimport sys; sys.path.append('/nowhere')\n/opt/extra\n"
	        "rel \r\n  rel\nmissing\n\n",
	        0644, 0, 0);
	fx_link(dir, "venv/bin/python3", "/usr/bin/python3.11");
	fx_file(dir, "venv/pyvenv.cfg", "home = /usr/bin\n", 0644, 0, 0);
	fx_elf_file(dir, "build/python3.11", &static_program, 0755, 0, 0);
	fx_file(dir, "build/pybuilddir.txt", "build/lib\n", 0644, 0, 0);
	fx_elf_file(dir, "nolm/bin/python3.9", &static_program, 0755, 0, 0);
	fx_file(dir, "scripts/driver", "#!/usr/bin/env python3\n", 0755, 0, 0);
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

static void test_version(void **state)
{
	(void)state;
	assert_int_equal(hp_os_python_version("python3"), -1);
	assert_int_equal(hp_os_python_version("python3.11"), 11);
	assert_int_equal(hp_os_python_version("python3.9"), 9);
	assert_int_equal(hp_os_python_version("python3.11-config"), -2);
	assert_int_equal(hp_os_python_version("python3."), -2);
	assert_int_equal(hp_os_python_version("python3m"), -2);
	assert_int_equal(hp_os_python_version("python"), -2);
	assert_int_equal(hp_os_python_version("node"), -2);
}

static const char *const debian[] = {
    "/usr/pyvenv.cfg",
    "/usr/bin/pyvenv.cfg",
    "/usr/bin/pybuilddir.txt",
    "/usr/bin/Modules/Setup.local",
    "/usr/bin/lib/python3.11",
    "/usr/lib/python3.11",
    "/usr/lib/python311.zip",
    "/usr/local/lib/python3.11/dist-packages",
    "/usr/lib/python3/dist-packages",
    "/etc/python3.11",
    "/etc/python3",
};

static void test_debian(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_python_paths(&root, "/usr/bin/python3", "/usr/bin/python3.11", &l, &e),
	                 HP_TRUE);
	expect(&l, debian, sizeof debian / sizeof debian[0]);
	hp_strv_free(&l);
	/* run from /bin, a link to usr/bin: the prefix is found from the real
	 * directory, pyvenv.cfg from the one it is run from; an absolute link
	 * (opt/pybin) restarts from the root */
	assert_int_equal(hp_os_python_paths(&root, "/bin/python3", "/bin/python3.11", &l, &e),
	                 HP_TRUE);
	assert_string_equal(l.v[0], "/pyvenv.cfg");
	assert_string_equal(l.v[1], "/bin/pyvenv.cfg");
	assert_string_equal(l.v[2], "/usr/bin/pybuilddir.txt");
	assert_string_equal(l.v[5], "/usr/lib/python3.11");
	hp_strv_free(&l);
	assert_int_equal(hp_os_python_paths(&root, "/opt/pybin/python3", "/opt/pybin/python3.11", &l,
	                                    &e),
	                 HP_TRUE);
	assert_string_equal(l.v[1], "/opt/pybin/pyvenv.cfg");
	assert_string_equal(l.v[5], "/usr/lib/python3.11");
	hp_strv_free(&l);
	assert_int_equal(hp_os_python_paths(&root, "/usr/bin/node", "/usr/bin/node", &l, &e),
	                 HP_FALSE);
}

/* A real file named python3: every version above it, each with its own
 * prefix search (3.13's landmark is os.pyc); python3.x is no version. */
static void test_versions_from_dirs(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_python_paths(&root, "/opt/py/bin/python3", "/opt/py/bin/python3", &l,
	                                    &e),
	                 HP_TRUE);
	int have12 = 0, have13 = 0, debianish = 0;
	for (size_t i = 0; i < l.n; i++) {
		have12 |= strcmp(l.v[i], "/opt/py/lib/python3.12") == 0;
		have13 |= strcmp(l.v[i], "/opt/py/lib/python3.13") == 0;
		debianish |= strncmp(l.v[i], "/etc/", 5) == 0;
	}
	assert_true(have12 && have13);
	assert_false(debianish);
	/* the path lines of a .pth file in site-packages, those that exist
	 * (blanks are kept at the start of a line, as site.py keeps them) */
	int extra = 0, rel = 0, other = 0;
	for (size_t i = 0; i < l.n; i++) {
		extra |= strcmp(l.v[i], "/opt/extra") == 0;
		rel |= strcmp(l.v[i], "/opt/py/lib/python3.12/site-packages/rel") == 0;
		other |= strstr(l.v[i], "missing") || strstr(l.v[i], "nowhere") ||
		         strstr(l.v[i], "import");
	}
	assert_true(extra && rel);
	assert_false(other);
	hp_strv_free(&l);
}

static void test_unknown(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_python_paths(&root, "/venv/bin/python3", "/usr/bin/python3.11", &l,
	                                    &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/venv/pyvenv.cfg: a virtual environment: what CPython loads "
	                           "then is not modelled");
	/* the path it is run by taken as abspath takes it */
	assert_int_equal(hp_os_python_paths(&root, "/venv/x/../bin/./python3", "/usr/bin/python3.11",
	                                    &l, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/venv/pyvenv.cfg: a virtual environment: what CPython loads "
	                           "then is not modelled");
	assert_int_equal(hp_os_python_paths(&root, "/build/python3.11", "/build/python3.11", &l, &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "/build/pybuilddir.txt: a build directory: what CPython loads "
	                           "then is not modelled");
	assert_int_equal(hp_os_python_paths(&root, "/nolm/bin/python3.9", "/nolm/bin/python3.9", &l,
	                                    &e),
	                 HP_UNKNOWN);
	assert_string_equal(e.msg, "no lib/python3.9/os.py above /nolm/bin: CPython would use the "
	                           "prefix built into it");
}

/* command_files on a driver script run by env's python3: the interpreter's
 * paths follow it, each once */
static void test_through_command_files(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_strv l;
	hp_err e;
	assert_int_equal(hp_os_command_files(&root, "driver:/scripts:/usr/bin", &l, &e), HP_TRUE);
	assert_true(l.n == 4 + sizeof debian / sizeof debian[0]);
	assert_string_equal(l.v[0], "/scripts/driver");
	assert_string_equal(l.v[1], "/usr/bin/env");
	assert_string_equal(l.v[2], "/usr/bin/python3");
	assert_string_equal(l.v[3], "/usr/bin/python3.11");
	for (size_t i = 0; i < sizeof debian / sizeof debian[0]; i++)
		assert_string_equal(l.v[4 + i], debian[i]);
	hp_strv_free(&l);
	assert_int_equal(hp_os_command_files(&root, "python3:/venv/bin", &l, &e), HP_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version),
	    cmocka_unit_test(test_debian),
	    cmocka_unit_test(test_versions_from_dirs),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_through_command_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
