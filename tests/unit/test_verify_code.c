/* test_verify_code.c: every rejection class of the verifier, each on a
 * program assembled to break one rule (an opcode or operand, a probe, the
 * stack, regions, jumps, loops, NONEMPTY, bounds, assertions), with its
 * exact message (the file, the byte offset, the instruction, what is
 * wrong). */
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
	expect_printing = argc > 1;
	const struct CMUnitTest tests[] = {
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
