/* value.c: equality, copying, printing and the binary form of run-time
 * values (value.h). */
#include "model/value.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

const char *const hp_vstate_names[HP_VAL_STATE_COUNT] = {"known", "absent", "unknown", "skipped"};

const hp_rfield_info hp_rfields[HP_RF_COUNT] = {
#define HP_FIELD(record, id, name, type) {HP_T_##record, name, HP_T_##type},
#include "model/fields.def"
};

int hp_rfield_lookup(hp_type record, const char *name)
{
	for (int i = 0; i < HP_RF_COUNT; i++)
		if (hp_rfields[i].record == record && strcmp(hp_rfields[i].name, name) == 0)
			return i;
	return -1;
}

static bool str_eq(hp_str a, hp_str b)
{
	return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

static bool list_eq(hp_list a, hp_list b)
{
	if (a.n != b.n)
		return false;
	for (uint32_t i = 0; i < a.n; i++)
		if (!str_eq(a.items[i], b.items[i]))
			return false;
	return true;
}

bool hp_value_equal(const hp_value *a, const hp_value *b)
{
	if (a->state != HP_VAL_KNOWN || b->state != HP_VAL_KNOWN || a->type != b->type)
		return false;
	switch (a->type) {
	case HP_T_NONE:
		return true;
	case HP_T_BOOL:
		return a->u.b == b->u.b;
	case HP_T_INT:
		return a->u.i == b->u.i;
	case HP_T_CAPS:
		return a->u.caps == b->u.caps;
	case HP_T_ROLE:
		return a->u.role == b->u.role;
	case HP_T_STR:
		return str_eq(a->u.s, b->u.s);
	case HP_T_LIST:
		return list_eq(a->u.l, b->u.l);
	case HP_T_USER: {
		const hp_user *x = a->u.user, *y = b->u.user;
		return str_eq(x->name, y->name) && x->uid == y->uid && x->gid == y->gid &&
		       str_eq(x->home, y->home) && str_eq(x->shell, y->shell) &&
		       list_eq(x->groups, y->groups);
	}
	case HP_T_GROUP: {
		const hp_group *x = a->u.group, *y = b->u.group;
		return str_eq(x->name, y->name) && x->gid == y->gid &&
		       list_eq(x->members, y->members);
	}
	default:
		return false;
	}
}

/* --- copying -------------------------------------------------------------- */

static bool copy_str(hp_pool *a, hp_str s, hp_str *out)
{
	char *p = hp_pool_strndup(a, s.p, s.len);
	if (!p)
		return false;
	out->p = p;
	out->len = s.len;
	return true;
}

static bool copy_list(hp_pool *a, hp_list l, hp_list *out)
{
	hp_str *items = hp_pool_alloc(a, (size_t)l.n * sizeof *items);
	if (!items)
		return false;
	for (uint32_t i = 0; i < l.n; i++)
		if (!copy_str(a, l.items[i], &items[i]))
			return false;
	out->items = items;
	out->n = l.n;
	return true;
}

static bool copy_reason(hp_pool *a, const char *r, const char **out)
{
	if (!r) {
		*out = NULL;
		return true;
	}
	*out = hp_pool_strndup(a, r, strlen(r));
	return *out != NULL;
}

bool hp_value_copy(hp_pool *a, const hp_value *v, hp_value *out)
{
	*out = *v;
	if (v->state != HP_VAL_KNOWN)
		return copy_reason(a, v->u.reason, &out->u.reason);
	switch (v->type) {
	case HP_T_STR:
		return copy_str(a, v->u.s, &out->u.s);
	case HP_T_LIST:
		return copy_list(a, v->u.l, &out->u.l);
	case HP_T_USER: {
		hp_user *u = hp_pool_alloc(a, sizeof *u);
		if (!u)
			return false;
		*u = *v->u.user;
		out->u.user = u;
		return copy_str(a, v->u.user->name, &u->name) &&
		       copy_str(a, v->u.user->home, &u->home) &&
		       copy_str(a, v->u.user->shell, &u->shell) &&
		       copy_list(a, v->u.user->groups, &u->groups);
	}
	case HP_T_GROUP: {
		hp_group *g = hp_pool_alloc(a, sizeof *g);
		if (!g)
			return false;
		*g = *v->u.group;
		out->u.group = g;
		return copy_str(a, v->u.group->name, &g->name) &&
		       copy_list(a, v->u.group->members, &g->members);
	}
	default:
		return true;
	}
}

/* --- printing ------------------------------------------------------------- */

static void fmt_str(hp_buf *b, hp_str s)
{
	hp_buf_putc(b, '"');
	for (uint32_t i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.p[i];
		switch (c) {
		case '"':
			hp_buf_puts(b, "\\\"");
			break;
		case '\\':
			hp_buf_puts(b, "\\\\");
			break;
		case '\n':
			hp_buf_puts(b, "\\n");
			break;
		case '\t':
			hp_buf_puts(b, "\\t");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				hp_buf_printf(b, "\\x%02x", c);
			else
				hp_buf_putc(b, (char)c);
		}
	}
	hp_buf_putc(b, '"');
}

static void fmt_list(hp_buf *b, hp_list l)
{
	if (l.n == 0) {
		hp_buf_puts(b, "{}");
		return;
	}
	hp_buf_puts(b, "{ ");
	for (uint32_t i = 0; i < l.n; i++) {
		if (i)
			hp_buf_puts(b, ", ");
		fmt_str(b, l.items[i]);
	}
	hp_buf_puts(b, " }");
}

void hp_caps_names(hp_buf *b, uint64_t caps)
{
	bool first = true;
	for (unsigned n = 0; n < 64; n++) {
		if (!(caps & ((uint64_t)1 << n)))
			continue;
		if (!first)
			hp_buf_puts(b, ", ");
		first = false;
		char *name = cap_to_name((cap_value_t)n);
		if (name && strncmp(name, "cap_", 4) == 0)
			hp_buf_puts(b, name + 4);
		else
			hp_buf_printf(b, "%u", n);
		if (name)
			cap_free(name);
	}
}

void hp_caps_format(hp_buf *b, uint64_t caps)
{
	if (!caps) {
		hp_buf_puts(b, "{}");
		return;
	}
	hp_buf_puts(b, "{ ");
	hp_caps_names(b, caps);
	hp_buf_puts(b, " }");
}

uint64_t hp_question_hash(unsigned probe, unsigned role, const hp_value *arg)
{
	/* FNV-1a over the question's parts */
	uint64_t h = 1469598103934665603ull;
	h = (h ^ probe) * 1099511628211ull;
	h = (h ^ role) * 1099511628211ull;
	switch (arg->type) {
	case HP_T_STR:
		for (uint32_t i = 0; i < arg->u.s.len; i++)
			h = (h ^ (uint8_t)arg->u.s.p[i]) * 1099511628211ull;
		break;
	case HP_T_INT:
		h = (h ^ (uint64_t)arg->u.i) * 1099511628211ull;
		break;
	case HP_T_ROLE:
		h = (h ^ arg->u.role) * 1099511628211ull;
		break;
	default:
		break;
	}
	/* FNV's low bits are weak, and hash tables index by them */
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	return h ^ (h >> 32);
}

int hp_cap_from_name(const char *name)
{
	char full[80];
	cap_value_t c;
	size_t n = strlen(name);
	if (n == 0 || n > 60 || strncmp(name, "cap_", 4) == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || name[i] == '_'))
			return -1;
	snprintf(full, sizeof full, "cap_%s", name);
	if (cap_from_name(full, &c) != 0 || c < 0 || c > 63)
		return -1;
	return (int)c;
}

bool hp_parse_int(const char *s, int64_t *out)
{
	bool neg = *s == '-';
	const char *p = neg ? s + 1 : s;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	if (!((*p >= '0' && *p <= '9') ||
	      (base == 16 && ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))))
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, base);
	if (errno || *end)
		return false;
	if (neg ? v > (unsigned long long)INT64_MAX + 1 : v > (unsigned long long)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static void fmt_reason(hp_buf *b, const char *word, const char *reason)
{
	hp_buf_puts(b, word);
	if (reason && *reason)
		hp_buf_printf(b, " (%s)", reason);
}

void hp_value_format(hp_buf *b, const hp_value *v)
{
	switch (v->state) {
	case HP_VAL_ABSENT:
		fmt_reason(b, "absent", v->u.reason);
		return;
	case HP_VAL_UNKNOWN:
		fmt_reason(b, "unknown", v->u.reason);
		return;
	case HP_VAL_SKIPPED:
		fmt_reason(b, "skipped", v->u.reason);
		return;
	default:
		break;
	}
	switch (v->type) {
	case HP_T_NONE:
		hp_buf_puts(b, "none");
		break;
	case HP_T_BOOL:
		hp_buf_puts(b, v->u.b ? "true" : "false");
		break;
	case HP_T_INT:
		hp_buf_printf(b, "%" PRId64, v->u.i);
		break;
	case HP_T_STR:
		fmt_str(b, v->u.s);
		break;
	case HP_T_LIST:
		fmt_list(b, v->u.l);
		break;
	case HP_T_CAPS:
		hp_caps_format(b, v->u.caps);
		break;
	case HP_T_ROLE:
		hp_buf_puts(b, v->u.role < HP_ROLE_COUNT ? hp_role_names[v->u.role] : "?");
		break;
	case HP_T_USER: {
		const hp_user *u = v->u.user;
		hp_buf_puts(b, "user ");
		fmt_str(b, u->name);
		hp_buf_printf(b, " (uid %" PRId64 ", gid %" PRId64 ", home ", u->uid, u->gid);
		fmt_str(b, u->home);
		hp_buf_puts(b, ", shell ");
		fmt_str(b, u->shell);
		hp_buf_puts(b, ", groups ");
		fmt_list(b, u->groups);
		hp_buf_putc(b, ')');
		break;
	}
	case HP_T_GROUP: {
		const hp_group *g = v->u.group;
		hp_buf_puts(b, "group ");
		fmt_str(b, g->name);
		hp_buf_printf(b, " (gid %" PRId64 ", members ", g->gid);
		fmt_list(b, g->members);
		hp_buf_putc(b, ')');
		break;
	}
	default:
		hp_buf_puts(b, "?");
	}
}

/* --- binary form ---------------------------------------------------------- */

static void put_u8(hp_buf *b, uint8_t x)
{
	hp_buf_append(b, &x, 1);
}

static void put_u32(hp_buf *b, uint32_t x)
{
	uint8_t p[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
	hp_buf_append(b, p, 4);
}

static void put_u64(hp_buf *b, uint64_t x)
{
	put_u32(b, (uint32_t)x);
	put_u32(b, (uint32_t)(x >> 32));
}

static void put_str(hp_buf *b, hp_str s)
{
	put_u32(b, s.len);
	hp_buf_append(b, s.p, s.len);
}

static void put_cstr(hp_buf *b, const char *s)
{
	hp_str x = {s ? s : "", s ? (uint32_t)strnlen(s, HP_VALUE_MAX_STRING) : 0};
	put_str(b, x);
}

static void put_list(hp_buf *b, hp_list l)
{
	put_u32(b, l.n);
	for (uint32_t i = 0; i < l.n; i++)
		put_str(b, l.items[i]);
}

void hp_value_encode(hp_buf *b, const hp_value *v)
{
	put_u8(b, v->state);
	put_u8(b, v->type);
	if (v->state != HP_VAL_KNOWN) {
		put_cstr(b, v->u.reason);
		return;
	}
	switch (v->type) {
	case HP_T_BOOL:
		put_u8(b, v->u.b ? 1 : 0);
		break;
	case HP_T_INT:
		put_u64(b, (uint64_t)v->u.i);
		break;
	case HP_T_CAPS:
		put_u64(b, v->u.caps);
		break;
	case HP_T_ROLE:
		put_u8(b, v->u.role);
		break;
	case HP_T_STR:
		put_str(b, v->u.s);
		break;
	case HP_T_LIST:
		put_list(b, v->u.l);
		break;
	case HP_T_USER:
		put_str(b, v->u.user->name);
		put_u64(b, (uint64_t)v->u.user->uid);
		put_u64(b, (uint64_t)v->u.user->gid);
		put_str(b, v->u.user->home);
		put_str(b, v->u.user->shell);
		put_list(b, v->u.user->groups);
		break;
	case HP_T_GROUP:
		put_str(b, v->u.group->name);
		put_u64(b, (uint64_t)v->u.group->gid);
		put_list(b, v->u.group->members);
		break;
	default:
		break;
	}
}

typedef struct {
	const uint8_t *data;
	size_t len, off;
	hp_pool *pool;
	hp_err *err;
} reader;

static bool need(reader *r, size_t n, const char *what)
{
	if (n > r->len - r->off) {
		hp_err_set(r->err, "encoded value truncated at byte %zu (reading %s)", r->off,
		           what);
		return false;
	}
	return true;
}

static bool get_u8(reader *r, uint8_t *x, const char *what)
{
	if (!need(r, 1, what))
		return false;
	*x = r->data[r->off++];
	return true;
}

static bool get_u32(reader *r, uint32_t *x, const char *what)
{
	if (!need(r, 4, what))
		return false;
	const uint8_t *p = r->data + r->off;
	*x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	r->off += 4;
	return true;
}

static bool get_u64(reader *r, uint64_t *x, const char *what)
{
	uint32_t lo, hi;
	if (!get_u32(r, &lo, what) || !get_u32(r, &hi, what))
		return false;
	*x = (uint64_t)hi << 32 | lo;
	return true;
}

static bool no_memory(reader *r)
{
	hp_err_set(r->err, "encoded value at byte %zu: memory limit reached", r->off);
	return false;
}

static bool get_str(reader *r, hp_str *s, const char *what)
{
	uint32_t n;
	size_t at = r->off;
	if (!get_u32(r, &n, what))
		return false;
	if (n > HP_VALUE_MAX_STRING) {
		hp_err_set(r->err, "encoded value at byte %zu: %s is %u bytes, more than %u", at,
		           what, n, HP_VALUE_MAX_STRING);
		return false;
	}
	if (!need(r, n, what))
		return false;
	const char *src = (const char *)r->data + r->off;
	if (memchr(src, '\0', n)) {
		hp_err_set(r->err, "encoded value at byte %zu: %s contains a NUL byte", at, what);
		return false;
	}
	char *p = hp_pool_strndup(r->pool, src, n);
	if (!p)
		return no_memory(r);
	r->off += n;
	s->p = p;
	s->len = n;
	return true;
}

static bool get_list(reader *r, hp_list *l, const char *what)
{
	uint32_t n;
	size_t at = r->off;
	if (!get_u32(r, &n, what))
		return false;
	if (n > HP_VALUE_MAX_LIST) {
		hp_err_set(r->err, "encoded value at byte %zu: %s has %u items, more than %u", at,
		           what, n, HP_VALUE_MAX_LIST);
		return false;
	}
	/* each item takes at least its 4-byte length: check before allocating */
	if (!need(r, (size_t)n * 4, what))
		return false;
	hp_str *items = hp_pool_alloc(r->pool, (size_t)n * sizeof *items);
	if (!items)
		return no_memory(r);
	for (uint32_t i = 0; i < n; i++)
		if (!get_str(r, &items[i], what))
			return false;
	l->items = items;
	l->n = n;
	return true;
}

bool hp_value_decode(const uint8_t *data, size_t len, size_t *off, hp_pool *pool, hp_value *out,
                     hp_err *err)
{
	reader r = {data, len, *off, pool, err};
	uint8_t state, type;
	size_t at = r.off;
	if (*off > len) {
		hp_err_set(err, "encoded value offset %zu is past the end (%zu)", *off, len);
		return false;
	}
	if (!get_u8(&r, &state, "state") || !get_u8(&r, &type, "type"))
		return false;
	if (state >= HP_VAL_STATE_COUNT || type >= HP_T_COUNT) {
		hp_err_set(err, "encoded value at byte %zu: bad state %u or type %u", at, state,
		           type);
		return false;
	}
	memset(out, 0, sizeof *out);
	out->state = state;
	out->type = type;
	if (state != HP_VAL_KNOWN) {
		hp_str s;
		if (!get_str(&r, &s, "reason"))
			return false;
		out->u.reason = (state == HP_VAL_ABSENT && s.len == 0) ? NULL : s.p;
		*off = r.off;
		return true;
	}
	uint8_t u8;
	uint64_t u64;
	switch (type) {
	case HP_T_NONE:
		break;
	case HP_T_BOOL:
		if (!get_u8(&r, &u8, "bool"))
			return false;
		if (u8 > 1) {
			hp_err_set(err, "encoded value at byte %zu: bool is %u", at, u8);
			return false;
		}
		out->u.b = u8;
		break;
	case HP_T_INT:
		if (!get_u64(&r, &u64, "int"))
			return false;
		out->u.i = (int64_t)u64;
		break;
	case HP_T_CAPS:
		if (!get_u64(&r, &out->u.caps, "caps"))
			return false;
		break;
	case HP_T_ROLE:
		if (!get_u8(&r, &u8, "role"))
			return false;
		if (u8 >= HP_ROLE_COUNT) {
			hp_err_set(err, "encoded value at byte %zu: role %u", at, u8);
			return false;
		}
		out->u.role = u8;
		break;
	case HP_T_STR:
		if (!get_str(&r, &out->u.s, "string"))
			return false;
		break;
	case HP_T_LIST:
		if (!get_list(&r, &out->u.l, "list"))
			return false;
		break;
	case HP_T_USER: {
		hp_user *u = hp_pool_alloc(pool, sizeof *u);
		if (!u)
			return no_memory(&r);
		uint64_t uid, gid;
		if (!get_str(&r, &u->name, "user name") || !get_u64(&r, &uid, "uid") ||
		    !get_u64(&r, &gid, "gid") || !get_str(&r, &u->home, "home") ||
		    !get_str(&r, &u->shell, "shell") || !get_list(&r, &u->groups, "groups"))
			return false;
		u->uid = (int64_t)uid;
		u->gid = (int64_t)gid;
		out->u.user = u;
		break;
	}
	case HP_T_GROUP: {
		hp_group *g = hp_pool_alloc(pool, sizeof *g);
		if (!g)
			return no_memory(&r);
		uint64_t gid;
		if (!get_str(&r, &g->name, "group name") || !get_u64(&r, &gid, "gid") ||
		    !get_list(&r, &g->members, "members"))
			return false;
		g->gid = (int64_t)gid;
		out->u.group = g;
		break;
	}
	default:
		break;
	}
	*off = r.off;
	return true;
}
