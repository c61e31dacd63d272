/* idxtab.h: a hash index from names or numeric ids to entry numbers, for
 * tables whose size is known before they are filled (users, groups, shadow
 * entries, group members). Open addressing, at most half full, keyed with a
 * secret SipHash key so that hostile names cannot collide on purpose. The
 * entries live in the caller's array; the index stores entry numbers and asks
 * the caller for an entry's key when it compares. */
#ifndef HP_IDXTAB_H
#define HP_IDXTAB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strhash.h"

#define HP_IDX_NONE UINT32_MAX

typedef struct {
	uint32_t *slot; /* entry number + 1; 0 is empty */
	size_t mask;
	unsigned shift; /* 64 - log2(mask + 1) */
	hp_hashkey key;
} hp_idxtab;

typedef const char *(*hp_idx_name_fn)(const void *ctx, uint32_t entry);
typedef uint32_t (*hp_idx_id_fn)(const void *ctx, uint32_t entry);

/* Room for n entries (n < HP_IDX_NONE). */
void hp_idxtab_init(hp_idxtab *t, size_t n);
void hp_idxtab_free(hp_idxtab *t);

/* The entry with this key, or HP_IDX_NONE. */
uint32_t hp_idxtab_find_name(const hp_idxtab *t, const char *name, hp_idx_name_fn f,
                             const void *ctx);
uint32_t hp_idxtab_find_id(const hp_idxtab *t, uint32_t id, hp_idx_id_fn f, const void *ctx);

/* Add entry under its key unless the key is there already: returns
 * HP_IDX_NONE when added, else the entry that has the key. */
uint32_t hp_idxtab_add_name(hp_idxtab *t, uint32_t entry, hp_idx_name_fn f, const void *ctx);
uint32_t hp_idxtab_add_id(hp_idxtab *t, uint32_t entry, hp_idx_id_fn f, const void *ctx);

#endif
