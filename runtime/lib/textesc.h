/* textesc.h: file contents quoted safely in messages. Names and tokens taken
 * from a sandbox's files end up on an operator's terminal and in reports;
 * control bytes and quotes are shown as \xHH escapes and long text is cut. */
#ifndef HP_TEXTESC_H
#define HP_TEXTESC_H

#include <stddef.h>

/* The longest text (in input bytes) a message quotes before cutting it. */
#define HP_ESC_MAX_INPUT 64

/* Room for HP_ESC_MAX_INPUT bytes escaped as \xHH, "..." and the NUL. */
typedef struct {
	char s[HP_ESC_MAX_INPUT * 4 + 4];
} hp_esc_buf;

/* Escape n bytes of s into b; returns b->s. */
const char *hp_esc(hp_esc_buf *b, const char *s, size_t n);
/* The same for a NUL-terminated string. */
const char *hp_escs(hp_esc_buf *b, const char *s);

#endif
