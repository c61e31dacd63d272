/* test_elf_deps.c: an ELF file's loader, libraries and library directories
 * read from hand-built files of both classes and byte orders, every way a
 * malformed one is refused, glibc's dynamic string tokens, and the
 * binfmt_misc entry parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "elf_fixture.h"
#include "os/binfmt_misc.h"
#include "os/elf_deps.h"

typedef struct {
	const unsigned char *b;
	size_t n;
} mem;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	const mem *m = ctx;
	if (off > m->n || len > m->n - off)
		return -1;
	memcpy(buf, m->b + off, len);
	return 0;
}

static hp_tri parse(const unsigned char *b, size_t n, hp_elf_deps *d, hp_err *e)
{
	mem m = {b, n};
	hp_elf_src src = {mem_read, &m, n};
	return hp_os_elf_deps(&src, d, e);
}

static void test_both_classes_and_orders(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++) {
		fx_elf e = {.is32 = k & 1, .be = k & 2, .interp = "/opt/x/ld.so",
		            .runpath = "$ORIGIN/../lib:/opt/lib", .rpath = "/ignored",
		            .needed = {"libc.so.6", "/opt/abs.so"}};
		unsigned char b[FX_ELF_SIZE];
		size_t n = fx_elf_build(b, &e);
		hp_elf_deps d;
		hp_err er;
		assert_int_equal(parse(b, n, &d, &er), HP_TRUE);
		assert_string_equal(d.interp, "/opt/x/ld.so");
		assert_int_equal(d.runpath.n, 1);
		assert_string_equal(d.runpath.v[0], "$ORIGIN/../lib:/opt/lib");
		/* DT_RUNPATH makes the loader ignore DT_RPATH */
		assert_int_equal(d.rpath.n, 0);
		assert_int_equal(d.needed.n, 2);
		assert_string_equal(d.needed.v[1], "/opt/abs.so");
		/* only this build's class and byte order are native */
		assert_int_equal(d.foreign, k != 0);
		hp_os_elf_deps_free(&d);
	}
	fx_elf e = {.rpath = "/r"};
	unsigned char b[FX_ELF_SIZE];
	hp_elf_deps d;
	hp_err er;
	assert_int_equal(parse(b, fx_elf_build(b, &e), &d, &er), HP_TRUE);
	assert_null(d.interp);
	assert_int_equal(d.rpath.n, 1);
	assert_string_equal(d.rpath.v[0], "/r");
	hp_os_elf_deps_free(&d);
	fx_elf other = {.machine = EM_SPARC};
	assert_int_equal(parse(b, fx_elf_build(b, &other), &d, &er), HP_TRUE);
	assert_true(d.foreign);
	hp_os_elf_deps_free(&d);
	assert_int_equal(parse((const unsigned char *)"#!/bin/sh\n", 10, &d, &er), HP_FALSE);
	assert_int_equal(parse((const unsigned char *)"\177EL", 3, &d, &er), HP_FALSE);
}

static void expect_unknown(unsigned char *b, size_t n, const char *msg)
{
	hp_elf_deps d;
	hp_err er;
	hp_tri t = parse(b, n, &d, &er);
	if (t != HP_UNKNOWN)
		fail_msg("%s: answered %d", msg, t);
	assert_string_equal(er.msg, msg);
}

/* 64-bit little-endian offsets of the fixture's fields */
static void test_malformed(void **state)
{
	(void)state;
	fx_elf e = {.interp = "/lib/ld.so", .runpath = "/r", .needed = {"a.so"}};
	unsigned char b[FX_ELF_SIZE], c[FX_ELF_SIZE];
	size_t n = fx_elf_build(b, &e);
	const size_t ph1 = FX_ELF_PHDRS + 56, ph2 = FX_ELF_PHDRS + 112;
	expect_unknown(b, 20, "a truncated ELF header, or one of an unknown class or byte order");
	memcpy(c, b, n);
	c[EI_CLASS] = 3;
	expect_unknown(c, n, "a truncated ELF header, or one of an unknown class or byte order");
	memcpy(c, b, n);
	c[16] = ET_REL;
	expect_unknown(c, n, "an ELF file of type 1, neither an executable nor a shared object");
	memcpy(c, b, n);
	c[54] = 40;
	expect_unknown(c, n, "3 program headers of 40 bytes");
	memcpy(c, b, n);
	c[56] = 0;
	expect_unknown(c, n, "0 program headers of 56 bytes");
	memcpy(c, b, n);
	memset(c + 32, 0xff, 8); /* e_phoff */
	expect_unknown(c, n, "the program headers are past the end of the file");
	expect_unknown(b, FX_ELF_PHDRS + 100, "the program headers are past the end of the file");
	/* PT_INTERP: not NUL-terminated, too long, past the end */
	memcpy(c, b, n);
	c[ph1 + 32] = 4;
	expect_unknown(c, n, "PT_INTERP is not a NUL-terminated path");
	memcpy(c, b, n);
	c[ph1 + 33] = 0x20;
	expect_unknown(c, n, "PT_INTERP of 8203 bytes");
	memcpy(c, b, n);
	memset(c + ph1 + 8, 0xff, 8);
	expect_unknown(c, n, "PT_INTERP past the end of the file");
	/* PT_DYNAMIC outside every segment, two of them, overlapping loads */
	memcpy(c, b, n);
	c[ph2 + 18] = 0x7f;
	expect_unknown(c, n, "address 0x7f0400 is in no PT_LOAD segment's file bytes");
	memcpy(c, b, n);
	c[ph1] = PT_DYNAMIC;
	expect_unknown(c, n, "two PT_DYNAMIC segments");
	memcpy(c, b, n);
	c[ph1] = PT_LOAD;
	c[ph1 + 33] = 0x10;
	expect_unknown(c, n, "address 0x10400 is in two PT_LOAD segments");
	/* the file shorter than its segment says: strings past the end */
	expect_unknown(b, FX_ELF_DYNAMIC + 16,
	               "the dynamic section has no DT_NULL within its segment's first 4096 entries");
	/* the dynamic section's DT_NULL overwritten, a huge string offset,
	 * a string with no end, a second DT_STRTAB, no DT_STRTAB */
	memcpy(c, b, n);
	memset(c + FX_ELF_DYNAMIC + 4 * 16, 0xaa, 16);
	memset(c + FX_ELF_DYNAMIC + 5 * 16, 0xaa, FX_ELF_SIZE - FX_ELF_DYNAMIC - 5 * 16);
	expect_unknown(c, n,
	               "the dynamic section has no DT_NULL within its segment's first 4096 entries");
	memcpy(c, b, n);
	memset(c + FX_ELF_DYNAMIC + 8, 0xff, 8);
	expect_unknown(c, n, "a dynamic string at 18446744073709551615 is outside DT_STRSZ (9)");
	memcpy(c, b, n);
	c[FX_ELF_DYNAMIC + 3 * 16 + 8] = 6; /* DT_STRSZ ends inside "a.so" */
	expect_unknown(c, n, "a dynamic string at offset 772 has no end within 2 bytes");
	memcpy(c, b, n);
	c[FX_ELF_DYNAMIC + 3 * 16] = DT_STRTAB;
	expect_unknown(c, n, "two DT_STRTAB entries");
	memcpy(c, b, n);
	c[FX_ELF_DYNAMIC + 2 * 16] = DT_DEBUG;
	expect_unknown(c, n, "dynamic strings without DT_STRTAB and DT_STRSZ");
}

static void test_search_dirs(void **state)
{
	(void)state;
	hp_strv l = {0};
	hp_err e;
	assert_int_equal(hp_os_elf_search_dirs("$ORIGIN/../lib:${ORIGIN}:/opt/lib//:/", "/usr/bin",
	                                       &l, &e),
	                 HP_TRUE);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0], "/usr/bin/../lib");
	assert_string_equal(l.v[1], "/usr/bin");
	assert_string_equal(l.v[2], "/opt/lib");
	assert_string_equal(l.v[3], "/");
	hp_strv_free(&l);
	const char *bad[][2] = {
	    {"/a::/b", "'/a::/b': an empty entry, which the loader takes as the working directory"},
	    {"/a:", "'/a:': an empty entry, which the loader takes as the working directory"},
	    {"lib", "'lib': the loader resolves it against the working directory"},
	    {"/opt/$LIB", "'/opt/$LIB': $LIB and $PLATFORM depend on the loader's build and the CPU"},
	    {"/opt/${PLATFORM}/x",
	     "'/opt/${PLATFORM}/x': $LIB and $PLATFORM depend on the loader's build and the CPU"},
	    {"/opt/$ORIGINS", "'/opt/$ORIGINS': a '$' that is no token the loader expands"},
	    {"/opt/$HOME", "'/opt/$HOME': a '$' that is no token the loader expands"},
	    {"${ORIGIN", "'${ORIGIN': a '$' that is no token the loader expands"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(hp_os_elf_search_dirs(bad[i][0], "/usr/bin", &l, &e), HP_UNKNOWN);
		assert_string_equal(e.msg, bad[i][1]);
		hp_strv_free(&l);
	}
	/* a relative origin makes a relative entry: the working directory */
	assert_int_equal(hp_os_elf_search_dirs("$ORIGIN", "x", &l, &e), HP_UNKNOWN);
	hp_strv_free(&l);
	assert_int_equal(hp_os_elf_search_dirs("$ORIGIN", NULL, &l, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "'$ORIGIN': $ORIGIN with no directory to stand for");
	hp_strv_free(&l);
	char *x;
	assert_int_equal(hp_os_elf_expand("libfoo.so", "/o", &x, &e), HP_TRUE);
	assert_string_equal(x, "libfoo.so");
	free(x);
	char big[HP_ELF_MAX_STR];
	memset(big, 'a', sizeof big - 1);
	big[0] = '/';
	big[sizeof big - 1] = '\0';
	assert_int_equal(hp_os_elf_expand("$ORIGIN/$ORIGIN", big, &x, &e), HP_UNKNOWN);
}

static void test_binfmt_entry(void **state)
{
	(void)state;
	bool en;
	char *i;
	hp_err e;
	assert_int_equal(hp_os_binfmt_entry_parse("enabled\ninterpreter /usr/bin/qemu-aarch64\n"
	                                          "flags: F\noffset 0\nmagic 7f454c46\n",
	                                          &en, &i, &e),
	                 HP_TRUE);
	assert_true(en);
	assert_string_equal(i, "/usr/bin/qemu-aarch64");
	free(i);
	assert_int_equal(hp_os_binfmt_entry_parse("disabled\ninterpreter /x\n", &en, &i, &e),
	                 HP_TRUE);
	assert_false(en);
	free(i);
	assert_int_equal(hp_os_binfmt_entry_parse("enabled\nflags:\n", &en, &i, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "no \"interpreter\" line");
	assert_int_equal(hp_os_binfmt_entry_parse("on\n", &en, &i, &e), HP_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_both_classes_and_orders),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_search_dirs),
	    cmocka_unit_test(test_binfmt_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
