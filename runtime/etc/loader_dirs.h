/* loader_dirs.h: the loader_dirs probe: every directory the dynamic loader
 * is configured to load libraries from, inside a root: those etc/ld.so.conf
 * names, with the files its include lines match (and theirs), and those
 * etc/ld.so.cache holds libraries in (etc/ldconf.h reads both). The cache
 * is what the loader reads; the configuration is what the next ldconfig
 * writes into it, so both count.
 *
 * An include pattern may have wildcards (*, ?, [...]) in its last
 * component only, matched as glob(3) does (a leading '.' only by a '.');
 * the directory is listed inside the root. Nested includes go at most
 * HP_LDCONF_MAX_DEPTH deep and name at most HP_LDCONF_MAX_FILES files.
 * A missing ld.so.conf, ld.so.cache or include directory names nothing,
 * as for the loader; anything that cannot be read or decided (a bound, a
 * wildcard in a directory's name, a file that is not regular, a parse
 * error) is unknown, because the directory not listed could be the one
 * that matters.
 *
 * Answers: HP_TRUE with the directories, sorted and each once (possibly
 * none); HP_UNKNOWN with why. */
#ifndef HP_LOADER_DIRS_H
#define HP_LOADER_DIRS_H

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum {
	HP_LDCONF_MAX_DEPTH = 8,
	HP_LDCONF_MAX_FILES = 256,
};

hp_tri hp_etc_loader_dirs(const hp_root *r, hp_strv *out, hp_err *why);

#endif
