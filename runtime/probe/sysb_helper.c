/* sysb_helper.c: the root helper of the live/rootfs backend. Global probes
 * about files (the probes of ASKS HELPER in probes.def: type, owner,
 * group_owner, mode, links, setuid_root...) are root's answers, the same
 * for every role; a role's child that is not root may be unable to reach
 * the path, so it asks the check's own process, which is root and waits
 * for that child meanwhile (hp_os_child_finish_serving), over a socket
 * pair made by the session only when a non-root role's code asks such a
 * probe.
 *
 * A request is u32 length, then u32 probe and the encoded argument
 * (value.h); an answer is u32 length and the encoded value. Both sides
 * check every length against a cap and decode with hp_value_decode, which
 * trusts nothing. The helper answers nothing but those probes, and a
 * question it cannot read whole by the child's deadline, or cannot
 * decode, ends its answering: the child's questions after it are
 * unknown. */
#include "probe/sysb.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/child.h"
#include "os/sysx.h"

enum {
	MAX_REQUEST = HP_PATH_MAX + 64,
	MAX_ANSWER = 16 << 20,
	HELPER_POOL = 32 << 20,
};

static void put_u32(unsigned char *p, uint32_t x)
{
	p[0] = (unsigned char)x;
	p[1] = (unsigned char)(x >> 8);
	p[2] = (unsigned char)(x >> 16);
	p[3] = (unsigned char)(x >> 24);
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Read or write exactly n bytes before the monotonic deadline end (0: none).
 * 0, or -1 with errno (ETIMEDOUT at the deadline, EPIPE at end of file). */
static int xfer(int fd, void *buf, size_t n, int writing, int64_t end)
{
	unsigned char *p = buf;
	while (n > 0) {
		if (end) {
			int64_t left = end - hp_os_now_ms();
			if (left <= 0) {
				errno = ETIMEDOUT;
				return -1;
			}
			struct pollfd pf = {fd, (short)(writing ? POLLOUT : POLLIN), 0};
			int r = poll(&pf, 1, left > INT32_MAX ? INT32_MAX : (int)left);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return -1;
			if (r == 0)
				continue;
		}
		ssize_t k = writing ? send(fd, p, n, MSG_NOSIGNAL) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0) {
			errno = EPIPE;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* --- the helper: the check's own process, answering ------------------------------- */

bool hp_probe_sys_helper_open(hp_sysbackend *s, int *served_fd, hp_err *why)
{
	*served_fd = -1;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		hp_err_set(why, "root helper: socketpair: %s", strerror(errno));
		return false;
	}
	s->helper_fd = sv[0];
	*served_fd = sv[1];
	return true;
}

int hp_probe_sys_helper_fd(const hp_sysbackend *s)
{
	return s->helper_fd;
}

void hp_probe_sys_helper_forked(hp_sysbackend *s)
{
	if (s->helper_fd >= 0)
		close(s->helper_fd);
	s->helper_fd = -1;
}

bool hp_probe_sys_helper_serve(hp_sysbackend *s, int fd, int64_t end)
{
	if (!s->serving) {
		/* root's answers, as root's own child gives them */
		hp_sys_role ctx;
		memset(&ctx, 0, sizeof ctx);
		ctx.role = HP_ROLE_ROOT;
		ctx.as_role = true;
		hp_probe_sys_set_role(s, &ctx);
		s->helper_fd = -1;
		s->serving = true;
	}
	unsigned char hdr[4];
	if (xfer(fd, hdr, 4, 0, end) < 0)
		return false;
	uint32_t len = get_u32(hdr);
	if (len < 4 || len > MAX_REQUEST)
		return false;
	unsigned char *req = hp_xmalloc(len);
	hp_pool pool;
	hp_pool_init(&pool, HELPER_POOL);
	uint32_t probe = 0;
	size_t off = 4;
	hp_value arg;
	hp_err e;
	bool ok = xfer(fd, req, len, 0, end) == 0;
	if (ok) {
		probe = get_u32(req);
		ok = probe < HP_PROBE_COUNT && hp_probes[probe].asks == HP_ASKS_HELPER &&
		     hp_value_decode(req, len, &off, &pool, &arg, &e) && off == len;
	}
	if (ok) {
		hp_value ans = hp_backend_ask(&s->base, HP_ROLE_ROOT, (hp_probe_id)probe, &arg, &pool);
		hp_buf out = {0};
		hp_buf_append(&out, "\0\0\0\0", 4);
		hp_value_encode(&out, &ans);
		put_u32((unsigned char *)out.data, (uint32_t)(out.len - 4));
		ok = out.len - 4 <= MAX_ANSWER && xfer(fd, out.data, out.len, 1, end) == 0;
		hp_buf_free(&out);
	}
	hp_pool_free(&pool);
	free(req);
	return ok;
}

/* --- asking it ----------------------------------------------------------------------- */

hp_value hp_probe_sysb_helper_ask(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	hp_buf req = {0};
	hp_buf_append(&req, "\0\0\0\0\0\0\0\0", 8);
	hp_value_encode(&req, arg);
	put_u32((unsigned char *)req.data, (uint32_t)(req.len - 4));
	put_u32((unsigned char *)req.data + 4, (uint32_t)p);
	int64_t end = hp_os_now_ms() + (s->role.helper_ms > 0 ? s->role.helper_ms : 10000);
	const char *what = NULL;
	unsigned char hdr[4];
	unsigned char *ans = NULL;
	hp_value v;
	if (req.len - 4 > MAX_REQUEST) {
		what = "the question is too long";
	} else if (xfer(s->helper_fd, req.data, req.len, 1, end) < 0 ||
	           xfer(s->helper_fd, hdr, 4, 0, end) < 0) {
		what = errno == ETIMEDOUT ? "no answer in time" : strerror(errno);
	} else {
		uint32_t len = get_u32(hdr);
		ans = len <= MAX_ANSWER ? hp_xmalloc(len ? len : 1) : NULL;
		size_t off = 0;
		hp_err e;
		if (!ans)
			what = "an answer over its cap";
		else if (xfer(s->helper_fd, ans, len, 0, end) < 0)
			what = errno == ETIMEDOUT ? "no answer in time" : strerror(errno);
		else if (!hp_value_decode(ans, len, &off, pool, &v, &e) || off != len)
			what = "a malformed answer";
		else if (v.state == HP_VAL_KNOWN && v.type != hp_probes[p].result)
			what = "an answer of the wrong type";
	}
	hp_buf_free(&req);
	free(ans);
	if (what) {
		/* the stream may be out of step now: no more questions */
		close(s->helper_fd);
		s->helper_fd = -1;
		return hp_probe_sysb_unknown(pool, p, "%s: the root helper failed (%s)",
		                       hp_probes[p].name, what);
	}
	return v;
}
