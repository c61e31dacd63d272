/* idxtab.c: open-addressing hash index over a caller's entries. */
#include "lib/idxtab.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

void hp_idxtab_init(hp_idxtab *t, size_t n)
{
	size_t cap = 16;
	unsigned bits = 4;
	while (cap < 2 * n) {
		cap *= 2;
		bits++;
	}
	t->shift = 64 - bits;
	t->slot = hp_xcalloc(cap, sizeof *t->slot);
	t->mask = cap - 1;
	hp_hashkey_init(&t->key);
}

void hp_idxtab_free(hp_idxtab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->mask = 0;
}

static size_t hash_name(const hp_idxtab *t, const char *name)
{
	return (size_t)hp_siphash(&t->key, name, strlen(name));
}

/* Multiply-shift with a secret odd multiplier: universal over the choice of
 * the key, and far cheaper than SipHash for a 32-bit id. */
static size_t hash_id(const hp_idxtab *t, uint32_t id)
{
	return (size_t)(((uint64_t)id * (t->key.k1 | 1)) >> t->shift);
}

uint32_t hp_idxtab_find_name(const hp_idxtab *t, const char *name, hp_idx_name_fn f,
                             const void *ctx)
{
	for (size_t i = hash_name(t, name) & t->mask;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];
		if (!s)
			return HP_IDX_NONE;
		if (strcmp(f(ctx, s - 1), name) == 0)
			return s - 1;
	}
}

uint32_t hp_idxtab_find_id(const hp_idxtab *t, uint32_t id, hp_idx_id_fn f, const void *ctx)
{
	for (size_t i = hash_id(t, id) & t->mask;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];
		if (!s)
			return HP_IDX_NONE;
		if (f(ctx, s - 1) == id)
			return s - 1;
	}
}

uint32_t hp_idxtab_add_name(hp_idxtab *t, uint32_t entry, hp_idx_name_fn f, const void *ctx)
{
	const char *name = f(ctx, entry);
	for (size_t i = hash_name(t, name) & t->mask;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];
		if (!s) {
			t->slot[i] = entry + 1;
			return HP_IDX_NONE;
		}
		if (strcmp(f(ctx, s - 1), name) == 0)
			return s - 1;
	}
}

uint32_t hp_idxtab_add_id(hp_idxtab *t, uint32_t entry, hp_idx_id_fn f, const void *ctx)
{
	uint32_t id = f(ctx, entry);
	for (size_t i = hash_id(t, id) & t->mask;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];
		if (!s) {
			t->slot[i] = entry + 1;
			return HP_IDX_NONE;
		}
		if (f(ctx, s - 1) == id)
			return s - 1;
	}
}
