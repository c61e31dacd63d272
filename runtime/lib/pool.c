/* pool.c: the bump allocator of pool.h. */
#include "lib/pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

struct hp_pool_chunk {
	hp_pool_chunk *next;
	max_align_t data[];
};

enum { CHUNK_BYTES = 64 * 1024, ALIGN = _Alignof(max_align_t) };

void hp_pool_init(hp_pool *a, size_t limit)
{
	memset(a, 0, sizeof *a);
	a->limit = limit;
}

void *hp_pool_alloc(hp_pool *a, size_t n)
{
	if (n == 0)
		n = 1;
	if (n > SIZE_MAX - ALIGN)
		return NULL;
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n > a->limit - a->used || a->used > a->limit)
		return NULL;
	if ((size_t)(a->end - a->cur) < n) {
		size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		hp_pool_chunk *c = hp_xmalloc(sizeof *c + size);
		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c->data;
		a->end = a->cur + size;
	}
	void *p = a->cur;
	a->cur += n;
	a->used += n;
	return p;
}

char *hp_pool_strndup(hp_pool *a, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		return NULL;
	char *p = hp_pool_alloc(a, n + 1);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void hp_pool_free(hp_pool *a)
{
	hp_pool_chunk *c = a->chunks;
	while (c) {
		hp_pool_chunk *next = c->next;
		free(c);
		c = next;
	}
	size_t limit = a->limit;
	hp_pool_init(a, limit);
}
