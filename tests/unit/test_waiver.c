/* test_waiver.c: waiver files (docs/waivers.md): dates, expiry against
 * today, every error's exact message, and the check of rule names; then
 * how waivers apply to a run (hp_judge: every failing item must be
 * waived, by provider and argument; an unknown or a skipped rule never is;
 * a waived rule no longer blocks the split, and the decision says it rests
 * on the waiver), and --only/--skip, whose skipped rules never pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "check/verdict.h"
#include "check/waiver.h"
#include "codegen.h"
#include "front.h"
#include "probe/facts.h"

static int64_t day(const char *s)
{
	int64_t d = -1;
	assert_true(hp_date_parse(s, &d));
	return d;
}

static void test_dates(void **state)
{
	(void)state;
	assert_int_equal(day("1970-01-01"), 0);
	assert_int_equal(day("1970-01-02"), 1);
	assert_int_equal(day("2000-03-01") - day("2000-02-28"), 2); /* 2000 is leap */
	assert_int_equal(day("2100-03-01") - day("2100-02-28"), 1); /* 2100 is not */
	assert_int_equal(day("2026-12-01"), 20788);
	int64_t d;
	assert_false(hp_date_parse("2026-02-29", &d));
	assert_false(hp_date_parse("2026-13-01", &d));
	assert_false(hp_date_parse("2026-1-01", &d));
	assert_false(hp_date_parse("2026-01-01x", &d));
	assert_false(hp_date_parse("20260101", &d));
}

static void test_today(void **state)
{
	(void)state;
	int64_t d;
	hp_err err;
	setenv("HANGAR_POLICY_TODAY", "2026-12-01", 1);
	assert_true(hp_today(&d, &err));
	assert_int_equal(d, 20788);
	setenv("HANGAR_POLICY_TODAY", "soon", 1);
	assert_false(hp_today(&d, &err));
	assert_string_equal(err.msg, "HANGAR_POLICY_TODAY 'soon' is not a date YYYY-MM-DD");
	unsetenv("HANGAR_POLICY_TODAY");
	assert_true(hp_today(&d, &err));
	assert_true(d > 20000);
}

static void refused(const char *text, int64_t today, const char *msg)
{
	hp_waivers w = {0};
	hp_err err;
	assert_false(hp_waivers_load(&w, "w.yaml", text, strlen(text), today, &err));
	assert_string_equal(err.msg, msg);
	hp_waivers_free(&w);
}

static void test_load(void **state)
{
	(void)state;
	hp_waivers w = {0};
	hp_err err;
	const char *text = "version: 1\nwaivers:\n"
	                   "  - {rule: a, justification: why, expires: 2027-01-31}\n"
	                   "  - {rule: b, provider: e2b, arg: /bin, justification: j, "
	                   "expires: 2026-12-01}\n";
	assert_true(hp_waivers_load(&w, "w.yaml", text, strlen(text), day("2026-12-01"), &err));
	assert_int_equal(w.n, 2);
	assert_string_equal(w.v[0].rule, "a");
	assert_int_equal(w.v[0].provider, -1);
	assert_null(w.v[0].arg);
	assert_string_equal(w.v[0].expires, "2027-01-31");
	assert_string_equal(w.v[0].where, "w.yaml:3:5");
	assert_int_equal(w.v[1].provider, HP_PROVIDER_E2B);
	assert_string_equal(w.v[1].arg, "/bin");
	hp_waivers_free(&w);
	/* the expiry day itself still holds; the day after does not */
	refused(text, day("2027-02-01"),
	        "w.yaml:3:44: the waiver of rule 'a' expired on 2027-01-31 (today is "
	        "2027-02-01): fix the rule's failure or renew the waiver");
	refused(text, day("2026-12-02"),
	        "w.yaml:4:68: the waiver of rule 'b' expired on 2026-12-01 (today is "
	        "2026-12-02): fix the rule's failure or renew the waiver");
	refused("waivers:\n  - {rule: a, expires: 2027-01-01}\n", 0,
	        "w.yaml:2:5: a waiver needs 'justification'");
	refused("waivers:\n  - {rule: a, justification: j}\n", 0,
	        "w.yaml:2:5: a waiver needs 'expires'");
	refused("waivers:\n  - {rule: a, justification: j, expires: 31/01/2027}\n", 0,
	        "w.yaml:2:42: expires '31/01/2027' is not a date YYYY-MM-DD");
	refused("waivers:\n  - {rule: a, justification: j, expires: 2027-01-01, until: x}\n", 0,
	        "w.yaml:2:54: unknown key 'until' (the keys are rule, provider, arg, "
	        "justification and expires)");
	refused("waivers:\n  - {rule: a, provider: gke, justification: j, expires: 2027-01-01}\n",
	        0, "w.yaml:2:25: the provider 'gke' is not docker, kubernetes, e2b or cubesandbox");
	refused("waivers:\n  - {rule: [a], justification: j, expires: 2027-01-01}\n", 0,
	        "w.yaml:2:12: rule must be a scalar, not a list");
	refused("waivers: {}\n", 0, "w.yaml:1:10: waivers must be a list, not a mapping");
	refused("rules: []\n", 0,
	        "w.yaml:1:1: unknown key 'rules' (the keys are version and waivers)");
	refused("", 0, "w.yaml:1:1: a waiver file is a mapping with a 'waivers' list "
	               "(docs/waivers.md)");
}

static const char *policy = "policy \"w\" version 1\n"
                            "role root = uid 0\n"
                            "role agent = uid 1000\n"
                            "rule no-sudo \"sudo makes the agent root\" {\n"
                            "    as agent { forbid sudo }\n"
                            "}\n"
                            "rule dirs \"the agent could plant a binary\" {\n"
                            "    as agent {\n"
                            "        for dir in { \"/bin\", \"/usr/bin\" } {\n"
                            "            forbid writable(dir)\n"
                            "        }\n"
                            "    }\n"
                            "}\n"
                            "provider docker {\n"
                            "    uid_split default auto\n"
                            "}\n"
                            "provider e2b {\n"
                            "    uid_split default auto\n"
                            "}\n";

static hp_bc *compile_policy(void)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("w.hpol", policy, strlen(policy), NULL, &d);
	size_t len = 0;
	uint8_t *data = p->ok ? hp_codegen(p, &len, &d) : NULL;
	hp_program_free(p);
	hp_diags_free(&d);
	assert_non_null(data);
	hp_err err;
	hp_bc *bc = hp_bc_load("w.hpb", data, len, &err);
	free(data);
	assert_non_null(bc);
	return bc;
}

/* One judged run: the facts' answers for sudo, /bin and /usr/bin, the
 * waiver file's text, and --only/--skip (one rule id each, or NULL). */
typedef struct {
	hp_bc *bc;
	hp_facts *f;
	hp_eval ev;
	hp_waivers w;
	hp_strv only, skip;
	hp_judgement j;
} judged;

static void judge(judged *r, const char *sudo, const char *bin, const char *usrbin,
                  const char *waivers, const char *only, const char *skip)
{
	memset(r, 0, sizeof *r);
	r->bc = compile_policy();
	char facts[512];
	snprintf(facts, sizeof facts,
	         "facts:\n"
	         "  - {role: agent, probe: sudo, answer: %s}\n"
	         "  - {role: agent, probe: writable, arg: /bin, answer: %s}\n"
	         "  - {role: agent, probe: writable, arg: /usr/bin, answer: %s}\n",
	         sudo, bin, usrbin);
	r->f = hp_probe_facts_new();
	hp_err err;
	if (!hp_probe_facts_load(r->f, "f.yaml", facts, strlen(facts), &err))
		fail_msg("%s", err.msg);
	assert_true(hp_eval_run(r->bc, hp_probe_facts_backend(r->f), NULL, 0, NULL, &r->ev, &err));
	if (waivers) {
		if (!hp_waivers_load(&r->w, "w.yaml", waivers, strlen(waivers), day("2026-12-01"),
		                     &err))
			fail_msg("%s", err.msg);
		assert_true(hp_waivers_check(&r->w, r->bc, &err));
	}
	if (only)
		hp_strv_push(&r->only, only);
	if (skip)
		hp_strv_push(&r->skip, skip);
	hp_run_view run = {&r->ev, false, 0, NULL, r->f};
	hp_verdict_opts o = {.provider = HP_PROVIDER_DOCKER,
	                     .mode = HP_MODE_AUTO,
	                     .format = HP_FMT_TEXT,
	                     .waivers = &r->w,
	                     .only = &r->only,
	                     .skip = &r->skip};
	hp_judge(&run, &o, &r->j);
}

static void judged_free(judged *r)
{
	hp_judgement_free(&r->j);
	hp_strv_free(&r->only);
	hp_strv_free(&r->skip);
	hp_waivers_free(&r->w);
	hp_eval_free(&r->ev);
	hp_probe_facts_free(r->f);
	hp_bc_free(r->bc);
}

static hp_result result_of(const judged *r, const char *id)
{
	for (size_t i = 0; i < r->j.nrules; i++)
		if (strcmp(r->j.rules[i].id, id) == 0)
			return r->j.rules[i].result;
	fail_msg("no rule %s", id);
	return HP_RESULT_COUNT;
}

static const char *waive_bin = "waivers:\n"
                               "  - {rule: dirs, arg: /bin, justification: ro mount, "
                               "expires: 2027-01-31}\n";
static const char *waive_both = "waivers:\n"
                                "  - {rule: dirs, arg: /bin, justification: ro mount, "
                                "expires: 2027-01-31}\n"
                                "  - {rule: dirs, arg: /usr/bin, justification: ro too, "
                                "expires: 2027-01-31}\n";

static void test_apply_waives_every_item(void **state)
{
	(void)state;
	judged r;
	/* without a waiver: dirs fails, no split */
	judge(&r, "false", "true", "false", NULL, NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_FAIL);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	judged_free(&r);
	/* the one failing item waived: waived, the split rests on it */
	judge(&r, "false", "true", "false", waive_bin, NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_WAIVED);
	assert_int_equal(result_of(&r, "no-sudo"), HP_RESULT_PASS);
	assert_string_equal(r.j.rules[1].waiver, "ro mount (waiver at w.yaml:2:5, until 2027-01-31)");
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SPLIT);
	assert_int_equal(r.j.d.reasons[HP_MODE_AUTO].n, 0);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 1);
	assert_non_null(strstr(r.j.d.waived[HP_MODE_AUTO].v[0],
	                       "rule 'dirs' failed and is waived: the agent could plant a binary ("));
	assert_non_null(strstr(r.j.d.waived[HP_MODE_AUTO].v[0],
	                       "Waived: ro mount (waiver at w.yaml:2:5, until 2027-01-31)"));
	assert_int_equal(r.j.d.warnings[HP_MODE_AUTO].n, 1);
	assert_string_equal(r.j.d.warnings[HP_MODE_AUTO].v[0],
	                    "the decision for auto turns rests on 1 waiver of a failed rule: see "
	                    "'waived'");
	judged_free(&r);
	/* /usr/bin fails too: a waiver of /bin alone leaves the rule failed */
	judge(&r, "false", "true", "true", waive_bin, NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_FAIL);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 0);
	assert_string_equal(r.j.d.reasons[HP_MODE_AUTO].v[0], "rule 'dirs' failed (see the rule)");
	judged_free(&r);
	/* ... and both waived, waived */
	judge(&r, "false", "true", "true", waive_both, NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_WAIVED);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SPLIT);
	judged_free(&r);
	/* a waiver for another provider does not apply */
	judge(&r, "false", "true", "false",
	      "waivers:\n  - {rule: dirs, provider: e2b, justification: j, expires: 2027-01-31}\n",
	      NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_FAIL);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	judged_free(&r);
	/* nor one of an argument that did not fail */
	judge(&r, "false", "true", "false",
	      "waivers:\n  - {rule: dirs, arg: /sbin, justification: j, expires: 2027-01-31}\n",
	      NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_FAIL);
	judged_free(&r);
	/* a rule that passes stays a pass, waiver or not */
	judge(&r, "false", "false", "false", waive_both, NULL, NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_PASS);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 0);
	assert_int_equal(r.j.d.warnings[HP_MODE_AUTO].n, 0);
	judged_free(&r);
}

static void test_apply_never_waives_unknown(void **state)
{
	(void)state;
	judged r;
	/* sudo unknown: the rule is an error, and its waiver is refused */
	judge(&r, "unknown", "false", "false",
	      "waivers:\n  - {rule: no-sudo, justification: j, expires: 2027-01-31}\n", NULL, NULL);
	assert_int_equal(result_of(&r, "no-sudo"), HP_RESULT_ERROR);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 0);
	assert_int_equal(r.j.notes.n, 1);
	assert_string_equal(r.j.notes.v[0],
	                    "the waiver of rule 'no-sudo' at w.yaml:2:5 is refused: the rule is an "
	                    "error (unknown), and no waiver can waive an unknown");
	judged_free(&r);
	/* /bin fails and /usr/bin is unknown: waiving both items waives nothing */
	judge(&r, "false", "true", "unknown", waive_both, NULL, NULL);
	assert_int_not_equal(result_of(&r, "dirs"), HP_RESULT_WAIVED);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 0);
	assert_int_equal(r.j.notes.n, 1);
	assert_non_null(strstr(r.j.notes.v[0], "the waiver of rule 'dirs' at w.yaml:2:5 is refused: "));
	assert_non_null(strstr(r.j.notes.v[0], "no waiver can waive"));
	judged_free(&r);
	/* a skipped check (offline) is no failure to waive either */
	judge(&r, "skipped", "false", "false",
	      "waivers:\n  - {rule: no-sudo, justification: j, expires: 2027-01-31}\n", NULL, NULL);
	assert_int_equal(result_of(&r, "no-sudo"), HP_RESULT_SKIPPED);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_string_equal(r.j.notes.v[0],
	                    "the waiver of rule 'no-sudo' at w.yaml:2:5 is refused: the rule is "
	                    "skipped, and no waiver can waive a check that did not run");
	judged_free(&r);
}

/* A rule with checks in two roles, the root's failing: the agent's role
 * runs, is left out (--role), or stops on a limit. */
static const char *two_roles = "policy \"two\" version 1\n"
                               "role root = uid 0\n"
                               "role agent = uid 1000\n"
                               "rule r1 \"one rule, two roles\" {\n"
                               "    as root { require (env(\"A\") or \"\") == \"pass\" }\n"
                               "    as agent { require writable(\"/x\") == false }\n"
                               "}\n"
                               "provider docker {\n"
                               "    uid_split default auto\n"
                               "}\n";

/* the agent's role stopped by a limit: no question may be asked */
static void run_stopping_agent(void *ctx, const hp_bc *bc, const hp_globals *g, hp_role role,
                               hp_backend *b, const hp_limits *lim, hp_role_result *out)
{
	(void)ctx;
	hp_limits none = *lim;
	none.max_probes = 0;
	hp_vm_run_role(bc, g, role, b, role == HP_ROLE_AGENT ? &none : lim, out);
}

typedef enum { AGENT_RUNS, AGENT_LEFT_OUT, AGENT_STOPS } agent_run;

static void judge_two_roles(hp_judgement *j, agent_run how, hp_strv *notes_out)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("two.hpol", two_roles, strlen(two_roles), NULL, &d);
	size_t len = 0;
	uint8_t *data = p->ok ? hp_codegen(p, &len, &d) : NULL;
	hp_program_free(p);
	hp_diags_free(&d);
	assert_non_null(data);
	hp_err err;
	hp_bc *bc = hp_bc_load("two.hpb", data, len, &err);
	free(data);
	assert_non_null(bc);
	static const char facts[] = "facts:\n"
	                            "  - {probe: env, arg: A, answer: \"fail\"}\n"
	                            "  - {role: agent, probe: writable, arg: /x, answer: false}\n";
	hp_facts *f = hp_probe_facts_new();
	assert_true(hp_probe_facts_load(f, "f.yaml", facts, sizeof facts - 1, &err));
	hp_limits lim;
	hp_limits_default(&lim);
	hp_eval_opts eo = {.roles = how == AGENT_LEFT_OUT ? 1u << HP_ROLE_ROOT : 0,
	                   .run_role = how == AGENT_STOPS ? run_stopping_agent : NULL,
	                   .limits = &lim};
	hp_eval ev;
	assert_true(hp_eval_run(bc, hp_probe_facts_backend(f), NULL, 0, &eo, &ev, &err));
	static const char w[] = "waivers:\n"
	                        "  - {rule: r1, arg: A, justification: known, expires: 2027-01-31}\n";
	hp_waivers ws = {0};
	assert_true(hp_waivers_load(&ws, "w.yaml", w, sizeof w - 1, day("2026-12-01"), &err));
	hp_run_view run = {&ev, false, 0, NULL, f};
	hp_verdict_opts o = {.provider = HP_PROVIDER_DOCKER,
	                     .mode = HP_MODE_ASK,
	                     .format = HP_FMT_TEXT,
	                     .waivers = &ws};
	hp_judge(&run, &o, j);
	for (size_t i = 0; i < j->notes.n; i++)
		hp_strv_push(notes_out, j->notes.v[i]);
	hp_waivers_free(&ws);
	hp_eval_free(&ev);
	hp_probe_facts_free(f);
	hp_bc_free(bc);
}

/* A waiver covers the failures it names, never a role's checks that did
 * not run or stopped: those have no outcome, and waiving the failures
 * seen would pass them unchecked (docs/waivers.md). */
static void test_apply_never_waives_a_role_not_run(void **state)
{
	(void)state;
	hp_judgement j;
	hp_strv notes = {0};
	/* both roles ran, the agent's check held: the root's failure is waived */
	judge_two_roles(&j, AGENT_RUNS, &notes);
	assert_int_equal(j.rules[0].result, HP_RESULT_WAIVED);
	assert_int_equal(j.d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
	assert_int_equal(notes.n, 0);
	hp_judgement_free(&j);
	static const agent_run unrun[] = {AGENT_LEFT_OUT, AGENT_STOPS};
	for (size_t k = 0; k < 2; k++) {
		judge_two_roles(&j, unrun[k], &notes);
		assert_int_equal(j.rules[0].result, HP_RESULT_FAIL);
		assert_null(j.rules[0].waiver);
		assert_int_not_equal(j.d.decision[HP_MODE_ASK], HP_DECISION_SPLIT);
		assert_int_equal(j.d.waived[HP_MODE_ASK].n, 0);
		assert_int_equal(notes.n, k + 1);
		assert_string_equal(notes.v[k],
		                    "the waiver of rule 'r1' at w.yaml:2:5 is refused: role agent did "
		                    "not run or stopped, and no waiver can waive a check that did not "
		                    "run");
		hp_judgement_free(&j);
	}
	hp_strv_free(&notes);
}

static void test_only_and_skip(void **state)
{
	(void)state;
	judged r;
	/* everything passes, but --skip dirs: dirs skipped, never a pass, no split */
	judge(&r, "false", "false", "false", NULL, NULL, "dirs");
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_SKIPPED);
	assert_int_equal(result_of(&r, "no-sudo"), HP_RESULT_PASS);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_string_equal(r.j.d.reasons[HP_MODE_AUTO].v[0],
	                    "rule 'dirs' was not checked (see the rule)");
	assert_string_equal(r.j.notes.v[0],
	                    "1 rule was left out with --only or --skip: a rule that is not checked "
	                    "never passes, so no mode it counts for is split");
	judged_free(&r);
	/* --only no-sudo leaves dirs out the same way */
	judge(&r, "false", "false", "false", NULL, "no-sudo", NULL);
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_SKIPPED);
	assert_int_equal(result_of(&r, "no-sudo"), HP_RESULT_PASS);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	judged_free(&r);
	/* a skipped rule loses its waiver: it was not checked, so nothing is waived */
	judge(&r, "false", "true", "false", waive_bin, NULL, "dirs");
	assert_int_equal(result_of(&r, "dirs"), HP_RESULT_SKIPPED);
	assert_null(r.j.rules[1].waiver);
	assert_int_equal(r.j.d.waived[HP_MODE_AUTO].n, 0);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	judged_free(&r);
	/* --only of every rule: nothing left out, no note, a split */
	judge(&r, "false", "false", "false", NULL, NULL, NULL);
	assert_int_equal(r.j.notes.n, 0);
	assert_int_equal(r.j.d.decision[HP_MODE_AUTO], HP_DECISION_SPLIT);
	judged_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dates),
	    cmocka_unit_test(test_today),
	    cmocka_unit_test(test_load),
	    cmocka_unit_test(test_apply_waives_every_item),
	    cmocka_unit_test(test_apply_never_waives_unknown),
	    cmocka_unit_test(test_apply_never_waives_a_role_not_run),
	    cmocka_unit_test(test_only_and_skip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
