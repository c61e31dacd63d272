/* atomic_file.h: write a whole file so that readers see either the old
 * content or the new, never a part: a temporary file in the same directory,
 * written, flushed to disk, then renamed over the target.
 *
 * Two entries. hp_atomic_write is for files a person edits with the tool
 * (compile -o, fmt --write): an existing file keeps its mode. hp_safe_write
 * is for what `check` writes (--output, --record), usually as root, in a
 * sandbox whose agent may have arranged the path: the file is always new,
 * with a fixed mode, and a path anyone but root or the caller could
 * redirect or replace is refused. */
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

/* The same for a file the check writes: the result is a new regular file
 * of mode `mode` less the umask, owned by the caller, whatever was at the
 * path before. Refused (err says which part and why, the target untouched):
 *   - a symbolic link anywhere in the path, the last component included;
 *   - a directory on the way, or an existing target, owned by a user other
 *     than root or the caller;
 *   - a directory on the way writable by its group or others, unless it has
 *     the sticky bit (then only its owner, root or the caller can rename or
 *     remove the caller's file in it), and an existing target writable by
 *     its group or others;
 *   - an existing target that is not a regular file.
 * The directories are walked from / (a relative path from the working
 * directory's real path), each opened without following a link and checked
 * on the descriptor held; the temporary file is created in the last one by
 * descriptor, with O_EXCL and a random name, and renamed there. */
bool hp_safe_write(const char *path, const void *data, size_t len, mode_t mode, hp_err *err);

#endif
