/* dump.c: the parse tree as S-expressions without positions (fmt.h), so
 * that two texts can be compared for meaning; integers by value. */
#include "fmt.h"

static void dexpr(hp_buf *b, const hp_expr *e)
{
	switch (e->kind) {
	case HP_EX_ERROR:
		hp_buf_puts(b, "(error)");
		return;
	case HP_EX_BOOL:
		hp_buf_puts(b, e->u.b ? "true" : "false");
		return;
	case HP_EX_INT:
		hp_buf_printf(b, "%lld", (long long)e->u.i);
		return;
	case HP_EX_STR:
		hp_buf_json_string(b, e->u.str.s);
		return;
	case HP_EX_NAME:
		hp_buf_puts(b, e->u.name.name);
		return;
	case HP_EX_SET:
		hp_buf_puts(b, "(set");
		for (const hp_expr *it = e->u.set.items; it; it = it->next) {
			hp_buf_putc(b, ' ');
			dexpr(b, it);
		}
		hp_buf_putc(b, ')');
		return;
	case HP_EX_CALL:
		hp_buf_printf(b, "(call %s", e->u.call.name);
		for (const hp_expr *a = e->u.call.args; a; a = a->next) {
			hp_buf_putc(b, ' ');
			dexpr(b, a);
		}
		hp_buf_putc(b, ')');
		return;
	case HP_EX_FIELD:
		hp_buf_puts(b, "(field ");
		dexpr(b, e->u.field.base);
		hp_buf_printf(b, " %s)", e->u.field.name);
		return;
	case HP_EX_UNARY:
		hp_buf_printf(b, "(%s ", hp_op_names[e->u.op.op]);
		dexpr(b, e->u.op.a);
		hp_buf_putc(b, ')');
		return;
	case HP_EX_BINARY:
		hp_buf_printf(b, "(%s ", hp_op_names[e->u.op.op]);
		dexpr(b, e->u.op.a);
		hp_buf_putc(b, ' ');
		dexpr(b, e->u.op.b);
		hp_buf_putc(b, ')');
		return;
	case HP_EX_UID:
		hp_buf_puts(b, "(uid ");
		dexpr(b, e->u.inner);
		hp_buf_putc(b, ')');
		return;
	case HP_EX_CANARY:
		hp_buf_printf(b, "(canary %s)", e->u.canary.name);
		return;
	case HP_EX_PAREN:
		hp_buf_puts(b, "(paren ");
		dexpr(b, e->u.inner);
		hp_buf_putc(b, ')');
		return;
	}
}

static void dstmts(hp_buf *b, const hp_stmt *s, int depth)
{
	for (; s; s = s->next) {
		for (int i = 0; i < depth; i++)
			hp_buf_puts(b, "  ");
		if (s->kind == HP_ST_FOR) {
			static const char *const empty_clause[] = {
			    [HP_EMPTY_UNSAID] = "", [HP_EMPTY_ALLOW] = " allow-empty",
			    [HP_EMPTY_NEVER] = " never-empty"};
			hp_buf_printf(b, "(for %s max %u%s%s ", s->var, s->max,
			              s->max_given ? "!" : "", empty_clause[s->empty]);
			dexpr(b, s->expr);
			hp_buf_puts(b, "\n");
			dstmts(b, s->body, depth + 1);
			for (int i = 0; i < depth; i++)
				hp_buf_puts(b, "  ");
			hp_buf_puts(b, ")\n");
			continue;
		}
		hp_buf_puts(b, s->kind == HP_ST_REQUIRE ? "(require " : "(forbid ");
		dexpr(b, s->expr);
		hp_buf_puts(b, ")\n");
	}
}

void hp_ast_dump(const hp_src *src, hp_buf *b)
{
	static const char *const kinds[] = {"policy", "include",  "param", "role",
	                                    "rule",   "provider", "error"};
	for (const hp_decl *d = src->decls; d; d = d->next) {
		hp_buf_printf(b, "(%s ", kinds[d->kind]);
		hp_buf_json_string(b, d->name ? d->name : "");
		switch (d->kind) {
		case HP_D_POLICY:
			hp_buf_printf(b, " %lld", (long long)d->u.policy.version);
			break;
		case HP_D_PARAM:
			hp_buf_putc(b, ' ');
			dexpr(b, d->u.param.expr);
			break;
		case HP_D_ROLE:
			for (const hp_role_item *it = d->u.role.items; it; it = it->next) {
				hp_buf_printf(b, " (item %d", (int)it->kind);
				if (it->expr) {
					hp_buf_putc(b, ' ');
					dexpr(b, it->expr);
				}
				hp_buf_putc(b, ')');
			}
			break;
		case HP_D_RULE:
			hp_buf_putc(b, ' ');
			hp_buf_json_string(b, d->u.rule.title);
			if (d->u.rule.when) {
				hp_buf_puts(b, " (when ");
				dexpr(b, d->u.rule.when);
				hp_buf_putc(b, ')');
			}
			if (d->u.rule.remedy) {
				hp_buf_puts(b, " (remedy ");
				hp_buf_json_string(b, d->u.rule.remedy);
				hp_buf_putc(b, ')');
			}
			hp_buf_putc(b, '\n');
			for (const hp_block *bl = d->u.rule.blocks; bl; bl = bl->next) {
				hp_buf_printf(b, " (as %s\n", bl->role_name);
				dstmts(b, bl->body, 2);
				hp_buf_puts(b, " )\n");
			}
			break;
		case HP_D_PROVIDER:
			for (const hp_prov_item *it = d->u.provider.items; it; it = it->next) {
				hp_buf_printf(b, "\n (item %d", (int)it->kind);
				if (it->setting_name)
					hp_buf_printf(b, " %s", it->setting_name);
				if (it->expr) {
					hp_buf_putc(b, ' ');
					dexpr(b, it->expr);
				}
				if (it->because) {
					hp_buf_putc(b, ' ');
					hp_buf_json_string(b, it->because);
				}
				hp_buf_putc(b, ')');
			}
			break;
		case HP_D_INCLUDE:
		case HP_D_ERROR:
		default:
			break;
		}
		hp_buf_puts(b, ")\n");
	}
}
