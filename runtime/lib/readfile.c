/* readfile.c: read a whole regular file with a size cap, never blocking:
 * O_NONBLOCK so that a FIFO or device named instead of a file cannot hang
 * the runtime, fstat to refuse anything but a regular file, and a read that
 * stops one byte past the cap so a file growing under us is caught. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/readfile.h"

bool hp_read_regular_file(const char *path, size_t max, uint8_t **data, size_t *len, hp_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		hp_err_set(err, "%s: not a regular file", path);
		close(fd);
		return false;
	}
	if ((unsigned long long)st.st_size > max) {
		hp_err_set(err, "%s: %lld bytes, more than the limit of %zu", path,
		           (long long)st.st_size, max);
		close(fd);
		return false;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	uint8_t *buf = hp_xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				hp_err_set(err, "%s: more than the limit of %zu bytes", path, max);
				free(buf);
				close(fd);
				return false;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = hp_xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			hp_err_set(err, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return false;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > max) {
		hp_err_set(err, "%s: more than the limit of %zu bytes", path, max);
		free(buf);
		return false;
	}
	*data = buf;
	*len = n;
	return true;
}
