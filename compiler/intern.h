/* intern.h: one copy of each name per compilation, so that names compare
 * by pointer and every lookup by name is a hash probe, never a scan. */
#ifndef HP_INTERN_H
#define HP_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct hp_intern hp_intern;

hp_intern *hp_intern_new(hp_arena *a);
void hp_intern_free(hp_intern *t);
/* The interned copy of s[0..n) (NUL-terminated, in the arena). */
const char *hp_intern_name(hp_intern *t, const char *s, size_t n);

/* A map from interned names (pointers) to values, open addressing. */
typedef struct {
	const char **keys;
	void **vals;
	size_t n, cap;
} hp_namemap;

void hp_namemap_init(hp_namemap *m);
void hp_namemap_free(hp_namemap *m);
void *hp_namemap_get(const hp_namemap *m, const char *key);
/* Set key (an interned name) to val; returns the previous value or NULL. */
void *hp_namemap_put(hp_namemap *m, const char *key, void *val);

#endif
