/* test_domain.c: the vocabularies and probe table generated from the .def lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/domain.h"

static void test_names_round_trip(void **state)
{
	(void)state;
	assert_int_equal(hp_lookup_name(hp_role_names, HP_ROLE_COUNT, "agent"), HP_ROLE_AGENT);
	assert_int_equal(hp_lookup_name(hp_mode_names, HP_MODE_COUNT, "deny-risky"),
	                 HP_MODE_DENY_RISKY);
	assert_int_equal(hp_lookup_name(hp_provider_names, HP_PROVIDER_COUNT, "cubesandbox"),
	                 HP_PROVIDER_CUBESANDBOX);
	assert_int_equal(hp_lookup_name(hp_setting_names, HP_SETTING_COUNT, "required"),
	                 HP_SETTING_REQUIRED);
	assert_int_equal(hp_lookup_name(hp_mode_names, HP_MODE_COUNT, "Ask"), -1);
}

static void test_decision_exit_statuses(void **state)
{
	(void)state;
	assert_int_equal(hp_decision_exit[HP_DECISION_SPLIT], 0);
	assert_int_equal(hp_decision_exit[HP_DECISION_SINGLE_USER], 1);
	assert_int_equal(hp_decision_exit[HP_DECISION_REFUSE], 3);
}

static void test_probe_table(void **state)
{
	(void)state;
	int w = hp_probe_lookup("writable");
	assert_int_equal(w, HP_PROBE_WRITABLE);
	assert_int_equal(hp_probes[w].result, HP_T_BOOL);
	assert_int_equal(hp_probes[w].arg, HP_T_STR);
	assert_int_equal(hp_probes[w].scope, HP_SCOPE_ROLE);
	assert_int_equal(hp_probes[HP_PROBE_SUDO].needs, HP_NEEDS_LIVE);
	assert_int_equal(hp_probe_lookup("no-such-probe"), -1);
	/* names are unique: the facts format and the compiler key on them */
	for (int i = 0; i < HP_PROBE_COUNT; i++)
		for (int j = i + 1; j < HP_PROBE_COUNT; j++)
			assert_string_not_equal(hp_probes[i].name, hp_probes[j].name);
}

/* The names of a table as a message lists them. */
static void test_names_text(void **state)
{
	(void)state;
	char b[128];
	assert_string_equal(hp_names_text(b, sizeof b, hp_mode_names, HP_MODE_COUNT, "or"),
	                    "auto, ask, deny-risky or governed");
	assert_string_equal(hp_names_text(b, sizeof b, hp_role_names, HP_ROLE_COUNT, NULL),
	                    "root, hangar, agent");
	assert_string_equal(hp_names_text(b, sizeof b, hp_setting_names, 2, "or"), "auto or required");
	assert_string_equal(hp_names_text(b, sizeof b, hp_setting_names, 1, "or"), "auto");
	assert_string_equal(hp_names_text(b, sizeof b, hp_setting_names, 0, "or"), "");
	/* cut at the buffer's end between names, never inside one */
	assert_string_equal(hp_names_text(b, 12, hp_mode_names, HP_MODE_COUNT, "or"), "auto, ask");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names_round_trip),
	    cmocka_unit_test(test_decision_exit_statuses),
	    cmocka_unit_test(test_probe_table),
	    cmocka_unit_test(test_names_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
