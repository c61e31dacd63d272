/* vmtest.h: helpers for the tests that run hand-assembled programs in the
 * VM (test_vm_values.c, test_vm_roles.c): a stub backend with a fixed
 * table of answers (users agent and ghost, group docker, env PATH, UNSET
 * and WRONG, the agent's writable /usr/bin, /bin and /tmp, sudo, signal),
 * a param's value and a role body's outcomes as text. The texts are in
 * one static buffer, valid until the next call. */
#ifndef HP_VMTEST_H
#define HP_VMTEST_H

#include "bctest.h"

extern const bt_answer vt_answers[];
extern bt_backend vt_stub;

/* A value as hp_value_format writes it. */
const char *vt_fmt(const hp_value *v);

/* Param "p" of type t over [start, pc) of w's program: what it evaluates
 * to (w is freed; a rejected program fails the test). */
const char *vt_eval(hp_bcw *w, uint32_t start, hp_type t);

/* A program whose agent checks are [start, pc) of w, run with limits lim
 * (NULL: the defaults) after its params. */
typedef struct {
	hp_bc *bc;
	hp_globals g;
	hp_role_result r;
} vt_run;
void vt_run_body(vt_run *x, hp_bcw *w, uint32_t start, const hp_limits *lim);
void vt_run_free(vt_run *x);

/* The outcomes, "kind[: evidence]" joined by " | ". */
const char *vt_outcomes(const vt_run *x, bool evidence);

/* A builder with rule "r" declared, and a REQUIRE or FORBID of a new
 * assertion of it (what: its text). */
hp_bcw *vt_rule_new(void);
void vt_require(hp_bcw *w, const char *what);
void vt_forbid(hp_bcw *w, const char *what);

/* Push a bool: 0 false, 1 true, 2 unknown, 3 skipped, 4 absent. */
void vt_push_tri(hp_bcw *w, int v);

/* op on such operands (b < 0: a unary op), required: "true", "false" or
 * the value it gave. */
const char *vt_tri_op(hp_opcode op, int a, int b);

#endif
