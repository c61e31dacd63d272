/* test_testfile.c: test files (docs/testing.md) and the YAML tree under
 * them: defaults layered into cases, inline facts handed to the facts
 * reader at their own lines and columns, and every error's exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/facts.h"
#include "testfile.h"
#include "check/ytree.h"

static bool parse(const char *text, hp_test_file *tf, hp_err *err)
{
	return hp_test_file_parse("dir/t_test.yaml", text, strlen(text), tf, err);
}

static void refused(const char *text, const char *msg)
{
	hp_test_file tf;
	hp_err err;
	assert_false(parse(text, &tf, &err));
	assert_string_equal(err.msg, msg);
	hp_test_file_free(&tf);
}

static void test_layering(void **state)
{
	(void)state;
	hp_test_file tf;
	hp_err err;
	const char *text = "policy: p.hpol\n"
	                   "provider: docker\n"
	                   "env: {HANGAR_UID_SPLIT: auto, A: file}\n"
	                   "facts_files: [base.yaml]\n"
	                   "cases:\n"
	                   "  - name: first\n"
	                   "    env: {A: case}\n"
	                   "    facts_files: [/abs/more.yaml]\n"
	                   "    expect: {decision: split}\n"
	                   "  - name: second\n"
	                   "    policy: q.hpol\n"
	                   "    provider: e2b\n"
	                   "    expect:\n"
	                   "      modes: {ask: refuse, auto: single-user}\n"
	                   "      rules: {r1: fail, r2: error}\n"
	                   "      other_rules: pass\n";
	assert_true(parse(text, &tf, &err));
	assert_int_equal(tf.ncases, 2);
	const hp_test_case *a = &tf.cases[0], *b = &tf.cases[1];
	assert_string_equal(a->name, "first");
	assert_string_equal(a->policy, "dir/p.hpol");
	assert_int_equal(a->provider, HP_PROVIDER_DOCKER);
	assert_int_equal(a->env_names.n, 2);
	assert_string_equal(a->env_names.v[1], "A");
	assert_string_equal(a->env_values.v[1], "case");
	assert_int_equal(a->facts_files.n, 2);
	assert_string_equal(a->facts_files.v[0], "dir/base.yaml");
	assert_string_equal(a->facts_files.v[1], "/abs/more.yaml");
	for (int m = 0; m < HP_MODE_COUNT; m++)
		assert_int_equal(a->modes[m], HP_DECISION_SPLIT);
	assert_int_equal(a->other_rules, -1);
	assert_int_equal(a->line, 6);
	assert_string_equal(b->policy, "dir/q.hpol");
	assert_int_equal(b->provider, HP_PROVIDER_E2B);
	assert_string_equal(b->env_values.v[1], "file");
	assert_int_equal(b->modes[HP_MODE_ASK], HP_DECISION_REFUSE);
	assert_int_equal(b->modes[HP_MODE_AUTO], HP_DECISION_SINGLE_USER);
	assert_int_equal(b->modes[HP_MODE_GOVERNED], -1);
	assert_int_equal(b->nrules, 2);
	assert_string_equal(b->rules[1].id, "r2");
	assert_int_equal(b->rules[1].result, HP_RESULT_ERROR);
	assert_int_equal(b->other_rules, HP_RESULT_PASS);
	hp_test_file_free(&tf);
}

/* Facts written in a case are read by the facts reader where they stand:
 * its message names the test file, line and column, even after a
 * multibyte character earlier on the line. */
static void test_inline_facts_keep_their_place(void **state)
{
	(void)state;
	hp_test_file tf;
	hp_err err;
	const char *text = "policy: p.hpol\n"
	                   "provider: docker\n"
	                   "facts: [{probe: env, arg: PATH, answer: /bin}]\n"
	                   "cases:\n"
	                   "  - {name: \"\xc3\xa9t\xc3\xa9\", facts: [{probe: sudoo, answer: true}], "
	                   "expect: {decision: split}}\n";
	assert_true(parse(text, &tf, &err));
	const hp_test_case *c = &tf.cases[0];
	assert_int_equal(c->ninline, 2);
	hp_facts *f = hp_probe_facts_new();
	assert_true(hp_probe_facts_load(f, "dir/t_test.yaml", c->inline_facts[0].text,
	                          c->inline_facts[0].len, &err));
	assert_int_equal(hp_probe_facts_count(f), 1);
	assert_false(hp_probe_facts_load(f, "dir/t_test.yaml", c->inline_facts[1].text,
	                           c->inline_facts[1].len, &err));
	assert_string_equal(err.msg, "dir/t_test.yaml:5:35: unknown probe 'sudoo'");
	hp_probe_facts_free(f);
	hp_test_file_free(&tf);
}

static void test_errors(void **state)
{
	(void)state;
	refused("- a\n", "dir/t_test.yaml:1:1: a test file is a mapping with a 'cases' list "
	                 "(docs/testing.md)");
	refused("", "dir/t_test.yaml:1:1: a test file is a mapping with a 'cases' list "
	            "(docs/testing.md)");
	refused("version: 2\ncases: []\n", "dir/t_test.yaml:1:10: version must be 1");
	refused("policy: p\n", "dir/t_test.yaml:1:1: no 'cases' list");
	refused("cases: []\n", "dir/t_test.yaml:1:8: cases is empty: a test file needs a case");
	refused("cases: [{name: a, expect: {decision: split}}]\n",
	        "dir/t_test.yaml:1:9: case 'a' names no policy");
	refused("policy: p\nprovider: dockr\ncases: [{name: a}]\n",
	        "dir/t_test.yaml:2:11: the provider 'dockr' is not docker, kubernetes, e2b or "
	        "cubesandbox");
	refused("policy: p\nprovider: docker\ncases: [{name: a, expect: {decision: split, "
	        "modes: {ask: split}}}]\n",
	        "dir/t_test.yaml:3:52: give either decision (every mode) or modes, not both");
	refused("policy: p\nprovider: docker\ncases: [{name: a, expect: {rules: {x: passed}}}]\n",
	        "dir/t_test.yaml:3:39: the result 'passed' is not pass, fail, error, skipped or waived");
	refused("policy: p\nprovider: docker\ncases: [{name: a, expect: {rules: {x: pass, x: "
	        "fail}}}]\n",
	        "dir/t_test.yaml:3:45: rule 'x' given twice (first at line 3)");
	refused("policy: p\nprovider: docker\nenv: {A: [1]}\ncases: [{name: a}]\n",
	        "dir/t_test.yaml:3:10: the value of 'A' must be a scalar, not a list");
	refused("policy: p\nprovider: docker\nfacts: {probe: env}\ncases: [{name: a}]\n",
	        "dir/t_test.yaml:3:8: facts must be a list of facts, not a mapping");
	refused("policy: p\npolicy: q\ncases: [{name: a}]\n",
	        "dir/t_test.yaml:2:1: key 'policy' given twice (first at line 1)");
	refused("a: *x\n", "dir/t_test.yaml:1:4: aliases are not allowed (a file is read without expansion)");
	refused("a: 1\n---\nb: 2\n", "dir/t_test.yaml:2:1: more than one YAML document in the file");
	refused("a: [1\n", "dir/t_test.yaml:2:1: did not find expected ',' or ']' while parsing "
	                   "a flow sequence");
}

static void test_depth_bound(void **state)
{
	(void)state;
	char deep[200];
	size_t n = 0;
	for (unsigned i = 0; i <= HP_YTREE_MAX_DEPTH; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	hp_err err;
	assert_null(hp_ytree_parse("d.yaml", deep, n, &err));
	assert_string_equal(err.msg, "d.yaml:1:17: collections nested more than 16 deep");
}

static void test_offset(void **state)
{
	(void)state;
	hp_err err;
	const char *text = "a: \xc3\xa9x\r\nb: [y]\n";
	hp_ytree *t = hp_ytree_parse("o.yaml", text, strlen(text), &err);
	assert_non_null(t);
	assert_int_equal(hp_ytree_offset(t, 1, 5), 5); /* after the two-byte é */
	assert_int_equal(hp_ytree_offset(t, 2, 4), 11);
	assert_int_equal(hp_ytree_offset(t, 9, 1), strlen(text));
	const hp_ynode *b = hp_ymap_get(hp_ytree_root(t), "b");
	assert_non_null(b);
	assert_int_equal(b->line, 2);
	assert_int_equal(b->end_col, 7);
	hp_ytree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layering),
	    cmocka_unit_test(test_inline_facts_keep_their_place),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_depth_bound),
	    cmocka_unit_test(test_offset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
