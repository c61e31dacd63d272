/* xalloc.c: allocation that never returns NULL, and hp_err. */
#include "lib/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void oom(void)
{
	static const char msg[] = "hangar-policy: out of memory\n";
	ssize_t r = write(2, msg, sizeof msg - 1);
	(void)r;
	_exit(4);
}

void *hp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *hp_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *hp_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

void *hp_xgrow(void *p, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap : 8;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	if (elem_size && c > SIZE_MAX / elem_size)
		oom();
	*cap = c;
	return hp_xrealloc(p, c * elem_size);
}

char *hp_xstrdup(const char *s)
{
	return hp_xstrndup(s, strlen(s));
}

char *hp_xstrndup(const char *s, size_t n)
{
	char *p = hp_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *hp_xpath_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	size_t sep = dl == 0 || dir[dl - 1] != '/';
	char *p = hp_xmalloc(dl + sep + nl + 1);
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + sep, name, nl + 1);
	return p;
}

char *hp_xpath_dir(const char *path)
{
	const char *s = strrchr(path, '/');
	if (!s || s == path)
		return hp_xstrdup("/");
	return hp_xstrndup(path, (size_t)(s - path));
}

const char *hp_path_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

char *hp_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	char *p = hp_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void hp_err_set(hp_err *e, const char *fmt, ...)
{
	if (!e)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
}
