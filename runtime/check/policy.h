/* policy.h: a policy file to a verified program, whichever form it is in.
 * Bytecode (recognised by its magic, not its name) is loaded and verified.
 * Source is compiled first, by the compiler that the full hangar-policy
 * registers at start-up; hangar-policy-runtime links no compiler, registers
 * none, and refuses source with a message saying how to compile it. */
#ifndef HP_POLICY_H
#define HP_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "model/bytecode.h"
#include "lib/xalloc.h"

/* Compile the source at path (or, when text is not NULL, the textlen
 * bytes at text, named path) to bytecode (malloc'd), printing its own
 * diagnostics on stderr; NULL after an error. */
typedef uint8_t *(*hp_source_compiler)(const char *path, const char *text, size_t textlen,
                                       size_t *len);

/* Set once by hangar-policy's main, before any command runs. */
void hp_set_source_compiler(hp_source_compiler fn);

/* 1 when the file at path starts with the bytecode magic, 0 when not, -1
 * when it cannot be read (err set). */
int hp_policy_is_bytecode(const char *path, hp_err *err);

/* The verified program of the policy at path. NULL with err set; err is
 * empty when the compiler has already printed its diagnostics. */
hp_bc *hp_policy_load(const char *path, hp_err *err);

/* A policy operand: "-" is standard input (at most HP_POLICY_MAX_STDIN
 * bytes), anything else a path. */
#define HP_POLICY_MAX_STDIN (64u * 1024u * 1024u)
hp_bc *hp_policy_load_operand(const char *operand, hp_err *err);

/* The same for a policy in memory named `name` (standard input). */
hp_bc *hp_policy_load_mem(const char *name, const uint8_t *data, size_t len, hp_err *err);

#endif
