/* fmt.c: the canonical layout of a policy file, printed from its parse tree
 * and its comments. The layout depends only on the tree, the comments and
 * where the source had blank lines, so formatting formatted text changes
 * nothing; comments are never dropped (one inside an expression moves to
 * the end of its line). */
#include "fmt.h"

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "lib/xalloc.h"

/* room for a keyword, a name and a few words */
#define HEAD_MAX (HP_MAX_NAME + 64)

#define INDENT "    "
#define WIDTH 100u

typedef struct {
	const hp_src *src;
	hp_buf *out;
	bool *done;         /* comments already printed */
	uint32_t first;     /* no comment before this index is left */
	bool pending_blank; /* a blank line before the next line printed */
	bool at_start;      /* nothing printed in the current container yet */
} fmt;

/* --- expressions ---------------------------------------------------------- */

static void put_string(hp_buf *b, const char *s)
{
	hp_buf_putc(b, '"');
	for (; *s; s++) {
		switch (*s) {
		case '"':
			hp_buf_puts(b, "\\\"");
			break;
		case '\\':
			hp_buf_puts(b, "\\\\");
			break;
		case '\n':
			hp_buf_puts(b, "\\n");
			break;
		case '\t':
			hp_buf_puts(b, "\\t");
			break;
		default:
			hp_buf_putc(b, *s);
		}
	}
	hp_buf_putc(b, '"');
}

static void expr(fmt *f, hp_buf *b, const hp_expr *e, int depth, bool break_sets);

static bool has_comment_in(const fmt *f, uint32_t from, uint32_t to)
{
	for (uint32_t i = f->first; i < f->src->ncomments; i++) {
		const hp_comment *c = &f->src->comments[i];
		if (c->off >= to)
			break;
		if (c->off >= from && !f->done[i])
			return true;
	}
	return false;
}

static uint32_t span_end(hp_span s)
{
	return s.off + s.len;
}

static void put_indent(hp_buf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		hp_buf_puts(b, INDENT);
}

static void emit_comment_text(fmt *f, hp_buf *b, uint32_t i)
{
	const hp_comment *c = &f->src->comments[i];
	/* trailing blanks are not part of the canonical text */
	uint32_t len = c->len;
	while (len > 1 &&
	       (f->src->text[c->off + len - 1] == ' ' || f->src->text[c->off + len - 1] == '\t'))
		len--;
	hp_buf_append(b, f->src->text + c->off, len);
	f->done[i] = true;
}

static void advance_first(fmt *f)
{
	while (f->first < f->src->ncomments && f->done[f->first])
		f->first++;
}

/* A set over several lines: one item a line, comments kept beside them. */
static void set_lines(fmt *f, hp_buf *b, const hp_expr *e, int depth)
{
	hp_buf_puts(b, "{");
	uint32_t close = span_end(e->span) - 1;
	for (const hp_expr *it = e->u.set.items; it; it = it->next) {
		/* own-line comments before the item */
		for (uint32_t i = f->first; i < f->src->ncomments; i++) {
			const hp_comment *c = &f->src->comments[i];
			if (c->off >= it->span.off)
				break;
			if (f->done[i] || c->off < e->span.off)
				continue;
			hp_buf_putc(b, '\n');
			put_indent(b, depth + 1);
			emit_comment_text(f, b, i);
		}
		hp_buf_putc(b, '\n');
		put_indent(b, depth + 1);
		expr(f, b, it, depth + 1, false);
		hp_buf_putc(b, ',');
		advance_first(f);
		/* comments up to the next item (or the closing brace) that are
		 * not on a line of their own, or that sit inside the item */
		uint32_t next = it->next ? it->next->span.off : close;
		bool first = true;
		for (uint32_t i = f->first; i < f->src->ncomments; i++) {
			const hp_comment *c = &f->src->comments[i];
			if (c->off >= next)
				break;
			if (f->done[i] || c->off < it->span.off)
				continue;
			if (c->own_line && c->off >= span_end(it->span))
				continue;
			if (first) {
				hp_buf_puts(b, "  ");
				first = false;
			} else {
				hp_buf_putc(b, '\n');
				put_indent(b, depth + 1);
			}
			emit_comment_text(f, b, i);
		}
	}
	for (uint32_t i = f->first; i < f->src->ncomments; i++) {
		const hp_comment *c = &f->src->comments[i];
		if (c->off >= close)
			break;
		if (f->done[i] || c->off < e->span.off)
			continue;
		hp_buf_putc(b, '\n');
		put_indent(b, depth + 1);
		emit_comment_text(f, b, i);
	}
	hp_buf_putc(b, '\n');
	put_indent(b, depth);
	hp_buf_puts(b, "}");
}

static void expr(fmt *f, hp_buf *b, const hp_expr *e, int depth, bool break_sets)
{
	switch (e->kind) {
	case HP_EX_ERROR:
		break;
	case HP_EX_BOOL:
		hp_buf_puts(b, e->u.b ? "true" : "false");
		break;
	case HP_EX_INT:
		/* as written: the base says what the number is (0o755 is a mode) */
		hp_buf_append(b, f->src->text + e->span.off, e->span.len);
		break;
	case HP_EX_STR:
		put_string(b, e->u.str.s);
		break;
	case HP_EX_NAME:
		hp_buf_puts(b, e->u.name.name);
		break;
	case HP_EX_SET:
		if (!e->u.set.items) {
			hp_buf_puts(b, "{}");
			break;
		}
		if (break_sets || has_comment_in(f, e->span.off, span_end(e->span))) {
			set_lines(f, b, e, depth);
			break;
		}
		hp_buf_puts(b, "{ ");
		for (const hp_expr *it = e->u.set.items; it; it = it->next) {
			expr(f, b, it, depth, false);
			if (it->next)
				hp_buf_puts(b, ", ");
		}
		hp_buf_puts(b, " }");
		break;
	case HP_EX_CALL:
		hp_buf_puts(b, e->u.call.name);
		hp_buf_putc(b, '(');
		for (const hp_expr *a = e->u.call.args; a; a = a->next) {
			expr(f, b, a, depth, break_sets);
			if (a->next)
				hp_buf_puts(b, ", ");
		}
		hp_buf_putc(b, ')');
		break;
	case HP_EX_FIELD:
		expr(f, b, e->u.field.base, depth, break_sets);
		hp_buf_putc(b, '.');
		hp_buf_puts(b, e->u.field.name);
		break;
	case HP_EX_UNARY:
		hp_buf_puts(b, hp_op_names[e->u.op.op]);
		/* exists(path) reads as the probe it is */
		if (!(e->u.op.op == HP_OP_EXISTS && e->u.op.a->kind == HP_EX_PAREN))
			hp_buf_putc(b, ' ');
		expr(f, b, e->u.op.a, depth, break_sets);
		break;
	case HP_EX_BINARY:
		expr(f, b, e->u.op.a, depth, break_sets);
		hp_buf_printf(b, " %s ", hp_op_names[e->u.op.op]);
		expr(f, b, e->u.op.b, depth, break_sets);
		break;
	case HP_EX_UID:
		hp_buf_puts(b, "uid ");
		expr(f, b, e->u.inner, depth, break_sets);
		break;
	case HP_EX_CANARY:
		hp_buf_puts(b, "canary ");
		hp_buf_puts(b, e->u.canary.name);
		break;
	case HP_EX_PAREN:
		hp_buf_putc(b, '(');
		expr(f, b, e->u.inner, depth, break_sets);
		hp_buf_putc(b, ')');
		break;
	}
}

/* --- lines and comments ---------------------------------------------------- */


/* Whether the source has a blank line between offsets a and b. */
static bool blank_between(const fmt *f, uint32_t a, uint32_t b)
{
	const char *t = f->src->text;
	bool seen_nl = false;
	for (uint32_t i = a; i < b && i < f->src->len; i++) {
		char ch = t[i];
		if (ch == '\n') {
			if (seen_nl)
				return true;
			seen_nl = true;
		} else if (ch == '#') {
			/* skip the comment's text */
			while (i + 1 < b && t[i + 1] != '\n')
				i++;
			seen_nl = false;
		} else if (ch != ' ' && ch != '\t' && ch != '\r') {
			seen_nl = false;
		}
	}
	return false;
}

static void begin_line(fmt *f, int depth)
{
	if (f->pending_blank && !f->at_start)
		hp_buf_putc(f->out, '\n');
	f->pending_blank = false;
	f->at_start = false;
	put_indent(f->out, depth);
}

/* Own-line comments (and any left over) before offset off, each on its
 * own line; blank lines before them kept. prev is where the previous item
 * ended. */
static void leading(fmt *f, uint32_t prev, uint32_t off, int depth)
{
	for (uint32_t i = f->first; i < f->src->ncomments; i++) {
		const hp_comment *c = &f->src->comments[i];
		if (c->off >= off)
			break;
		if (f->done[i])
			continue;
		if (blank_between(f, prev, c->off))
			f->pending_blank = true;
		begin_line(f, depth);
		emit_comment_text(f, f->out, i);
		hp_buf_putc(f->out, '\n');
		prev = c->off + c->len;
	}
	advance_first(f);
	if (blank_between(f, prev, off))
		f->pending_blank = true;
}

/* The line being printed ends after source offset end: comments inside
 * [from, end) and a comment after end on the same source line go at its
 * end (the first) and on the lines after it (the rest). */
static void end_line(fmt *f, uint32_t from, uint32_t end, int depth)
{
	uint32_t line;
	hp_src_linecol(f->src, end > 0 ? end - 1 : 0, &line, NULL, NULL);
	bool first = true;
	for (uint32_t i = f->first; i < f->src->ncomments; i++) {
		const hp_comment *c = &f->src->comments[i];
		bool inside = c->off >= from && c->off < end;
		bool trailing = c->off >= end && !c->own_line && c->line == line;
		if (c->off >= end && !trailing)
			break;
		if (f->done[i] || (!inside && !trailing))
			continue;
		if (first) {
			hp_buf_puts(f->out, "  ");
			first = false;
		} else {
			hp_buf_putc(f->out, '\n');
			put_indent(f->out, depth);
		}
		emit_comment_text(f, f->out, i);
	}
	hp_buf_putc(f->out, '\n');
	advance_first(f);
}

/* An expression at the end of a line that starts with prefix: sets are
 * broken over lines when the line would be too wide. */
static void line_expr(fmt *f, const char *prefix, const hp_expr *e, const char *suffix, int depth)
{
	hp_buf one = {0};
	hp_buf_puts(&one, prefix);
	expr(f, &one, e, depth, false);
	hp_buf_puts(&one, suffix);
	size_t width = one.len + (size_t)depth * 4;
	if (width > WIDTH && !memchr(one.data, '\n', one.len)) {
		/* again with the sets over several lines: expr marked nothing done
		 * on the first pass unless a set held comments (then it broke) */
		hp_buf_free(&one);
		hp_buf_puts(&one, prefix);
		expr(f, &one, e, depth, true);
		hp_buf_puts(&one, suffix);
	}
	hp_buf_append(f->out, one.data, one.len);
	hp_buf_free(&one);
}

/* --- statements and declarations ------------------------------------------- */

static uint32_t stmts(fmt *f, const hp_stmt *s, uint32_t prev, int depth);

static void stmt(fmt *f, const hp_stmt *s, int depth)
{
	begin_line(f, depth);
	if (s->kind == HP_ST_FOR) {
		char head[HEAD_MAX];
		snprintf(head, sizeof head, "for %s in ", s->var);
		static const char *const empty_clause[] = {
		    [HP_EMPTY_UNSAID] = "", [HP_EMPTY_ALLOW] = " allow empty",
		    [HP_EMPTY_NEVER] = " never empty"};
		char tail[48];
		if (s->max_given)
			snprintf(tail, sizeof tail, " max %u%s {", s->max, empty_clause[s->empty]);
		else
			snprintf(tail, sizeof tail, "%s {", empty_clause[s->empty]);
		line_expr(f, head, s->expr, tail, depth);
		uint32_t hend = s->empty != HP_EMPTY_UNSAID ? span_end(s->empty_span)
		                : s->max_given               ? span_end(s->max_span)
		                                             : span_end(s->expr->span);
		end_line(f, s->span.off, hend, depth);
		f->at_start = true;
		uint32_t prev = stmts(f, s->body, hend, depth + 1);
		uint32_t close = span_end(s->span) - 1;
		leading(f, prev, close, depth + 1);
		f->pending_blank = false;
		begin_line(f, depth);
		hp_buf_puts(f->out, "}");
		end_line(f, close, span_end(s->span), depth);
		return;
	}
	line_expr(f, s->kind == HP_ST_REQUIRE ? "require " : "forbid ", s->expr, "", depth);
	end_line(f, s->span.off, span_end(s->span), depth);
}

static uint32_t stmts(fmt *f, const hp_stmt *s, uint32_t prev, int depth)
{
	for (; s; s = s->next) {
		leading(f, prev, s->span.off, depth);
		stmt(f, s, depth);
		prev = span_end(s->span);
	}
	return prev;
}

static void rule(fmt *f, const hp_decl *d)
{
	hp_buf head = {0};
	hp_buf_printf(&head, "rule %s ", d->name);
	put_string(&head, d->u.rule.title);
	uint32_t hend = span_end(d->u.rule.title_span);
	if (d->u.rule.when) {
		hp_buf w = {0};
		expr(f, &w, d->u.rule.when, 1, false);
		if (head.len + 6 + w.len + 2 > WIDTH) {
			hp_buf_puts(&head, "\n" INDENT "when ");
		} else {
			hp_buf_puts(&head, " when ");
		}
		hp_buf_append(&head, w.data, w.len);
		hp_buf_free(&w);
		hend = span_end(d->u.rule.when->span);
	}
	hp_buf_puts(&head, " {");
	hp_buf_append(f->out, head.data, head.len);
	hp_buf_free(&head);
	end_line(f, d->span.off, hend, 0);
	uint32_t prev = hend;
	f->at_start = true;
	for (const hp_block *b = d->u.rule.blocks; b; b = b->next) {
		leading(f, prev, b->span.off, 1);
		begin_line(f, 1);
		hp_buf_printf(f->out, "as %s {", b->role_name);
		end_line(f, b->span.off, span_end(b->role_span), 1);
		f->at_start = true;
		uint32_t last = stmts(f, b->body, span_end(b->role_span), 2);
		uint32_t close = span_end(b->span) - 1;
		leading(f, last, close, 2);
		f->pending_blank = false;
		begin_line(f, 1);
		hp_buf_puts(f->out, "}");
		end_line(f, close, span_end(b->span), 1);
		prev = span_end(b->span);
	}
	if (d->u.rule.remedy) {
		leading(f, prev, d->u.rule.remedy_span.off, 1);
		begin_line(f, 1);
		hp_buf_puts(f->out, "remedy ");
		put_string(f->out, d->u.rule.remedy);
		end_line(f, d->u.rule.remedy_span.off, span_end(d->u.rule.remedy_span), 1);
		prev = span_end(d->u.rule.remedy_span);
	}
	uint32_t close = span_end(d->span) - 1;
	leading(f, prev, close, 1);
	f->pending_blank = false;
	begin_line(f, 0);
	hp_buf_puts(f->out, "}");
}

static void provider(fmt *f, const hp_decl *d)
{
	hp_buf_printf(f->out, "provider %s {", d->name);
	end_line(f, d->span.off, span_end(d->name_span), 0);
	uint32_t prev = span_end(d->name_span);
	f->at_start = true;
	for (const hp_prov_item *it = d->u.provider.items; it; it = it->next) {
		leading(f, prev, it->span.off, 1);
		begin_line(f, 1);
		switch (it->kind) {
		case HP_PI_DEFAULT:
			hp_buf_printf(f->out, "uid_split default %s", it->setting_name);
			break;
		case HP_PI_NEEDS:
			line_expr(f, "split needs ", it->expr, "", 1);
			break;
		case HP_PI_NEVER: {
			hp_buf line = {0};
			expr(f, &line, it->expr, 1, false);
			size_t width = 4 + 17 + line.len + 9 + strlen(it->because) + 2;
			hp_buf_puts(f->out, "never split when ");
			hp_buf_append(f->out, line.data, line.len);
			hp_buf_puts(f->out,
			            width > WIDTH ? "\n" INDENT INDENT "because " : " because ");
			put_string(f->out, it->because);
			hp_buf_free(&line);
			break;
		}
		}
		end_line(f, it->span.off, span_end(it->span), 1);
		prev = span_end(it->span);
	}
	uint32_t close = span_end(d->span) - 1;
	leading(f, prev, close, 1);
	f->pending_blank = false;
	begin_line(f, 0);
	hp_buf_puts(f->out, "}");
}

static void role(fmt *f, const hp_decl *d)
{
	hp_buf_printf(f->out, "role %s = ", d->name);
	for (const hp_role_item *it = d->u.role.items; it; it = it->next) {
		switch (it->kind) {
		case HP_RI_IDENTITY:
			expr(f, f->out, it->expr, 0, false);
			break;
		case HP_RI_KEEP_CAPS:
			hp_buf_puts(f->out, "keep caps ");
			expr(f, f->out, it->expr, 0, false);
			break;
		case HP_RI_NO_CAPS:
			hp_buf_puts(f->out, "no caps");
			break;
		case HP_RI_NO_NEW_PRIVS:
			hp_buf_puts(f->out, "no_new_privs");
			break;
		}
		if (it->next)
			hp_buf_puts(f->out, ", ");
	}
}

static bool multiline(const hp_decl *d)
{
	return d->kind == HP_D_RULE || d->kind == HP_D_PROVIDER;
}

void hp_fmt_src(const hp_src *src, hp_buf *out)
{
	fmt f;
	memset(&f, 0, sizeof f);
	f.src = src;
	f.out = out;
	f.done = hp_xcalloc(src->ncomments ? src->ncomments : 1, sizeof *f.done);
	f.at_start = true;
	uint32_t prev = 0;
	const hp_decl *last = NULL;
	for (const hp_decl *d = src->decls; d; d = d->next) {
		if (d->kind == HP_D_ERROR)
			continue;
		leading(&f, prev, d->span.off, 0);
		if (last && (multiline(d) || multiline(last) || last->kind == HP_D_POLICY ||
		             last->kind != d->kind))
			f.pending_blank = true;
		begin_line(&f, 0);
		switch (d->kind) {
		case HP_D_POLICY:
			hp_buf_puts(out, "policy ");
			put_string(out, d->name);
			hp_buf_printf(out, " version %s", "");
			hp_buf_append(out, src->text + d->u.policy.version_span.off,
			              d->u.policy.version_span.len);
			break;
		case HP_D_INCLUDE:
			hp_buf_puts(out, "include ");
			put_string(out, d->name);
			break;
		case HP_D_PARAM: {
			char head[HEAD_MAX];
			snprintf(head, sizeof head, "param %s = ", d->name);
			line_expr(&f, head, d->u.param.expr, "", 0);
			break;
		}
		case HP_D_ROLE:
			role(&f, d);
			break;
		case HP_D_RULE:
			rule(&f, d);
			break;
		case HP_D_PROVIDER:
			provider(&f, d);
			break;
		case HP_D_ERROR:
		default:
			break;
		}
		end_line(&f, d->span.off, span_end(d->span), 0);
		prev = span_end(d->span);
		last = d;
	}
	leading(&f, prev, src->len + 1, 0);
	free(f.done);
}
