/* report.h: the report hangar reads: text for people, JSON for programs.
 * The JSON object's fields are a contract, documented in docs/report.md and
 * docs/report.schema.json; a test checks a real report against the schema. */
#ifndef HP_REPORT_H
#define HP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/buf.h"
#include "check/decide.h"

typedef struct {
	const char *id;
	const char *title;
	const char *location; /* file:line:col */
	const char *remedy;   /* may be NULL */
	hp_result result;
	const char *const *evidence; /* one line per observation that decided it */
	size_t nevidence;
} hp_report_rule;

typedef struct {
	const char *policy; /* the policy's name */
	hp_provider provider;
	hp_uid_split setting;
	hp_mode mode; /* the mode asked for; the report covers all four */
	const hp_decisions *decisions;
	const hp_report_rule *rules;
	size_t nrules;
	bool offline;
	const hp_strv *notes; /* warnings of the run itself (roles not run...), may be NULL */
	const char *unbuilt;  /* why the provider builds no split (readiness), or NULL */
} hp_report;

void hp_report_json(const hp_report *r, hp_buf *out);
/* colour: ANSI colours, for a terminal (the caller checks isatty and NO_COLOR). */
void hp_report_text(const hp_report *r, bool colour, hp_buf *out);

#endif
