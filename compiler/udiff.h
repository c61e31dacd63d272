/* udiff.h: a unified diff of two texts (fmt --diff), as diff -u writes it:
 * "--- A", "+++ B", then hunks "@@ -l,n +l,n @@" with three lines of
 * context. Lines are compared whole; the longest common subsequence is
 * found exactly up to HP_UDIFF_MAX_CELLS (lines of A times lines of B),
 * beyond which the differing middle is shown as one replaced block. */
#ifndef HP_UDIFF_H
#define HP_UDIFF_H

#include <stddef.h>

#include "lib/buf.h"

#define HP_UDIFF_MAX_CELLS (4u << 20)

/* Nothing is written when the texts are equal. */
void hp_udiff(hp_buf *out, const char *name_a, const char *a, size_t alen, const char *name_b,
              const char *b, size_t blen);

#endif
