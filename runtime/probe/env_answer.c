/* env_answer.c: the env probe's answer (env_answer.h). */
#include "probe/env_answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hp_value unknown(hp_pool *pool, const char *msg)
{
	const char *r = hp_pool_strndup(pool, msg, strlen(msg));
	return hp_v_unknown(HP_T_STR, r ? r : "memory limit");
}

hp_value hp_probe_env_answer(const char *name, hp_pool *pool)
{
	char msg[160];
	if (!*name || strchr(name, '=')) {
		snprintf(msg, sizeof msg, "env(\"%.100s\"): not a variable name", name);
		return unknown(pool, msg);
	}
	const char *v = getenv(name);
	if (!v)
		return hp_v_absent(HP_T_STR, NULL);
	size_t n = strlen(v);
	if (n > HP_VALUE_MAX_STRING) {
		snprintf(msg, sizeof msg, "the answer is longer than %u bytes", HP_VALUE_MAX_STRING);
		return unknown(pool, msg);
	}
	char *c = hp_pool_strndup(pool, v, n);
	if (!c)
		return hp_v_unknown(HP_T_STR, "memory limit");
	return hp_v_str(c, (uint32_t)n);
}

bool hp_probe_env_is_setting(const char *name)
{
	return strncmp(name, "HANGAR_", 7) == 0;
}
