/* buf.c: a growable byte buffer with printf and JSON string escaping. */
#include "lib/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

static void reserve(hp_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		extra = SIZE_MAX; /* hp_xgrow reports the overflow as out of memory */
	b->data = hp_xgrow(b->data, &b->cap, b->len + extra + 1, 1);
}

void hp_buf_append(hp_buf *b, const void *data, size_t len)
{
	reserve(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void hp_buf_puts(hp_buf *b, const char *s)
{
	hp_buf_append(b, s, strlen(s));
}

void hp_buf_putc(hp_buf *b, char c)
{
	hp_buf_append(b, &c, 1);
}

void hp_buf_printf(hp_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void hp_buf_json_string(hp_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	hp_buf_putc(b, '"');
	while (*s) {
		unsigned char c = *s;
		if (c == '"' || c == '\\') {
			hp_buf_putc(b, '\\');
			hp_buf_putc(b, (char)c);
			s++;
		} else if (c == '\n') {
			hp_buf_puts(b, "\\n");
			s++;
		} else if (c == '\t') {
			hp_buf_puts(b, "\\t");
			s++;
		} else if (c == '\r') {
			hp_buf_puts(b, "\\r");
			s++;
		} else if (c < 0x20 || c == 0x7f) {
			hp_buf_printf(b, "\\u%04x", c);
			s++;
		} else {
			size_t n = utf8_len(s);
			if (n == 0) {
				hp_buf_puts(b, "\\ufffd");
				s++;
			} else {
				hp_buf_append(b, s, n);
				s += n;
			}
		}
	}
	hp_buf_putc(b, '"');
}

void hp_buf_free(hp_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
