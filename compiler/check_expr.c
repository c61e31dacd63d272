/* check_expr.c: names, types and scopes of expressions: what each name
 * refers to, which probe or builtin a call is, record fields, capability
 * sets, and every operator's operand types (docs/language.md). */
#include <stdint.h>
#include <string.h>

#include "check_int.h"

/* --- expressions ---------------------------------------------------------- */

hp_stmt *hp_ck_find_loop(hp_checker *c, const char *name)
{
	for (uint32_t i = c->nloops; i > 0; i--)
		if (c->loops[i - 1]->var == name)
			return c->loops[i - 1];
	return NULL;
}

bool hp_ck_is_variable(hp_checker *c, const char *name)
{
	return hp_ck_find_loop(c, name) || hp_namemap_get(&c->params, name);
}

static bool scope_global(const hp_ck_scope *sc)
{
	return sc->kind == HP_CK_PARAM || sc->kind == HP_CK_PROVIDER || sc->kind == HP_CK_IDENTITY;
}

static const char *scope_where(const hp_ck_scope *sc)
{
	switch (sc->kind) {
	case HP_CK_PARAM:
		return "a param";
	case HP_CK_PROVIDER:
		return "a provider block";
	case HP_CK_IDENTITY:
		return "a role's identity";
	case HP_CK_ROLE:
	case HP_CK_WHEN:
	default:
		return "this place";
	}
}

/* A probe is used: is it allowed here? */
static void check_probe_scope(hp_checker *c, int probe, hp_span at, const hp_ck_scope *sc)
{
	const hp_probe_info *pi = &hp_probes[probe];
	if (pi->scope == HP_SCOPE_ROLE && scope_global(sc)) {
		hp_diag *g = hp_ck_err(c, HP_DG_SCOPE, at,
		                       "'%s' is asked as a role, so it cannot be used in %s",
		                       pi->name, scope_where(sc));
		hp_diag_help(g, "use it in a rule, inside an 'as ROLE { ... }' block");
		return;
	}
	if (sc->kind == HP_CK_WHEN) {
		hp_diag *g =
		    hp_ck_err(c, HP_DG_SCOPE, at, "a rule's when cannot ask '%s'", pi->name);
		hp_diag_help(g, "when tests only mode and provider; put the test in a require");
		return;
	}
	if (sc->kind == HP_CK_ROLE && probe == HP_PROBE_SUDO && sc->role == HP_ROLE_ROOT) {
		hp_diag *g = hp_ck_warn(c, HP_DG_SCOPE, at,
		                        "'sudo' as root means nothing: root needs no sudo");
		hp_diag_help(g, "ask it as agent or hangar");
	}
}

static void undefined_name(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	const char *n = e->u.name.name;
	if (n == c->w_mode || n == c->w_provider) {
		hp_diag *g =
		    hp_ck_err(c, HP_DG_SCOPE, e->span, "'%s' is known only in a rule's when", n);
		hp_diag_help(g, "write: rule ID \"title\" when %s == ... { ... }", n);
		return;
	}
	int probe = hp_ck_probe_of(c, n);
	if (probe >= 0) {
		hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span, "'%s' takes an argument (%s)", n,
		                       hp_ck_type_desc(hp_probes[probe].arg));
		hp_diag_help(g, "write %s(...)", n);
		return;
	}
	if (c->rule_broken)
		return; /* most likely the binding was lost to the syntax error */
	hp_diag *g = hp_ck_err(c, HP_DG_UNDEFINED, e->span, "undefined name '%s'", n);
	if (!g || !hp_ck_may_suggest(c))
		return;
	/* in declaration order, so that a tie always resolves the same way */
	hp_ck_suggest s;
	hp_ck_suggest_init(&s, n);
	for (uint32_t i = 0; i < c->nloops; i++)
		hp_ck_suggest_try(&s, c->loops[i]->var);
	for (uint32_t i = 0; i < c->p->nparams; i++)
		hp_ck_suggest_try(&s, c->p->params[i]->name);
	for (int i = 0; i < HP_PROBE_COUNT; i++)
		if (hp_probes[i].arg == HP_T_NONE)
			hp_ck_suggest_try(&s, hp_probes[i].name);
	hp_ck_suggest_help(g, &s);
	(void)sc;
}

static hp_type check_name(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	const char *n = e->u.name.name;
	hp_stmt *loop = hp_ck_find_loop(c, n);
	if (loop) {
		e->u.name.ref = HP_REF_LOOP;
		e->u.name.loop = loop;
		return HP_T_STR;
	}
	hp_decl *pd = hp_namemap_get(&c->params, n);
	if (pd) {
		if (sc->kind == HP_CK_PARAM && pd->u.param.index >= sc->nparams) {
			hp_diag *g = hp_ck_err(c, HP_DG_UNDEFINED, e->span,
			                       "param '%s' is used before its declaration", n);
			hp_ck_note(c, g, pd->name_span, "declared here");
			hp_diag_help(g, "declare params before the params that use them");
			return HP_CK_T_ERR;
		}
		e->u.name.ref = HP_REF_PARAM;
		e->u.name.param = pd;
		pd->u.param.used = true;
		return pd->u.param.expr ? pd->u.param.expr->type : HP_CK_T_ERR;
	}
	int probe = hp_ck_probe_of(c, n);
	if (probe >= 0 && hp_probes[probe].arg == HP_T_NONE) {
		e->u.name.ref = HP_REF_PROBE;
		e->u.name.index = probe;
		check_probe_scope(c, probe, e->span, sc);
		return hp_probes[probe].result;
	}
	undefined_name(c, e, sc);
	return HP_CK_T_ERR;
}

static hp_type check_set(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	hp_expr *first = e->u.set.items;
	if (!first)
		return HP_CK_T_EMPTY;
	bool caps = first->kind == HP_EX_NAME && !hp_ck_is_variable(c, first->u.name.name) &&
	            !(hp_ck_probe_of(c, first->u.name.name) >= 0);
	if (caps) {
		uint64_t mask = 0;
		bool ok = true;
		for (hp_expr *it = first; it; it = it->next) {
			if (it->kind != HP_EX_NAME) {
				hp_diag *g =
				    hp_ck_err(c, HP_DG_TYPE, it->span,
				              "a capability set holds only capability names");
				hp_diag_help(g, "a list of strings is written { \"a\", \"b\" }");
				ok = false;
				continue;
			}
			const char *n = it->u.name.name;
			int cap = hp_cap_lookup(n);
			if (cap < 0) {
				hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_CAP, it->span,
				                       "unknown capability '%s'", n);
				if (strncmp(n, "cap_", 4) == 0 && hp_cap_lookup(n + 4) >= 0) {
					hp_diag_help(g, "write '%s', without 'cap_'", n + 4);
				} else if (g && hp_ck_may_suggest(c)) {
					hp_ck_suggest s;
					hp_ck_suggest_init(&s, n);
					char buf[64];
					for (int i = 0; i < 64; i++)
						hp_ck_suggest_try(
						    &s,
						    hp_cap_name(i, buf, sizeof buf)
						        ? hp_intern_name(c->names, buf, strlen(buf))
						        : NULL);
					hp_ck_suggest_help(g, &s);
				}
				ok = false;
				continue;
			}
			if (mask & (1ull << cap))
				hp_ck_warn(c, HP_DG_DUPLICATE, it->span,
				           "capability '%s' is listed twice", n);
			mask |= 1ull << cap;
			it->u.name.ref = HP_REF_CAP;
			it->u.name.index = cap;
			it->type = HP_T_CAPS;
		}
		e->u.set.caps = mask;
		return ok ? HP_T_CAPS : HP_CK_T_ERR;
	}
	bool ok = true;
	for (hp_expr *it = first; it; it = it->next) {
		hp_type t = hp_ck_expr(c, it, sc);
		if (t == HP_CK_T_ERR) {
			ok = false;
			continue;
		}
		if (t != HP_T_STR) {
			hp_diag *g = hp_ck_err(c, HP_DG_TYPE, it->span,
			                       "a list holds strings, not %s", hp_ck_type_desc(t));
			if (t == HP_T_INT)
				hp_diag_help(g, "write the number as a string");
			ok = false;
		}
	}
	return ok ? HP_T_LIST : HP_CK_T_ERR;
}

static hp_type check_call(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	const char *n = e->u.call.name;
	hp_expr *a = e->u.call.args;
	if (n == c->w_split) {
		e->u.call.builtin = HP_BUILTIN_SPLIT;
		if (e->u.call.nargs != 2) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_TYPE, e->span, "'split' takes 2 arguments, not %u",
			              e->u.call.nargs);
			hp_diag_help(g, "write split(text, separator)");
			for (; a; a = a->next)
				hp_ck_expr(c, a, sc);
			return HP_CK_T_ERR;
		}
		bool ok = true;
		for (; a; a = a->next) {
			hp_type t = hp_ck_expr(c, a, sc);
			if (t != HP_T_STR && t != HP_CK_T_ERR) {
				hp_ck_err(c, HP_DG_TYPE, a->span, "'split' takes strings, not %s",
				          hp_ck_type_desc(t));
				ok = false;
			}
			ok &= t != HP_CK_T_ERR;
		}
		return ok ? HP_T_LIST : HP_CK_T_ERR;
	}
	int probe = hp_ck_probe_of(c, n);
	if (probe < 0) {
		hp_ck_suggest s;
		hp_ck_suggest_init(&s, n);
		for (int i = 0; i < HP_PROBE_COUNT; i++)
			hp_ck_suggest_try(&s, hp_probes[i].name);
		hp_ck_suggest_try(&s, "split");
		hp_diag *g =
		    hp_ck_err(c, HP_DG_UNDEFINED, e->u.call.name_span, "unknown probe '%s'", n);
		hp_ck_suggest_help(g, &s);
		for (; a; a = a->next)
			hp_ck_expr(c, a, sc);
		return HP_CK_T_ERR;
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
			g = hp_ck_err(c, HP_DG_TYPE, e->span, "'%s' takes no argument", n);
			hp_diag_help(g, "write '%s', without parentheses", n);
		} else {
			g = hp_ck_err(c, HP_DG_TYPE, e->span,
			              "'%s' takes one argument (%s), not %u", n,
			              hp_ck_type_desc(pi->arg), e->u.call.nargs);
		}
		for (; a; a = a->next)
			hp_ck_expr(c, a, sc);
		return HP_CK_T_ERR;
	}
	if (want) {
		hp_type t = probe == HP_PROBE_USER_BY_UID && a->kind == HP_EX_UID
		                ? hp_ck_uid(c, a, sc)
		                : hp_ck_expr(c, a, sc);
		if (t != HP_CK_T_ERR && t != pi->arg) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_TYPE, a->span, "'%s' takes %s, not %s", pi->name,
			              hp_ck_type_desc(pi->arg), hp_ck_type_desc(t));
			if (pi->arg == HP_T_ROLE)
				hp_diag_help(g, "write %s(canary ROLE)", pi->name);
			else if (t == HP_T_USER && pi->arg == HP_T_STR)
				hp_diag_help(g, "a user's name is user(...).name");
			else if (probe == HP_PROBE_USER && t == HP_T_INT)
				hp_diag_help(g, "write user(uid N) to find a user by uid");
			return HP_CK_T_ERR;
		}
		if (t == HP_CK_T_ERR)
			return HP_CK_T_ERR;
		if (pi->part == HP_PART_DOC)
			hp_ck_doc_path(c, a);
		if (pi->arg == HP_T_ROLE && sc->kind == HP_CK_ROLE && a->kind == HP_EX_CANARY &&
		    a->u.canary.role == sc->role) {
			hp_diag *g = hp_ck_warn(
			    c, HP_DG_SCOPE, a->span, "'%s' as %s on %s's own canary means nothing",
			    pi->name, hp_role_names[sc->role], hp_role_names[sc->role]);
			hp_diag_help(g, "ask it as another role");
		}
	}
	return pi->result;
}

static hp_type check_field(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	hp_type bt = hp_ck_expr(c, e->u.field.base, sc);
	if (bt == HP_CK_T_ERR)
		return HP_CK_T_ERR;
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
		hp_ck_err(c, HP_DG_TYPE, e->u.field.name_span,
		          "'.%s' needs a user or a group, not %s", n, hp_ck_type_desc(bt));
		return HP_CK_T_ERR;
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
			case HP_FIELD_NAME:
			case HP_FIELD_HOME:
			case HP_FIELD_SHELL:
			case HP_FIELD_COUNT:
			default:
				return HP_T_STR;
			}
		}
	}
	hp_ck_suggest s;
	hp_ck_suggest_init(&s, n);
	const char *names[8];
	for (size_t i = 0; i < nf; i++) {
		names[i] = hp_field_names[fs[i]];
		hp_ck_suggest_try(&s, names[i]);
	}
	hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_FIELD, e->u.field.name_span, "%s has no field '%s'",
	                       hp_ck_type_desc(bt), n);
	if (s.best)
		hp_ck_suggest_help(g, &s);
	else
		hp_ck_list_help(g, bt == HP_T_USER ? "a user's fields are" : "a group's fields are",
		                names, nf);
	return HP_CK_T_ERR;
}

static hp_type check_binary(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	hp_op op = e->u.op.op;
	hp_expr *a = e->u.op.a, *b = e->u.op.b;
	if ((op == HP_OP_EQ || op == HP_OP_NE || op == HP_OP_IN) && a->kind == HP_EX_NAME &&
	    (a->u.name.name == c->w_mode || a->u.name.name == c->w_provider) &&
	    !hp_ck_is_variable(c, a->u.name.name)) {
		undefined_name(c, a, sc);
		return HP_CK_T_ERR;
	}
	hp_type ta = hp_ck_expr(c, a, sc);
	hp_type tb = hp_ck_expr(c, b, sc);
	if (ta == HP_CK_T_ERR || tb == HP_CK_T_ERR)
		return HP_CK_T_ERR;
	const char *on = hp_op_names[op];
	switch (op) {
	case HP_OP_AND:
		if (ta != HP_T_BOOL || tb != HP_T_BOOL) {
			hp_expr *bad = ta != HP_T_BOOL ? a : b;
			hp_ck_err(
			    c, HP_DG_TYPE, bad->span, "'and' takes bools, not %s",
			    hp_ck_type_desc(hp_ck_settled(bad, bad == a ? ta : tb, HP_T_LIST)));
			return HP_CK_T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_OR:
		if (ta == HP_T_BOOL && tb == HP_T_BOOL)
			return HP_T_BOOL;
		ta = hp_ck_settled(a, ta, tb);
		tb = hp_ck_settled(b, tb, ta);
		if (ta != tb) {
			hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span,
			                       "both sides of 'or' must have one type: %s or %s",
			                       hp_ck_type_desc(ta), hp_ck_type_desc(tb));
			hp_diag_help(
			    g, "'A or B' is B when A is absent (an unset variable, no such user)");
			return HP_CK_T_ERR;
		}
		return ta;
	case HP_OP_EQ:
	case HP_OP_NE:
		ta = hp_ck_settled(a, ta, tb);
		tb = hp_ck_settled(b, tb, ta);
		if (ta != tb) {
			hp_ck_err(c, HP_DG_TYPE, e->span, "'%s' compares %s with %s", on,
			          hp_ck_type_desc(ta), hp_ck_type_desc(tb));
			return HP_CK_T_ERR;
		}
		if (ta == HP_T_ROLE) {
			hp_ck_err(c, HP_DG_TYPE, e->span, "roles cannot be compared");
			return HP_CK_T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_LT:
	case HP_OP_GT:
	case HP_OP_LE:
	case HP_OP_GE: {
		ta = hp_ck_settled(a, ta, tb);
		tb = hp_ck_settled(b, tb, ta);
		bool sets =
		    (op == HP_OP_LE || op == HP_OP_GE) && (ta == HP_T_LIST || ta == HP_T_CAPS);
		if (ta != tb || (ta != HP_T_INT && !sets)) {
			hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span, "'%s' compares %s with %s",
			                       on, hp_ck_type_desc(ta), hp_ck_type_desc(tb));
			hp_diag_help(
			    g, "'<' and '>' compare ints; '<=' and '>=' also compare lists and "
			       "capability sets (subset, superset)");
			return HP_CK_T_ERR;
		}
		return HP_T_BOOL;
	}
	case HP_OP_IN:
		tb = hp_ck_settled(b, tb, HP_T_LIST);
		if (ta != HP_T_STR || tb != HP_T_LIST) {
			hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span,
			                       "'in' tests a string in a list, not %s in %s",
			                       hp_ck_type_desc(ta), hp_ck_type_desc(tb));
			if (tb == HP_T_CAPS)
				hp_diag_help(g, "for capabilities write SET >= { cap }");
			return HP_CK_T_ERR;
		}
		return HP_T_BOOL;
	case HP_OP_ADD:
		if ((ta == HP_T_STR && (tb == HP_T_STR || tb == HP_T_INT)) ||
		    (ta == HP_T_INT && tb == HP_T_STR))
			return HP_T_STR;
		{
			hp_diag *g =
			    hp_ck_err(c, HP_DG_TYPE, e->span, "'+' joins strings, not %s and %s",
			              hp_ck_type_desc(hp_ck_settled(a, ta, HP_T_LIST)),
			              hp_ck_type_desc(hp_ck_settled(b, tb, HP_T_LIST)));
			hp_diag_help(g, "an int is joined to a string as its decimal digits");
		}
		return HP_CK_T_ERR;
	case HP_OP_BAND:
		ta = hp_ck_settled(a, ta, tb);
		tb = hp_ck_settled(b, tb, ta);
		if (ta != tb || (ta != HP_T_INT && ta != HP_T_LIST && ta != HP_T_CAPS)) {
			hp_ck_err(c, HP_DG_TYPE, e->span,
			          "'&' takes two ints, lists or capability sets, not %s and %s",
			          hp_ck_type_desc(ta), hp_ck_type_desc(tb));
			return HP_CK_T_ERR;
		}
		return ta;
	case HP_OP_NOT:
	case HP_OP_EXISTS:
	case HP_OP_COUNT:
	default:
		return HP_CK_T_ERR;
	}
}

static hp_type check_expr_inner(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	switch (e->kind) {
	case HP_EX_ERROR:
		return HP_CK_T_ERR;
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
		return hp_ck_expr(c, e->u.inner, sc);
	case HP_EX_BINARY:
		return check_binary(c, e, sc);
	case HP_EX_UID: {
		hp_diag *g =
		    hp_ck_err(c, HP_DG_TYPE, e->span,
		              "'uid N' names a user only inside user(...) or as a role's identity");
		hp_diag_help(g, "write user(uid N) for the user with that uid, or an int alone");
		return HP_CK_T_ERR;
	}
	case HP_EX_CANARY: {
		int r = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, e->u.canary.name);
		if (r < 0) {
			hp_ck_suggest s;
			hp_ck_suggest_init(&s, e->u.canary.name);
			hp_ck_suggest_table(&s, hp_role_names, HP_ROLE_COUNT);
			hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_MODE, e->span, "unknown role '%s'",
			                       e->u.canary.name);
			if (s.best)
				hp_ck_suggest_help(g, &s);
			else
				hp_ck_list_help(g, "the roles are", hp_role_names, HP_ROLE_COUNT);
			return HP_CK_T_ERR;
		}
		e->u.canary.role = (hp_role)r;
		if (!c->role_decl[r]) {
			hp_diag *g = hp_ck_err(c, HP_DG_UNDEFINED, e->span,
			                       "role '%s' is not declared", e->u.canary.name);
			hp_diag_help(g, "a canary runs as a declared role: add 'role %s = ...'",
			             e->u.canary.name);
			return HP_CK_T_ERR;
		}
		return HP_T_ROLE;
	}
	case HP_EX_UNARY: {
		hp_type t = hp_ck_expr(c, e->u.op.a, sc);
		if (t == HP_CK_T_ERR)
			return HP_CK_T_ERR;
		if (e->u.op.op == HP_OP_NOT) {
			if (t != HP_T_BOOL) {
				hp_ck_err(c, HP_DG_TYPE, e->u.op.a->span,
				          "'not' takes a bool, not %s",
				          hp_ck_type_desc(hp_ck_settled(e->u.op.a, t, HP_T_LIST)));
				return HP_CK_T_ERR;
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
		hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->u.op.a->span,
		                       "'exists' takes a path or a user or group, not %s",
		                       hp_ck_type_desc(hp_ck_settled(e->u.op.a, t, HP_T_LIST)));
		hp_diag_help(g, "exists(PATH) asks for a file; exists user(NAME) tests a user");
		return HP_CK_T_ERR;
	}
	}
	return HP_CK_T_ERR;
}

hp_type hp_ck_uid(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	hp_type t = hp_ck_expr(c, e->u.inner, sc);
	if (t != HP_CK_T_ERR && t != HP_T_INT) {
		hp_ck_err(c, HP_DG_TYPE, e->u.inner->span, "'uid' takes an int, not %s",
		          hp_ck_type_desc(t));
		t = HP_CK_T_ERR;
	}
	if (t == HP_T_INT)
		e->type = HP_T_INT;
	return t;
}

hp_type hp_ck_expr(hp_checker *c, hp_expr *e, const hp_ck_scope *sc)
{
	hp_type t = check_expr_inner(c, e, sc);
	e->type = t == HP_CK_T_EMPTY ? HP_T_LIST : t;
	return t;
}

/* Check e where a value of type want is needed (HP_T_COUNT: any). */
hp_type hp_ck_expect(hp_checker *c, hp_expr *e, const hp_ck_scope *sc, hp_type want,
                     const char *what)
{
	hp_type t = hp_ck_expr(c, e, sc);
	if (t == HP_CK_T_EMPTY)
		t = hp_ck_settled(e, t, want == HP_T_CAPS ? HP_T_CAPS : HP_T_LIST);
	if (t == HP_CK_T_ERR || want == HP_T_COUNT || t == want)
		return t;
	hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span, "%s needs %s, not %s", what,
	                       hp_ck_type_desc(want), hp_ck_type_desc(t));
	if (want == HP_T_BOOL && t == HP_T_LIST)
		hp_diag_help(g, "test a list with 'in', '==' or '<='");
	else if (want == HP_T_BOOL && t == HP_T_USER)
		hp_diag_help(g, "test that a user exists with 'exists user(...)'");
	return HP_CK_T_ERR;
}
