/* check_doc.c: document paths checked at compile time. A doc_* probe's
 * argument whose text can be worked out here (string literals joined with
 * '+', and params made of them, with their default values) and that asks
 * about a pod ("NAME:@pod...") is checked against the Pod's fields
 * (pod_fields.def): a misspelled field is an error with a did-you-mean,
 * instead of a question that would only be absent at run time. */
#include <stdio.h>
#include <string.h>

#include "check_int.h"

typedef enum {
	K_ANY,
	K_LEAF,
	K_POD,
	K_SPEC,
	K_CONTAINER,
	K_PORT,
	K_SECURITY,
	K_CAPABILITIES,
	K_POD_SECURITY,
	K_MOUNT,
	K_VOLUME,
	K_EMPTY_DIR,
	K_HOST_PATH,
} kind;

typedef struct {
	kind parent;
	const char *name;
	kind type;
	bool list;
} field;

static const field fields[] = {
#define HP_POD_FIELD(parent, name, type, list) {K_##parent, name, K_##type, list},
#include "pod_fields.def"
};
#define NFIELDS (sizeof fields / sizeof *fields)

#define MAX_TEXT 1024u
#define MAX_PIECES 64u

/* The argument's text, and which literal each part of it came from. */
typedef struct {
	char text[MAX_TEXT + 1];
	size_t len;
	struct {
		size_t from;
		const hp_expr *lit;
	} piece[MAX_PIECES];
	size_t npieces;
} folded;

static bool fold(const hp_expr *e, folded *f, unsigned depth)
{
	if (depth > 32)
		return false;
	if (e->kind == HP_EX_STR) {
		if (f->len + e->u.str.len > MAX_TEXT || f->npieces >= MAX_PIECES)
			return false;
		f->piece[f->npieces].from = f->len;
		f->piece[f->npieces++].lit = e;
		memcpy(f->text + f->len, e->u.str.s, e->u.str.len);
		f->len += e->u.str.len;
		f->text[f->len] = '\0';
		return true;
	}
	if (e->kind == HP_EX_PAREN)
		return fold(e->u.inner, f, depth + 1);
	if (e->kind == HP_EX_BINARY)
		return e->u.op.op == HP_OP_ADD && e->u.op.a->type == HP_T_STR &&
		       e->u.op.b->type == HP_T_STR && fold(e->u.op.a, f, depth + 1) &&
		       fold(e->u.op.b, f, depth + 1);
	if (e->kind == HP_EX_NAME)
		return e->u.name.ref == HP_REF_PARAM && e->u.name.param &&
		       fold(e->u.name.param->u.param.expr, f, depth + 1);
	return false; /* anything else is known only at run time */
}

/* The literal the text at offset at came from (for the error's place). */
static const hp_expr *literal_at(const folded *f, size_t at, const hp_expr *whole)
{
	const hp_expr *lit = whole;
	for (size_t i = 0; i < f->npieces && f->piece[i].from <= at; i++)
		lit = f->piece[i].lit;
	return lit;
}

static const field *lookup(kind parent, const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].parent == parent && strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static void unknown_field(hp_checker *c, const folded *f, size_t at, const hp_expr *whole,
                          kind parent, const char *name, const char *where)
{
	const hp_expr *lit = literal_at(f, at, whole);
	hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_FIELD, lit->span, "a Pod has no field '%s'%s%s",
	                       name, *where ? " in " : "", where);
	if (!hp_ck_may_suggest(c))
		return;
	hp_ck_suggest s;
	hp_ck_suggest_init(&s, name);
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].parent == parent)
			hp_ck_suggest_try(&s, fields[i].name);
	if (s.best)
		hp_ck_suggest_help(g, &s);
}

void hp_ck_doc_path(hp_checker *c, const hp_expr *arg)
{
	folded f;
	f.len = f.npieces = 0;
	f.text[0] = '\0';
	if (!fold(arg, &f, 0))
		return; /* worked out only at run time */
	const char *colon = strchr(f.text, ':');
	if (!colon || strncmp(colon + 1, "@pod", 4) != 0)
		return; /* not a pod: no schema */
	const char *p = colon + 5;
	kind k = K_POD;
	bool items = false; /* at a list whose items are not selected yet */
	char where[MAX_TEXT + 8] = ""; /* the fields so far: spec.containers[] */
	char name[MAX_TEXT + 1];
	while (*p && k != K_ANY) {
		size_t at = (size_t)(p - f.text);
		if (*p == '.') {
			size_t n = 0;
			for (p++; is_key_char(*p); p++)
				name[n++] = *p;
			name[n] = '\0';
			if (!n)
				return; /* malformed: unknown at run time */
			if (items) {
				const hp_expr *lit = literal_at(&f, at, arg);
				hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_FIELD, lit->span,
				                       "a Pod's %s is a list: '.%s' asks a field of its "
				                       "items",
				                       where, name);
				hp_diag_help(g, "select items first: [*], [N] or [name=\"...\"]");
				return;
			}
			if (k == K_LEAF) {
				const hp_expr *lit = literal_at(&f, at, arg);
				hp_ck_err(c, HP_DG_UNKNOWN_FIELD, lit->span,
				          "a Pod's %s has no fields ('%s')", where, name);
				return;
			}
			const field *fd = lookup(k, name);
			if (!fd) {
				unknown_field(c, &f, at, arg, k, name, where);
				return;
			}
			size_t wl = strlen(where);
			snprintf(where + wl, sizeof where - wl, "%s%s", wl ? "." : "", name);
			k = fd->type;
			items = fd->list;
		} else if (*p == '[') {
			const char *close = strchr(p, ']');
			if (!close)
				return;
			/* a filter's key is a field of the items (or of the mapping) */
			const char *eq = memchr(p, '=', (size_t)(close - p));
			if (eq && p[1] != '*' && k != K_LEAF) {
				size_t n = (size_t)(eq - p - 1);
				memcpy(name, p + 1, n);
				name[n] = '\0';
				if (n && !lookup(k, name) && k != K_ANY) {
					unknown_field(c, &f, (size_t)(p - f.text), arg, k, name, where);
					return;
				}
			}
			if (items && strlen(where) + 2 < sizeof where)
				strcat(where, "[]");
			items = false;
			p = close + 1;
		} else {
			return; /* malformed: unknown at run time */
		}
	}
}
