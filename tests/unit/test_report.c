/* test_report.c: the JSON contract and the text layout of a report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "check/report.h"

static void make(hp_decisions *d, hp_report *r, hp_report_rule *rules, hp_strv *notes)
{
	static const char *ev[] = {"sudoers_grants(\"agent\") as root: true",
	                           "/etc/sudoers.d/agent:1"};
	rules[0] = (hp_report_rule){"hangar-user",
	                            "the driver needs a user of its own",
	                            "policies/hangar.hpol:12:1",
	                            NULL,
	                            HP_RESULT_PASS,
	                            NULL,
	                            0,
	                            NULL};
	rules[1] = (hp_report_rule){"agent-no-sudo",
	                            "an agent with \"sudo\" answers its approvals",
	                            "policies/hangar.hpol:20:1",
	                            "remove the grant",
	                            HP_RESULT_FAIL,
	                            ev,
	                            2,
	                            NULL};
	hp_rule_outcome outs[2] = {
	    {"hangar-user", "t", NULL, "l", HP_RESULT_PASS, HP_APPLIES_ALL, NULL, NULL},
	    {"agent-no-sudo", "an agent with sudo", NULL, "policies/hangar.hpol:20:1",
	     HP_RESULT_FAIL, HP_APPLIES_ALL, "sudo: true", NULL},
	};
	hp_provider_policy pp = {HP_PROVIDER_DOCKER, HP_SETTING_AUTO, NULL, 0, NULL, 0, NULL,
	                         NULL, NULL, 0};
	hp_uid_split s = hp_uid_split_resolve(NULL, "required", HP_SETTING_AUTO);
	hp_decide(&pp, &s, outs, 2, false, 0, d);
	hp_strv_push(notes, "role hangar not run: needs root");
	*r = (hp_report){.policy = "hangar-uid-split",
	                 .policy_version = 3,
	                 .policy_checksum = 0x0badf00d,
	                 .policy_source = "from p/hangar.hpol",
	                 .location_base = "p",
	                 .provider_source = "--provider",
	                 .provider = HP_PROVIDER_DOCKER,
	                 .setting = s,
	                 .mode = HP_MODE_ASK,
	                 .decisions = d,
	                 .rules = rules,
	                 .nrules = 2,
	                 .notes = notes};
	r->users[HP_ROLE_ROOT] =
	    (hp_report_identity){true, true, NULL, 0, NULL, "the policy's role root"};
	r->users[HP_ROLE_HANGAR] =
	    (hp_report_identity){true, true, "hangar", 999, NULL, "the policy's role hangar"};
	r->users[HP_ROLE_AGENT] = (hp_report_identity){
	    true, false, NULL, 0, "no such user", "the policy's role agent, with --param agent_user"};
}

static void test_json(void **state)
{
	(void)state;
	hp_decisions d;
	hp_report r;
	hp_report_rule rules[2];
	hp_strv notes = {0};
	make(&d, &r, rules, &notes);
	hp_buf b = {0};
	hp_report_json(&r, &b);
	assert_string_equal(
	    b.data,
	    "{\"format_version\": 1, \"policy\": \"hangar-uid-split\", \"policy_version\": 3, "
	    "\"policy_checksum\": \"0badf00d\", \"policy_source\": \"from p/hangar.hpol\", "
	    "\"location_base\": \"p\", \"provider\": \"docker\", \"provider_source\": "
	    "\"--provider\", \"users\": {\"root\": {\"name\": null, \"uid\": 0, \"from\": \"the "
	    "policy's role root\"}, \"hangar\": {\"name\": \"hangar\", \"uid\": 999, \"from\": "
	    "\"the policy's role hangar\"}, \"agent\": {\"name\": null, \"uid\": null, \"from\": "
	    "\"the policy's role agent, with --param agent_user\"}}, \"uid_split\": "
	    "{\"value\": \"required\", \"source\": \"env\"}, \"mode\": \"ask\", \"decision\": "
	    "\"refuse\", \"modes\": {\"auto\": \"single-user\", \"ask\": \"refuse\", "
	    "\"deny-risky\": \"refuse\", \"governed\": \"refuse\"}, \"rules\": [{\"id\": "
	    "\"hangar-user\", \"title\": \"the driver needs a user of its own\", \"result\": "
	    "\"pass\", \"evidence\": [], \"location\": "
	    "\"policies/hangar.hpol:12:1\", \"remedy\": "
	    "null, \"waiver\": null}, {\"id\": \"agent-no-sudo\", \"title\": \"an agent with \\\"sudo\\\" answers "
	    "its "
	    "approvals\", \"result\": \"fail\", \"evidence\": "
	    "[\"sudoers_grants(\\\"agent\\\") as "
	    "root: true\", \"/etc/sudoers.d/agent:1\"], \"location\": "
	    "\"policies/hangar.hpol:20:1\", "
	    "\"remedy\": \"remove the grant\", \"waiver\": null}], \"reasons\": [\"rule 'agent-no-sudo' failed (see "
	    "the rule)\"], \"warnings\": [\"role "
	    "hangar not run: needs root\"], \"waived\": [], \"offline\": false, \"readiness\": "
	    "{\"provider_builds_split\": true, \"unbuilt\": null, \"would_split\": false, "
	    "\"modes\": {\"auto\": false, \"ask\": false, \"deny-risky\": false, "
	    "\"governed\": false}, \"reasons\": [\"rule 'agent-no-sudo' failed (see the "
	    "rule)\"]}}\n");
	hp_buf_free(&b);
	hp_decisions_free(&d);
	hp_strv_free(&notes);
}

static void test_text(void **state)
{
	(void)state;
	hp_decisions d;
	hp_report r;
	hp_report_rule rules[2];
	hp_strv notes = {0};
	make(&d, &r, rules, &notes);
	hp_buf b = {0};
	hp_report_text(&r, false, &b);
	assert_string_equal(
	    b.data, "policy hangar-uid-split version 3 (checksum 0badf00d), from p/hangar.hpol\n"
	            "provider docker (--provider), uid split required (env)\n"
	            "hangar user hangar (uid 999), from the policy's role hangar\n"
	            "agent  unknown (no such user), from the policy's role agent, with --param "
	            "agent_user\n"
	            "locations are relative to p\n"
	            "\n"
	            "  mode        decision\n"
	            "  auto        single-user\n"
	            "  ask         refuse       <- this turn\n"
	            "  deny-risky  refuse\n"
	            "  governed    refuse\n"
	            "\n"
	            "rules that did not pass:\n"
	            "  fail    agent-no-sudo: an agent with \"sudo\" answers its approvals\n"
	            "          evidence: sudoers_grants(\"agent\") as root: true\n"
	            "          evidence: /etc/sudoers.d/agent:1\n"
	            "          at policies/hangar.hpol:20:1\n"
	            "          remedy: remove the grant\n"
	            "\n"
	            "1 of 2 rules passed.\n"
	            "decision for ask turns: refuse\n"
	            "\n"
	            "reasons:\n"
	            "  - rule 'agent-no-sudo' failed (see the rule)\n"
	            "\n"
	            "warnings:\n"
	            "  - role hangar not run: needs root\n");
	hp_buf_free(&b);
	/* colour only when asked, and then around the decision */
	hp_report_text(&r, true, &b);
	assert_non_null(strstr(b.data, "\033[31mrefuse"));
	hp_buf_free(&b);
	hp_decisions_free(&d);
	hp_strv_free(&notes);
}

/* Where the provider builds no split, the text report says what would
 * still block it once it does, and JSON says the same. */
static void test_readiness(void **state)
{
	(void)state;
	hp_rule_outcome outs[1] = {
	    {"agent-no-sudo", "an agent with sudo", NULL, "policies/hangar.hpol:20:1",
	     HP_RESULT_FAIL, HP_APPLIES_ALL, "sudo: true", NULL},
	};
	hp_report_rule rules[1] = {{"agent-no-sudo", "an agent with sudo",
	                            "policies/hangar.hpol:20:1", NULL, HP_RESULT_PASS, NULL, 0, NULL}};
	hp_provider_policy pp = {HP_PROVIDER_CUBESANDBOX,
	                         HP_SETTING_REQUIRED,
	                         NULL,
	                         0,
	                         NULL,
	                         0,
	                         NULL,
	                         hp_provider_unbuilt(HP_PROVIDER_CUBESANDBOX),
	                         NULL,
	                         0};
	hp_uid_split s = hp_uid_split_resolve(NULL, NULL, HP_SETTING_REQUIRED);
	for (int failing = 0; failing < 2; failing++) {
		hp_decisions d;
		outs[0].result = failing ? HP_RESULT_FAIL : HP_RESULT_PASS;
		rules[0].result = outs[0].result;
		hp_decide(&pp, &s, outs, 1, false, 0, &d);
		assert_int_equal(d.decision[HP_MODE_ASK], HP_DECISION_REFUSE);
		assert_int_equal(d.would_split[HP_MODE_ASK], !failing);
		hp_report r = {.policy = "p",
		               .provider = HP_PROVIDER_CUBESANDBOX,
		               .setting = s,
		               .mode = HP_MODE_ASK,
		               .decisions = &d,
		               .rules = rules,
		               .nrules = 1,
		               .unbuilt = pp.unbuilt};
		hp_buf b = {0};
		hp_report_text(&r, false, &b);
		const char *sec = strstr(b.data, "\nreadiness: ");
		assert_non_null(sec);
		if (failing)
			assert_string_equal(
			    sec, "\nreadiness: hangar's E2B provider, through which e2b and "
			         "cubesandbox are reached, does not build the uid split yet (KAN-200): "
			         "the driver would share the agent's user\n"
			         "  would split once the provider builds it: no, because\n"
			         "    - rule 'agent-no-sudo' failed (see the rule)\n");
		else
			assert_non_null(strstr(sec, "\n  would split once the provider builds it: "
			                            "yes, because every rule of the split passes for "
			                            "ask turns and nothing else forbids it\n"));
		hp_buf_free(&b);
		hp_report_json(&r, &b);
		assert_non_null(strstr(b.data, failing ? "\"would_split\": false, \"modes\""
		                                       : "\"would_split\": true, \"modes\""));
		assert_non_null(strstr(b.data, "\"provider_builds_split\": false, \"unbuilt\": "
		                               "\"hangar's E2B provider"));
		hp_buf_free(&b);
		hp_decisions_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_readiness),
	    cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
