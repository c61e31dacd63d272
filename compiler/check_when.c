/* check_when.c: a rule's `when`, folded at compile time into the set of
 * (turn mode, provider) pairs the rule counts for. Only mode and provider
 * may be tested; anything else is reported. */
#include "check_int.h"

/* --- when: folded to a (mode, provider) mask ------------------------------ */

static int when_const(hp_checker *c, hp_expr *e, bool mode)
{
	while (e->kind == HP_EX_PAREN)
		e = e->u.inner;
	if (e->kind != HP_EX_NAME) {
		hp_diag *g = hp_ck_err(c, HP_DG_TYPE, e->span, "expected a %s name",
		                       mode ? "turn mode" : "provider");
		hp_ck_list_help(g, mode ? "the modes are" : "the providers are",
		                mode ? hp_mode_names : hp_provider_names,
		                mode ? HP_MODE_COUNT : HP_PROVIDER_COUNT);
		return -1;
	}
	const char *const *t = mode ? hp_mode_names : hp_provider_names;
	size_t n = mode ? HP_MODE_COUNT : HP_PROVIDER_COUNT;
	int i = hp_lookup_name(t, n, e->u.name.name);
	if (i < 0) {
		hp_ck_suggest s;
		hp_ck_suggest_init(&s, e->u.name.name);
		hp_ck_suggest_table(&s, t, n);
		hp_diag *g =
		    hp_ck_err(c, mode ? HP_DG_UNKNOWN_MODE : HP_DG_UNKNOWN_PROVIDER, e->span,
		              "unknown %s '%s'", mode ? "turn mode" : "provider", e->u.name.name);
		if (s.best)
			hp_ck_suggest_help(g, &s);
		else
			hp_ck_list_help(g, mode ? "the modes are" : "the providers are", t, n);
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
static int when_word(hp_checker *c, hp_expr *e)
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

bool hp_ck_fold_when(hp_checker *c, hp_expr *e, hp_applies *out)
{
	switch (e->kind) {
	case HP_EX_PAREN:
		return hp_ck_fold_when(c, e->u.inner, out);
	case HP_EX_BOOL:
		*out = e->u.b ? HP_APPLIES_ALL : 0;
		return true;
	case HP_EX_UNARY:
		if (e->u.op.op == HP_OP_NOT) {
			hp_applies m;
			if (!hp_ck_fold_when(c, e->u.op.a, &m))
				return false;
			*out = HP_APPLIES_ALL & ~m;
			return true;
		}
		break;
	case HP_EX_BINARY: {
		hp_op op = e->u.op.op;
		if (op == HP_OP_AND || op == HP_OP_OR) {
			hp_applies a, b;
			bool oa = hp_ck_fold_when(c, e->u.op.a, &a);
			bool ob = hp_ck_fold_when(c, e->u.op.b, &b);
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
					hp_diag *g = hp_ck_err(c, HP_DG_TYPE, v->span,
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
	case HP_EX_ERROR:
	case HP_EX_INT:
	case HP_EX_STR:
	case HP_EX_SET:
	case HP_EX_NAME:
	case HP_EX_CALL:
	case HP_EX_FIELD:
	case HP_EX_UID:
	case HP_EX_CANARY:
	default:
		break;
	}
	hp_diag *g =
	    hp_ck_err(c, HP_DG_TYPE, e->span, "a rule's when can only test mode and provider");
	hp_diag_help(g, "write e.g. when mode in { ask, deny-risky } and provider != e2b");
	return false;
}
