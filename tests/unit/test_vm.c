/* test_vm.c: every opcode of opcodes.def run by the VM, on known values and
 * on ABSENT, UNKNOWN and SKIPPED ones; loops, assertions, the probe cache,
 * and the execution limits. Programs are assembled by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bctest.h"
#include "check/combine.h"


static hp_str groups_items[2] = {{"agent", 5}, {"docker", 6}};
static hp_user agent_user = {{"agent", 5},     1000, 1000, {"/home/agent", 11}, {"/bin/bash", 9},
                             {groups_items, 2}};
static hp_group docker_group = {{"docker", 6}, 999, {groups_items, 1}};

static const bt_answer answers[] = {
    {-1, HP_PROBE_USER, "agent", {HP_VAL_KNOWN, HP_T_USER, {.user = &agent_user}}},
    {-1, HP_PROBE_USER, "ghost", {HP_VAL_ABSENT, HP_T_USER, {.reason = NULL}}},
    {-1, HP_PROBE_GROUP, "docker", {HP_VAL_KNOWN, HP_T_GROUP, {.group = &docker_group}}},
    {-1, HP_PROBE_ENV, "PATH", {HP_VAL_KNOWN, HP_T_STR, {.s = {"/usr/bin:/bin", 13}}}},
    {-1, HP_PROBE_ENV, "UNSET", {HP_VAL_ABSENT, HP_T_STR, {.reason = NULL}}},
    {-1, HP_PROBE_ENV, "WRONG", {HP_VAL_KNOWN, HP_T_INT, {.i = 3}}},
    {HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin", {HP_VAL_KNOWN, HP_T_BOOL, {.b = false}}},
    {HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/bin", {HP_VAL_KNOWN, HP_T_BOOL, {.b = true}}},
    {HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/tmp", {HP_VAL_SKIPPED, HP_T_BOOL, {.reason = "offline"}}},
    {HP_ROLE_AGENT, HP_PROBE_SUDO, NULL, {HP_VAL_KNOWN, HP_T_BOOL, {.b = false}}},
    {HP_ROLE_AGENT, HP_PROBE_SIGNAL, NULL, {HP_VAL_KNOWN, HP_T_BOOL, {.b = true}}},
};

static bt_backend stub;

/* --- value regions: a program whose param 0 is the code emitted ------------------- */

static char text[4096];

static const char *fmt(const hp_value *v)
{
	hp_buf b = {0};
	hp_value_format(&b, v);
	snprintf(text, sizeof text, "%s", b.data);
	hp_buf_free(&b);
	return text;
}

/* Load the builder's program with param "p" of type t over [start, pc) and
 * return what it evaluates to, as text. */
static const char *eval(hp_bcw *w, uint32_t start, hp_type t)
{
	hp_bcw_param(w, "p", t, bt_region(w, start), (hp_bcw_loc){"t.hpol", 1, 1});
	hp_err err = {{0}};
	hp_bc *bc = bt_load(w, &err);
	if (!bc)
		fail_msg("rejected: %s", err.msg);
	hp_globals g;
	hp_value v =
	    bt_param0(bc, bt_backend_init(&stub, answers, sizeof answers / sizeof answers[0]), &g);
	fmt(&v);
	hp_globals_free(&g);
	hp_bc_free(bc);
	return text;
}

static void test_return_and_constants(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_BOOL, 1, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_BOOL), "true");
	w = bt_new();
	E(PUSH_BOOL, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_BOOL), "false");
	w = bt_new();
	E(PUSH_INT, 0, 0, K(-493));
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_INT), "-493");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("hangar"));
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_STR), "\"hangar\"");
	w = bt_new();
	E(PUSH_CAPS, 0, 0, CAPS((1u << 6) | (1u << 7)));
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_CAPS), "{ setgid, setuid }");
	w = bt_new();
	E(PUSH_ROLE, HP_ROLE_HANGAR, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_ROLE), "hangar");
}

static void test_lists(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "{}");
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("sudo"));
	E(APPEND, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("wheel"));
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "{ \"sudo\", \"wheel\" }");
	/* an unknown item makes the list unknown */
	w = bt_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("NOPE"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(APPEND, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "unknown (no stub answer)");
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
	assert_string_equal(eval(w, 0, HP_T_LIST), "{ \"sudo\", \"wheel\", \"sudo\", \"wheel\" }");
	w = bt_new();
	E(PUSH_LIST, 0, 0, hp_bcw_list(w, NULL, 0));
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "{}");
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
	    hp_globals_eval(bc, bt_backend_init(&stub, answers, 0), NULL, 0, NULL, &g, &err));
	assert_string_equal(fmt(&g.params[1]), "\"first-second\"");
	hp_globals_free(&g);
	/* an override replaces the param's code, and later params see it */
	hp_param_override ov = {"a", "given"};
	assert_true(
	    hp_globals_eval(bc, bt_backend_init(&stub, answers, 0), &ov, 1, NULL, &g, &err));
	assert_string_equal(fmt(&g.params[1]), "\"given-second\"");
	hp_globals_free(&g);
	hp_bc_free(bc);
}

/* Kleene logic runs in a role body (no_new_privs is a role probe). */
static hp_bc *body_program(hp_bcw *w, uint32_t start, hp_role role, hp_err *err)
{
	bt_role(w, role, start);
	return bt_load(w, err);
}

typedef struct {
	hp_bc *bc;
	hp_globals g;
	hp_role_result r;
} run_t;

static void run_body(run_t *x, hp_bcw *w, uint32_t start, const hp_limits *lim)
{
	hp_err err = {{0}};
	x->bc = body_program(w, start, HP_ROLE_AGENT, &err);
	if (!x->bc)
		fail_msg("rejected: %s", err.msg);
	hp_backend *b = bt_backend_init(&stub, answers, sizeof answers / sizeof answers[0]);
	assert_true(hp_globals_eval(x->bc, b, NULL, 0, lim, &x->g, &err));
	hp_vm_run_role(x->bc, &x->g, HP_ROLE_AGENT, b, lim, &x->r);
}

static void run_free(run_t *x)
{
	hp_role_result_free(&x->r);
	hp_globals_free(&x->g);
	hp_bc_free(x->bc);
}

/* Outcomes as text: "kind[: evidence]" joined by " | ". */
static const char *outcomes(const run_t *x, bool evidence)
{
	hp_buf b = {0};
	for (uint32_t i = 0; i < x->r.noutcomes; i++) {
		if (i)
			hp_buf_puts(&b, " | ");
		hp_buf_puts(&b, hp_outcome_names[x->r.outcomes[i].kind]);
		if (evidence) {
			hp_buf_puts(&b, ": ");
			hp_outcome_format(&b, x->bc, &x->r, &x->r.outcomes[i]);
		}
	}
	snprintf(text, sizeof text, "%s", b.data ? b.data : "");
	hp_buf_free(&b);
	return text;
}

/* Emit one REQUIRE of a new assertion of rule "r". */
static void require(hp_bcw *w, const char *what)
{
	uint32_t a =
	    hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_REQUIRE, what, (hp_bcw_loc){"t.hpol", 3, 5});
	E(REQUIRE, 0, 0, a);
}

static void forbid(hp_bcw *w, const char *what)
{
	uint32_t a =
	    hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_FORBID, what, (hp_bcw_loc){"t.hpol", 4, 5});
	E(FORBID, 0, 0, a);
}

static hp_bcw *rule_new(void)
{
	hp_bcw *w = bt_new();
	hp_bcw_rule(w, "r", "a rule", NULL, HP_APPLIES_ALL, (hp_bcw_loc){"t.hpol", 2, 1});
	return w;
}

/* push a bool: 0 false, 1 true, 2 unknown, 3 skipped, 4 absent */
static void push_tri(hp_bcw *w, int v)
{
	switch (v) {
	case 2:
		E(PROBE0, 0, HP_PROBE_NO_NEW_PRIVS, 0); /* not in the stub: unknown */
		break;
	case 3:
		E(PUSH_STR, 0, 0, S("/tmp"));
		E(PROBE1, 0, HP_PROBE_WRITABLE, 0); /* skipped */
		break;
	case 4:
		E(PUSH_STR, 0, 0, S("ghost"));
		E(PROBE1, 0, HP_PROBE_USER, 0);
		E(FIELD, HP_RF_USER_UID, 0, 0);
		E(PUSH_INT, 0, 0, K(0));
		E(EQ, 0, 0, 0); /* absent */
		break;
	default:
		E(PUSH_BOOL, (uint32_t)v, 0, 0);
	}
}

static const char *tri_op(hp_opcode op, int a, int b)
{
	hp_bcw *w = rule_new();
	push_tri(w, a);
	if (b >= 0)
		push_tri(w, b);
	hp_bcw_emit(w, op, 0, 0, 0);
	require(w, "x");
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	const hp_outcome *o = &x.r.outcomes[0];
	static char out[4200];
	if (o->kind == HP_OUT_HOLDS)
		snprintf(out, sizeof out, "true");
	else if (o->kind == HP_OUT_FAILS)
		snprintf(out, sizeof out, "false");
	else {
		hp_value v;
		assert_true(hp_role_result_value(&x.r, o->value, &pool, &v));
		snprintf(out, sizeof out, "%s", fmt(&v));
	}
	hp_pool_free(&pool);
	run_free(&x);
	return out;
}

static void test_not(void **state)
{
	(void)state;
	assert_string_equal(tri_op(HP_I_NOT, 1, -1), "false");
	assert_string_equal(tri_op(HP_I_NOT, 0, -1), "true");
	assert_string_equal(tri_op(HP_I_NOT, 2, -1), "unknown (no stub answer)");
	assert_string_equal(tri_op(HP_I_NOT, 3, -1), "skipped (offline)");
}

static void test_and(void **state)
{
	(void)state;
	assert_string_equal(tri_op(HP_I_AND, 1, 1), "true");
	assert_string_equal(tri_op(HP_I_AND, 1, 0), "false");
	assert_string_equal(tri_op(HP_I_AND, 0, 2), "false");
	assert_string_equal(tri_op(HP_I_AND, 2, 0), "false");
	assert_string_equal(tri_op(HP_I_AND, 1, 2), "unknown (no stub answer)");
	assert_string_equal(tri_op(HP_I_AND, 3, 1), "skipped (offline)");
	/* unknown is more severe than absent, absent than skipped */
	assert_string_equal(tri_op(HP_I_AND, 3, 2), "unknown (no stub answer)");
	assert_string_equal(tri_op(HP_I_AND, 3, 4), "absent");
}

static void test_or(void **state)
{
	(void)state;
	assert_string_equal(tri_op(HP_I_OR, 0, 0), "false");
	assert_string_equal(tri_op(HP_I_OR, 0, 1), "true");
	assert_string_equal(tri_op(HP_I_OR, 2, 1), "true");
	assert_string_equal(tri_op(HP_I_OR, 1, 2), "true");
	assert_string_equal(tri_op(HP_I_OR, 0, 2), "unknown (no stub answer)");
	assert_string_equal(tri_op(HP_I_OR, 4, 0), "absent");
}

/* JUMP_FALSE skips the right operand of `and` when the left is false: the
 * probe on the right is never asked. */
static void test_jump_false(void **state)
{
	(void)state;
	for (int left = 0; left <= 2; left++) {
		hp_bcw *w = rule_new();
		push_tri(w, left);
		uint32_t j = E(JUMP_FALSE, 0, 0, 0);
		E(PROBE0, 0, HP_PROBE_SUDO, 0);
		E(NOT, 0, 0, 0);
		E(AND, 0, 0, 0);
		hp_bcw_set_c(w, j, hp_bcw_pc(w));
		require(w, "x");
		E(END, 0, 0, 0);
		run_t x;
		run_body(&x, w, 0, NULL);
		unsigned sudo_asked = 0;
		for (uint32_t i = 0; i < x.r.nfacts; i++)
			sudo_asked += x.r.facts[i].probe == HP_PROBE_SUDO;
		assert_int_equal(sudo_asked, left == 0 ? 0 : 1);
		assert_string_equal(outcomes(&x, false), left == 0   ? "fails"
		                                         : left == 1 ? "holds"
		                                                     : "unknown");
		run_free(&x);
	}
}

static void test_jump_true(void **state)
{
	(void)state;
	for (int left = 0; left <= 1; left++) {
		hp_bcw *w = rule_new();
		push_tri(w, left);
		uint32_t j = E(JUMP_TRUE, 0, 0, 0);
		E(PROBE0, 0, HP_PROBE_SUDO, 0);
		E(OR, 0, 0, 0);
		hp_bcw_set_c(w, j, hp_bcw_pc(w));
		require(w, "x");
		E(END, 0, 0, 0);
		run_t x;
		run_body(&x, w, 0, NULL);
		assert_int_equal(x.r.nfacts, left == 1 ? 0 : 1);
		assert_string_equal(outcomes(&x, false), left == 1 ? "holds" : "fails");
		run_free(&x);
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
	return eval(w, 0, HP_T_STR);
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
	return eval(w, 0, t);
}

static const char *binop_int(hp_opcode op, int64_t a, int64_t b, hp_type t)
{
	hp_bcw *w = bt_new();
	E(PUSH_INT, 0, 0, K(a));
	E(PUSH_INT, 0, 0, K(b));
	hp_bcw_emit(w, op, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	return eval(w, 0, t);
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
	assert_string_equal(eval(w, 0, HP_T_BOOL), "absent");
	/* records compare field by field */
	w = bt_new();
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(EQ, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_BOOL), "true");
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
	assert_string_equal(eval(w, 0, HP_T_STR), "\"/proc/-42\"");
	/* concatenation past the string limit is unknown */
	static char big[40001];
	memset(big, 'x', 40000);
	w = bt_new();
	E(PUSH_STR, 0, 0, S(big));
	E(PUSH_STR, 0, 0, S(big));
	E(CONCAT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_STR),
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
	return eval(w, 0, t);
}

static void test_split(void **state)
{
	(void)state;
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("a::b:"));
	E(PUSH_STR, 0, 0, S(":"));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "{ \"a\", \"\", \"b\", \"\" }");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("a--b"));
	E(PUSH_STR, 0, 0, S("--"));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "{ \"a\", \"b\" }");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("abc"));
	E(PUSH_STR, 0, 0, S(""));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST), "unknown (split with an empty separator)");
	static char many[10000];
	memset(many, ',', 5000);
	w = bt_new();
	E(PUSH_STR, 0, 0, S(many));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_LIST),
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
	assert_string_equal(eval(w, 0, HP_T_BOOL), "true");
	w = bt_new();
	E(PUSH_STR, 0, 0, S("whee"));
	E(PUSH_STR, 0, 0, S("sudo,wheel"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(IN, 0, 0, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_BOOL), "false");
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
	return eval(w, 0, t);
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
	return eval(w, 0, t);
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

static void test_probes(void **state)
{
	(void)state;
	/* PROBE1 with a wrongly typed answer: unknown, naming the backend */
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("WRONG"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_STR),
	                    "unknown (the stub backend answered a int, not a string)");
	/* an argument that is not a value is not asked about */
	w = bt_new();
	E(PUSH_STR, 0, 0, S("UNSET"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(eval(w, 0, HP_T_USER), "absent");
	assert_int_equal(stub.calls, 1);
	/* PROBE0 in a role body asks as the role; answers are cached */
	w = rule_new();
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	forbid(w, "forbid sudo");
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	forbid(w, "forbid sudo");
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(EXISTS, 0, 0, 0);
	require(w, "require exists user(\"agent\")");
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	assert_int_equal(stub.calls, 2);
	assert_int_equal(x.r.nfacts, 2);
	assert_int_equal(x.r.facts[0].role, HP_ROLE_AGENT);
	/* a global probe is asked as root, even in a role's checks */
	assert_int_equal(x.r.facts[1].role, HP_ROLE_ROOT);
	assert_int_equal(x.r.probes, 3);
	assert_string_equal(
	    outcomes(&x, true),
	    "holds: forbid sudo (t.hpol:4:5) as agent: holds; observed sudo as agent is false | "
	    "holds: forbid sudo (t.hpol:4:5) as agent: holds; observed sudo as agent is false | "
	    "holds: require exists user(\"agent\") (t.hpol:3:5) as agent: holds; observed "
	    "user(\"agent\") is user \"agent\" (uid 1000, gid 1000, home \"/home/agent\", "
	    "shell \"/bin/bash\", groups { \"agent\", \"docker\" })");
	run_free(&x);
	/* PROBE1 with a role argument */
	w = rule_new();
	E(PUSH_ROLE, HP_ROLE_HANGAR, 0, 0);
	E(PROBE1, 0, HP_PROBE_SIGNAL, 0);
	forbid(w, "forbid signal(canary hangar)");
	E(END, 0, 0, 0);
	run_body(&x, w, 0, NULL);
	assert_string_equal(
	    outcomes(&x, true),
	    "fails: forbid signal(canary hangar) (t.hpol:4:5) as agent: fails; observed "
	    "signal(hangar) as agent is true");
	run_free(&x);
}

static void test_require_forbid(void **state)
{
	(void)state;
	hp_bcw *w = rule_new();
	for (int v = 0; v <= 4; v++) {
		push_tri(w, v);
		require(w, "require x");
	}
	push_tri(w, 0);
	forbid(w, "forbid y");
	push_tri(w, 1);
	forbid(w, "forbid z");
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	assert_string_equal(outcomes(&x, false),
	                    "fails | holds | unknown | skipped | absent | holds | fails");
	run_free(&x);
}

static void test_end(void **state)
{
	(void)state;
	hp_bcw *w = rule_new();
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.status, HP_RUN_COMPLETE);
	assert_int_equal(x.r.noutcomes, 0);
	assert_int_equal(x.r.steps, 1);
	run_free(&x);
}

/* for d in split(LIST, ",") max BOUND { forbid writable(d); require d == d } */
static void loop_program(run_t *x, const char *list, uint32_t bound, bool list_unknown)
{
	hp_bcw *w = rule_new();
	if (list_unknown) {
		E(PUSH_STR, 0, 0, S("NOPE"));
		E(PROBE1, 0, HP_PROBE_ENV, 0);
	} else {
		E(PUSH_STR, 0, 0, S(list));
	}
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(FOR, 0, 0, bound);
	E(LOAD_LOCAL, 0, 0, 0);
	E(PROBE1, 0, HP_PROBE_WRITABLE, 0);
	forbid(w, "forbid writable(d)");
	E(LOAD_LOCAL, 0, 0, 0);
	E(LOAD_LOCAL, 0, 0, 0);
	E(EQ, 0, 0, 0);
	require(w, "require d == d");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	run_body(x, w, 0, NULL);
}

static void test_for_endfor_load_local(void **state)
{
	(void)state;
	run_t x;
	loop_program(&x, "/usr/bin,/bin", 256, false);
	assert_string_equal(
	    outcomes(&x, true),
	    "holds: forbid writable(d) (t.hpol:4:5) as agent: holds; observed "
	    "writable(\"/usr/bin\") as agent is false; with d = \"/usr/bin\" | "
	    "holds: require d == d (t.hpol:3:5) as agent: holds; with d = \"/usr/bin\" | "
	    "fails: forbid writable(d) (t.hpol:4:5) as agent: fails; observed "
	    "writable(\"/bin\") as agent is true; with d = \"/bin\" | "
	    "holds: require d == d (t.hpol:3:5) as agent: holds; with d = \"/bin\"");
	/* FOR ran once, ENDFOR twice: 4 + 2 * 8 instructions, then END */
	assert_int_equal(x.r.steps, 4 + 2 * 8 + 1);
	run_free(&x);
}

static void test_for_bound_and_non_values(void **state)
{
	(void)state;
	run_t x;
	loop_program(&x, "/usr/bin,/bin,/sbin", 2, false);
	assert_string_equal(
	    outcomes(&x, true),
	    "unknown: forbid writable(d) (t.hpol:4:5) as agent: unknown (the list has 3 "
	    "items, more than the loop's bound of 2) | "
	    "unknown: require d == d (t.hpol:3:5) as agent: unknown (the list has 3 items, "
	    "more than the loop's bound of 2)");
	assert_int_equal(x.r.nfacts, 0);
	run_free(&x);
	loop_program(&x, NULL, 8, true);
	assert_string_equal(
	    outcomes(&x, true),
	    "unknown: forbid writable(d) (t.hpol:4:5) as agent: unknown (no stub answer); "
	    "observed env(\"NOPE\") is unknown (no stub answer) | "
	    "unknown: require d == d (t.hpol:3:5) as agent: unknown (no stub answer)");
	run_free(&x);
	/* the empty list has no items, and `split("", ",")` is one empty item */
	hp_bcw *w = rule_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 0, 0, 0);
	require(w, "require false");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.noutcomes, 0);
	assert_int_equal(x.r.steps, 3);
	run_free(&x);
}

/* NONEMPTY before FOR: a known empty list becomes unknown with the
 * compiler's sentence, so every assertion of the loop is unknown instead of
 * never running (which would leave its rule holding on no evidence). */
static void nonempty_program(run_t *x, const char *list, bool nonempty)
{
	hp_bcw *w = rule_new();
	if (list) {
		E(PUSH_STR, 0, 0, S(list));
		E(PUSH_STR, 0, 0, S(","));
		E(SPLIT, 0, 0, 0);
	} else {
		E(EMPTY_LIST, 0, 0, 0);
	}
	if (nonempty)
		E(NONEMPTY, 0, 0, S("the loop 'for d in l' went over an empty list"));
	E(FOR, 0, 0, 4);
	E(LOAD_LOCAL, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("/bin"));
	E(EQ, 0, 0, 0);
	forbid(w, "forbid d == \"/bin\"");
	E(PUSH_BOOL, 1, 0, 0);
	require(w, "require true");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	run_body(x, w, 0, NULL);
}

static void test_nonempty(void **state)
{
	(void)state;
	run_t x;
	nonempty_program(&x, NULL, true);
	assert_string_equal(outcomes(&x, true),
	                    "unknown: forbid d == \"/bin\" (t.hpol:4:5) as agent: unknown (the "
	                    "loop 'for d in l' went over an empty list) | "
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (the loop 'for "
	                    "d in l' went over an empty list)");
	run_free(&x);
	/* without it (`allow empty`), the loop's body never runs */
	nonempty_program(&x, NULL, false);
	assert_int_equal(x.r.noutcomes, 0);
	run_free(&x);
	/* a list of one item (even the empty string) is not empty: it runs */
	nonempty_program(&x, "", true);
	assert_string_equal(outcomes(&x, false), "holds | holds");
	run_free(&x);
	nonempty_program(&x, "/usr/bin,/bin", true);
	assert_string_equal(outcomes(&x, false), "holds | holds | fails | holds");
	run_free(&x);
	/* an unknown list keeps its own reason */
	hp_bcw *w = rule_new();
	E(PUSH_STR, 0, 0, S("NOPE"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("empty"));
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 1, 0, 0);
	require(w, "require true");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	run_body(&x, w, 0, NULL);
	assert_string_equal(outcomes(&x, true),
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (no stub "
	                    "answer); observed env(\"NOPE\") is unknown (no stub answer)");
	run_free(&x);
	/* nested: the inner list, { "a" } & { i }, is empty for one item */
	w = rule_new();
	E(PUSH_STR, 0, 0, S("a,b"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("outer empty"));
	E(FOR, 0, 0, 4);
	E(EMPTY_LIST, 0, 0, 0);
	E(PUSH_STR, 0, 0, S("a"));
	E(APPEND, 0, 0, 0);
	E(EMPTY_LIST, 0, 0, 0);
	E(LOAD_LOCAL, 0, 0, 0);
	E(APPEND, 0, 0, 0);
	E(INTERSECT, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("inner empty"));
	E(FOR, 1, 0, 4);
	E(PUSH_BOOL, 1, 0, 0);
	require(w, "require true");
	E(ENDFOR, 1, 0, S("j"));
	E(ENDFOR, 0, 0, S("i"));
	E(END, 0, 0, 0);
	run_body(&x, w, 0, NULL);
	assert_string_equal(outcomes(&x, true),
	                    "holds: require true (t.hpol:3:5) as agent: holds; with i = \"a\", "
	                    "j = \"a\" | "
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (inner empty); "
	                    "with i = \"b\"");
	run_free(&x);
}

static void test_nested_loops(void **state)
{
	(void)state;
	hp_bcw *w = rule_new();
	E(PUSH_STR, 0, 0, S("a,b"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(PUSH_STR, 0, 0, S("x,y"));
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(FOR, 1, 0, 4);
	E(LOAD_LOCAL, 0, 0, 0);
	E(LOAD_LOCAL, 1, 0, 0);
	E(NE, 0, 0, 0);
	require(w, "require i != j");
	E(ENDFOR, 1, 0, S("j"));
	E(ENDFOR, 0, 0, S("i"));
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.noutcomes, 4);
	hp_buf b = {0};
	hp_outcome_format(&b, x.bc, &x.r, &x.r.outcomes[3]);
	assert_string_equal(
	    b.data, "require i != j (t.hpol:3:5) as agent: holds; with i = \"b\", j = \"y\"");
	hp_buf_free(&b);
	run_free(&x);
}

static void test_limits(void **state)
{
	(void)state;
	hp_limits lim;
	hp_limits_default(&lim);
	lim.max_steps = 5;
	run_t x;
	hp_bcw *w = rule_new();
	for (int i = 0; i < 4; i++) {
		E(PUSH_BOOL, 1, 0, 0);
		require(w, "require true");
	}
	E(END, 0, 0, 0);
	run_body(&x, w, 0, &lim);
	assert_int_equal(x.r.status, HP_RUN_STOPPED);
	assert_int_equal(x.r.stop_pc, 5);
	assert_string_equal(hp_role_result_str(&x.r, x.r.reason), "instruction limit of 5 reached");
	assert_int_equal(x.r.noutcomes, 2);
	/* the rule cannot pass when its role stopped */
	const hp_role_result *roles[HP_ROLE_COUNT] = {NULL, NULL, &x.r};
	hp_rule_result rr;
	hp_combine(x.bc, roles, &rr);
	assert_int_equal(rr.result, HP_RESULT_ERROR);
	assert_string_equal(rr.why, "instruction limit of 5 reached");
	run_free(&x);

	hp_limits_default(&lim);
	lim.max_probes = 1;
	w = rule_new();
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	forbid(w, "forbid sudo");
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	forbid(w, "forbid sudo");
	E(END, 0, 0, 0);
	run_body(&x, w, 0, &lim);
	assert_int_equal(x.r.status, HP_RUN_STOPPED);
	assert_string_equal(hp_role_result_str(&x.r, x.r.reason), "probe limit of 1 reached");
	run_free(&x);

	hp_limits_default(&lim);
	lim.max_memory = 4096;
	w = rule_new();
	static char big[3000];
	memset(big, 'y', sizeof big - 1);
	E(PUSH_STR, 0, 0, S(big));
	E(PUSH_STR, 0, 0, S(big));
	E(CONCAT, 0, 0, 0);
	E(PUSH_STR, 0, 0, S(""));
	E(EQ, 0, 0, 0);
	require(w, "require big");
	E(END, 0, 0, 0);
	run_body(&x, w, 0, &lim);
	assert_string_equal(outcomes(&x, false), "unknown");
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value v;
	assert_true(hp_role_result_value(&x.r, x.r.outcomes[0].value, &pool, &v));
	assert_string_equal(fmt(&v), "unknown (memory limit reached)");
	hp_pool_free(&pool);
	run_free(&x);
}

static void test_undeclared_role_runs_nothing(void **state)
{
	(void)state;
	hp_bcw *w = rule_new();
	E(END, 0, 0, 0);
	run_t x;
	run_body(&x, w, 0, NULL);
	hp_role_result r;
	hp_vm_run_role(x.bc, &x.g, HP_ROLE_HANGAR, &stub.base, NULL, &r);
	assert_int_equal(r.status, HP_RUN_COMPLETE);
	assert_int_equal(r.steps, 0);
	hp_role_result_free(&r);
	run_free(&x);
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
	    cmocka_unit_test(test_probes),
	    cmocka_unit_test(test_require_forbid),
	    cmocka_unit_test(test_end),
	    cmocka_unit_test(test_for_endfor_load_local),
	    cmocka_unit_test(test_for_bound_and_non_values),
	    cmocka_unit_test(test_nonempty),
	    cmocka_unit_test(test_nested_loops),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_undeclared_role_runs_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
