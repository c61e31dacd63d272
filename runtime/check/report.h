/* report.h: the report hangar reads: text for people, JSON for programs.
 * The JSON object's fields are a contract, documented in docs/report.md and
 * docs/report.schema.json; a test checks a real report against the schema. */
#ifndef HP_REPORT_H
#define HP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "check/decide.h"

typedef enum { HP_FMT_TEXT, HP_FMT_JSON, HP_FMT_JUNIT, HP_FMT_SARIF } hp_report_format;

typedef struct {
	const char *id;
	const char *title;
	const char *location; /* file:line:col */
	const char *remedy;   /* may be NULL */
	hp_result result;
	const char *const *evidence; /* one line per observation that decided it */
	size_t nevidence;
	const char *waiver; /* WAIVED: the waiver's justification, place and expiry */
} hp_report_rule;

/* A role's identity as resolved: a user (name and uid), a uid, or unknown. */
typedef struct {
	bool declared;    /* the policy has the role */
	bool known;       /* resolved to a uid */
	const char *name; /* the user's name, or NULL for a bare uid */
	int64_t uid;
	const char *why;  /* when not known: why */
	const char *from; /* where it came from ("the policy's role agent, with --param agent_user") */
} hp_report_identity;

/* The version of the JSON report's shape: raised when a field changes
 * meaning or goes away (adding one does not). */
#define HP_REPORT_FORMAT_VERSION 1

typedef struct {
	const char *policy; /* the policy's name */
	int64_t policy_version;
	uint32_t policy_checksum;
	const char *policy_source;   /* the file, or the built-in's installed source */
	const char *location_base;   /* what locations are relative to */
	const char *provider_source; /* "--provider", "HANGAR_PROVIDER", "the sandbox's markers" */
	hp_report_identity users[HP_ROLE_COUNT];
	hp_provider provider;
	hp_uid_split setting;
	hp_mode mode; /* the mode asked for; the report covers all four */
	const hp_decisions *decisions;
	const hp_report_rule *rules;
	size_t nrules;
	bool offline;
	const hp_strv *notes; /* warnings of the run itself (roles not run...), may be NULL */
	const char *policy_path; /* its file as loaded (SARIF's base for rule locations), or NULL */
	const char *unbuilt;  /* why the provider builds no split (readiness), or NULL */
} hp_report;

void hp_report_json(const hp_report *r, hp_buf *out);
/* JUnit XML: one test case per rule, a failure with the evidence and the
 * remedy for each rule that did not pass (docs/report.md). */
void hp_report_junit(const hp_report *r, hp_buf *out);
/* SARIF 2.1.0: one result per rule that did not pass, at the rule's place
 * in the policy; a waived one carries its waiver as a suppression. */
void hp_report_sarif(const hp_report *r, hp_buf *out);
/* colour: ANSI colours, for a terminal (the caller checks isatty and NO_COLOR). */
void hp_report_text(const hp_report *r, bool colour, hp_buf *out);

#endif
