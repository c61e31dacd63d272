/* utf8.c: strict UTF-8 decoding (utf8.h). */
#include "lib/utf8.h"

size_t hp_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		if (cp)
			*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0; /* a continuation byte, an overlong lead (c0, c1), or past f4 */
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

size_t hp_utf8_len(const unsigned char *s, size_t n)
{
	return hp_utf8_seq(s, n, NULL);
}

size_t hp_utf8_prefix(const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i = 0;
	while (i < n) {
		size_t k = hp_utf8_seq(s + i, n - i, NULL);
		if (!k)
			return i;
		i += k;
	}
	return n;
}
