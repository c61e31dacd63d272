/* decide.c: split, single-user or refuse, per turn mode, with reasons.
 *
 * A split needs at least one rule that counts for the (mode, provider),
 * every rule that counts for it to pass, every `split needs` condition to
 * hold, no `never split` condition that holds or cannot be ruled out, and
 * a setting other than off. Anything
 * unknown is "not proven", so it never leads to a split. Without a split,
 * auto turns run single-user; turns with approvals (ask, deny-risky,
 * governed) are refused under `required` and otherwise run single-user with
 * a warning, since the agent could then answer its own approvals.
 *
 * On kubernetes an auto turn runs in the agent's container as it always
 * did (seed 002): only turns with approvals use the driver sidecar, so an
 * auto turn is single-user, and that is no cause for a warning.
 *
 * Two causes come from hangar itself, not from the policy: a provider whose
 * hangar code builds no split (the E2B family, KAN-200) never splits, and
 * there an envd that may answer without its token (the setting, wherever
 * it was seen) forbids the split too. Readiness is the decision with the
 * first cause left out: what would still block the split once it is built.
 *
 * A waived failure (check --waivers) blocks nothing, but it is no pass
 * either: it is listed in the mode's `waived`, and a warning says the
 * split rests on it (or, when other reasons keep the mode from splitting,
 * that those do). A skipped rule (--only, --skip) was not checked,
 * so it blocks like any other rule that did not pass. */
#include "check/decide.h"

#include <strings.h>
#include <string.h>

#include "lib/textesc.h"

/* hangar's E2B provider serves both E2B and CubeSandbox. It builds no uid
 * split yet; the day it does (KAN-200), this one line becomes NULL and
 * both providers decide on their rules like any other. */
static const char *const e2b_provider_unbuilt =
    "hangar's E2B provider, through which e2b and cubesandbox are reached, does not build "
    "the uid split yet (KAN-200): the driver would share the agent's user";

const char *hp_provider_unbuilt(hp_provider p)
{
	return hp_provider_has_envd(p) ? e2b_provider_unbuilt : NULL;
}

bool hp_provider_has_envd(hp_provider p)
{
	return p == HP_PROVIDER_E2B || p == HP_PROVIDER_CUBESANDBOX;
}

hp_envd_value hp_envd_classify(const char *raw)
{
	if (!raw || strcmp(raw, "0") == 0 || strcasecmp(raw, "false") == 0)
		return HP_ENVD_OFF;
	if (strcmp(raw, "1") == 0 || strcasecmp(raw, "true") == 0 || strcasecmp(raw, "yes") == 0 ||
	    strcasecmp(raw, "on") == 0)
		return HP_ENVD_ON;
	return HP_ENVD_UNRECOGNISED;
}

const char *const hp_setting_source_names[3] = {"flag", "env", "default"};

hp_uid_split hp_uid_split_resolve(const char *flag, const char *env, hp_setting provider_default)
{
	hp_uid_split s = {provider_default, HP_SOURCE_DEFAULT, false, NULL};
	const char *raw = NULL;
	if (flag) {
		raw = flag;
		s.source = HP_SOURCE_FLAG;
	} else if (env) {
		raw = env;
		s.source = HP_SOURCE_ENV;
	}
	if (!raw)
		return s;
	s.raw = raw;
	int v = hp_lookup_name(hp_setting_names, HP_SETTING_COUNT, raw);
	if (v < 0) {
		s.invalid = true;
		s.value = HP_SETTING_REQUIRED;
	} else {
		s.value = (hp_setting)v;
	}
	return s;
}

static const char *setting_origin(const hp_uid_split *s)
{
	switch (s->source) {
	case HP_SOURCE_FLAG:
		return "--uid-split";
	case HP_SOURCE_ENV:
		return "HANGAR_UID_SPLIT";
	case HP_SOURCE_DEFAULT:
	default:
		return "the provider's default";
	}
}

static bool approval_mode(hp_mode m)
{
	return m != HP_MODE_AUTO;
}

/* A provider whose auto turns run in the agent's container whatever the
 * rules say: kubernetes, where the driver's user is the sidecar's and only
 * turns with approvals use it. */
static bool auto_in_agent_container(hp_provider p)
{
	return p == HP_PROVIDER_KUBERNETES;
}

/* The sentence for a rule that keeps a mode from splitting: the cause, in
 * one sentence, pointing at the rule's own entry (its title, evidence,
 * location and remedy are there, not repeated here). */
static void rule_reason(hp_strv *out, const hp_rule_outcome *r)
{
	const char *what;
	switch (r->result) {
	case HP_RESULT_FAIL:
		what = "failed";
		break;
	case HP_RESULT_ERROR:
		what = "could not be checked, and unknown is never a pass";
		break;
	case HP_RESULT_PASS:
	case HP_RESULT_SKIPPED:
	case HP_RESULT_WAIVED: /* never a reason: decide lists it as waived */
	case HP_RESULT_COUNT:
	default:
		what = "was not checked";
		break;
	}
	hp_strv_pushf(out, "rule '%s' %s (see the rule)", r->id, what);
}

/* A rule that did not pass: a reason against the split, or, for a waived
 * failure, which no longer blocks, a sentence saying the decision rests on
 * its waiver. */
static void not_a_pass(hp_strv *reasons, hp_strv *waived, const hp_rule_outcome *r)
{
	if (r->result == HP_RESULT_WAIVED)
		hp_strv_pushf(waived, "rule '%s' failed and is waived: %s (%s). Waived: %s", r->id,
		              r->title, r->evidence ? r->evidence : "no evidence",
		              r->waiver ? r->waiver : "no justification");
	else
		rule_reason(reasons, r);
}

static void setting_warnings(hp_strv *w, const hp_provider_policy *pp, const hp_uid_split *s)
{
	const char *prov = hp_provider_names[pp->provider];
	if (s->invalid) {
		char names[64];
		hp_strv_pushf(w, "%s value '%s' is not %s: treated as required", setting_origin(s),
		              s->raw,
		              hp_names_text(names, sizeof names, hp_setting_names, HP_SETTING_COUNT,
		                            "or"));
	}
	if (s->source != HP_SOURCE_DEFAULT && !s->invalid &&
	    pp->default_setting == HP_SETTING_REQUIRED && s->value != HP_SETTING_REQUIRED)
		hp_strv_pushf(
		    w,
		    "%s=%s overrides %s's default 'required': turns with approvals may run "
		    "single-user, where the agent can reach the driver",
		    setting_origin(s), hp_setting_names[s->value], prov);
	if (s->value == HP_SETTING_OFF)
		hp_strv_pushf(w, "the uid split is off (%s): no turn gets a driver of its own",
		              setting_origin(s));
}

void hp_decide(const hp_provider_policy *pp, const hp_uid_split *setting,
               const hp_rule_outcome *rules, size_t nrules, bool offline, size_t live_needed,
               hp_decisions *out)
{
	memset(out, 0, sizeof *out);
	const char *prov = hp_provider_names[pp->provider];

	/* Causes shared by every mode: the provider's conditions and the setting.
	 * The provider's not building the split comes first and is the one
	 * cause readiness leaves out. */
	hp_strv unbuilt = {0}, common = {0};
	if (pp->unbuilt)
		hp_strv_pushf(&unbuilt, "provider '%s' never splits: %s", prov, pp->unbuilt);
	hp_strv global_warnings = {0};
	for (size_t i = 0; i < pp->nenvd; i++) {
		const hp_envd_reading *e = &pp->envd[i];
		if (e->unknown) {
			hp_esc_buf eb;
			hp_strv_pushf(
			    &common,
			    "provider '%s' never splits when " HP_ENVD_SETTING
			    " may be set: its value is not known (%s, in %s), so envd may "
			    "answer without its access token, the agent could run anything "
			    "as root through it and a split would protect nothing",
			    prov, hp_escs(&eb, e->unknown), e->where);
			continue;
		}
		hp_envd_value v = hp_envd_classify(e->raw);
		if (v == HP_ENVD_OFF)
			continue;
		hp_esc_buf eb;
		const char *raw = hp_escs(&eb, e->raw);
		hp_strv_pushf(&common,
		              "provider '%s' never splits when " HP_ENVD_SETTING
		              " is set ('%s', in %s): envd may answer without its access token, "
		              "so the agent could run anything as root through it and a split "
		              "would protect nothing",
		              prov, raw, e->where);
		if (v == HP_ENVD_UNRECOGNISED)
			hp_strv_pushf(&global_warnings,
			              HP_ENVD_SETTING " value '%s' (in %s) is not 0, false, 1, true, "
			                              "yes or on: read as set, so envd may answer "
			                              "without a token and no turn is split",
			              raw, e->where);
	}
	for (size_t i = 0; i < pp->nnever; i++) {
		const hp_condition *c = &pp->never[i];
		if (c->holds == HP_TRUE)
			hp_strv_pushf(&common, "provider '%s' never splits when %s: %s (at %s)",
			              prov, c->text, c->because, c->location);
		else if (c->holds == HP_UNKNOWN)
			hp_strv_pushf(
			    &common,
			    "provider '%s' never splits when %s, and that could not be ruled "
			    "out (%s): %s (at %s)",
			    prov, c->text, c->observed ? c->observed : "unknown", c->because,
			    c->location);
	}
	for (size_t i = 0; i < pp->nneeds; i++) {
		const hp_condition *c = &pp->needs[i];
		bool holds = c->holds == HP_TRUE; /* unknown does not hold */
		if (holds)
			continue;
		hp_strv_pushf(&common, "provider '%s' splits only when %s, which %s (%s, at %s)",
		              prov, c->text,
		              c->holds == HP_FALSE ? "does not hold here"
		                                   : "could not be established",
		              c->observed ? c->observed : "unknown", c->location);
	}
	if (setting->value == HP_SETTING_OFF)
		hp_strv_pushf(&common, "the uid split is turned off (%s=off)",
		              setting_origin(setting));

	setting_warnings(&global_warnings, pp, setting);
	if (pp->provider == HP_PROVIDER_KUBERNETES && pp->sidecar &&
	    strcmp(pp->sidecar, "true") != 0 && strcmp(pp->sidecar, "false") != 0)
		hp_strv_pushf(&global_warnings,
		              "HANGAR_K8S_DRIVER_SIDECAR value '%s' is not true or false: treated as "
		              "no sidecar",
		              pp->sidecar);
	if (offline && live_needed > 0)
		hp_strv_pushf(
		    &global_warnings,
		    "offline check of an image root: %zu check%s need%s a live sandbox; the "
		    "rules that hold %s were not checked, so no turn they count for is split",
		    live_needed, live_needed == 1 ? "" : "s", live_needed == 1 ? "s" : "",
		    live_needed == 1 ? "it" : "them");
	else if (offline)
		hp_strv_pushf(&global_warnings,
		              "offline check of an image root: every check was answered from the "
		              "image's files; what only a running sandbox shows (processes, "
		              "capabilities, mounts, sudo) was not looked at");

	for (int m = 0; m < HP_MODE_COUNT; m++) {
		hp_strv *reasons = &out->reasons[m], *ready = &out->ready_reasons[m];
		if (m == HP_MODE_AUTO && auto_in_agent_container(pp->provider))
			hp_strv_pushf(ready,
			              "on %s an auto turn runs in the agent's container, as the "
			              "agent: only turns with approvals get the driver sidecar",
			              prov);
		hp_strv_extend(ready, &common);
		hp_applies bit = HP_APPLIES_BIT(m, pp->provider);
		size_t counted = 0;
		for (size_t i = 0; i < nrules; i++) {
			if (!(rules[i].applies & bit))
				continue;
			counted++;
			if (rules[i].result != HP_RESULT_PASS)
				not_a_pass(ready, &out->waived[m], &rules[i]);
		}
		/* a split that nothing checked is not proven */
		if (counted == 0)
			hp_strv_pushf(ready,
			              "no rule checks the split for %s turns on provider '%s' "
			              "(the policy has %zu rule%s, none counting for them)",
			              hp_mode_names[m], prov, nrules, nrules == 1 ? "" : "s");
		out->would_split[m] = ready->n == 0;
		hp_strv_extend(reasons, &unbuilt);
		hp_strv_extend(reasons, ready);

		hp_strv_extend(&out->warnings[m], &global_warnings);
		/* a split rests on its waivers; a mode kept from splitting by
		 * other reasons does not, and is told so */
		if (out->waived[m].n && reasons->n == 0)
			hp_strv_pushf(&out->warnings[m],
			              "the decision for %s turns rests on %zu waiver%s of a failed "
			              "rule: see 'waived'",
			              hp_mode_names[m], out->waived[m].n,
			              out->waived[m].n == 1 ? "" : "s");
		else if (out->waived[m].n)
			hp_strv_pushf(&out->warnings[m],
			              "%zu failed rule%s waived (see 'waived'), but %s turns do not "
			              "split, for the reasons given",
			              out->waived[m].n, out->waived[m].n == 1 ? " is" : "s are",
			              hp_mode_names[m]);
		if (reasons->n == 0) {
			out->decision[m] = HP_DECISION_SPLIT;
		} else if (approval_mode((hp_mode)m) && setting->value == HP_SETTING_REQUIRED) {
			out->decision[m] = HP_DECISION_REFUSE;
		} else {
			out->decision[m] = HP_DECISION_SINGLE_USER;
			if (approval_mode((hp_mode)m))
				hp_strv_pushf(
				    &out->warnings[m],
				    "%s turns run single-user: the agent can reach the driver "
				    "and answer its own approvals",
				    hp_mode_names[m]);
		}
	}
	hp_strv_free(&unbuilt);
	hp_strv_free(&common);
	hp_strv_free(&global_warnings);
}

void hp_decisions_free(hp_decisions *d)
{
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		hp_strv_free(&d->reasons[m]);
		hp_strv_free(&d->warnings[m]);
		hp_strv_free(&d->waived[m]);
		hp_strv_free(&d->ready_reasons[m]);
	}
}
