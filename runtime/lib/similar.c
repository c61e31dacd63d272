/* similar.c: the edit distance behind "did you mean" hints (similar.h).
 * Both words are short (names of commands, options and values), so the
 * whole table fits on the stack; longer input is simply far. */
#include "lib/similar.h"

#include <string.h>

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;
	return m < c ? m : c;
}

unsigned hp_similar_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > HP_SIMILAR_MAX || m > HP_SIMILAR_MAX)
		return HP_SIMILAR_FAR;
	unsigned d[HP_SIMILAR_MAX + 1][HP_SIMILAR_MAX + 1];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			/* two neighbours swapped ("chekc" for "check") is one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[n][m];
}

const char *hp_similar_pick(const char *typed, const char *const *words, size_t n)
{
	size_t len = strlen(typed);
	const char *best = NULL;
	unsigned best_d = HP_SIMILAR_FAR;
	for (size_t i = 0; i < n; i++) {
		unsigned d = hp_similar_distance(typed, words[i]);
		if (d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	if (!best || best_d > 2 || best_d >= len)
		return NULL;
	return best;
}
