/* strv.h: a growable vector of owned strings, for lists of messages,
 * reasons, evidence and names. */
#ifndef HP_STRV_H
#define HP_STRV_H

#include <stddef.h>

typedef struct {
	char **v;
	size_t n, cap;
} hp_strv;

/* Append a copy of s. */
void hp_strv_push(hp_strv *sv, const char *s);
/* Append a formatted string. */
void hp_strv_pushf(hp_strv *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append every string of other, copied. */
void hp_strv_extend(hp_strv *sv, const hp_strv *other);
void hp_strv_free(hp_strv *sv);

#endif
