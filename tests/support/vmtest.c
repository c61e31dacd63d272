/* vmtest.c: the programs the VM tests run (vmtest.h): a stub backend's
 * answers, a param's value as text, a role body's run and its outcomes,
 * and the three-valued operands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmtest.h"


static hp_str groups_items[2] = {{"agent", 5}, {"docker", 6}};
static hp_user agent_user = {{"agent", 5},     1000, 1000, {"/home/agent", 11}, {"/bin/bash", 9},
                             {groups_items, 2}};
static hp_group docker_group = {{"docker", 6}, 999, {groups_items, 1}};

const bt_answer vt_answers[] = {
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

bt_backend vt_stub;

static char text[4096];

const char *vt_fmt(const hp_value *v)
{
	hp_buf b = {0};
	hp_value_format(&b, v);
	snprintf(text, sizeof text, "%s", b.data);
	hp_buf_free(&b);
	return text;
}

/* Load the builder's program with param "p" of type t over [start, pc) and
 * return what it evaluates to, as text. */
const char *vt_eval(hp_bcw *w, uint32_t start, hp_type t)
{
	hp_bcw_param(w, "p", t, bt_region(w, start), (hp_bcw_loc){"t.hpol", 1, 1});
	hp_err err = {{0}};
	hp_bc *bc = bt_load(w, &err);
	if (!bc)
		fail_msg("rejected: %s", err.msg);
	hp_globals g;
	hp_value v =
	    bt_param0(bc, bt_backend_init(&vt_stub, vt_answers, sizeof vt_answers / sizeof vt_answers[0]), &g);
	vt_fmt(&v);
	hp_globals_free(&g);
	hp_bc_free(bc);
	return text;
}

/* Kleene logic runs in a role body (no_new_privs is a role probe). */
static hp_bc *body_program(hp_bcw *w, uint32_t start, hp_role role, hp_err *err)
{
	bt_role(w, role, start);
	return bt_load(w, err);
}


void vt_run_body(vt_run *x, hp_bcw *w, uint32_t start, const hp_limits *lim)
{
	hp_err err = {{0}};
	x->bc = body_program(w, start, HP_ROLE_AGENT, &err);
	if (!x->bc)
		fail_msg("rejected: %s", err.msg);
	hp_backend *b = bt_backend_init(&vt_stub, vt_answers, sizeof vt_answers / sizeof vt_answers[0]);
	assert_true(hp_globals_eval(x->bc, b, NULL, 0, lim, &x->g, &err));
	hp_vm_run_role(x->bc, &x->g, HP_ROLE_AGENT, b, lim, &x->r);
}

void vt_run_free(vt_run *x)
{
	hp_role_result_free(&x->r);
	hp_globals_free(&x->g);
	hp_bc_free(x->bc);
}

/* Outcomes as text: "kind[: evidence]" joined by " | ". */
const char *vt_outcomes(const vt_run *x, bool evidence)
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
void vt_require(hp_bcw *w, const char *what)
{
	uint32_t a =
	    hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_REQUIRE, what, (hp_bcw_loc){"t.hpol", 3, 5});
	E(REQUIRE, 0, 0, a);
}

void vt_forbid(hp_bcw *w, const char *what)
{
	uint32_t a =
	    hp_bcw_assertion(w, HP_ROLE_AGENT, HP_BC_FORBID, what, (hp_bcw_loc){"t.hpol", 4, 5});
	E(FORBID, 0, 0, a);
}

hp_bcw *vt_rule_new(void)
{
	hp_bcw *w = bt_new();
	hp_bcw_rule(w, "r", "a rule", NULL, HP_APPLIES_ALL, (hp_bcw_loc){"t.hpol", 2, 1});
	return w;
}

/* push a bool: 0 false, 1 true, 2 unknown, 3 skipped, 4 absent */
void vt_push_tri(hp_bcw *w, int v)
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

const char *vt_tri_op(hp_opcode op, int a, int b)
{
	hp_bcw *w = vt_rule_new();
	vt_push_tri(w, a);
	if (b >= 0)
		vt_push_tri(w, b);
	hp_bcw_emit(w, op, 0, 0, 0);
	vt_require(w, "x");
	E(END, 0, 0, 0);
	vt_run x;
	vt_run_body(&x, w, 0, NULL);
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
		snprintf(out, sizeof out, "%s", vt_fmt(&v));
	}
	hp_pool_free(&pool);
	vt_run_free(&x);
	return out;
}
