/* test_verify.c: every rejection class of the loader and verifier, each on
 * a hand-made bad file, with its exact message (the file, the byte offset,
 * the instruction, what is wrong). Structural cases patch one field of a
 * good file and reseal it (length and checksum recomputed) so the check
 * behind the checksum is reached; code cases assemble a bad program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bctest.h"

#define E(op, a, b, c) hp_bcw_emit(w, HP_I_##op, a, b, c)
#define S(s) hp_bcw_str(w, s)
#define K(v) hp_bcw_const(w, HP_T_INT, (uint64_t)(v))
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

static bool printing;

#define EXPECT(got, want)                                              \
	do {                                                           \
		const char *g_ = (got);                                \
		if (printing)                                          \
			printf("%s:%d: %s\n", __func__, __LINE__, g_); \
		else                                                   \
			assert_string_equal(g_, want);                 \
	} while (0)

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

/* --- code -------------------------------------------------------------------------------- */

/* A program with one param of type t whose code is emitted by the caller
 * from start; the message the verifier gives. */
static const char *param_code(hp_bcw *w, hp_type t)
{
	hp_bcw_param(w, "p", t, bt_region(w, 0), LOC);
	static hp_err err;
	hp_bc *bc = bt_load(w, &err);
	if (bc) {
		hp_bc_free(bc);
		return "(accepted)";
	}
	return err.msg;
}

/* A program whose agent checks are emitted by the caller from 0 (rule "r"
 * is declared first so assertions can be added). */
static hp_bcw *body_new(void)
{
	hp_bcw *w = bt_new();
	hp_bcw_rule(w, "r", "title", NULL, HP_APPLIES_ALL, LOC);
	return w;
}

static const char *body_code(hp_bcw *w)
{
	bt_role(w, HP_ROLE_AGENT, 0);
	static hp_err err;
	hp_bc *bc = bt_load(w, &err);
	if (bc) {
		hp_bc_free(bc);
		return "(accepted)";
	}
	return err.msg;
}

static uint32_t assertion(hp_bcw *w, hp_role role)
{
	return hp_bcw_assertion(w, role, HP_BC_REQUIRE, "require x", LOC);
}

static void test_opcodes_and_operands(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	hp_bcw_emit(w, (hp_opcode)200, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 264, instruction 0 (opcode 200): unknown opcode");
	w = bt_new();
	hp_bcw_emit(w, HP_I_COUNT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 264, instruction 0 (opcode 42): unknown opcode");
	w = bt_new();
	E(PUSH_STR, 1, 0, S("x"));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 274, instruction 0 (PUSH_STR): operand a is 1, must be 0");
	w = bt_new();
	E(PUSH_STR, 0, 3, S("x"));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 274, instruction 0 (PUSH_STR): operand b is 3, must be 0");
	w = bt_new();
	E(PUSH_BOOL, 2, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 264, instruction 0 (PUSH_BOOL): operand a is 2, not a bool (0 or 1)");
	w = bt_new();
	E(PUSH_ROLE, 3, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_ROLE),
	       "t.hpb: byte 264, instruction 0 (PUSH_ROLE): operand a is 3, not a role");
	w = bt_new();
	E(PUSH_STR, 0, 0, 500);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 264, instruction 0 (PUSH_STR): string 500 out of range (5 strings)");
	w = bt_new();
	E(PUSH_INT, 0, 0, 9);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 264, instruction 0 (PUSH_INT): constant 9 out of range (0 constants)");
	w = bt_new();
	E(PUSH_INT, 0, 0, hp_bcw_const(w, HP_T_CAPS, 1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 280, instruction 0 (PUSH_INT): constant 0 is caps, not int");
	w = bt_new();
	E(PUSH_CAPS, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_CAPS),
	       "t.hpb: byte 280, instruction 0 (PUSH_CAPS): constant 0 is int, not caps");
	w = bt_new();
	E(LOAD_PARAM, 0, 0, 4);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 264, instruction 0 (LOAD_PARAM): param 4 out of range (1 params)");
	w = bt_new();
	E(LOAD_PARAM, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 264, instruction 0 (LOAD_PARAM): param p reads param p, which is "
	       "not defined before it");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(FIELD, 40, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 294, instruction 2 (FIELD): operand a is 40, not a field");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("docker"));
	E(PROBE1, 0, HP_PROBE_GROUP, 0);
	E(FIELD, HP_RF_USER_HOME, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 295, instruction 2 (FIELD): field home is a user's, the stack has a "
	       "group");
}

static void test_probes(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PROBE0, 0, 250, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 264, instruction 0 (PROBE0): operand b is 250, not a probe");
	w = bt_new();
	E(PROBE0, 0, HP_PROBE_ENV, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 264, instruction 0 (PROBE0): probe env takes an argument");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("x"));
	E(PROBE1, 0, HP_PROBE_SUDO, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 282, instruction 1 (PROBE1): probe sudo takes no argument");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("/usr/bin"));
	E(PROBE1, 0, HP_PROBE_WRITABLE, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 289, instruction 1 (PROBE1): probe writable is asked as a role; "
	       "param p may ask only global probes");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(0));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 288, instruction 1 (PROBE1): takes (string), the stack has (int)");
}

static void test_stack(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("x"));
	E(CONCAT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 282, instruction 1 (CONCAT): stack underflow: takes 2 values, the "
	       "stack has 1");
	w = bt_new();
	for (int i = 0; i < 65; i++)
		E(PUSH_BOOL, 1, 0, 0);
	for (int i = 0; i < 64; i++)
		E(AND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 776, instruction 64 (PUSH_BOOL): stack overflow: more than 64 values");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(PUSH_STR, 0, 0, S("x"));
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_LIST),
	       "t.hpb: byte 306, instruction 2 (APPEND): takes (list, string), the stack has "
	       "(int, string)");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(PUSH_STR, 0, 0, S("x"));
	E(EQ, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 306, instruction 2 (EQ): takes (any, the same type), the stack has "
	       "(int, string)");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(PUSH_INT, 0, 0, K(1));
	E(SUBSET, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 296, instruction 2 (SUBSET): takes (list or caps, the same type), "
	       "the stack has (int, int)");
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_CAPS, 0, 0, hp_bcw_const(w, HP_T_CAPS, 1));
	E(INTERSECT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_LIST),
	       "t.hpb: byte 296, instruction 2 (INTERSECT): takes (list or caps, the same "
	       "type), the stack has (list, caps)");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_STR),
	       "t.hpb: byte 288, instruction 1 (RETURN): takes (string), the stack has (int)");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 296, instruction 2 (RETURN): param p ends with values left on the "
	       "stack (int)");
	/* an identity is a uid or a user */
	w = bt_new();
	E(END, 0, 0, 0);
	hp_bc_region body = bt_region(w, 0);
	uint32_t id = hp_bcw_pc(w);
	E(PUSH_STR, 0, 0, S("root"));
	E(RETURN, 0, 0, 0);
	hp_bcw_role(w, HP_ROLE_ROOT, 0, HP_BC_NONE, bt_region(w, id), body, LOC);
	hp_err err;
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 291, instruction 2 (RETURN): takes (int or user), the stack has "
	       "(string)");
}

static void test_regions(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 280, instruction 0 (PUSH_INT): param p does not end with RETURN");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 288, instruction 1 (RETURN): ends param p before its last "
	       "instruction 2");
	w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, 0);
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_INT),
	       "t.hpb: byte 288, instruction 1 (REQUIRE): not allowed in param p (only in a "
	       "role's checks)");
	w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 346, instruction 1 (RETURN): not allowed in the checks of role "
	       "agent (only in a value region)");
	w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 346, instruction 1 (END): the checks of role agent ends with values "
	       "left on the stack (bool)");
	w = body_new();
	E(END, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 338, instruction 0 (END): ends the checks of role agent before its "
	       "last instruction 1");
}

static void test_jumps(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 272, instruction 1 (JUMP_TRUE): backward jump to instruction 0");
	w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 1);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 272, instruction 1 (JUMP_TRUE): backward jump to instruction 1");
	w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 3);
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "p", HP_T_BOOL, bt_region(w, 0), LOC);
	E(PUSH_BOOL, 1, 0, 0); /* the next region */
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "q", HP_T_BOOL, bt_region(w, 3), LOC);
	hp_err err;
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 310, instruction 1 (JUMP_TRUE): jump to instruction 3, out of param "
	       "p (instructions 0 to 2)");
	w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 3);
	E(PUSH_INT, 0, 0, K(1));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 304, instruction 3 (RETURN): the stack differs between paths: "
	       "(bool) from instruction 1, (bool, int) here");
	/* 65 jumps to 65 different targets, all pending at once */
	w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	for (uint32_t i = 0; i < 65; i++)
		E(JUMP_TRUE, 0, 0, 66 + i);
	for (int i = 0; i < 65; i++)
		E(NOT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_BOOL),
	       "t.hpb: byte 784, instruction 65 (JUMP_TRUE): more than 64 jumps pending at once");
}

static void test_loops(void **state)
{
	(void)state;
	hp_bcw *w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 0);
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 356, instruction 1 (FOR): loop without a bound");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, HP_BC_MAX_LOOP_BOUND + 1);
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 356, instruction 1 (FOR): loop bound 65537 is more than 65536");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 1, 0, 4);
	E(ENDFOR, 1, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 356, instruction 1 (FOR): loop slot 1, expected 0 (its nesting "
	       "depth)");
	w = body_new();
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 348, instruction 0 (ENDFOR): no loop is open");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 1, 0, 4);
	E(ENDFOR, 0, 0, S("d"));
	E(ENDFOR, 1, 0, S("e"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 390, instruction 4 (ENDFOR): closes loop slot 0, the open loop is "
	       "slot 1");
	w = body_new();
	E(LOAD_LOCAL, 0, 0, 0);
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 338, instruction 0 (LOAD_LOCAL): loop slot 0 is not open here (0 "
	       "open)");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 354, instruction 2 (END): loop opened at instruction 1 is not closed");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 0, 0, 0);
	E(ENDFOR, 0, 0, S("d"));
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 372, instruction 3 (ENDFOR): the loop body changes the stack from "
	       "() to (bool)");
	/* a jump out of a loop, and one into a loop */
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 6);
	E(POP, 0, 0, 0);
	E(ENDFOR, 0, 0, S("d"));
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 372, instruction 3 (JUMP_TRUE): jump to instruction 6 leaves its "
	       "loop");
	w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(JUMP_TRUE, 0, 0, 4);
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(POP, 0, 0, 0);
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 380, instruction 4 (POP): the jump from instruction 1 crosses a "
	       "loop boundary (a jump may not enter or leave a loop)");
	w = body_new();
	for (int i = 0; i < 9; i++) {
		E(EMPTY_LIST, 0, 0, 0);
		E(FOR, (uint32_t)i, 0, 2);
	}
	for (int i = 8; i >= 0; i--)
		E(ENDFOR, (uint32_t)i, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 484, instruction 17 (FOR): loops nested more than 8 deep");
}

/* NONEMPTY (a loop over nothing is unknown): a list in, a list out, its
 * sentence a string of the file, only in a role's checks. */
static void test_nonempty(void **state)
{
	(void)state;
	hp_bcw *w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("why"));
	E(FOR, 0, 0, 4);
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "(accepted)");
	w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(NONEMPTY, 0, 0, S("why"));
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 358, instruction 1 (NONEMPTY): takes (list), the stack has (bool)");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(NONEMPTY, 0, 0, 900);
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 346, instruction 1 (NONEMPTY): string 900 out of range (6 strings)");
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(NONEMPTY, 1, 0, S("why"));
	E(POP, 0, 0, 0);
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 358, instruction 1 (NONEMPTY): operand a is 1, must be 0");
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("why"));
	E(RETURN, 0, 0, 0);
	EXPECT(param_code(w, HP_T_LIST), "t.hpb: byte 284, instruction 1 (NONEMPTY): not allowed in param p (only in a "
	                                       "role's checks)");
}

static void test_bounds(void **state)
{
	(void)state;
	hp_bcw *w = body_new();
	for (int i = 0; i < 3; i++) {
		E(EMPTY_LIST, 0, 0, 0);
		E(FOR, (uint32_t)i, 0, 1024);
	}
	for (int i = 2; i >= 0; i--)
		E(ENDFOR, (uint32_t)i, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 396, instruction 6 (ENDFOR): the checks of role agent can run more "
	       "than 134217728 instructions");
	/* 2 nested loops of 4096 and 257 probes in each iteration */
	w = body_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4096);
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 1, 0, 16);
	for (int i = 0; i < 257; i++) {
		E(PROBE0, 0, HP_PROBE_SUDO, 0);
		E(POP, 0, 0, 0);
	}
	E(ENDFOR, 1, 0, S("e"));
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	EXPECT(body_code(w), 
	       "t.hpb: byte 4486, instruction 516 (PROBE0): the checks of role agent can ask more "
	       "than 16777216 probes");
}

static void test_assertions(void **state)
{
	(void)state;
	hp_bcw *w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, 3);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 346, instruction 1 (REQUIRE): assertion 3 out of range (0 "
	       "assertions)");
	/* root's assertion checked in agent's code */
	w = body_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, assertion(w, HP_ROLE_ROOT));
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_AGENT, 0);
	uint32_t rb = hp_bcw_pc(w);
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_ROOT, rb);
	hp_err err;
	EXPECT(bt_load(w, &err) ? "(accepted)" : err.msg,
	       "t.hpb: byte 424, instruction 1 (REQUIRE): assertion 0 is role root's, not role "
	       "agent's");
	w = body_new();
	uint32_t a = assertion(w, HP_ROLE_AGENT);
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, a);
	E(PUSH_BOOL, 1, 0, 0);
	E(FORBID, 0, 0, a);
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 404, instruction 3 (FORBID): assertion 0 is already checked at "
	       "instruction 1");
	w = body_new();
	assertion(w, HP_ROLE_AGENT);
	E(END, 0, 0, 0);
	EXPECT(body_code(w), "t.hpb: byte 344: assertion 0 (rule r) is never checked");
	w = body_new();
	E(PUSH_STR, 0, 0, S("x"));
	E(REQUIRE, 0, 0, assertion(w, HP_ROLE_AGENT));
	E(END, 0, 0, 0);
	EXPECT(body_code(w),
	       "t.hpb: byte 398, instruction 1 (REQUIRE): takes (bool), the stack has (string)");
}

int main(int argc, char **argv)
{
	(void)argv;
	printing = argc > 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_good_file_loads),
	    cmocka_unit_test(test_header),
	    cmocka_unit_test(test_directory),
	    cmocka_unit_test(test_tables),
	    cmocka_unit_test(test_list_constants),
	    cmocka_unit_test(test_duplicates),
	    cmocka_unit_test(test_opcodes_and_operands),
	    cmocka_unit_test(test_probes),
	    cmocka_unit_test(test_stack),
	    cmocka_unit_test(test_regions),
	    cmocka_unit_test(test_jumps),
	    cmocka_unit_test(test_loops),
	    cmocka_unit_test(test_nonempty),
	    cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_assertions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
