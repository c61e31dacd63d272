/* front.h: the front end's entry point: read a policy and the files it
 * includes, lex, parse, resolve and type-check, and hand back the checked
 * AST (ast.h) with every diagnostic found. Used by lint, compile, explain,
 * check POLICY.hpol, and by code generation.
 *
 *   hp_diags d;
 *   hp_diags_init(&d);
 *   hp_program *p = hp_front_compile("policies/default.hpol", NULL, &d);
 *   if (p->ok)            // no error: the checked fields of ast.h are valid
 *           codegen(p);
 *   hp_diags_print(stderr, &d, &style);
 *   hp_program_free(p);   // after printing: diagnostics point into its sources
 *   hp_diags_free(&d);
 *
 * No global state: compilations in one process never touch each other.
 */
#ifndef HP_FRONT_H
#define HP_FRONT_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* Reads one file for the front end: fills *text (malloc'd, NUL after it)
 * and *len, or returns -1 with a message in err ("No such file or
 * directory"). The default reads regular files only, without blocking,
 * up to HP_FRONT_MAX_FILE bytes. */
typedef int (*hp_front_reader)(void *ctx, const char *path, char **text, size_t *len, char *err,
                               size_t errlen);

/* The largest source file, and how deep includes may nest. */
#define HP_FRONT_MAX_FILE (1024u * 1024u * 1024u)
#define HP_FRONT_MAX_INCLUDE_DEPTH 32u

typedef struct {
	hp_front_reader read; /* NULL: the default, from disk */
	void *read_ctx;
	bool parse_only; /* stop after parsing (no includes, no checks): fmt */
} hp_front_opts;

/* Compile the file at path. Never NULL; p->ok tells whether it compiled
 * without error. Diagnostics are appended to d (warnings do not clear ok). */
hp_program *hp_front_compile(const char *path, const hp_front_opts *opts, hp_diags *d);

/* The same for text in memory named `name` (includes are read through
 * opts->read, relative to name's directory). text need not be
 * NUL-terminated; it is copied. */
hp_program *hp_front_compile_text(const char *name, const char *text, size_t len,
                                  const hp_front_opts *opts, hp_diags *d);

void hp_program_free(hp_program *p);

/* The default reader (see hp_front_reader). */
int hp_front_read_file(void *ctx, const char *path, char **text, size_t *len, char *err,
                       size_t errlen);

#endif
