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
} hp_provider_policy;

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
	/* the waived failures a mode's decision rests on, one sentence each */
	hp_strv waived[HP_MODE_COUNT];
} hp_decisions;

/* live_needed: how many checks were skipped because they need a live
 * sandbox (offline runs); any such check already keeps rules from passing. */
void hp_decide(const hp_provider_policy *pp, const hp_uid_split *setting,
               const hp_rule_outcome *rules, size_t nrules, bool offline, size_t live_needed,
               hp_decisions *out);
void hp_decisions_free(hp_decisions *d);

#endif
