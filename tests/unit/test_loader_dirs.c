/* test_loader_dirs.c: the loader_dirs probe's reading of a root: ld.so.conf
 * and the files its include lines match, ld.so.cache, and every bound and
 * refusal that makes the answer unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "etc/loader_dirs.h"

static char *dir;

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fx_dir(dir, "etc", 0755, 0, 0);
	fx_dir(dir, "etc/ld.so.conf.d", 0755, 0, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (dir)
		fx_rmtree(dir);
	dir = NULL;
	return 0;
}

/* fx_file over a file the test wrote before */
static void rewrite(const char *rel, const char *content)
{
	char *path = fx_path(dir, rel);
	unlink(path);
	free(path);
	fx_file(dir, rel, content, 0644, 0, 0);
}

static hp_tri ask(hp_strv *l, hp_err *e)
{
	hp_root root;
	hp_err oe;
	assert_int_equal(hp_os_root_open(&root, dir, HP_ROOT_OFFLINE, &oe), HP_TRUE);
	e->msg[0] = '\0';
	hp_tri t = hp_etc_loader_dirs(&root, l, e);
	hp_os_root_close(&root);
	return t;
}

static void expect(const char *const *want, size_t n)
{
	hp_strv l;
	hp_err e;
	assert_int_equal(ask(&l, &e), HP_TRUE);
	for (size_t i = 0; i < l.n && i < n; i++)
		assert_string_equal(l.v[i], want[i]);
	assert_int_equal(l.n, n);
	hp_strv_free(&l);
}

static void expect_unknown(const char *why)
{
	hp_strv l;
	hp_err e;
	assert_int_equal(ask(&l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, why);
}

static void test_nothing(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	expect(NULL, 0); /* no ld.so.conf, no cache: the built-in directories only */
}

static void test_includes(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	fx_file(dir, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n/opt/z\n", 0644, 0, 0);
	fx_file(dir, "etc/ld.so.conf.d/libc.conf", "/usr/local/lib\n", 0644, 0, 0);
	fx_file(dir, "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
	        "/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/local/lib\n", 0644, 0,
	        0);
	/* glob's rules: a leading dot only by a dot, other suffixes not */
	fx_file(dir, "etc/ld.so.conf.d/.hidden.conf", "/hidden\n", 0644, 0, 0);
	fx_file(dir, "etc/ld.so.conf.d/other.txt", "/other\n", 0644, 0, 0);
	/* a relative include from a file in ld.so.conf.d, and a nested one */
	fx_file(dir, "etc/ld.so.conf.d/nest.conf", "include more/*.conf\n", 0644, 0, 0);
	fx_dir(dir, "etc/ld.so.conf.d/more", 0755, 0, 0);
	fx_file(dir, "etc/ld.so.conf.d/more/a.conf", "/opt/agentlib\ninclude /etc/none.conf\n",
	        0644, 0, 0);
	const char *want[] = {"/lib/x86_64-linux-gnu", "/opt/agentlib", "/opt/z", "/usr/local/lib",
	                      "/usr/local/lib/x86_64-linux-gnu"};
	expect(want, 5);
}

static void test_cache_too(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	/* a cache naming a directory no configuration file does (its conf file
	 * removed after ldconfig ran) */
	char c[256];
	memset(c, 0, sizeof c);
	memcpy(c, "glibc-ld.so.cache1.1", 20);
	uint32_t one = 1, str = 48 + 24, value_at = 48 + 8;
	memcpy(c + 20, &one, 4);
	memcpy(c + value_at, &str, 4);
	const char *lib = "/opt/cached/libx.so.1";
	memcpy(c + str, lib, strlen(lib) + 1);
	char *path = fx_path(dir, "etc/ld.so.cache");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(c, 1, str + strlen(lib) + 1, f), str + strlen(lib) + 1);
	fclose(f);
	free(path);
	fx_file(dir, "etc/ld.so.conf", "/opt/conf\n", 0644, 0, 0);
	const char *want[] = {"/opt/cached", "/opt/conf"};
	expect(want, 2);
	rewrite("etc/ld.so.cache", "ld.so-1.7.0");
	expect_unknown("/etc/ld.so.cache: not a glibc-ld.so.cache1.1 cache (another format is not "
	               "read)");
}

static void test_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	rewrite("etc/ld.so.conf", "include /etc/*/x.conf\n");
	expect_unknown("include /etc/*/x.conf: a wildcard in a directory's name is not followed");
	rewrite("etc/ld.so.conf", "include /etc/ld.so.conf\n");
	expect_unknown("/etc/ld.so.conf: includes nested more than 8 deep");
	/* a directory where a file is named: ldconfig cannot read it either */
	rewrite("etc/ld.so.conf", "include /etc/ld.so.conf.d\n");
	hp_strv l;
	hp_err e;
	assert_int_equal(ask(&l, &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "not a regular file"));
	rewrite("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
	fx_fifo(dir, "etc/ld.so.conf.d/fifo.conf", 0644);
	assert_int_equal(ask(&l, &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "fifo.conf"));
	char *fifo = fx_path(dir, "etc/ld.so.conf.d/fifo.conf");
	unlink(fifo);
	free(fifo);
	fx_file(dir, "etc/ld.so.conf.d/rel.conf", "lib\n", 0644, 0, 0);
	expect_unknown("/etc/ld.so.conf.d/rel.conf:1: not an absolute directory: lib");
}

static void test_bounds(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	fx_file(dir, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n", 0644, 0, 0);
	char name[64];
	for (int i = 0; i <= HP_LDCONF_MAX_FILES; i++) {
		snprintf(name, sizeof name, "etc/ld.so.conf.d/%03d.conf", i);
		fx_file(dir, name, "/opt/x\n", 0644, 0, 0);
	}
	hp_strv l;
	hp_err e;
	assert_int_equal(ask(&l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/etc/ld.so.conf.d: more than 256 files match *.conf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_includes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cache_too, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bounds, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
