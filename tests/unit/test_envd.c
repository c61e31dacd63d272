/* test_envd.c: the envd probe's request parsing, its answer classification,
 * and one real request against a server forked by the test on 127.0.0.1,
 * for each way an envd (or something pretending to be one) can answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/envd.h"
#include "os/sysx.h"

static void test_parse(void **state)
{
	(void)state;
	hp_envd_request r;
	hp_err e;
	assert_true(hp_os_envd_parse("49983 GET /files?path=/etc/hostname", &r, &e));
	assert_int_equal(r.port, 49983);
	assert_string_equal(r.method, "GET");
	assert_string_equal(r.target, "/files?path=/etc/hostname");
	assert_true(hp_os_envd_parse("1 POST /", &r, &e));
	assert_true(hp_os_envd_parse("65535 GET /x", &r, &e));

	static const struct {
		const char *arg, *msg;
	} bad[] = {
	    {"", "not a port from 1 to 65535 followed by a blank"},
	    {"0 GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"65536 GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"049983 GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"123456 GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"49983GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"localhost:49983 GET /", "not a port from 1 to 65535 followed by a blank"},
	    {"49983 get /", "not a method of 1 to 16 capital letters followed by a blank"},
	    {"49983  /", "not a method of 1 to 16 capital letters followed by a blank"},
	    {"49983 ABCDEFGHIJKLMNOPQ /", "not a method of 1 to 16 capital letters followed by a "
	                                  "blank"},
	    {"49983 GET files", "the request target does not start with '/'"},
	    {"49983 GET http://evil/", "the request target does not start with '/'"},
	    {"49983 GET /a b", "the request target holds a blank or a byte that is not printable "
	                       "ASCII"},
	    {"49983 GET /a\r\nX-Access-Token: t", "the request target holds a blank or a byte that "
	                                          "is not printable ASCII"},
	    {"49983 GET /\xc3\xa9", "the request target holds a blank or a byte that is not "
	                            "printable ASCII"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_false(hp_os_envd_parse(bad[i].arg, &r, &e));
		assert_string_equal(e.msg, bad[i].msg);
	}
	char longer[HP_ENVD_MAX_TARGET + 32];
	int n = snprintf(longer, sizeof longer, "1 GET /");
	memset(longer + n, 'a', HP_ENVD_MAX_TARGET);
	longer[n + HP_ENVD_MAX_TARGET] = '\0';
	assert_false(hp_os_envd_parse(longer, &r, &e));
	assert_string_equal(e.msg, "the request target is longer than 1024 bytes");
	longer[n + HP_ENVD_MAX_TARGET - 1] = '\0'; /* "/" and 1023 more: fits */
	assert_true(hp_os_envd_parse(longer, &r, &e));
}

static hp_envd_result answer(const char *text, int *status, hp_err *e)
{
	hp_envd_request r;
	assert_true(hp_os_envd_parse("49983 GET /files", &r, e));
	return hp_os_envd_answer(text, strlen(text), 64, &r, status, e);
}

static void test_answers(void **state)
{
	(void)state;
	int st;
	hp_err e;
	assert_int_equal(answer("HTTP/1.1 401 Unauthorized\r\n\r\n", &st, &e), HP_ENVD_REFUSED);
	assert_int_equal(st, 401);
	assert_string_equal(e.msg, "GET /files without a token: refused with 401");
	assert_int_equal(answer("HTTP/1.0 403 Forbidden\r\nA: b\r\n\r\nbody", &st, &e),
	                 HP_ENVD_REFUSED);
	assert_int_equal(answer("HTTP/1.1 200 OK\r\n\r\n", &st, &e), HP_ENVD_ANSWERED);
	assert_string_equal(e.msg, "GET /files without a token: answered 200");
	assert_int_equal(answer("HTTP/1.1 299\n\n", &st, &e), HP_ENVD_ANSWERED);
	assert_int_equal(answer("HTTP/1.1 302 Found\r\nLocation: /\r\n\r\n", &st, &e),
	                 HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "GET /files without a token: redirected with 302, not followed");
	assert_int_equal(answer("HTTP/1.1 404 Not Found\r\n\r\n", &st, &e), HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "GET /files without a token: status 404 is neither a refusal "
	                           "(401, 403) nor an answer (2xx)");
	assert_int_equal(answer("HTTP/1.1 100 Continue\r\n\r\n", &st, &e), HP_ENVD_UNKNOWN);
	/* not complete yet, then past the cap */
	assert_int_equal(answer("HTTP/1.1 200 OK\r\n", &st, &e), HP_ENVD_MORE);
	assert_int_equal(answer("HTTP/1.1 200 OK\r\nX: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	                        "aaaaaaaaaaaaaa\r\n\r\n",
	                        &st, &e),
	                 HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "the answer's header is longer than 64 bytes");
	/* malformed */
	static const char *const junk[] = {
	    "SSH-2.0-OpenSSH\r\n\r\n", "HTTP/2 200\r\n\r\n",     "HTTP/1.1 20 OK\r\n\r\n",
	    "HTTP/1.1 2000\r\n\r\n",   "HTTP/1.1 2x0\r\n\r\n",   "http/1.1 200 OK\r\n\r\n",
	    "HTTP/1.1 200 O\001K\r\n\r\n", "HTTP/1.1 099 x\r\n\r\n", "\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
		assert_int_equal(answer(junk[i], &st, &e), HP_ENVD_UNKNOWN);
		assert_string_equal(e.msg, "the answer is not HTTP/1.0 or HTTP/1.1 (a malformed "
		                           "status line or header)");
		assert_int_equal(st, 0);
	}
	/* a NUL inside the header block is malformed, not the end of the text */
	hp_envd_request r;
	assert_true(hp_os_envd_parse("49983 GET /files", &r, &e));
	static const char nul[] = "HTTP/1.1 200 OK\r\nA: \0b\r\n\r\n";
	assert_int_equal(hp_os_envd_answer(nul, sizeof nul - 1, 64, &r, &st, &e), HP_ENVD_UNKNOWN);
}

/* --- a real request against a server on 127.0.0.1 ------------------------------- */

typedef enum { S_STATUS, S_SILENT, S_BIG, S_RESET, S_CLOSE } serve_mode;

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* A listening socket on 127.0.0.1 and a child serving one connection in
 * mode; the child writes what it read to the pipe it returns in *log. */
static pid_t serve(serve_mode mode, int status, uint16_t *port, int *log)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
	socklen_t len = sizeof sa;
	assert_int_equal(getsockname(s, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	assert_int_equal(listen(s, 4), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		int c = accept(s, NULL, NULL);
		char buf[4096];
		ssize_t n = read(c, buf, sizeof buf);
		if (n > 0)
			write_all(p[1], buf, (size_t)n);
		close(p[1]);
		if (mode == S_SILENT) {
			pause();
		} else if (mode == S_RESET) {
			struct linger lg = {1, 0};
			setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
		} else if (mode == S_BIG) {
			static char chunk[65536];
			memset(chunk, 'a', sizeof chunk);
			write_all(c, "HTTP/1.1 200 OK\r\nX: ", 20);
			for (int i = 0; i < 160; i++)
				write_all(c, chunk, sizeof chunk);
		} else if (mode == S_STATUS) {
			char out[128];
			int k = snprintf(out, sizeof out, "HTTP/1.1 %d S\r\nContent-Length: 0\r\n\r\n",
			                 status);
			write_all(c, out, (size_t)k);
		}
		close(c);
		_exit(0);
	}
	close(s);
	close(p[1]);
	*log = p[0];
	return pid;
}

static uint16_t port;

static hp_envd_result ask_mode(serve_mode mode, int status, int *got, hp_err *e, char *seen,
                               size_t seen_len)
{
	int log;
	pid_t pid = serve(mode, status, &port, &log);
	char arg[64];
	snprintf(arg, sizeof arg, "%u GET /files?path=/etc/hostname", (unsigned)port);
	hp_envd_request r;
	assert_true(hp_os_envd_parse(arg, &r, e));
	hp_envd_limits lim = {500, 300, 0};
	hp_envd_result res = hp_os_envd_ask(&r, &lim, got, e);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ssize_t n = read(log, seen, seen_len - 1);
	seen[n > 0 ? n : 0] = '\0';
	close(log);
	return res;
}

static void test_live(void **state)
{
	(void)state;
	int st;
	hp_err e;
	char seen[4096];
	assert_int_equal(ask_mode(S_STATUS, 401, &st, &e, seen, sizeof seen), HP_ENVD_REFUSED);
	assert_int_equal(st, 401);
	/* exactly the one request, with no token and nothing else */
	char want[256];
	snprintf(want, sizeof want,
	         "GET /files?path=/etc/hostname HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
	         "User-Agent: hangar-policy\r\nConnection: close\r\n\r\n",
	         (unsigned)port);
	assert_string_equal(seen, want);
	assert_int_equal(ask_mode(S_STATUS, 200, &st, &e, seen, sizeof seen), HP_ENVD_ANSWERED);
	assert_null(strstr(seen, "Token"));
	assert_int_equal(ask_mode(S_STATUS, 403, &st, &e, seen, sizeof seen), HP_ENVD_REFUSED);
	assert_int_equal(ask_mode(S_STATUS, 307, &st, &e, seen, sizeof seen), HP_ENVD_UNKNOWN);
	int64_t t0 = hp_os_now_ms();
	assert_int_equal(ask_mode(S_SILENT, 0, &st, &e, seen, sizeof seen), HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "no complete answer within 300 ms");
	/* the deadline ends it; the bound is loose, it only catches a hang */
	assert_true(hp_os_now_ms() - t0 < 5000);
	assert_int_equal(ask_mode(S_BIG, 0, &st, &e, seen, sizeof seen), HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "the answer's header is longer than 16384 bytes");
	assert_int_equal(ask_mode(S_RESET, 0, &st, &e, seen, sizeof seen), HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "reading the answer: Connection reset by peer");
	assert_int_equal(ask_mode(S_CLOSE, 0, &st, &e, seen, sizeof seen), HP_ENVD_UNKNOWN);
	assert_string_equal(e.msg, "the connection was closed after 0 bytes, before a complete "
	                           "answer");
}

/* A bound socket that does not listen refuses connections: absent. */
static void test_refused(void **state)
{
	(void)state;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
	socklen_t len = sizeof sa;
	assert_int_equal(getsockname(s, (struct sockaddr *)&sa, &len), 0);
	char arg[64];
	unsigned bound = ntohs(sa.sin_port);
	snprintf(arg, sizeof arg, "%u GET /", bound);
	hp_envd_request r;
	hp_err e;
	int st;
	assert_true(hp_os_envd_parse(arg, &r, &e));
	assert_int_equal(hp_os_envd_ask(&r, NULL, &st, &e), HP_ENVD_ABSENT);
	char want[128];
	snprintf(want, sizeof want, "connection to 127.0.0.1:%u refused: nothing listens there",
	         bound);
	assert_string_equal(e.msg, want);
	close(s);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_answers),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
