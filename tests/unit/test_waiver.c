/* test_waiver.c: waiver files (docs/waivers.md): dates, expiry against
 * today, every error's exact message, and the check of rule names. How a
 * waiver applies to a run is covered end to end (e2e policytest/waivers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "check/waiver.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dates),
	    cmocka_unit_test(test_today),
	    cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
