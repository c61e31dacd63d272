/* fmt.h: the canonical layout of a policy file (hangar-policy fmt), and a
 * dump of its parse tree without source positions, used to test that
 * formatting never changes what a file means. */
#ifndef HP_FMT_H
#define HP_FMT_H

#include "ast.h"
#include "lib/buf.h"

/* Print src (parsed without error) in the canonical layout. */
void hp_fmt_src(const hp_src *src, hp_buf *out);

/* The parse tree of src's own declarations as text, spans left out. */
void hp_ast_dump(const hp_src *src, hp_buf *out);

#endif
