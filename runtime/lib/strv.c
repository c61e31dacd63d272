/* strv.c: a growable vector of owned strings. */
#include "lib/strv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/xalloc.h"

static void push_owned(hp_strv *sv, char *s)
{
	sv->v = hp_xgrow(sv->v, &sv->cap, sv->n + 1, sizeof *sv->v);
	sv->v[sv->n++] = s;
}

void hp_strv_push(hp_strv *sv, const char *s)
{
	push_owned(sv, hp_xstrdup(s));
}

void hp_strv_pushf(hp_strv *sv, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	char *s = hp_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	push_owned(sv, s);
}

void hp_strv_extend(hp_strv *sv, const hp_strv *other)
{
	for (size_t i = 0; i < other->n; i++)
		hp_strv_push(sv, other->v[i]);
}

void hp_strv_free(hp_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}
