/* envd.h: does envd answer on loopback without its access token?
 *
 * E2B's envd (the agent inside every E2B and CubeSandbox microVM) runs
 * commands and reads files as any user, root included, for whoever holds
 * the sandbox's access token (the X-Access-Token header). If it answers a
 * request without the token, the agent can run anything as root through
 * it, and a uid split would protect nothing. This asks, from the calling
 * process (the agent's child: its network namespace, its identity), with
 * exactly one request and no token:
 *
 *   - connect to 127.0.0.1:PORT (never a name: no DNS, loopback only);
 *   - send one request line with Host, User-Agent and Connection: close,
 *     and nothing else (no token, no body);
 *   - read the answer's header block, at most HP_ENVD_MAX_ANSWER bytes,
 *     and classify its status line.
 *
 * Every step has a deadline; nothing is followed (a redirect is unknown),
 * nothing is retried, the body is never read. */
#ifndef HP_ENVD_H
#define HP_ENVD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

#define HP_ENVD_PORT_DEFAULT 49983
#define HP_ENVD_CONNECT_MS 1000u  /* to connect */
#define HP_ENVD_ANSWER_MS 2000u   /* to send the request and read the answer's header */
#define HP_ENVD_MAX_ANSWER 16384u /* bytes of header block read at most */
#define HP_ENVD_MAX_TARGET 1024u  /* bytes of request target */

typedef enum {
	HP_ENVD_REFUSED,  /* 401 or 403: the token is required */
	HP_ENVD_ANSWERED, /* 2xx: envd answered without the token */
	HP_ENVD_ABSENT,   /* connection refused: nothing listens there */
	HP_ENVD_UNKNOWN,  /* anything else: why says what */
	HP_ENVD_MORE,     /* hp_os_envd_answer only: the header block is not complete */
} hp_envd_result;

/* A request to ask, parsed from the probe's argument "PORT METHOD TARGET"
 * (`49983 GET /files?path=/etc/hostname`): PORT 1 to 65535 in decimal,
 * METHOD 1 to 16 capital letters, TARGET starting with '/', printable
 * ASCII without blanks, at most HP_ENVD_MAX_TARGET bytes. */
typedef struct {
	uint16_t port;
	char method[17];
	char target[HP_ENVD_MAX_TARGET + 1];
} hp_envd_request;

/* false, with why, for an argument that is not such a request. */
bool hp_os_envd_parse(const char *arg, hp_envd_request *req, hp_err *why);

typedef struct {
	unsigned connect_ms, answer_ms; /* 0: the defaults above */
	uint32_t max_answer;            /* 0: HP_ENVD_MAX_ANSWER */
} hp_envd_limits;

/* Classify the first n bytes of an answer to req (no NUL needed): the
 * header block must be complete ("\r\n\r\n", or "\n\n") and start with
 * an HTTP/1.0 or HTTP/1.1 status line, and hold no control byte but tab,
 * CR and LF. MORE when it is not complete yet and n is below cap; UNKNOWN
 * when it cannot be (n reached cap) or is malformed. */
hp_envd_result hp_os_envd_answer(const char *buf, size_t n, size_t cap, const hp_envd_request *req,
                              int *status, hp_err *why);

/* Ask once. status is the HTTP status when one was read (else 0); why is
 * set for every result (what was seen, or why it is unknown). */
hp_envd_result hp_os_envd_ask(const hp_envd_request *req, const hp_envd_limits *lim, int *status,
                           hp_err *why);

#endif
