/* arena.h: a bump allocator with a byte limit. Everything a run of the VM
 * creates (strings, lists, records, backend answers) lives in one arena and
 * is freed at once when the run's result is no longer needed. The limit is
 * an execution limit: a request past it returns NULL, which the VM turns
 * into "the run stopped: memory limit", never into an answer. */
#ifndef HP_ARENA_H
#define HP_ARENA_H

#include <stddef.h>

typedef struct hp_arena_chunk hp_arena_chunk;

typedef struct {
	hp_arena_chunk *chunks;
	char *cur, *end;
	size_t used;  /* bytes handed out so far */
	size_t limit; /* most bytes it may hand out */
} hp_arena;

void hp_arena_init(hp_arena *a, size_t limit);
/* n bytes aligned for any value type, or NULL past the limit. */
void *hp_arena_alloc(hp_arena *a, size_t n);
/* A NUL-terminated copy of s[0..n), or NULL past the limit. */
char *hp_arena_strndup(hp_arena *a, const char *s, size_t n);
/* Free everything; the arena can be used again. */
void hp_arena_free(hp_arena *a);

#endif
