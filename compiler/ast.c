/* ast.c: the spelling tables declared in ast.h, and the params an
 * expression reads. */
#include "ast.h"

const char *const hp_op_names[HP_OP_COUNT] = {
    [HP_OP_OR] = "or",         [HP_OP_AND] = "and", [HP_OP_EQ] = "==",  [HP_OP_NE] = "!=",
    [HP_OP_LT] = "<",          [HP_OP_LE] = "<=",   [HP_OP_GT] = ">",   [HP_OP_GE] = ">=",
    [HP_OP_IN] = "in",         [HP_OP_ADD] = "+",   [HP_OP_BAND] = "&", [HP_OP_NOT] = "not",
    [HP_OP_EXISTS] = "exists",
};

const char *const hp_field_names[HP_FIELD_COUNT] = {
    [HP_FIELD_NAME] = "name",       [HP_FIELD_UID] = "uid",     [HP_FIELD_GID] = "gid",
    [HP_FIELD_HOME] = "home",       [HP_FIELD_SHELL] = "shell", [HP_FIELD_GROUPS] = "groups",
    [HP_FIELD_MEMBERS] = "members",
};

/* Recursion follows the expression's nesting, which the parser bounds
 * (HP_MAX_EXPR_DEPTH). */
static void params_of(const hp_expr *e, const hp_decl **out, size_t cap, size_t *n)
{
	if (!e)
		return;
	switch (e->kind) {
	case HP_EX_NAME:
		if (e->u.name.ref == HP_REF_PARAM && e->u.name.param) {
			for (size_t i = 0; i < *n; i++)
				if (out[i] == e->u.name.param)
					return;
			if (*n < cap)
				out[(*n)++] = e->u.name.param;
		}
		return;
	case HP_EX_SET:
		for (const hp_expr *it = e->u.set.items; it; it = it->next)
			params_of(it, out, cap, n);
		return;
	case HP_EX_CALL:
		for (const hp_expr *it = e->u.call.args; it; it = it->next)
			params_of(it, out, cap, n);
		return;
	case HP_EX_FIELD:
		params_of(e->u.field.base, out, cap, n);
		return;
	case HP_EX_UNARY:
	case HP_EX_BINARY:
		params_of(e->u.op.a, out, cap, n);
		params_of(e->u.op.b, out, cap, n);
		return;
	case HP_EX_UID:
	case HP_EX_PAREN:
		params_of(e->u.inner, out, cap, n);
		return;
	case HP_EX_ERROR:
	case HP_EX_BOOL:
	case HP_EX_INT:
	case HP_EX_STR:
	case HP_EX_CANARY:
	default:
		return;
	}
}

size_t hp_expr_params(const hp_expr *e, const hp_decl **out, size_t cap)
{
	size_t n = 0;
	params_of(e, out, cap, &n);
	return n;
}
