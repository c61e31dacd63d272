/* sudoers_memfs.h: sudoers files held in memory behind the loader's
 * callbacks (sudoers.h): files recorded earlier and replayed, test
 * fixtures, and fuzz inputs cut into several files. A path is a directory
 * when some file's path starts with it and a '/'. */
#ifndef HP_SUDOERS_MEMFS_H
#define HP_SUDOERS_MEMFS_H

#include <stddef.h>

#include "etc/sudoers/sudoers.h"

typedef struct {
	const char *path; /* absolute */
	const char *data;
	size_t len;
} hp_memfile;

typedef struct {
	const hp_memfile *files;
	size_t n;
} hp_memfs;

/* Callbacks reading from fs, which must outlive their use. */
hp_sudo_files hp_sudoers_memfs_callbacks(const hp_memfs *fs);

#endif
