/* parse.h: what the lexer (grammar/lexer.re), the parser (grammar/parser.y)
 * and the tree builder (compiler/build.c) share: one parse's state, passed
 * to each of them, never global. */
#ifndef HP_PARSE_H
#define HP_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "intern.h"

/* Open brackets at once, and the depth of an expression tree: beyond these
 * the parse stops with a message (no pass then recurses deeper). */
#define HP_MAX_BRACKETS 256u
#define HP_MAX_EXPR_DEPTH 256u
#define HP_MAX_NAME 256u

typedef struct {
	unsigned char ch; /* '(' or '{' */
	hp_span at;
} hp_bracket;

/* A string token's value. */
typedef struct {
	const char *s;
	uint32_t len;
} hp_strval;

/* A list being built: head, tail and count. */
typedef struct {
	void *head;
	void *tail;
	uint32_t n;
} hp_list;

typedef struct hp_parse {
	hp_arena *arena;
	hp_src *src;
	hp_diags *diags;
	hp_intern *names;
	/* lexer */
	const unsigned char *base, *cur, *lim, *tok, *mark;
	uint32_t line, line_start;
	hp_bracket brackets[HP_MAX_BRACKETS];
	uint32_t nbrackets;
	bool stop;            /* a limit was hit: the lexer only returns end of file */
	bool last_was_error;  /* the last token was a lexical error (no syntax error for it) */
	hp_comment *comments; /* malloc'd while lexing, moved to the arena after */
	size_t ncomments, comments_cap;
	uint32_t last_token_line; /* for own_line comments */
	bool any_token_on_line;
	/* parser */
	hp_decl *decls;
	hp_decl *decls_tail;
	uint32_t ndecls;
	uint32_t nerrors; /* errors reported by this parse */
} hp_parse;

/* Parse src into src->decls. Returns the number of errors reported. */
uint32_t hp_parse_src(hp_src *src, hp_arena *arena, hp_intern *names, hp_diags *diags);

/* The lexer's entry point, called by the parser (values as parser.h). */
union HP_YYSTYPE;
int hp_yylex(union HP_YYSTYPE *lval, hp_span *lloc, hp_parse *ps);

/* Report an error at a span of the file being parsed. */
hp_diag *hp_parse_error(hp_parse *ps, hp_diag_code code, hp_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Tree building (build.c): every node gets its span; the grammar does
 * nothing else. */
hp_expr *hp_mk_expr(hp_parse *ps, hp_expr_kind kind, hp_span at);
hp_expr *hp_mk_int(hp_parse *ps, int64_t v, hp_span at);
hp_expr *hp_mk_bool(hp_parse *ps, bool v, hp_span at);
hp_expr *hp_mk_str(hp_parse *ps, hp_strval v, hp_span at);
hp_expr *hp_mk_name(hp_parse *ps, const char *name, hp_span at);
hp_expr *hp_mk_call(hp_parse *ps, const char *name, hp_span name_at, hp_list args, hp_span at);
hp_expr *hp_mk_field(hp_parse *ps, hp_expr *base, const char *name, hp_span name_at, hp_span at);
hp_expr *hp_mk_unary(hp_parse *ps, hp_op op, hp_expr *a, hp_span at);
hp_expr *hp_mk_binary(hp_parse *ps, hp_op op, hp_expr *a, hp_expr *b, hp_span at);
/* `a = b` in an expression: reported ("write '=='") and read as a == b so
 * that the rest of the file is checked without a second message. */
hp_expr *hp_mk_assign_as_eq(hp_parse *ps, hp_expr *a, hp_expr *b, hp_span op, hp_span at);
hp_expr *hp_mk_wrap(hp_parse *ps, hp_expr_kind kind, hp_expr *inner, hp_span at);
hp_expr *hp_mk_set(hp_parse *ps, hp_list items, hp_span at);
hp_expr *hp_mk_canary(hp_parse *ps, const char *role, hp_span at);
hp_list hp_list_one(void *item);
/* Append to a list; items are linked through their first field `next`
 * given by offset. */
hp_list hp_list_add(hp_list l, void *item, size_t next_off);

hp_stmt *hp_mk_stmt(hp_parse *ps, hp_stmt_kind kind, hp_expr *e, hp_span at);
hp_stmt *hp_mk_for(hp_parse *ps, const char *var, hp_span var_at, hp_expr *list, int64_t max,
                   bool max_given, hp_span max_at, hp_loop_empty empty, hp_span empty_at,
                   hp_list body, hp_span at);
hp_decl *hp_mk_decl(hp_parse *ps, hp_decl_kind kind, const char *name, hp_span name_at, hp_span at);
hp_block *hp_mk_block(hp_parse *ps, const char *role, hp_span role_at, hp_list body, hp_span at);
hp_role_item *hp_mk_role_item(hp_parse *ps, hp_role_item_kind kind, hp_expr *e, hp_span at);
hp_prov_item *hp_mk_prov_item(hp_parse *ps, hp_prov_item_kind kind, hp_span at);
/* A rule's body as parsed: `as` blocks and remedies in source order. */
typedef struct hp_rule_part {
	hp_block *block; /* NULL for a remedy */
	hp_strval remedy;
	hp_span at;
	struct hp_rule_part *next;
} hp_rule_part;

hp_rule_part *hp_mk_part(hp_parse *ps, hp_block *b, const hp_strval *remedy, hp_span at);
/* Move the parts into the rule (a second remedy is reported). */
void hp_mk_rule_body(hp_parse *ps, hp_decl *rule, hp_list parts);
/* Append a top-level declaration to the file. */
void hp_add_decl(hp_parse *ps, hp_decl *d);

/* Span from the start of a to the end of b. */
hp_span hp_span_join(hp_span a, hp_span b);

#endif
