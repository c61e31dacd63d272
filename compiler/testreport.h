/* testreport.h: the results of `hangar-policy test` in each form it writes:
 * text for people (failures with their evidence, then a closing line
 * "N passed, N failed"), JSON, JUnit XML and TAP for CI, and coverage. */
#ifndef HP_TESTREPORT_H
#define HP_TESTREPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/buf.h"
#include "testrun.h"

typedef enum { HP_TFMT_TEXT, HP_TFMT_JSON, HP_TFMT_JUNIT, HP_TFMT_TAP } hp_test_format;

/* Coverage counted both ways: an item is covered when some case saw it
 * pass and some case saw it fail. */
typedef struct {
	size_t rules, rules_covered, asserts, asserts_covered;
} hp_cov_totals;

hp_cov_totals hp_cov_count(const hp_cov_item *items, size_t n, const char *file);
/* covered / total as a percentage; 100 when there is nothing to cover. */
double hp_cov_percent(size_t covered, size_t total);

typedef struct {
	const hp_case_result *results;
	size_t n;
	size_t unread; /* test files that did not load */
	const hp_cov_item *cov;
	size_t ncov;
	bool coverage; /* text: print coverage (JSON always has it) */
} hp_test_summary;

void hp_test_report(const hp_test_summary *s, hp_test_format f, hp_buf *out);

#endif
