/* testreport.c: test results as text, JSON, JUnit XML and TAP (testreport.h). */
#include "testreport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double hp_cov_percent(size_t covered, size_t total)
{
	return total ? 100.0 * (double)covered / (double)total : 100.0;
}

hp_cov_totals hp_cov_count(const hp_cov_item *items, size_t n, const char *file)
{
	hp_cov_totals t = {0, 0, 0, 0};
	for (size_t i = 0; i < n; i++) {
		const hp_cov_item *it = &items[i];
		if (file && strcmp(it->file, file) != 0)
			continue;
		bool both = it->seen_pass && it->seen_fail;
		if (it->is_rule) {
			t.rules++;
			t.rules_covered += both;
		} else {
			t.asserts++;
			t.asserts_covered += both;
		}
	}
	return t;
}

static void counts(const hp_test_summary *s, size_t *pass, size_t *fail, size_t *errors)
{
	*pass = *fail = *errors = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->results[i].status == HP_CASE_PASS)
			++*pass;
		else if (s->results[i].status == HP_CASE_FAIL)
			++*fail;
		else
			++*errors;
	}
}

/* The distinct files of the coverage items, in order of appearance. */
static size_t cov_files(const hp_test_summary *s, const char **files)
{
	size_t n = 0;
	for (size_t i = 0; i < s->ncov; i++) {
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(files[k], s->cov[i].file) == 0;
		if (!seen)
			files[n++] = s->cov[i].file;
	}
	return n;
}

static const char *ways(const hp_cov_item *it)
{
	return it->seen_pass && it->seen_fail ? "both ways"
	       : it->seen_pass               ? "never seen failing"
	       : it->seen_fail               ? "never seen passing"
	                                     : "never seen";
}

/* --- text ------------------------------------------------------------------------ */

static void text_coverage(const hp_test_summary *s, hp_buf *b)
{
	const char **files = hp_xcalloc(s->ncov + 1, sizeof *files);
	size_t nf = cov_files(s, files);
	hp_cov_totals all = hp_cov_count(s->cov, s->ncov, NULL);
	hp_buf_printf(b,
	              "coverage (seen passing and seen failing): rules %.1f%% (%zu/%zu), "
	              "assertions %.1f%% (%zu/%zu)\n",
	              hp_cov_percent(all.rules_covered, all.rules), all.rules_covered, all.rules,
	              hp_cov_percent(all.asserts_covered, all.asserts), all.asserts_covered,
	              all.asserts);
	for (size_t f = 0; f < nf; f++) {
		hp_cov_totals t = hp_cov_count(s->cov, s->ncov, files[f]);
		hp_buf_printf(b, "  %s: rules %zu/%zu, assertions %zu/%zu\n", files[f],
		              t.rules_covered, t.rules, t.asserts_covered, t.asserts);
		for (size_t i = 0; i < s->ncov; i++) {
			const hp_cov_item *it = &s->cov[i];
			if (strcmp(it->file, files[f]) != 0)
				continue;
			if (it->is_rule)
				hp_buf_printf(b, "    rule %s (line %u): %s\n", it->rule, it->line,
				              ways(it));
			else if (!(it->seen_pass && it->seen_fail))
				hp_buf_printf(b, "      %s:%u:%u: %s: %s\n", it->file, it->line,
				              it->col, ways(it), it->text);
		}
	}
	free(files);
}

static void text(const hp_test_summary *s, hp_buf *b)
{
	for (size_t i = 0; i < s->n; i++) {
		const hp_case_result *r = &s->results[i];
		if (r->status == HP_CASE_PASS)
			continue;
		hp_buf_printf(b, "%s %s:%u:%u: %s\n", r->status == HP_CASE_FAIL ? "FAIL" : "ERROR",
		              r->c->file, r->c->line, r->c->col, r->c->name);
		for (size_t k = 0; k < r->diffs.n; k++) {
			hp_buf_printf(b, "  %s\n", r->diffs.v[k]);
			const char *ev = r->evidence.v[k];
			while (ev && *ev) {
				size_t len = strcspn(ev, "\n");
				hp_buf_printf(b, "      %.*s\n", (int)len, ev);
				ev += len + (ev[len] == '\n');
			}
		}
	}
	if (s->coverage)
		text_coverage(s, b);
	size_t pass, fail, errors;
	counts(s, &pass, &fail, &errors);
	if (errors)
		hp_buf_printf(b, "%zu case%s could not run\n", errors, errors == 1 ? "" : "s");
	if (s->unread)
		hp_buf_printf(b, "%zu test file%s could not be read\n", s->unread,
		              s->unread == 1 ? "" : "s");
	hp_buf_printf(b, "%zu passed, %zu failed\n", pass, fail + errors + s->unread);
}

/* --- JSON ------------------------------------------------------------------------ */

/* "name": {"covered": C, "total": T, "percent": P, left open */
static void json_totals(hp_buf *b, const char *name, size_t covered, size_t total)
{
	hp_buf_printf(b, "\"%s\": {\"covered\": %zu, \"total\": %zu, \"percent\": %.1f", name,
	              covered, total, hp_cov_percent(covered, total));
}

static void json_items(hp_buf *b, const hp_test_summary *s, const char *file, bool rules)
{
	bool first = true;
	for (size_t i = 0; i < s->ncov; i++) {
		const hp_cov_item *it = &s->cov[i];
		if (it->is_rule != rules || strcmp(it->file, file) != 0)
			continue;
		hp_buf_puts(b, first ? "{" : ", {");
		first = false;
		if (rules) {
			hp_buf_puts(b, "\"id\": ");
			hp_buf_json_string(b, it->rule);
		} else {
			hp_buf_puts(b, "\"rule\": ");
			hp_buf_json_string(b, it->rule);
			hp_buf_puts(b, ", \"text\": ");
			hp_buf_json_string(b, it->text);
		}
		hp_buf_printf(b, ", \"line\": %u, \"col\": %u, \"seen_pass\": %s, \"seen_fail\": %s}",
		              it->line, it->col, it->seen_pass ? "true" : "false",
		              it->seen_fail ? "true" : "false");
	}
}

static void json(const hp_test_summary *s, hp_buf *b)
{
	size_t pass, fail, errors;
	counts(s, &pass, &fail, &errors);
	hp_buf_printf(b, "{\"passed\": %zu, \"failed\": %zu, \"errors\": %zu, \"cases\": [", pass,
	              fail, errors);
	static const char *const status[] = {"pass", "fail", "error"};
	for (size_t i = 0; i < s->n; i++) {
		const hp_case_result *r = &s->results[i];
		hp_buf_puts(b, i ? ", {\"name\": " : "{\"name\": ");
		hp_buf_json_string(b, r->c->name);
		hp_buf_puts(b, ", \"file\": ");
		hp_buf_json_string(b, r->c->file);
		hp_buf_printf(b, ", \"line\": %u, \"result\": \"%s\", \"seconds\": %.6f, \"differences\": [",
		              r->c->line, status[r->status], r->seconds);
		for (size_t k = 0; k < r->diffs.n; k++) {
			hp_buf_puts(b, k ? ", {\"message\": " : "{\"message\": ");
			hp_buf_json_string(b, r->diffs.v[k]);
			hp_buf_puts(b, ", \"evidence\": ");
			hp_buf_json_string(b, r->evidence.v[k]);
			hp_buf_puts(b, "}");
		}
		hp_buf_puts(b, "]}");
	}
	hp_cov_totals all = hp_cov_count(s->cov, s->ncov, NULL);
	hp_buf_puts(b, "], \"coverage\": {");
	json_totals(b, "rules", all.rules_covered, all.rules);
	hp_buf_puts(b, "}, ");
	json_totals(b, "assertions", all.asserts_covered, all.asserts);
	hp_buf_puts(b, "}, \"files\": [");
	const char **files = hp_xcalloc(s->ncov + 1, sizeof *files);
	size_t nf = cov_files(s, files);
	for (size_t f = 0; f < nf; f++) {
		hp_cov_totals t = hp_cov_count(s->cov, s->ncov, files[f]);
		hp_buf_puts(b, f ? ", {\"file\": " : "{\"file\": ");
		hp_buf_json_string(b, files[f]);
		hp_buf_puts(b, ", ");
		json_totals(b, "rules", t.rules_covered, t.rules);
		hp_buf_puts(b, ", \"items\": [");
		json_items(b, s, files[f], true);
		hp_buf_puts(b, "]}, ");
		json_totals(b, "assertions", t.asserts_covered, t.asserts);
		hp_buf_puts(b, ", \"items\": [");
		json_items(b, s, files[f], false);
		hp_buf_puts(b, "]}}");
	}
	free(files);
	hp_buf_puts(b, "]}}\n");
}

/* --- JUnit XML --------------------------------------------------------------------- */

static void junit(const hp_test_summary *s, hp_buf *b)
{
	size_t pass, fail, errors;
	counts(s, &pass, &fail, &errors);
	double total = 0;
	for (size_t i = 0; i < s->n; i++)
		total += s->results[i].seconds;
	hp_buf_printf(b,
	              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	              "<testsuites name=\"hangar-policy test\" tests=\"%zu\" failures=\"%zu\" "
	              "errors=\"%zu\" time=\"%.6f\">\n",
	              s->n, fail, errors, total);
	/* one suite per test file, in the order the files were run */
	for (size_t i = 0; i < s->n;) {
		const char *file = s->results[i].c->file;
		size_t j = i, f = 0, e = 0;
		double t = 0;
		for (; j < s->n && strcmp(s->results[j].c->file, file) == 0; j++) {
			f += s->results[j].status == HP_CASE_FAIL;
			e += s->results[j].status == HP_CASE_ERROR;
			t += s->results[j].seconds;
		}
		hp_buf_puts(b, "  <testsuite name=\"");
		hp_buf_xml_text(b, file);
		hp_buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" "
		                 "time=\"%.6f\">\n",
		              j - i, f, e, t);
		for (; i < j; i++) {
			const hp_case_result *r = &s->results[i];
			hp_buf_puts(b, "    <testcase name=\"");
			hp_buf_xml_text(b, r->c->name);
			hp_buf_puts(b, "\" classname=\"");
			hp_buf_xml_text(b, file);
			hp_buf_printf(b, "\" time=\"%.6f\"", r->seconds);
			if (r->status == HP_CASE_PASS) {
				hp_buf_puts(b, "/>\n");
				continue;
			}
			const char *tag = r->status == HP_CASE_FAIL ? "failure" : "error";
			hp_buf_printf(b, ">\n      <%s message=\"", tag);
			hp_buf_xml_text(b, r->diffs.n ? r->diffs.v[0] : "");
			hp_buf_printf(b, "\" type=\"%s\">", r->status == HP_CASE_FAIL ? "expectation"
			                                                              : "bad input");
			hp_buf_xml_text(b, file);
			hp_buf_printf(b, ":%u:%u: ", r->c->line, r->c->col);
			hp_buf_xml_text(b, r->c->name);
			hp_buf_putc(b, '\n');
			for (size_t k = 0; k < r->diffs.n; k++) {
				hp_buf_xml_text(b, r->diffs.v[k]);
				hp_buf_putc(b, '\n');
				if (r->evidence.v[k][0]) {
					hp_buf_xml_text(b, r->evidence.v[k]);
					hp_buf_putc(b, '\n');
				}
			}
			hp_buf_printf(b, "</%s>\n    </testcase>\n", tag);
		}
		hp_buf_puts(b, "  </testsuite>\n");
	}
	hp_buf_puts(b, "</testsuites>\n");
}

/* --- TAP ------------------------------------------------------------------------- */

/* A YAML double-quoted scalar for TAP's diagnostic block. */
static void yq(hp_buf *b, const char *s)
{
	hp_buf_json_string(b, s);
}

static void tap(const hp_test_summary *s, hp_buf *b)
{
	hp_buf_printf(b, "TAP version 13\n1..%zu\n", s->n);
	for (size_t i = 0; i < s->n; i++) {
		const hp_case_result *r = &s->results[i];
		hp_buf_printf(b, "%s %zu - ", r->status == HP_CASE_PASS ? "ok" : "not ok", i + 1);
		/* '#' would start a directive: the name says it another way */
		for (const char *p = r->c->name; *p; p++)
			hp_buf_putc(b, *p == '#' || *p == '\n' ? ' ' : *p);
		hp_buf_putc(b, '\n');
		if (r->status == HP_CASE_PASS)
			continue;
		hp_buf_puts(b, "  ---\n  at: ");
		char at[600];
		snprintf(at, sizeof at, "%s:%u:%u", r->c->file, r->c->line, r->c->col);
		yq(b, at);
		hp_buf_printf(b, "\n  result: %s\n  differences:\n",
		              r->status == HP_CASE_FAIL ? "fail" : "error");
		for (size_t k = 0; k < r->diffs.n; k++) {
			hp_buf_puts(b, "    - message: ");
			yq(b, r->diffs.v[k]);
			hp_buf_puts(b, "\n      evidence: ");
			yq(b, r->evidence.v[k]);
			hp_buf_putc(b, '\n');
		}
		hp_buf_puts(b, "  ...\n");
	}
}

void hp_test_report(const hp_test_summary *s, hp_test_format f, hp_buf *out)
{
	switch (f) {
	case HP_TFMT_JSON: json(s, out); break;
	case HP_TFMT_JUNIT: junit(s, out); break;
	case HP_TFMT_TAP: tap(s, out); break;
	case HP_TFMT_TEXT:
	default: text(s, out); break;
	}
}
