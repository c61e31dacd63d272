/* ldconf.h: the dynamic loader's configuration, etc/ld.so.conf (and the
 * files it includes) and etc/ld.so.cache, read for the directories they
 * name. Every program, setuid ones and the driver included, loads its
 * libraries from them: a directory the agent can write there runs its code
 * as root in the next sudo (docs/runtime.md, G.84).
 *
 * ld.so.conf is read as ldconfig reads it: '#' ends a line anywhere,
 * leading blanks are skipped, "include PATTERN..." names more files
 * (a relative pattern is taken from the including file's directory),
 * "hwcap ..." is ignored as ldconfig does, and any other line is one
 * directory, trailing blanks and slashes removed. A directory that is
 * not absolute, or a line longer than a path, is unknown: the loader's
 * search cannot be stated for that file.
 *
 * ld.so.cache is glibc's format "glibc-ld.so.cache1.1" (what ldconfig
 * has written alone since glibc 2.32): each entry's value is the path of
 * a library, and the directory it lies in is what the loader reads. Any
 * other format, an entry or string outside the file, a value that is
 * not an absolute path, or a cache of another byte order is unknown: a
 * cache the loader can read and this cannot could name any directory.
 *
 * Answers: HP_TRUE with the directories and include patterns appended
 * (unsorted, possibly repeated), HP_UNKNOWN with why naming the file and
 * line or entry. Both are bounded by the buffer they are given. */
#ifndef HP_LDCONF_H
#define HP_LDCONF_H

#include <stddef.h>

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

hp_tri hp_etc_ldconf_parse(const char *buf, size_t len, const char *file, hp_strv *dirs,
                           hp_strv *includes, hp_err *why);

hp_tri hp_etc_ldcache_dirs(const char *buf, size_t len, const char *file, hp_strv *dirs,
                           hp_err *why);

#endif
