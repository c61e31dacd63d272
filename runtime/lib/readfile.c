/* readfile.c: read a whole file with a size cap, never blocking: the read
 * loop stops one byte past the cap, so a file growing under us is caught;
 * a trusted path is opened O_NONBLOCK, so that a FIFO or device named
 * instead of a file cannot hang the runtime, and fstat refuses anything
 * but a regular file. */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/readfile.h"

int hp_read_fd_all(int fd, size_t cap, size_t hint, char **out, size_t *len)
{
	/* one byte past the cap is room enough to see a file that is too big
	 * (or grew while it was read); one more holds the NUL */
	if (cap > SIZE_MAX / 4) {
		errno = EINVAL;
		return -1;
	}
	size_t bcap = hint < cap ? hint + 1 : cap + 1, n = 0;
	if (bcap < 4096)
		bcap = cap < 4096 ? cap + 1 : 4096;
	char *b = hp_xmalloc(bcap + 1);
	for (;;) {
		if (n == bcap) {
			if (bcap > cap) {
				free(b);
				errno = EFBIG;
				return -1;
			}
			bcap = bcap * 2 > cap + 1 ? cap + 1 : bcap * 2;
			b = hp_xrealloc(b, bcap + 1);
		}
		ssize_t r = read(fd, b + n, bcap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(b);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > cap) {
		free(b);
		errno = EFBIG;
		return -1;
	}
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
}

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
	char *buf;
	size_t n;
	if (hp_read_fd_all(fd, max, (size_t)st.st_size, &buf, &n) != 0) {
		int e = errno;
		if (e == EFBIG)
			hp_err_set(err, "%s: more than the limit of %zu bytes", path, max);
		else
			hp_err_set(err, "%s: %s", path, strerror(e));
		close(fd);
		return false;
	}
	close(fd);
	*data = (uint8_t *)buf;
	*len = n;
	return true;
}
