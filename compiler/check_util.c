/* check_util.c: the checker's helpers: capability names from libcap,
 * reporting at a span, "did you mean" suggestions by edit distance, and how
 * types are named in messages. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

#include "check_int.h"

/* --- capabilities, from libcap ------------------------------------------ */

int hp_cap_lookup(const char *name)
{
	char buf[64];
	if (strlen(name) > 40 || strncmp(name, "cap_", 4) == 0)
		return -1;
	snprintf(buf, sizeof buf, "cap_%s", name);
	cap_value_t v;
	if (cap_from_name(buf, &v) != 0 || v < 0 || v > 63)
		return -1;
	return (int)v;
}

const char *hp_cap_name(int n, char *buf, size_t len)
{
	if (n < 0 || n > 63)
		return NULL;
	char *s = cap_to_name((cap_value_t)n);
	if (!s)
		return NULL;
	const char *r = NULL;
	if (strncmp(s, "cap_", 4) == 0) {
		snprintf(buf, len, "%s", s + 4);
		r = buf;
	}
	cap_free(s);
	return r;
}

/* --- the hp_checker's state -------------------------------------------------- */

/* The probe named name (interned), or -1: a hash probe, not a scan. */
int hp_ck_probe_of(const hp_checker *c, const char *name)
{
	void *v = hp_namemap_get(&c->probes, name);
	return v ? (int)((intptr_t)v - 1) : -1;
}

const hp_src *hp_ck_src_of(hp_checker *c, hp_span s)
{
	return s.file < c->p->nfiles ? c->p->files[s.file] : NULL;
}

hp_diag *hp_ck_err(hp_checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return hp_diag_add(c->d, HP_SEV_ERROR, code, hp_ck_src_of(c, at), at, "%s", buf);
}

hp_diag *hp_ck_warn(hp_checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return hp_diag_add(c->d, HP_SEV_WARNING, code, hp_ck_src_of(c, at), at, "%s", buf);
}

void hp_ck_note(hp_checker *c, hp_diag *g, hp_span at, const char *msg)
{
	hp_diag_note(g, hp_ck_src_of(c, at), at, "%s", msg);
}

bool hp_ck_may_suggest(hp_checker *c)
{
	return c->nsuggest++ < HP_CK_MAX_SUGGEST;
}

void hp_ck_suggest_init(hp_ck_suggest *s, const char *name)
{
	s->best = NULL;
	s->name = name;
	size_t l = strlen(name);
	s->dist = l <= 3 ? 1 : l <= 6 ? 2 : 3;
	s->dist++; /* strict: best must be below this */
}

void hp_ck_suggest_try(hp_ck_suggest *s, const char *cand)
{
	if (!cand || strcmp(cand, s->name) == 0)
		return;
	unsigned d = hp_edit_distance(s->name, cand, s->dist - 1);
	if (d < s->dist) {
		s->best = cand;
		s->dist = d;
	}
}

void hp_ck_suggest_table(hp_ck_suggest *s, const char *const *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hp_ck_suggest_try(s, t[i]);
}

void hp_ck_suggest_help(hp_diag *g, const hp_ck_suggest *s)
{
	if (s->best)
		hp_diag_help(g, "did you mean '%s'?", s->best);
}

void hp_ck_list_help(hp_diag *g, const char *what, const char *const *t, size_t n)
{
	char buf[256];
	size_t m = 0;
	for (size_t i = 0; i < n && m < sizeof buf; i++)
		m += (size_t)snprintf(buf + m, sizeof buf - m, "%s%s",
		                      i == 0       ? ""
		                      : i == n - 1 ? " and "
		                                   : ", ",
		                      t[i]);
	hp_diag_help(g, "%s %s", what, buf);
}

const char *hp_ck_type_desc(hp_type t)
{
	switch (t) {
	case HP_T_BOOL:
		return "a bool";
	case HP_T_INT:
		return "an int";
	case HP_T_STR:
		return "a string";
	case HP_T_LIST:
		return "a list";
	case HP_T_CAPS:
		return "a capability set";
	case HP_T_USER:
		return "a user";
	case HP_T_GROUP:
		return "a group";
	case HP_T_ROLE:
		return "a role";
	case HP_T_NONE:
		return "nothing";
	case HP_T_COUNT:
	default:
		return "an empty set"; /* `{}` before its context settles it */
	}
}

/* Give `{}` (and sets still open) the type t. */
static void settle_empty(hp_expr *e, hp_type t)
{
	while (e && e->kind == HP_EX_PAREN) {
		e->type = t;
		e = e->u.inner;
	}
	if (e && e->kind == HP_EX_SET && e->u.set.n == 0)
		e->type = t;
}

hp_type hp_ck_settled(hp_expr *e, hp_type t, hp_type other)
{
	if (t != HP_CK_T_EMPTY)
		return t;
	hp_type to = (other == HP_T_CAPS) ? HP_T_CAPS : HP_T_LIST;
	settle_empty(e, to);
	return to;
}
