/* arena.c: chunked bump allocation; chunks double up to a cap so that a
 * large policy needs few mallocs, and a request bigger than a chunk gets a
 * chunk of its own. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define ARENA_FIRST (64u * 1024u)
#define ARENA_MAX_CHUNK (8u * 1024u * 1024u)
#define ARENA_ALIGN 16u

typedef struct chunk {
	struct chunk *prev;
	size_t size;
	size_t used;
	_Alignas(16) unsigned char data[];
} chunk;

typedef struct adopted {
	struct adopted *next;
	void *p;
} adopted;

struct hp_arena {
	chunk *cur;
	adopted *owned;
	size_t next_size;
	size_t total;
};

hp_arena *hp_arena_new(void)
{
	hp_arena *a = hp_xcalloc(1, sizeof *a);
	a->next_size = ARENA_FIRST;
	return a;
}

void hp_arena_free(hp_arena *a)
{
	if (!a)
		return;
	for (adopted *o = a->owned; o;) {
		adopted *n = o->next;
		free(o->p);
		o = n; /* the record itself lives in a chunk */
	}
	chunk *c = a->cur;
	while (c) {
		chunk *p = c->prev;
		free(c);
		c = p;
	}
	free(a);
}

static chunk *new_chunk(hp_arena *a, size_t need)
{
	size_t size = a->next_size;
	if (size < need)
		size = need;
	if (size > SIZE_MAX - sizeof(chunk))
		size = SIZE_MAX - sizeof(chunk); /* hp_xmalloc then fails cleanly */
	/* calloc: fresh pages come zeroed, so alloc need not clear them */
	chunk *c = hp_xcalloc(1, sizeof(chunk) + size);
	c->size = size;
	c->used = 0;
	if (a->next_size < ARENA_MAX_CHUNK)
		a->next_size *= 2;
	return c;
}

void *hp_arena_alloc(hp_arena *a, size_t n)
{
	if (n > SIZE_MAX - ARENA_ALIGN)
		n = SIZE_MAX - ARENA_ALIGN;
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	chunk *c = a->cur;
	if (!c || c->size - c->used < n) {
		chunk *nc = new_chunk(a, n);
		if (c && n > ARENA_MAX_CHUNK / 4 && c->size - c->used > nc->size - n) {
			/* a big one-off: keep filling the current chunk afterwards */
			nc->prev = c->prev;
			c->prev = nc;
		} else {
			nc->prev = c;
			a->cur = nc;
		}
		c = nc;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	return p;
}

void hp_arena_adopt(hp_arena *a, void *p)
{
	adopted *o = hp_arena_alloc(a, sizeof *o);
	o->p = p;
	o->next = a->owned;
	a->owned = o;
}

char *hp_arena_strndup(hp_arena *a, const char *s, size_t n)
{
	char *p = hp_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

size_t hp_arena_used(const hp_arena *a)
{
	return a->total;
}
