/* test_ldconf.c: the directories etc/ld.so.conf and etc/ld.so.cache name,
 * and everything in them that makes the answer unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "etc/ldconf.h"

static void expect_list(const hp_strv *l, const char *const *want, size_t n)
{
	for (size_t i = 0; i < l->n && i < n; i++)
		assert_string_equal(l->v[i], want[i]);
	assert_int_equal(l->n, n);
}

static hp_tri conf(const char *text, hp_strv *dirs, hp_strv *inc, hp_err *e)
{
	memset(dirs, 0, sizeof *dirs);
	memset(inc, 0, sizeof *inc);
	e->msg[0] = '\0';
	return hp_etc_ldconf_parse(text, strlen(text), "/etc/ld.so.conf.d/x.conf", dirs, inc, e);
}

static void test_conf_lines(void **state)
{
	(void)state;
	hp_strv d, inc;
	hp_err e;
	assert_int_equal(conf("# libc default configuration\n"
	                      "/usr/local/lib\n"
	                      "  /opt/a//  # comment\n"
	                      "\t/opt/b \t\r\n"
	                      "include /etc/more/*.conf   local.d/*.conf\n"
	                      "include\tabs.conf\n"
	                      "hwcap 1 nosegneg\n"
	                      "HWCAP 2 x\n"
	                      "/\n"
	                      "/opt/last",
	                      &d, &inc, &e),
	                 HP_TRUE);
	const char *dirs[] = {"/usr/local/lib", "/opt/a", "/opt/b", "/", "/opt/last"};
	expect_list(&d, dirs, 5);
	/* relative patterns are taken from the including file's directory */
	const char *incs[] = {"/etc/more/*.conf", "/etc/ld.so.conf.d/local.d/*.conf",
	                      "/etc/ld.so.conf.d/abs.conf"};
	expect_list(&inc, incs, 3);
	hp_strv_free(&d);
	hp_strv_free(&inc);
	/* "include" without a blank after it is a directory line */
	assert_int_equal(conf("includes\n", &d, &inc, &e), HP_UNKNOWN);
	assert_string_equal(e.msg,
	                    "/etc/ld.so.conf.d/x.conf:1: not an absolute directory: includes");
	hp_strv_free(&d);
	hp_strv_free(&inc);
}

static void test_conf_refused(void **state)
{
	(void)state;
	hp_strv d, inc;
	hp_err e;
	assert_int_equal(conf("/ok\nlib\n", &d, &inc, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/etc/ld.so.conf.d/x.conf:2: not an absolute directory: lib");
	hp_strv_free(&d);
	hp_strv_free(&inc);
	const char nul[] = "/a\0b\n";
	memset(&d, 0, sizeof d);
	memset(&inc, 0, sizeof inc);
	assert_int_equal(hp_etc_ldconf_parse(nul, sizeof nul - 1, "f", &d, &inc, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "f:1: a NUL byte in the line: /a\\x00b");
	hp_strv_free(&d);
	hp_strv_free(&inc);
	size_t n = 5000;
	char *big = malloc(n + 1);
	memset(big, 'a', n);
	big[0] = '/';
	big[n] = '\0';
	assert_int_equal(conf(big, &d, &inc, &e), HP_UNKNOWN);
	assert_non_null(strstr(e.msg, "x.conf:1: a line longer than a path"));
	free(big);
	hp_strv_free(&d);
	hp_strv_free(&inc);
}

/* A cache in glibc's format: entries' values are offsets of strings after
 * the entries. */
typedef struct {
	char buf[4096];
	size_t len;
} cache;

static void put32(char *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}

static void make_cache(cache *c, const char *const *paths, size_t n)
{
	memset(c, 0, sizeof *c);
	memcpy(c->buf, "glibc-ld.so.cache1.1", 20);
	put32(c->buf + 20, (uint32_t)n);
	size_t str = 48 + n * 24;
	for (size_t i = 0; i < n; i++) {
		put32(c->buf + 48 + i * 24, 0x303);
		put32(c->buf + 48 + i * 24 + 4, (uint32_t)str); /* the key: unused here */
		put32(c->buf + 48 + i * 24 + 8, (uint32_t)str);
		size_t l = strlen(paths[i]) + 1;
		memcpy(c->buf + str, paths[i], l);
		str += l;
	}
	put32(c->buf + 24, (uint32_t)(str - 48 - n * 24));
	c->len = str;
}

static void test_cache(void **state)
{
	(void)state;
	const char *paths[] = {"/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libc.so.6",
	                       "/opt/agentlib/libx.so", "/libroot.so",
	                       "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/liby.so"};
	cache c;
	make_cache(&c, paths, 5);
	hp_strv d = {0};
	hp_err e;
	assert_int_equal(hp_etc_ldcache_dirs(c.buf, c.len, "/etc/ld.so.cache", &d, &e), HP_TRUE);
	const char *want[] = {"/lib/x86_64-linux-gnu", "/opt/agentlib", "/",
	                      "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3"};
	expect_list(&d, want, 4);
	hp_strv_free(&d);
}

static void expect_cache_bad(const char *buf, size_t len, const char *why)
{
	hp_strv d = {0};
	hp_err e;
	assert_int_equal(hp_etc_ldcache_dirs(buf, len, "/etc/ld.so.cache", &d, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, why);
	hp_strv_free(&d);
}

static void test_cache_refused(void **state)
{
	(void)state;
	const char *paths[] = {"/lib/libz.so.1", "/lib/libc.so.6"};
	cache c;
	make_cache(&c, paths, 2);
	/* cut anywhere inside: never read past the end */
	for (size_t n = 0; n < c.len; n++) {
		hp_strv d = {0};
		hp_err e;
		assert_int_equal(hp_etc_ldcache_dirs(c.buf, n, "/etc/ld.so.cache", &d, &e),
		                 HP_UNKNOWN);
		hp_strv_free(&d);
	}
	expect_cache_bad("ld.so-1.7.0", 11,
	                 "/etc/ld.so.cache: not a glibc-ld.so.cache1.1 cache (another format is "
	                 "not read)");
	cache bad = c;
	put32(bad.buf + 20, 1000);
	expect_cache_bad(bad.buf, bad.len, "/etc/ld.so.cache: 1000 entries, more than the file holds");
	bad = c;
	put32(bad.buf + 48 + 24 + 8, (uint32_t)bad.len);
	expect_cache_bad(bad.buf, bad.len, "/etc/ld.so.cache: entry 2: its path lies outside the file");
	bad = c;
	bad.buf[bad.len - 1] = 'x'; /* the last string without its NUL */
	expect_cache_bad(bad.buf, bad.len, "/etc/ld.so.cache: entry 2: its path lies outside the file");
	const char *rel[] = {"lib/libz.so.1"};
	make_cache(&bad, rel, 1);
	expect_cache_bad(bad.buf, bad.len,
	                 "/etc/ld.so.cache: entry 1: not an absolute path: lib/libz.so.1");
	bad = c;
	uint16_t one = 1;
	unsigned char little;
	memcpy(&little, &one, 1);
	bad.buf[28] = little ? 3 : 2; /* the other byte order */
	expect_cache_bad(bad.buf, bad.len, "/etc/ld.so.cache: written for another byte order");
	bad.buf[28] = little ? 2 : 3;
	hp_strv d = {0};
	hp_err e;
	assert_int_equal(hp_etc_ldcache_dirs(bad.buf, bad.len, "/etc/ld.so.cache", &d, &e), HP_TRUE);
	hp_strv_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_conf_lines),
	    cmocka_unit_test(test_conf_refused),
	    cmocka_unit_test(test_cache),
	    cmocka_unit_test(test_cache_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
