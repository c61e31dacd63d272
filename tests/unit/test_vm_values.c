/* test_vm_values.c: the VM's opcodes that compute values, on known values
 * and on ABSENT, UNKNOWN and SKIPPED ones: constants, lists and params,
 * Kleene logic and its jumps, comparisons, strings, sets of strings and of
 * capabilities, record fields and EXISTS. Programs are assembled by hand
 * (vmtest.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmtest.h"

static void test_return_and_constants(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "true");
	w = bt_new();
	E(PUSH_BOOL, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "false");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(-493));
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_INT), "-493");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("hangar"));
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_STR), "\"hangar\"");
	w = bt_new();
	E(PUSH_CAPS, 0, 0, CAPS((1u << 6) | (1u << 7)));
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_CAPS), "{ setgid, setuid }");
	w = bt_new();
	E(PUSH_ROLE, HP_ROLE_HANGAR, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_ROLE), "hangar");
}

static void test_lists(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{}");
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("sudo"));
	E(APPEND, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("wheel"));
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{ \"sudo\", \"wheel\" }");
	/* an unknown item makes the list unknown */
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("NOPE"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "unknown (no stub answer)");
}

static void test_push_list(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	hp_str items[3] = {{"sudo", 4}, {"wheel", 5}, {"sudo", 4}};
	uint32_t k = hp_bcw_list(w, items, 3);
	/* the same list is the same constant */
	assert_int_equal(hp_bcw_list(w, items, 3), k);
	E(PUSH_LIST, 0, 0, k);
	E(PUSH_STR, 0, 0, S("wheel"));
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{ \"sudo\", \"wheel\", \"sudo\", \"wheel\" }");
	w = bt_new();
	E(PUSH_LIST, 0, 0, hp_bcw_list(w, NULL, 0));
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{}");
}

static void test_load_param_and_pop(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("first"));
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "a", HP_T_STR, bt_region(w, 0), (hp_bcw_loc){"t.hpol", 1, 1});
	uint32_t start = hp_bcw_pc(w);
	E(LOAD_PARAM, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("-second"));
	E(PUSH_INT, 0, 0, K(7));
	E(POP, 0, 0, 0);
	E(CONCAT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	hp_bcw_param(w, "b", HP_T_STR, bt_region(w, start), (hp_bcw_loc){"t.hpol", 2, 1});
	hp_err err;
	hp_bc *bc = bt_load(w, &err);
	assert_non_null(bc);
	hp_globals g;
	assert_true(
	    hp_globals_eval(bc, bt_backend_init(&vt_stub, vt_answers, 0), NULL, 0, NULL, &g, &err));
	assert_string_equal(vt_fmt(&g.params[1]), "\"first-second\"");
	hp_globals_free(&g);
	/* an override replaces the param's code, and later params see it */
	hp_param_override ov = {"a", "given"};
	assert_true(
	    hp_globals_eval(bc, bt_backend_init(&vt_stub, vt_answers, 0), &ov, 1, NULL, &g, &err));
	assert_string_equal(vt_fmt(&g.params[1]), "\"given-second\"");
	hp_globals_free(&g);
	hp_bc_free(bc);
}

static void test_not(void **state)
{
	(void)state;
	assert_string_equal(vt_tri_op(HP_I_NOT, 1, -1), "false");
	assert_string_equal(vt_tri_op(HP_I_NOT, 0, -1), "true");
	assert_string_equal(vt_tri_op(HP_I_NOT, 2, -1), "unknown (no stub answer)");
	assert_string_equal(vt_tri_op(HP_I_NOT, 3, -1), "skipped (offline)");
}

static void test_and(void **state)
{
	(void)state;
	assert_string_equal(vt_tri_op(HP_I_AND, 1, 1), "true");
	assert_string_equal(vt_tri_op(HP_I_AND, 1, 0), "false");
	assert_string_equal(vt_tri_op(HP_I_AND, 0, 2), "false");
	assert_string_equal(vt_tri_op(HP_I_AND, 2, 0), "false");
	assert_string_equal(vt_tri_op(HP_I_AND, 1, 2), "unknown (no stub answer)");
	assert_string_equal(vt_tri_op(HP_I_AND, 3, 1), "skipped (offline)");
	/* unknown is more severe than absent, absent than skipped */
	assert_string_equal(vt_tri_op(HP_I_AND, 3, 2), "unknown (no stub answer)");
	assert_string_equal(vt_tri_op(HP_I_AND, 3, 4), "absent");
}

static void test_or(void **state)
{
	(void)state;
	assert_string_equal(vt_tri_op(HP_I_OR, 0, 0), "false");
	assert_string_equal(vt_tri_op(HP_I_OR, 0, 1), "true");
	assert_string_equal(vt_tri_op(HP_I_OR, 2, 1), "true");
	assert_string_equal(vt_tri_op(HP_I_OR, 1, 2), "true");
	assert_string_equal(vt_tri_op(HP_I_OR, 0, 2), "unknown (no stub answer)");
	assert_string_equal(vt_tri_op(HP_I_OR, 4, 0), "absent");
}

/* JUMP_FALSE skips the right operand of `and` when the left is false: the
 * probe on the right is never asked. */
static void test_jump_false(void **state)
{
	(void)state;
	for (int left = 0; left <= 2; left++) {
		hp_bcw *w = vt_rule_new();
		vt_push_tri(w, left);
		uint32_t j = E(JUMP_FALSE, 0, 0, 0);
		E(PROBE0, 0, HP_PROBE_SUDO, 0);
		E(NOT, 0, 0, 0);
		E(AND, 0, 0, 0);
		hp_bcw_set_c(w, j, hp_bcw_pc(w));
		vt_require(w, "x");
		E(END, 0, 0, 0);
		vt_run x;
		vt_run_body(&x, w, 0, NULL);
		unsigned sudo_asked = 0;
		for (uint32_t i = 0; i < x.r.nfacts; i++)
			sudo_asked += x.r.facts[i].probe == HP_PROBE_SUDO;
		assert_int_equal(sudo_asked, left == 0 ? 0 : 1);
		assert_string_equal(vt_outcomes(&x, false), left == 0   ? "fails"
		                                         : left == 1 ? "holds"
		                                                     : "unknown");
		vt_run_free(&x);
	}
}

static void test_jump_true(void **state)
{
	(void)state;
	for (int left = 0; left <= 1; left++) {
		hp_bcw *w = vt_rule_new();
		vt_push_tri(w, left);
		uint32_t j = E(JUMP_TRUE, 0, 0, 0);
		E(PROBE0, 0, HP_PROBE_SUDO, 0);
		E(OR, 0, 0, 0);
		hp_bcw_set_c(w, j, hp_bcw_pc(w));
		vt_require(w, "x");
		E(END, 0, 0, 0);
		vt_run x;
		vt_run_body(&x, w, 0, NULL);
		assert_int_equal(x.r.nfacts, left == 1 ? 0 : 1);
		assert_string_equal(vt_outcomes(&x, false), left == 1 ? "holds" : "fails");
		vt_run_free(&x);
	}
}

/* `env("UNSET") or "dflt"`: the fallback applies to ABSENT only. */
static const char *fallback(const char *var)
{
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S(var));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	uint32_t j = E(JUMP_PRESENT, 0, 0, 0);
	E(POP, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("dflt"));
	hp_bcw_set_c(w, j, hp_bcw_pc(w));
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, HP_T_STR);
}

static void test_jump_present(void **state)
{
	(void)state;
	assert_string_equal(fallback("UNSET"), "\"dflt\"");
	assert_string_equal(fallback("PATH"), "\"/usr/bin:/bin\"");
	assert_string_equal(fallback("OTHER"), "unknown (no stub answer)");
}

static const char *binop_str(hp_opcode op, const char *a, const char *b, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S(a));
	E(PUSH_STR, 0, 0, S(b));
	hp_bcw_emit(w, op, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, t);
}

static const char *binop_int(hp_opcode op, int64_t a, int64_t b, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_INT, 0, 0, K(a));
	E(PUSH_INT, 0, 0, K(b));
	hp_bcw_emit(w, op, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, t);
}

static void test_eq_ne(void **state)
{
	(void)state;
	assert_string_equal(binop_str(HP_I_EQ, "a", "a", HP_T_BOOL), "true");
	assert_string_equal(binop_str(HP_I_EQ, "a", "ab", HP_T_BOOL), "false");
	assert_string_equal(binop_str(HP_I_NE, "a", "ab", HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_EQ, 5, 5, HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_NE, 5, 5, HP_T_BOOL), "false");
	/* an absent operand makes the comparison absent */
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("UNSET"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(PUSH_STR, 0, 0, S("x"));
	E(NE, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "absent");
	/* records compare field by field */
	w = bt_new();
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(EQ, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "true");
}

static void test_ordering(void **state)
{
	(void)state;
	assert_string_equal(binop_int(HP_I_LT, -1, 0, HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_LT, 0, 0, HP_T_BOOL), "false");
	assert_string_equal(binop_int(HP_I_LE, 0, 0, HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_LE, 1, 0, HP_T_BOOL), "false");
	assert_string_equal(binop_int(HP_I_GT, 1, 0, HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_GT, 0, 0, HP_T_BOOL), "false");
	assert_string_equal(binop_int(HP_I_GE, 0, 0, HP_T_BOOL), "true");
	assert_string_equal(binop_int(HP_I_GE, INT64_MIN, INT64_MAX, HP_T_BOOL), "false");
}

static void test_band_to_str_concat(void **state)
{
	(void)state;
	assert_string_equal(binop_int(HP_I_BAND, 0777, 0022, HP_T_INT), "18");
	assert_string_equal(binop_int(HP_I_BAND, 0755, 0022, HP_T_INT), "0");
	assert_string_equal(binop_int(HP_I_BAND, 0757, 0027, HP_T_INT), "7");
	assert_string_equal(binop_str(HP_I_CONCAT, "/proc/", "mem", HP_T_STR), "\"/proc/mem\"");
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("/proc/"));
	E(PUSH_INT, 0, 0, K(-42));
	E(TO_STR, 0, 0, 0);
	E(CONCAT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_STR), "\"/proc/-42\"");
	/* concatenation past the string limit is unknown */
	static char big[40001];
	memset(big, 'x', 40000);
	w = bt_new();
	E(PUSH_STR, 0, 0, S(big));
	E(PUSH_STR, 0, 0, S(big));
	E(CONCAT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_STR),
	                    "unknown (string longer than the limit of 65536 bytes)");
}

/* Lists a and b given as comma-separated strings, combined with op. */
static const char *list_op(hp_opcode op, const char *a, const char *b, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S(a));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(PUSH_STR, 0, 0, S(b));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	hp_bcw_emit(w, op, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, t);
}

static void test_split(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("a::b:"));
	E(PUSH_STR, 0, 0, S(":"));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{ \"a\", \"\", \"b\", \"\" }");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("a--b"));
	E(PUSH_STR, 0, 0, S("--"));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "{ \"a\", \"b\" }");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("abc"));
	E(PUSH_STR, 0, 0, S(""));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST), "unknown (split with an empty separator)");
	static char many[10000];
	memset(many, ',', 5000);
	w = bt_new();
	E(PUSH_STR, 0, 0, S(many));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_LIST),
	                    "unknown (split gives more than the limit of 4096 items)");
}

static void test_in(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("wheel"));
	E(PUSH_STR, 0, 0, S("sudo,wheel"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(IN, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "true");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("whee"));
	E(PUSH_STR, 0, 0, S("sudo,wheel"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(IN, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_BOOL), "false");
}

static void test_subset_superset_intersect_lists(void **state)
{
	(void)state;
	assert_string_equal(list_op(HP_I_SUBSET, "a,b", "c,b,a", HP_T_BOOL), "true");
	assert_string_equal(list_op(HP_I_SUBSET, "a,d", "c,b,a", HP_T_BOOL), "false");
	assert_string_equal(list_op(HP_I_SUPERSET, "a,d", "d", HP_T_BOOL), "true");
	assert_string_equal(list_op(HP_I_SUPERSET, "a", "d", HP_T_BOOL), "false");
	assert_string_equal(list_op(HP_I_INTERSECT, "c,a,b", "b,c,x", HP_T_LIST),
	                    "{ \"c\", \"b\" }");
	/* long lists take the sorted path */
	char a[4000] = "", b[4000] = "";
	for (int i = 0; i < 200; i++) {
		char item[16];
		snprintf(item, sizeof item, "%s%d", i ? "," : "", i);
		strcat(a, item);
		snprintf(item, sizeof item, "%s%d", i ? "," : "", 199 - i);
		strcat(b, item);
	}
	assert_string_equal(list_op(HP_I_SUBSET, a, b, HP_T_BOOL), "true");
	assert_string_equal(list_op(HP_I_SUBSET, "200,1,2,3,4,5,6,7,8,9", b, HP_T_BOOL), "false");
	assert_string_equal(list_op(HP_I_INTERSECT, "7,200,3", b, HP_T_LIST), "{ \"7\", \"3\" }");
}

static const char *caps_op(hp_opcode op, uint64_t a, uint64_t b, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_CAPS, 0, 0, CAPS(a));
	E(PUSH_CAPS, 0, 0, CAPS(b));
	hp_bcw_emit(w, op, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, t);
}

static void test_subset_superset_intersect_caps(void **state)
{
	(void)state;
	assert_string_equal(caps_op(HP_I_SUBSET, 0x60, 0xe0, HP_T_BOOL), "true");
	assert_string_equal(caps_op(HP_I_SUBSET, 0x61, 0xe0, HP_T_BOOL), "false");
	assert_string_equal(caps_op(HP_I_SUPERSET, 0xe0, 0x60, HP_T_BOOL), "true");
	assert_string_equal(caps_op(HP_I_SUPERSET, 0x60, 0xe0, HP_T_BOOL), "false");
	assert_string_equal(caps_op(HP_I_SUBSET, 0, 0, HP_T_BOOL), "true");
	assert_string_equal(caps_op(HP_I_INTERSECT, 0xe1, 0x61, HP_T_CAPS),
	                    "{ chown, kill, setgid }");
}

static const char *record(const char *probe_arg, hp_probe_id probe, int field_id, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S(probe_arg));
	E(PROBE1, 0, probe, 0);
	if (field_id >= 0)
		E(FIELD, (uint32_t)field_id, 0, 0);
	else
		E(EXISTS, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return vt_eval(w, 0, t);
}

static void test_field(void **state)
{
	(void)state;
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_NAME, HP_T_STR), "\"agent\"");
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_UID, HP_T_INT), "1000");
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_GID, HP_T_INT), "1000");
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_HOME, HP_T_STR),
	                    "\"/home/agent\"");
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_SHELL, HP_T_STR),
	                    "\"/bin/bash\"");
	assert_string_equal(record("agent", HP_PROBE_USER, HP_RF_USER_GROUPS, HP_T_LIST),
	                    "{ \"agent\", \"docker\" }");
	assert_string_equal(record("docker", HP_PROBE_GROUP, HP_RF_GROUP_NAME, HP_T_STR),
	                    "\"docker\"");
	assert_string_equal(record("docker", HP_PROBE_GROUP, HP_RF_GROUP_GID, HP_T_INT), "999");
	assert_string_equal(record("docker", HP_PROBE_GROUP, HP_RF_GROUP_MEMBERS, HP_T_LIST),
	                    "{ \"agent\" }");
	assert_string_equal(record("ghost", HP_PROBE_USER, HP_RF_USER_UID, HP_T_INT), "absent");
	assert_string_equal(record("nobody", HP_PROBE_USER, HP_RF_USER_UID, HP_T_INT),
	                    "unknown (no stub answer)");
}

static void test_exists(void **state)
{
	(void)state;
	assert_string_equal(record("agent", HP_PROBE_USER, -1, HP_T_BOOL), "true");
	assert_string_equal(record("ghost", HP_PROBE_USER, -1, HP_T_BOOL), "false");
	assert_string_equal(record("nobody", HP_PROBE_USER, -1, HP_T_BOOL),
	                    "unknown (no stub answer)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_return_and_constants),
	    cmocka_unit_test(test_lists),
	    cmocka_unit_test(test_push_list),
	    cmocka_unit_test(test_load_param_and_pop),
	    cmocka_unit_test(test_not),
	    cmocka_unit_test(test_and),
	    cmocka_unit_test(test_or),
	    cmocka_unit_test(test_jump_false),
	    cmocka_unit_test(test_jump_true),
	    cmocka_unit_test(test_jump_present),
	    cmocka_unit_test(test_eq_ne),
	    cmocka_unit_test(test_ordering),
	    cmocka_unit_test(test_band_to_str_concat),
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_in),
	    cmocka_unit_test(test_subset_superset_intersect_lists),
	    cmocka_unit_test(test_subset_superset_intersect_caps),
	    cmocka_unit_test(test_field),
	    cmocka_unit_test(test_exists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
