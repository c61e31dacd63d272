/* dirents.c: a directory's entries from getdents64 (dirents.h). */
#include "os/dirents.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/xalloc.h"

/* struct linux_dirent64, as getdents64(2) lays it out */
struct raw_dirent {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

void hp_os_dirents_start(hp_dirents *d, int fd)
{
	d->fd = fd;
	d->pos = 0;
	d->len = 0;
}

const char *hp_os_dirents_next(hp_dirents *d, unsigned char *type)
{
	if (d->pos >= d->len) {
		if (!d->buf)
			d->buf = hp_xmalloc(HP_DIRENTS_BUF);
		long n;
		do
			n = syscall(SYS_getdents64, d->fd, d->buf, (size_t)HP_DIRENTS_BUF);
		while (n < 0 && errno == EINTR);
		if (n <= 0) {
			errno = n < 0 ? errno : 0;
			d->pos = d->len = 0;
			return NULL;
		}
		d->pos = 0;
		d->len = (size_t)n;
	}
	/* the fields copied out, not read in place: nothing makes a
	 * record's alignment a promise */
	const size_t head = offsetof(struct raw_dirent, d_name);
	const char *rec = d->buf + d->pos;
	unsigned short rl = 0;
	if (d->len - d->pos >= head)
		memcpy(&rl, rec + offsetof(struct raw_dirent, d_reclen), sizeof rl);
	/* a record that does not fit what was returned, or whose name has
	 * no end inside it, is not one to read */
	if (rl <= head || rl > d->len - d->pos || !memchr(rec + head, '\0', rl - head)) {
		d->pos = d->len = 0;
		errno = EIO;
		return NULL;
	}
	d->pos += rl;
	memcpy(type, rec + offsetof(struct raw_dirent, d_type), 1);
	return rec + head;
}

void hp_os_dirents_end(hp_dirents *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	d->pos = d->len = 0;
}

void hp_os_dirents_free(hp_dirents *d)
{
	free(d->buf);
	d->buf = NULL;
}
