/* test_vm_roles.c: a role's checks run by the VM: probes asked as the
 * role and cached, REQUIRE, FORBID and END, loops and NONEMPTY, the
 * execution limits, and a role the policy does not declare. Programs are
 * assembled by hand (vmtest.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/combine.h"
#include "vmtest.h"

static void test_probes(void **state)
{
	(void)state;
	/* PROBE1 with a wrongly typed answer: unknown, naming the backend */
	hp_bcw *w = bt_new();
	E(PUSH_STR, 0, 0, S("WRONG"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_STR),
	                    "unknown (the stub backend answered a int, not a string)");
	/* an argument that is not a value is not asked about */
	w = bt_new();
	E(PUSH_STR, 0, 0, S("UNSET"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(RETURN, 0, 0, 0);
	assert_string_equal(vt_eval(w, 0, HP_T_USER), "absent");
	assert_int_equal(vt_stub.calls, 1);
	/* PROBE0 in a role body asks as the role; answers are cached */
	w = vt_rule_new();
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	vt_forbid(w, "forbid sudo");
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	vt_forbid(w, "forbid sudo");
	E(PUSH_STR, 0, 0, S("agent"));
	E(PROBE1, 0, HP_PROBE_USER, 0);
	E(EXISTS, 0, 0, 0);
	vt_require(w, "require exists user(\"agent\")");
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
	assert_int_equal(vt_stub.calls, 2);
	assert_int_equal(x.r.nfacts, 2);
	assert_int_equal(x.r.facts[0].role, HP_ROLE_AGENT);
	/* a global probe is asked as root, even in a role's checks */
	assert_int_equal(x.r.facts[1].role, HP_ROLE_ROOT);
	assert_int_equal(x.r.probes, 3);
	assert_string_equal(
	    vt_outcomes(&x, true),
	    "holds: forbid sudo (t.hpol:4:5) as agent: holds; observed sudo as agent is false | "
	    "holds: forbid sudo (t.hpol:4:5) as agent: holds; observed sudo as agent is false | "
	    "holds: require exists user(\"agent\") (t.hpol:3:5) as agent: holds; observed "
	    "user(\"agent\") is user \"agent\" (uid 1000, gid 1000, home \"/home/agent\", "
	    "shell \"/bin/bash\", groups { \"agent\", \"docker\" })");
	vt_run_free(&x);
	/* PROBE1 with a role argument */
	w = vt_rule_new();
	E(PUSH_ROLE, HP_ROLE_HANGAR, 0, 0);
	E(PROBE1, 0, HP_PROBE_SIGNAL, 0);
	vt_forbid(w, "forbid signal(canary hangar)");
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, NULL);
	assert_string_equal(
	    vt_outcomes(&x, true),
	    "fails: forbid signal(canary hangar) (t.hpol:4:5) as agent: fails; observed "
	    "signal(hangar) as agent is true");
	vt_run_free(&x);
}

static void test_require_forbid(void **state)
{
	(void)state;
	hp_bcw *w = vt_rule_new();
	for (int v = 0; v <= 4; v++) {
		vt_push_tri(w, v);
		vt_require(w, "require x");
	}
	vt_push_tri(w, 0);
	vt_forbid(w, "forbid y");
	vt_push_tri(w, 1);
	vt_forbid(w, "forbid z");
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
	assert_string_equal(vt_outcomes(&x, false),
	                    "fails | holds | unknown | skipped | absent | holds | fails");
	vt_run_free(&x);
}

static void test_end(void **state)
{
	(void)state;
	hp_bcw *w = vt_rule_new();
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.status, HP_RUN_COMPLETE);
	assert_int_equal(x.r.noutcomes, 0);
	assert_int_equal(x.r.steps, 1);
	vt_run_free(&x);
}

/* for d in split(LIST, ",") max BOUND { forbid writable(d); require d == d } */
static void loop_program(vt_run *x, const char *list, uint32_t bound, bool list_unknown)
{
	hp_bcw *w = vt_rule_new();
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
	vt_forbid(w, "forbid writable(d)");
	E(LOAD_LOCAL, 0, 0, 0);
	E(LOAD_LOCAL, 0, 0, 0);
	E(EQ, 0, 0, 0);
	vt_require(w, "require d == d");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	vt_run_body(x, w, 0, NULL);
}

static void test_for_endfor_load_local(void **state)
{
	(void)state;
	vt_run x;
	loop_program(&x, "/usr/bin,/bin", 256, false);
	assert_string_equal(
	    vt_outcomes(&x, true),
	    "holds: forbid writable(d) (t.hpol:4:5) as agent: holds; observed "
	    "writable(\"/usr/bin\") as agent is false; with d = \"/usr/bin\" | "
	    "holds: require d == d (t.hpol:3:5) as agent: holds; with d = \"/usr/bin\" | "
	    "fails: forbid writable(d) (t.hpol:4:5) as agent: fails; observed "
	    "writable(\"/bin\") as agent is true; with d = \"/bin\" | "
	    "holds: require d == d (t.hpol:3:5) as agent: holds; with d = \"/bin\"");
	/* FOR ran once, ENDFOR twice: 4 + 2 * 8 instructions, then END */
	assert_int_equal(x.r.steps, 4 + 2 * 8 + 1);
	vt_run_free(&x);
}

static void test_for_bound_and_non_values(void **state)
{
	(void)state;
	vt_run x;
	loop_program(&x, "/usr/bin,/bin,/sbin", 2, false);
	assert_string_equal(
	    vt_outcomes(&x, true),
	    "unknown: forbid writable(d) (t.hpol:4:5) as agent: unknown (the list has 3 "
	    "items, more than the loop's bound of 2) | "
	    "unknown: require d == d (t.hpol:3:5) as agent: unknown (the list has 3 items, "
	    "more than the loop's bound of 2)");
	assert_int_equal(x.r.nfacts, 0);
	vt_run_free(&x);
	loop_program(&x, NULL, 8, true);
	assert_string_equal(
	    vt_outcomes(&x, true),
	    "unknown: forbid writable(d) (t.hpol:4:5) as agent: unknown (no stub answer); "
	    "observed env(\"NOPE\") is unknown (no stub answer) | "
	    "unknown: require d == d (t.hpol:3:5) as agent: unknown (no stub answer)");
	vt_run_free(&x);
	/* the empty list has no items, and `split("", ",")` is one empty item */
	hp_bcw *w = vt_rule_new();
	E(EMPTY_LIST, 0, 0, 0);
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 0, 0, 0);
	vt_require(w, "require false");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.noutcomes, 0);
	assert_int_equal(x.r.steps, 3);
	vt_run_free(&x);
}

/* NONEMPTY before FOR: a known empty list becomes unknown with the
 * compiler's sentence, so every assertion of the loop is unknown instead of
 * never running (which would leave its rule holding on no evidence). */
static void nonempty_program(vt_run *x, const char *list, bool nonempty)
{
	hp_bcw *w = vt_rule_new();
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
	vt_forbid(w, "forbid d == \"/bin\"");
	E(PUSH_BOOL, 1, 0, 0);
	vt_require(w, "require true");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	vt_run_body(x, w, 0, NULL);
}

static void test_nonempty(void **state)
{
	(void)state;
	vt_run x;
	nonempty_program(&x, NULL, true);
	assert_string_equal(vt_outcomes(&x, true),
	                    "unknown: forbid d == \"/bin\" (t.hpol:4:5) as agent: unknown (the "
	                    "loop 'for d in l' went over an empty list) | "
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (the loop 'for "
	                    "d in l' went over an empty list)");
	vt_run_free(&x);
	/* without it (`allow empty`), the loop's body never runs */
	nonempty_program(&x, NULL, false);
	assert_int_equal(x.r.noutcomes, 0);
	vt_run_free(&x);
	/* a list of one item (even the empty string) is not empty: it runs */
	nonempty_program(&x, "", true);
	assert_string_equal(vt_outcomes(&x, false), "holds | holds");
	vt_run_free(&x);
	nonempty_program(&x, "/usr/bin,/bin", true);
	assert_string_equal(vt_outcomes(&x, false), "holds | holds | fails | holds");
	vt_run_free(&x);
	/* an unknown list keeps its own reason */
	hp_bcw *w = vt_rule_new();
	E(PUSH_STR, 0, 0, S("NOPE"));
	E(PROBE1, 0, HP_PROBE_ENV, 0);
	E(PUSH_STR, 0, 0, S(","));
	E(SPLIT, 0, 0, 0);
	E(NONEMPTY, 0, 0, S("empty"));
	E(FOR, 0, 0, 4);
	E(PUSH_BOOL, 1, 0, 0);
	vt_require(w, "require true");
	E(ENDFOR, 0, 0, S("d"));
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, NULL);
	assert_string_equal(vt_outcomes(&x, true),
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (no stub "
	                    "answer); observed env(\"NOPE\") is unknown (no stub answer)");
	vt_run_free(&x);
	/* nested: the inner list, { "a" } & { i }, is empty for one item */
	w = vt_rule_new();
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
	vt_require(w, "require true");
	E(ENDFOR, 1, 0, S("j"));
	E(ENDFOR, 0, 0, S("i"));
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, NULL);
	assert_string_equal(vt_outcomes(&x, true),
	                    "holds: require true (t.hpol:3:5) as agent: holds; with i = \"a\", "
	                    "j = \"a\" | "
	                    "unknown: require true (t.hpol:3:5) as agent: unknown (inner empty); "
	                    "with i = \"b\"");
	vt_run_free(&x);
}

static void test_nested_loops(void **state)
{
	(void)state;
	hp_bcw *w = vt_rule_new();
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
	vt_require(w, "require i != j");
	E(ENDFOR, 1, 0, S("j"));
	E(ENDFOR, 0, 0, S("i"));
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
	assert_int_equal(x.r.noutcomes, 4);
	hp_buf b = {0};
	hp_outcome_format(&b, x.bc, &x.r, &x.r.outcomes[3]);
	assert_string_equal(
	    b.data, "require i != j (t.hpol:3:5) as agent: holds; with i = \"b\", j = \"y\"");
	hp_buf_free(&b);
	vt_run_free(&x);
}

static void test_limits(void **state)
{
	(void)state;
	hp_limits lim;
	hp_limits_default(&lim);
	lim.max_steps = 5;
	vt_run x;
	hp_bcw *w = vt_rule_new();
	for (int i = 0; i < 4; i++) {
		E(PUSH_BOOL, 1, 0, 0);
		vt_require(w, "require true");
	}
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, &lim);
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
	vt_run_free(&x);

	hp_limits_default(&lim);
	lim.max_probes = 1;
	w = vt_rule_new();
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	vt_forbid(w, "forbid sudo");
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	vt_forbid(w, "forbid sudo");
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, &lim);
	assert_int_equal(x.r.status, HP_RUN_STOPPED);
	assert_string_equal(hp_role_result_str(&x.r, x.r.reason), "probe limit of 1 reached");
	vt_run_free(&x);

	hp_limits_default(&lim);
	lim.max_memory = 4096;
	w = vt_rule_new();
	static char big[3000];
	memset(big, 'y', sizeof big - 1);
	E(PUSH_STR, 0, 0, S(big));
	E(PUSH_STR, 0, 0, S(big));
	E(CONCAT, 0, 0, 0);
	E(PUSH_STR, 0, 0, S(""));
	E(EQ, 0, 0, 0);
	vt_require(w, "require big");
	E(END, 0, 0, 0);
	vt_run_body(&x, w, 0, &lim);
	assert_string_equal(vt_outcomes(&x, false), "unknown");
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value v;
	assert_true(hp_role_result_value(&x.r, x.r.outcomes[0].value, &pool, &v));
	assert_string_equal(vt_fmt(&v), "unknown (memory limit reached)");
	hp_pool_free(&pool);
	vt_run_free(&x);
}

static void test_undeclared_role_runs_nothing(void **state)
{
	(void)state;
	hp_bcw *w = vt_rule_new();
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
	hp_role_result r;
	hp_vm_run_role(x.bc, &x.g, HP_ROLE_HANGAR, &vt_stub.base, NULL, &r);
	assert_int_equal(r.status, HP_RUN_COMPLETE);
	assert_int_equal(r.steps, 0);
	hp_role_result_free(&r);
	vt_run_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
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
