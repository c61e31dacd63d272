/* codegen.c: the checked syntax tree to bytecode (codegen.h).
 *
 * Layout of the code: every param's region in declaration order, then for
 * each declared role (root, hangar, agent) its identity, then each
 * provider's conditions, then each role's checks: the statements of every
 * `as ROLE` block of every rule, in rule order, ending with END. The
 * assertion table is numbered rule by rule, in source order, before any
 * code is emitted, so a rule's assertions are contiguous whichever roles
 * check them. */
#include "codegen.h"

#include <stdlib.h>
#include <string.h>

#include "bcwrite.h"
#include "model/bytecode.h"
#include "front.h"
#include "vm/ops.h"
#include "lib/pool.h"
#include "lib/xalloc.h"

_Static_assert(HP_BC_MAX_STACK == 64 && HP_BC_MAX_LOOP_DEPTH == 8,
               "the limits named in codegen's messages");

typedef struct {
	const hp_program *p;
	hp_bcw *w;
	hp_diags *d;
	hp_pool pool;  /* folded constants */
	size_t prefix; /* length of the top-level file's directory, stripped from names */
	bool failed;
	/* the current statement, for the source map */
	const hp_src *src;
	uint32_t line;
	/* the stack depth the emitted code reaches, from the opcode table */
	uint32_t depth, max_depth;
	/* the next assertion index of each block being emitted */
	uint32_t next_assert;
} gen;

/* --- names and locations ---------------------------------------------------------- */

static const char *file_name(const gen *g, uint32_t file)
{
	const char *path = g->p->files[file]->path;
	if (g->prefix && strncmp(path, g->p->files[0]->path, g->prefix) == 0)
		return path + g->prefix;
	return path;
}

static hp_bcw_loc loc_of(const gen *g, hp_span s)
{
	hp_bcw_loc l = {file_name(g, s.file), s.line ? s.line : 1, s.col ? s.col : 1};
	return l;
}

/* The text of source line n (1-based) of src, without its newline or the
 * blanks around it, into buf. */
static const char *line_text(const hp_src *src, uint32_t n, hp_buf *buf)
{
	buf->len = 0;
	hp_buf_puts(buf, "");
	if (n == 0 || n > src->nlines)
		return buf->data;
	uint32_t start = src->lines[n - 1];
	/* without its indentation: it is then often the very string of the
	 * assertion on that line, stored once */
	while (start < src->len && (src->text[start] == ' ' || src->text[start] == '\t'))
		start++;
	uint32_t end = start;
	while (end < src->len && src->text[end] != '\n')
		end++;
	while (end > start && (src->text[end - 1] == ' ' || src->text[end - 1] == '\t' ||
	                       src->text[end - 1] == '\r'))
		end--;
	hp_buf_append(buf, src->text + start, end - start);
	return buf->data;
}

/* Mark the code emitted next as coming from span. A new source map entry
 * starts only when the line changes, so the map stays small. */
static void at(gen *g, hp_span s, bool force)
{
	const hp_src *src = g->p->files[s.file];
	if (!force && src == g->src && s.line == g->line)
		return;
	g->src = src;
	g->line = s.line;
	hp_buf b = {0};
	hp_bcw_at(g->w, loc_of(g, s), line_text(src, s.line, &b));
	hp_buf_free(&b);
}

/* The source text of a span on one line: blanks collapsed, comments
 * dropped (outside strings), for assertion and condition texts. */
static char *span_text(const gen *g, hp_span s)
{
	const hp_src *src = g->p->files[s.file];
	hp_buf b = {0};
	bool in_str = false, space = false;
	uint32_t end = s.off + s.len <= src->len ? s.off + s.len : src->len;
	for (uint32_t i = s.off; i < end; i++) {
		char c = src->text[i];
		if (!in_str && c == '#') {
			while (i < end && src->text[i] != '\n')
				i++;
			space = true;
			continue;
		}
		if (!in_str && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			space = true;
			continue;
		}
		if (space && b.len)
			hp_buf_putc(&b, ' ');
		space = false;
		hp_buf_putc(&b, c);
		if (in_str && c == '\\' && i + 1 < end) {
			hp_buf_putc(&b, src->text[++i]);
			continue;
		}
		if (c == '"')
			in_str = !in_str;
	}
	hp_buf_puts(&b, "");
	return b.data;
}

static void limit_error(gen *g, hp_span s, const char *msg, const char *help)
{
	if (g->failed)
		return;
	g->failed = true;
	hp_diag *dg =
	    hp_diag_add(g->d, HP_SEV_ERROR, HP_DG_LIMIT, g->p->files[s.file], s, "%s", msg);
	if (dg && help)
		hp_diag_help(dg, "%s", help);
}

/* --- emitting ----------------------------------------------------------------------- */

static uint32_t emit(gen *g, hp_opcode op, uint32_t a, uint32_t b, uint32_t c)
{
	const hp_opcode_info *info = &hp_opcodes[op];
	g->depth -= info->npops <= g->depth ? info->npops : g->depth;
	g->depth += info->npushes;
	if (g->depth > g->max_depth)
		g->max_depth = g->depth;
	return hp_bcw_emit(g->w, op, a, b, c);
}

static void emit_value(gen *g, const hp_value *v)
{
	switch (v->type) {
	case HP_T_BOOL:
		emit(g, HP_I_PUSH_BOOL, v->u.b, 0, 0);
		break;
	case HP_T_INT:
		emit(g, HP_I_PUSH_INT, 0, 0, hp_bcw_const(g->w, HP_T_INT, (uint64_t)v->u.i));
		break;
	case HP_T_STR:
		emit(g, HP_I_PUSH_STR, 0, 0, hp_bcw_strn(g->w, v->u.s.p, v->u.s.len));
		break;
	case HP_T_CAPS:
		emit(g, HP_I_PUSH_CAPS, 0, 0, hp_bcw_const(g->w, HP_T_CAPS, v->u.caps));
		break;
	case HP_T_LIST:
		emit(g, HP_I_PUSH_LIST, 0, 0, hp_bcw_list(g->w, v->u.l.items, v->u.l.n));
		break;
	default:
		break;
	}
}

/* --- constant folding --------------------------------------------------------------- */

/* The value of e when it is a constant (no param, loop variable or probe in
 * it), computed with the runtime's operators. */
static bool fold(gen *g, const hp_expr *e, hp_value *out)
{
	hp_value a, b;
	switch (e->kind) {
	case HP_EX_BOOL:
		*out = hp_v_bool(e->u.b);
		return true;
	case HP_EX_INT:
		*out = hp_v_int(e->u.i);
		return true;
	case HP_EX_STR:
		*out = hp_v_str(e->u.str.s, e->u.str.len);
		return true;
	case HP_EX_PAREN:
		return fold(g, e->u.inner, out);
	case HP_EX_SET: {
		if (e->type == HP_T_CAPS) {
			*out = hp_v_caps(e->u.set.caps);
			return true;
		}
		hp_str *items = hp_pool_alloc(&g->pool, (size_t)e->u.set.n * sizeof *items);
		uint32_t n = 0;
		if (!items || e->u.set.n > HP_VALUE_MAX_LIST)
			return false;
		for (const hp_expr *it = e->u.set.items; it; it = it->next) {
			if (!fold(g, it, &a) || a.type != HP_T_STR)
				return false;
			items[n++] = a.u.s;
		}
		*out = hp_v_list(items, n);
		return true;
	}
	case HP_EX_UNARY:
		if (e->u.op.op != HP_OP_NOT || !fold(g, e->u.op.a, &a))
			return false;
		*out = hp_v_bool(!a.u.b);
		return true;
	case HP_EX_CALL:
		if (e->u.call.builtin != HP_BUILTIN_SPLIT || !fold(g, e->u.call.args, &a) ||
		    !fold(g, e->u.call.args->next, &b))
			return false;
		*out = hp_op_split(&g->pool, a.u.s, b.u.s);
		return out->state == HP_VAL_KNOWN;
	case HP_EX_BINARY:
		break;
	case HP_EX_ERROR:
	case HP_EX_NAME:
	case HP_EX_FIELD:
	case HP_EX_UID:
	case HP_EX_CANARY:
	default:
		return false;
	}
	bool fa = fold(g, e->u.op.a, &a);
	hp_type ta = e->u.op.a->type;
	/* a constant left side that decides: false and X, true or X, and a
	 * constant (never absent) before an `or` fallback */
	if (fa && e->u.op.op == HP_OP_AND && !a.u.b) {
		*out = a;
		return true;
	}
	if (fa && e->u.op.op == HP_OP_OR && (ta != HP_T_BOOL || a.u.b)) {
		*out = a;
		return true;
	}
	if (!fa || !fold(g, e->u.op.b, &b))
		return false;
	switch (e->u.op.op) {
	case HP_OP_AND:
	case HP_OP_OR:
		*out = b; /* the left side did not decide */
		return true;
	case HP_OP_EQ:
	case HP_OP_NE:
		*out = hp_v_bool(hp_value_equal(&a, &b) == (e->u.op.op == HP_OP_EQ));
		return true;
	case HP_OP_LT:
		*out = hp_v_bool(hp_op_compare(HP_I_LT, a.u.i, b.u.i));
		return true;
	case HP_OP_GT:
		*out = hp_v_bool(hp_op_compare(HP_I_GT, a.u.i, b.u.i));
		return true;
	case HP_OP_LE:
	case HP_OP_GE:
		if (ta == HP_T_INT)
			*out = hp_v_bool(hp_op_compare(e->u.op.op == HP_OP_LE ? HP_I_LE : HP_I_GE,
			                               a.u.i, b.u.i));
		else
			*out = e->u.op.op == HP_OP_LE ? hp_op_subset(&g->pool, &a, &b)
			                              : hp_op_subset(&g->pool, &b, &a);
		break;
	case HP_OP_IN:
		*out = hp_v_bool(hp_op_in(a.u.s, b.u.l));
		return true;
	case HP_OP_ADD:
		if (a.type == HP_T_INT)
			a = hp_op_to_str(&g->pool, a.u.i);
		if (b.type == HP_T_INT)
			b = hp_op_to_str(&g->pool, b.u.i);
		if (a.state != HP_VAL_KNOWN || b.state != HP_VAL_KNOWN)
			return false;
		*out = hp_op_concat(&g->pool, a.u.s, b.u.s);
		break;
	case HP_OP_BAND:
		if (ta == HP_T_INT)
			*out = hp_v_int(a.u.i & b.u.i);
		else
			*out = hp_op_intersect(&g->pool, &a, &b);
		break;
	case HP_OP_NOT:
	case HP_OP_EXISTS:
	case HP_OP_COUNT:
	default:
		return false;
	}
	return out->state == HP_VAL_KNOWN;
}

/* --- expressions ---------------------------------------------------------------------- */

static void expr(gen *g, const hp_expr *e);

static void binary(gen *g, const hp_expr *e)
{
	const hp_expr *a = e->u.op.a, *b = e->u.op.b;
	hp_type ta = a->type;
	uint32_t j;
	switch (e->u.op.op) {
	case HP_OP_AND:
	case HP_OP_OR:
		expr(g, a);
		if (ta == HP_T_BOOL) {
			/* Kleene, with a short cut when the left side decides */
			bool and = e->u.op.op == HP_OP_AND;
			j = emit(g, and? HP_I_JUMP_FALSE : HP_I_JUMP_TRUE, 0, 0, 0);
			expr(g, b);
			emit(g, and? HP_I_AND : HP_I_OR, 0, 0, 0);
		} else {
			/* the fallback: B only when A is ABSENT */
			j = emit(g, HP_I_JUMP_PRESENT, 0, 0, 0);
			emit(g, HP_I_POP, 0, 0, 0);
			expr(g, b);
		}
		hp_bcw_set_c(g->w, j, hp_bcw_pc(g->w));
		return;
	case HP_OP_ADD:
		expr(g, a);
		if (ta == HP_T_INT)
			emit(g, HP_I_TO_STR, 0, 0, 0);
		expr(g, b);
		if (b->type == HP_T_INT)
			emit(g, HP_I_TO_STR, 0, 0, 0);
		emit(g, HP_I_CONCAT, 0, 0, 0);
		return;
	case HP_OP_EQ:
	case HP_OP_NE:
	case HP_OP_LT:
	case HP_OP_LE:
	case HP_OP_GT:
	case HP_OP_GE:
	case HP_OP_IN:
	case HP_OP_BAND:
	case HP_OP_NOT:
	case HP_OP_EXISTS:
	case HP_OP_COUNT:
	default:
		break;
	}
	expr(g, a);
	expr(g, b);
	hp_opcode op;
	switch (e->u.op.op) {
	case HP_OP_EQ:
		op = HP_I_EQ;
		break;
	case HP_OP_NE:
		op = HP_I_NE;
		break;
	case HP_OP_LT:
		op = HP_I_LT;
		break;
	case HP_OP_GT:
		op = HP_I_GT;
		break;
	case HP_OP_LE:
		op = ta == HP_T_INT ? HP_I_LE : HP_I_SUBSET;
		break;
	case HP_OP_GE:
		op = ta == HP_T_INT ? HP_I_GE : HP_I_SUPERSET;
		break;
	case HP_OP_IN:
		op = HP_I_IN;
		break;
	case HP_OP_BAND:
	/* and, or, + and the unary operators were emitted above */
	case HP_OP_OR:
	case HP_OP_AND:
	case HP_OP_ADD:
	case HP_OP_NOT:
	case HP_OP_EXISTS:
	case HP_OP_COUNT:
	default:
		op = ta == HP_T_INT ? HP_I_BAND : HP_I_INTERSECT;
		break;
	}
	emit(g, op, 0, 0, 0);
}

static void expr(gen *g, const hp_expr *e)
{
	at(g, e->span, false);
	hp_value v;
	if (fold(g, e, &v)) {
		emit_value(g, &v);
		goto done;
	}
	switch (e->kind) {
	case HP_EX_PAREN:
	case HP_EX_UID:
		expr(g, e->u.inner);
		break;
	case HP_EX_SET:
		/* a list with items that are not constants */
		emit(g, HP_I_EMPTY_LIST, 0, 0, 0);
		for (const hp_expr *it = e->u.set.items; it; it = it->next) {
			expr(g, it);
			emit(g, HP_I_APPEND, 0, 0, 0);
		}
		break;
	case HP_EX_NAME:
		switch (e->u.name.ref) {
		case HP_REF_PARAM:
			emit(g, HP_I_LOAD_PARAM, 0, 0, e->u.name.param->u.param.index);
			break;
		case HP_REF_LOOP:
			emit(g, HP_I_LOAD_LOCAL, e->u.name.loop->loop_depth, 0, 0);
			break;
		case HP_REF_PROBE: /* a probe without argument */
		/* the other references (capability names in a set, the names of a
		 * `when`) are folded before code generation */
		case HP_REF_NONE:
		case HP_REF_MODE:
		case HP_REF_PROVIDER:
		case HP_REF_CAP:
		case HP_REF_TURN_MODE:
		case HP_REF_TURN_PROVIDER:
		default:
			emit(g, HP_I_PROBE0, 0, (uint32_t)e->u.name.index, 0);
			break;
		}
		break;
	case HP_EX_CALL:
		if (e->u.call.builtin == HP_BUILTIN_SPLIT) {
			expr(g, e->u.call.args);
			expr(g, e->u.call.args->next);
			emit(g, HP_I_SPLIT, 0, 0, 0);
		} else if (e->u.call.nargs) {
			expr(g, e->u.call.args);
			emit(g, HP_I_PROBE1, 0, (uint32_t)e->u.call.probe, 0);
		} else {
			emit(g, HP_I_PROBE0, 0, (uint32_t)e->u.call.probe, 0);
		}
		break;
	case HP_EX_FIELD: {
		expr(g, e->u.field.base);
		int f = hp_rfield_lookup(e->u.field.base->type, hp_field_names[e->u.field.field]);
		emit(g, HP_I_FIELD, f < 0 ? 0 : (uint32_t)f, 0, 0);
		break;
	}
	case HP_EX_UNARY:
		expr(g, e->u.op.a);
		if (e->u.op.op == HP_OP_NOT)
			emit(g, HP_I_NOT, 0, 0, 0);
		else if (e->u.op.probe == HP_PROBE_EXISTS)
			emit(g, HP_I_PROBE1, 0, HP_PROBE_EXISTS, 0);
		else
			emit(g, HP_I_EXISTS, 0, 0, 0);
		break;
	case HP_EX_BINARY:
		binary(g, e);
		break;
	case HP_EX_CANARY:
		emit(g, HP_I_PUSH_ROLE, e->u.canary.role, 0, 0);
		break;
	case HP_EX_ERROR:
	case HP_EX_BOOL:
	case HP_EX_INT:
	case HP_EX_STR:
	default:
		break;
	}
done:;
}

/* A whole expression (a param, an identity, a condition, an assertion, a
 * loop's list): the bytecode's stack must hold it. */
static void top_expr(gen *g, const hp_expr *e)
{
	g->depth = g->max_depth = 0;
	expr(g, e);
	if (g->max_depth > HP_BC_MAX_STACK)
		limit_error(g, e->span, "this expression needs more than 64 values on the stack",
		            "split it into params, or simplify it");
}

/* --- statements, rules, roles -------------------------------------------------------- */

/* Whether e, or an expression chained after it (the items of a set, the
 * arguments of a call), asks a probe that the live check answers from a
 * job started before the role's child (ASKS JOB in probes.def). Recursion
 * as deep as the checked expression, which the checker bounds. */
static bool is_job(int probe)
{
	return probe >= 0 && probe < HP_PROBE_COUNT && hp_probes[probe].asks == HP_ASKS_JOB;
}

static bool expr_asks_job(const hp_expr *e)
{
	for (; e; e = e->next) {
		bool job = false;
		switch (e->kind) {
		case HP_EX_NAME:
			job = e->u.name.ref == HP_REF_PROBE && is_job(e->u.name.index);
			break;
		case HP_EX_CALL:
			job = is_job(e->u.call.probe) || expr_asks_job(e->u.call.args);
			break;
		case HP_EX_FIELD:
			job = expr_asks_job(e->u.field.base);
			break;
		case HP_EX_UNARY:
		case HP_EX_BINARY:
			job = is_job(e->u.op.probe) || expr_asks_job(e->u.op.a) ||
			      expr_asks_job(e->u.op.b);
			break;
		case HP_EX_SET:
			job = expr_asks_job(e->u.set.items);
			break;
		case HP_EX_UID:
		case HP_EX_PAREN:
			job = expr_asks_job(e->u.inner);
			break;
		case HP_EX_ERROR:
		case HP_EX_BOOL:
		case HP_EX_INT:
		case HP_EX_STR:
		case HP_EX_CANARY:
			break;
		}
		if (job)
			return true;
	}
	return false;
}

static bool stmts_ask_job(const hp_stmt *s)
{
	for (; s; s = s->next)
		if (expr_asks_job(s->expr) || (s->kind == HP_ST_FOR && stmts_ask_job(s->body)))
			return true;
	return false;
}

static uint32_t count_asserts(const hp_stmt *s)
{
	uint32_t n = 0;
	for (; s; s = s->next)
		n += s->kind == HP_ST_FOR ? count_asserts(s->body) : 1;
	return n;
}

static void table_asserts(gen *g, const hp_stmt *s, hp_role role)
{
	for (; s; s = s->next) {
		if (s->kind == HP_ST_FOR) {
			table_asserts(g, s->body, role);
			continue;
		}
		char *text = span_text(g, s->span);
		hp_bcw_assertion(g->w, role,
		                 s->kind == HP_ST_REQUIRE ? HP_BC_REQUIRE : HP_BC_FORBID, text,
		                 loc_of(g, s->span));
		free(text);
	}
}

/* What an empty list makes of a loop's assertions: the loop, its list and
 * the params the list comes from, so that `--param harness_files=` is
 * recognisable in the report. */
static uint32_t empty_sentence(gen *g, const hp_stmt *s)
{
	const hp_decl *ps[8];
	size_t n = hp_expr_params(s->expr, ps, sizeof ps / sizeof ps[0]);
	char *list = span_text(g, s->expr->span);
	hp_buf b = {0};
	hp_buf_printf(&b, "the loop 'for %s in %s' went over an empty list", s->var, list);
	for (size_t i = 0; i < n; i++)
		hp_buf_printf(&b, "%s'%s'", i == 0 ? (n == 1 ? " (from param " : " (from params ")
		                                    : ", ",
		              ps[i]->name);
	if (n)
		hp_buf_puts(&b, ")");
	hp_buf_puts(&b, ": it checked nothing, and that is no pass unless the loop says "
	                "'allow empty'");
	uint32_t id = hp_bcw_str(g->w, b.data);
	hp_buf_free(&b);
	free(list);
	return id;
}

static void stmts(gen *g, const hp_stmt *s)
{
	for (; s && !g->failed; s = s->next) {
		at(g, s->span, true);
		g->depth = 0;
		if (s->kind == HP_ST_FOR) {
			if (s->loop_depth >= HP_BC_MAX_LOOP_DEPTH) {
				limit_error(g, s->span, "loops are nested more than 8 deep",
				            "move the inner loops into a rule of their own");
				return;
			}
			top_expr(g, s->expr);
			at(g, s->span, true);
			if (s->empty != HP_EMPTY_ALLOW)
				emit(g, HP_I_NONEMPTY, 0, 0, empty_sentence(g, s));
			emit(g, HP_I_FOR, s->loop_depth, 0, s->max);
			stmts(g, s->body);
			at(g, s->span, true);
			emit(g, HP_I_ENDFOR, s->loop_depth, 0, hp_bcw_str(g->w, s->var));
			continue;
		}
		top_expr(g, s->expr);
		emit(g, s->kind == HP_ST_REQUIRE ? HP_I_REQUIRE : HP_I_FORBID, 0, 0,
		     g->next_assert++);
	}
}

/* The first assertion of each block, numbered rule by rule. */
typedef struct {
	const hp_block *block;
	uint32_t first;
} block_first;

static hp_bc_region value_region(gen *g, const hp_expr *e)
{
	uint32_t start = hp_bcw_pc(g->w);
	g->src = NULL;
	top_expr(g, e);
	emit(g, HP_I_RETURN, 0, 0, 0);
	hp_bc_region r = {start, hp_bcw_pc(g->w) - start};
	return r;
}

uint8_t *hp_codegen(const hp_program *p, size_t *len, hp_diags *d)
{
	gen g;
	memset(&g, 0, sizeof g);
	g.p = p;
	g.d = d;
	g.w = hp_bcw_new();
	hp_pool_init(&g.pool, (size_t)1 << 30);
	const char *top = p->files[0]->path, *slash = strrchr(top, '/');
	g.prefix = slash ? (size_t)(slash - top) + 1 : 0;
	hp_bcw_policy(g.w, p->name ? p->name : "", p->version);

	/* the rules and their assertions, rule by rule */
	size_t nblocks = 0;
	for (uint32_t i = 0; i < p->nrules; i++)
		nblocks += p->rules[i]->u.rule.nblocks;
	block_first *firsts = hp_xcalloc(nblocks ? nblocks : 1, sizeof *firsts);
	size_t k = 0;
	uint32_t next = 0;
	for (uint32_t i = 0; i < p->nrules; i++) {
		const hp_decl *r = p->rules[i];
		hp_bcw_rule(g.w, r->name, r->u.rule.title, r->u.rule.remedy, r->u.rule.applies,
		            loc_of(&g, r->span));
		for (const hp_block *b = r->u.rule.blocks; b; b = b->next) {
			firsts[k].block = b;
			firsts[k++].first = next;
			table_asserts(&g, b->body, b->role);
			next += count_asserts(b->body);
		}
	}

	for (uint32_t i = 0; i < p->nparams; i++) {
		const hp_decl *pd = p->params[i];
		hp_bc_region r = value_region(&g, pd->u.param.expr);
		hp_bcw_param(g.w, pd->name, pd->u.param.expr->type, r, loc_of(&g, pd->span));
	}

	/* identities first, then conditions, then every role's checks */
	hp_bc_region identity[HP_ROLE_COUNT] = {{0, 0}};
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (p->roles[r])
			identity[r] = value_region(&g, p->roles[r]->u.role.identity);
	for (int pv = 0; pv < HP_PROVIDER_COUNT; pv++) {
		const hp_decl *pd = p->providers[pv];
		if (!pd)
			continue;
		hp_bcw_provider(g.w, (hp_provider)pv, pd->u.provider.setting, loc_of(&g, pd->span));
		for (const hp_prov_item *it = pd->u.provider.items; it; it = it->next) {
			if (it->kind == HP_PI_DEFAULT)
				continue;
			hp_bc_region r = value_region(&g, it->expr);
			char *text = span_text(&g, it->expr->span);
			hp_bcw_cond(g.w, it->kind == HP_PI_NEEDS ? HP_BC_NEEDS : HP_BC_NEVER, r,
			            text, it->kind == HP_PI_NEVER ? it->because : NULL,
			            loc_of(&g, it->span));
			free(text);
		}
	}
	for (int role = 0; role < HP_ROLE_COUNT; role++) {
		const hp_decl *rd = p->roles[role];
		if (!rd)
			continue;
		uint32_t start = hp_bcw_pc(g.w);
		g.src = NULL;
		/* rule by rule, but the blocks that ask a job's probe last: the
		 * role's other checks then run while the job does, instead of
		 * waiting for it first (the results are per assertion, whatever
		 * the order) */
		for (int jobs = 0; jobs < 2; jobs++)
			for (uint32_t i = 0; i < p->nrules; i++)
				for (const hp_block *b = p->rules[i]->u.rule.blocks; b; b = b->next) {
					if (b->role != (hp_role)role || stmts_ask_job(b->body) != (jobs == 1))
						continue;
					for (size_t f = 0; f < k; f++)
						if (firsts[f].block == b)
							g.next_assert = firsts[f].first;
					stmts(&g, b->body);
				}
		at(&g, rd->span, true);
		emit(&g, HP_I_END, 0, 0, 0);
		unsigned flags = 0;
		uint32_t keep = HP_BC_NONE;
		if (rd->u.role.keep_caps) {
			flags |= HP_BC_ROLE_KEEP_CAPS;
			keep = hp_bcw_const(g.w, HP_T_CAPS, rd->u.role.caps);
		}
		for (const hp_role_item *it = rd->u.role.items; it; it = it->next)
			if (it->kind == HP_RI_NO_CAPS)
				flags |= HP_BC_ROLE_NO_CAPS;
		if (rd->u.role.no_new_privs)
			flags |= HP_BC_ROLE_NO_NEW_PRIVS;
		hp_bc_region body = {start, hp_bcw_pc(g.w) - start};
		hp_bcw_role(g.w, (hp_role)role, flags, keep, identity[role], body,
		            loc_of(&g, rd->span));
	}
	free(firsts);
	hp_pool_free(&g.pool);
	uint8_t *out = NULL;
	if (!g.failed)
		out = hp_bcw_finish(g.w, len);
	hp_bcw_free(g.w);
	return out;
}

static uint8_t *compile_program(hp_program *p, const char *path, size_t *len, hp_diags *d,
                                hp_program **program)
{
	uint8_t *out = NULL;
	if (p->ok) {
		out = hp_codegen(p, len, d);
		if (out) {
			/* the compiler's output goes through the verifier like any file */
			hp_err err;
			hp_bc *bc = hp_bc_load(path, out, *len, &err);
			if (!bc) {
				hp_diag_path(d, HP_SEV_ERROR, HP_DG_LIMIT, path,
				             "the compiled policy does not verify: %s", err.msg);
				free(out);
				out = NULL;
			}
			hp_bc_free(bc);
		}
	}
	*program = p;
	return out;
}

uint8_t *hp_compile_file(const char *path, size_t *len, hp_diags *d, hp_program **program)
{
	return compile_program(hp_front_compile(path, NULL, d), path, len, d, program);
}

uint8_t *hp_compile_text(const char *name, const char *text, size_t textlen, size_t *len,
                         hp_diags *d, hp_program **program)
{
	return compile_program(hp_front_compile_text(name, text, textlen, NULL, d), name, len, d,
	                       program);
}
