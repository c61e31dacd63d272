/* decide.h: turns rule results into what hangar acts on. For a provider and
 * a uid-split setting, each turn mode gets split, single-user or refuse, with
 * reasons (one sentence per cause, naming the rule, its evidence and its
 * remedy) and warnings. The semantics are hangar's security model: see
 * docs/report.md and the table in tests/unit/decisions.tsv.
 *
 * This module is pure: it reads plain structures and allocates its output,
 * so it is tested table-driven without a VM, a backend or root. */
#ifndef HP_DECIDE_H
#define HP_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/domain.h"
#include "lib/strv.h"
#include "lib/tri.h"

/* One rule's combined result, as the VM reports it. */
typedef struct {
	const char *id;
	const char *title;    /* what goes wrong when it fails */
	const char *remedy;   /* may be NULL */
	const char *location; /* file:line:col of the rule */
	hp_result result;
	hp_applies applies;   /* the (mode, provider) pairs it counts for */
	const char *evidence; /* the deciding assertion: what was observed, where */
	/* WAIVED: the waiver's justification, where it is and until when */
	const char *waiver;
} hp_rule_outcome;

/* A provider condition (`split needs` or `never split when`), evaluated. */
typedef struct {
	const char *text;     /* the condition's source text */
	const char *location; /* file:line:col */
	hp_tri holds;
	const char *observed; /* what it was evaluated to, or why it is unknown */
	const char *because;  /* never-split only: the policy's sentence */
} hp_condition;

/* HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD, read fail-closed: unset, `0` or
 * `false` (any case) is off; `1`, `true`, `yes` or `on` (any case) is on;
 * anything else, the empty string included, is on too, and unrecognised. */
#define HP_ENVD_SETTING "HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD"
typedef enum { HP_ENVD_OFF, HP_ENVD_ON, HP_ENVD_UNRECOGNISED } hp_envd_value;
hp_envd_value hp_envd_classify(const char *raw);

/* One place the setting was seen: the deciding call's environment, or a
 * recording made inside the sandbox. A sandbox can only make the decision
 * stricter: any reading that is not off, or not known, forbids the split. */
typedef struct {
	const char *raw;   /* the value as set; NULL when unset */
	const char *where; /* "the deciding call's environment", "the facts" */
	/* why the value is not known (a recording's unknown or skipped
	 * answer), else NULL: a value not known may be on, so it forbids */
	const char *unknown;
} hp_envd_reading;

typedef struct {
	hp_provider provider;
	hp_setting default_setting;
	const hp_condition *needs;
	size_t nneeds;
	const hp_condition *never;
	size_t nnever;
	/* kubernetes: HANGAR_K8S_DRIVER_SIDECAR as the deciding call has it
	 * (NULL unset); only "true" adds the sidecar, and a value other than
	 * true or false is a warning (the policy's `split needs` decides) */
	const char *sidecar;
	/* NULL when hangar's provider builds the split; else why it does not
	 * (hp_provider_unbuilt). Every rule is still evaluated and the
	 * decision as if it were built is reported as readiness. */
	const char *unbuilt;
	/* the E2B family's envd setting, wherever it was seen */
	const hp_envd_reading *envd;
	size_t nenvd;
} hp_provider_policy;

/* Why hangar's own code for provider p builds no uid split, or NULL when
 * it does. This is hangar's, not a policy's: no policy can say that a
 * provider builds what it does not. */
const char *hp_provider_unbuilt(hp_provider p);
/* Whether p is reached through hangar's E2B provider (E2B, CubeSandbox),
 * where envd's token setting counts. */
bool hp_provider_has_envd(hp_provider p);

typedef enum { HP_SOURCE_FLAG, HP_SOURCE_ENV, HP_SOURCE_DEFAULT } hp_setting_source;
extern const char *const hp_setting_source_names[3];

typedef struct {
	hp_setting value;
	hp_setting_source source;
	bool invalid;    /* the given value was not auto, required or off */
	const char *raw; /* the value as given (flag or environment) */
} hp_uid_split;

/* The setting: the flag if given, else the environment's HANGAR_UID_SPLIT
 * if set (even empty), else the provider's default. A value that is not
 * auto, required or off fails closed: it is treated as required. */
hp_uid_split hp_uid_split_resolve(const char *flag, const char *env, hp_setting provider_default);

typedef struct {
	hp_decision decision[HP_MODE_COUNT];
	hp_strv reasons[HP_MODE_COUNT];  /* why a mode is not split */
	hp_strv warnings[HP_MODE_COUNT]; /* the setting's warnings and the mode's own */
	/* the waived failures of the rules that count for a mode, one sentence
	 * each: what its split rests on, when it splits */
	hp_strv waived[HP_MODE_COUNT];
	/* readiness: the decision once the provider builds the split (the
	 * same as decision when it already does), and what would still
	 * keep each mode from splitting then */
	bool would_split[HP_MODE_COUNT];
	hp_strv ready_reasons[HP_MODE_COUNT];
} hp_decisions;

/* live_needed: how many checks were skipped because they need a live
 * sandbox (offline runs); any such check already keeps rules from passing. */
void hp_decide(const hp_provider_policy *pp, const hp_uid_split *setting,
               const hp_rule_outcome *rules, size_t nrules, bool offline, size_t live_needed,
               hp_decisions *out);
void hp_decisions_free(hp_decisions *d);

#endif
