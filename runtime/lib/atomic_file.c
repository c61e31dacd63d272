/* atomic_file.c: temporary file, fsync, rename. */
#include "lib/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool hp_atomic_write(const char *path, const void *data, size_t len, mode_t mode, hp_err *err)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			hp_err_set(err, "%s: not a regular file, not overwriting it", path);
			return false;
		}
		mode = st.st_mode & 07777;
	}
	/* The temporary file sits next to the target so rename stays on one filesystem. */
	char *tmp = hp_xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		hp_err_set(err, "%s: cannot create a temporary file: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	const char *p = data;
	size_t left = len;
	int saved = 0;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			break;
		}
		p += w;
		left -= (size_t)w;
	}
	if (!saved && fchmod(fd, mode) != 0)
		saved = errno;
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && rename(tmp, path) != 0)
		saved = errno;
	if (saved) {
		unlink(tmp);
		hp_err_set(err, "%s: cannot write: %s", path, strerror(saved));
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}
