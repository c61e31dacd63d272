/* test_verify_file.c: every rejection class of the loader's structural
 * checks, each on a good file with one field patched and resealed (length
 * and checksum recomputed, so that the check behind the checksum is
 * reached), with its exact message (the file, the byte offset, what is
 * wrong): the header, the section directory, and each table's entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bctest.h"
#include "expect.h"

#define LOC ((hp_bcw_loc){"t.hpol", 2, 3})

/* --- a good file ----------------------------------------------------------------- */

/* param user = "hangar"; role agent = user(user), keep caps { setuid },
 * no_new_privs { require true; forbid false }; rule r1; provider docker
 * never split when false because "no". */
static uint8_t *good(size_t *len)
{
	hp_bcw *w = bt_new();
	hp_bcw_policy(w, "good", 3);
	E(PUSH_STR, 0, 0, S("hangar"));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "user", HP_T_STR, bt_region(w, 0), LOC);
	uint32_t id = hp_bcw_pc(w);
	E(LOAD_PARAM, 0, 0, 0);
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(RETURN, 0, 0, 0);
	hp_bc_region identity = bt_region(w, id);
	uint32_t body = hp_bcw_pc(w);
	hp_bcw_rule(w, "r1", "title", "remedy", HP_APPLIES_ALL, LOC);
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_REQUIRE, "require true", LOC));
	E(PUSH_BOOL, 0, 0, 0);
	E(FORBID, 0, 0, hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_FORBID, "forbid false", LOC));
	E(END, 0, 0, 0);
	hp_bcw_role(w, HP_ROLE_AGENT, HP_BC_ROLE_KEEP_CAPS | HP_BC_ROLE_NO_NEW_PRIVS,
	            hp_bcw_const(w, HP_T_CAPS, 1u << 7), identity, bt_region(w, body), LOC);
	hp_bcw_provider(w, HP_PROVIDER_DOCKER, HP_SETTING_AUTO, LOC);
	uint32_t c = hp_bcw_pc(w);
	E(PUSH_BOOL, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	hp_bcw_cond(w, HP_BC_NEVER, bt_region(w, c), "false", "no", LOC);
	return bt_bytes(w, len);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
}

/* The file offset of section s. */
static uint32_t sec(const uint8_t *d, hp_bc_section s)
{
	return rd32(d + HP_BC_HEADER_SIZE + (size_t)s * HP_BC_DIRENT_SIZE + 4);
}

static const char *reject(const uint8_t *d, size_t len)
{
	static hp_err err;
	memset(&err, 0, sizeof err);
	hp_bc *bc = hp_bc_load("t.hpb", d, len, &err);
	if (bc) {
		hp_bc_free(bc);
		return "(accepted)";
	}
	return err.msg;
}

/* Patch the good file, reseal it, and return the loader's message. */
typedef void (*patch_fn)(uint8_t *d, size_t *len);

static const char *patched(patch_fn f, bool reseal)
{
	size_t len;
	uint8_t *d = good(&len);
	d = realloc(d, len + 64);
	f(d, &len);
	if (reseal)
		hp_bc_reseal(d, len);
	const char *m = reject(d, len);
	free(d);
	return m;
}


static void test_good_file_loads(void **state)
{
	(void)state;
	size_t len;
	uint8_t *d = good(&len);
	hp_err err = {{0}};
	hp_bc *bc = hp_bc_load("t.hpb", d, len, &err);
	if (!bc)
		fail_msg("%s", err.msg);
	assert_string_equal(hp_bc_str(bc, bc->name), "good");
	assert_int_equal(bc->version, 3);
	assert_int_equal(bc->roles[0].identity_type, HP_T_USER);
	assert_int_equal(bc->asserts[1].pc, 8);
	hp_bc_free(bc);
	free(d);
}

/* --- the header -------------------------------------------------------------------- */

static void p_magic(uint8_t *d, size_t *len)
{
	(void)len;
	d[1] = 'X';
}
static void p_version(uint8_t *d, size_t *len)
{
	(void)len;
	d[8] = 9;
}
static void p_flags(uint8_t *d, size_t *len)
{
	(void)len;
	d[10] = 1;
}
static void p_length(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(d + 12, 12345);
}
static void p_checksum(uint8_t *d, size_t *len)
{
	d[*len - 1] ^= 0x40;
}
static void p_nsec(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(d + 32, 7);
}
static void p_reserved(uint8_t *d, size_t *len)
{
	(void)len;
	d[37] = 1;
}
static void p_short(uint8_t *d, size_t *len)
{
	(void)d;
	*len = 100;
}
static void p_truncated(uint8_t *d, size_t *len)
{
	(void)d;
	*len -= 10;
}
static void p_trailing(uint8_t *d, size_t *len)
{
	d[*len] = 0;
	*len += 1;
}
static void p_dir_id(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(d + HP_BC_HEADER_SIZE + 12, 5);
}
static void p_dir_off(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(d + HP_BC_HEADER_SIZE + 28, 4);
}
static void p_name(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(d + 20, 999);
}

static void test_header(void **state)
{
	(void)state;
	static uint8_t huge[HP_BC_MAX_FILE + 1];
	EXPECT(reject(huge, sizeof huge), "t.hpb: 16777217 bytes, more than the limit of 16777216");
	EXPECT(patched(p_short, false),
	       "t.hpb: byte 100: truncated: 100 bytes, a header needs 136");
	EXPECT(patched(p_magic, false), "t.hpb: byte 0: bad magic: not a compiled hangar policy");
	EXPECT(patched(p_version, false),
	       "t.hpb: byte 8: format version 9, this runtime reads version 2");
	EXPECT(patched(p_flags, false), "t.hpb: byte 10: unknown flags 0x0001");
	EXPECT(patched(p_length, false),
	       "t.hpb: byte 12: length field says 12345 bytes, the file has 714");
	EXPECT(patched(p_truncated, false),
	       "t.hpb: byte 12: length field says 714 bytes, the file has 704");
	EXPECT(
	    patched(p_checksum, false),
	    "t.hpb: byte 16: checksum mismatch: the file says 94dd51d5, its bytes give e2011045");
	EXPECT(patched(p_nsec, true), "t.hpb: byte 32: 7 sections, this format has 8");
	EXPECT(patched(p_reserved, true), "t.hpb: byte 37: header: reserved byte is 1, not 0");
	EXPECT(patched(p_name, true),
	       "t.hpb: byte 20: policy name: string index 999 out of range (14 strings)");
}

static void test_directory(void **state)
{
	(void)state;
	EXPECT(patched(p_dir_id, true),
	       "t.hpb: byte 52: section directory entry 1 has id 5, expected 1 (consts)");
	EXPECT(patched(p_dir_off, true),
	       "t.hpb: byte 68: params section at offset 4, expected 362");
	EXPECT(patched(p_truncated, true),
	       "t.hpb: byte 132: source map section of 24 bytes at offset 690 runs past the end "
	       "(704 bytes)");
	EXPECT(patched(p_trailing, true),
	       "t.hpb: byte 714: trailing data after the last section (1 bytes)");
}

/* --- tables ---------------------------------------------------------------------------- */

/* offsets inside the good file's sections */
#define AT(s, off) (d + sec(d, HP_SEC_##s) + (off))

static void p_str_count(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(STRINGS, 0), 0x10000000);
}
static void p_str_range(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(STRINGS, 4 + 8), 5000);
}
static void p_str_nul(uint8_t *d, size_t *len)
{
	(void)len;
	uint32_t n = rd32(AT(STRINGS, 0)), off = rd32(AT(STRINGS, 4 + 8));
	*AT(STRINGS, 4 + 8 * n + off + 1) = 0;
}
static void p_str_unterminated(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(STRINGS, 4 + 8 + 4), rd32(AT(STRINGS, 4 + 8 + 4)) - 1);
}
static void p_str_utf8(uint8_t *d, size_t *len)
{
	(void)len;
	uint32_t n = rd32(AT(STRINGS, 0)), off = rd32(AT(STRINGS, 4 + 8));
	*AT(STRINGS, 4 + 8 * n + off + 2) = 0xc0;
}
static void p_const_type(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(CONSTS, 4) = HP_T_STR;
}
static void p_const_pad(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(CONSTS, 4 + 3) = 1;
}
static void p_const_left(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(CONSTS, 0), 0);
}
static void p_param_name(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PARAMS, 4), 77);
}
static void p_param_type(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(PARAMS, 4 + 4) = 0;
}
static void p_param_region(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PARAMS, 4 + 12), 100);
}
static void p_param_empty(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PARAMS, 4 + 12), 0);
}
static void p_param_line(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PARAMS, 4 + 20), 0);
}
static void p_roles_count(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(ROLES, 0), 4);
}
static void p_role_id(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(ROLES, 4) = 7;
}
static void p_role_flags(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(ROLES, 5) = 0x10;
}
static void p_role_both(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(ROLES, 5) = 5;
}
static void p_role_keep(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(ROLES, 5) = 2;
}
static void p_role_caps(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(ROLES, 8), 7);
}
static void p_rule_mask(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(RULES, 4 + 12), 0x10000);
}
static void p_rule_first(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(RULES, 4 + 16), 1);
}
static void p_rule_remedy(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(RULES, 4 + 8), 4000);
}
static void p_asserts_count(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(RULES, 4 + 36), 3);
}
static void p_assert_rule(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(RULES, 4 + 36 + 4), 1);
}
static void p_assert_role(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(RULES, 4 + 36 + 4 + 4) = 1;
}
static void p_assert_kind(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(RULES, 4 + 36 + 4 + 5) = 2;
}
static void p_prov_id(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(PROVIDERS, 4) = 4;
}
static void p_prov_setting(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(PROVIDERS, 5) = 3;
}
static void p_prov_first(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PROVIDERS, 8), 2);
}
static void p_cond_kind(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(PROVIDERS, 4 + 24 + 4) = 2;
}
static void p_cond_needs(uint8_t *d, size_t *len)
{
	(void)len;
	*AT(PROVIDERS, 4 + 24 + 4) = 0;
}
static void p_cond_because(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(PROVIDERS, 4 + 24 + 4 + 16), 0xffffffff);
}
static void p_map_start(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(SRCMAP, 4), 1);
}
static void p_map_empty(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(SRCMAP, 0), 0);
}
static void p_code_left(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(CODE, 0), 11);
}
static void p_region_overlap(uint8_t *d, size_t *len)
{
	(void)len;
	wr32(AT(ROLES, 4 + 8), 1);
}
static void p_region_gap(uint8_t *d, size_t *len)
{
	(void)len;
	/* the param's region shrinks to its RETURN: instruction 0 is nobody's */
	wr32(AT(PARAMS, 4 + 8), 1);
	wr32(AT(PARAMS, 4 + 12), 1);
}

static void test_tables(void **state)
{
	(void)state;
	EXPECT(patched(p_str_count, true),
	       "t.hpb: byte 140: strings: 268435456 entries of 8 bytes do not fit in the 202 "
	       "bytes left");
	EXPECT(patched(p_str_range, true),
	       "t.hpb: byte 148: string 1: offset 5000 length 4 out of range (90 bytes of text)");
	EXPECT(patched(p_str_nul, true), "t.hpb: byte 254: string 1 contains a NUL byte");
	EXPECT(patched(p_str_unterminated, true),
	       "t.hpb: byte 256: string 1 is not NUL-terminated");
	EXPECT(patched(p_str_utf8, true), "t.hpb: byte 255: string 1 is not valid UTF-8");
	EXPECT(patched(p_const_type, true),
	       "t.hpb: byte 346: constant 0 has type 3, not int, caps or list");
	EXPECT(patched(p_const_pad, true), "t.hpb: byte 349: constant: reserved byte is 1, not 0");
	EXPECT(patched(p_const_left, true),
	       "t.hpb: byte 346: 16 bytes left over at the end of the consts section");
	EXPECT(patched(p_param_name, true),
	       "t.hpb: byte 366: param name: string index 77 out of range (14 strings)");
	EXPECT(patched(p_param_type, true), "t.hpb: byte 370: param 0: type 0 is not a value type");
	EXPECT(patched(p_param_region, true),
	       "t.hpb: byte 374: param: code region 0+100 out of range (12 instructions)");
	EXPECT(patched(p_param_empty, true), "t.hpb: byte 378: param: empty code region");
	EXPECT(patched(p_param_line, true),
	       "t.hpb: byte 386: param: line 0, column 3: both start at 1");
	EXPECT(patched(p_roles_count, true), "t.hpb: byte 394: 4 roles, there are only 3");
	EXPECT(patched(p_role_id, true), "t.hpb: byte 398: role 0: no role has id 7");
	EXPECT(patched(p_role_flags, true), "t.hpb: byte 399: role agent: unknown flags 0x10");
	EXPECT(patched(p_role_both, true),
	       "t.hpb: byte 399: role agent: both no caps and keep caps");
	EXPECT(patched(p_role_keep, true),
	       "t.hpb: byte 402: role agent: kept capabilities given without the keep caps flag");
	EXPECT(patched(p_role_caps, true),
	       "t.hpb: byte 402: role agent: kept capabilities 7 is not a caps constant");
	EXPECT(patched(p_rule_mask, true),
	       "t.hpb: byte 450: rule 0: applicability mask 0x10000 has bits past 0xffff");
	EXPECT(patched(p_rule_first, true),
	       "t.hpb: byte 454: rule 0: first assertion 1, expected 0");
	EXPECT(patched(p_rule_remedy, true),
	       "t.hpb: byte 446: rule remedy: string index 4000 out of range (14 strings)");
	EXPECT(patched(p_asserts_count, true), "t.hpb: byte 474: 3 assertions, the rules have 2");
	EXPECT(patched(p_assert_rule, true),
	       "t.hpb: byte 478: assertion 0 belongs to rule 1, its place says rule 0");
	EXPECT(patched(p_assert_role, true),
	       "t.hpb: byte 482: assertion 0: role hangar is not declared");
	EXPECT(patched(p_assert_kind, true),
	       "t.hpb: byte 483: assertion 0: kind 2 is neither require nor forbid");
	EXPECT(patched(p_prov_id, true), "t.hpb: byte 530: provider 0: no provider has id 4");
	EXPECT(patched(p_prov_setting, true),
	       "t.hpb: byte 531: provider docker: uid_split default 3");
	EXPECT(patched(p_prov_first, true),
	       "t.hpb: byte 534: provider docker: first condition 2, expected 0");
	EXPECT(patched(p_cond_kind, true),
	       "t.hpb: byte 558: condition 0: kind 2 is neither needs nor never");
	EXPECT(patched(p_cond_needs, true),
	       "t.hpb: byte 574: condition 0: a `split needs` has no reason");
	EXPECT(patched(p_cond_because, true),
	       "t.hpb: byte 574: condition reason: string index 4294967295 out of range (14 "
	       "strings)");
	EXPECT(patched(p_map_start, true),
	       "t.hpb: byte 694: source map starts at instruction 1, not 0");
	EXPECT(patched(p_map_empty, true), "t.hpb: byte 690: the source map is empty");
	EXPECT(patched(p_code_left, true),
	       "t.hpb: byte 682: 8 bytes left over at the end of the code section");
	EXPECT(patched(p_region_overlap, true),
	       "t.hpb: byte 602: instruction 1: the code of the identity of role agent overlaps "
	       "the code of param user");
	EXPECT(patched(p_region_gap, true), "t.hpb: byte 594: instruction 0 belongs to no region");
}

/* list constants: a run of strings, checked against the strings table */
static const char *list_const(uint64_t value)
{
	hp_bcw *w = bt_new();
	E(PUSH_LIST, 0, 0, hp_bcw_const(w, HP_T_LIST, value));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "p", HP_T_LIST, bt_region(w, 0), LOC);
	static hp_err err;
	hp_bc *bc = bt_load(w, &err);
	if (bc) {
		hp_bc_free(bc);
		return "(accepted)";
	}
	return err.msg;
}

static void test_list_constants(void **state)
{
	(void)state;
	EXPECT(list_const((uint64_t)1 << 32 | 0), "(accepted)");
	EXPECT(list_const((uint64_t)5000 << 32 | 0),
	       "t.hpb: byte 220: list constant 0 has 5000 items, more than 4096");
	EXPECT(list_const((uint64_t)2 << 32 | 4),
	       "t.hpb: byte 216: list constant 0: strings 4+2 out of range (5 strings)");
	hp_bcw *w = bt_new();
	E(PUSH_LIST, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "p", HP_T_LIST, bt_region(w, 0), LOC);
	hp_err err;
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 280, instruction 0 (PUSH_LIST): constant 0 is int, not list");
}

static void test_duplicates(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "x", HP_T_INT, bt_region(w, 0), LOC);
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "x", HP_T_INT, bt_region(w, 2), LOC);
	hp_err err;
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 256: param 1 has the same name as param 0 ('x')");
	w = bt_new();
	hp_bcw_rule(w, "same", "t", NULL, HP_APPLIES_ALL, LOC);
	hp_bcw_rule(w, "same", "t", NULL, HP_APPLIES_ALL, LOC);
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 269: rule 1 has the same id as rule 0 ('same')");
	w = bt_new();
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_AGENT, 0);
	uint32_t b = hp_bcw_pc(w);
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_AGENT, b);
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 258: role agent is declared twice");
	w = bt_new();
	hp_bcw_provider(w, HP_PROVIDER_E2B, HP_SETTING_REQUIRED, LOC);
	hp_bcw_provider(w, HP_PROVIDER_E2B, HP_SETTING_REQUIRED, LOC);
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 242: provider e2b is declared twice");
}

int main(int argc, char **argv)
{
	(void)argv;
	expect_printing = argc > 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_good_file_loads),
	    cmocka_unit_test(test_header),
	    cmocka_unit_test(test_directory),
	    cmocka_unit_test(test_tables),
	    cmocka_unit_test(test_list_constants),
	    cmocka_unit_test(test_duplicates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
