/* testrun.h: running test cases (testfile.h) the way `check --facts`
 * runs: the policy compiled and verified, the case's facts loaded into the
 * facts backend, the session (session.h) and the decisions (verdict.h),
 * then each expectation compared with what came out. There is no second
 * evaluator: a case passes exactly when `check` would have decided so.
 *
 * A run also gathers coverage: for every rule and every assertion of the
 * policies it loaded, whether some case saw it pass and some case saw it
 * fail (an assertion inside a loop counts each time it ran). */
#ifndef HP_TESTRUN_H
#define HP_TESTRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strv.h"
#include "testfile.h"

typedef enum { HP_CASE_PASS, HP_CASE_FAIL, HP_CASE_ERROR } hp_case_status;

typedef struct {
	const hp_test_case *c;
	hp_case_status status;
	hp_strv diffs;    /* one line per expectation not met, or the error */
	hp_strv evidence; /* for each: the evidence, "" when there is none */
	double seconds;
} hp_case_result;

/* One rule or assertion of a loaded policy. */
typedef struct {
	bool is_rule;
	char *file; /* the source file, as a path */
	uint32_t line, col;
	char *rule; /* the rule's id (its own for an assertion) */
	char *text; /* rule: its title; assertion: its source text */
	bool seen_pass, seen_fail;
} hp_cov_item;

typedef struct hp_testrun hp_testrun;

hp_testrun *hp_testrun_new(void);
void hp_testrun_free(hp_testrun *tr);

/* Compile a policy and count its rules and assertions for coverage
 * (before any case names it: a policy nobody tests shows as uncovered).
 * false when it does not compile (diagnostics printed, err may be empty). */
bool hp_testrun_add_policy(hp_testrun *tr, const char *path, hp_err *err);

/* Run one case; the result's strings are freed with hp_case_result_free. */
void hp_testrun_case(hp_testrun *tr, const hp_test_case *c, hp_case_result *out);
void hp_case_result_free(hp_case_result *r);

/* The coverage gathered so far, in the order the items were added. */
const hp_cov_item *hp_testrun_coverage(const hp_testrun *tr, size_t *n);

#endif
