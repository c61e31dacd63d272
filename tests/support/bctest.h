/* bctest.h: helpers for tests that assemble bytecode by hand: a builder
 * with a policy and a location set, regions, a role with a trivial
 * identity, loading, and a stub probe backend that answers from a table. */
#ifndef HP_BCTEST_H
#define HP_BCTEST_H

#include "vm/backend.h"
#include "bcwrite.h"
#include "model/bytecode.h"
#include "vm/vm.h"

/* The short forms code is assembled with, on a builder named w: an
 * instruction, a string's index, an int or caps constant's. */
#define E(op, a, b, c) hp_bcw_emit(w, HP_I_##op, a, b, c)
#define S(s) hp_bcw_str(w, s)
#define K(v) hp_bcw_const(w, HP_T_INT, (uint64_t)(v))
#define CAPS(v) hp_bcw_const(w, HP_T_CAPS, (uint64_t)(v))

/* A builder for policy "test" version 1, at t.hpol:1:1. */
hp_bcw *bt_new(void);
/* The region from start to the next instruction to be emitted. */
hp_bc_region bt_region(hp_bcw *w, uint32_t start);
/* Declare role with the checks emitted since body_start, and an identity
 * (uid 0) emitted after them. */
void bt_role(hp_bcw *w, hp_role role, uint32_t body_start);
/* Finish, load as "t.hpb", free the builder. NULL with err on rejection. */
hp_bc *bt_load(hp_bcw *w, hp_err *err);
/* Finish only: the bytes (malloc'd), the builder is freed. */
uint8_t *bt_bytes(hp_bcw *w, size_t *len);

/* The value param 0 of a program evaluates to (phase one only). The
 * globals are the caller's to free. */
hp_value bt_param0(const hp_bc *bc, hp_backend *b, hp_globals *g);

/* A stub backend: answers from a table; anything else is UNKNOWN. */
typedef struct {
	int role; /* -1: any */
	hp_probe_id probe;
	const char *arg; /* string argument, NULL for none or any */
	hp_value answer;
} bt_answer;

typedef struct {
	hp_backend base;
	const bt_answer *answers;
	size_t n;
	unsigned calls;
	hp_role last_role;
} bt_backend;

hp_backend *bt_backend_init(bt_backend *b, const bt_answer *answers, size_t n);

#endif
