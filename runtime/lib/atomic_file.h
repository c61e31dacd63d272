/* atomic_file.h: write a whole file so that readers see either the old
 * content or the new, never a part: a temporary file in the same directory,
 * written, flushed to disk, then renamed over the target. Used for every
 * file hangar-policy writes (--output, --record, compile -o, fmt --write). */
#ifndef HP_ATOMIC_FILE_H
#define HP_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/xalloc.h"

/* Returns true on success; on failure the target is untouched, no temporary
 * file is left behind, and err says what failed. mode applies to a new file;
 * an existing file keeps its mode. */
bool hp_atomic_write(const char *path, const void *data, size_t len, mode_t mode, hp_err *err);

#endif
