/* verdict.c: rule results and provider conditions into decisions and a report. */
#include "check/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "check/decide.h"
#include "check/report.h"
#include "lib/textesc.h"
#include "probe/env_answer.h"
#include "vm/result.h"

bool hp_verdict_knows_provider(const hp_bc *bc, hp_provider p, hp_err *err)
{
	if (bc->provider_index[p] >= 0)
		return true;
	hp_err_set(err,
	           "policy '%s' says nothing about provider %s: add a `provider %s { ... }` block",
	           hp_bc_str(bc, bc->name), hp_provider_names[p], hp_provider_names[p]);
	return false;
}

static bool listed(const hp_strv *ids, const char *id)
{
	for (size_t i = 0; ids && i < ids->n; i++)
		if (strcmp(ids->v[i], id) == 0)
			return true;
	return false;
}

bool hp_verdict_check_rules(const hp_bc *bc, const hp_strv *ids, const char *flag, hp_err *err)
{
	for (size_t i = 0; ids && i < ids->n; i++) {
		bool found = false;
		for (uint32_t r = 0; r < bc->nrules && !found; r++)
			found = strcmp(hp_bc_str(bc, bc->rules[r].id), ids->v[i]) == 0;
		if (!found) {
			hp_err_set(err, "%s: policy '%s' has no rule '%s'", flag, hp_bc_str(bc, bc->name),
			           ids->v[i]);
			return false;
		}
	}
	return true;
}

/* --only and --skip: a rule left out is skipped, never a pass, so
 * leaving out a rule a split needs means no split. */
static void select_rules(const hp_verdict_opts *o, hp_judgement *j)
{
	size_t skipped = 0;
	for (size_t i = 0; i < j->nrules; i++) {
		hp_rule_outcome *r = &j->rules[i];
		const char *why = NULL;
		if (o->only && o->only->n && !listed(o->only, r->id))
			why = "not selected by --only: not checked, so not a pass";
		else if (listed(o->skip, r->id))
			why = "skipped with --skip: not checked, so not a pass";
		if (!why)
			continue;
		r->result = HP_RESULT_SKIPPED;
		r->evidence = why;
		r->waiver = NULL;
		skipped++;
	}
	if (skipped)
		hp_strv_pushf(&j->notes,
		              "%zu rule%s left out with --only or --skip: a rule that is not "
		              "checked never passes, so no mode it counts for is split",
		              skipped, skipped == 1 ? " was" : "s were");
}

/* envd's setting: the deciding call's, and every value a recording shows
 * that differs from it (facts never answer hangar's own settings, but a
 * sandbox saying its envd needs no token only forbids a split). A recorded
 * answer that is not known (unknown, skipped) could be any value, so it
 * forbids too; only absent, which is unset, adds nothing. */
static void envd_readings(const hp_run_view *run, const hp_verdict_opts *o, hp_judgement *j)
{
	size_t nf = run->facts ? hp_probe_facts_count(run->facts) : 0;
	j->envd = hp_xcalloc(nf + 1, sizeof *j->envd);
	j->envd[j->pp.nenvd++] =
	    (hp_envd_reading){o->envd_env, "the deciding call's environment", NULL};
	for (size_t i = 0; i < nf; i++) {
		hp_fact_view f;
		hp_probe_facts_get(run->facts, i, &f);
		if (f.probe != HP_PROBE_ENV || f.arg->state != HP_VAL_KNOWN ||
		    f.arg->type != HP_T_STR || strcmp(f.arg->u.s.p, HP_ENVD_SETTING) != 0 ||
		    f.answer->state == HP_VAL_ABSENT)
			continue;
		bool known = f.answer->state == HP_VAL_KNOWN && f.answer->type == HP_T_STR;
		if (known && o->envd_env && strcmp(o->envd_env, f.answer->u.s.p) == 0)
			continue;
		hp_buf w = {0};
		hp_esc_buf eb;
		hp_buf_printf(&w, "the facts, %s:%u, recorded in the sandbox", hp_escs(&eb, f.file),
		              f.line);
		hp_strv_push(&j->keep, w.data);
		hp_buf_free(&w);
		const char *where = j->keep.v[j->keep.n - 1];
		if (known) {
			hp_strv_push(&j->keep, f.answer->u.s.p);
			j->envd[j->pp.nenvd++] =
			    (hp_envd_reading){j->keep.v[j->keep.n - 1], where, NULL};
		} else {
			bool why = f.answer->state != HP_VAL_KNOWN && f.answer->u.reason;
			hp_strv_push(&j->keep, why ? f.answer->u.reason : "not a string");
			j->envd[j->pp.nenvd++] =
			    (hp_envd_reading){NULL, where, j->keep.v[j->keep.n - 1]};
		}
	}
}

void hp_judge(const hp_run_view *run, const hp_verdict_opts *o, hp_judgement *j)
{
	const hp_eval *ev = run->eval;
	const hp_bc *bc = ev->bc;
	memset(j, 0, sizeof *j);
	j->conds = hp_xcalloc(bc->nconds ? bc->nconds : 1, sizeof *j->conds);
	hp_eval_provider(ev, o->provider, &j->pp, j->conds, &j->keep);
	j->pp.unbuilt = hp_provider_unbuilt(o->provider);
	if (hp_provider_has_envd(o->provider))
		envd_readings(run, o, j);
	j->pp.envd = j->envd;
	j->nrules = bc->nrules;
	j->rules = hp_xcalloc(bc->nrules ? bc->nrules : 1, sizeof *j->rules);
	hp_eval_rule_outcomes(ev, j->rules, &j->keep);
	hp_waivers_apply(o->waivers, ev, o->provider, j->rules, &j->keep, &j->notes);
	select_rules(o, j);
	j->setting = hp_uid_split_resolve(o->uid_split_flag, o->uid_split_env,
	                                  j->pp.default_setting);
	j->pp.sidecar = o->sidecar_env;
	hp_decide(&j->pp, &j->setting, j->rules, j->nrules, run->offline, run->live_needed,
	          &j->d);
}

void hp_judgement_free(hp_judgement *j)
{
	hp_decisions_free(&j->d);
	hp_strv_free(&j->notes);
	hp_strv_free(&j->keep);
	free(j->envd);
	free(j->conds);
	free(j->rules);
	memset(j, 0, sizeof *j);
}

/* One answer phase one looked at, and where it came from: hangar's own
 * settings from the deciding call's environment (never from facts), other
 * answers from the line of the facts that gave it, the image or this
 * system. */
static void source_of(hp_buf *b, const hp_run_view *run, const hp_role_result *res,
                      const hp_fact *f, hp_pool *pool)
{
	hp_value arg, ans;
	bool has_arg = hp_role_result_value(res, f->arg, pool, &arg);
	bool has_ans = hp_role_result_value(res, f->answer, pool, &ans);
	if (f->probe == HP_PROBE_ENV && has_arg && arg.state == HP_VAL_KNOWN &&
	    arg.type == HP_T_STR && hp_probe_env_is_setting(arg.u.s.p)) {
		hp_buf_puts(b, arg.u.s.p);
		if (has_ans && ans.state == HP_VAL_KNOWN) {
			hp_buf_putc(b, '=');
			hp_value_format(b, &ans);
			hp_buf_puts(b, " (the deciding call's environment)");
		} else {
			hp_buf_puts(b, has_ans && ans.state == HP_VAL_ABSENT
			                   ? " (not set in the deciding call's environment)"
			                   : " (unknown in the deciding call's environment)");
		}
		return;
	}
	hp_buf_puts(b, hp_probes[f->probe].name);
	if (has_arg && hp_probes[f->probe].arg != HP_T_NONE) {
		hp_buf_putc(b, '(');
		hp_value_format(b, &arg);
		hp_buf_putc(b, ')');
	}
	if (run->facts) {
		size_t n = hp_probe_facts_count(run->facts);
		for (size_t i = 0; i < n; i++) {
			hp_fact_view v;
			hp_probe_facts_get(run->facts, i, &v);
			if (v.probe != (hp_probe_id)f->probe || (v.role != -1 && v.role != (int)f->role) ||
			    !has_arg || !hp_value_equal(v.arg, &arg))
				continue;
			/* the file as the operator named it, whole (an escaped
			 * name is cut at 64 bytes, and a checkout's path is longer) */
			hp_esc_buf eb;
			hp_buf_printf(b, " (%s:%u", v.file, v.line);
			if (v.container)
				hp_buf_printf(b, ", container %s", hp_escs(&eb, v.container));
			hp_buf_putc(b, ')');
			return;
		}
		hp_buf_puts(b, " (no fact answers it)");
	} else {
		hp_buf_puts(b, run->offline ? " (the image's files)" : " (this system)");
	}
}

static void sources_of(hp_buf *b, const hp_run_view *run, const hp_obs_range *seen,
                       hp_pool *pool)
{
	const hp_role_result *res = &run->eval->globals.facts;
	for (uint32_t i = 0; i < seen->count && seen->first + i < res->nobs; i++) {
		uint32_t k = res->obs[seen->first + i];
		if (k >= res->nfacts)
			continue;
		if (i)
			hp_buf_puts(b, ", then ");
		source_of(b, run, res, &res->facts[k], pool);
	}
}

/* The params a region reads, and those they read, in table order (a
 * param's code reads only params before it, so one pass backwards over
 * the table closes the set). */
static void params_read(const hp_bc *bc, hp_bc_region r, bool *read)
{
	for (uint32_t pc = r.start; pc < r.start + r.len && pc < bc->ncode; pc++)
		if (bc->code[pc].op == HP_I_LOAD_PARAM && bc->code[pc].c < bc->nparams)
			read[bc->code[pc].c] = true;
	for (uint32_t i = bc->nparams; i-- > 0;)
		if (read[i])
			for (uint32_t pc = bc->params[i].code.start;
			     pc < bc->params[i].code.start + bc->params[i].code.len && pc < bc->ncode;
			     pc++)
				if (bc->code[pc].op == HP_I_LOAD_PARAM && bc->code[pc].c < i)
					read[bc->code[pc].c] = true;
}

/* Where role r's user came from: the policy's role, each param its
 * identity reads (from --param, as the policy sets it, or from the
 * answers it looked at), and the answers the identity itself looked at;
 * with --container, the container's own user. */
static void user_from(hp_buf *b, const hp_run_view *run, const hp_verdict_opts *o, hp_role r,
                      hp_pool *pool)
{
	const hp_eval *ev = run->eval;
	const hp_bc *bc = ev->bc;
	const hp_globals *g = &ev->globals;
	if (o->container && (o->container_roles & (1u << r))) {
		hp_esc_buf eb;
		hp_buf_printf(b, "--container %s: the user the container runs as",
		              hp_escs(&eb, o->container));
		return;
	}
	hp_buf_printf(b, "the policy's role %s", hp_role_names[r]);
	bool *read = hp_xcalloc(bc->nparams ? bc->nparams : 1, sizeof *read);
	params_read(bc, bc->roles[bc->role_index[r]].identity, read);
	const char *sep = ": ";
	for (uint32_t i = 0; i < bc->nparams; i++) {
		if (!read[i])
			continue;
		const char *name = hp_bc_str(bc, bc->params[i].name);
		hp_buf_printf(b, "%s%s ", sep, name);
		sep = "; ";
		if (g->overridden && g->overridden[i])
			hp_buf_printf(b, "from --param %s", name);
		else if (!g->param_obs || !g->param_obs[i].count)
			hp_buf_puts(b, "as the policy sets it");
		else {
			hp_buf_puts(b, "from ");
			sources_of(b, run, &g->param_obs[i], pool);
		}
	}
	free(read);
	if (g->identity_obs[r].count) {
		hp_buf_printf(b, "%sthe user from ", sep);
		sources_of(b, run, &g->identity_obs[r], pool);
	}
}

/* The identity each role resolved to in phase one, and where it came from. */
static void resolve_users(const hp_run_view *run, const hp_verdict_opts *o,
                          hp_report_identity *users, hp_strv *keep)
{
	const hp_eval *ev = run->eval;
	const hp_bc *bc = ev->bc;
	hp_pool pool;
	hp_pool_init(&pool, 1u << 20); /* the answers decoded for the sentences */
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		hp_report_identity *u = &users[r];
		memset(u, 0, sizeof *u);
		if (bc->role_index[r] < 0)
			continue;
		u->declared = true;
		const hp_value *v = &ev->globals.identity[r];
		if (o->container && (o->container_roles & (1u << r))) {
			u->known = true;
			u->uid = o->container_uid;
		} else if (v->state == HP_VAL_KNOWN && v->type == HP_T_USER && v->u.user) {
			u->known = true;
			u->name = v->u.user->name.p;
			u->uid = v->u.user->uid;
		} else if (v->state == HP_VAL_KNOWN && v->type == HP_T_INT) {
			u->known = true;
			u->uid = v->u.i;
		} else {
			u->why = v->state == HP_VAL_KNOWN ? "not a user" : v->u.reason;
		}
		hp_buf b = {0};
		user_from(&b, run, o, (hp_role)r, &pool);
		hp_strv_push(keep, b.data);
		hp_buf_free(&b);
	}
	/* the strings move while keep grows: point at them once it is done */
	for (int r = 0, k = 0; r < HP_ROLE_COUNT; r++)
		if (users[r].declared)
			users[r].from = keep->v[k++];
	hp_pool_free(&pool);
}

int hp_verdict(const hp_run_view *run, const hp_verdict_opts *o, hp_buf *out)
{
	const hp_bc *bc = run->eval->bc;
	hp_judgement j;
	hp_judge(run, o, &j);
	/* The report shows a rule's evidence only when it did not pass, and
	 * only the rules that count for the provider in some mode (a rule
	 * `when provider != kubernetes` says nothing about a pod). */
	hp_report_rule *rules = hp_xcalloc(j.nrules ? j.nrules : 1, sizeof *rules);
	size_t nrules = 0;
	for (size_t i = 0; i < j.nrules; i++) {
		bool counts = false;
		for (int m = 0; m < HP_MODE_COUNT; m++)
			counts |= (j.rules[i].applies & HP_APPLIES_BIT(m, o->provider)) != 0;
		if (!counts)
			continue;
		rules[nrules++] = (hp_report_rule){j.rules[i].id,
		                            j.rules[i].title,
		                            j.rules[i].location,
		                            j.rules[i].remedy,
		                            j.rules[i].result,
		                            &j.rules[i].evidence,
		                            j.rules[i].result == HP_RESULT_PASS ? 0 : 1,
		                            j.rules[i].waiver};
	}
	hp_strv notes = {0};
	if (run->notes)
		hp_strv_extend(&notes, run->notes);
	hp_strv_extend(&notes, &j.notes);
	hp_report rep = {.policy = hp_bc_str(bc, bc->name),
	                 .policy_version = bc->version,
	                 .policy_checksum = bc->checksum,
	                 .policy_source = o->policy_source,
	                 .location_base = o->location_base,
	                 .provider_source = o->provider_source,
	                 .provider = o->provider,
	                 .setting = j.setting,
	                 .mode = o->mode,
	                 .decisions = &j.d,
	                 .rules = rules,
	                 .unbuilt = j.pp.unbuilt,
	                 .nrules = nrules,
	                 .offline = run->offline,
	                 .notes = &notes,
	                 .policy_path = bc->path};
	hp_strv keep = {0};
	resolve_users(run, o, rep.users, &keep);
	switch (o->format) {
	case HP_FMT_JSON:
		hp_report_json(&rep, out);
		break;
	case HP_FMT_JUNIT:
		hp_report_junit(&rep, out);
		break;
	case HP_FMT_SARIF:
		hp_report_sarif(&rep, out);
		break;
	case HP_FMT_TEXT:
	default:
		hp_report_text(&rep, o->colour, out);
		break;
	}
	hp_strv_free(&notes);
	int status = hp_decision_exit[j.d.decision[o->mode]];
	hp_judgement_free(&j);
	hp_strv_free(&keep);
	free(rules);
	return status;
}
