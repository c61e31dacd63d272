/* sudo_conf.c: the parts of etc/sudo.conf that decide sudo's policy. */
#include "etc/sudo_conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/textesc.h"
#include "lib/xalloc.h"

void hp_etc_sudo_conf_default(hp_sudo_conf *c, const char *sudoers)
{
	c->sudoers_file = hp_xstrdup(sudoers);
	c->ok = true;
	c->why[0] = '\0';
}

void hp_etc_sudo_conf_free(hp_sudo_conf *c)
{
	free(c->sudoers_file);
	c->sudoers_file = NULL;
}

static bool bad(hp_sudo_conf *c, const char *file, unsigned line, const char *what,
                const char *text, size_t n)
{
	hp_esc_buf e;
	c->ok = false;
	snprintf(c->why, sizeof c->why, "%s:%u: %s: %s", file, line, what, hp_esc(&e, text, n));
	return false;
}

/* The next blank-separated field of s[*i..n): its start, length in *len. */
static const char *field(const char *s, size_t n, size_t *i, size_t *len)
{
	while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	size_t a = *i;
	while (*i < n && s[*i] != ' ' && s[*i] != '\t')
		(*i)++;
	*len = *i - a;
	return *len ? s + a : NULL;
}

static bool keyword(const char *s, size_t n, const char *kw)
{
	size_t k = strlen(kw);
	return n > k && strncasecmp(s, kw, k) == 0 && (s[k] == ' ' || s[k] == '\t');
}

static bool is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

static bool is_sudoers_so(const char *p, size_t n)
{
	if (is(p, n, "sudoers.so"))
		return true;
	return p[0] == '/' && n > 11 && memcmp(p + n - 11, "/sudoers.so", 11) == 0;
}

static bool plugin(hp_sudo_conf *c, const char *file, unsigned line, const char *s, size_t n,
                   bool *have_policy)
{
	size_t i = 0, sl, pl, ol;
	const char *sym = field(s, n, &i, &sl), *path = field(s, n, &i, &pl);
	if (!sym || !path)
		return bad(c, file, line, "a Plugin line without a symbol and a path", s, n);
	bool policy = is(sym, sl, "sudoers_policy");
	if (!policy && !is(sym, sl, "sudoers_io") && !is(sym, sl, "sudoers_audit"))
		return bad(c, file, line, "a plugin that may be a policy plugin other than sudoers",
		           sym, sl);
	if (!is_sudoers_so(path, pl))
		return bad(c, file, line,
		           "a sudoers plugin loaded from a library other than sudoers.so", path,
		           pl);
	if (!policy)
		return true;
	if (*have_policy)
		return bad(c, file, line, "a second policy plugin", sym, sl);
	*have_policy = true;
	static const char *const known[] = {
	    "sudoers_uid=", "sudoers_gid=",    "sudoers_mode=", "ldap_conf=",
	    "ldap_secret=", "error_recovery=", "ignore_perms="};
	const char *o;
	while ((o = field(s, n, &i, &ol))) {
		if (ol > 13 && memcmp(o, "sudoers_file=", 13) == 0) {
			if (o[13] != '/')
				return bad(c, file, line,
				           "a sudoers_file that is not an absolute path", o, ol);
			free(c->sudoers_file);
			c->sudoers_file = hp_xstrndup(o + 13, ol - 13);
			continue;
		}
		size_t k = 0;
		while (k < sizeof known / sizeof *known &&
		       !(ol > strlen(known[k]) && memcmp(o, known[k], strlen(known[k])) == 0))
			k++;
		if (k == sizeof known / sizeof *known)
			return bad(c, file, line,
			           "a sudoers plugin option the runtime does not know", o, ol);
	}
	return true;
}

static bool path_line(hp_sudo_conf *c, const char *file, unsigned line, const char *s, size_t n)
{
	static const char *const names[] = {"askpass", "sesh",       "intercept",
	                                    "noexec",  "plugin_dir", "devsearch"};
	size_t i = 0, nl;
	const char *name = field(s, n, &i, &nl);
	for (size_t k = 0; name && k < sizeof names / sizeof *names; k++)
		if (strlen(names[k]) == nl && strncasecmp(name, names[k], nl) == 0)
			return true;
	return bad(c, file, line, "a Path the runtime does not know", s, n);
}

static bool set_line(hp_sudo_conf *c, const char *file, unsigned line, const char *s, size_t n)
{
	static const char *const names[] = {"disable_coredump", "group_source", "max_groups",
	                                    "probe_interfaces", "developer_mode"};
	size_t i = 0, nl;
	const char *name = field(s, n, &i, &nl);
	for (size_t k = 0; name && k < sizeof names / sizeof *names; k++)
		if (is(name, nl, names[k]))
			return true;
	return bad(c, file, line, "a Set the runtime does not know", s, n);
}

void hp_etc_sudo_conf_parse(const char *buf, size_t len, const char *file, const char *sudoers,
                        hp_sudo_conf *c)
{
	hp_etc_sudo_conf_default(c, sudoers);
	if (memchr(buf, '\0', len)) {
		c->ok = false;
		snprintf(c->why, sizeof c->why, "%s: NUL byte in the file", file);
		return;
	}
	bool have_policy = false;
	char *logical = NULL;
	size_t lcap = 0, llen = 0;
	unsigned line = 0, first = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + 1;
		line++;
		if (!llen)
			first = line;
		while (n && s[n - 1] == '\r')
			n--;
		const char *hash = memchr(s, '#', n);
		bool more = false;
		if (hash) {
			n = (size_t)(hash - s);
		} else if (n && s[n - 1] == '\\' && (n == 1 || s[n - 2] != '\\')) {
			n--;
			more = true;
		}
		if (!more)
			while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
				n--;
		while (n && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		logical = hp_xgrow(logical, &lcap, llen + n + 1, 1);
		memcpy(logical + llen, s, n);
		llen += n;
		if (more && pos < len)
			continue;
		const char *l = logical;
		size_t ln = llen;
		llen = 0;
		if (!ln)
			continue;
		bool ok;
		if (keyword(l, ln, "Plugin"))
			ok = plugin(c, file, first, l + 7, ln - 7, &have_policy);
		else if (keyword(l, ln, "Path"))
			ok = path_line(c, file, first, l + 5, ln - 5);
		else if (keyword(l, ln, "Set"))
			ok = set_line(c, file, first, l + 4, ln - 4);
		else if (keyword(l, ln, "Debug"))
			ok = true;
		else
			ok = bad(c, file, first, "a line sudo.conf does not have", l, ln);
		if (!ok)
			break;
	}
	free(logical);
}
