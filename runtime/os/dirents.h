/* dirents.h: a directory's entries read with getdents64 into a buffer of
 * the caller's, for the walks that list thousands of directories.
 *
 * fdopendir costs three system calls a directory before the first read
 * (an fstat to check the descriptor is a directory, F_GETFL and
 * F_SETFD): a walker that opened the directory itself with O_DIRECTORY
 * and O_CLOEXEC knows all three answers. The records are the kernel's,
 * but each is checked against the bytes it returned before it is used,
 * so a filesystem's malformed answer ends the listing with EIO rather
 * than a read past the buffer or a loop. */
#ifndef HP_DIRENTS_H
#define HP_DIRENTS_H

#include <stddef.h>

enum { HP_DIRENTS_BUF = 32768 };

typedef struct {
	int fd;     /* the directory, open for listing; owned */
	char *buf;  /* HP_DIRENTS_BUF bytes, allocated on the first read */
	size_t pos; /* the next record in buf */
	size_t len; /* bytes buf holds */
} hp_dirents;

/* Start listing fd (O_RDONLY | O_DIRECTORY), which d then owns. A buffer
 * d already has (from a listing it ended) is used again. */
void hp_os_dirents_start(hp_dirents *d, int fd);

/* The next entry's name, "." and ".." included, with its d_type in *type;
 * NULL at the end (errno 0) or on an error (errno set). The name lives
 * until the next call. */
const char *hp_os_dirents_next(hp_dirents *d, unsigned char *type);

/* Close the directory; the buffer is kept for the next hp_os_dirents_start. */
void hp_os_dirents_end(hp_dirents *d);

/* Free the buffer (after hp_os_dirents_end). */
void hp_os_dirents_free(hp_dirents *d);

#endif
