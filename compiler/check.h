/* check.h: name resolution and type checking over a parsed program: fills
 * the "checked" fields of ast.h and reports every mistake it finds. */
#ifndef HP_CHECK_H
#define HP_CHECK_H

#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "intern.h"

/* order: every declaration but includes, in evaluation order; errors_at_start:
 * d->nerrors before this compilation began (warnings about unused params
 * are left out after an error). Sets p->ok. */
void hp_check(hp_program *p, hp_decl **order, size_t n, hp_intern *names, hp_diags *d,
              uint32_t errors_at_start);

/* Capability names as libcap spells them without "cap_" (setuid, kill):
 * the number of a name, or -1. */
int hp_cap_lookup(const char *name);
/* The name of capability n, or NULL (for formatting and messages). */
const char *hp_cap_name(int n, char *buf, size_t len);

#endif
