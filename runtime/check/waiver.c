/* waiver.c: waiver files read, checked and applied (waiver.h). */
#include "check/waiver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/ytree.h"
#include "lib/pool.h"
#include "model/domain.h"

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

bool hp_date_parse(const char *s, int64_t *day)
{
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (m == 2 && d == 29 && !leap)
		return false;
	*day = days_from_civil(y, (unsigned)m, (unsigned)d);
	return true;
}

bool hp_today(int64_t *day, hp_err *err)
{
	const char *t = getenv("HANGAR_POLICY_TODAY");
	if (t) {
		if (!hp_date_parse(t, day)) {
			hp_err_set(err, "HANGAR_POLICY_TODAY '%s' is not a date YYYY-MM-DD", t);
			return false;
		}
		return true;
	}
	*day = (int64_t)(time(NULL) / 86400);
	return true;
}

static void date_text(int64_t day, char out[11])
{
	time_t t = (time_t)(day * 86400);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}

static const char *const file_keys[] = {"version", "waivers", NULL};
static const char *const waiver_keys[] = {"rule",          "provider", "arg",
                                          "justification", "expires",  NULL};

static bool text_field(const hp_ytree *t, const hp_ynode *m, const char *key, bool required,
                       char **out, hp_err *err)
{
	const hp_ynode *n = hp_ymap_get(m, key);
	*out = NULL;
	if (!n) {
		if (required)
			return hp_yfail(t, m, err, "a waiver needs '%s'", key);
		return true;
	}
	if (n->kind != HP_Y_SCALAR)
		return hp_yfail(t, n, err, "%s must be a scalar, not %s", key, hp_ykind_name(n));
	if (!n->s[0])
		return hp_yfail(t, n, err, "%s is empty", key);
	*out = hp_xstrdup(n->s);
	return true;
}

static bool read_waivers(hp_waivers *w, const hp_ytree *t, int64_t today, hp_err *err)
{
	const hp_ynode *root = hp_ytree_root(t);
	if (!root || root->kind != HP_Y_MAP)
		return hp_yfail(t, root, err,
		                "a waiver file is a mapping with a 'waivers' list (docs/waivers.md)");
	if (!hp_ymap_check_keys(t, root, file_keys, err))
		return false;
	const hp_ynode *v = hp_ymap_get(root, "version");
	if (v && (v->kind != HP_Y_SCALAR || strcmp(v->s, "1") != 0))
		return hp_yfail(t, v, err, "version must be 1");
	const hp_ynode *list = hp_ymap_get(root, "waivers");
	if (!list)
		return hp_yfail(t, root, err, "no 'waivers' list");
	if (list->kind != HP_Y_SEQ)
		return hp_yfail(t, list, err, "waivers must be a list, not %s", hp_ykind_name(list));
	for (uint32_t i = 0; i < list->n; i++) {
		const hp_ynode *m = list->kids[i];
		if (m->kind != HP_Y_MAP)
			return hp_yfail(t, m, err, "a waiver must be a mapping, not %s",
			                hp_ykind_name(m));
		if (!hp_ymap_check_keys(t, m, waiver_keys, err))
			return false;
		hp_waiver x;
		memset(&x, 0, sizeof x);
		x.provider = -1;
		char *prov = NULL, *exp = NULL;
		bool ok = text_field(t, m, "rule", true, &x.rule, err) &&
		          text_field(t, m, "provider", false, &prov, err) &&
		          text_field(t, m, "arg", false, &x.arg, err) &&
		          text_field(t, m, "justification", true, &x.justification, err) &&
		          text_field(t, m, "expires", true, &exp, err);
		if (ok && prov) {
			x.provider = hp_lookup_name(hp_provider_names, HP_PROVIDER_COUNT, prov);
			if (x.provider < 0)
				ok = hp_yfail(t, hp_ymap_get(m, "provider"), err,
				              "the provider '%s' is not docker, kubernetes, e2b or "
				              "cubesandbox",
				              prov);
		}
		if (ok && !hp_date_parse(exp, &x.expires_day))
			ok = hp_yfail(t, hp_ymap_get(m, "expires"), err,
			              "expires '%s' is not a date YYYY-MM-DD", exp);
		if (ok && x.expires_day < today) {
			char now[11];
			date_text(today, now);
			ok = hp_yfail(t, hp_ymap_get(m, "expires"), err,
			              "the waiver of rule '%s' expired on %s (today is %s): fix the "
			              "rule's failure or renew the waiver",
			              x.rule, exp, now);
		}
		if (ok) {
			memcpy(x.expires, exp, 11);
			x.where = hp_xasprintf("%s:%u:%u", hp_ytree_name(t), m->line, m->col);
			w->v = hp_xrealloc(w->v, (w->n + 1) * sizeof *w->v);
			w->v[w->n++] = x;
		} else {
			free(x.rule);
			free(x.arg);
			free(x.justification);
		}
		free(prov);
		free(exp);
		if (!ok)
			return false;
	}
	return true;
}

bool hp_waivers_load(hp_waivers *w, const char *name, const char *text, size_t len,
                     int64_t today, hp_err *err)
{
	hp_ytree *t = hp_ytree_parse(name, text, len, err);
	if (!t)
		return false;
	bool ok = read_waivers(w, t, today, err);
	hp_ytree_free(t);
	return ok;
}

bool hp_waivers_load_file(hp_waivers *w, const char *path, int64_t today, hp_err *err)
{
	hp_ytree *t = hp_ytree_load_file(path, err);
	if (!t)
		return false;
	bool ok = read_waivers(w, t, today, err);
	hp_ytree_free(t);
	return ok;
}

bool hp_waivers_check(const hp_waivers *w, const hp_bc *bc, hp_err *err)
{
	for (size_t i = 0; i < w->n; i++) {
		bool found = false;
		for (uint32_t r = 0; r < bc->nrules && !found; r++)
			found = strcmp(hp_bc_str(bc, bc->rules[r].id), w->v[i].rule) == 0;
		if (!found) {
			hp_err_set(err, "%s: the waiver names rule '%s', which policy '%s' does not have",
			           w->v[i].where, w->v[i].rule, hp_bc_str(bc, bc->name));
			return false;
		}
	}
	return true;
}

void hp_waivers_free(hp_waivers *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].rule);
		free(w->v[i].arg);
		free(w->v[i].justification);
		free(w->v[i].where);
	}
	free(w->v);
	memset(w, 0, sizeof *w);
}

/* --- applying ------------------------------------------------------------------- */

/* Whether the outcome involves arg: a loop item bound when it ran, or a
 * string argument of a probe it observed. */
static bool outcome_has_arg(const hp_role_result *r, const hp_outcome *o, const char *arg)
{
	for (uint32_t k = 0; k < o->bind_count; k++) {
		const char *v = hp_role_result_str(r, r->binds[o->bind_first + k].value);
		if (v && strcmp(v, arg) == 0)
			return true;
	}
	bool found = false;
	hp_pool pool;
	hp_pool_init(&pool, 1u << 20);
	for (uint32_t k = 0; k < o->obs_count && !found; k++) {
		uint32_t fi = r->obs[o->obs_first + k];
		hp_value v;
		if (fi < r->nfacts && hp_role_result_value(r, r->facts[fi].arg, &pool, &v) &&
		    v.state == HP_VAL_KNOWN && v.type == HP_T_STR)
			found = strcmp(v.u.s.p, arg) == 0;
	}
	hp_pool_free(&pool);
	return found;
}

/* The first waiver that matches rule id for provider p and this failing
 * outcome, or NULL. */
static const hp_waiver *match(const hp_waivers *w, const char *id, hp_provider p,
                              const hp_role_result *r, const hp_outcome *o)
{
	for (size_t i = 0; i < w->n; i++) {
		const hp_waiver *x = &w->v[i];
		if (strcmp(x->rule, id) != 0 || (x->provider >= 0 && x->provider != (int)p))
			continue;
		if (!x->arg || (o && outcome_has_arg(r, o, x->arg)))
			return x;
	}
	return NULL;
}

/* The note for a failed rule's waiver that is refused because roles
 * the rule has checks in did not run or stopped (unrun, a bit per role). */
static void refuse_unrun(const hp_waivers *w, const char *id, hp_provider p, uint8_t unrun,
                         hp_strv *notes)
{
	const hp_waiver *x = NULL;
	for (size_t k = 0; !x && k < w->n; k++)
		if (strcmp(w->v[k].rule, id) == 0 &&
		    (w->v[k].provider < 0 || w->v[k].provider == (int)p))
			x = &w->v[k];
	if (!x)
		return;
	hp_buf roles = {0};
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (unrun & (1u << r))
			hp_buf_printf(&roles, "%s%s", roles.len ? " and " : "", hp_role_names[r]);
	hp_strv_pushf(notes,
	              "the waiver of rule '%s' at %s is refused: role %s did not run or "
	              "stopped, and no waiver can waive a check that did not run",
	              id, x->where, roles.data);
	hp_buf_free(&roles);
}

static const char *keep_str(hp_strv *keep, char *s)
{
	hp_strv_push(keep, s);
	free(s);
	return keep->v[keep->n - 1];
}

void hp_waivers_apply(const hp_waivers *w, const hp_eval *ev, hp_provider p,
                      hp_rule_outcome *outs, hp_strv *keep, hp_strv *notes)
{
	if (!w || !w->n)
		return;
	const hp_bc *bc = ev->bc;
	for (uint32_t i = 0; i < bc->nrules; i++) {
		hp_rule_outcome *ro = &outs[i];
		const hp_rule_result *rr = &ev->rules[i];
		if (ro->result == HP_RESULT_ERROR || ro->result == HP_RESULT_SKIPPED) {
			const hp_waiver *x = match(w, ro->id, p, NULL, NULL);
			for (size_t k = 0; !x && k < w->n; k++)
				if (strcmp(w->v[k].rule, ro->id) == 0 &&
				    (w->v[k].provider < 0 || w->v[k].provider == (int)p))
					x = &w->v[k];
			if (x)
				hp_strv_pushf(notes,
				              "the waiver of rule '%s' at %s is refused: the rule is %s, "
				              "and no waiver can waive %s",
				              ro->id, x->where,
				              ro->result == HP_RESULT_ERROR ? "an error (unknown)"
				                                            : "skipped",
				              ro->result == HP_RESULT_ERROR ? "an unknown"
				                                            : "a check that did not run");
			continue;
		}
		if (ro->result != HP_RESULT_FAIL)
			continue;
		/* a role the rule has checks in did not run or stopped: its
		 * checks have no outcome, so waiving every failure seen would
		 * pass checks nobody made */
		if (rr->unrun) {
			refuse_unrun(w, ro->id, p, rr->unrun, notes);
			continue;
		}
		/* Every failing assertion must be waived; any unknown, absent or
		 * skipped one keeps the rule failed (an unknown is never waived). */
		if (rr->count[HP_OUT_UNKNOWN] || rr->count[HP_OUT_ABSENT] ||
		    rr->count[HP_OUT_SKIPPED]) {
			if (match(w, ro->id, p, NULL, NULL) || rr->count[HP_OUT_FAILS])
				for (size_t k = 0; k < w->n; k++)
					if (strcmp(w->v[k].rule, ro->id) == 0) {
						hp_strv_pushf(notes,
						              "the waiver of rule '%s' at %s is refused: "
						              "some of its checks are unknown, and no "
						              "waiver can waive an unknown",
						              ro->id, w->v[k].where);
						break;
					}
			continue;
		}
		const hp_waiver *first = NULL;
		bool all = rr->count[HP_OUT_FAILS] > 0;
		for (int role = 0; role < HP_ROLE_COUNT && all; role++) {
			const hp_role_result *r = &ev->roles[role];
			for (uint32_t k = 0; k < r->noutcomes && all; k++) {
				const hp_outcome *o = &r->outcomes[k];
				if (o->assertion >= bc->nasserts || bc->asserts[o->assertion].rule != i ||
				    o->kind != HP_OUT_FAILS)
					continue;
				const hp_waiver *x = match(w, ro->id, p, r, o);
				if (!x)
					all = false;
				else if (!first)
					first = x;
			}
		}
		if (!all || !first)
			continue;
		ro->result = HP_RESULT_WAIVED;
		ro->waiver = keep_str(keep, hp_xasprintf("%s (waiver at %s, until %s)",
		                                         first->justification, first->where,
		                                         first->expires));
	}
}
