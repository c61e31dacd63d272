/* ops.c: the pure operators of ops.h. */
#include "vm/ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/opcodes.h"

static const char *no_memory = "memory limit reached";

static bool str_eq(hp_str a, hp_str b)
{
	return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

static int str_cmp(const void *x, const void *y)
{
	const hp_str *a = x, *b = y;
	uint32_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->p, b->p, n);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* A sorted copy of l's items, for membership tests in O(log n). */
static hp_str *sorted(hp_pool *p, hp_list l)
{
	hp_str *s = hp_pool_alloc(p, (size_t)l.n * sizeof *s);
	if (!s)
		return NULL;
	if (l.n)
		memcpy(s, l.items, (size_t)l.n * sizeof *s);
	qsort(s, l.n, sizeof *s, str_cmp);
	return s;
}

static bool member(const hp_str *sorted_items, uint32_t n, hp_str x)
{
	return bsearch(&x, sorted_items, n, sizeof x, str_cmp) != NULL;
}

bool hp_op_in(hp_str s, hp_list l)
{
	for (uint32_t i = 0; i < l.n; i++)
		if (str_eq(s, l.items[i]))
			return true;
	return false;
}

hp_value hp_op_subset(hp_pool *p, const hp_value *a, const hp_value *b)
{
	if (a->type == HP_T_CAPS)
		return hp_v_bool((a->u.caps & ~b->u.caps) == 0);
	hp_list x = a->u.l, y = b->u.l;
	if ((uint64_t)x.n * y.n <= 64) {
		for (uint32_t i = 0; i < x.n; i++)
			if (!hp_op_in(x.items[i], y))
				return hp_v_bool(false);
		return hp_v_bool(true);
	}
	hp_str *s = sorted(p, y);
	if (!s)
		return hp_v_unknown(HP_T_BOOL, no_memory);
	for (uint32_t i = 0; i < x.n; i++)
		if (!member(s, y.n, x.items[i]))
			return hp_v_bool(false);
	return hp_v_bool(true);
}

hp_value hp_op_intersect(hp_pool *p, const hp_value *a, const hp_value *b)
{
	if (a->type == HP_T_CAPS)
		return hp_v_caps(a->u.caps & b->u.caps);
	hp_list x = a->u.l, y = b->u.l;
	hp_str *out = hp_pool_alloc(p, (size_t)x.n * sizeof *out);
	hp_str *s = sorted(p, y);
	if (!out || !s)
		return hp_v_unknown(HP_T_LIST, no_memory);
	uint32_t n = 0;
	for (uint32_t i = 0; i < x.n; i++)
		if (member(s, y.n, x.items[i]))
			out[n++] = x.items[i];
	return hp_v_list(out, n);
}

hp_value hp_op_append(hp_pool *p, hp_list l, hp_str s)
{
	if (l.n >= HP_VALUE_MAX_LIST)
		return hp_v_unknown(HP_T_LIST, "list longer than the limit of 4096 items");
	hp_str *items = hp_pool_alloc(p, ((size_t)l.n + 1) * sizeof *items);
	if (!items)
		return hp_v_unknown(HP_T_LIST, no_memory);
	if (l.n)
		memcpy(items, l.items, (size_t)l.n * sizeof *items);
	items[l.n] = s;
	return hp_v_list(items, l.n + 1);
}

hp_value hp_op_split(hp_pool *p, hp_str s, hp_str sep)
{
	if (sep.len == 0)
		return hp_v_unknown(HP_T_LIST, "split with an empty separator");
	uint32_t n = 1;
	for (uint32_t i = 0; i + sep.len <= s.len;) {
		if (memcmp(s.p + i, sep.p, sep.len) == 0) {
			n++;
			i += sep.len;
		} else {
			i++;
		}
	}
	if (n > HP_VALUE_MAX_LIST)
		return hp_v_unknown(HP_T_LIST, "split gives more than the limit of 4096 items");
	hp_str *items = hp_pool_alloc(p, (size_t)n * sizeof *items);
	if (!items)
		return hp_v_unknown(HP_T_LIST, no_memory);
	uint32_t k = 0, start = 0;
	for (uint32_t i = 0; i + sep.len <= s.len;) {
		if (memcmp(s.p + i, sep.p, sep.len) == 0) {
			char *q = hp_pool_strndup(p, s.p + start, i - start);
			if (!q)
				return hp_v_unknown(HP_T_LIST, no_memory);
			items[k++] = (hp_str){q, i - start};
			i += sep.len;
			start = i;
		} else {
			i++;
		}
	}
	char *q = hp_pool_strndup(p, s.p + start, s.len - start);
	if (!q)
		return hp_v_unknown(HP_T_LIST, no_memory);
	items[k++] = (hp_str){q, s.len - start};
	return hp_v_list(items, k);
}

hp_value hp_op_concat(hp_pool *p, hp_str a, hp_str b)
{
	if ((uint64_t)a.len + b.len > HP_VALUE_MAX_STRING)
		return hp_v_unknown(HP_T_STR, "string longer than the limit of 65536 bytes");
	char *q = hp_pool_alloc(p, (size_t)a.len + b.len + 1);
	if (!q)
		return hp_v_unknown(HP_T_STR, no_memory);
	memcpy(q, a.p, a.len);
	memcpy(q + a.len, b.p, b.len);
	q[a.len + b.len] = '\0';
	return hp_v_str(q, a.len + b.len);
}

hp_value hp_op_to_str(hp_pool *p, int64_t i)
{
	char buf[24];
	int n = snprintf(buf, sizeof buf, "%" PRId64, i);
	char *q = hp_pool_strndup(p, buf, (size_t)n);
	return q ? hp_v_str(q, (uint32_t)n) : hp_v_unknown(HP_T_STR, no_memory);
}

hp_value hp_op_field(const hp_value *rec, unsigned f)
{
	if (rec->type == HP_T_USER) {
		const hp_user *u = rec->u.user;
		switch (f) {
		case HP_RF_USER_NAME:
			return hp_v_str(u->name.p, u->name.len);
		case HP_RF_USER_UID:
			return hp_v_int(u->uid);
		case HP_RF_USER_GID:
			return hp_v_int(u->gid);
		case HP_RF_USER_HOME:
			return hp_v_str(u->home.p, u->home.len);
		case HP_RF_USER_SHELL:
			return hp_v_str(u->shell.p, u->shell.len);
		case HP_RF_USER_GROUPS:
			return hp_v_list(u->groups.items, u->groups.n);
		default:
			break;
		}
	} else if (rec->type == HP_T_GROUP) {
		const hp_group *g = rec->u.group;
		switch (f) {
		case HP_RF_GROUP_NAME:
			return hp_v_str(g->name.p, g->name.len);
		case HP_RF_GROUP_GID:
			return hp_v_int(g->gid);
		case HP_RF_GROUP_MEMBERS:
			return hp_v_list(g->members.items, g->members.n);
		default:
			break;
		}
	}
	return hp_v_unknown(f < HP_RF_COUNT ? hp_rfields[f].type : HP_T_NONE,
	                    "field of the wrong record");
}

bool hp_op_compare(unsigned opcode, int64_t a, int64_t b)
{
	switch (opcode) {
	case HP_I_LT:
		return a < b;
	case HP_I_LE:
		return a <= b;
	case HP_I_GT:
		return a > b;
	default:
		return a >= b;
	}
}
