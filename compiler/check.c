/* check.c: resolves names and checks types and scopes over the whole
 * include-expanded program, filling ast.h's checked fields: declarations,
 * rules and their statements, roles, providers, unused params. Probes,
 * types, roles, modes, providers and settings come from the runtime's .def
 * tables (domain.h) and capability names from libcap, never from a list
 * here. Recursion follows expression and statement nesting, which the
 * parser bounds (HP_MAX_EXPR_DEPTH, HP_MAX_BRACKETS). */
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "check_int.h"

/* --- statements and rules ------------------------------------------------- */

/* A loop over a list param that says nothing of an empty list: any list
 * param can be emptied by the caller (`check --param NAME=`), and then the
 * loop checks nothing. It is unknown then (never a pass), but the author
 * should say which is meant: `never empty` or `allow empty`. */
static void warn_empty_loop(hp_checker *c, const hp_stmt *s)
{
	const hp_decl *ps[8];
	size_t n = hp_expr_params(s->expr, ps, sizeof ps / sizeof ps[0]);
	for (size_t i = 0; i < n; i++) {
		if (!ps[i]->u.param.expr || ps[i]->u.param.expr->type != HP_T_LIST)
			continue;
		const hp_expr *def = ps[i]->u.param.expr;
		bool none = def->kind == HP_EX_SET && def->u.set.n == 0;
		hp_diag *g = hp_ck_warn(
		    c, HP_DG_EMPTY_LOOP, s->expr->span,
		    "'for %s' goes over param '%s', which %s (`--param %s=` empties it): the "
		    "loop then checks nothing, and its assertions are unknown",
		    s->var, ps[i]->name, none ? "is empty by default" : "can be empty",
		    ps[i]->name);
		hp_diag_help(g, "say what an empty list means: `never empty` (unknown, never a "
		                "pass) or `allow empty` (the loop holds) before the '{'");
		return;
	}
}

static void check_stmts(hp_checker *c, hp_stmt *s, const hp_ck_scope *sc, uint32_t loop_depth)
{
	for (; s; s = s->next) {
		if (s->kind == HP_ST_REQUIRE || s->kind == HP_ST_FORBID) {
			c->rule_asserts = true;
			hp_ck_expect(c, s->expr, sc, HP_T_BOOL,
			             s->kind == HP_ST_REQUIRE ? "'require'" : "'forbid'");
			continue;
		}
		hp_type t = hp_ck_expr(c, s->expr, sc);
		if (t == HP_CK_T_EMPTY)
			t = hp_ck_settled(s->expr, t, HP_T_LIST);
		if (t != HP_CK_T_ERR && t != HP_T_LIST) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_TYPE, s->expr->span,
			              "'for' goes over a list, not %s", hp_ck_type_desc(t));
			if (t == HP_T_STR)
				hp_diag_help(
				    g, "split a string into a list with split(text, separator)");
			else if (t == HP_T_CAPS)
				hp_diag_help(g, "capability sets are compared, not iterated");
		}
		if (t == HP_T_LIST && s->empty == HP_EMPTY_UNSAID)
			warn_empty_loop(c, s);
		hp_decl *pd = hp_namemap_get(&c->params, s->var);
		hp_stmt *outer = hp_ck_find_loop(c, s->var);
		if (outer || pd) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_DUPLICATE, s->var_span, "'%s' is already %s", s->var,
			              outer ? "a loop variable" : "a param");
			hp_ck_note(c, g, outer ? outer->var_span : pd->name_span, "declared here");
			hp_diag_help(g, "give the loop variable another name");
		} else if (hp_ck_probe_of(c, s->var) >= 0) {
			hp_ck_err(c, HP_DG_DUPLICATE, s->var_span, "'%s' is the name of a probe",
			          s->var);
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

static void check_rule(hp_checker *c, hp_decl *r)
{
	hp_applies applies = HP_APPLIES_ALL;
	if (r->u.rule.when) {
		hp_applies m;
		if (hp_ck_fold_when(c, r->u.rule.when, &m)) {
			applies = m;
			if (m == 0) {
				hp_diag *g = hp_ck_warn(
				    c, HP_DG_SCOPE, r->u.rule.when->span,
				    "this when never holds: the rule counts for no turn");
				hp_diag_help(g, "check the modes and providers it names");
			}
		}
	}
	r->u.rule.applies = applies;
	c->rule_loops = 0;
	c->rule_asserts = false;
	c->rule_broken = r->broken;
	hp_block *seen[HP_ROLE_COUNT] = {0};
	for (hp_block *b = r->u.rule.blocks; b; b = b->next) {
		int role = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, b->role_name);
		if (role < 0) {
			hp_ck_suggest s;
			hp_ck_suggest_init(&s, b->role_name);
			hp_ck_suggest_table(&s, hp_role_names, HP_ROLE_COUNT);
			hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_MODE, b->role_span,
			                       "unknown role '%s'", b->role_name);
			if (s.best)
				hp_ck_suggest_help(g, &s);
			else
				hp_ck_list_help(g, "the roles are", hp_role_names, HP_ROLE_COUNT);
			hp_ck_scope usc = {HP_CK_ROLE, HP_ROLE_COUNT, 0};
			c->nloops = 0;
			check_stmts(c, b->body, &usc, 0);
			continue;
		}
		b->role = (hp_role)role;
		if (seen[role]) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_DUPLICATE, b->role_span,
			              "a second 'as %s' block in rule '%s'", b->role_name, r->name);
			hp_ck_note(c, g, seen[role]->role_span, "the first one is here");
			hp_diag_help(g, "put all of %s's assertions in one block", b->role_name);
		}
		seen[role] = b;
		if (!c->role_decl[role]) {
			hp_diag *g = hp_ck_err(c, HP_DG_UNDEFINED, b->role_span,
			                       "role '%s' is not declared", b->role_name);
			hp_diag_help(g, "declare it: role %s = ...", b->role_name);
		}
		r->u.rule.roles |= 1u << role;
		hp_ck_scope sc = {HP_CK_ROLE, (hp_role)role, 0};
		c->nloops = 0;
		check_stmts(c, b->body, &sc, 0);
	}
	r->u.rule.nloops = c->rule_loops;
	if (!c->rule_asserts && !r->broken) {
		hp_diag *g = hp_ck_err(c, HP_DG_EMPTY_RULE, r->name_span,
		                       "rule '%s' has no assertion", r->name);
		hp_diag_help(g, "add 'as ROLE { require ... }' or 'forbid ...' to the rule");
	}
}

static void check_role(hp_checker *c, hp_decl *d)
{
	hp_role_item *identity = NULL, *caps = NULL, *nnp = NULL;
	for (hp_role_item *it = d->u.role.items; it; it = it->next) {
		hp_role_item **slot = it->kind == HP_RI_IDENTITY       ? &identity
		                      : it->kind == HP_RI_NO_NEW_PRIVS ? &nnp
		                                                       : &caps;
		if (*slot) {
			hp_diag *g = hp_ck_err(c, HP_DG_DUPLICATE, it->span,
			                       "role '%s' says this twice", d->name);
			hp_ck_note(c, g, (*slot)->span, "it is already said here");
			continue;
		}
		*slot = it;
	}
	if (!identity) {
		hp_diag *g = hp_ck_err(c, HP_DG_STRUCTURE, d->name_span,
		                       "role '%s' has no identity", d->name);
		hp_diag_help(g, "add 'uid N' or 'user(NAME)'");
	} else {
		hp_ck_scope sc = {HP_CK_IDENTITY, HP_ROLE_ROOT, (uint32_t)-1};
		hp_expr *e = identity->expr;
		hp_type t = e->kind == HP_EX_UID ? hp_ck_uid(c, e, &sc) : hp_ck_expr(c, e, &sc);
		if (t != HP_CK_T_ERR && e->kind != HP_EX_UID && t != HP_T_USER) {
			hp_diag *g =
			    hp_ck_err(c, HP_DG_TYPE, e->span, "a role's identity is a user, not %s",
			              hp_ck_type_desc(t));
			hp_diag_help(g, "write uid N or user(NAME)");
		}
		d->u.role.identity = e;
	}
	if (caps && caps->kind == HP_RI_KEEP_CAPS) {
		hp_ck_scope sc = {HP_CK_IDENTITY, HP_ROLE_ROOT, (uint32_t)-1};
		hp_type t = hp_ck_expect(c, caps->expr, &sc, HP_T_CAPS, "'keep caps'");
		d->u.role.keep_caps = true;
		if (t == HP_T_CAPS)
			d->u.role.caps = caps->expr->u.set.caps;
	}
	d->u.role.no_new_privs = nnp != NULL;
}

static void check_provider(hp_checker *c, hp_decl *d)
{
	hp_prov_item *def = NULL;
	d->u.provider.setting = HP_SETTING_AUTO;
	for (hp_prov_item *it = d->u.provider.items; it; it = it->next) {
		hp_ck_scope sc = {HP_CK_PROVIDER, HP_ROLE_ROOT, (uint32_t)-1};
		if (it->kind == HP_PI_DEFAULT) {
			if (def) {
				hp_diag *g = hp_ck_err(
				    c, HP_DG_DUPLICATE, it->span,
				    "provider '%s' has a second uid_split default", d->name);
				hp_ck_note(c, g, def->span, "the first one is here");
				continue;
			}
			def = it;
			int s =
			    hp_lookup_name(hp_setting_names, HP_SETTING_COUNT, it->setting_name);
			if (s < 0) {
				hp_ck_suggest sg;
				hp_ck_suggest_init(&sg, it->setting_name);
				hp_ck_suggest_table(&sg, hp_setting_names, HP_SETTING_COUNT);
				hp_diag *g =
				    hp_ck_err(c, HP_DG_UNKNOWN_MODE, it->setting_span,
				              "unknown uid_split setting '%s'", it->setting_name);
				if (sg.best)
					hp_ck_suggest_help(g, &sg);
				else
					hp_ck_list_help(g, "the settings are", hp_setting_names,
					                HP_SETTING_COUNT);
				continue;
			}
			it->setting = (hp_setting)s;
			d->u.provider.setting = (hp_setting)s;
			continue;
		}
		hp_ck_expect(c, it->expr, &sc, HP_T_BOOL,
		             it->kind == HP_PI_NEEDS ? "'split needs'" : "'never split when'");
	}
}

/* --- declarations --------------------------------------------------------- */

static void declare(hp_checker *c, hp_decl **order, size_t n)
{
	uint32_t nparams = 0, nrules = 0;
	for (size_t i = 0; i < n; i++) {
		hp_decl *d = order[i];
		const hp_src *s = hp_ck_src_of(c, d->span);
		switch (d->kind) {
		case HP_D_POLICY:
			if (s && s->decls != d) {
				hp_diag *g = hp_ck_err(
				    c, HP_DG_STRUCTURE, d->span,
				    "the policy header must be the first declaration of its file");
				hp_diag_help(g, "move it to the top");
			}
			if (d->u.policy.version < 1 || d->u.policy.version > INT32_MAX)
				hp_ck_err(c, HP_DG_INT_RANGE, d->u.policy.version_span,
				          "a policy version is between 1 and %d", INT32_MAX);
			if (s && s->index == 0 && !c->policy)
				c->policy = d;
			break;
		case HP_D_PARAM: {
			hp_decl *old = hp_namemap_put(&c->params, d->name, d);
			if (old) {
				hp_namemap_put(&c->params, d->name, old);
				hp_diag *g = hp_ck_err(c, HP_DG_DUPLICATE, d->name_span,
				                       "param '%s' is declared twice", d->name);
				hp_ck_note(c, g, old->name_span, "the first declaration is here");
				d->kind = HP_D_ERROR;
				break;
			}
			if (hp_ck_probe_of(c, d->name) >= 0 || strcmp(d->name, "mode") == 0 ||
			    strcmp(d->name, "split") == 0) {
				hp_diag *g = hp_ck_err(
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
				hp_ck_suggest sg;
				hp_ck_suggest_init(&sg, d->name);
				hp_ck_suggest_table(&sg, hp_role_names, HP_ROLE_COUNT);
				hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_MODE, d->name_span,
				                       "unknown role '%s'", d->name);
				if (sg.best)
					hp_ck_suggest_help(g, &sg);
				else
					hp_ck_list_help(g, "the roles are", hp_role_names,
					                HP_ROLE_COUNT);
				d->kind = HP_D_ERROR;
				break;
			}
			if (c->role_decl[r]) {
				hp_diag *g = hp_ck_err(c, HP_DG_DUPLICATE, d->name_span,
				                       "role '%s' is declared twice", d->name);
				hp_ck_note(c, g, c->role_decl[r]->name_span,
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
				hp_diag *g = hp_ck_err(c, HP_DG_DUPLICATE, d->name_span,
				                       "rule '%s' is declared twice", d->name);
				hp_ck_note(c, g, old->name_span, "the first declaration is here");
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
				hp_ck_suggest sg;
				hp_ck_suggest_init(&sg, d->name);
				hp_ck_suggest_table(&sg, hp_provider_names, HP_PROVIDER_COUNT);
				hp_diag *g = hp_ck_err(c, HP_DG_UNKNOWN_PROVIDER, d->name_span,
				                       "unknown provider '%s'", d->name);
				if (sg.best)
					hp_ck_suggest_help(g, &sg);
				else
					hp_ck_list_help(g, "the providers are", hp_provider_names,
					                HP_PROVIDER_COUNT);
				d->kind = HP_D_ERROR;
				break;
			}
			if (c->prov_decl[pv]) {
				hp_diag *g = hp_ck_err(c, HP_DG_DUPLICATE, d->name_span,
				                       "provider '%s' is declared twice", d->name);
				hp_ck_note(c, g, c->prov_decl[pv]->name_span,
				           "the first declaration is here");
				d->kind = HP_D_ERROR;
				break;
			}
			d->u.provider.provider = (hp_provider)pv;
			c->prov_decl[pv] = d;
			break;
		}
		case HP_D_INCLUDE:
		case HP_D_ERROR:
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
	hp_checker c;
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
		hp_ck_scope sc = {HP_CK_PARAM, HP_ROLE_ROOT, i};
		hp_type t = hp_ck_expr(&c, pd->u.param.expr, &sc);
		if (t == HP_CK_T_EMPTY)
			hp_ck_settled(pd->u.param.expr, t, HP_T_LIST);
		else if (t == HP_T_ROLE)
			hp_ck_err(&c, HP_DG_TYPE, pd->u.param.expr->span,
			          "a param cannot hold a role");
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
			hp_diag *g = hp_ck_warn(&c, HP_DG_UNUSED, pd->name_span,
			                        "param '%s' is never used", pd->name);
			hp_diag_help(g, "use it in a rule or remove it");
		}
	}
	/* hp_decide splits no mode that no rule counts for: say so before a run
	 * does. A file of provider blocks alone is a part that a policy includes
	 * (policies/docker.hpol), not a policy on its own. */
	bool declares = p->nparams > 0;
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		declares = declares || c.role_decl[r];
	if (c.policy && p->nrules == 0 && declares && d->nerrors == errors_before) {
		hp_diag *g = hp_ck_warn(&c, HP_DG_CHECKS_NOTHING, c.policy->name_span,
		                        "policy '%s' has no rules: it splits no turn", p->name);
		hp_diag_help(g, "add a rule for each way the driver could be reached");
	}
	p->ok = d->nerrors == errors_before;
	hp_namemap_free(&c.params);
	hp_namemap_free(&c.rules);
	hp_namemap_free(&c.probes);
}
