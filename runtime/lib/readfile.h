/* readfile.h: a whole regular file named by a path the caller trusts
 * (a policy, a bytecode file, a facts file), read with a cap (readfile.c).
 * Files inside an image root go through os/bounded_read.h instead, which
 * resolves the path safely under that root. */
#ifndef HP_READFILE_H
#define HP_READFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

/* Read a whole regular file of at most max bytes into a fresh buffer,
 * without blocking on a FIFO or device. false with err set otherwise. */
bool hp_read_regular_file(const char *path, size_t max, uint8_t **data, size_t *len, hp_err *err);

#endif
