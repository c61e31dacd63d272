/* similar.h: how close two short words are, for "did you mean" hints on a
 * mistyped command, option or value (similar.c). */
#ifndef HP_SIMILAR_H
#define HP_SIMILAR_H

#include <stddef.h>

/* The optimal string alignment distance between a and b: insertions,
 * deletions, substitutions and swaps of two neighbours, each costing 1.
 * Words longer than HP_SIMILAR_MAX bytes are far from everything
 * (HP_SIMILAR_FAR). */
#define HP_SIMILAR_MAX 64u
#define HP_SIMILAR_FAR 1000u
unsigned hp_similar_distance(const char *a, const char *b);

/* The word of words[0..n) closest to typed when it is close enough to be
 * what was meant (at most 2 edits, and fewer edits than typed has
 * bytes), else NULL. A tie goes to the word listed first. */
const char *hp_similar_pick(const char *typed, const char *const *words, size_t n);

#endif
