/* buf.h: a growable byte buffer with printf, for building output (reports,
 * facts files, bytecode) before it is written in one go. */
#ifndef HP_BUF_H
#define HP_BUF_H

#include <stddef.h>

typedef struct {
	char *data; /* always NUL-terminated after the first append */
	size_t len, cap;
} hp_buf;

void hp_buf_append(hp_buf *b, const void *data, size_t len);
void hp_buf_puts(hp_buf *b, const char *s);
void hp_buf_putc(hp_buf *b, char c);
void hp_buf_printf(hp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal, quotes included. Bytes that are not valid UTF-8
 * become U+FFFD, so the output is always valid JSON. */
void hp_buf_json_string(hp_buf *b, const char *s);
/* Text for XML (JUnit and other CI reports): the five entities, and the
 * characters XML 1.0 cannot hold (controls other than tab and newline) as
 * U+FFFD. s NULL: nothing. */
void hp_buf_xml_text(hp_buf *b, const char *s);
void hp_buf_free(hp_buf *b);

#endif
