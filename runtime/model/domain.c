/* domain.c: the name tables of domain.h, expanded from the .def lists. */
#include "model/domain.h"

#include <string.h>

const char *const hp_role_names[HP_ROLE_COUNT] = {
#define HP_ROLE(id, name) name,
#include "model/domain.def"
};
const char *const hp_mode_names[HP_MODE_COUNT] = {
#define HP_MODE(id, name) name,
#include "model/domain.def"
};
const char *const hp_provider_names[HP_PROVIDER_COUNT] = {
#define HP_PROVIDER(id, name) name,
#include "model/domain.def"
};
const char *const hp_setting_names[HP_SETTING_COUNT] = {
#define HP_SETTING(id, name) name,
#include "model/domain.def"
};
const char *const hp_result_names[HP_RESULT_COUNT] = {
#define HP_RESULT(id, name) name,
#include "model/domain.def"
};
const char *const hp_decision_names[HP_DECISION_COUNT] = {
#define HP_DECISION(id, name, exit_status) name,
#include "model/domain.def"
};
const int hp_decision_exit[HP_DECISION_COUNT] = {
#define HP_DECISION(id, name, exit_status) exit_status,
#include "model/domain.def"
};
const char *const hp_type_names[HP_T_COUNT] = {
#define HP_TYPE(id, name) name,
#include "model/types.def"
};
const hp_probe_info hp_probes[HP_PROBE_COUNT] = {
#define HP_PROBE(id, name, result, arg, scope, needs, part, asks, doc)                      \
	{name, HP_T_##result, HP_T_##arg, HP_SCOPE_##scope, HP_NEEDS_##needs, HP_PART_##part,  \
	 HP_ASKS_##asks, doc},
#include "model/probes.def"
};

int hp_lookup_name(const char *const *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i], name) == 0)
			return (int)i;
	return -1;
}

int hp_probe_lookup(const char *name)
{
	for (size_t i = 0; i < HP_PROBE_COUNT; i++)
		if (strcmp(hp_probes[i].name, name) == 0)
			return (int)i;
	return -1;
}
