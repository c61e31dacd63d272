/* check.c: resolves names and checks types and scopes over the whole
 * include-expanded program, filling ast.h's checked fields. Probes, types,
 * roles, modes, providers and settings come from the runtime's .def tables
 * (domain.h) and capability names from libcap, never from a list here.
 * Recursion follows expression and statement nesting, which the parser
 * bounds (HP_MAX_EXPR_DEPTH, HP_MAX_BRACKETS). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "arena.h"
#include "parse.h"
#include "xalloc.h"

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

/* --- the checker's state -------------------------------------------------- */

typedef enum { SC_PARAM, SC_PROVIDER, SC_IDENTITY, SC_ROLE, SC_WHEN } scope_kind;

typedef struct {
	scope_kind kind;
	hp_role role;     /* SC_ROLE */
	uint32_t nparams; /* SC_PARAM: params declared before this one */
} scope;

typedef struct {
	hp_program *p;
	hp_diags *d;
	hp_intern *names;
	hp_namemap params, rules;
	hp_decl *role_decl[HP_ROLE_COUNT];
	hp_decl *prov_decl[HP_PROVIDER_COUNT];
	hp_decl *policy;
	hp_stmt *loops[HP_MAX_EXPR_DEPTH]; /* loop variables in scope, innermost last */
	uint32_t nloops;
	uint32_t rule_loops;
	bool rule_asserts;
	const char *w_mode, *w_provider, *w_split; /* interned "mode", "provider", "split" */
	hp_namemap probes;                         /* interned probe name -> index + 1 */
} checker;

/* The probe named name (interned), or -1: a hash probe, not a scan. */
static int probe_of(const checker *c, const char *name)
{
	void *v = hp_namemap_get(&c->probes, name);
	return v ? (int)((intptr_t)v - 1) : -1;
}

static const hp_src *src_of(checker *c, hp_span s)
{
	return s.file < c->p->nfiles ? c->p->files[s.file] : NULL;
}

static hp_diag *err(checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static hp_diag *err(checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return hp_diag_add(c->d, HP_SEV_ERROR, code, src_of(c, at), at, "%s", buf);
}

static hp_diag *warn(checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static hp_diag *warn(checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return hp_diag_add(c->d, HP_SEV_WARNING, code, src_of(c, at), at, "%s", buf);
}

static void note(checker *c, hp_diag *g, hp_span at, const char *msg)
{
	hp_diag_note(g, src_of(c, at), at, "%s", msg);
}

/* "did you mean" over candidates: the closest within a distance that
 * depends on the name's length. */
typedef struct {
	const char *best;
	unsigned dist;
	const char *name;
} suggest;

static void suggest_init(suggest *s, const char *name)
{
	s->best = NULL;
	s->name = name;
	size_t l = strlen(name);
	s->dist = l <= 3 ? 1 : l <= 6 ? 2 : 3;
	s->dist++; /* strict: best must be below this */
}

static void suggest_try(suggest *s, const char *cand)
{
	if (!cand || strcmp(cand, s->name) == 0)
		return;
	unsigned d = hp_edit_distance(s->name, cand, s->dist - 1);
	if (d < s->dist) {
		s->best = cand;
		s->dist = d;
	}
}

static void suggest_table(suggest *s, const char *const *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		suggest_try(s, t[i]);
}

static void suggest_help(hp_diag *g, const suggest *s)
{
	if (s->best)
		hp_diag_help(g, "did you mean '%s'?", s->best);
}

static void list_help(hp_diag *g, const char *what, const char *const *t, size_t n)
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

static const char *type_desc(hp_type t)
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
	default:
		return "an empty set"; /* `{}` before its context settles it */
	}
}

/* The pseudo-type of `{}` before its context decides list or caps. */
#define T_EMPTY HP_T_COUNT
/* An expression already reported: no further message about it. */
#define T_ERR HP_T_NONE

static hp_type check_expr(checker *c, hp_expr *e, const scope *sc);

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

static hp_type settled(hp_expr *e, hp_type t, hp_type other)
{
	if (t != T_EMPTY)
		return t;
	hp_type to = (other == HP_T_CAPS) ? HP_T_CAPS : HP_T_LIST;
	settle_empty(e, to);
	return to;
}

/* --- expressions ---------------------------------------------------------- */

static hp_stmt *find_loop(checker *c, const char *name)
{
	for (uint32_t i = c->nloops; i > 0; i--)
		if (c->loops[i - 1]->var == name)
			return c->loops[i - 1];
	return NULL;
}

static bool is_variable(checker *c, const char *name)
{
	return find_loop(c, name) || hp_namemap_get(&c->params, name);
}

static bool scope_global(const scope *sc)
{
	return sc->kind == SC_PARAM || sc->kind == SC_PROVIDER || sc->kind == SC_IDENTITY;
}

static const char *scope_where(const scope *sc)
{
	switch (sc->kind) {
	case SC_PARAM:
		return "a param";
	case SC_PROVIDER:
		return "a provider block";
	case SC_IDENTITY:
		return "a role's identity";
	default:
		return "this place";
	}
}

/* A probe is used: is it allowed here? */
static void check_probe_scope(checker *c, int probe, hp_span at, const scope *sc)
{
	const hp_probe_info *pi = &hp_probes[probe];
	if (pi->scope == HP_SCOPE_ROLE && scope_global(sc)) {
		hp_diag *g =
		    err(c, HP_DG_SCOPE, at, "'%s' is asked as a role, so it cannot be used in %s",
		        pi->name, scope_where(sc));
		hp_diag_help(g, "use it in a rule, inside an 'as ROLE { ... }' block");
		return;
	}
	if (sc->kind == SC_WHEN) {
		hp_diag *g = err(c, HP_DG_SCOPE, at, "a rule's when cannot ask '%s'", pi->name);
		hp_diag_help(g, "when tests only mode and provider; put the test in a require");
		return;
	}
	if (sc->kind == SC_ROLE && probe == HP_PROBE_SUDO && sc->role == HP_ROLE_ROOT) {
		hp_diag *g =
		    warn(c, HP_DG_SCOPE, at, "'sudo' as root means nothing: root needs no sudo");
		hp_diag_help(g, "ask it as agent or hangar");
	}
}

static void undefined_name(checker *c, hp_expr *e, const scope *sc)
{
	const char *n = e->u.name.name;
	if (n == c->w_mode || n == c->w_provider) {
		hp_diag *g = err(c, HP_DG_SCOPE, e->span, "'%s' is known only in a rule's when", n);
		hp_diag_help(g, "write: rule ID \"title\" when %s == ... { ... }", n);
		return;
	}
	int probe = probe_of(c, n);
	if (probe >= 0) {
		hp_diag *g = err(c, HP_DG_TYPE, e->span, "'%s' takes an argument (%s)", n,
		                 type_desc(hp_probes[probe].arg));
		hp_diag_help(g, "write %s(...)", n);
		return;
	}
	suggest s;
	suggest_init(&s, n);
	for (uint32_t i = 0; i < c->nloops; i++)
		suggest_try(&s, c->loops[i]->var);
	for (size_t i = 0; i < c->params.cap; i++)
		if (c->params.keys[i])
			suggest_try(&s, c->params.keys[i]);
	for (int i = 0; i < HP_PROBE_COUNT; i++)
		if (hp_probes[i].arg == HP_T_NONE)
			suggest_try(&s, hp_probes[i].name);
	hp_diag *g = err(c, HP_DG_UNDEFINED, e->span, "undefined name '%s'", n);
	suggest_help(g, &s);
	(void)sc;
}

static hp_type check_name(checker *c, hp_expr *e, const scope *sc)
{
	const char *n = e->u.name.name;
	hp_stmt *loop = find_loop(c, n);
	if (loop) {
		e->u.name.ref = HP_REF_LOOP;
		e->u.name.loop = loop;
		return HP_T_STR;
	}
	hp_decl *pd = hp_namemap_get(&c->params, n);
	if (pd) {
		if (sc->kind == SC_PARAM && pd->u.param.index >= sc->nparams) {
			hp_diag *g = err(c, HP_DG_UNDEFINED, e->span,
			                 "param '%s' is used before its declaration", n);
			note(c, g, pd->name_span, "declared here");
			hp_diag_help(g, "declare params before the params that use them");
			return T_ERR;
		}
		e->u.name.ref = HP_REF_PARAM;
		e->u.name.param = pd;
		pd->u.param.used = true;
		return pd->u.param.expr ? pd->u.param.expr->type : T_ERR;
	}
	int probe = probe_of(c, n);
	if (probe >= 0 && hp_probes[probe].arg == HP_T_NONE) {
		e->u.name.ref = HP_REF_PROBE;
		e->u.name.index = probe;
		check_probe_scope(c, probe, e->span, sc);
		return hp_probes[probe].result;
	}
	undefined_name(c, e, sc);
	return T_ERR;
}

static hp_type check_set(checker *c, hp_expr *e, const scope *sc)
{
	hp_expr *first = e->u.set.items;
	if (!first)
		return T_EMPTY;
	bool caps = first->kind == HP_EX_NAME && !is_variable(c, first->u.name.name) &&
	            !(probe_of(c, first->u.name.name) >= 0);
	if (caps) {
		uint64_t mask = 0;
		bool ok = true;
		for (hp_expr *it = first; it; it = it->next) {
			if (it->kind != HP_EX_NAME) {
				hp_diag *g = err(c, HP_DG_TYPE, it->span,
				                 "a capability set holds only capability names");
				hp_diag_help(g, "a list of strings is written { \"a\", \"b\" }");
				ok = false;
				continue;
			}
			const char *n = it->u.name.name;
			int cap = hp_cap_lookup(n);
			if (cap < 0) {
				hp_diag *g = err(c, HP_DG_UNKNOWN_CAP, it->span,
				                 "unknown capability '%s'", n);
				if (strncmp(n, "cap_", 4) == 0 && hp_cap_lookup(n + 4) >= 0) {
					hp_diag_help(g, "write '%s', without 'cap_'", n + 4);
				} else {
					suggest s;
					suggest_init(&s, n);
					char buf[64];
					for (int i = 0; i < 64; i++)
						suggest_try(&s, hp_cap_name(i, buf, sizeof buf)
						                    ? hp_intern_name(c->names, buf,
						                                     strlen(buf))
						                    : NULL);
					suggest_help(g, &s);
				}
				ok = false;
				continue;
			}
			if (mask & (1ull << cap))
				warn(c, HP_DG_DUPLICATE, it->span,
				     "capability '%s' is listed twice", n);
			mask |= 1ull << cap;
			it->u.name.ref = HP_REF_CAP;
			it->u.name.index = cap;
			it->type = HP_T_CAPS;
		}
		e->u.set.caps = mask;
		return ok ? HP_T_CAPS : T_ERR;
	}
	bool ok = true;
	for (hp_expr *it = first; it; it = it->next) {
		hp_type t = check_expr(c, it, sc);
		if (t == T_ERR) {
			ok = false;
			continue;
		}
		if (t != HP_T_STR) {
			hp_diag *g = err(c, HP_DG_TYPE, it->span, "a list holds strings, not %s",
			                 type_desc(t));
			if (t == HP_T_INT)
				hp_diag_help(g, "write the number as a string");
			ok = false;
		}
	}
	return ok ? HP_T_LIST : T_ERR;
}

static hp_type check_call(checker *c, hp_expr *e, const scope *sc)
{
	const char *n = e->u.call.name;
	hp_expr *a = e->u.call.args;
	if (n == c->w_split) {
		e->u.call.builtin = HP_BUILTIN_SPLIT;
		if (e->u.call.nargs != 2) {
			hp_diag *g = err(c, HP_DG_TYPE, e->span,
			                 "'split' takes 2 arguments, not %u", e->u.call.nargs);
			hp_diag_help(g, "write split(text, separator)");
			for (; a; a = a->next)
				check_expr(c, a, sc);
			return T_ERR;
		}
		bool ok = true;
		for (; a; a = a->next) {
			hp_type t = check_expr(c, a, sc);
			if (t != HP_T_STR && t != T_ERR) {
				err(c, HP_DG_TYPE, a->span, "'split' takes strings, not %s",
				    type_desc(t));
				ok = false;
			}
			ok &= t != T_ERR;
		}
		return ok ? HP_T_LIST : T_ERR;
	}
	int probe = probe_of(c, n);
	if (probe < 0) {
		suggest s;
		suggest_init(&s, n);
		for (int i = 0; i < HP_PROBE_COUNT; i++)
			suggest_try(&s, hp_probes[i].name);
		suggest_try(&s, "split");
		hp_diag *g = err(c, HP_DG_UNDEFINED, e->u.call.name_span, "unknown probe '%s'", n);
		suggest_help(g, &s);
		for (; a; a = a->next)
			check_expr(c, a, sc);
		return T_ERR;
	}
	/* user(uid N) is user_by_uid(N) */
	if (probe == HP_PROBE_USER && e->u.call.nargs == 1 && a->kind == HP_EX_UID)
		probe = HP_PROBE_USER_BY_UID;
	const hp_probe_info *pi = &hp_probes[probe];
	e->u.call.probe = probe;
	check_probe_scope(c, probe, e->u.call.name_span, sc);
	uint32_t want = pi->arg == HP_T_NONE ? 0 : 1;
	if (e->u.call.nargs != want || want == 0) {
		hp_diag *g;
		if (want == 0) {
			g = err(c, HP_DG_TYPE, e->span, "'%s' takes no argument", n);
			hp_diag_help(g, "write '%s', without parentheses", n);
		} else {
			g = err(c, HP_DG_TYPE, e->span, "'%s' takes one argument (%s), not %u", n,
			        type_desc(pi->arg), e->u.call.nargs);
		}
		for (; a; a = a->next)
			check_expr(c, a, sc);
		return T_ERR;
	}
	if (want) {
		hp_type t;
		if (a->kind == HP_EX_UID) {
			t = check_expr(c, a, sc);
		} else {
			t = check_expr(c, a, sc);
		}
		if (t != T_ERR && t != pi->arg) {
			hp_diag *g = err(c, HP_DG_TYPE, a->span, "'%s' takes %s, not %s", pi->name,
			                 type_desc(pi->arg), type_desc(t));
			if (pi->arg == HP_T_ROLE)
				hp_diag_help(g, "write %s(canary ROLE)", pi->name);
			else if (t == HP_T_USER && pi->arg == HP_T_STR)
				hp_diag_help(g, "a user's name is user(...).name");
			else if (probe == HP_PROBE_USER && t == HP_T_INT)
				hp_diag_help(g, "write user(uid N) to find a user by uid");
			return T_ERR;
		}
		if (t == T_ERR)
			return T_ERR;
		if (pi->arg == HP_T_ROLE && sc->kind == SC_ROLE && a->kind == HP_EX_CANARY &&
		    a->u.canary.role == sc->role) {
			hp_diag *g = warn(c, HP_DG_SCOPE, a->span,
			                  "'%s' as %s on %s's own canary means nothing", pi->name,
			                  hp_role_names[sc->role], hp_role_names[sc->role]);
			hp_diag_help(g, "ask it as another role");
		}
	}
	return pi->result;
}

static hp_type check_field(checker *c, hp_expr *e, const scope *sc)
{
	hp_type bt = check_expr(c, e->u.field.base, sc);
	if (bt == T_ERR)
		return T_ERR;
	const char *n = e->u.field.name;
	static const hp_field user_fields[] = {HP_FIELD_NAME, HP_FIELD_UID,   HP_FIELD_GID,
	                                       HP_FIELD_HOME, HP_FIELD_SHELL, HP_FIELD_GROUPS};
	static const hp_field group_fields[] = {HP_FIELD_NAME, HP_FIELD_GID, HP_FIELD_MEMBERS};
	const hp_field *fs;
	size_t nf;
	if (bt == HP_T_USER) {
		fs = user_fields;
		nf = sizeof user_fields / sizeof *user_fields;
	} else if (bt == HP_T_GROUP) {
		fs = group_fields;
		nf = sizeof group_fields / sizeof *group_fields;
	} else {
		err(c, HP_DG_TYPE, e->u.field.name_span, "'.%s' needs a user or a group, not %s", n,
		    type_desc(bt));
		return T_ERR;
	}
	for (size_t i = 0; i < nf; i++) {
		if (strcmp(hp_field_names[fs[i]], n) == 0) {
			e->u.field.field = fs[i];
			switch (fs[i]) {
			case HP_FIELD_UID:
			case HP_FIELD_GID:
				return HP_T_INT;
			case HP_FIELD_GROUPS:
			case HP_FIELD_MEMBERS:
				return HP_T_LIST;
			default:
				return HP_T_STR;
			}
		}
	}
	suggest s;
	suggest_init(&s, n);
	const char *names[8];
	for (size_t i = 0; i < nf; i++) {
		names[i] = hp_field_names[fs[i]];
		suggest_try(&s, names[i]);
	}
	hp_diag *g = err(c, HP_DG_UNKNOWN_FIELD, e->u.field.name_span, "%s has no field '%s'",
	                 type_desc(bt), n);
	if (s.best)
		suggest_help(g, &s);
	else
		list_help(g, bt == HP_T_USER ? "a user's fields are" : "a group's fields are",
		          names, nf);
	return T_ERR;
}

static hp_type check_binary(checker *c, hp_expr *e, const scope *sc)
{
	hp_op op = e->u.op.op;
	hp_expr *a = e->u.op.a, *b = e->u.op.b;
	if ((op == HP_OP_EQ || op == HP_OP_NE || op == HP_OP_IN) && a->kind == HP_EX_NAME &&
	    (a->u.name.name == c->w_mode || a->u.name.name == c->w_provider) &&
	    !is_variable(c, a->u.name.name)) {
		undefined_name(c, a, sc);
		return T_ERR;
	}
	hp_type ta = check_expr(c, a, sc);
	hp_type tb = check_expr(c, b, sc);
	if (ta == T_ERR || tb == T_ERR)
		return T_ERR;
	const char *on = hp_op_names[op];
	switch (op) {
	case HP_OP_AND:
		if (ta != HP_T_BOOL || tb != HP_T_BOOL) {
			hp_expr *bad = ta != HP_T_BOOL ? a : b;
			err(c, HP_DG_TYPE, bad->span, "'and' takes bools, not %s",
			    type_desc(settled(bad, bad == a ? ta : tb, HP_T_LIST)));
			return T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_OR:
		if (ta == HP_T_BOOL && tb == HP_T_BOOL)
			return HP_T_BOOL;
		ta = settled(a, ta, tb);
		tb = settled(b, tb, ta);
		if (ta != tb) {
			hp_diag *g = err(c, HP_DG_TYPE, e->span,
			                 "both sides of 'or' must have one type: %s or %s",
			                 type_desc(ta), type_desc(tb));
			hp_diag_help(
			    g, "'A or B' is B when A is absent (an unset variable, no such user)");
			return T_ERR;
		}
		return ta;
	case HP_OP_EQ:
	case HP_OP_NE:
		ta = settled(a, ta, tb);
		tb = settled(b, tb, ta);
		if (ta != tb) {
			err(c, HP_DG_TYPE, e->span, "'%s' compares %s with %s", on, type_desc(ta),
			    type_desc(tb));
			return T_ERR;
		}
		if (ta == HP_T_ROLE) {
			err(c, HP_DG_TYPE, e->span, "roles cannot be compared");
			return T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_LT:
	case HP_OP_GT:
	case HP_OP_LE:
	case HP_OP_GE: {
		ta = settled(a, ta, tb);
		tb = settled(b, tb, ta);
		bool sets =
		    (op == HP_OP_LE || op == HP_OP_GE) && (ta == HP_T_LIST || ta == HP_T_CAPS);
		if (ta != tb || (ta != HP_T_INT && !sets)) {
			hp_diag *g = err(c, HP_DG_TYPE, e->span, "'%s' compares %s with %s", on,
			                 type_desc(ta), type_desc(tb));
			hp_diag_help(
			    g, "'<' and '>' compare ints; '<=' and '>=' also compare lists and "
			       "capability sets (subset, superset)");
			return T_ERR;
		}
		return HP_T_BOOL;
	}
	case HP_OP_IN:
		tb = settled(b, tb, HP_T_LIST);
		if (ta != HP_T_STR || tb != HP_T_LIST) {
			hp_diag *g = err(c, HP_DG_TYPE, e->span,
			                 "'in' tests a string in a list, not %s in %s",
			                 type_desc(ta), type_desc(tb));
			if (tb == HP_T_CAPS)
				hp_diag_help(g, "for capabilities write SET >= { cap }");
			return T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_ADD:
		if ((ta == HP_T_STR && (tb == HP_T_STR || tb == HP_T_INT)) ||
		    (ta == HP_T_INT && tb == HP_T_STR))
			return HP_T_STR;
		{
			hp_diag *g = err(c, HP_DG_TYPE, e->span, "'+' joins strings, not %s and %s",
			                 type_desc(settled(a, ta, HP_T_LIST)),
			                 type_desc(settled(b, tb, HP_T_LIST)));
			hp_diag_help(g, "an int is joined to a string as its decimal digits");
		}
		return T_ERR;
	case HP_OP_BAND:
		ta = settled(a, ta, tb);
		tb = settled(b, tb, ta);
		if (ta != tb || (ta != HP_T_INT && ta != HP_T_LIST && ta != HP_T_CAPS)) {
			err(c, HP_DG_TYPE, e->span,
			    "'&' takes two ints, lists or capability sets, not %s and %s",
			    type_desc(ta), type_desc(tb));
			return T_ERR;
		}
		return ta;
	default:
		return T_ERR;
	}
}

static hp_type check_expr_inner(checker *c, hp_expr *e, const scope *sc)
{
	switch (e->kind) {
	case HP_EX_ERROR:
		return T_ERR;
	case HP_EX_BOOL:
		return HP_T_BOOL;
	case HP_EX_INT:
		return HP_T_INT;
	case HP_EX_STR:
		return HP_T_STR;
	case HP_EX_SET:
		return check_set(c, e, sc);
	case HP_EX_NAME:
		return check_name(c, e, sc);
	case HP_EX_CALL:
		return check_call(c, e, sc);
	case HP_EX_FIELD:
		return check_field(c, e, sc);
	case HP_EX_PAREN:
		return check_expr(c, e->u.inner, sc);
	case HP_EX_BINARY:
		return check_binary(c, e, sc);
	case HP_EX_UID: {
		hp_type t = check_expr(c, e->u.inner, sc);
		if (t != T_ERR && t != HP_T_INT) {
			err(c, HP_DG_TYPE, e->u.inner->span, "'uid' takes an int, not %s",
			    type_desc(t));
			return T_ERR;
		}
		return t == T_ERR ? T_ERR : HP_T_INT;
	}
	case HP_EX_CANARY: {
		int r = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, e->u.canary.name);
		if (r < 0) {
			suggest s;
			suggest_init(&s, e->u.canary.name);
			suggest_table(&s, hp_role_names, HP_ROLE_COUNT);
			hp_diag *g = err(c, HP_DG_UNKNOWN_MODE, e->span, "unknown role '%s'",
			                 e->u.canary.name);
			if (s.best)
				suggest_help(g, &s);
			else
				list_help(g, "the roles are", hp_role_names, HP_ROLE_COUNT);
			return T_ERR;
		}
		e->u.canary.role = (hp_role)r;
		if (!c->role_decl[r]) {
			hp_diag *g = err(c, HP_DG_UNDEFINED, e->span, "role '%s' is not declared",
			                 e->u.canary.name);
			hp_diag_help(g, "a canary runs as a declared role: add 'role %s = ...'",
			             e->u.canary.name);
			return T_ERR;
		}
		return HP_T_ROLE;
	}
	case HP_EX_UNARY: {
		hp_type t = check_expr(c, e->u.op.a, sc);
		if (t == T_ERR)
			return T_ERR;
		if (e->u.op.op == HP_OP_NOT) {
			if (t != HP_T_BOOL) {
				err(c, HP_DG_TYPE, e->u.op.a->span, "'not' takes a bool, not %s",
				    type_desc(settled(e->u.op.a, t, HP_T_LIST)));
				return T_ERR;
			}
			return HP_T_BOOL;
		}
		if (t == HP_T_STR) {
			e->u.op.probe = HP_PROBE_EXISTS;
			check_probe_scope(c, HP_PROBE_EXISTS, e->span, sc);
			return HP_T_BOOL;
		}
		if (t == HP_T_USER || t == HP_T_GROUP)
			return HP_T_BOOL;
		hp_diag *g = err(c, HP_DG_TYPE, e->u.op.a->span,
		                 "'exists' takes a path or a user or group, not %s",
		                 type_desc(settled(e->u.op.a, t, HP_T_LIST)));
		hp_diag_help(g, "exists(PATH) asks for a file; exists user(NAME) tests a user");
		return T_ERR;
	}
	}
	return T_ERR;
}

static hp_type check_expr(checker *c, hp_expr *e, const scope *sc)
{
	hp_type t = check_expr_inner(c, e, sc);
	e->type = t == T_EMPTY ? HP_T_LIST : t;
	return t;
}

/* Check e where a value of type want is needed (HP_T_COUNT: any). */
static hp_type expect(checker *c, hp_expr *e, const scope *sc, hp_type want, const char *what)
{
	hp_type t = check_expr(c, e, sc);
	if (t == T_EMPTY)
		t = settled(e, t, want == HP_T_CAPS ? HP_T_CAPS : HP_T_LIST);
	if (t == T_ERR || want == HP_T_COUNT || t == want)
		return t;
	hp_diag *g =
	    err(c, HP_DG_TYPE, e->span, "%s needs %s, not %s", what, type_desc(want), type_desc(t));
	if (want == HP_T_BOOL && t == HP_T_LIST)
		hp_diag_help(g, "test a list with 'in', '==' or '<='");
	else if (want == HP_T_BOOL && t == HP_T_USER)
		hp_diag_help(g, "test that a user exists with 'exists user(...)'");
	return T_ERR;
}

/* --- when: folded to a (mode, provider) mask ------------------------------ */

static int when_const(checker *c, hp_expr *e, bool mode)
{
	while (e->kind == HP_EX_PAREN)
		e = e->u.inner;
	if (e->kind != HP_EX_NAME) {
		hp_diag *g = err(c, HP_DG_TYPE, e->span, "expected a %s name",
		                 mode ? "turn mode" : "provider");
		list_help(g, mode ? "the modes are" : "the providers are",
		          mode ? hp_mode_names : hp_provider_names,
		          mode ? HP_MODE_COUNT : HP_PROVIDER_COUNT);
		return -1;
	}
	const char *const *t = mode ? hp_mode_names : hp_provider_names;
	size_t n = mode ? HP_MODE_COUNT : HP_PROVIDER_COUNT;
	int i = hp_lookup_name(t, n, e->u.name.name);
	if (i < 0) {
		suggest s;
		suggest_init(&s, e->u.name.name);
		suggest_table(&s, t, n);
		hp_diag *g =
		    err(c, mode ? HP_DG_UNKNOWN_MODE : HP_DG_UNKNOWN_PROVIDER, e->span,
		        "unknown %s '%s'", mode ? "turn mode" : "provider", e->u.name.name);
		if (s.best)
			suggest_help(g, &s);
		else
			list_help(g, mode ? "the modes are" : "the providers are", t, n);
		return -1;
	}
	e->u.name.ref = mode ? HP_REF_MODE : HP_REF_PROVIDER;
	e->u.name.index = i;
	return i;
}

static hp_applies mask_of(bool mode, uint32_t bits)
{
	hp_applies m = 0;
	for (int md = 0; md < HP_MODE_COUNT; md++)
		for (int pv = 0; pv < HP_PROVIDER_COUNT; pv++)
			if (bits & (1u << (mode ? md : pv)))
				m |= HP_APPLIES_BIT(md, pv);
	return m;
}

/* Which word (mode / provider) e is, or -1. */
static int when_word(checker *c, hp_expr *e)
{
	while (e->kind == HP_EX_PAREN)
		e = e->u.inner;
	if (e->kind != HP_EX_NAME)
		return -1;
	if (e->u.name.name == c->w_mode) {
		e->u.name.ref = HP_REF_TURN_MODE;
		return 1;
	}
	if (e->u.name.name == c->w_provider) {
		e->u.name.ref = HP_REF_TURN_PROVIDER;
		return 0;
	}
	return -1;
}

static bool fold_when(checker *c, hp_expr *e, hp_applies *out)
{
	switch (e->kind) {
	case HP_EX_PAREN:
		return fold_when(c, e->u.inner, out);
	case HP_EX_BOOL:
		*out = e->u.b ? HP_APPLIES_ALL : 0;
		return true;
	case HP_EX_UNARY:
		if (e->u.op.op == HP_OP_NOT) {
			hp_applies m;
			if (!fold_when(c, e->u.op.a, &m))
				return false;
			*out = HP_APPLIES_ALL & ~m;
			return true;
		}
		break;
	case HP_EX_BINARY: {
		hp_op op = e->u.op.op;
		if (op == HP_OP_AND || op == HP_OP_OR) {
			hp_applies a, b;
			bool oa = fold_when(c, e->u.op.a, &a);
			bool ob = fold_when(c, e->u.op.b, &b);
			if (!oa || !ob)
				return false;
			*out = op == HP_OP_AND ? (a & b) : (a | b);
			return true;
		}
		if (op == HP_OP_EQ || op == HP_OP_NE || op == HP_OP_IN) {
			hp_expr *w = e->u.op.a, *v = e->u.op.b;
			int kind = when_word(c, w);
			if (kind < 0 && op != HP_OP_IN) {
				kind = when_word(c, v);
				w = e->u.op.b;
				v = e->u.op.a;
			}
			if (kind < 0)
				break;
			uint32_t bits = 0;
			if (op == HP_OP_IN) {
				hp_expr *set = v;
				while (set->kind == HP_EX_PAREN)
					set = set->u.inner;
				if (set->kind != HP_EX_SET) {
					hp_diag *g = err(c, HP_DG_TYPE, v->span,
					                 "'%s in' needs a set of names",
					                 kind ? "mode" : "provider");
					hp_diag_help(g, "write %s in { ... }",
					             kind ? "mode" : "provider");
					return false;
				}
				bool ok = true;
				for (hp_expr *it = set->u.set.items; it; it = it->next) {
					int i = when_const(c, it, kind == 1);
					if (i < 0)
						ok = false;
					else
						bits |= 1u << i;
				}
				if (!ok)
					return false;
			} else {
				int i = when_const(c, v, kind == 1);
				if (i < 0)
					return false;
				bits = 1u << i;
			}
			hp_applies m = mask_of(kind == 1, bits);
			*out = op == HP_OP_NE ? (HP_APPLIES_ALL & ~m) : m;
			return true;
		}
		break;
	}
	default:
		break;
	}
	hp_diag *g = err(c, HP_DG_TYPE, e->span, "a rule's when can only test mode and provider");
	hp_diag_help(g, "write e.g. when mode in { ask, deny-risky } and provider != e2b");
	return false;
}

/* --- statements and rules ------------------------------------------------- */

static void check_stmts(checker *c, hp_stmt *s, const scope *sc, uint32_t loop_depth)
{
	for (; s; s = s->next) {
		if (s->kind == HP_ST_REQUIRE || s->kind == HP_ST_FORBID) {
			c->rule_asserts = true;
			expect(c, s->expr, sc, HP_T_BOOL,
			       s->kind == HP_ST_REQUIRE ? "'require'" : "'forbid'");
			continue;
		}
		hp_type t = check_expr(c, s->expr, sc);
		if (t == T_EMPTY)
			t = settled(s->expr, t, HP_T_LIST);
		if (t != T_ERR && t != HP_T_LIST) {
			hp_diag *g = err(c, HP_DG_TYPE, s->expr->span,
			                 "'for' goes over a list, not %s", type_desc(t));
			if (t == HP_T_STR)
				hp_diag_help(
				    g, "split a string into a list with split(text, separator)");
			else if (t == HP_T_CAPS)
				hp_diag_help(g, "capability sets are compared, not iterated");
		}
		hp_decl *pd = hp_namemap_get(&c->params, s->var);
		hp_stmt *outer = find_loop(c, s->var);
		if (outer || pd) {
			hp_diag *g = err(c, HP_DG_DUPLICATE, s->var_span, "'%s' is already %s",
			                 s->var, outer ? "a loop variable" : "a param");
			note(c, g, outer ? outer->var_span : pd->name_span, "declared here");
			hp_diag_help(g, "give the loop variable another name");
		} else if (probe_of(c, s->var) >= 0) {
			err(c, HP_DG_DUPLICATE, s->var_span, "'%s' is the name of a probe", s->var);
		}
		s->loop_depth = loop_depth;
		s->slot = c->rule_loops++;
		if (c->nloops < HP_MAX_EXPR_DEPTH) {
			c->loops[c->nloops++] = s;
			check_stmts(c, s->body, sc, loop_depth + 1);
			c->nloops--;
		}
	}
}

static void check_rule(checker *c, hp_decl *r)
{
	hp_applies applies = HP_APPLIES_ALL;
	if (r->u.rule.when) {
		hp_applies m;
		if (fold_when(c, r->u.rule.when, &m)) {
			applies = m;
			if (m == 0) {
				hp_diag *g =
				    warn(c, HP_DG_SCOPE, r->u.rule.when->span,
				         "this when never holds: the rule counts for no turn");
				hp_diag_help(g, "check the modes and providers it names");
			}
		}
	}
	r->u.rule.applies = applies;
	c->rule_loops = 0;
	c->rule_asserts = false;
	hp_block *seen[HP_ROLE_COUNT] = {0};
	for (hp_block *b = r->u.rule.blocks; b; b = b->next) {
		int role = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, b->role_name);
		if (role < 0) {
			suggest s;
			suggest_init(&s, b->role_name);
			suggest_table(&s, hp_role_names, HP_ROLE_COUNT);
			hp_diag *g = err(c, HP_DG_UNKNOWN_MODE, b->role_span, "unknown role '%s'",
			                 b->role_name);
			if (s.best)
				suggest_help(g, &s);
			else
				list_help(g, "the roles are", hp_role_names, HP_ROLE_COUNT);
			scope usc = {SC_ROLE, HP_ROLE_COUNT, 0};
			c->nloops = 0;
			check_stmts(c, b->body, &usc, 0);
			continue;
		}
		b->role = (hp_role)role;
		if (seen[role]) {
			hp_diag *g =
			    err(c, HP_DG_DUPLICATE, b->role_span,
			        "a second 'as %s' block in rule '%s'", b->role_name, r->name);
			note(c, g, seen[role]->role_span, "the first one is here");
			hp_diag_help(g, "put all of %s's assertions in one block", b->role_name);
		}
		seen[role] = b;
		if (!c->role_decl[role]) {
			hp_diag *g = err(c, HP_DG_UNDEFINED, b->role_span,
			                 "role '%s' is not declared", b->role_name);
			hp_diag_help(g, "declare it: role %s = ...", b->role_name);
		}
		r->u.rule.roles |= 1u << role;
		scope sc = {SC_ROLE, (hp_role)role, 0};
		c->nloops = 0;
		check_stmts(c, b->body, &sc, 0);
	}
	r->u.rule.nloops = c->rule_loops;
	if (!c->rule_asserts && !r->broken) {
		hp_diag *g =
		    err(c, HP_DG_EMPTY_RULE, r->name_span, "rule '%s' has no assertion", r->name);
		hp_diag_help(g, "add 'as ROLE { require ... }' or 'forbid ...' to the rule");
	}
}

static void check_role(checker *c, hp_decl *d)
{
	hp_role_item *identity = NULL, *caps = NULL, *nnp = NULL;
	for (hp_role_item *it = d->u.role.items; it; it = it->next) {
		hp_role_item **slot = it->kind == HP_RI_IDENTITY       ? &identity
		                      : it->kind == HP_RI_NO_NEW_PRIVS ? &nnp
		                                                       : &caps;
		if (*slot) {
			hp_diag *g =
			    err(c, HP_DG_DUPLICATE, it->span, "role '%s' says this twice", d->name);
			note(c, g, (*slot)->span, "it is already said here");
			continue;
		}
		*slot = it;
	}
	if (!identity) {
		hp_diag *g =
		    err(c, HP_DG_STRUCTURE, d->name_span, "role '%s' has no identity", d->name);
		hp_diag_help(g, "add 'uid N' or 'user(NAME)'");
	} else {
		scope sc = {SC_IDENTITY, HP_ROLE_ROOT, (uint32_t)-1};
		hp_expr *e = identity->expr;
		hp_type t = check_expr(c, e, &sc);
		if (t != T_ERR && e->kind != HP_EX_UID && t != HP_T_USER) {
			hp_diag *g = err(c, HP_DG_TYPE, e->span,
			                 "a role's identity is a user, not %s", type_desc(t));
			hp_diag_help(g, "write uid N or user(NAME)");
		}
		d->u.role.identity = e;
	}
	if (caps && caps->kind == HP_RI_KEEP_CAPS) {
		scope sc = {SC_IDENTITY, HP_ROLE_ROOT, (uint32_t)-1};
		hp_type t = expect(c, caps->expr, &sc, HP_T_CAPS, "'keep caps'");
		d->u.role.keep_caps = true;
		if (t == HP_T_CAPS)
			d->u.role.caps = caps->expr->u.set.caps;
	}
	d->u.role.no_new_privs = nnp != NULL;
}

static void check_provider(checker *c, hp_decl *d)
{
	hp_prov_item *def = NULL;
	d->u.provider.setting = HP_SETTING_AUTO;
	for (hp_prov_item *it = d->u.provider.items; it; it = it->next) {
		scope sc = {SC_PROVIDER, HP_ROLE_ROOT, (uint32_t)-1};
		if (it->kind == HP_PI_DEFAULT) {
			if (def) {
				hp_diag *g =
				    err(c, HP_DG_DUPLICATE, it->span,
				        "provider '%s' has a second uid_split default", d->name);
				note(c, g, def->span, "the first one is here");
				continue;
			}
			def = it;
			int s =
			    hp_lookup_name(hp_setting_names, HP_SETTING_COUNT, it->setting_name);
			if (s < 0) {
				suggest sg;
				suggest_init(&sg, it->setting_name);
				suggest_table(&sg, hp_setting_names, HP_SETTING_COUNT);
				hp_diag *g =
				    err(c, HP_DG_UNKNOWN_MODE, it->setting_span,
				        "unknown uid_split setting '%s'", it->setting_name);
				if (sg.best)
					suggest_help(g, &sg);
				else
					list_help(g, "the settings are", hp_setting_names,
					          HP_SETTING_COUNT);
				continue;
			}
			it->setting = (hp_setting)s;
			d->u.provider.setting = (hp_setting)s;
			continue;
		}
		expect(c, it->expr, &sc, HP_T_BOOL,
		       it->kind == HP_PI_NEEDS ? "'split needs'" : "'never split when'");
	}
}

/* --- declarations --------------------------------------------------------- */

static void declare(checker *c, hp_decl **order, size_t n)
{
	uint32_t nparams = 0, nrules = 0;
	for (size_t i = 0; i < n; i++) {
		hp_decl *d = order[i];
		const hp_src *s = src_of(c, d->span);
		switch (d->kind) {
		case HP_D_POLICY:
			if (s && s->decls != d) {
				hp_diag *g = err(
				    c, HP_DG_STRUCTURE, d->span,
				    "the policy header must be the first declaration of its file");
				hp_diag_help(g, "move it to the top");
			}
			if (d->u.policy.version < 1 || d->u.policy.version > INT32_MAX)
				err(c, HP_DG_INT_RANGE, d->u.policy.version_span,
				    "a policy version is between 1 and %d", INT32_MAX);
			if (s && s->index == 0 && !c->policy)
				c->policy = d;
			break;
		case HP_D_PARAM: {
			hp_decl *old = hp_namemap_put(&c->params, d->name, d);
			if (old) {
				hp_namemap_put(&c->params, d->name, old);
				hp_diag *g = err(c, HP_DG_DUPLICATE, d->name_span,
				                 "param '%s' is declared twice", d->name);
				note(c, g, old->name_span, "the first declaration is here");
				d->kind = HP_D_ERROR;
				break;
			}
			if (probe_of(c, d->name) >= 0 || strcmp(d->name, "mode") == 0 ||
			    strcmp(d->name, "split") == 0) {
				hp_diag *g = err(
				    c, HP_DG_DUPLICATE, d->name_span,
				    "'%s' is the name of a probe; a param cannot take it", d->name);
				hp_diag_help(g, "choose another name");
			}
			d->u.param.index = nparams++;
			break;
		}
		case HP_D_ROLE: {
			int r = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, d->name);
			if (r < 0) {
				suggest sg;
				suggest_init(&sg, d->name);
				suggest_table(&sg, hp_role_names, HP_ROLE_COUNT);
				hp_diag *g = err(c, HP_DG_UNKNOWN_MODE, d->name_span,
				                 "unknown role '%s'", d->name);
				if (sg.best)
					suggest_help(g, &sg);
				else
					list_help(g, "the roles are", hp_role_names, HP_ROLE_COUNT);
				d->kind = HP_D_ERROR;
				break;
			}
			if (c->role_decl[r]) {
				hp_diag *g = err(c, HP_DG_DUPLICATE, d->name_span,
				                 "role '%s' is declared twice", d->name);
				note(c, g, c->role_decl[r]->name_span,
				     "the first declaration is here");
				d->kind = HP_D_ERROR;
				break;
			}
			d->u.role.role = (hp_role)r;
			c->role_decl[r] = d;
			break;
		}
		case HP_D_RULE: {
			hp_decl *old = hp_namemap_put(&c->rules, d->name, d);
			if (old) {
				hp_namemap_put(&c->rules, d->name, old);
				hp_diag *g = err(c, HP_DG_DUPLICATE, d->name_span,
				                 "rule '%s' is declared twice", d->name);
				note(c, g, old->name_span, "the first declaration is here");
				hp_diag_help(g, "rule ids are unique across every included file");
				d->u.rule.index =
				    UINT32_MAX; /* checked, but not part of the program */
				break;
			}
			d->u.rule.index = nrules++;
			break;
		}
		case HP_D_PROVIDER: {
			int pv = hp_lookup_name(hp_provider_names, HP_PROVIDER_COUNT, d->name);
			if (pv < 0) {
				suggest sg;
				suggest_init(&sg, d->name);
				suggest_table(&sg, hp_provider_names, HP_PROVIDER_COUNT);
				hp_diag *g = err(c, HP_DG_UNKNOWN_PROVIDER, d->name_span,
				                 "unknown provider '%s'", d->name);
				if (sg.best)
					suggest_help(g, &sg);
				else
					list_help(g, "the providers are", hp_provider_names,
					          HP_PROVIDER_COUNT);
				d->kind = HP_D_ERROR;
				break;
			}
			if (c->prov_decl[pv]) {
				hp_diag *g = err(c, HP_DG_DUPLICATE, d->name_span,
				                 "provider '%s' is declared twice", d->name);
				note(c, g, c->prov_decl[pv]->name_span,
				     "the first declaration is here");
				d->kind = HP_D_ERROR;
				break;
			}
			d->u.provider.provider = (hp_provider)pv;
			c->prov_decl[pv] = d;
			break;
		}
		default:
			break;
		}
	}
	hp_program *p = c->p;
	p->params = hp_arena_alloc(p->arena, (nparams ? nparams : 1) * sizeof *p->params);
	p->rules = hp_arena_alloc(p->arena, (nrules ? nrules : 1) * sizeof *p->rules);
	for (size_t i = 0; i < n; i++) {
		hp_decl *d = order[i];
		if (d->kind == HP_D_PARAM)
			p->params[p->nparams++] = d;
		else if (d->kind == HP_D_RULE && d->u.rule.index != UINT32_MAX)
			p->rules[p->nrules++] = d;
	}
	memcpy(p->roles, c->role_decl, sizeof p->roles);
	memcpy(p->providers, c->prov_decl, sizeof p->providers);
}

void hp_check(hp_program *p, hp_decl **order, size_t n, hp_intern *names, hp_diags *d,
              uint32_t errors_at_start)
{
	checker c;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.d = d;
	c.names = names;
	c.w_mode = hp_intern_name(names, "mode", 4);
	c.w_provider = hp_intern_name(names, "provider", 8);
	c.w_split = hp_intern_name(names, "split", 5);
	hp_namemap_init(&c.probes);
	for (int i = 0; i < HP_PROBE_COUNT; i++)
		hp_namemap_put(&c.probes,
		               hp_intern_name(names, hp_probes[i].name, strlen(hp_probes[i].name)),
		               (void *)(intptr_t)(i + 1));
	hp_namemap_init(&c.params);
	hp_namemap_init(&c.rules);
	uint32_t errors_before = errors_at_start;

	declare(&c, order, n);
	if (!c.policy && p->nfiles) {
		const hp_src *top = p->files[0];
		hp_span at = {0, 1, 1, 0, 0};
		if (top->decls)
			at = top->decls->span;
		hp_diag *g = hp_diag_add(d, HP_SEV_ERROR, HP_DG_STRUCTURE, top, at,
		                         "a policy starts with its header");
		hp_diag_help(g, "add as its first line: policy \"NAME\" version 1");
	} else if (c.policy) {
		p->name = c.policy->name;
		p->version = c.policy->u.policy.version;
	}
	for (uint32_t i = 0; i < p->nparams; i++) {
		hp_decl *pd = p->params[i];
		scope sc = {SC_PARAM, HP_ROLE_ROOT, i};
		hp_type t = check_expr(&c, pd->u.param.expr, &sc);
		if (t == T_EMPTY)
			settled(pd->u.param.expr, t, HP_T_LIST);
		else if (t == HP_T_ROLE)
			err(&c, HP_DG_TYPE, pd->u.param.expr->span, "a param cannot hold a role");
	}
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (c.role_decl[r])
			check_role(&c, c.role_decl[r]);
	for (size_t i = 0; i < n; i++)
		if (order[i]->kind == HP_D_RULE)
			check_rule(&c, order[i]);
	for (int pv = 0; pv < HP_PROVIDER_COUNT; pv++)
		if (c.prov_decl[pv])
			check_provider(&c, c.prov_decl[pv]);
	/* after an error a param's use may be in what was lost: no warning then */
	for (uint32_t i = 0; i < p->nparams && d->nerrors == errors_before; i++) {
		hp_decl *pd = p->params[i];
		if (!pd->u.param.used) {
			hp_diag *g = warn(&c, HP_DG_UNUSED, pd->name_span,
			                  "param '%s' is never used", pd->name);
			hp_diag_help(g, "use it in a rule or remove it");
		}
	}
	p->ok = d->nerrors == errors_before;
	hp_namemap_free(&c.params);
	hp_namemap_free(&c.rules);
	hp_namemap_free(&c.probes);
}
