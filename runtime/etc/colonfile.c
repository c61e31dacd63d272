/* colonfile.c: reading passwd-style files line by line, strictly. */
#include "etc/colonfile.h"

#include <stdint.h>
#include <string.h>

#include "lib/textesc.h"

void hp_etc_colon_init(hp_colon_reader *r, char *buf, size_t len, const char *file, const char *noun)
{
	r->buf = buf;
	r->len = len;
	r->pos = 0;
	r->line = 0;
	r->entries = 0;
	r->file = file;
	r->noun = noun;
}

static int is_blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\v' && s[i] != '\f')
			return 0;
	return 1;
}

static int name_error(const hp_colon_reader *r, const char *name, hp_err *err)
{
	hp_esc_buf e;
	if (!*name)
		hp_err_set(err, "%s:%u: empty %s name", r->file, r->line, r->noun);
	else
		hp_err_set(err, "%s:%u: %s name \"%s\" contains a blank or control character",
		           r->file, r->line, r->noun, hp_escs(&e, name));
	return -1;
}

static int check_name(const hp_colon_reader *r, const char *name, hp_err *err)
{
	if (!*name)
		return name_error(r, name, err);
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p <= 0x20 || *p == 0x7f)
			return name_error(r, name, err);
	return 0;
}

/* Bytes that stop the scan of a line. */
static const unsigned char stop[256] = {['\0'] = 1, ['\n'] = 1, ['\r'] = 1, [':'] = 1};

int hp_etc_colon_next(hp_colon_reader *r, char **fields, size_t nfields, const char *layout,
                  hp_err *err)
{
	for (;;) {
		if (r->pos >= r->len)
			return 0;
		char *s = r->buf + r->pos, *end = r->buf + r->len, *p = s;
		size_t count = 1;
		int nul = 0, cr = 0;
		r->line++;
		/* one pass over the line, cutting at every ':'; buf[len] is the
		 * NUL that ends the scan at the end of the buffer */
		fields[0] = s;
		for (;;) {
			while (!stop[(unsigned char)*p])
				p++;
			if (*p == ':') {
				*p++ = '\0';
				if (count < nfields)
					fields[count] = p;
				count++;
			} else if (*p == '\r') {
				cr = 1;
				p++;
			} else if (*p == '\0' && p < end) {
				nul = 1;
				p++;
			} else {
				break;
			}
		}
		size_t n = (size_t)(p - s);
		r->pos += n + (p < end ? 1 : 0);
		if (n > HP_COLON_MAX_LINE) {
			hp_err_set(err, "%s:%u: line longer than %d bytes", r->file, r->line,
			           HP_COLON_MAX_LINE);
			return -1;
		}
		if (nul) {
			hp_err_set(err, "%s:%u: NUL byte in line", r->file, r->line);
			return -1;
		}
		if (cr) {
			hp_err_set(err,
			           "%s:%u: carriage return in line (libcs disagree on CRLF files)",
			           r->file, r->line);
			return -1;
		}
		*p = '\0';
		if (count == 1 && is_blank_line(s, n))
			continue;
		if (++r->entries > HP_COLON_MAX_ENTRIES) {
			hp_err_set(err, "%s:%u: more than %d entries", r->file, r->line,
			           HP_COLON_MAX_ENTRIES);
			return -1;
		}
		if (s[0] == '#') {
			hp_err_set(
			    err, "%s:%u: comment line (musl reads it as an entry, glibc skips it)",
			    r->file, r->line);
			return -1;
		}
		if (s[0] == ' ' || s[0] == '\t' || s[0] == '\v' || s[0] == '\f') {
			hp_err_set(
			    err, "%s:%u: line starts with a blank (glibc skips it, musl does not)",
			    r->file, r->line);
			return -1;
		}
		if (s[0] == '+' || s[0] == '-') {
			hp_err_set(err,
			           "%s:%u: NIS compat line starting with '%c' (entries from NIS "
			           "cannot be checked)",
			           r->file, r->line, s[0]);
			return -1;
		}
		if (count != nfields) {
			hp_err_set(err, "%s:%u: %zu fields, expected %zu (%s)", r->file, r->line,
			           count, nfields, layout);
			return -1;
		}
		if (check_name(r, fields[0], err) < 0)
			return -1;
		return 1;
	}
}

/* The error paths, kept out of the per-line path (their message buffers). */
static int id_error(const hp_colon_reader *r, const char *s, const char *kind, int why, hp_err *err)
{
	hp_esc_buf e;
	const char *u = kind[0] == 'u' ? "u" : "g";
	switch (why) {
	case 0:
		hp_err_set(err, "%s:%u: empty %s (glibc reads it as 0)", r->file, r->line, kind);
		break;
	case 1:
		hp_err_set(err,
		           "%s:%u: %s \"%s\" is negative (-1 is (%s_t)-1, which setres%sid "
		           "reads as 'unchanged')",
		           r->file, r->line, kind, hp_escs(&e, s), kind, u);
		break;
	case 2:
		hp_err_set(err, "%s:%u: %s \"%s\" is not a decimal number", r->file, r->line, kind,
		           hp_escs(&e, s));
		break;
	case 3:
		hp_err_set(err,
		           "%s:%u: %s 4294967295 is (%s_t)-1, which setres%sid reads as "
		           "'unchanged'",
		           r->file, r->line, kind, kind, u);
		break;
	default:
		hp_err_set(err, "%s:%u: %s \"%s\" is out of range (largest is 4294967294)", r->file,
		           r->line, kind, hp_escs(&e, s));
		break;
	}
	return -1;
}

int hp_etc_colon_id(const hp_colon_reader *r, const char *s, const char *kind, unsigned *out,
                hp_err *err)
{
	if (!*s)
		return id_error(r, s, kind, 0, err);
	if (*s == '-')
		return id_error(r, s, kind, 1, err);
	const char *p = s;
	while (*p == '0')
		p++;
	uint64_t v = 0;
	size_t digits = 0;
	for (; *p; p++, digits++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';
		if (d > 9)
			return id_error(r, s, kind, 2, err);
		v = v * 10 + d; /* at most 10 digits are kept: no overflow */
		if (digits == 10)
			return id_error(r, s, kind, 4, err);
	}
	if (v == UINT32_MAX)
		return id_error(r, s, kind, 3, err);
	if (v > UINT32_MAX)
		return id_error(r, s, kind, 4, err);
	*out = (unsigned)v;
	return 0;
}
