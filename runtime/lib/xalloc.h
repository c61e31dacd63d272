/* xalloc.h: allocation that never returns NULL. Running out of memory ends
 * the program with exit status 4 ("the check could not run"), which is never
 * a pass; callers need not handle NULL. Also a small error-message buffer
 * used across the runtime. */
#ifndef HP_XALLOC_H
#define HP_XALLOC_H

#include <stddef.h>

void *hp_xmalloc(size_t n);
void *hp_xcalloc(size_t count, size_t size);
void *hp_xrealloc(void *p, size_t n);
/* Grow an array of elem_size elements to at least need, doubling. */
void *hp_xgrow(void *p, size_t *cap, size_t need, size_t elem_size);
char *hp_xstrdup(const char *s);
char *hp_xstrndup(const char *s, size_t n);
/* dir and name joined by one '/' (none added when dir ends with one), in a
 * fresh allocation: the path of a directory's entry, without printf's cost
 * on each entry of a scan. */
char *hp_xpath_join(const char *dir, const char *name);
/* The directory of an absolute path, in a fresh allocation ("/" for "/x"
 * and for a path without a slash). */
char *hp_xpath_dir(const char *path);
/* The last name of a path (after its last '/'), inside path. */
const char *hp_path_base(const char *path);
/* printf into a fresh allocation. */
char *hp_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An error message: filled by a failing function, read by its caller. */
typedef struct {
	char msg[512];
} hp_err;

void hp_err_set(hp_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
