/* report.c: renders a check's report as text or as the JSON contract. */
#include "check/report.h"

#include <string.h>

static void json_strv_field(hp_buf *b, const char *name, const hp_strv *a, const hp_strv *extra)
{
	hp_buf_printf(b, "\"%s\": [", name);
	size_t k = 0;
	for (const hp_strv *v = a; v; v = (v == a ? extra : NULL)) {
		for (size_t i = 0; i < v->n; i++, k++) {
			if (k)
				hp_buf_puts(b, ", ");
			hp_buf_json_string(b, v->v[i]);
		}
	}
	hp_buf_puts(b, "]");
}

void hp_report_json(const hp_report *r, hp_buf *b)
{
	const hp_decisions *d = r->decisions;
	hp_buf_printf(b, "{\"format_version\": %d, \"policy\": ", HP_REPORT_FORMAT_VERSION);
	hp_buf_json_string(b, r->policy);
	hp_buf_printf(b, ", \"policy_version\": %lld, \"policy_checksum\": \"%08x\"",
	              (long long)r->policy_version, r->policy_checksum);
	hp_buf_puts(b, ", \"policy_source\": ");
	hp_buf_json_string(b, r->policy_source ? r->policy_source : "");
	hp_buf_puts(b, ", \"location_base\": ");
	hp_buf_json_string(b, r->location_base ? r->location_base : "");
	hp_buf_printf(b, ", \"provider\": \"%s\", \"provider_source\": ",
	              hp_provider_names[r->provider]);
	hp_buf_json_string(b, r->provider_source ? r->provider_source : "");
	hp_buf_puts(b, ", \"users\": {");
	bool first = true;
	for (int k = 0; k < HP_ROLE_COUNT; k++) {
		const hp_report_identity *u = &r->users[k];
		if (!u->declared)
			continue;
		hp_buf_printf(b, "%s\"%s\": {\"name\": ", first ? "" : ", ", hp_role_names[k]);
		first = false;
		if (u->name)
			hp_buf_json_string(b, u->name);
		else
			hp_buf_puts(b, "null");
		if (u->known)
			hp_buf_printf(b, ", \"uid\": %lld", (long long)u->uid);
		else
			hp_buf_puts(b, ", \"uid\": null");
		hp_buf_puts(b, ", \"from\": ");
		hp_buf_json_string(b, u->from ? u->from : "");
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, "}");
	hp_buf_printf(b, ", \"uid_split\": {\"value\": \"%s\", \"source\": \"%s\"}",
	              hp_setting_names[r->setting.value],
	              hp_setting_source_names[r->setting.source]);
	hp_buf_printf(b, ", \"mode\": \"%s\", \"decision\": \"%s\"", hp_mode_names[r->mode],
	              hp_decision_names[d->decision[r->mode]]);
	hp_buf_puts(b, ", \"modes\": {");
	for (int m = 0; m < HP_MODE_COUNT; m++)
		hp_buf_printf(b, "%s\"%s\": \"%s\"", m ? ", " : "", hp_mode_names[m],
		              hp_decision_names[d->decision[m]]);
	hp_buf_puts(b, "}, \"rules\": [");
	for (size_t i = 0; i < r->nrules; i++) {
		const hp_report_rule *rr = &r->rules[i];
		hp_buf_puts(b, i ? ", {\"id\": " : "{\"id\": ");
		hp_buf_json_string(b, rr->id);
		hp_buf_puts(b, ", \"title\": ");
		hp_buf_json_string(b, rr->title);
		hp_buf_printf(b, ", \"result\": \"%s\", \"evidence\": [",
		              hp_result_names[rr->result]);
		for (size_t e = 0; e < rr->nevidence; e++) {
			if (e)
				hp_buf_puts(b, ", ");
			hp_buf_json_string(b, rr->evidence[e]);
		}
		hp_buf_puts(b, "], \"location\": ");
		hp_buf_json_string(b, rr->location);
		hp_buf_puts(b, ", \"remedy\": ");
		if (rr->remedy)
			hp_buf_json_string(b, rr->remedy);
		else
			hp_buf_puts(b, "null");
		hp_buf_puts(b, ", \"waiver\": ");
		if (rr->waiver)
			hp_buf_json_string(b, rr->waiver);
		else
			hp_buf_puts(b, "null");
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, "], ");
	json_strv_field(b, "reasons", &d->reasons[r->mode], NULL);
	hp_buf_puts(b, ", ");
	json_strv_field(b, "warnings", &d->warnings[r->mode], r->notes);
	hp_buf_puts(b, ", ");
	json_strv_field(b, "waived", &d->waived[r->mode], NULL);
	hp_buf_printf(b, ", \"offline\": %s", r->offline ? "true" : "false");
	hp_buf_printf(b, ", \"readiness\": {\"provider_builds_split\": %s, \"unbuilt\": ",
	              r->unbuilt ? "false" : "true");
	if (r->unbuilt)
		hp_buf_json_string(b, r->unbuilt);
	else
		hp_buf_puts(b, "null");
	hp_buf_printf(b, ", \"would_split\": %s, \"modes\": {",
	              d->would_split[r->mode] ? "true" : "false");
	for (int m = 0; m < HP_MODE_COUNT; m++)
		hp_buf_printf(b, "%s\"%s\": %s", m ? ", " : "", hp_mode_names[m],
		              d->would_split[m] ? "true" : "false");
	hp_buf_puts(b, "}, ");
	json_strv_field(b, "reasons", &d->ready_reasons[r->mode], NULL);
	hp_buf_puts(b, "}}\n");
}

enum { C_RESET, C_BOLD, C_RED, C_YELLOW, C_GREEN, C_DIM };
static const char *const ansi[] = {"\033[0m",  "\033[1m",  "\033[31m",
                                   "\033[33m", "\033[32m", "\033[2m"};

static const char *col(bool on, int c)
{
	return on ? ansi[c] : "";
}

static int decision_colour(hp_decision d)
{
	return d == HP_DECISION_SPLIT ? C_GREEN : d == HP_DECISION_REFUSE ? C_RED : C_YELLOW;
}

static int result_colour(hp_result r)
{
	return r == HP_RESULT_PASS      ? C_GREEN
	       : r == HP_RESULT_SKIPPED ? C_DIM
	       : r == HP_RESULT_FAIL    ? C_RED
	                                : C_YELLOW;
}

static void text_list(hp_buf *b, const char *heading, const hp_strv *a, const hp_strv *extra)
{
	size_t n = a->n + (extra ? extra->n : 0);
	if (!n)
		return;
	hp_buf_printf(b, "\n%s:\n", heading);
	for (size_t i = 0; i < a->n; i++)
		hp_buf_printf(b, "  - %s\n", a->v[i]);
	for (size_t i = 0; extra && i < extra->n; i++)
		hp_buf_printf(b, "  - %s\n", extra->v[i]);
}

void hp_report_text(const hp_report *r, bool c, hp_buf *b)
{
	const hp_decisions *d = r->decisions;
	hp_buf_printf(b, "policy %s version %lld (checksum %08x), %s\n", r->policy,
	              (long long)r->policy_version, r->policy_checksum,
	              r->policy_source ? r->policy_source : "");
	hp_buf_printf(b, "provider %s (%s), uid split %s (%s)%s\n", hp_provider_names[r->provider],
	              r->provider_source ? r->provider_source : "?",
	              hp_setting_names[r->setting.value],
	              hp_setting_source_names[r->setting.source],
	              r->offline ? ", offline (image root)" : "");
	for (int k = 0; k < HP_ROLE_COUNT; k++) {
		const hp_report_identity *u = &r->users[k];
		if (!u->declared || k == HP_ROLE_ROOT)
			continue;
		hp_buf_printf(b, "%-7s", k == HP_ROLE_AGENT ? "agent" : "hangar");
		if (u->known && u->name)
			hp_buf_printf(b, "user %s (uid %lld)", u->name, (long long)u->uid);
		else if (u->known)
			hp_buf_printf(b, "uid %lld", (long long)u->uid);
		else
			hp_buf_printf(b, "unknown (%s)", u->why ? u->why : "not resolved");
		hp_buf_printf(b, ", from %s\n", u->from ? u->from : "the policy");
	}
	if (r->location_base)
		hp_buf_printf(b, "locations are relative to %s\n", r->location_base);
	hp_buf_putc(b, '\n');
	hp_buf_puts(b, "  mode        decision\n");
	for (int m = 0; m < HP_MODE_COUNT; m++) {
		hp_decision dm = d->decision[m];
		const char *name = hp_decision_names[dm];
		hp_buf_printf(b, "  %-11s %s%s%s", hp_mode_names[m], col(c, decision_colour(dm)),
		              name, col(c, C_RESET));
		if (m == (int)r->mode)
			hp_buf_printf(b, "%*s<- this turn", (int)(13 - strlen(name)), "");
		hp_buf_putc(b, '\n');
	}

	size_t passed = 0;
	for (size_t i = 0; i < r->nrules; i++)
		passed += r->rules[i].result == HP_RESULT_PASS;
	if (passed < r->nrules)
		hp_buf_puts(b, "\nrules that did not pass:\n");
	for (size_t i = 0; i < r->nrules; i++) {
		const hp_report_rule *rr = &r->rules[i];
		if (rr->result == HP_RESULT_PASS)
			continue;
		hp_buf_printf(b, "  %s%-7s%s %s%s%s: %s\n", col(c, result_colour(rr->result)),
		              hp_result_names[rr->result], col(c, C_RESET), col(c, C_BOLD), rr->id,
		              col(c, C_RESET), rr->title);
		for (size_t e = 0; e < rr->nevidence; e++)
			hp_buf_printf(b, "          evidence: %s\n", rr->evidence[e]);
		hp_buf_printf(b, "          at %s\n", rr->location);
		if (rr->remedy)
			hp_buf_printf(b, "          remedy: %s\n", rr->remedy);
		if (rr->waiver)
			hp_buf_printf(b, "          waived: %s\n", rr->waiver);
	}
	size_t waived = 0;
	for (size_t i = 0; i < r->nrules; i++)
		waived += r->rules[i].result == HP_RESULT_WAIVED;
	if (waived)
		hp_buf_printf(b, "\n%zu of %zu rules passed, %zu failed and waived.\n", passed,
		              r->nrules, waived);
	else
		hp_buf_printf(b, "\n%zu of %zu rules passed.\n", passed, r->nrules);
	hp_buf_printf(b, "decision for %s turns: %s%s%s\n", hp_mode_names[r->mode],
	              col(c, decision_colour(d->decision[r->mode])),
	              hp_decision_names[d->decision[r->mode]], col(c, C_RESET));
	text_list(b, "reasons", &d->reasons[r->mode], NULL);
	text_list(b,
	          d->decision[r->mode] == HP_DECISION_SPLIT ? "the decision rests on waivers"
	                                                    : "waived failures",
	          &d->waived[r->mode], NULL);
	text_list(b, "warnings", &d->warnings[r->mode], r->notes);
	if (!r->unbuilt)
		return;
	/* every rule was still evaluated: what would block the split once the
	 * provider builds it */
	const hp_strv *rr = &d->ready_reasons[r->mode];
	hp_buf_printf(b, "\nreadiness: %s\n", r->unbuilt);
	if (d->would_split[r->mode]) {
		hp_buf_printf(b,
		              "  would split once the provider builds it: %syes%s, because every "
		              "rule of the split passes for %s turns and nothing else forbids it\n",
		              col(c, C_GREEN), col(c, C_RESET), hp_mode_names[r->mode]);
	} else {
		hp_buf_printf(b, "  would split once the provider builds it: %sno%s, because\n",
		              col(c, C_RED), col(c, C_RESET));
		for (size_t i = 0; i < rr->n; i++)
			hp_buf_printf(b, "    - %s\n", rr->v[i]);
	}
}
