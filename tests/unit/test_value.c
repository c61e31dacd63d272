/* test_value.c: equality, printing and the binary form of values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "model/value.h"

static hp_str S(const char *s)
{
	hp_str x = {s, (uint32_t)strlen(s)};
	return x;
}

static char *fmt(const hp_value *v)
{
	static char out[512];
	hp_buf b = {0};
	hp_value_format(&b, v);
	snprintf(out, sizeof out, "%s", b.data);
	hp_buf_free(&b);
	return out;
}

static void test_fields(void **state)
{
	(void)state;
	assert_int_equal(hp_rfield_lookup(HP_T_USER, "uid"), HP_RF_USER_UID);
	assert_int_equal(hp_rfield_lookup(HP_T_GROUP, "members"), HP_RF_GROUP_MEMBERS);
	assert_int_equal(hp_rfield_lookup(HP_T_GROUP, "uid"), -1);
	assert_int_equal(hp_rfields[HP_RF_USER_GROUPS].type, HP_T_LIST);
}

static void test_format(void **state)
{
	(void)state;
	hp_value v = hp_v_bool(true);
	assert_string_equal(fmt(&v), "true");
	v = hp_v_int(-42);
	assert_string_equal(fmt(&v), "-42");
	v = hp_v_str("a\"b\\c\n\x01", 7);
	assert_string_equal(fmt(&v), "\"a\\\"b\\\\c\\n\\x01\"");
	hp_str items[2] = {S("sudo"), S("wheel")};
	v = hp_v_list(items, 2);
	assert_string_equal(fmt(&v), "{ \"sudo\", \"wheel\" }");
	v = hp_v_list(NULL, 0);
	assert_string_equal(fmt(&v), "{}");
	v = hp_v_caps((1u << 6) | (1u << 7) | (1u << 5));
	assert_string_equal(fmt(&v), "{ kill, setgid, setuid }");
	v = hp_v_role(HP_ROLE_HANGAR);
	assert_string_equal(fmt(&v), "hangar");
	hp_user u = {S("hangar"), 1001, 1002, S("/var/lib/hangar"), S("/bin/sh"), {items, 1}};
	v = hp_v_user(&u);
	assert_string_equal(fmt(&v),
	                    "user \"hangar\" (uid 1001, gid 1002, home \"/var/lib/hangar\", "
	                    "shell \"/bin/sh\", groups { \"sudo\" })");
	hp_group g = {S("docker"), 999, {NULL, 0}};
	v = hp_v_group(&g);
	assert_string_equal(fmt(&v), "group \"docker\" (gid 999, members {})");
	v = hp_v_absent(HP_T_USER, NULL);
	assert_string_equal(fmt(&v), "absent");
	v = hp_v_unknown(HP_T_BOOL, "timed out");
	assert_string_equal(fmt(&v), "unknown (timed out)");
	v = hp_v_skipped(HP_T_BOOL, "needs a live sandbox");
	assert_string_equal(fmt(&v), "skipped (needs a live sandbox)");
}

static void test_equal(void **state)
{
	(void)state;
	hp_value a = hp_v_str("x", 1), b = hp_v_str("x", 1), c = hp_v_str("y", 1);
	assert_true(hp_value_equal(&a, &b));
	assert_false(hp_value_equal(&a, &c));
	hp_value i = hp_v_int(1), bl = hp_v_bool(true);
	assert_false(hp_value_equal(&i, &bl));
	hp_value un = hp_v_unknown(HP_T_STR, "r");
	assert_false(hp_value_equal(&un, &un));
	hp_str l1[2] = {S("a"), S("b")}, l2[2] = {S("a"), S("c")};
	hp_value x = hp_v_list(l1, 2), y = hp_v_list(l2, 2), z = hp_v_list(l1, 1);
	assert_false(hp_value_equal(&x, &y));
	assert_false(hp_value_equal(&x, &z));
	assert_true(hp_value_equal(&x, &x));
	hp_user u1 = {S("h"), 1, 1, S("/"), S("/bin/sh"), {l1, 2}};
	hp_user u2 = u1;
	u2.gid = 2;
	hp_value vu1 = hp_v_user(&u1), vu2 = hp_v_user(&u2);
	assert_false(hp_value_equal(&vu1, &vu2));
	u2.gid = 1;
	assert_true(hp_value_equal(&vu1, &vu2));
}

static void round_trip(const hp_value *v)
{
	hp_buf b = {0};
	hp_value_encode(&b, v);
	hp_pool a;
	hp_pool_init(&a, 1 << 20);
	hp_value out;
	hp_err err = {{0}};
	size_t off = 0;
	assert_true(hp_value_decode((const uint8_t *)b.data, b.len, &off, &a, &out, &err));
	assert_int_equal(off, b.len);
	assert_int_equal(out.state, v->state);
	if (v->state == HP_VAL_KNOWN)
		assert_true(hp_value_equal(v, &out));
	char want[512];
	snprintf(want, sizeof want, "%s", fmt(v));
	assert_string_equal(fmt(&out), want);
	/* every truncation is an error, never a crash */
	for (size_t n = 0; n < b.len; n++) {
		off = 0;
		assert_false(hp_value_decode((const uint8_t *)b.data, n, &off, &a, &out, &err));
	}
	hp_pool_free(&a);
	hp_buf_free(&b);
}

static void test_round_trip(void **state)
{
	(void)state;
	hp_str items[3] = {S("a"), S(""), S("ccc")};
	hp_user u = {S("agent"), 1000, 1000, S("/home/agent"), S("/bin/bash"), {items, 3}};
	hp_group g = {S("sudo"), 27, {items, 2}};
	hp_value vs[] = {
	    hp_v_bool(false),
	    hp_v_int(INT64_MIN),
	    hp_v_str("path", 4),
	    hp_v_list(items, 3),
	    hp_v_caps(UINT64_C(1) << 40),
	    hp_v_role(HP_ROLE_AGENT),
	    hp_v_user(&u),
	    hp_v_group(&g),
	    hp_v_absent(HP_T_USER, NULL),
	    hp_v_none(),
	    hp_v_unknown(HP_T_BOOL, "EPERM"),
	    hp_v_skipped(HP_T_CAPS, "offline"),
	};
	for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
		round_trip(&vs[i]);
}

static void decode_error(const uint8_t *data, size_t len, const char *want)
{
	hp_pool a;
	hp_pool_init(&a, 1 << 20);
	hp_value out;
	hp_err err = {{0}};
	size_t off = 0;
	assert_false(hp_value_decode(data, len, &off, &a, &out, &err));
	assert_string_equal(err.msg, want);
	hp_pool_free(&a);
}

static void test_decode_errors(void **state)
{
	(void)state;
	const uint8_t bad_state[] = {7, 1};
	decode_error(bad_state, sizeof bad_state, "encoded value at byte 0: bad state 7 or type 1");
	const uint8_t bad_bool[] = {0, HP_T_BOOL, 2};
	decode_error(bad_bool, sizeof bad_bool, "encoded value at byte 0: bool is 2");
	const uint8_t long_str[] = {0, HP_T_STR, 0x01, 0x00, 0x01, 0x00};
	decode_error(long_str, sizeof long_str,
	             "encoded value at byte 2: string is 65537 bytes, more than 65536");
	const uint8_t nul_str[] = {0, HP_T_STR, 2, 0, 0, 0, 'a', 0};
	decode_error(nul_str, sizeof nul_str,
	             "encoded value at byte 2: string contains a NUL byte");
	const uint8_t big_list[] = {0, HP_T_LIST, 0xff, 0xff, 0xff, 0xff};
	decode_error(big_list, sizeof big_list,
	             "encoded value at byte 2: list has 4294967295 items, more than 4096");
	const uint8_t short_list[] = {0, HP_T_LIST, 3, 0, 0, 0, 0, 0, 0, 0};
	decode_error(short_list, sizeof short_list,
	             "encoded value truncated at byte 6 (reading list)");
	const uint8_t bad_role[] = {0, HP_T_ROLE, 3};
	decode_error(bad_role, sizeof bad_role, "encoded value at byte 0: role 3");
}

static void test_copy(void **state)
{
	(void)state;
	hp_str items[2] = {S("x"), S("y")};
	hp_group g = {S("grp"), 5, {items, 2}};
	hp_value v = hp_v_group(&g), out;
	hp_pool a;
	hp_pool_init(&a, 1 << 16);
	assert_true(hp_value_copy(&a, &v, &out));
	assert_ptr_not_equal(out.u.group, &g);
	assert_true(hp_value_equal(&v, &out));
	hp_pool_free(&a);
	hp_pool_init(&a, 16);
	assert_false(hp_value_copy(&a, &v, &out));
	hp_pool_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fields),        cmocka_unit_test(test_format),
	    cmocka_unit_test(test_equal),         cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_decode_errors), cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
