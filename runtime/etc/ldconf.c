/* ldconf.c: the directories etc/ld.so.conf and etc/ld.so.cache name. */
#include "etc/ldconf.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "lib/textesc.h"

/* The longest line taken as a directory or include list: a path. */
enum { LINE_MAX_BYTES = 4096 };

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool space(char c)
{
	return blank(c) || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static hp_tri bad_line(hp_err *why, const char *file, unsigned line, const char *what,
                       const char *text, size_t n)
{
	hp_esc_buf e;
	hp_err_set(why, "%s:%u: %s: %s", file, line, what, hp_esc(&e, text, n));
	return HP_UNKNOWN;
}

/* An include pattern, taken from the including file's directory when it
 * is relative (ldconfig's parse_conf_include). */
static void push_include(hp_strv *includes, const char *file, const char *p, size_t n)
{
	const char *sl = strrchr(file, '/');
	if (p[0] == '/' || !sl)
		hp_strv_pushf(includes, "%.*s", (int)n, p);
	else
		hp_strv_pushf(includes, "%.*s/%.*s", (int)(sl - file), file, (int)n, p);
}

static hp_tri one_line(const char *s, size_t n, const char *file, unsigned line, hp_strv *dirs,
                       hp_strv *includes, hp_err *why)
{
	const char *hash = memchr(s, '#', n);
	if (hash)
		n = (size_t)(hash - s);
	while (n && space(*s))
		s++, n--;
	while (n && space(s[n - 1]))
		n--;
	if (!n)
		return HP_TRUE;
	if (memchr(s, '\0', n))
		return bad_line(why, file, line, "a NUL byte in the line", s, n);
	if (n > LINE_MAX_BYTES)
		return bad_line(why, file, line, "a line longer than a path", s, 32);
	if (n > 7 && memcmp(s, "include", 7) == 0 && blank(s[7])) {
		size_t i = 8;
		while (i < n) {
			while (i < n && blank(s[i]))
				i++;
			size_t start = i;
			while (i < n && !blank(s[i]))
				i++;
			if (i > start)
				push_include(includes, file, s + start, i - start);
		}
		return HP_TRUE;
	}
	if (n > 5 && strncasecmp(s, "hwcap", 5) == 0 && blank(s[5]))
		return HP_TRUE; /* ldconfig ignores it */
	while (n > 1 && s[n - 1] == '/')
		n--;
	if (s[0] != '/')
		return bad_line(why, file, line, "not an absolute directory", s, n);
	hp_strv_pushf(dirs, "%.*s", (int)n, s);
	return HP_TRUE;
}

hp_tri hp_etc_ldconf_parse(const char *buf, size_t len, const char *file, hp_strv *dirs,
                           hp_strv *includes, hp_err *why)
{
	unsigned line = 0;
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		line++;
		if (one_line(buf + i, end - i, file, line, dirs, includes, why) != HP_TRUE)
			return HP_UNKNOWN;
		i = end + 1;
	}
	return HP_TRUE;
}

/* --- ld.so.cache ----------------------------------------------------------- */

/* glibc's cache_file_new and file_entry_new (dl-cache.h), by offset. */
enum {
	CACHE_MAGIC_LEN = 20, /* "glibc-ld.so.cache" "1.1" */
	CACHE_NLIBS = 20,
	CACHE_FLAGS = 28,
	CACHE_HEADER = 48,
	ENTRY_VALUE = 8,
	ENTRY_SIZE = 24,
	/* flags' low bits: the byte order the cache was written in */
	CACHE_ENDIAN_MASK = 3,
	CACHE_ENDIAN_UNSET = 0,
	CACHE_ENDIAN_LITTLE = 2,
	CACHE_ENDIAN_BIG = 3,
};

static uint32_t u32_at(const char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static int native_endian(void)
{
	const uint16_t one = 1;
	unsigned char b;
	memcpy(&b, &one, 1);
	return b ? CACHE_ENDIAN_LITTLE : CACHE_ENDIAN_BIG;
}

hp_tri hp_etc_ldcache_dirs(const char *buf, size_t len, const char *file, hp_strv *dirs,
                           hp_err *why)
{
	if (len < CACHE_HEADER || memcmp(buf, "glibc-ld.so.cache1.1", CACHE_MAGIC_LEN) != 0) {
		hp_err_set(why, "%s: not a glibc-ld.so.cache1.1 cache (another format is not read)",
		           file);
		return HP_UNKNOWN;
	}
	int endian = (unsigned char)buf[CACHE_FLAGS] & CACHE_ENDIAN_MASK;
	if (endian != CACHE_ENDIAN_UNSET && endian != native_endian()) {
		hp_err_set(why, "%s: written for another byte order", file);
		return HP_UNKNOWN;
	}
	uint32_t nlibs = u32_at(buf + CACHE_NLIBS);
	if (nlibs > (len - CACHE_HEADER) / ENTRY_SIZE) {
		hp_err_set(why, "%s: %u entries, more than the file holds", file, nlibs);
		return HP_UNKNOWN;
	}
	for (uint32_t i = 0; i < nlibs; i++) {
		uint32_t v = u32_at(buf + CACHE_HEADER + (size_t)i * ENTRY_SIZE + ENTRY_VALUE);
		const char *end = v < len ? memchr(buf + v, '\0', len - v) : NULL;
		if (!end) {
			hp_err_set(why, "%s: entry %u: its path lies outside the file", file, i + 1);
			return HP_UNKNOWN;
		}
		const char *p = buf + v;
		const char *sl = strrchr(p, '/');
		if (p[0] != '/' || !sl || (size_t)(end - p) > LINE_MAX_BYTES) {
			hp_esc_buf e;
			hp_err_set(why, "%s: entry %u: not an absolute path: %s", file, i + 1,
			           hp_esc(&e, p, (size_t)(end - p)));
			return HP_UNKNOWN;
		}
		size_t n = sl == p ? 1 : (size_t)(sl - p);
		/* the caller sorts and keeps one of each; a run of one
		 * directory's libraries is kept short here */
		if (!dirs->n || strlen(dirs->v[dirs->n - 1]) != n || memcmp(dirs->v[dirs->n - 1], p, n))
			hp_strv_pushf(dirs, "%.*s", (int)n, p);
	}
	return HP_TRUE;
}
