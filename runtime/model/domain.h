/* domain.h: enums and name tables generated from domain.def, types.def and
 * probes.def, so that every part of the program shares one definition. */
#ifndef HP_DOMAIN_H
#define HP_DOMAIN_H

#include <stddef.h>

typedef enum {
#define HP_ROLE(id, name) HP_ROLE_##id,
#include "model/domain.def"
	HP_ROLE_COUNT
} hp_role;

typedef enum {
#define HP_MODE(id, name) HP_MODE_##id,
#include "model/domain.def"
	HP_MODE_COUNT
} hp_mode;

typedef enum {
#define HP_PROVIDER(id, name) HP_PROVIDER_##id,
#include "model/domain.def"
	HP_PROVIDER_COUNT
} hp_provider;

typedef enum {
#define HP_SETTING(id, name) HP_SETTING_##id,
#include "model/domain.def"
	HP_SETTING_COUNT
} hp_setting;

typedef enum {
#define HP_RESULT(id, name) HP_RESULT_##id,
#include "model/domain.def"
	HP_RESULT_COUNT
} hp_result;

typedef enum {
#define HP_DECISION(id, name, exit_status) HP_DECISION_##id,
#include "model/domain.def"
	HP_DECISION_COUNT
} hp_decision;

typedef enum {
#define HP_TYPE(id, name) HP_T_##id,
#include "model/types.def"
	HP_T_COUNT
} hp_type;

typedef enum { HP_SCOPE_GLOBAL, HP_SCOPE_ROLE } hp_probe_scope;
typedef enum { HP_NEEDS_ANY, HP_NEEDS_LIVE } hp_probe_needs;
/* probes.def's PART and ASKS columns: which part of the system backend
 * answers a probe, and whether a non-root role's process asks the root
 * helper for it. */
typedef enum {
	HP_PART_ETC,
	HP_PART_PATH,
	HP_PART_PROC,
	HP_PART_ENV,
	HP_PART_DOC,
	HP_PART_NET,
} hp_probe_part;
typedef enum { HP_ASKS_SELF, HP_ASKS_HELPER, HP_ASKS_JOB } hp_probe_asks;

/* HP_PROBE_CASE_UNLESS(part, own, id): `case HP_PROBE_id:` when part and
 * own (two values of the PART column) differ, nothing when they are the
 * same. A switch over the probes that answers the probes of one part
 * lists those by hand and the rest with it, expanded over probes.def, and
 * has no default label: the compiler then checks it against the table
 * (probe/sysb.h shows the use). HP_PART_SAME_a_b is defined, as "~, 1",
 * only for a == b, so the second item of "HP_PART_SAME_a_b, 0" is 1 for
 * the same part and 0 for any other. */
#define HP_PROBE_CASE_UNLESS(part, own, id) HP_PART_CAT(HP_PART_LABEL_, HP_PART_SAME(part, own))(id)
#define HP_PART_SAME(a, b) HP_PART_SECOND(HP_PART_SAME_##a##_##b, 0, ~)
#define HP_PART_SAME_ETC_ETC ~, 1
#define HP_PART_SAME_PATH_PATH ~, 1
#define HP_PART_SAME_PROC_PROC ~, 1
#define HP_PART_SAME_ENV_ENV ~, 1
#define HP_PART_SAME_DOC_DOC ~, 1
#define HP_PART_SAME_NET_NET ~, 1
#define HP_PART_SECOND(...) HP_PART_SECOND_(__VA_ARGS__)
#define HP_PART_SECOND_(a, b, ...) b
#define HP_PART_CAT(a, b) HP_PART_CAT_(a, b)
#define HP_PART_CAT_(a, b) a##b
#define HP_PART_LABEL_0(id) case HP_PROBE_##id:
#define HP_PART_LABEL_1(id)

typedef enum {
#define HP_PROBE(id, name, result, arg, scope, needs, part, asks, doc) HP_PROBE_##id,
#include "model/probes.def"
	HP_PROBE_COUNT
} hp_probe_id;

typedef struct {
	const char *name;
	hp_type result;
	hp_type arg;
	hp_probe_scope scope;
	hp_probe_needs needs;
	hp_probe_part part;
	hp_probe_asks asks;
	const char *doc;
} hp_probe_info;

/* When a rule counts: a set of (mode, provider) pairs as a bit mask, one bit
 * per pair. The compiler folds a rule's `when` into it; decisions read it. */
typedef unsigned int hp_applies;
#define HP_APPLIES_BIT(mode, provider) (1u << ((unsigned)(mode) * HP_PROVIDER_COUNT + (unsigned)(provider)))
#define HP_APPLIES_ALL ((1u << (HP_MODE_COUNT * HP_PROVIDER_COUNT)) - 1u)

extern const char *const hp_role_names[HP_ROLE_COUNT];
extern const char *const hp_mode_names[HP_MODE_COUNT];
extern const char *const hp_provider_names[HP_PROVIDER_COUNT];
extern const char *const hp_setting_names[HP_SETTING_COUNT];
extern const char *const hp_result_names[HP_RESULT_COUNT];
extern const char *const hp_decision_names[HP_DECISION_COUNT];
extern const int hp_decision_exit[HP_DECISION_COUNT];
extern const char *const hp_type_names[HP_T_COUNT];
extern const hp_probe_info hp_probes[HP_PROBE_COUNT];

/* The n names of one of the tables above as a list in a message, into buf
 * (size bytes): "a, b, c or d" when conj is "or", "a, b, c, d" when it is
 * NULL. Returns buf. */
const char *hp_names_text(char *buf, size_t size, const char *const *names, size_t n,
                          const char *conj);

/* Look a name up in one of the tables above: its index, or -1. */
int hp_lookup_name(const char *const *table, size_t n, const char *name);
/* The probe with this name, or -1. */
int hp_probe_lookup(const char *name);

#endif
