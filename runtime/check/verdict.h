/* verdict.h: from a finished run to what hangar acts on. It takes the
 * program's rule results and provider conditions through eval.h's
 * adapters, asks decide.h for each mode's decision, and renders the report
 * (report.h). Whatever backend produced the run (facts, an image root, the
 * live sandbox), the decision is made here, one way. */
#ifndef HP_VERDICT_H
#define HP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/buf.h"
#include "model/domain.h"
#include "check/eval.h"
#include "check/report.h"
#include "check/waiver.h"
#include "probe/facts.h"
#include "lib/strv.h"
#include "lib/xalloc.h"

typedef struct {
	const hp_eval *eval;
	bool offline;         /* an image root was checked */
	size_t live_needed;   /* checks skipped because they need a live sandbox */
	const hp_strv *notes; /* warnings of the run itself (roles not run...), may be NULL */
	/* the facts the run was answered from (--facts), or NULL: hangar's own
	 * settings never come from them, but the envd setting a recording
	 * shows can make the decision stricter */
	const hp_facts *facts;
} hp_run_view;

typedef struct {
	hp_provider provider;
	hp_mode mode;
	const char *uid_split_flag; /* --uid-split, or NULL */
	const char *uid_split_env;  /* HANGAR_UID_SPLIT as set (even empty), or NULL */
	hp_report_format format;
	bool colour;
	const hp_waivers *waivers; /* --waivers, or NULL */
	/* --only and --skip: rule ids (checked against the program by
	 * hp_verdict_check_rules), or NULL */
	const hp_strv *only, *skip;
	const char *provider_source; /* where the provider came from, for the report */
	const char *policy_source;   /* the policy file, or the built-in's source */
	const char *location_base;   /* what the locations are relative to, or NULL */
	/* HANGAR_K8S_DRIVER_SIDECAR as set, or NULL: checked for kubernetes */
	const char *sidecar_env;
	const char *envd_env; /* HP_ENVD_SETTING in the deciding call's environment, or NULL */
	/* --container NAME, or NULL: the roles in container_roles ran as this
	 * process's own user, container_uid, not as phase one resolved them */
	const char *container;
	unsigned container_roles;
	int64_t container_uid;
} hp_verdict_opts;

/* Every rule id in --only and --skip names a rule of the program; false
 * with err otherwise (a usage error). */
bool hp_verdict_check_rules(const hp_bc *bc, const hp_strv *ids, const char *flag, hp_err *err);

/* Whether the program says anything about provider p; check it before the
 * run, so that a policy without that provider is a usage error (exit 2). */
bool hp_verdict_knows_provider(const hp_bc *bc, hp_provider p, hp_err *err);

/* Every mode decided, before it is rendered: what `check` reports and what
 * `test` compares with a case's expectations, made one way. */
typedef struct {
	hp_provider_policy pp;
	hp_condition *conds;     /* the provider's conditions, evaluated */
	hp_rule_outcome *rules;  /* one per rule of the program */
	size_t nrules;
	hp_uid_split setting;
	hp_decisions d;
	hp_strv notes;           /* warnings of the judgement: waivers refused, rules skipped */
	hp_strv keep;            /* the strings the above point to */
	hp_envd_reading *envd;   /* what pp.envd points to */
} hp_judgement;

/* Decide every mode for o->provider (one the program knows). Free with
 * hp_judgement_free. */
void hp_judge(const hp_run_view *run, const hp_verdict_opts *o, hp_judgement *j);
void hp_judgement_free(hp_judgement *j);

/* Decide every mode and render the report into out. Returns the exit
 * status of the decision for o->mode (0 split, 1 single-user, 3 refuse).
 * The provider must be one the program knows. */
int hp_verdict(const hp_run_view *run, const hp_verdict_opts *o, hp_buf *out);

#endif
