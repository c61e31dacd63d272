/* intern.c: the name table and pointer-keyed maps of intern.h. Both are
 * open-addressing tables kept at most half full, so lookups stay O(1) on
 * the largest policies. */
#include "intern.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

typedef struct {
	const char *s;
	uint32_t len;
	uint32_t hash;
} slot;

struct hp_intern {
	hp_arena *arena;
	slot *v;
	size_t n, cap;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

hp_intern *hp_intern_new(hp_arena *a)
{
	hp_intern *t = hp_xcalloc(1, sizeof *t);
	t->arena = a;
	t->cap = 256;
	t->v = hp_xcalloc(t->cap, sizeof *t->v);
	return t;
}

void hp_intern_free(hp_intern *t)
{
	if (!t)
		return;
	free(t->v);
	free(t);
}

static void intern_grow(hp_intern *t)
{
	size_t cap = t->cap * 2;
	slot *v = hp_xcalloc(cap, sizeof *v);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->v[i].s)
			continue;
		size_t j = t->v[i].hash & (cap - 1);
		while (v[j].s)
			j = (j + 1) & (cap - 1);
		v[j] = t->v[i];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
}

const char *hp_intern_name(hp_intern *t, const char *s, size_t n)
{
	uint32_t h = hash_bytes(s, n);
	size_t j = h & (t->cap - 1);
	while (t->v[j].s) {
		if (t->v[j].hash == h && t->v[j].len == n && memcmp(t->v[j].s, s, n) == 0)
			return t->v[j].s;
		j = (j + 1) & (t->cap - 1);
	}
	slot *e = &t->v[j];
	e->s = hp_arena_strndup(t->arena, s, n);
	e->len = (uint32_t)n;
	e->hash = h;
	const char *r = e->s;
	if (++t->n * 2 > t->cap)
		intern_grow(t); /* e dangles from here on */
	return r;
}

static size_t ptr_hash(const char *p)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= 0xed5ad4bbu;
	x ^= x >> 11;
	return (size_t)x;
}

void hp_namemap_init(hp_namemap *m)
{
	memset(m, 0, sizeof *m);
}

void hp_namemap_free(hp_namemap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

void *hp_namemap_get(const hp_namemap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t j = ptr_hash(key) & (m->cap - 1);
	while (m->keys[j]) {
		if (m->keys[j] == key)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

static void map_insert(const char **keys, void **vals, size_t cap, const char *key, void *val)
{
	size_t j = ptr_hash(key) & (cap - 1);
	while (keys[j] && keys[j] != key)
		j = (j + 1) & (cap - 1);
	keys[j] = key;
	vals[j] = val;
}

void *hp_namemap_put(hp_namemap *m, const char *key, void *val)
{
	void *old = hp_namemap_get(m, key);
	if (old) {
		map_insert(m->keys, m->vals, m->cap, key, val);
		return old;
	}
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		const char **keys = hp_xcalloc(cap, sizeof *keys);
		void **vals = hp_xcalloc(cap, sizeof *vals);
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				map_insert(keys, vals, cap, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
	}
	map_insert(m->keys, m->vals, m->cap, key, val);
	m->n++;
	return NULL;
}
