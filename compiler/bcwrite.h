/* bcwrite.h: builds a bytecode file (docs/bytecode.md) from tables and
 * instructions. Code generation uses it, and tests use it to assemble
 * programs by hand. It writes what it is given: the loader and verifier,
 * not the builder, decide what is valid, so a test can build a bad program.
 * Output is deterministic: the same calls give the same bytes. */
#ifndef HP_BCWRITE_H
#define HP_BCWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "model/bytecode.h"

typedef struct hp_bcw hp_bcw;

/* A source location by name; the builder interns the file name. */
typedef struct {
	const char *file;
	uint32_t line, col;
} hp_bcw_loc;

hp_bcw *hp_bcw_new(void);
void hp_bcw_free(hp_bcw *w);

void hp_bcw_policy(hp_bcw *w, const char *name, int64_t version);

/* Intern a string (no NUL inside) or a constant: the same value gives the
 * same index. */
uint32_t hp_bcw_str(hp_bcw *w, const char *s);
uint32_t hp_bcw_strn(hp_bcw *w, const char *s, size_t len);
uint32_t hp_bcw_const(hp_bcw *w, hp_type type, uint64_t value);
/* A list constant: its items become a run of strings. */
uint32_t hp_bcw_list(hp_bcw *w, const hp_str *items, uint32_t n);

/* Code. Instructions emitted after hp_bcw_at carry that location in the
 * source map (an entry is added only when the location changes). */
void hp_bcw_at(hp_bcw *w, hp_bcw_loc loc, const char *line_text);
uint32_t hp_bcw_pc(const hp_bcw *w);
uint32_t hp_bcw_emit(hp_bcw *w, hp_opcode op, uint32_t a, uint32_t b, uint32_t c);
void hp_bcw_set_c(hp_bcw *w, uint32_t pc, uint32_t c);

/* Tables. A region is [start, start+len) of the code. */
uint32_t hp_bcw_param(hp_bcw *w, const char *name, hp_type type, hp_bc_region code, hp_bcw_loc loc);
/* keep_caps_const: a caps constant's index, or HP_BC_NONE. */
void hp_bcw_role(hp_bcw *w, hp_role role, unsigned flags, uint32_t keep_caps_const,
                 hp_bc_region identity, hp_bc_region body, hp_bcw_loc loc);
/* Rules and their assertions, in order: a rule's assertions follow it. */
uint32_t hp_bcw_rule(hp_bcw *w, const char *id, const char *title, const char *remedy,
                     hp_applies applies, hp_bcw_loc loc);
uint32_t hp_bcw_assertion(hp_bcw *w, hp_role role, hp_bc_assert_kind kind, const char *text,
                          hp_bcw_loc loc);
/* Providers and their conditions, in order. */
void hp_bcw_provider(hp_bcw *w, hp_provider p, hp_setting uid_split, hp_bcw_loc loc);
void hp_bcw_cond(hp_bcw *w, hp_bc_cond_kind kind, hp_bc_region code, const char *text,
                 const char *because, hp_bcw_loc loc);

/* The file's bytes (malloc'd), checksum included. The builder stays usable. */
uint8_t *hp_bcw_finish(hp_bcw *w, size_t *len);

/* Recompute the length and checksum fields of a file in place, so a test or
 * a mutation reaches the checks behind them. */
void hp_bc_reseal(uint8_t *data, size_t len);

#endif
