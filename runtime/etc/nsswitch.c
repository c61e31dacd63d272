/* nsswitch.c: reading etc/nsswitch.conf for the four databases we answer. */
#include "etc/nsswitch.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/textesc.h"

const char *const hp_etc_nss_db_names[HP_NSS_NDB] = {"passwd", "group", "shadow", "sudoers"};

const char *const hp_etc_nss_userdb_paths[] = {
    "/etc/userdb",
    "/run/userdb",
    "/run/host/userdb",
    "/usr/local/lib/userdb",
    "/usr/lib/userdb",
    "/run/systemd/userdb",
    NULL,
};

void hp_etc_nsswitch_default(hp_nsswitch *ns, const char *file)
{
	for (int d = 0; d < HP_NSS_NDB; d++) {
		ns->src[d] = HP_NSS_FILES;
		snprintf(ns->why[d], sizeof ns->why[d],
		         "%s does not exist: %s comes from the files only", file,
		         hp_etc_nss_db_names[d]);
	}
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* The database a line's name counts for, or -1. */
static int db_of(const char *name, size_t n)
{
	for (int d = 0; d < HP_NSS_NDB; d++)
		if (strlen(hp_etc_nss_db_names[d]) == n &&
		    strncasecmp(name, hp_etc_nss_db_names[d], n) == 0)
			return d;
	if (n == 10 && strncasecmp(name, "initgroups", 10) == 0)
		return HP_NSS_GROUP;
	return -1;
}

static int service_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* An action block "[!STATUS=ACTION ...]" starting at s[0] == '['; returns
 * its length including ']', or 0 when malformed. */
static size_t action_block(const char *s, size_t n)
{
	size_t i = 1;
	int items = 0;
	for (;;) {
		while (i < n && is_blank(s[i]))
			i++;
		if (i < n && s[i] == ']')
			return items ? i + 1 : 0;
		if (i < n && s[i] == '!')
			i++;
		size_t a = i;
		while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			i++;
		if (i == a || i >= n || s[i] != '=')
			return 0;
		size_t b = ++i;
		while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			i++;
		if (i == b)
			return 0;
		items++;
	}
}

/* Record a verdict for db unless an earlier line settled it already: the
 * first OTHER or MALFORMED line decides, systemd anywhere outweighs files. */
static int settles(const hp_nsswitch *ns, int db, hp_nss_sources src)
{
	hp_nss_sources cur = ns->src[db];
	if (cur == HP_NSS_OTHER || cur == HP_NSS_MALFORMED)
		return 0;
	if (src == HP_NSS_FILES_SYSTEMD && cur == HP_NSS_FILES_SYSTEMD)
		return 0;
	return !(src == HP_NSS_FILES && cur != HP_NSS_FILES);
}

#define SETTLE(ns, db, s, ...)                                                     \
	do {                                                                       \
		if (settles(ns, db, s)) {                                          \
			(ns)->src[db] = s;                                         \
			snprintf((ns)->why[db], sizeof(ns)->why[db], __VA_ARGS__); \
		}                                                                  \
	} while (0)

static void parse_line(hp_nsswitch *ns, const char *s, size_t n, const char *file, unsigned line)
{
	const char *hash = memchr(s, '#', n);
	if (hash)
		n = (size_t)(hash - s);
	size_t i = 0;
	while (i < n && is_blank(s[i]))
		i++;
	size_t name = i;
	while (i < n && s[i] != ':' && !is_blank(s[i]))
		i++;
	if (i == name)
		return;
	int db = db_of(s + name, i - name);
	if (db < 0)
		return;
	hp_esc_buf nb; /* the database as the line spells it ("initgroups" counts as group) */
	const char *dbname = hp_esc(&nb, s + name, i - name);
	while (i < n && is_blank(s[i]))
		i++;
	if (i >= n || s[i] != ':') {
		SETTLE(ns, db, HP_NSS_MALFORMED, "%s:%u: a %s line without ':'", file, line,
		       dbname);
		return;
	}
	i++;
	int files = 0, systemd = 0, services = 0;
	while (i < n) {
		while (i < n && is_blank(s[i]))
			i++;
		if (i >= n)
			break;
		hp_esc_buf e;
		if (s[i] == '[') {
			size_t a = action_block(s + i, n - i);
			if (!a || !services) {
				SETTLE(ns, db, HP_NSS_MALFORMED,
				       "%s:%u: %s: an action block that cannot be read: \"%s\"",
				       file, line, dbname, hp_esc(&e, s + i, n - i));
				return;
			}
			i += a;
			continue;
		}
		size_t w = i;
		while (i < n && !is_blank(s[i]) && s[i] != '[')
			i++;
		for (size_t k = w; k < i; k++) {
			if (!service_char(s[k])) {
				SETTLE(ns, db, HP_NSS_MALFORMED,
				       "%s:%u: %s: a service name that cannot be read: \"%s\"",
				       file, line, dbname, hp_esc(&e, s + w, i - w));
				return;
			}
		}
		services++;
		size_t len = i - w;
		int is_files = db == HP_NSS_SUDOERS
		                   ? len == 5 && strncasecmp(s + w, "files", 5) == 0
		                   : len == 5 && strncmp(s + w, "files", 5) == 0;
		if (is_files) {
			files = 1;
			continue;
		}
		if (db != HP_NSS_SUDOERS && len == 7 && strncmp(s + w, "systemd", 7) == 0) {
			systemd = 1;
			continue;
		}
		SETTLE(ns, db, HP_NSS_OTHER,
		       "%s:%u: %s uses \"%s\", which can supply entries that are not in the files",
		       file, line, dbname, hp_esc(&e, s + w, len));
		return;
	}
	if (!services) {
		SETTLE(ns, db, HP_NSS_MALFORMED, "%s:%u: %s names no service", file, line, dbname);
		return;
	}
	if (!files) {
		SETTLE(ns, db, HP_NSS_OTHER, "%s:%u: %s uses systemd without files", file, line,
		       dbname);
		return;
	}
	if (systemd)
		SETTLE(ns, db, HP_NSS_FILES_SYSTEMD,
		       "%s:%u: %s uses systemd, which adds the users of systemd's user records",
		       file, line, dbname);
	else
		SETTLE(ns, db, HP_NSS_FILES, "%s:%u: %s uses files only", file, line, dbname);
}

void hp_etc_nsswitch_parse(const char *buf, size_t len, const char *file, hp_nsswitch *ns)
{
	for (int d = 0; d < HP_NSS_NDB; d++) {
		ns->src[d] = HP_NSS_FILES;
		snprintf(ns->why[d], sizeof ns->why[d],
		         "%s has no %s line: it comes from the files only", file,
		         hp_etc_nss_db_names[d]);
	}
	if (memchr(buf, '\0', len)) {
		for (int d = 0; d < HP_NSS_NDB; d++) {
			ns->src[d] = HP_NSS_MALFORMED;
			snprintf(ns->why[d], sizeof ns->why[d], "%s: NUL byte in the file", file);
		}
		return;
	}
	unsigned line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		line++;
		parse_line(ns, s, n, file, line);
		pos += n + 1;
	}
}

hp_tri hp_etc_nsswitch_files_only(const hp_nsswitch *ns, hp_nss_db db, hp_tri systemd_records,
                              hp_err *why)
{
	switch (ns->src[db]) {
	case HP_NSS_FILES:
		return HP_TRUE;
	case HP_NSS_FILES_SYSTEMD:
		if (systemd_records == HP_FALSE)
			return HP_TRUE;
		hp_err_set(why, "%s, and %s", ns->why[db],
		           systemd_records == HP_TRUE ? "there are some"
		                                      : "whether there are any is unknown");
		return systemd_records == HP_TRUE ? HP_FALSE : HP_UNKNOWN;
	case HP_NSS_OTHER:
		hp_err_set(why, "%s", ns->why[db]);
		return HP_FALSE;
	case HP_NSS_MALFORMED:
	default:
		hp_err_set(why, "%s", ns->why[db]);
		return HP_UNKNOWN;
	}
}
