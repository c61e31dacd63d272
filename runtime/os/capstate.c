/* capstate.c: capability sets and flags, read twice and compared. */
#include "os/capstate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os/sysx.h"

/* The status lines we need, each exactly once. */
enum { F_UID, F_GID, F_INH, F_PRM, F_EFF, F_BND, F_AMB, F_NNP, F_COUNT };
static const char *const field_names[F_COUNT] = {
    "Uid:", "Gid:", "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:"};

static int parse_hex64(const char *s, const char *end, uint64_t *out)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	uint64_t v = 0;
	int n = 0;
	for (; s < end && *s != '\n'; s++, n++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			return -1;
		if (n >= 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

/* Four decimal ids separated by tabs. */
static int parse_ids(const char *s, const char *end, uint32_t ids[4])
{
	for (int i = 0; i < 4; i++) {
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		uint64_t v = 0;
		int n = 0;
		for (; s < end && *s >= '0' && *s <= '9'; s++, n++) {
			v = v * 10 + (uint64_t)(*s - '0');
			if (v > UINT32_MAX)
				return -1;
		}
		if (n == 0)
			return -1;
		ids[i] = (uint32_t)v;
	}
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return (s == end || *s == '\n') ? 0 : -1;
}

hp_tri hp_os_capstate_parse_status(const char *buf, size_t len, hp_capstate *s, hp_err *why)
{
	memset(s, 0, sizeof *s);
	s->dumpable = -1;
	s->securebits = -1;
	int seen[F_COUNT] = {0};
	const char *p = buf, *end = buf + len;
	int line = 0;
	while (p < end) {
		line++;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		for (int f = 0; f < F_COUNT; f++) {
			size_t fl = strlen(field_names[f]);
			if ((size_t)(le - p) < fl || memcmp(p, field_names[f], fl) != 0)
				continue;
			if (seen[f]++) {
				hp_err_set(why, "status line %d: %s twice", line, field_names[f]);
				return HP_UNKNOWN;
			}
			const char *v = p + fl;
			int bad = 0;
			uint64_t x = 0;
			uint32_t ids[4];
			switch (f) {
			case F_UID:
			case F_GID:
				bad = parse_ids(v, le, ids);
				for (int i = 0; !bad && i < 4; i++) {
					if (f == F_UID)
						s->uid[i] = ids[i];
					else
						s->gid[i] = ids[i];
				}
				break;
			case F_NNP:
				bad = parse_hex64(v, le, &x) || x > 1;
				s->no_new_privs = (int)x;
				break;
			default:
				bad = parse_hex64(v, le, &x);
				if (f == F_INH)
					s->inheritable = x;
				else if (f == F_PRM)
					s->permitted = x;
				else if (f == F_EFF)
					s->effective = x;
				else if (f == F_BND)
					s->bounding = x;
				else
					s->ambient = x;
			}
			if (bad) {
				hp_err_set(why, "status line %d: malformed %s", line,
				           field_names[f]);
				return HP_UNKNOWN;
			}
		}
		p = nl ? nl + 1 : end;
	}
	for (int f = 0; f < F_COUNT; f++)
		if (!seen[f]) {
			hp_err_set(why, "status: no %s line", field_names[f]);
			return HP_UNKNOWN;
		}
	return HP_TRUE;
}

static int flag_mask(cap_t c, cap_flag_t which, int last, uint64_t *out)
{
	uint64_t m = 0;
	for (int i = 0; i <= last; i++) {
		cap_flag_value_t v;
		if (cap_get_flag(c, (cap_value_t)i, which, &v) < 0)
			return -1;
		if (v == CAP_SET)
			m |= 1ull << i;
	}
	*out = m;
	return 0;
}

hp_tri hp_os_capstate_self(hp_capstate *s, hp_err *why)
{
	char *buf = hp_xmalloc(16384);
	if (hp_os_proc_read_small("self/status", buf, 16384, why) < 0) {
		free(buf);
		return HP_UNKNOWN;
	}
	hp_tri t = hp_os_capstate_parse_status(buf, strlen(buf), s, why);
	free(buf);
	if (t != HP_TRUE)
		return t;
	int last = hp_os_cap_last_cap(why);
	if (last < 0)
		return HP_UNKNOWN;
	uint64_t valid = last == 63 ? UINT64_MAX : (1ull << (last + 1)) - 1;
	uint64_t all = s->effective | s->permitted | s->inheritable | s->ambient | s->bounding;
	if (all & ~valid) {
		hp_err_set(why, "capability bits past the kernel's last capability %d", last);
		return HP_UNKNOWN;
	}
	cap_t c = cap_get_proc();
	if (!c) {
		hp_err_set(why, "capget: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	uint64_t e = 0, p = 0, i = 0;
	int bad = flag_mask(c, CAP_EFFECTIVE, last, &e) || flag_mask(c, CAP_PERMITTED, last, &p) ||
	          flag_mask(c, CAP_INHERITABLE, last, &i);
	cap_free(c);
	/* The kernel keeps every ambient capability both permitted and
	 * inheritable (it clears one the moment either set loses it), so only
	 * those are asked: a bit /proc reports ambient outside p & i is still
	 * a disagreement, and the bounding set is asked whole. */
	uint64_t a = 0, b = 0, may_be_ambient = p & i;
	for (int k = 0; !bad && k <= last; k++) {
		int av = (may_be_ambient >> k) & 1 ? cap_get_ambient((cap_value_t)k) : 0;
		int bv = cap_get_bound((cap_value_t)k);
		if (av < 0 || bv < 0)
			bad = 1;
		a |= (uint64_t)(av == 1) << k;
		b |= (uint64_t)(bv == 1) << k;
	}
	int nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	s->dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	s->securebits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (bad || nnp < 0 || s->dumpable < 0 || s->securebits < 0) {
		hp_err_set(why, "reading capabilities or prctl flags: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	if (e != s->effective || p != s->permitted || i != s->inheritable || a != s->ambient ||
	    b != s->bounding || nnp != s->no_new_privs) {
		hp_err_set(why,
		           "/proc/self/status and the system calls disagree about capabilities");
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}
