/* textesc.c: quoting file contents for messages. */
#include "lib/textesc.h"

#include <string.h>

const char *hp_esc(hp_esc_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *o = b->s;
	size_t take = n > HP_ESC_MAX_INPUT ? HP_ESC_MAX_INPUT : n;
	for (size_t i = 0; i < take; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		} else {
			*o++ = (char)c;
		}
	}
	if (take < n) {
		memcpy(o, "...", 3);
		o += 3;
	}
	*o = '\0';
	return b->s;
}

const char *hp_escs(hp_esc_buf *b, const char *s)
{
	return hp_esc(b, s, strlen(s));
}
