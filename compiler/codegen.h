/* codegen.h: code generation, from the checked syntax tree (ast.h) to the
 * bytecode file (docs/bytecode.md). Deterministic: the same sources give
 * the same bytes (no time, no address, no hash order; file names are kept
 * relative to the top-level policy's directory). Constant expressions are
 * folded with the runtime's own operators (ops.h); params are never
 * folded, so --param can still override them. */
#ifndef HP_CODEGEN_H
#define HP_CODEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

/* Generate the bytecode of p (p->ok must be true). Returns the bytes
 * (malloc'd) or NULL after adding an error to d (a limit of the bytecode
 * reached: an expression too deep for the stack, loops nested too deep). */
uint8_t *hp_codegen(const hp_program *p, size_t *len, hp_diags *d);

/* Compile the policy file at path from source to verified bytecode: front
 * end, code generation, then the loader and verifier on the result.
 * Diagnostics go to d; NULL when there was an error. The diagnostics point
 * into the sources, which *program holds: free it with hp_program_free
 * after the diagnostics are printed. */
uint8_t *hp_compile_file(const char *path, size_t *len, hp_diags *d, hp_program **program);

/* The same for source text in memory named `name` (standard input);
 * includes are relative to name's directory. */
uint8_t *hp_compile_text(const char *name, const char *text, size_t textlen, size_t *len,
                         hp_diags *d, hp_program **program);

/* hp_compile_file (text NULL) or hp_compile_text with the diagnostics
 * printed on stderr as a compiler prints them: the source compiler
 * hangar-policy registers for the runtime's commands (policy.h). */
uint8_t *hp_compile_source_printing(const char *path, const char *text, size_t textlen,
                                    size_t *len);

#endif
