/* pipe_word.c: a word read to its end from a pipe (pipe_word.h). */
#include "os/pipe_word.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "os/sysx.h"

size_t hp_os_pipe_word(int fd, void *buf, size_t cap, int64_t end_ms, bool *ended)
{
	unsigned char *p = buf;
	size_t n = 0;
	*ended = false;
	while (n < cap) {
		int64_t left = end_ms - hp_os_now_ms();
		struct pollfd pf = {fd, POLLIN, 0};
		int r = poll(&pf, 1, left > 0 ? (left > INT32_MAX ? INT32_MAX : (int)left) : 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		ssize_t k = read(fd, p + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			*ended = k == 0;
			break;
		}
		n += (size_t)k;
	}
	return n;
}
