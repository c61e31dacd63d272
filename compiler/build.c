/* build.c: the tree builders the grammar calls, and the driver of one
 * file's parse. Builders give every node its span and keep expression trees
 * shallow enough that no later pass can recurse without bound. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.h"
#include "lib/xalloc.h"

/* After this many errors in one file the parse stops: the rest of a file
 * that is not a policy (a binary, say) would only repeat them. */
#define MAX_ERRORS_PER_FILE 100u

hp_diag *hp_parse_error(hp_parse *ps, hp_diag_code code, hp_span at, const char *fmt, ...)
{
	if (ps->stop)
		return NULL;
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	hp_diag *g = hp_diag_add(ps->diags, HP_SEV_ERROR, code, ps->src, at, "%s", buf);
	if (++ps->nerrors >= MAX_ERRORS_PER_FILE) {
		hp_diag_add(ps->diags, HP_SEV_ERROR, HP_DG_LIMIT, ps->src, at,
		            "too many errors in this file (%u): the rest of it is not checked",
		            ps->nerrors);
		ps->stop = true;
	}
	return g;
}

hp_span hp_span_join(hp_span a, hp_span b)
{
	if (b.off + b.len > a.off)
		a.len = b.off + b.len - a.off;
	return a;
}

hp_list hp_list_one(void *item)
{
	hp_list l = {item, item, 1};
	return l;
}

hp_list hp_list_add(hp_list l, void *item, size_t next_off)
{
	if (!item)
		return l;
	if (!l.head) {
		l.head = l.tail = item;
		l.n = 1;
		return l;
	}
	memcpy((char *)l.tail + next_off, &item, sizeof item);
	l.tail = item;
	l.n++;
	return l;
}

hp_expr *hp_mk_expr(hp_parse *ps, hp_expr_kind kind, hp_span at)
{
	hp_expr *e = hp_arena_node(ps->arena, sizeof *e);
	e->kind = kind;
	e->span = at;
	e->type = HP_T_NONE;
	e->depth = 1;
	return e;
}

/* A node whose children are d deep: past the limit it becomes an error
 * node (reported once per runaway chain) so that depth stays bounded. */
static hp_expr *bounded(hp_parse *ps, hp_expr *e, uint32_t d, bool child_saturated)
{
	e->depth = d + 1;
	if (e->depth <= HP_MAX_EXPR_DEPTH)
		return e;
	if (!child_saturated) {
		hp_diag *g = hp_parse_error(ps, HP_DG_LIMIT, e->span,
		                            "expression nested too deeply (the limit is %u levels)",
		                            HP_MAX_EXPR_DEPTH);
		hp_diag_help(g, "split it with params");
	}
	hp_expr *x = hp_mk_expr(ps, HP_EX_ERROR, e->span);
	x->depth = HP_MAX_EXPR_DEPTH;
	return x;
}

static bool saturated(const hp_expr *e)
{
	return e && e->kind == HP_EX_ERROR && e->depth >= HP_MAX_EXPR_DEPTH;
}

static uint32_t depth_of(const hp_expr *e)
{
	return e ? e->depth : 0;
}

hp_expr *hp_mk_int(hp_parse *ps, int64_t v, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_INT, at);
	e->u.i = v;
	return e;
}

hp_expr *hp_mk_bool(hp_parse *ps, bool v, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_BOOL, at);
	e->u.b = v;
	return e;
}

hp_expr *hp_mk_str(hp_parse *ps, hp_strval v, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_STR, at);
	e->u.str.s = v.s;
	e->u.str.len = v.len;
	return e;
}

hp_expr *hp_mk_name(hp_parse *ps, const char *name, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_NAME, at);
	e->u.name.name = name;
	e->u.name.index = -1;
	return e;
}

hp_expr *hp_mk_call(hp_parse *ps, const char *name, hp_span name_at, hp_list args, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_CALL, at);
	e->u.call.name = name;
	e->u.call.name_span = name_at;
	e->u.call.args = args.head;
	e->u.call.nargs = args.n;
	e->u.call.probe = -1;
	e->u.call.builtin = HP_BUILTIN_NONE;
	uint32_t d = 0;
	bool sat = false;
	for (hp_expr *a = args.head; a; a = a->next) {
		if (a->depth > d)
			d = a->depth;
		sat |= saturated(a);
	}
	return bounded(ps, e, d, sat);
}

hp_expr *hp_mk_field(hp_parse *ps, hp_expr *base, const char *name, hp_span name_at, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_FIELD, at);
	e->u.field.base = base;
	e->u.field.name = name;
	e->u.field.name_span = name_at;
	return bounded(ps, e, depth_of(base), saturated(base));
}

hp_expr *hp_mk_unary(hp_parse *ps, hp_op op, hp_expr *a, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_UNARY, at);
	e->u.op.op = op;
	e->u.op.a = a;
	e->u.op.probe = -1;
	return bounded(ps, e, depth_of(a), saturated(a));
}

hp_expr *hp_mk_binary(hp_parse *ps, hp_op op, hp_expr *a, hp_expr *b, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_BINARY, at);
	e->u.op.op = op;
	e->u.op.a = a;
	e->u.op.b = b;
	e->u.op.probe = -1;
	uint32_t da = depth_of(a), db = depth_of(b);
	return bounded(ps, e, da > db ? da : db, saturated(a) || saturated(b));
}

hp_expr *hp_mk_assign_as_eq(hp_parse *ps, hp_expr *a, hp_expr *b, hp_span op, hp_span at)
{
	hp_diag *g = hp_parse_error(ps, HP_DG_SYNTAX, op, "'=' is not a comparison");
	hp_diag_help(g, "write '==' to compare; '=' only gives a param or a role its value");
	return hp_mk_binary(ps, HP_OP_EQ, a, b, at);
}

hp_expr *hp_mk_wrap(hp_parse *ps, hp_expr_kind kind, hp_expr *inner, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, kind, at);
	e->u.inner = inner;
	return bounded(ps, e, depth_of(inner), saturated(inner));
}

hp_expr *hp_mk_set(hp_parse *ps, hp_list items, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_SET, at);
	e->u.set.items = items.head;
	e->u.set.n = items.n;
	uint32_t d = 0;
	bool sat = false;
	for (hp_expr *a = items.head; a; a = a->next) {
		if (a->depth > d)
			d = a->depth;
		sat |= saturated(a);
	}
	return bounded(ps, e, d, sat);
}

hp_expr *hp_mk_canary(hp_parse *ps, const char *role, hp_span at)
{
	hp_expr *e = hp_mk_expr(ps, HP_EX_CANARY, at);
	e->u.canary.name = role;
	e->u.canary.role = (hp_role)-1;
	return e;
}

hp_stmt *hp_mk_stmt(hp_parse *ps, hp_stmt_kind kind, hp_expr *e, hp_span at)
{
	hp_stmt *s = hp_arena_node(ps->arena, sizeof *s);
	s->kind = kind;
	s->expr = e;
	s->span = at;
	return s;
}

hp_stmt *hp_mk_for(hp_parse *ps, const char *var, hp_span var_at, hp_expr *list, int64_t max,
                   bool max_given, hp_span max_at, hp_loop_empty empty, hp_span empty_at,
                   hp_list body, hp_span at)
{
	hp_stmt *s = hp_mk_stmt(ps, HP_ST_FOR, list, at);
	s->empty = empty;
	s->empty_span = empty_at;
	s->var = var;
	s->var_span = var_at;
	s->body = body.head;
	s->nbody = body.n;
	s->max_given = max_given;
	s->max_span = max_at;
	s->max = HP_LOOP_DEFAULT_MAX;
	if (max_given) {
		if (max < 1 || max > (int64_t)HP_LOOP_LIMIT) {
			hp_diag *g =
			    hp_parse_error(ps, HP_DG_INT_RANGE, max_at,
			                   "a loop bound must be between 1 and %u", HP_LOOP_LIMIT);
			hp_diag_help(g, "the default bound is %u", HP_LOOP_DEFAULT_MAX);
		} else {
			s->max = (uint32_t)max;
		}
	}
	return s;
}

hp_decl *hp_mk_decl(hp_parse *ps, hp_decl_kind kind, const char *name, hp_span name_at, hp_span at)
{
	hp_decl *d = hp_arena_node(ps->arena, sizeof *d);
	d->kind = kind;
	d->name = name;
	d->name_span = name_at;
	d->span = at;
	return d;
}

hp_block *hp_mk_block(hp_parse *ps, const char *role, hp_span role_at, hp_list body, hp_span at)
{
	hp_block *b = hp_arena_node(ps->arena, sizeof *b);
	b->role_name = role;
	b->role_span = role_at;
	b->span = at;
	b->body = body.head;
	b->nbody = body.n;
	b->role = (hp_role)-1;
	return b;
}

hp_role_item *hp_mk_role_item(hp_parse *ps, hp_role_item_kind kind, hp_expr *e, hp_span at)
{
	hp_role_item *r = hp_arena_node(ps->arena, sizeof *r);
	r->kind = kind;
	r->expr = e;
	r->span = at;
	return r;
}

hp_prov_item *hp_mk_prov_item(hp_parse *ps, hp_prov_item_kind kind, hp_span at)
{
	hp_prov_item *p = hp_arena_node(ps->arena, sizeof *p);
	p->kind = kind;
	p->span = at;
	return p;
}

hp_rule_part *hp_mk_part(hp_parse *ps, hp_block *b, const hp_strval *remedy, hp_span at)
{
	hp_rule_part *p = hp_arena_node(ps->arena, sizeof *p);
	p->block = b;
	if (remedy)
		p->remedy = *remedy;
	p->at = at;
	return p;
}

void hp_mk_rule_body(hp_parse *ps, hp_decl *rule, hp_list parts)
{
	hp_block *head = NULL, *tail = NULL;
	uint32_t n = 0;
	for (hp_rule_part *p = parts.head; p; p = p->next) {
		if (p->block) {
			if (tail)
				tail->next = p->block;
			else
				head = p->block;
			tail = p->block;
			n++;
			continue;
		}
		if (rule->u.rule.remedy) {
			hp_diag *g =
			    hp_parse_error(ps, HP_DG_STRUCTURE, p->at, "a rule has one remedy");
			hp_diag_note(g, ps->src, rule->u.rule.remedy_span,
			             "the first remedy is here");
			hp_diag_help(g, "say everything in one remedy");
			continue;
		}
		rule->u.rule.remedy = p->remedy.s;
		rule->u.rule.remedy_span = p->at;
	}
	rule->u.rule.blocks = head;
	rule->u.rule.nblocks = n;
}

void hp_add_decl(hp_parse *ps, hp_decl *d)
{
	if (ps->decls_tail)
		ps->decls_tail->next = d;
	else
		ps->decls = d;
	ps->decls_tail = d;
	ps->ndecls++;
}

uint32_t hp_parse_src(hp_src *src, hp_arena *arena, hp_intern *names, hp_diags *diags)
{
	hp_parse ps;
	memset(&ps, 0, sizeof ps);
	ps.arena = arena;
	ps.src = src;
	ps.diags = diags;
	ps.names = names;
	ps.base = (const unsigned char *)src->text;
	ps.cur = ps.base;
	ps.lim = ps.base + src->len;
	ps.line = 1;
	hp_yyparse(&ps);
	src->decls = ps.decls;
	src->ndecls = ps.ndecls;
	/* the arena takes the lexer's array over rather than a copy of it */
	if (ps.ncomments) {
		src->comments = ps.comments;
		hp_arena_adopt(arena, ps.comments);
	} else {
		free(ps.comments);
	}
	src->ncomments = (uint32_t)ps.ncomments;
	return ps.nerrors;
}
