/* bounded_read.h: reading a file the agent may have planted, safely: only a
 * regular file, never more than a cap, never blocking (docs/runtime.md,
 * B.18). The etc parsers (passwd, group, shadow, sudoers,
 * nsswitch.conf) and the mountinfo reader use it.
 *
 * The path is resolved to an O_PATH descriptor (safe_path.h), fstat'ed, and
 * only a regular file is reopened for reading, through the verified
 * /proc/self/fd (checked to be procfs) with O_NONBLOCK | O_NOCTTY, and the
 * reopened file is checked to be the same inode. Without procfs the path is
 * resolved again by openat2 for reading (O_NONBLOCK, so a FIFO swapped in
 * meanwhile cannot block) and compared by device and inode; without procfs
 * and openat2 the read is unknown. A FIFO, socket or device found by the
 * O_PATH lookup is never opened.
 *
 * Answers: HP_TRUE read (buf is NUL-terminated, len excludes the NUL; the
 * caller frees buf); HP_FALSE the file does not exist; HP_UNKNOWN anything
 * else, with why naming the file: "etc/passwd: not a regular file (fifo)",
 * "etc/passwd: larger than the 4194304-byte cap". A file that grows past
 * the cap while it is read is unknown too.
 */
#ifndef HP_BOUNDED_READ_H
#define HP_BOUNDED_READ_H

#include <stddef.h>

#include "os/safe_path.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

/* The cap the etc files and mountinfo are read with. */
enum { HP_READ_CAP_DEFAULT = 4 * 1024 * 1024 };

hp_tri hp_os_read_file_in_root(const hp_root *r, const char *path, size_t cap, char **buf, size_t *len,
                            hp_err *why);

/* The same for an O_PATH descriptor already resolved; name is used in
 * messages only. */
hp_tri hp_os_read_fd_bounded(int opath_fd, const char *name, size_t cap, char **buf, size_t *len,
                          hp_err *why);

#endif
