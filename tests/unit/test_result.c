/* test_result.c: a role's result as bytes (what a role's child sends its
 * parent): round trips, and every malformed message rejected with its
 * exact reason before anything in it is used; and the combine step. */
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
#include "expect.h"

#define LOC ((hp_bcw_loc){"t.hpol", 3, 5})

static const bt_answer answers[] = {
    {HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/bin", {HP_VAL_KNOWN, HP_T_BOOL, {.b = true}}},
    {HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin", {HP_VAL_KNOWN, HP_T_BOOL, {.b = false}}},
    {HP_ROLE_AGENT, HP_PROBE_SUDO, NULL, {HP_VAL_SKIPPED, HP_T_BOOL, {.reason = "offline"}}},
};


typedef struct {
	hp_bc *bc;
	hp_globals g;
	hp_role_result r;
	hp_buf bytes;
} fixture;

/* rule a: for d in split("/usr/bin:/bin", ":") { forbid writable(d) }
 * rule b: forbid sudo; rule c: require true (as root, which may not run) */
static void setup(fixture *x)
{
	hp_bcw *w = bt_new();
	hp_bcw_rule(w, "a", "A", "fix a", HP_APPLIES_ALL, LOC);
	uint32_t a0 = hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_FORBID, "forbid writable(d)", LOC);
	hp_bcw_rule(w, "b", "B", NULL, HP_APPLIES_ALL, LOC);
	uint32_t b0 = hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_FORBID, "forbid sudo", LOC);
	hp_bcw_rule(w, "c", "C", NULL, HP_APPLIES_ALL, LOC);
	uint32_t c0 = hp_bcw_assertion(w, HP_ROLE_ROOT, HP_BC_REQUIRE, "require true", LOC);
	E(PUSH_STR, 0, 0, S("/usr/bin:/bin"));
	E(PUSH_STR, 0, 0, S(":"));
	E(SPLIT, 0, 0, 0);
	E(FOR, 0, 0, 8);
	E(LOAD_LOCAL, 0, 0, 0);
	E(PROBE1, 0, HP_PROBE_WRITABLE, 0);
	E(FORBID, 0, 0, a0);
	E(ENDFOR, 0, 0, S("d"));
	E(PROBE0, 0, HP_PROBE_SUDO, 0);
	E(FORBID, 0, 0, b0);
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_AGENT, 0);
	uint32_t rb = hp_bcw_pc(w);
	E(PUSH_BOOL, 1, 0, 0);
	E(REQUIRE, 0, 0, c0);
	E(END, 0, 0, 0);
	bt_role(w, HP_ROLE_ROOT, rb);
	hp_err err;
	x->bc = bt_load(w, &err);
	if (!x->bc)
		fail_msg("%s", err.msg);
	bt_backend stub;
	hp_backend *b = bt_backend_init(&stub, answers, sizeof answers / sizeof answers[0]);
	assert_true(hp_globals_eval(x->bc, b, NULL, 0, NULL, &x->g, &err));
	hp_vm_run_role(x->bc, &x->g, HP_ROLE_AGENT, b, NULL, &x->r);
	memset(&x->bytes, 0, sizeof x->bytes);
	hp_role_result_encode(&x->r, &x->bytes);
}

static void teardown(fixture *x)
{
	hp_buf_free(&x->bytes);
	hp_role_result_free(&x->r);
	hp_globals_free(&x->g);
	hp_bc_free(x->bc);
}

static void test_round_trip(void **state)
{
	(void)state;
	fixture x;
	setup(&x);
	hp_role_result back;
	hp_err err;
	if (!hp_role_result_decode(x.bc, (const uint8_t *)x.bytes.data, x.bytes.len, &back, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(back.noutcomes, 3);
	assert_int_equal(back.nfacts, 3);
	assert_int_equal(back.steps, x.r.steps);
	for (uint32_t i = 0; i < back.noutcomes; i++) {
		hp_buf a = {0}, b = {0};
		hp_outcome_format(&a, x.bc, &x.r, &x.r.outcomes[i]);
		hp_outcome_format(&b, x.bc, &back, &back.outcomes[i]);
		assert_string_equal(a.data, b.data);
		hp_buf_free(&a);
		hp_buf_free(&b);
	}
	hp_role_result_free(&back);
	/* every truncation is rejected (a failed decode leaves nothing to free) */
	for (size_t n = 0; n < x.bytes.len; n++)
		assert_false(
		    hp_role_result_decode(x.bc, (const uint8_t *)x.bytes.data, n, &back, &err));
	teardown(&x);
}

static void wr32(char *p, uint32_t v)
{
	p[0] = (char)v;
	p[1] = (char)(v >> 8);
	p[2] = (char)(v >> 16);
	p[3] = (char)(v >> 24);
}

/* Patch 4 bytes at off of the encoded result; the decoder's message. */
static const char *patched(size_t off, uint32_t v)
{
	static hp_err err;
	fixture x;
	setup(&x);
	wr32(x.bytes.data + off, v);
	hp_role_result back;
	bool ok =
	    hp_role_result_decode(x.bc, (const uint8_t *)x.bytes.data, x.bytes.len, &back, &err);
	if (ok)
		hp_role_result_free(&back);
	teardown(&x);
	return ok ? "(accepted)" : err.msg;
}

static void test_rejections(void **state)
{
	(void)state;
	/* header: magic 0, version 4, role 8, status 12, reason 16, stop 20, steps 24,
	 * probes 32, counts 40..56; outcomes from 60, 28 bytes each */
	EXPECT(patched(0, 0x58585858), "role result: bad magic");
	EXPECT(patched(4, 1), "role result: version 1, expected 2");
	EXPECT(patched(8, 3), "role result: role 3 or status 0 out of range");
	EXPECT(patched(20, 5), "role result: stop instruction 5 out of place");
	EXPECT(patched(40, 4), "role result: the counts need 332 bytes, there are 304");
	EXPECT(patched(60, 2), "role result: outcome 0: assertion 2 is not one of role agent's");
	EXPECT(patched(64, 9), "role result: outcome 0: kind 9");
	EXPECT(patched(64, HP_OUT_UNKNOWN),
	       "role result: outcome value: data offset 4294967295 out of range (72 bytes)");
	EXPECT(patched(68, 7), "role result: outcome 0: a holds outcome carries a value");
	EXPECT(patched(76, 9), "role result: outcome 0: observations out of range");
	EXPECT(patched(84, 9), "role result: outcome 0: loop variables out of range");
	/* obs at 60 + 3 * 28 = 144 (3 of them), binds at 156 (2), facts at 172 (3, 20 bytes each) */
	EXPECT(patched(144, 7), "role result: observation 0: fact 7 out of range");
	EXPECT(patched(156, 999), "role result: loop variable 0 out of range");
	EXPECT(patched(172, 200), "role result: fact 0: probe 200 or role 2 out of range");
	EXPECT(patched(172, HP_PROBE_ENV),
	       "role result: fact answer: a bool where a string belongs");
	EXPECT(patched(184, 1000),
	       "role result: fact answer: data offset 1000 out of range (72 bytes)");
	/* facts are 20 bytes: probe, role, argument, answer, where */
	EXPECT(patched(188, 1000), "role result: fact 0: where: data offset 1000 is not a string");
}

static void test_combine(void **state)
{
	(void)state;
	fixture x;
	setup(&x);
	hp_role_result root;
	hp_role_result_not_run(&root, HP_ROLE_ROOT, "not running as root");
	const hp_role_result *roles[HP_ROLE_COUNT] = {&root, NULL, &x.r};
	hp_rule_result rr[3];
	hp_combine(x.bc, roles, rr);
	assert_int_equal(rr[0].result, HP_RESULT_FAIL);
	assert_int_equal(rr[0].count[HP_OUT_HOLDS], 1);
	assert_int_equal(rr[0].count[HP_OUT_FAILS], 1);
	assert_int_equal(rr[1].result, HP_RESULT_SKIPPED);
	assert_int_equal(rr[2].result, HP_RESULT_SKIPPED);
	/* the roles that did not run are kept per rule (a waiver reads them) */
	assert_int_equal(rr[2].unrun, 1u << HP_ROLE_ROOT);
	assert_int_equal(rr[0].unrun, 0);
	hp_buf b = {0};
	hp_rule_result_evidence(&b, x.bc, &rr[0]);
	assert_string_equal(b.data, "forbid writable(d) (t.hpol:3:5) as agent: fails; observed "
	                            "writable(\"/bin\") as agent is true; with d = \"/bin\"");
	hp_buf_free(&b);
	hp_rule_result_evidence(&b, x.bc, &rr[2]);
	assert_string_equal(b.data, "as root: not running as root");
	hp_buf_free(&b);
	/* a role with no result at all: skipped too, and a pass counts its checks */
	const hp_role_result *none[HP_ROLE_COUNT] = {NULL, NULL, NULL};
	hp_combine(x.bc, none, rr);
	assert_int_equal(rr[2].result, HP_RESULT_SKIPPED);
	hp_rule_result_evidence(&b, x.bc, &rr[2]);
	assert_string_equal(b.data, "as root: the role did not run");
	hp_buf_free(&b);
	hp_role_result ran;
	bt_backend stub;
	hp_vm_run_role(x.bc, &x.g, HP_ROLE_ROOT, bt_backend_init(&stub, answers, 0), NULL, &ran);
	const hp_role_result *both[HP_ROLE_COUNT] = {&ran, NULL, &x.r};
	hp_combine(x.bc, both, rr);
	assert_int_equal(rr[2].result, HP_RESULT_PASS);
	hp_rule_result_evidence(&b, x.bc, &rr[2]);
	assert_string_equal(b.data, "1 check held");
	hp_buf_free(&b);
	hp_role_result_free(&ran);
	hp_role_result_free(&root);
	teardown(&x);
}

int main(int argc, char **argv)
{
	(void)argv;
	expect_printing = argc > 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_rejections),
	    cmocka_unit_test(test_combine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
