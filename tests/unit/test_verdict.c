/* test_verdict.c: a compiled policy evaluated on facts, then decided and
 * rendered by hp_verdict: the exit status of the turn asked about, the
 * setting taken from the flag before the environment, and the rule results
 * (combine.c) that the decision rests on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/verdict.h"
#include "codegen.h"
#include "front.h"
#include "probe/facts.h"

static const char *policy =
    "policy \"t\" version 1\n"
    "role root = uid 0\n"
    "role agent = uid 1000\n"
    "rule no-sudo \"sudo makes the agent root\" {\n"
    "    as agent { forbid sudo }\n"
    "}\n"
    "rule ctl \"the control directory is the agent's\" when mode != auto {\n"
    "    as root { require owner(\"/ctl\") == 0 }\n"
    "}\n"
    "provider docker {\n"
    "    split needs (env(\"READY\") or \"no\") == \"yes\"\n"
    "}\n"
    "provider e2b {\n"
    "    uid_split default required\n"
    "}\n";

static hp_bc *load(const char *src)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("t.hpol", src, strlen(src), NULL, &d);
	size_t len = 0;
	uint8_t *data = p->ok ? hp_codegen(p, &len, &d) : NULL;
	hp_program_free(p);
	hp_diags_free(&d);
	assert_non_null(data);
	hp_err err;
	hp_bc *bc = hp_bc_load("t.hpb", data, len, &err);
	free(data);
	assert_non_null(bc);
	return bc;
}

typedef struct {
	int status;
	char text[8192];
} verdict;

/* Decide facts for provider p and mode m; the report and the exit status. */
static verdict *decide(const char *facts, hp_provider p, hp_mode m, const char *flag,
                       const char *env, bool json)
{
	static verdict v;
	hp_bc *bc = load(policy);
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	if (!hp_probe_facts_load(f, "f.yaml", facts, strlen(facts), &err))
		fail_msg("%s", err.msg);
	hp_eval ev;
	assert_true(hp_eval_run(bc, hp_probe_facts_backend(f), NULL, 0, NULL, &ev, &err));
	hp_run_view run = {&ev, false, 0, NULL, f};
	hp_verdict_opts o = {.provider = p,
	                     .mode = m,
	                     .uid_split_flag = flag,
	                     .uid_split_env = env,
	                     .format = json ? HP_FMT_JSON : HP_FMT_TEXT};
	hp_buf b = {0};
	assert_true(hp_verdict_knows_provider(bc, p, &err));
	v.status = hp_verdict(&run, &o, &b);
	snprintf(v.text, sizeof v.text, "%s", b.data ? b.data : "");
	hp_buf_free(&b);
	hp_eval_free(&ev);
	hp_probe_facts_free(f);
	hp_bc_free(bc);
	return &v;
}

static const char *good = "facts:\n"
                          "  - {role: agent, probe: sudo, answer: false}\n"
                          "  - {probe: owner, arg: /ctl, answer: 0}\n"
                          "  - {probe: env, arg: READY, answer: \"yes\"}\n";

static void test_split_and_status(void **state)
{
	(void)state;
	verdict *v = decide(good, HP_PROVIDER_DOCKER, HP_MODE_ASK, NULL, NULL, false);
	assert_int_equal(v->status, 0);
	assert_non_null(strstr(v->text, "decision for ask turns: split"));
	/* the status is the asked mode's: ask needs ctl, auto does not */
	const char *bad_ctl = "facts:\n"
	                      "  - {role: agent, probe: sudo, answer: false}\n"
	                      "  - {probe: owner, arg: /ctl, answer: 1000}\n"
	                      "  - {probe: env, arg: READY, answer: \"yes\"}\n";
	v = decide(bad_ctl, HP_PROVIDER_DOCKER, HP_MODE_AUTO, NULL, NULL, false);
	assert_int_equal(v->status, 0);
	v = decide(bad_ctl, HP_PROVIDER_DOCKER, HP_MODE_ASK, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "rule 'ctl' failed"));
	/* under required the turn with approvals is refused (status 3) */
	v = decide(bad_ctl, HP_PROVIDER_DOCKER, HP_MODE_ASK, "required", NULL, false);
	assert_int_equal(v->status, 3);
	v = decide(bad_ctl, HP_PROVIDER_E2B, HP_MODE_GOVERNED, NULL, NULL, false);
	assert_int_equal(v->status, 3);
}

static void test_unknown_never_passes(void **state)
{
	(void)state;
	/* no fact about sudo: unknown, the rule an error, no split */
	const char *no_sudo = "facts:\n"
	                      "  - {probe: owner, arg: /ctl, answer: 0}\n"
	                      "  - {probe: env, arg: READY, answer: \"yes\"}\n";
	verdict *v = decide(no_sudo, HP_PROVIDER_DOCKER, HP_MODE_AUTO, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "rule 'no-sudo' could not be checked"));
	/* skipped (a live probe offline) is no pass either */
	const char *skipped = "facts:\n"
	                      "  - {role: agent, probe: sudo, answer: skipped}\n"
	                      "  - {probe: owner, arg: /ctl, answer: 0}\n"
	                      "  - {probe: env, arg: READY, answer: \"yes\"}\n";
	v = decide(skipped, HP_PROVIDER_DOCKER, HP_MODE_AUTO, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "rule 'no-sudo' was not checked"));
	/* absent is no pass */
	const char *absent = "facts:\n"
	                     "  - {role: agent, probe: sudo, answer: absent}\n"
	                     "  - {probe: owner, arg: /ctl, answer: 0}\n"
	                     "  - {probe: env, arg: READY, answer: \"yes\"}\n";
	v = decide(absent, HP_PROVIDER_DOCKER, HP_MODE_AUTO, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	/* a failure outweighs an unknown in another role of the same rule's */
	const char *sudo_yes = "facts:\n"
	                       "  - {role: agent, probe: sudo, answer: true}\n"
	                       "  - {probe: env, arg: READY, answer: \"yes\"}\n";
	v = decide(sudo_yes, HP_PROVIDER_DOCKER, HP_MODE_ASK, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "rule 'no-sudo' failed"));
	assert_non_null(strstr(v->text, "rule 'ctl' could not be checked"));
	/* the split-needs condition unknown or false: no split */
	const char *not_ready = "facts:\n"
	                        "  - {role: agent, probe: sudo, answer: false}\n"
	                        "  - {probe: owner, arg: /ctl, answer: 0}\n"
	                        "  - {probe: env, arg: READY, answer: unknown}\n";
	v = decide(not_ready, HP_PROVIDER_DOCKER, HP_MODE_AUTO, NULL, NULL, false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "which could not be established"));
}

/* The envd setting a recording answers unknown or skipped (a value not
 * valid UTF-8, or longer than a string may be) may be on: it forbids the
 * split once built, as a set one does; absent is unset and forbids nothing. */
static void test_envd_not_known_forbids(void **state)
{
	(void)state;
	static const char *const answers[] = {
	    "unknown, reason: \"the observed value is not valid UTF-8 and cannot be recorded\"",
	    "skipped", "absent", "\"0\""};
	static const bool forbids[] = {true, true, false, false};
	for (size_t i = 0; i < sizeof answers / sizeof *answers; i++) {
		char facts[600];
		snprintf(facts, sizeof facts,
		         "%s  - {probe: env, arg: HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD, answer: %s}\n",
		         good, answers[i]);
		verdict *v = decide(facts, HP_PROVIDER_E2B, HP_MODE_ASK, NULL, NULL, false);
		assert_int_equal(v->status, 3);
		const char *ready = forbids[i] ? "would split once the provider builds it: no"
		                               : "would split once the provider builds it: yes";
		if (!strstr(v->text, ready))
			fail_msg("answer %s: no '%s' in\n%s", answers[i], ready, v->text);
		bool said = strstr(v->text, "HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD may be set: its "
		                            "value is not known") != NULL;
		assert_int_equal(said, forbids[i]);
	}
	verdict *v = decide(
	    "facts:\n  - {probe: env, arg: HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD, answer: unknown,\n"
	    "     reason: \"the answer is longer than 65536 bytes\"}\n",
	    HP_PROVIDER_E2B, HP_MODE_ASK, NULL, NULL, false);
	assert_non_null(strstr(v->text, "its value is not known (the answer is longer than 65536 "
	                                "bytes, in the facts, f.yaml:2, recorded in the sandbox)"));
}

static void test_setting_sources(void **state)
{
	(void)state;
	/* the flag wins over the environment; the environment over the default */
	verdict *v = decide(good, HP_PROVIDER_DOCKER, HP_MODE_ASK, "off", "auto", false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "uid split off (flag)"));
	v = decide(good, HP_PROVIDER_DOCKER, HP_MODE_ASK, NULL, "off", false);
	assert_int_equal(v->status, 1);
	assert_non_null(strstr(v->text, "uid split off (env)"));
	v = decide(good, HP_PROVIDER_E2B, HP_MODE_AUTO, NULL, NULL, false);
	assert_non_null(strstr(v->text, "uid split required (default)"));
	/* JSON says the same */
	v = decide(good, HP_PROVIDER_DOCKER, HP_MODE_ASK, NULL, NULL, true);
	assert_int_equal(v->status, 0);
	assert_non_null(strstr(v->text, "\"decision\": \"split\""));
}

/* Where a user came from: every param the role's identity reads, those
 * params read too, each answer looked at with its facts line (a cached
 * answer included), and the answer that gave the user. */
static void test_user_sources(void **state)
{
	(void)state;
	const char *src = "policy \"u\" version 1\n"
	                  "param base = env(\"WHO\") or user(uid 1000).name\n"
	                  "param other = user(uid 1000).name\n"
	                  "param who = base\n"
	                  "role root = uid 0\n"
	                  "role agent = user(who)\n"
	                  "rule r \"t\" {\n"
	                  "    as agent { forbid sudo }\n"
	                  "}\n"
	                  "provider docker {\n"
	                  "    uid_split default auto\n"
	                  "}\n";
	const char *facts = "facts:\n"
	                    "  - {probe: env, arg: WHO, answer: absent}\n"
	                    "  - {probe: user_by_uid, arg: 1000, answer: {name: a, uid: 1000, gid: 1000, "
	                    "home: /h, shell: /s, groups: []}}\n"
	                    "  - {probe: user, arg: a, answer: {name: a, uid: 1000, gid: 1000, "
	                    "home: /h, shell: /s, groups: []}}\n";
	hp_bc *bc = load(src);
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	if (!hp_probe_facts_load(f, "a-facts-file-whose-name-is-longer-than-the-sixty-four-bytes-a-message-quotes.yaml", facts, strlen(facts), &err))
		fail_msg("%s", err.msg);
	hp_eval ev;
	assert_true(hp_eval_run(bc, hp_probe_facts_backend(f), NULL, 0, NULL, &ev, &err));
	hp_run_view run = {&ev, false, 0, NULL, f};
	hp_verdict_opts o = {.provider = HP_PROVIDER_DOCKER, .mode = HP_MODE_ASK};
	hp_buf b = {0};
	hp_verdict(&run, &o, &b);
	assert_non_null(strstr(
	    b.data, "agent  user a (uid 1000), from the policy's role agent: base from "
	            "env(\"WHO\") (a-facts-file-whose-name-is-longer-than-the-sixty-four-bytes-a-message-quotes.yaml:2), then user_by_uid(1000) (a-facts-file-whose-name-is-longer-than-the-sixty-four-bytes-a-message-quotes.yaml:3); who as the policy "
	            "sets it; the user from user(\"a\") (a-facts-file-whose-name-is-longer-than-the-sixty-four-bytes-a-message-quotes.yaml:4)\n"));
	hp_buf_free(&b);
	/* --container: the user the container runs as, not phase one's */
	o.container = "c1";
	o.container_roles = 1u << HP_ROLE_AGENT;
	o.container_uid = 4242;
	hp_verdict(&run, &o, &b);
	assert_non_null(strstr(
	    b.data, "agent  uid 4242, from --container c1: the user the container runs as\n"));
	hp_buf_free(&b);
	hp_eval_free(&ev);
	hp_probe_facts_free(f);
	hp_bc_free(bc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split_and_status),
	    cmocka_unit_test(test_unknown_never_passes),
	    cmocka_unit_test(test_setting_sources),
	    cmocka_unit_test(test_envd_not_known_forbids),
	    cmocka_unit_test(test_user_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
