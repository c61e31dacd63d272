/* pool.h: a bump allocator with a byte limit. Everything a run of the VM
 * creates (strings, lists, records, backend answers) lives in one pool and
 * is freed at once when the run's result is no longer needed. The limit is
 * an execution limit: a request past it returns NULL, which the VM turns
 * into "the run stopped: memory limit", never into an answer. */
#ifndef HP_POOL_H
#define HP_POOL_H

#include <stddef.h>

typedef struct hp_pool_chunk hp_pool_chunk;

typedef struct {
	hp_pool_chunk *chunks;
	char *cur, *end;
	size_t used;  /* bytes handed out so far */
	size_t limit; /* most bytes it may hand out */
} hp_pool;

void hp_pool_init(hp_pool *a, size_t limit);
/* n bytes aligned for any value type, or NULL past the limit. */
void *hp_pool_alloc(hp_pool *a, size_t n);
/* A NUL-terminated copy of s[0..n), or NULL past the limit. */
char *hp_pool_strndup(hp_pool *a, const char *s, size_t n);
/* Free everything; the pool can be used again. */
void hp_pool_free(hp_pool *a);

#endif
