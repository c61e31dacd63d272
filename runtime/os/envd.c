/* envd.c: one tokenless request to envd on loopback, classified (envd.h). */
#include "os/envd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/sysx.h"

bool hp_os_envd_parse(const char *arg, hp_envd_request *req, hp_err *why)
{
	memset(req, 0, sizeof *req);
	const char *p = arg;
	unsigned long port = 0;
	size_t n = 0;
	while (*p >= '0' && *p <= '9' && n < 6) {
		port = port * 10 + (unsigned long)(*p++ - '0');
		n++;
	}
	if (n == 0 || n > 5 || arg[0] == '0' || port < 1 || port > 65535 || *p != ' ') {
		hp_err_set(why, "not a port from 1 to 65535 followed by a blank");
		return false;
	}
	req->port = (uint16_t)port;
	p++;
	for (n = 0; *p >= 'A' && *p <= 'Z' && n < sizeof req->method - 1; n++)
		req->method[n] = *p++;
	if (n == 0 || *p != ' ') {
		hp_err_set(why, "not a method of 1 to 16 capital letters followed by a blank");
		return false;
	}
	p++;
	if (*p != '/') {
		hp_err_set(why, "the request target does not start with '/'");
		return false;
	}
	for (n = 0; p[n]; n++) {
		unsigned char c = (unsigned char)p[n];
		if (c <= ' ' || c >= 0x7f) {
			hp_err_set(why, "the request target holds a blank or a byte that is not "
			                "printable ASCII");
			return false;
		}
		if (n == HP_ENVD_MAX_TARGET) {
			hp_err_set(why, "the request target is longer than %u bytes",
			           HP_ENVD_MAX_TARGET);
			return false;
		}
	}
	memcpy(req->target, p, n + 1);
	return true;
}

/* Wait for fd to be ready for events until end; false with why on a
 * timeout or an error. */
static bool wait_fd(int fd, short events, int64_t end, const char *what, unsigned ms, hp_err *why)
{
	for (;;) {
		int64_t left = end - hp_os_now_ms();
		if (left <= 0) {
			hp_err_set(why, "no %s within %u ms", what, ms);
			return false;
		}
		struct pollfd pfd = {fd, events, 0};
		int r = poll(&pfd, 1, (int)left);
		if (r > 0)
			return true;
		if (r < 0 && errno != EINTR) {
			hp_err_set(why, "poll: %s", strerror(errno));
			return false;
		}
	}
}

/* true when connected; else *fail is ABSENT (refused) or UNKNOWN. */
static bool connect_loopback(int fd, uint16_t port, unsigned ms, hp_envd_result *fail, hp_err *why)
{
	*fail = HP_ENVD_UNKNOWN;
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (const struct sockaddr *)&sa, sizeof sa) == 0)
		return true;
	int e = errno;
	if (e == ECONNREFUSED) {
		hp_err_set(why, "connection to 127.0.0.1:%u refused: nothing listens there",
		           (unsigned)port);
		*fail = HP_ENVD_ABSENT;
		return false;
	}
	if (e != EINPROGRESS && e != EINTR) {
		hp_err_set(why, "connect to 127.0.0.1:%u: %s", (unsigned)port, strerror(e));
		return false;
	}
	hp_err w;
	if (!wait_fd(fd, POLLOUT, hp_os_now_ms() + ms, "connection", ms, &w)) {
		hp_err_set(why, "connect to 127.0.0.1:%u: %s", (unsigned)port, w.msg);
		return false;
	}
	int soerr = 0;
	socklen_t len = sizeof soerr;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
		soerr = errno;
	if (soerr == ECONNREFUSED) {
		hp_err_set(why, "connection to 127.0.0.1:%u refused: nothing listens there",
		           (unsigned)port);
		*fail = HP_ENVD_ABSENT;
		return false;
	}
	if (soerr) {
		hp_err_set(why, "connect to 127.0.0.1:%u: %s", (unsigned)port, strerror(soerr));
		return false;
	}
	return true;
}

static bool send_all(int fd, const char *p, size_t n, int64_t end, unsigned ms, hp_err *why)
{
	while (n > 0) {
		if (!wait_fd(fd, POLLOUT, end, "room to send the request", ms, why))
			return false;
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			hp_err_set(why, "sending the request: %s", strerror(errno));
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* The header block's end ("\r\n\r\n", or "\n\n" from a lax server) in
 * buf[0, n), as the length up to and including it; 0 when not there yet. */
static size_t header_end(const char *buf, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (buf[i] == '\n' && buf[i + 1] == '\n')
			return i + 2;
		if (i + 3 < n && memcmp(buf + i, "\r\n\r\n", 4) == 0)
			return i + 4;
	}
	return 0;
}

/* "HTTP/1.x NNN ...": the status, or -1 when the line is not one. */
static int status_of(const char *buf, size_t n)
{
	if (n < 12 || memcmp(buf, "HTTP/1.", 7) != 0 || (buf[7] != '0' && buf[7] != '1') ||
	    buf[8] != ' ')
		return -1;
	int st = 0;
	for (int i = 9; i < 12; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -1;
		st = st * 10 + (buf[i] - '0');
	}
	if (buf[12] != ' ' && buf[12] != '\r' && buf[12] != '\n')
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c < ' ' && c != '\r' && c != '\n' && c != '\t') || c == 0x7f)
			return -1;
	}
	return st < 100 ? -1 : st;
}

static hp_envd_result classify(int st, const hp_envd_request *req, hp_err *why)
{
	if (st == 401 || st == 403) {
		hp_err_set(why, "%s %s without a token: refused with %d", req->method, req->target,
		           st);
		return HP_ENVD_REFUSED;
	}
	if (st >= 200 && st <= 299) {
		hp_err_set(why, "%s %s without a token: answered %d", req->method, req->target, st);
		return HP_ENVD_ANSWERED;
	}
	if (st >= 300 && st <= 399)
		hp_err_set(why, "%s %s without a token: redirected with %d, not followed",
		           req->method, req->target, st);
	else
		hp_err_set(why, "%s %s without a token: status %d is neither a refusal (401, 403) "
		                "nor an answer (2xx)",
		           req->method, req->target, st);
	return HP_ENVD_UNKNOWN;
}

hp_envd_result hp_os_envd_answer(const char *buf, size_t n, size_t cap, const hp_envd_request *req,
                              int *status, hp_err *why)
{
	*status = 0;
	size_t he = header_end(buf, n < cap ? n : cap);
	if (!he) {
		if (n < cap)
			return HP_ENVD_MORE;
		hp_err_set(why, "the answer's header is longer than %zu bytes", cap);
		return HP_ENVD_UNKNOWN;
	}
	int st = status_of(buf, he);
	if (st < 0) {
		hp_err_set(why, "the answer is not HTTP/1.0 or HTTP/1.1 (a malformed status line or "
		                "header)");
		return HP_ENVD_UNKNOWN;
	}
	*status = st;
	return classify(st, req, why);
}

hp_envd_result hp_os_envd_ask(const hp_envd_request *req, const hp_envd_limits *lim, int *status,
                           hp_err *why)
{
	unsigned cms = lim && lim->connect_ms ? lim->connect_ms : HP_ENVD_CONNECT_MS;
	unsigned ams = lim && lim->answer_ms ? lim->answer_ms : HP_ENVD_ANSWER_MS;
	uint32_t cap = lim && lim->max_answer ? lim->max_answer : HP_ENVD_MAX_ANSWER;
	*status = 0;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		hp_err_set(why, "socket: %s", strerror(errno));
		return HP_ENVD_UNKNOWN;
	}
	hp_envd_result r;
	if (!connect_loopback(fd, req->port, cms, &r, why)) {
		close(fd);
		return r;
	}
	char head[HP_ENVD_MAX_TARGET + 160];
	int hn = snprintf(head, sizeof head,
	                  "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nUser-Agent: hangar-policy\r\n"
	                  "Connection: close\r\n\r\n",
	                  req->method, req->target, (unsigned)req->port);
	int64_t end = hp_os_now_ms() + ams;
	char *buf = hp_xmalloc((size_t)cap + 1);
	size_t n = 0;
	r = HP_ENVD_UNKNOWN;
	if (hn < 0 || (size_t)hn >= sizeof head) {
		hp_err_set(why, "the request does not fit");
		goto out;
	}
	if (!send_all(fd, head, (size_t)hn, end, ams, why))
		goto out;
	for (;;) {
		r = hp_os_envd_answer(buf, n, cap, req, status, why);
		if (r != HP_ENVD_MORE)
			goto out;
		r = HP_ENVD_UNKNOWN;
		if (!wait_fd(fd, POLLIN, end, "complete answer", ams, why))
			goto out;
		ssize_t got = recv(fd, buf + n, cap - n, MSG_DONTWAIT);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			hp_err_set(why, "reading the answer: %s", strerror(errno));
			goto out;
		}
		if (got == 0) {
			hp_err_set(why, "the connection was closed after %zu bytes, before a "
			                "complete answer",
			           n);
			goto out;
		}
		n += (size_t)got;
	}
out:
	free(buf);
	/* close without lingering: a reset, never a wait on a peer that reads nothing */
	struct linger lg = {1, 0};
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	close(fd);
	return r;
}
