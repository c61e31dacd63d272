/* test_decide.c: decisions per provider, setting and mode, against the table
 * written out from the seeds in tests/unit/decisions.tsv, plus the exact
 * sentences of reasons and warnings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/decide.h"

#define TABLE "tests/unit/decisions.tsv"

static int lookup(const char *const *names, size_t n, const char *s)
{
	int i = hp_lookup_name(names, n, s);
	if (i < 0)
		fail_msg("unknown name '%s' in " TABLE, s);
	return i;
}

static bool has_warning(const hp_strv *w, const char *needle)
{
	for (size_t i = 0; i < w->n; i++)
		if (strstr(w->v[i], needle))
			return true;
	return false;
}

static void test_table(void **state)
{
	(void)state;
	FILE *f = fopen(TABLE, "r");
	assert_non_null(f);
	char line[512];
	int rows = 0, lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		char *fld[11];
		int nf = 0;
		for (char *tok = strtok(line, "\t"); tok && nf < 11; tok = strtok(NULL, "\t"))
			fld[nf++] = tok;
		if (nf != 9 && nf != 11)
			fail_msg(TABLE ":%d: expected 9 or 11 columns, got %d", lineno, nf);
		/* the envd setting in the deciding call (unset: not set; empty: set
		 * to the empty string), and readiness */
		const char *envd = nf == 11 && strcmp(fld[9], "unset") != 0
		                       ? (strcmp(fld[9], "empty") == 0 ? "" : fld[9])
		                       : NULL;
		int want_ready = nf == 11 ? strcmp(fld[10], "yes") == 0 : -1;
		if (nf == 11 && !hp_provider_has_envd(lookup(hp_provider_names, HP_PROVIDER_COUNT,
		                                             fld[0])))
			fail_msg(TABLE ":%d: an envd setting for a provider without envd", lineno);

		hp_provider prov = lookup(hp_provider_names, HP_PROVIDER_COUNT, fld[0]);
		hp_setting dflt = lookup(hp_setting_names, HP_SETTING_COUNT, fld[1]);
		const char *given = strcmp(fld[2], "unset") == 0     ? NULL
		                    : strcmp(fld[2], "invalid") == 0 ? "Required "
		                                                     : fld[2];
		hp_mode mode = lookup(hp_mode_names, HP_MODE_COUNT, fld[3]);
		bool rules_pass = strcmp(fld[4], "pass") == 0;
		bool needs_hold = strcmp(fld[5], "hold") == 0;
		bool never_holds = strcmp(fld[6], "holds") == 0;
		hp_decision want = lookup(hp_decision_names, HP_DECISION_COUNT, fld[7]);

		hp_condition need = {"sidecar", "p.hpol:3:5", needs_hold ? HP_TRUE : HP_FALSE,
		                     "env(\"X\") is \"false\"", NULL};
		hp_condition never = {"unauthenticated", "p.hpol:4:5",
		                      never_holds ? HP_TRUE : HP_FALSE, "true", "no token"};
		hp_envd_reading er = {envd, "the deciding call's environment", NULL};
		hp_provider_policy pp = {prov,
		                         dflt,
		                         &need,
		                         1,
		                         &never,
		                         1,
		                         NULL,
		                         hp_provider_unbuilt(prov),
		                         &er,
		                         hp_provider_has_envd(prov) ? 1 : 0};
		hp_rule_outcome rule = {"r1",
		                        "title",
		                        NULL,
		                        "p.hpol:9:1",
		                        rules_pass ? HP_RESULT_PASS : HP_RESULT_FAIL,
		                        HP_APPLIES_ALL,
		                        "observed",
		                        NULL};
		hp_uid_split s = hp_uid_split_resolve(NULL, given, dflt);
		hp_decisions d;
		hp_decide(&pp, &s, &rule, 1, false, 0, &d);

		if (d.decision[mode] != want)
			fail_msg(TABLE ":%d: decided %s, the table says %s", lineno,
			         hp_decision_names[d.decision[mode]], hp_decision_names[want]);
		/* reasons exist exactly when the turn is not split, and name each cause */
		assert_int_equal(d.reasons[mode].n == 0, want == HP_DECISION_SPLIT);
		if (!rules_pass)
			assert_true(has_warning(&d.reasons[mode], "rule 'r1' failed"));
		if (!needs_hold)
			assert_true(has_warning(&d.reasons[mode], "splits only when sidecar"));
		if (never_holds)
			assert_true(has_warning(&d.reasons[mode],
			                        "never splits when unauthenticated: no token"));
		/* the E2B family: never split while hangar's provider builds none */
		if (hp_provider_has_envd(prov))
			assert_true(has_warning(&d.reasons[mode], "does not build the uid split yet "
			                                          "(KAN-200)"));
		if (hp_envd_classify(envd) != HP_ENVD_OFF)
			assert_true(has_warning(&d.reasons[mode], "never splits when "
			                                          "HANGAR_E2B_ALLOW_UNAUTHENTICATED_"
			                                          "ENVD is set"));
		/* readiness: as the table says; where the provider builds the
		 * split, exactly the decision */
		if (want_ready >= 0 && d.would_split[mode] != (bool)want_ready)
			fail_msg(TABLE ":%d: would split once built: %s, the table says %s", lineno,
			         d.would_split[mode] ? "yes" : "no", want_ready ? "yes" : "no");
		if (!hp_provider_unbuilt(prov))
			assert_int_equal(d.would_split[mode], want == HP_DECISION_SPLIT);
		assert_int_equal(d.would_split[mode], d.ready_reasons[mode].n == 0);

		size_t nwant = 0;
		if (strcmp(fld[8], "-") != 0) {
			for (char *w = strtok(fld[8], ","); w; w = strtok(NULL, ",")) {
				nwant++;
				const char *needle =
				    strcmp(w, "invalid") == 0       ? "is not auto, required or off"
				    : strcmp(w, "override") == 0    ? "overrides"
				    : strcmp(w, "off") == 0         ? "the uid split is off"
				    : strcmp(w, "single-user") == 0 ? "turns run single-user"
				    : strcmp(w, "envd") == 0 ? "is not 0, false, 1, true, yes or on"
				                                    : NULL;
				if (!needle)
					fail_msg(TABLE ":%d: unknown warning code '%s'", lineno, w);
				if (!has_warning(&d.warnings[mode], needle))
					fail_msg(TABLE ":%d: no '%s' warning", lineno, w);
			}
		}
		if (d.warnings[mode].n != nwant)
			fail_msg(TABLE ":%d: %zu warnings, the table says %zu", lineno,
			         d.warnings[mode].n, nwant);
		hp_decisions_free(&d);
		rows++;
	}
	fclose(f);
	/* every provider x setting x mode x rules x needs x never, and the E2B
	 * family x setting x envd setting x mode x rules */
	assert_int_equal(rows, 4 * 5 * 4 * 2 * 2 * 2 + 2 * 4 * 9 * 4 * 2);
}

static void test_setting_resolution(void **state)
{
	(void)state;
	hp_uid_split s = hp_uid_split_resolve("off", "required", HP_SETTING_AUTO);
	assert_int_equal(s.value, HP_SETTING_OFF);
	assert_int_equal(s.source, HP_SOURCE_FLAG);
	s = hp_uid_split_resolve(NULL, "auto", HP_SETTING_REQUIRED);
	assert_int_equal(s.value, HP_SETTING_AUTO);
	assert_int_equal(s.source, HP_SOURCE_ENV);
	s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_REQUIRED);
	assert_int_equal(s.value, HP_SETTING_REQUIRED);
	assert_int_equal(s.source, HP_SOURCE_DEFAULT);
	/* set but empty is a value, and not a valid one: it fails closed */
	s = hp_uid_split_resolve(NULL, "", HP_SETTING_AUTO);
	assert_true(s.invalid);
	assert_int_equal(s.value, HP_SETTING_REQUIRED);
	s = hp_uid_split_resolve("yes", NULL, HP_SETTING_OFF);
	assert_true(s.invalid);
	assert_int_equal(s.value, HP_SETTING_REQUIRED);
}

static void test_sentences(void **state)
{
	(void)state;
	hp_condition never = {"env(\"HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD\") == \"1\"",
	                      "policies/cubesandbox.hpol:5:5", HP_UNKNOWN, "env read failed",
	                      "envd answers without a token: a split would protect nothing"};
	hp_provider_policy pp = {HP_PROVIDER_CUBESANDBOX, HP_SETTING_REQUIRED, NULL, 0, &never, 1,
	                         NULL, NULL, NULL, 0};
	hp_rule_outcome rules[] = {
	    {"agent-no-sudo", "an agent with sudo can answer its own approvals", "remove the grant",
	     "policies/hangar.hpol:20:1", HP_RESULT_ERROR, HP_APPLIES_ALL,
	     "sudo as agent: unknown (sudo did not exit within 5 s)", NULL},
	    {"harness-settings", "the agent could edit the harness settings", NULL,
	     "policies/hangar.hpol:40:1", HP_RESULT_FAIL,
	     HP_APPLIES_BIT(HP_MODE_ASK, HP_PROVIDER_CUBESANDBOX),
	     "writable(\"/etc/x\") as agent: true", NULL},
	};
	hp_uid_split s = hp_uid_split_resolve(NULL, "off", HP_SETTING_REQUIRED);
	hp_decisions d;
	hp_decide(&pp, &s, rules, 2, true, 3, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SINGLE_USER);
	assert_int_equal(d.reasons[HP_MODE_ASK].n, 4);
	assert_string_equal(
	    d.reasons[HP_MODE_ASK].v[0],
	    "provider 'cubesandbox' never splits when "
	    "env(\"HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD\") == \"1\", and that could not be "
	    "ruled out (env read failed): envd answers without a token: a split would "
	    "protect nothing (at policies/cubesandbox.hpol:5:5)");
	assert_string_equal(d.reasons[HP_MODE_ASK].v[1],
	                    "the uid split is turned off (HANGAR_UID_SPLIT=off)");
	assert_string_equal(
	    d.reasons[HP_MODE_ASK].v[2],
	    "rule 'agent-no-sudo' could not be checked, and unknown is never a pass (see the "
	    "rule)");
	assert_string_equal(
	    d.reasons[HP_MODE_ASK].v[3],
	    "rule 'harness-settings' failed (see the rule)");
	/* the rule that counts only for ask is not a reason for auto */
	assert_int_equal(d.reasons[HP_MODE_AUTO].n, 3);
	assert_int_equal(d.warnings[HP_MODE_ASK].n, 4);
	assert_string_equal(
	    d.warnings[HP_MODE_ASK].v[0],
	    "HANGAR_UID_SPLIT=off overrides cubesandbox's default 'required': turns with "
	    "approvals may run single-user, where the agent can reach the driver");
	assert_string_equal(
	    d.warnings[HP_MODE_ASK].v[1],
	    "the uid split is off (HANGAR_UID_SPLIT): no turn gets a driver of its own");
	assert_string_equal(
	    d.warnings[HP_MODE_ASK].v[2],
	    "offline check of an image root: 3 checks need a live sandbox; the rules that "
	    "hold them were not checked, so no turn they count for is split");
	assert_string_equal(
	    d.warnings[HP_MODE_ASK].v[3],
	    "ask turns run single-user: the agent can reach the driver and answer its own "
	    "approvals");
	hp_decisions_free(&d);

	s = hp_uid_split_resolve("maybe", NULL, HP_SETTING_AUTO);
	pp.default_setting = HP_SETTING_AUTO;
	pp.nnever = 0;
	hp_rule_outcome pass = {"r", "t", NULL, "p.hpol:1:1", HP_RESULT_PASS, HP_APPLIES_ALL, "1 held", NULL};
	hp_decide(&pp, &s, &pass, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_GOVERNED], HP_DECISION_SPLIT);
	assert_string_equal(
	    d.warnings[HP_MODE_GOVERNED].v[0],
	    "--uid-split value 'maybe' is not auto, required or off: treated as required");
	hp_decisions_free(&d);
}

/* The envd setting, read fail-closed, and its sentences, from either place
 * it was seen. */
static void test_envd(void **state)
{
	(void)state;
	static const char *const off[] = {"0", "false", "FALSE", "False", "fAlSe"};
	static const char *const on[] = {"1", "true", "TRUE", "yes", "YES", "on", "On"};
	static const char *const odd[] = {"", "2", "00", " 0", "false ", "no", "off", "n", "bogus"};
	assert_int_equal(hp_envd_classify(NULL), HP_ENVD_OFF);
	for (size_t i = 0; i < sizeof off / sizeof *off; i++)
		assert_int_equal(hp_envd_classify(off[i]), HP_ENVD_OFF);
	for (size_t i = 0; i < sizeof on / sizeof *on; i++)
		assert_int_equal(hp_envd_classify(on[i]), HP_ENVD_ON);
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
		assert_int_equal(hp_envd_classify(odd[i]), HP_ENVD_UNRECOGNISED);

	hp_envd_reading er[2] = {{NULL, "the deciding call's environment", NULL},
	                         {"bo\ngus", "the facts (recorded in the sandbox)", NULL}};
	hp_provider_policy pp = {HP_PROVIDER_E2B, HP_SETTING_REQUIRED, NULL, 0, NULL, 0,
	                         NULL, NULL, er, 2};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_REQUIRED);
	hp_decisions d;
	hp_rule_outcome ok = {"r1", "title", NULL, "p.hpol:9:1", HP_RESULT_PASS, HP_APPLIES_ALL,
	                      "observed", NULL};
	/* even with the split built, the recording's setting forbids it */
	hp_decide(&pp, &s, &ok, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_false(d.would_split[HP_MODE_ASK]);
	assert_int_equal(d.reasons[HP_MODE_ASK].n, 1);
	assert_string_equal(d.reasons[HP_MODE_ASK].v[0],
	                    "provider 'e2b' never splits when HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD "
	                    "is set ('bo\\x0agus', in the facts (recorded in the sandbox)): envd "
	                    "may answer without its access token, so the agent could run anything "
	                    "as root through it and a split would protect nothing");
	assert_int_equal(d.warnings[HP_MODE_ASK].n, 1);
	assert_string_equal(d.warnings[HP_MODE_ASK].v[0],
	                    "HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD value 'bo\\x0agus' (in the facts "
	                    "(recorded in the sandbox)) is not 0, false, 1, true, yes or on: read as "
	                    "set, so envd may answer without a token and no turn is split");
	hp_decisions_free(&d);
	/* off in both places, and built: nothing in the way */
	er[1].raw = "FALSE";
	hp_decide(&pp, &s, &ok, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
	assert_true(d.would_split[HP_MODE_ASK]);
	hp_decisions_free(&d);
	/* a recording whose value is not known (unknown, skipped) may hide
	 * any value: it forbids the split like a set one, never as unset */
	er[1].raw = NULL;
	er[1].unknown = "the observed value is not valid UTF-8 and cannot be recorded";
	hp_decide(&pp, &s, &ok, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_false(d.would_split[HP_MODE_ASK]);
	assert_int_equal(d.reasons[HP_MODE_ASK].n, 1);
	assert_string_equal(d.reasons[HP_MODE_ASK].v[0],
	                    "provider 'e2b' never splits when HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD "
	                    "may be set: its value is not known (the observed value is not valid "
	                    "UTF-8 and cannot be recorded, in the facts (recorded in the sandbox)), "
	                    "so envd may answer without its access token, the agent could run "
	                    "anything as root through it and a split would protect nothing");
	hp_decisions_free(&d);
	er[1].raw = "FALSE";
	er[1].unknown = NULL;
	/* not built: never split, and the unbuilt reason is not readiness's */
	pp.unbuilt = hp_provider_unbuilt(HP_PROVIDER_E2B);
	hp_decide(&pp, &s, &ok, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_true(d.would_split[HP_MODE_ASK]);
	assert_int_equal(d.ready_reasons[HP_MODE_ASK].n, 0);
	assert_string_equal(d.reasons[HP_MODE_ASK].v[0],
	                    "provider 'e2b' never splits: hangar's E2B provider, through which e2b "
	                    "and cubesandbox are reached, does not build the uid split yet "
	                    "(KAN-200): the driver would share the agent's user");
	hp_decisions_free(&d);
	assert_null(hp_provider_unbuilt(HP_PROVIDER_DOCKER));
	assert_null(hp_provider_unbuilt(HP_PROVIDER_KUBERNETES));
	assert_non_null(hp_provider_unbuilt(HP_PROVIDER_CUBESANDBOX));
}

/* A `split needs` condition that could not be evaluated does not hold (a
 * sidecar switch the policy reads, unknown: no sidecar). */
static void test_needs_unknown(void **state)
{
	(void)state;
	hp_condition need = {"(env(\"HANGAR_K8S_DRIVER_SIDECAR\") or \"\") == \"1\"",
	                     "kubernetes.hpol:4:5", HP_UNKNOWN, "unknown (env read failed)", NULL};
	hp_provider_policy pp = {HP_PROVIDER_DOCKER, HP_SETTING_AUTO, &need, 1, NULL, 0, NULL,
	                         NULL, NULL, 0};
	hp_rule_outcome pass = {"r", "t", NULL, "p.hpol:1:1", HP_RESULT_PASS, HP_APPLIES_ALL, "1 held", NULL};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_AUTO);
	hp_decisions d;
	hp_decide(&pp, &s, &pass, 1, false, 0, &d);
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		assert_int_equal(d.decision[m], HP_DECISION_SINGLE_USER);
		assert_int_equal(d.reasons[m].n, 1);
		assert_string_equal(d.reasons[m].v[0],
		                    "provider 'docker' splits only when (env(\"HANGAR_K8S_DRIVER_"
		                    "SIDECAR\") or \"\") == \"1\", which could not be established "
		                    "(unknown (env read failed), at kubernetes.hpol:4:5)");
	}
	hp_decisions_free(&d);
	/* under required, the turns with approvals are refused */
	s = hp_uid_split_resolve(NULL, "required", HP_SETTING_AUTO);
	hp_decide(&pp, &s, &pass, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_int_equal(d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	hp_decisions_free(&d);
	/* and the same condition, known to hold, splits */
	need.holds = HP_TRUE;
	s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_AUTO);
	hp_decide(&pp, &s, &pass, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
	hp_decisions_free(&d);
}

/* A mode that no rule counts for is not split: nothing checked it. A policy
 * with no rules splits nothing; one whose rules count only for ask leaves
 * the other modes unsplit, each with its sentence. */
static void test_no_rule_for_mode(void **state)
{
	(void)state;
	hp_provider_policy pp = {HP_PROVIDER_DOCKER, HP_SETTING_AUTO, NULL, 0, NULL, 0, NULL,
	                         NULL, NULL, 0};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_AUTO);
	hp_decisions d;
	hp_decide(&pp, &s, NULL, 0, false, 0, &d);
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		assert_int_equal(d.decision[m], HP_DECISION_SINGLE_USER);
		assert_int_equal(d.reasons[m].n, 1);
	}
	assert_string_equal(d.reasons[HP_MODE_ASK].v[0],
	                    "no rule checks the split for ask turns on provider 'docker' (the "
	                    "policy has 0 rules, none counting for them)");
	hp_decisions_free(&d);
	hp_rule_outcome ask = {"r", "t", NULL, "p.hpol:1:1", HP_RESULT_PASS,
	                       HP_APPLIES_BIT(HP_MODE_ASK, HP_PROVIDER_DOCKER), "1 held", NULL};
	s = hp_uid_split_resolve(NULL, "required", HP_SETTING_AUTO);
	hp_decide(&pp, &s, &ask, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
	assert_int_equal(d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(d.decision[HP_MODE_GOVERNED], HP_DECISION_REFUSE);
	assert_string_equal(d.reasons[HP_MODE_GOVERNED].v[0],
	                    "no rule checks the split for governed turns on provider 'docker' (the "
	                    "policy has 1 rule, none counting for them)");
	hp_decisions_free(&d);
	/* the rule counts for ask on another provider only */
	pp.provider = HP_PROVIDER_E2B;
	hp_decide(&pp, &s, &ask, 1, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	hp_decisions_free(&d);
}

/* Offline, the warning says what the evidence covers, and never contradicts
 * a split. */
static void test_offline_warning(void **state)
{
	(void)state;
	hp_provider_policy pp = {HP_PROVIDER_DOCKER, HP_SETTING_AUTO, NULL, 0, NULL, 0, NULL,
	                         NULL, NULL, 0};
	hp_rule_outcome pass = {"r", "t", NULL, "p.hpol:1:1", HP_RESULT_PASS, HP_APPLIES_ALL, "1 held", NULL};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_AUTO);
	hp_decisions d;
	hp_decide(&pp, &s, &pass, 1, true, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
	assert_int_equal(d.warnings[HP_MODE_ASK].n, 1);
	assert_string_equal(d.warnings[HP_MODE_ASK].v[0],
	                    "offline check of an image root: every check was answered from the "
	                    "image's files; what only a running sandbox shows (processes, "
	                    "capabilities, mounts, sudo) was not looked at");
	hp_decisions_free(&d);
	pass.result = HP_RESULT_SKIPPED;
	hp_decide(&pp, &s, &pass, 1, true, 1, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_SINGLE_USER);
	assert_string_equal(d.warnings[HP_MODE_ASK].v[0],
	                    "offline check of an image root: 1 check needs a live sandbox; the "
	                    "rules that hold it were not checked, so no turn they count for is "
	                    "split");
	hp_decisions_free(&d);
}

/* A waived failure blocks no split but is no pass: it is listed in the
 * mode's waived, and a warning says the decision rests on it. An error,
 * a skipped rule or a plain failure blocks, whatever text it carries. */
static void test_waived(void **state)
{
	(void)state;
	hp_provider_policy pp = {HP_PROVIDER_DOCKER, HP_SETTING_REQUIRED, NULL, 0, NULL, 0,
	                         NULL, NULL, NULL, 0};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_REQUIRED);
	hp_rule_outcome rules[] = {
	    {"ok", "t", NULL, "p.hpol:1:1", HP_RESULT_PASS, HP_APPLIES_ALL, "1 held", NULL},
	    {"bin", "the agent could plant a binary", NULL, "p.hpol:5:1", HP_RESULT_WAIVED,
	     HP_APPLIES_ALL, "writable(\"/bin\") as agent: true",
	     "ro mount (waiver at w.yaml:2:5, until 2027-01-31)"},
	};
	hp_decisions d;
	hp_decide(&pp, &s, rules, 2, false, 0, &d);
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		assert_int_equal(d.decision[m], HP_DECISION_SPLIT);
		assert_int_equal(d.reasons[m].n, 0);
		assert_true(d.would_split[m]);
		assert_int_equal(d.waived[m].n, 1);
		assert_string_equal(d.waived[m].v[0],
		                    "rule 'bin' failed and is waived: the agent could plant a binary "
		                    "(writable(\"/bin\") as agent: true). Waived: ro mount (waiver at "
		                    "w.yaml:2:5, until 2027-01-31)");
		assert_int_equal(d.warnings[m].n, 1);
	}
	assert_string_equal(d.warnings[HP_MODE_ASK].v[0],
	                    "the decision for ask turns rests on 1 waiver of a failed rule: see "
	                    "'waived'");
	hp_decisions_free(&d);
	/* the same text on an error, a skipped rule or a failure waives nothing */
	hp_result blocking[] = {HP_RESULT_ERROR, HP_RESULT_SKIPPED, HP_RESULT_FAIL};
	for (size_t k = 0; k < sizeof blocking / sizeof *blocking; k++) {
		rules[1].result = blocking[k];
		hp_decide(&pp, &s, rules, 2, false, 0, &d);
		assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
		assert_int_equal(d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
		assert_int_equal(d.waived[HP_MODE_ASK].n, 0);
		assert_int_equal(d.reasons[HP_MODE_ASK].n, 1);
		assert_false(d.would_split[HP_MODE_ASK]);
		hp_decisions_free(&d);
	}
	/* waived, but another rule fails: the waiver is listed, and the
	 * warning says the mode does not split for the other reasons */
	rules[1].result = HP_RESULT_WAIVED;
	rules[0].result = HP_RESULT_FAIL;
	hp_decide(&pp, &s, rules, 2, false, 0, &d);
	assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_int_equal(d.waived[HP_MODE_ASK].n, 1);
	assert_int_equal(d.reasons[HP_MODE_ASK].n, 1);
	assert_string_equal(d.reasons[HP_MODE_ASK].v[0], "rule 'ok' failed (see the rule)");
	assert_string_equal(d.warnings[HP_MODE_ASK].v[0],
	                    "1 failed rule is waived (see 'waived'), but ask turns do not split, "
	                    "for the reasons given");
	hp_decisions_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_setting_resolution),
	    cmocka_unit_test(test_sentences),
	    cmocka_unit_test(test_envd),
	    cmocka_unit_test(test_needs_unknown),
	    cmocka_unit_test(test_no_rule_for_mode),
	    cmocka_unit_test(test_offline_warning),
	    cmocka_unit_test(test_waived),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
