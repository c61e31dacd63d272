/* record.c: a run's facts written as a facts file (record.h, docs/facts.md):
 * YAML with double-quoted strings, one mapping per question. */
#include "check/record.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "lib/atomic_file.h"
#include "lib/pool.h"
#include "lib/utf8.h"

/* Length of the valid UTF-8 sequence at s (of n bytes) that a facts file
 * may hold, or 0: U+FEFF and the C1 controls are valid UTF-8, but YAML
 * readers treat them specially. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = hp_utf8_seq(s, n, &cp);
	if (!len || cp == 0xfeff || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return len;
}

static bool valid_utf8(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_len(s + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* A YAML double-quoted scalar. Bytes that are not valid UTF-8 become '?'
 * (callers check valid_utf8 first where the value matters). */
static void put_str(hp_buf *b, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	hp_buf_putc(b, '"');
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c == '"' || c == '\\') {
			hp_buf_putc(b, '\\');
			hp_buf_putc(b, (char)c);
			i++;
		} else if (c == '\n') {
			hp_buf_puts(b, "\\n");
			i++;
		} else if (c == '\t') {
			hp_buf_puts(b, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			hp_buf_printf(b, "\\x%02x", c);
			i++;
		} else {
			size_t k = utf8_len(s + i, n - i);
			if (k)
				hp_buf_append(b, s + i, k);
			else
				hp_buf_putc(b, '?');
			i += k ? k : 1;
		}
	}
	hp_buf_putc(b, '"');
}

static void put_list(hp_buf *b, const hp_list *l)
{
	hp_buf_putc(b, '[');
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			hp_buf_puts(b, ", ");
		put_str(b, l->items[i].p, l->items[i].len);
	}
	hp_buf_putc(b, ']');
}

static bool list_ok(const hp_list *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (!valid_utf8(l->items[i].p, l->items[i].len))
			return false;
	return true;
}

/* Whether a known value can be written exactly. */
static bool writable_value(const hp_value *v)
{
	switch (v->type) {
	case HP_T_STR:
		return valid_utf8(v->u.s.p, v->u.s.len);
	case HP_T_LIST:
		return list_ok(&v->u.l);
	case HP_T_USER: {
		const hp_user *u = v->u.user;
		return valid_utf8(u->name.p, u->name.len) && valid_utf8(u->home.p, u->home.len) &&
		       valid_utf8(u->shell.p, u->shell.len) && list_ok(&u->groups);
	}
	case HP_T_GROUP:
		return valid_utf8(v->u.group->name.p, v->u.group->name.len) &&
		       list_ok(&v->u.group->members);
	default:
		return true;
	}
}

/* A known value, on one line (flow style). */
static void put_value(hp_buf *b, const hp_value *v)
{
	switch (v->type) {
	case HP_T_BOOL:
		hp_buf_puts(b, v->u.b ? "true" : "false");
		break;
	case HP_T_INT:
		hp_buf_printf(b, "%lld", (long long)v->u.i);
		break;
	case HP_T_STR:
		put_str(b, v->u.s.p, v->u.s.len);
		break;
	case HP_T_LIST:
		put_list(b, &v->u.l);
		break;
	case HP_T_CAPS:
		hp_buf_putc(b, '[');
		hp_caps_names(b, v->u.caps);
		hp_buf_putc(b, ']');
		break;
	case HP_T_ROLE:
		hp_buf_puts(b, v->u.role < HP_ROLE_COUNT ? hp_role_names[v->u.role] : "root");
		break;
	case HP_T_USER: {
		const hp_user *u = v->u.user;
		hp_buf_puts(b, "{name: ");
		put_str(b, u->name.p, u->name.len);
		hp_buf_printf(b, ", uid: %lld, gid: %lld, home: ", (long long)u->uid,
		              (long long)u->gid);
		put_str(b, u->home.p, u->home.len);
		hp_buf_puts(b, ", shell: ");
		put_str(b, u->shell.p, u->shell.len);
		hp_buf_puts(b, ", groups: ");
		put_list(b, &u->groups);
		hp_buf_putc(b, '}');
		break;
	}
	case HP_T_GROUP: {
		const hp_group *g = v->u.group;
		hp_buf_puts(b, "{name: ");
		put_str(b, g->name.p, g->name.len);
		hp_buf_printf(b, ", gid: %lld, members: ", (long long)g->gid);
		put_list(b, &g->members);
		hp_buf_putc(b, '}');
		break;
	}
	default:
		hp_buf_puts(b, "null");
		break;
	}
}

static void put_reason(hp_buf *b, const char *reason)
{
	if (!reason || !*reason)
		return;
	hp_buf_puts(b, "\n    reason: ");
	put_str(b, reason, strlen(reason));
}

static void put_answer(hp_buf *b, const hp_value *v)
{
	hp_buf_puts(b, "\n    answer: ");
	switch (v->state) {
	case HP_VAL_KNOWN:
		if (writable_value(v)) {
			put_value(b, v);
		} else {
			hp_buf_puts(b, "unknown");
			put_reason(b,
			           "the observed value is not valid UTF-8 and cannot be recorded");
		}
		break;
	case HP_VAL_ABSENT:
		hp_buf_puts(b, "absent");
		put_reason(b, v->u.reason);
		break;
	case HP_VAL_SKIPPED:
		hp_buf_puts(b, "skipped");
		put_reason(b, v->u.reason);
		break;
	default:
		hp_buf_puts(b, "unknown");
		put_reason(b, v->u.reason);
		break;
	}
}

/* --- questions, each once -------------------------------------------------------------- */

/* The questions already written: an open-addressing set of keys. */
typedef struct {
	char **slot;
	size_t n, cap; /* cap: a power of two */
} seen_set;

static uint64_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603ull;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ull;
	return h;
}

static bool seen_add(seen_set *s, const char *key)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 64;
		char **nslot = hp_xcalloc(ncap, sizeof *nslot);
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->slot[i])
				continue;
			size_t j = key_hash(s->slot[i]) & (ncap - 1);
			while (nslot[j])
				j = (j + 1) & (ncap - 1);
			nslot[j] = s->slot[i];
		}
		free(s->slot);
		s->slot = nslot;
		s->cap = ncap;
	}
	size_t j = key_hash(key) & (s->cap - 1);
	for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
		if (strcmp(s->slot[j], key) == 0)
			return false;
	s->slot[j] = hp_xstrdup(key);
	s->n++;
	return true;
}

static void seen_free(seen_set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
}

/* in_container: a recording made in a container, which holds no document
 * answers (a document comes from the deciding call, docs/facts.md) */
static void put_facts(hp_buf *out, const hp_role_result *r, seen_set *seen, hp_pool *pool,
                      bool in_container)
{
	for (uint32_t i = 0; i < r->nfacts; i++) {
		const hp_fact *f = &r->facts[i];
		if (f->probe >= HP_PROBE_COUNT)
			continue;
		if (in_container && hp_probes[f->probe].part == HP_PART_DOC)
			continue;
		const hp_probe_info *pi = &hp_probes[f->probe];
		hp_value arg, ans;
		if (!hp_role_result_value(r, f->arg, pool, &arg) ||
		    !hp_role_result_value(r, f->answer, pool, &ans))
			continue;
		bool global = pi->scope == HP_SCOPE_GLOBAL;
		const char *role = f->role < HP_ROLE_COUNT ? hp_role_names[f->role] : "root";
		hp_buf key = {0};
		hp_buf_printf(&key, "%s %s ", global ? "-" : role, pi->name);
		if (arg.type != HP_T_NONE)
			put_value(&key, &arg);
		bool fresh = seen_add(seen, key.data);
		if (fresh && arg.type != HP_T_NONE && !writable_value(&arg)) {
			hp_buf_printf(out,
			              "  # %s%s%s: its argument is not valid UTF-8, not recorded\n",
			              global ? "" : role, global ? "" : " ", pi->name);
		} else if (fresh) {
			hp_buf_puts(out, "  - ");
			if (!global)
				hp_buf_printf(out, "role: %s\n    ", role);
			hp_buf_printf(out, "probe: %s", pi->name);
			if (arg.type != HP_T_NONE) {
				hp_buf_puts(out, "\n    arg: ");
				put_value(out, &arg);
			}
			put_answer(out, &ans);
			const char *where = hp_role_result_str(r, f->where);
			if (where && valid_utf8(where, strlen(where)) && !strchr(where, '\n')) {
				hp_buf_puts(out, "\n    where: ");
				put_str(out, where, strlen(where));
			}
			hp_buf_putc(out, '\n');
		}
		hp_buf_free(&key);
	}
}

void hp_record_text(hp_buf *out, const hp_bc *bc, const hp_globals *g, const hp_role_result *roles,
                    const char *source)
{
	hp_record_text_in(out, bc, g, roles, source, NULL);
}

void hp_record_text_in(hp_buf *out, const hp_bc *bc, const hp_globals *g,
                       const hp_role_result *roles, const char *source, const char *container)
{
	hp_pool pool;
	hp_pool_init(&pool, (size_t)1 << 31);
	seen_set seen = {0};
	hp_buf_puts(out, "# facts recorded by hangar-policy check (");
	hp_buf_puts(out, source);
	hp_buf_puts(out, ") from policy ");
	const hp_str *name = bc->name < bc->nstrings ? &bc->strings[bc->name] : NULL;
	if (name && valid_utf8(name->p, name->len) && !memchr(name->p, '\n', name->len))
		put_str(out, name->p, name->len);
	hp_buf_puts(out, "\nversion: 1\n");
	if (container) {
		hp_buf_puts(out, "container: ");
		put_str(out, container, strlen(container));
		hp_buf_putc(out, '\n');
	}
	hp_buf_puts(out, "facts:\n");
	size_t before = out->len;
	put_facts(out, &g->facts, &seen, &pool, container != NULL);
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		put_facts(out, &roles[r], &seen, &pool, container != NULL);
	if (out->len == before) {
		/* an empty list, still a list */
		out->len = before - 1;
		out->data[out->len] = '\0';
		hp_buf_puts(out, " []\n");
	}
	seen_free(&seen);
	hp_pool_free(&pool);
}

bool hp_record_write(const char *path, const hp_bc *bc, const hp_globals *g,
                     const hp_role_result *roles, const char *source, const char *container,
                     hp_err *err)
{
	hp_buf b = {0};
	hp_record_text_in(&b, bc, g, roles, source, container);
	hp_err e;
	bool ok;
	if (strcmp(path, "-") == 0) {
		/* '-' is standard output, as for every file a command writes */
		ok = fwrite(b.data, 1, b.len, stdout) == b.len && fflush(stdout) == 0;
		if (!ok)
			hp_err_set(err, "--record -: standard output: %s", strerror(errno));
	} else if (!(ok = hp_safe_write(path, b.data, b.len, 0600, &e))) {
		hp_err_set(err, "--record %s", e.msg);
	}
	hp_buf_free(&b);
	return ok;
}
