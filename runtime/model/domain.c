/* domain.c: the name tables of domain.h, expanded from the .def lists. */
#include "model/domain.h"

#include <stdio.h>
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

const char *hp_names_text(char *buf, size_t size, const char *const *names, size_t n,
                          const char *conj)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w;
		if (i == 0)
			w = snprintf(buf + k, size - k, "%s", names[i]);
		else if (conj && i == n - 1)
			w = snprintf(buf + k, size - k, " %s %s", conj, names[i]);
		else
			w = snprintf(buf + k, size - k, ", %s", names[i]);
		if (w < 0 || (size_t)w >= size - k) {
			buf[k] = '\0'; /* cut at the buffer's end, between names */
			break;
		}
		k += (size_t)w;
	}
	return buf;
}

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
