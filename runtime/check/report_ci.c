/* report_ci.c: the check's report in the forms CI systems show: JUnit XML
 * (a test case per rule) and SARIF 2.1.0 (a result per rule at its place
 * in the policy, a waived failure as a suppressed result). */
#include "check/report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/version.h"
#include "lib/xalloc.h"

static void rule_details(hp_buf *b, const hp_report_rule *rr)
{
	for (size_t e = 0; e < rr->nevidence; e++) {
		hp_buf_puts(b, "evidence: ");
		hp_buf_xml_text(b, rr->evidence[e]);
		hp_buf_putc(b, '\n');
	}
	hp_buf_puts(b, "at ");
	hp_buf_xml_text(b, rr->location);
	hp_buf_putc(b, '\n');
	if (rr->remedy) {
		hp_buf_puts(b, "remedy: ");
		hp_buf_xml_text(b, rr->remedy);
		hp_buf_putc(b, '\n');
	}
	if (rr->waiver) {
		hp_buf_puts(b, "waived: ");
		hp_buf_xml_text(b, rr->waiver);
		hp_buf_putc(b, '\n');
	}
}

static void xml_list(hp_buf *b, const char *heading, const hp_strv *v)
{
	if (!v || !v->n)
		return;
	hp_buf_printf(b, "%s:\n", heading);
	for (size_t i = 0; i < v->n; i++) {
		hp_buf_puts(b, "  - ");
		hp_buf_xml_text(b, v->v[i]);
		hp_buf_putc(b, '\n');
	}
}

void hp_report_junit(const hp_report *r, hp_buf *b)
{
	const hp_decisions *d = r->decisions;
	size_t n[HP_RESULT_COUNT] = {0};
	for (size_t i = 0; i < r->nrules; i++)
		n[r->rules[i].result]++;
	/* a waived rule is shown as skipped with its waiver: it did not pass */
	size_t skipped = n[HP_RESULT_SKIPPED] + n[HP_RESULT_WAIVED];
	const char *prov = hp_provider_names[r->provider];
	hp_buf_printf(b,
	              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	              "<testsuites name=\"hangar-policy check\" tests=\"%zu\" failures=\"%zu\" "
	              "errors=\"%zu\" skipped=\"%zu\">\n",
	              r->nrules, n[HP_RESULT_FAIL], n[HP_RESULT_ERROR], skipped);
	hp_buf_puts(b, "  <testsuite name=\"");
	hp_buf_xml_text(b, r->policy);
	hp_buf_printf(b, " (%s)\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
	              prov, r->nrules, n[HP_RESULT_FAIL], n[HP_RESULT_ERROR], skipped);
	hp_buf_puts(b, "    <properties>\n");
	hp_buf_printf(b, "      <property name=\"provider\" value=\"%s\"/>\n", prov);
	hp_buf_printf(b, "      <property name=\"uid_split\" value=\"%s\"/>\n",
	              hp_setting_names[r->setting.value]);
	hp_buf_printf(b, "      <property name=\"mode\" value=\"%s\"/>\n", hp_mode_names[r->mode]);
	for (int m = 0; m < HP_MODE_COUNT; m++)
		hp_buf_printf(b, "      <property name=\"decision.%s\" value=\"%s\"/>\n",
		              hp_mode_names[m], hp_decision_names[d->decision[m]]);
	hp_buf_printf(b, "      <property name=\"waived\" value=\"%zu\"/>\n",
	              d->waived[r->mode].n);
	hp_buf_puts(b, "    </properties>\n");
	for (size_t i = 0; i < r->nrules; i++) {
		const hp_report_rule *rr = &r->rules[i];
		hp_buf_puts(b, "    <testcase name=\"");
		hp_buf_xml_text(b, rr->id);
		hp_buf_puts(b, "\" classname=\"");
		hp_buf_xml_text(b, r->policy);
		hp_buf_putc(b, '.');
		hp_buf_xml_text(b, prov);
		hp_buf_puts(b, "\"");
		if (rr->result == HP_RESULT_PASS) {
			hp_buf_puts(b, "/>\n");
			continue;
		}
		hp_buf_puts(b, ">\n");
		if (rr->result == HP_RESULT_FAIL || rr->result == HP_RESULT_ERROR) {
			const char *tag = rr->result == HP_RESULT_FAIL ? "failure" : "error";
			hp_buf_printf(b, "      <%s message=\"", tag);
			hp_buf_xml_text(b, rr->title);
			hp_buf_printf(b, "\" type=\"%s\">",
			              rr->result == HP_RESULT_FAIL ? "fail" : "unknown");
			rule_details(b, rr);
			hp_buf_printf(b, "</%s>\n", tag);
		} else { /* skipped, or waived: not a pass either way */
			hp_buf_puts(b, "      <skipped message=\"");
			if (rr->result == HP_RESULT_WAIVED) {
				hp_buf_puts(b, "waived: ");
				hp_buf_xml_text(b, rr->waiver);
			} else {
				hp_buf_xml_text(b, rr->nevidence ? rr->evidence[0] : "skipped");
			}
			hp_buf_puts(b, "\"/>\n      <system-out>");
			hp_buf_printf(b, "%s: ", hp_result_names[rr->result]);
			hp_buf_xml_text(b, rr->title);
			hp_buf_putc(b, '\n');
			rule_details(b, rr);
			hp_buf_puts(b, "</system-out>\n");
		}
		hp_buf_puts(b, "    </testcase>\n");
	}
	hp_buf_printf(b, "    <system-out>decision for %s turns: %s\n", hp_mode_names[r->mode],
	              hp_decision_names[d->decision[r->mode]]);
	xml_list(b, "reasons", &d->reasons[r->mode]);
	xml_list(b,
	         d->decision[r->mode] == HP_DECISION_SPLIT ? "the decision rests on waivers"
	                                                   : "waived failures",
	         &d->waived[r->mode]);
	xml_list(b, "warnings", &d->warnings[r->mode]);
	xml_list(b, "notes", r->notes);
	hp_buf_puts(b, "</system-out>\n  </testsuite>\n</testsuites>\n");
}

/* --- SARIF ------------------------------------------------------------------------ */

/* A URI reference for a path: unreserved bytes and '/' kept, the rest
 * percent-encoded. */
static void uri_enc(hp_buf *b, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			hp_buf_putc(b, (char)*p);
		} else {
			hp_buf_putc(b, '%');
			hp_buf_putc(b, hex[*p >> 4]);
			hp_buf_putc(b, hex[*p & 15]);
		}
	}
}

/* "file:line:col" split; false when it is not that shape. */
static bool split_loc(const char *loc, char **file, unsigned *line, unsigned *col)
{
	const char *c2 = loc ? strrchr(loc, ':') : NULL;
	if (!c2 || c2 == loc)
		return false;
	const char *c1 = c2 - 1;
	while (c1 > loc && *c1 != ':')
		c1--;
	if (*c1 != ':')
		return false;
	char *end;
	unsigned long l = strtoul(c1 + 1, &end, 10), c = strtoul(c2 + 1, NULL, 10);
	if (end != c2 || l == 0 || l > UINT_MAX || c == 0 || c > UINT_MAX)
		return false;
	*file = hp_xstrndup(loc, (size_t)(c1 - loc));
	*line = (unsigned)l;
	*col = (unsigned)c;
	return true;
}

/* The policy's directory as a file:// URI ending in '/', or NULL. */
static char *policy_dir_uri(const char *path)
{
	if (!path || path[0] == '(')
		return NULL;
	char *abs = realpath(path, NULL);
	if (!abs)
		return NULL;
	char *slash = strrchr(abs, '/');
	slash[1] = '\0';
	hp_buf b = {0};
	hp_buf_puts(&b, "file://");
	uri_enc(&b, abs);
	free(abs);
	char *s = hp_xstrdup(b.data);
	hp_buf_free(&b);
	return s;
}

static void sarif_text(hp_buf *b, const char *s)
{
	hp_buf_json_string(b, s ? s : "");
}

void hp_report_sarif(const hp_report *r, hp_buf *b)
{
	const hp_decisions *d = r->decisions;
	char *base = policy_dir_uri(r->policy_path);
	hp_buf_puts(b, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", "
	               "\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {"
	               "\"name\": \"hangar-policy\", ");
	hp_buf_printf(b, "\"version\": \"%s\", \"informationUri\": \"%s\", \"rules\": [",
	              HP_VERSION, HP_INFORMATION_URI);
	for (size_t i = 0; i < r->nrules; i++) {
		const hp_report_rule *rr = &r->rules[i];
		hp_buf_puts(b, i ? ", {\"id\": " : "{\"id\": ");
		sarif_text(b, rr->id);
		hp_buf_puts(b, ", \"shortDescription\": {\"text\": ");
		sarif_text(b, rr->title);
		hp_buf_puts(b, "}");
		if (rr->remedy) {
			hp_buf_puts(b, ", \"help\": {\"text\": ");
			sarif_text(b, rr->remedy);
			hp_buf_puts(b, "}");
		}
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, "]}}, \"invocations\": [{\"executionSuccessful\": true");
	if (d->warnings[r->mode].n || (r->notes && r->notes->n)) {
		hp_buf_puts(b, ", \"toolExecutionNotifications\": [");
		size_t k = 0;
		for (int pass = 0; pass < 2; pass++) {
			const hp_strv *v = pass ? r->notes : &d->warnings[r->mode];
			for (size_t i = 0; v && i < v->n; i++, k++) {
				hp_buf_puts(b, k ? ", {\"level\": \"warning\", \"message\": {\"text\": "
				                 : "{\"level\": \"warning\", \"message\": {\"text\": ");
				sarif_text(b, v->v[i]);
				hp_buf_puts(b, "}}");
			}
		}
		hp_buf_puts(b, "]");
	}
	hp_buf_puts(b, "}]");
	if (base) {
		hp_buf_puts(b, ", \"originalUriBaseIds\": {\"POLICYROOT\": {\"uri\": ");
		sarif_text(b, base);
		hp_buf_puts(b, "}}");
	}
	hp_buf_puts(b, ", \"properties\": {\"policy\": ");
	sarif_text(b, r->policy);
	hp_buf_printf(b, ", \"provider\": \"%s\", \"mode\": \"%s\", \"decision\": \"%s\"",
	              hp_provider_names[r->provider], hp_mode_names[r->mode],
	              hp_decision_names[d->decision[r->mode]]);
	hp_buf_puts(b, ", \"reasons\": [");
	for (size_t i = 0; i < d->reasons[r->mode].n; i++) {
		if (i)
			hp_buf_puts(b, ", ");
		sarif_text(b, d->reasons[r->mode].v[i]);
	}
	hp_buf_puts(b, "], \"waived\": [");
	for (size_t i = 0; i < d->waived[r->mode].n; i++) {
		if (i)
			hp_buf_puts(b, ", ");
		sarif_text(b, d->waived[r->mode].v[i]);
	}
	hp_buf_puts(b, "]}, \"columnKind\": \"unicodeCodePoints\", \"results\": [");
	for (size_t i = 0; i < r->nrules; i++) {
		const hp_report_rule *rr = &r->rules[i];
		/* fail and error block a split; skipped is open (not decided) */
		const char *kind = rr->result == HP_RESULT_PASS      ? "pass"
		                   : rr->result == HP_RESULT_SKIPPED ? "open"
		                                                     : "fail";
		const char *level = rr->result == HP_RESULT_PASS      ? "none"
		                    : rr->result == HP_RESULT_SKIPPED ? "none"
		                                                      : "error";
		hp_buf_printf(b, "%s{\"ruleId\": ", i ? ", " : "");
		sarif_text(b, rr->id);
		hp_buf_printf(b, ", \"ruleIndex\": %zu, \"kind\": \"%s\", \"level\": \"%s\", "
		                 "\"message\": {\"text\": ",
		              i, kind, level);
		hp_buf msg = {0};
		hp_buf_printf(&msg, "%s: %s", hp_result_names[rr->result], rr->title);
		for (size_t e = 0; e < rr->nevidence; e++)
			hp_buf_printf(&msg, "\nevidence: %s", rr->evidence[e]);
		if (rr->remedy && rr->result != HP_RESULT_PASS)
			hp_buf_printf(&msg, "\nremedy: %s", rr->remedy);
		sarif_text(b, msg.data);
		hp_buf_free(&msg);
		hp_buf_puts(b, "}");
		char *file;
		unsigned line, col;
		if (split_loc(rr->location, &file, &line, &col)) {
			hp_buf_puts(b, ", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
			               "{\"uri\": \"");
			uri_enc(b, file);
			hp_buf_puts(b, base ? "\", \"uriBaseId\": \"POLICYROOT\"}" : "\"}");
			hp_buf_printf(b, ", \"region\": {\"startLine\": %u, \"startColumn\": %u}}}]",
			              line, col);
			free(file);
		}
		if (rr->result == HP_RESULT_WAIVED) {
			hp_buf_puts(b, ", \"suppressions\": [{\"kind\": \"external\", \"status\": "
			               "\"accepted\", \"justification\": ");
			sarif_text(b, rr->waiver);
			hp_buf_puts(b, "}]");
		}
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, "]}]}\n");
	free(base);
}
