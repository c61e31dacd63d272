/* arena.c: chunked bump allocation; chunks double up to a cap so that a
 * large policy needs few mallocs, and a request bigger than a chunk gets a
 * chunk of its own. Chunks of 2 MiB and more are mapped on a 2 MiB boundary
 * and offered to the kernel for transparent huge pages: a million-line
 * policy otherwise takes some 60,000 page faults to fill its arena, about a
 * third of the time lint spends on it. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/xalloc.h"

#define ARENA_FIRST (64u * 1024u)
#define ARENA_MAX_CHUNK (8u * 1024u * 1024u)
#define ARENA_ALIGN 16u
#define NODE_ALIGN 8u
#define HUGE_PAGE (2u * 1024u * 1024u)

typedef struct chunk {
	struct chunk *prev;
	size_t size;
	size_t used;
	size_t mapped; /* bytes mapped with mmap, 0 when from calloc */
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

static void free_chunk(chunk *c)
{
	if (c->mapped)
		munmap(c, c->mapped);
	else
		free(c);
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
		free_chunk(c);
		c = p;
	}
	free(a);
}

/* bytes (a multiple of HUGE_PAGE) of zeroed memory on a HUGE_PAGE boundary,
 * or NULL when the mapping fails (the caller falls back to calloc). */
static void *map_huge(size_t bytes)
{
	unsigned char *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	size_t head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + bytes, HUGE_PAGE - head);
	p += head;
	/* advice only: without transparent huge pages the mapping still works */
	(void)madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static chunk *new_chunk(hp_arena *a, size_t need)
{
	size_t size = a->next_size;
	if (size < need)
		size = need;
	if (size > SIZE_MAX - sizeof(chunk) - HUGE_PAGE)
		size = SIZE_MAX - sizeof(chunk) - HUGE_PAGE; /* hp_xcalloc then fails cleanly */
	chunk *c = NULL;
	size_t bytes = sizeof(chunk) + size;
	if (bytes >= HUGE_PAGE) {
		bytes = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
		c = map_huge(bytes);
		if (c) {
			c->mapped = bytes;
			size = bytes - sizeof(chunk);
		}
	}
	if (!c) /* calloc: fresh pages come zeroed, so alloc need not clear them */
		c = hp_xcalloc(1, sizeof(chunk) + size);
	c->size = size;
	c->used = 0;
	if (a->next_size < ARENA_MAX_CHUNK)
		a->next_size *= 2;
	return c;
}

/* n bytes at a multiple of align (a power of two, at most 16) */
static void *alloc_aligned(hp_arena *a, size_t n, size_t align)
{
	if (n > SIZE_MAX - 2 * ARENA_ALIGN)
		n = SIZE_MAX - 2 * ARENA_ALIGN;
	n = (n + NODE_ALIGN - 1) & ~(size_t)(NODE_ALIGN - 1);
	chunk *c = a->cur;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || at > c->size || c->size - at < n) {
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
		at = 0;
	}
	void *p = c->data + at;
	c->used = at + n;
	a->total += n;
	return p;
}

void *hp_arena_alloc(hp_arena *a, size_t n)
{
	return alloc_aligned(a, n, ARENA_ALIGN);
}

void *hp_arena_node(hp_arena *a, size_t n)
{
	return alloc_aligned(a, n, NODE_ALIGN);
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
	char *p = hp_arena_node(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

size_t hp_arena_used(const hp_arena *a)
{
	return a->total;
}
