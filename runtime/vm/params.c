/* params.c: a --param NAME=VALUE override, parsed as the param's type
 * (params.h, hp_param_parse). The text comes from the command line: it is
 * checked as strictly as policy source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/params.h"

/* Comma-separated items into pool (an empty text is the empty list). */
static bool split_items(const char *text, hp_pool *pool, hp_list *out)
{
	uint32_t n = *text ? 1 : 0;
	for (const char *p = text; *p; p++)
		n += *p == ',';
	if (n > HP_VALUE_MAX_LIST)
		return false;
	hp_str *items = hp_pool_alloc(pool, (size_t)n * sizeof *items);
	if (!items)
		return false;
	const char *start = text;
	for (uint32_t i = 0; i < n; i++) {
		const char *end = strchr(start, ',');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char *s = hp_pool_strndup(pool, start, len);
		if (!s)
			return false;
		items[i] = (hp_str){s, (uint32_t)len};
		start = end ? end + 1 : start + len;
	}
	out->items = items;
	out->n = n;
	return true;
}

bool hp_param_parse(const hp_bc *bc, uint32_t param, const char *text, hp_pool *pool, hp_value *out,
                    hp_err *err)
{
	const char *name = hp_bc_str(bc, bc->params[param].name);
	hp_type t = (hp_type)bc->params[param].type;
	size_t len = strlen(text);
	if (len > HP_VALUE_MAX_STRING) {
		hp_err_set(err, "--param %s: the value is %zu bytes, more than %u", name, len,
		           HP_VALUE_MAX_STRING);
		return false;
	}
	switch (t) {
	case HP_T_STR: {
		char *s = hp_pool_strndup(pool, text, len);
		if (!s)
			break;
		*out = hp_v_str(s, (uint32_t)len);
		return true;
	}
	case HP_T_INT: {
		int64_t v;
		if (!hp_parse_int(text, &v)) {
			hp_err_set(err,
			           "--param %s: '%s' is not an int (decimal, 0o octal or 0x hex)",
			           name, text);
			return false;
		}
		*out = hp_v_int(v);
		return true;
	}
	case HP_T_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
			*out = hp_v_bool(text[0] == 't');
			return true;
		}
		hp_err_set(err, "--param %s: '%s' is not a bool (true or false)", name, text);
		return false;
	case HP_T_LIST: {
		hp_list l;
		if (!split_items(text, pool, &l)) {
			hp_err_set(err, "--param %s: more than %u items", name, HP_VALUE_MAX_LIST);
			return false;
		}
		*out = hp_v_list(l.items, l.n);
		return true;
	}
	case HP_T_CAPS: {
		hp_list l;
		uint64_t caps = 0;
		if (!split_items(text, pool, &l)) {
			hp_err_set(err, "--param %s: more than %u items", name, HP_VALUE_MAX_LIST);
			return false;
		}
		for (uint32_t i = 0; i < l.n; i++) {
			int c = hp_cap_from_name(l.items[i].p);
			if (c < 0) {
				hp_err_set(err, "--param %s: '%s' is not a capability name", name,
					   l.items[i].p);
				return false;
			}
			caps |= (uint64_t)1 << c;
		}
		*out = hp_v_caps(caps);
		return true;
	}
	case HP_T_ROLE: {
		int r = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, text);
		if (r < 0) {
			char roles[64];
			hp_err_set(err, "--param %s: '%s' is not a role (%s)", name, text,
			           hp_names_text(roles, sizeof roles, hp_role_names, HP_ROLE_COUNT,
			                         "or"));
			return false;
		}
		*out = hp_v_role((hp_role)r);
		return true;
	}
	case HP_T_NONE:
	case HP_T_USER:
	case HP_T_GROUP:
	case HP_T_COUNT:
	default:
		hp_err_set(err, "--param %s: a %s cannot be given on the command line", name,
		           hp_type_names[t]);
		return false;
	}
	hp_err_set(err, "--param %s: memory limit reached", name);
	return false;
}
