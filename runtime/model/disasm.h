/* disasm.h: the one printer for instructions, used by `explain`, by tests
 * and by anything that traces the VM; and the whole-program listing that
 * `explain` shows: tables, compile-time bounds, and the disassembly with
 * each source line above the instructions compiled from it. */
#ifndef HP_DISASM_H
#define HP_DISASM_H

#include "lib/buf.h"
#include "model/bytecode.h"

/* One instruction, no newline: "PROBE1        writable". */
void hp_disasm_insn(hp_buf *b, const hp_bc *bc, uint32_t pc);

/* The instructions of a region, one per line, each source line (from the
 * source map) printed above the first instruction compiled from it. */
void hp_disasm_region(hp_buf *b, const hp_bc *bc, hp_bc_region r);

/* Everything `explain` prints about a verified program. */
void hp_explain(hp_buf *b, const hp_bc *bc);

#endif
