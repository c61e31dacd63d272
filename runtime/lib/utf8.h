/* utf8.h: strict UTF-8, defined once. A sequence is valid when it is the
 * shortest encoding of a code point up to U+10FFFF that is not a surrogate
 * (RFC 3629): the policy source, bytecode strings, reports, recorded facts
 * and diagnostics all accept exactly the same bytes. */
#ifndef HP_UTF8_H
#define HP_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the valid UTF-8 sequence at the start of s, of
 * which n > 0 bytes may be read, or 0 when it is not one (or is cut off by
 * the end). *cp, if not NULL, gets its code point. */
size_t hp_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/* hp_utf8_seq without the code point. */
size_t hp_utf8_len(const unsigned char *s, size_t n);

/* How many bytes at the start of s (n bytes) are valid UTF-8: n when all
 * are, else the offset of the first sequence that is not valid. */
size_t hp_utf8_prefix(const void *s, size_t n);

#endif
