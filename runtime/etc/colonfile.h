/* colonfile.h: the line discipline shared by etc/passwd, etc/group and
 * etc/shadow: one entry per line, fields separated by ':', the first field a
 * name. It rejects what libcs read differently (comment lines, which musl
 * reads as entries; leading blanks, which glibc skips; carriage returns), NIS
 * compat lines, NUL bytes, overlong lines and too many entries, each with
 * file:line and what is wrong. */
#ifndef HP_COLONFILE_H
#define HP_COLONFILE_H

#include <stddef.h>

#include "lib/xalloc.h"

/* Longest line, newline excluded. A group with a few thousand members fits. */
#define HP_COLON_MAX_LINE 65536
/* Most entries in one file. */
#define HP_COLON_MAX_ENTRIES 100000

typedef struct {
	char *buf; /* writable, buf[len] == '\0': fields are cut in place */
	size_t len;
	size_t pos;
	unsigned line; /* of the entry last returned */
	size_t entries;
	const char *file;
	const char *noun; /* "user" or "group", for messages about the name */
} hp_colon_reader;

/* buf holds len bytes of the file and a '\0' after them. */
void hp_etc_colon_init(hp_colon_reader *r, char *buf, size_t len, const char *file, const char *noun);

/* Cut the next entry into exactly nfields NUL-terminated fields; layout names
 * them for the message when the count is wrong. Returns 1 for an entry, 0 at
 * the end, -1 on an error (err says which line and why). Blank lines are
 * skipped. */
int hp_etc_colon_next(hp_colon_reader *r, char **fields, size_t nfields, const char *layout,
                  hp_err *err);

/* Parse a uid or gid field: decimal digits only, at most 4294967294.
 * kind is "uid" or "gid". Returns 0, or -1 with err set (file:line). */
int hp_etc_colon_id(const hp_colon_reader *r, const char *s, const char *kind, unsigned *out,
                hp_err *err);

#endif
