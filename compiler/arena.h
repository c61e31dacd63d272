/* arena.h: a bump allocator for one compilation. Every node, string and
 * table the front end builds comes from the compilation's arena and is
 * released at once by hp_arena_free, so no pass frees anything itself and
 * an error path cannot leak. */
#ifndef HP_ARENA_H
#define HP_ARENA_H

#include <stddef.h>

typedef struct hp_arena hp_arena;

hp_arena *hp_arena_new(void);
void hp_arena_free(hp_arena *a);
/* n bytes, aligned for any scalar, zeroed. Never NULL (see xalloc.h). */
void *hp_arena_alloc(hp_arena *a, size_t n);
/* The same for a tree node or a string: aligned to 8 bytes only (pointers
 * and 64-bit integers; nodes hold nothing wider), so that a node is not
 * padded to a multiple of 16 (an expression is 88 bytes, not 96). */
void *hp_arena_node(hp_arena *a, size_t n);
/* A NUL-terminated copy of s[0..n). */
char *hp_arena_strndup(hp_arena *a, const char *s, size_t n);
/* Make p (from malloc) the arena's: freed with it. */
void hp_arena_adopt(hp_arena *a, void *p);
/* Bytes handed out so far (for benchmarks and limits). */
size_t hp_arena_used(const hp_arena *a);

#endif
