/* buf.c: a growable byte buffer with printf and JSON string escaping. */
#include "lib/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/utf8.h"
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

void hp_buf_json_string(hp_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + strlen(str);
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
			size_t n = hp_utf8_len(s, (size_t)(end - s));
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

void hp_buf_xml_text(hp_buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': hp_buf_puts(b, "&lt;"); break;
		case '>': hp_buf_puts(b, "&gt;"); break;
		case '&': hp_buf_puts(b, "&amp;"); break;
		case '"': hp_buf_puts(b, "&quot;"); break;
		case '\'': hp_buf_puts(b, "&apos;"); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n')
				hp_buf_puts(b, "\xef\xbf\xbd");
			else
				hp_buf_putc(b, (char)c);
		}
	}
}

void hp_buf_free(hp_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
