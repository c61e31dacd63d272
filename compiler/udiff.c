/* udiff.c: unified diffs (udiff.h). */
#include "udiff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

typedef struct {
	const char *p;
	size_t len; /* without the newline */
	int nl;     /* ends with a newline */
} line;

static line *split(const char *t, size_t len, size_t *n)
{
	size_t cap = 0;
	line *v = NULL;
	*n = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - t) : len;
		v = hp_xgrow(v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = (line){t + i, e - i, nl != NULL};
		i = e + (nl != NULL);
	}
	return v;
}

static int same(const line *x, const line *y)
{
	return x->len == y->len && x->nl == y->nl && memcmp(x->p, y->p, x->len) == 0;
}

enum { KEEP, DEL, ADD };
typedef struct {
	int op;
	size_t a, b; /* line indices */
} edit;

static void put_line(hp_buf *out, char c, const line *l)
{
	hp_buf_putc(out, c);
	hp_buf_append(out, l->p, l->len);
	hp_buf_putc(out, '\n');
	if (!l->nl)
		hp_buf_puts(out, "\\ No newline at end of file\n");
}

void hp_udiff(hp_buf *out, const char *name_a, const char *a, size_t alen, const char *name_b,
              const char *b, size_t blen)
{
	if (alen == blen && memcmp(a, b, alen) == 0)
		return;
	size_t n, m;
	line *A = split(a, alen, &n), *B = split(b, blen, &m);
	/* the common head and tail need no table */
	size_t pre = 0, suf = 0;
	while (pre < n && pre < m && same(&A[pre], &B[pre]))
		pre++;
	while (suf < n - pre && suf < m - pre && same(&A[n - 1 - suf], &B[m - 1 - suf]))
		suf++;
	size_t n1 = n - pre - suf, m1 = m - pre - suf;
	edit *ed = hp_xcalloc(n + m + 1, sizeof *ed);
	size_t ne = 0;
	for (size_t i = 0; i < pre; i++)
		ed[ne++] = (edit){KEEP, i, i};
	if ((uint64_t)(n1 + 1) * (m1 + 1) <= HP_UDIFF_MAX_CELLS) {
		/* L[i][j]: the LCS of A[pre+i..] and B[pre+j..] */
		uint32_t *L = hp_xcalloc((n1 + 1) * (m1 + 1), sizeof *L);
#define AT(i, j) L[(i) * (m1 + 1) + (j)]
		for (size_t i = n1; i-- > 0;)
			for (size_t j = m1; j-- > 0;)
				AT(i, j) = same(&A[pre + i], &B[pre + j])
				               ? AT(i + 1, j + 1) + 1
				               : (AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1));
		size_t i = 0, j = 0;
		while (i < n1 || j < m1) {
			if (i < n1 && j < m1 && same(&A[pre + i], &B[pre + j])) {
				ed[ne++] = (edit){KEEP, pre + i++, pre + j++};
			} else if (i < n1 && (j == m1 || AT(i + 1, j) >= AT(i, j + 1))) {
				ed[ne++] = (edit){DEL, pre + i++, pre + j}; /* deletions first, as diff */
			} else {
				ed[ne++] = (edit){ADD, pre + i, pre + j++};
			}
		}
#undef AT
		free(L);
	} else {
		for (size_t i = 0; i < n1; i++)
			ed[ne++] = (edit){DEL, pre + i, pre};
		for (size_t j = 0; j < m1; j++)
			ed[ne++] = (edit){ADD, pre + n1, pre + j};
	}
	for (size_t i = 0; i < suf; i++)
		ed[ne++] = (edit){KEEP, n - suf + i, m - suf + i};

	hp_buf_printf(out, "--- %s\n+++ %s\n", name_a, name_b);
	const size_t ctx = 3;
	for (size_t k = 0; k < ne;) {
		if (ed[k].op == KEEP) {
			k++;
			continue;
		}
		/* a hunk: from ctx before this change to ctx after the last change
		 * that is no more than 2*ctx unchanged lines from the next */
		size_t start = k >= ctx ? k - ctx : 0, end = k;
		for (size_t run = 0; end < ne; end++) {
			if (ed[end].op != KEEP)
				run = 0;
			else if (++run > 2 * ctx)
				break;
		}
		/* end is past the hunk's last change plus up to 2*ctx keeps: trim to ctx */
		size_t last = end;
		while (last > k && ed[last - 1].op == KEEP)
			last--;
		end = last + ctx < ne ? last + ctx : ne;
		size_t a0 = ed[start].a, b0 = ed[start].b, na = 0, nb = 0;
		for (size_t x = start; x < end; x++) {
			na += ed[x].op != ADD;
			nb += ed[x].op != DEL;
		}
		hp_buf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", na ? a0 + 1 : a0, na, nb ? b0 + 1 : b0,
		              nb);
		for (size_t x = start; x < end; x++)
			put_line(out, ed[x].op == KEEP ? ' ' : ed[x].op == DEL ? '-' : '+',
			         ed[x].op == ADD ? &B[ed[x].b] : &A[ed[x].a]);
		k = end;
	}
	free(ed);
	free(A);
	free(B);
}
