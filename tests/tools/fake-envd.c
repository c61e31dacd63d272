/* fake-envd.c: a small HTTP server on 127.0.0.1 that stands in for E2B's
 * envd in the envd_tokenless tests, answering in one chosen way:
 *
 *   fake-envd PORT MODE READY LOG
 *
 *   MODE  NNN       answer with status NNN and an empty body (200, 401...)
 *         redirect  302 to another port on loopback
 *         silent    read the request, never answer (the connection stays open)
 *         big       send 10 MB of header that never ends
 *         reset     read the request, then reset the connection
 *         garbage   answer something that is not HTTP
 *
 * It writes READY once it listens, appends every request it reads to LOG
 * (so a test can check that exactly one came, and without a token), and
 * serves connections until it is killed. Test-only. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* Read the request's header block (up to 64 KiB) and log it. */
static void read_request(int c, const char *log)
{
	char buf[65536];
	size_t n = 0;
	while (n < sizeof buf - 1) {
		ssize_t r = read(c, buf + n, sizeof buf - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		buf[n] = '\0';
		if (strstr(buf, "\r\n\r\n"))
			break;
	}
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		write_all(fd, "--- request\n", 12);
		write_all(fd, buf, n);
		close(fd);
	}
}

static void serve(int c, const char *mode, int port, const char *log)
{
	char out[512];
	read_request(c, log);
	if (strcmp(mode, "silent") == 0) {
		pause();
	} else if (strcmp(mode, "reset") == 0) {
		struct linger lg = {1, 0};
		setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	} else if (strcmp(mode, "big") == 0) {
		static char chunk[65536];
		memset(chunk, 'a', sizeof chunk);
		write_all(c, "HTTP/1.1 200 OK\r\nX-Filler: ", 27);
		for (int i = 0; i < 160; i++) /* 10 MiB */
			write_all(c, chunk, sizeof chunk);
	} else if (strcmp(mode, "redirect") == 0) {
		int n = snprintf(out, sizeof out,
		                 "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:%d/files\r\n"
		                 "Content-Length: 0\r\n\r\n",
		                 port + 1);
		write_all(c, out, (size_t)n);
	} else if (strcmp(mode, "garbage") == 0) {
		write_all(c, "SSH-2.0-OpenSSH_9.2\r\n\r\n", 23);
	} else {
		int n = snprintf(out, sizeof out,
		                 "HTTP/1.1 %s Status\r\nContent-Type: text/plain\r\n"
		                 "Content-Length: 0\r\n\r\n",
		                 mode);
		write_all(c, out, (size_t)n);
	}
	close(c);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: fake-envd PORT MODE READY LOG\n");
		return 2;
	}
	int port = atoi(argv[1]);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(s, 8) != 0) {
		fprintf(stderr, "fake-envd: cannot listen on 127.0.0.1:%d: %s\n", port,
		        strerror(errno));
		return 1;
	}
	int r = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r < 0)
		return 1;
	close(r);
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		/* each connection in a child, so a silent one holds up nothing */
		pid_t pid = fork();
		if (pid == 0) {
			/* a silent connection's child must not outlive the server */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(s);
			serve(c, argv[2], port, argv[4]);
			_exit(0);
		}
		close(c);
	}
}
