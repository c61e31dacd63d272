/* readfile.h: reading a whole file with a cap, never blocking (readfile.c).
 *
 * There is one read loop, hp_read_fd_all, and two ways of opening what it
 * reads. hp_read_regular_file opens a path the caller trusts (a policy, a
 * bytecode file, a facts file named on the command line) with open(2).
 * A file inside an image root or the sandbox, which the agent may have
 * planted, must be opened another way: resolved inside the root without
 * following a link out of it, and reopened only once it is known to be a
 * regular file; that needs the system calls of os/ (os/bounded_read.h),
 * which the C library below them may not use. */
#ifndef HP_READFILE_H
#define HP_READFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

/* Read fd to its end into a fresh buffer (NUL-terminated; *len excludes
 * the NUL), never more than cap bytes; hint is the size expected (0: none).
 * 0, or -1 with errno: EFBIG when the file holds more than cap bytes, else
 * read's. */
int hp_read_fd_all(int fd, size_t cap, size_t hint, char **buf, size_t *len);

/* Read a whole regular file of at most max bytes into a fresh buffer,
 * without blocking on a FIFO or device. false with err set otherwise. */
bool hp_read_regular_file(const char *path, size_t max, uint8_t **data, size_t *len, hp_err *err);

#endif
