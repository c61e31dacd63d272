/* pam.c: a PAM service's auth stack, read as libpam reads it (its lines,
 * controls, includes and substacks, each module classed by what it
 * answers without the target's password), then run (pam_run.c) (pam.h). */
#include "etc/pam.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "etc/pam_stack.h"
#include "lib/textesc.h"

/* libpam reads a line into 1024 bytes, its NUL included */
#define LINE_BUF 1024
#define MAX_JUMP 999

static const char *const ret_names[NRET] = {
    "success",       "open_err",         "symbol_err",          "service_err",
    "system_err",    "buf_err",          "perm_denied",         "auth_err",
    "cred_insufficient", "authinfo_unavail", "user_unknown",    "maxtries",
    "new_authtok_reqd", "acct_expired",  "session_err",         "cred_unavail",
    "cred_expired",  "cred_err",         "no_module_data",      "conv_err",
    "authtok_err",   "authtok_recover_err", "authtok_lock_busy", "authtok_disable_aging",
    "try_again",     "ignore",           "abort",               "authtok_expired",
    "module_unknown", "bad_item",        "conv_again",          "incomplete"};

/* every failure a module could report without the password: all codes but
 * success, ignore and incomplete (which ends the stack as a failure) */
#define FAILURES (~(BIT(R_SUCCESS) | BIT(R_IGNORE) | BIT(R_INCOMPLETE)))

typedef struct {
	const hp_pam_files *files;
	const hp_pam_who *who;
	pam_handler *h;
	size_t n, cap;
	int nfiles;
	bool failed;
	hp_err *why;
} loader;

static void fail(loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(loader *ld, const char *fmt, ...)
{
	if (ld->failed)
		return;
	ld->failed = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ld->why->msg, sizeof ld->why->msg, fmt, ap);
	va_end(ap);
}

/* --- lines and tokens, as libpam cuts them ------------------------------------------ */

static bool pam_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* _pam_StrTok with the separators " \n\t": "[...]" is one token (the
 * first ']' ends it, "\]" stands for ']'). */
static char *pam_tok(char *from, char **next)
{
	if (!from) {
		if (!*next)
			return NULL;
		from = *next;
	}
	while (*from && pam_blank(*from))
		from++;
	char *end;
	if (*from == '[') {
		char *to;
		for (to = end = ++from; *end && *end != ']'; ++to, ++end) {
			if (*end == '\\' && end[1] == ']')
				++end;
			if (to != end)
				*to = *end;
		}
		if (to != end)
			*to = '\0';
	} else if (*from) {
		for (end = from; *end && !pam_blank(*end); ++end)
			;
	} else {
		*next = NULL;
		return NULL;
	}
	if (*end)
		*end++ = '\0';
	*next = *end ? end : NULL;
	return from;
}

typedef struct {
	const char *text;
	size_t len, pos;
	unsigned line;    /* physical lines read */
	unsigned first;   /* the line the assembled one starts on */
	char buf[LINE_BUF];
} line_reader;

/* _pam_assemble_line: 1 with a line in r->buf, 0 at the end, -1 when the
 * file is not one this reader trusts itself to cut as libpam does (why). */
static int next_line(loader *ld, line_reader *r, const char *file)
{
	size_t off = 0;
	bool used = false;
	for (;;) {
		if (r->pos >= r->len) {
			if (used) {
				fail(ld, "%s:%u: the last line ends in a backslash", file, r->line);
				return -1;
			}
			return 0;
		}
		const char *nl = memchr(r->text + r->pos, '\n', r->len - r->pos);
		size_t n = nl ? (size_t)(nl - (r->text + r->pos)) + 1 : r->len - r->pos;
		r->line++;
		if (!used)
			r->first = r->line;
		if (n > LINE_BUF - 1 - off) {
			fail(ld, "%s:%u: a line longer than libpam's %d bytes (it would cut it in two)",
			     file, r->line, LINE_BUF - 1);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)r->text[r->pos + i];
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
				fail(ld, "%s:%u: a control character (0x%02x)", file, r->line, c);
				return -1;
			}
		}
		memcpy(r->buf + off, r->text + r->pos, n);
		r->buf[off + n] = '\0';
		r->pos += n;
		char *p = r->buf + off;
		char *s = p + strspn(p, " \n\t");
		if (!*s || *s == '#')
			continue; /* nothing in this line: it does not move */
		char *os = s;
		while (*s && *s != '#')
			++s;
		if (*s == '#') {
			*s = '\0';
			return 1;
		}
		s = os + strlen(os);
		while (s > os && (*--s == ' ' || *s == '\t' || *s == '\n'))
			;
		if (*s == '\\') {
			*s++ = ' ';
			*s = '\0';
			off = (size_t)(s - r->buf);
			used = true;
			continue;
		}
		return 1;
	}
}

/* --- controls ------------------------------------------------------------------------ */

static void set_default(int *a, int act)
{
	for (int i = 0; i < NRET; i++)
		if (a[i] == A_UNDEF)
			a[i] = act;
}

/* "value=action ..." (the inside of [...]), strictly: anything libpam would
 * read another way, or treat as all bad, is refused. */
static bool parse_control(char *tok, int *a)
{
	static const char *const acts[] = {"ignore", "ok", "done", "bad", "die", "reset"};
	bool any = false;
	char *save = NULL;
	for (char *item = strtok_r(tok, " \t\n\v\f\r", &save); item;
	     item = strtok_r(NULL, " \t\n\v\f\r", &save)) {
		char *eq = strchr(item, '=');
		if (!eq || eq == item || !eq[1])
			return false;
		*eq = '\0';
		int ret = -1;
		if (strcmp(item, "default") == 0)
			ret = NRET;
		for (int i = 0; i < NRET && ret < 0; i++)
			if (strcmp(item, ret_names[i]) == 0)
				ret = i;
		if (ret < 0)
			return false;
		const char *v = eq + 1;
		int act = 1;
		for (int i = 0; i < 6 && act > 0; i++)
			if (strcmp(v, acts[i]) == 0)
				act = -i;
		if (act > 0) {
			long j = 0;
			for (const char *d = v; *d; d++) {
				if (*d < '0' || *d > '9' || j > MAX_JUMP)
					return false;
				j = j * 10 + (*d - '0');
			}
			if (j < 1 || j > MAX_JUMP)
				return false;
			act = (int)j;
		}
		if (ret == NRET)
			set_default(a, act);
		else
			a[ret] = act;
		any = true;
	}
	return any;
}

/* --- modules --------------------------------------------------------------------------- */

static const char *const security_dirs[] = {
    "/lib/security/",
    "/lib64/security/",
    "/usr/lib/security/",
    "/usr/lib64/security/",
    "/lib/x86_64-linux-gnu/security/",
    "/usr/lib/x86_64-linux-gnu/security/",
    "/lib/aarch64-linux-gnu/security/",
    "/usr/lib/aarch64-linux-gnu/security/",
    NULL,
};

/* The module a path names, when it is one of the module directories' (or
 * a bare name, which libpam looks up there); NULL otherwise. */
static const char *module_name(const char *path)
{
	const char *name = path;
	if (strchr(path, '/')) {
		name = NULL;
		for (const char *const *d = security_dirs; *d && !name; d++)
			if (strncmp(path, *d, strlen(*d)) == 0)
				name = path + strlen(*d);
		if (!name)
			return NULL;
	}
	if (strchr(name, '/') || strlen(name) < 4 || strcmp(name + strlen(name) - 3, ".so") != 0)
		return NULL;
	return name;
}

static bool has_arg(char **argv, int argc, const char *arg)
{
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], arg) == 0)
			return true;
	return false;
}

static bool has_prefix_arg(char **argv, int argc, const char *prefix)
{
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* pam_wheel (Debian's: the caller is always getpwuid(getuid())). */
static void classify_wheel(loader *ld, pam_handler *h, char **argv, int argc)
{
	const hp_pam_who *w = ld->who;
	bool trust = has_arg(argv, argc, "trust"), deny = has_arg(argv, argc, "deny");
	const char *group = NULL;
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "group=", 6) == 0)
			group = argv[i] + 6;
	h->sure = BIT(R_SERVICE_ERR) | BIT(R_USER_UNKNOWN);
	const hp_user *t = hp_etc_userdb_user(w->db, w->target);
	if (has_arg(argv, argc, "root_only") && t && t->uid != 0) {
		h->sure |= BIT(R_IGNORE);
		snprintf(h->what, sizeof h->what, "pam_wheel.so root_only");
		return;
	}
	if (group && strlen(group) > 255) {
		h->guess = ~0u;
		snprintf(h->what, sizeof h->what, "pam_wheel.so with a group name of %zu bytes",
		         strlen(group));
		return;
	}
	const hp_group *g = group ? hp_etc_userdb_group(w->db, group)
	                          : hp_etc_userdb_group(w->db, "wheel");
	if (!group && !g)
		g = hp_etc_userdb_group_by_gid(w->db, 0);
	hp_esc_buf e;
	const char *gname = g ? g->name : group ? group : "wheel";
	if (!g) {
		h->sure |= BIT(deny ? R_IGNORE : R_AUTH_ERR);
		snprintf(h->what, sizeof h->what, "pam_wheel.so (no group \"%s\")", hp_escs(&e, gname));
		return;
	}
	const hp_user *c = hp_etc_userdb_user_by_uid(w->db, w->caller_uid);
	bool member = false;
	if (c) {
		hp_user_groups ug;
		hp_etc_userdb_user_groups(w->db, c, &ug);
		for (size_t i = 0; i < ug.ngids; i++)
			if (ug.gids[i] == g->gid)
				member = true;
		hp_etc_user_groups_free(&ug);
	}
	int r;
	if (member)
		r = deny ? R_PERM_DENIED : trust ? R_SUCCESS : R_IGNORE;
	else
		r = deny ? (trust ? R_SUCCESS : R_IGNORE) : R_PERM_DENIED;
	h->sure |= BIT(r);
	hp_esc_buf e2;
	snprintf(h->what, sizeof h->what, "pam_wheel.so%s%s lets in %s group \"%s\", and %s is %s",
	         trust ? " trust" : "", deny ? " deny" : "", deny ? "whoever is not in" : "the",
	         hp_escs(&e, gname), c ? hp_escs(&e2, c->name) : "the caller",
	         member ? "in it" : "not");
}

/* What a module can return for the caller, as target, without the
 * password (pam.h). */
static void classify(loader *ld, pam_handler *h, const char *path, char **argv, int argc)
{
	const hp_pam_who *w = ld->who;
	hp_esc_buf e;
	const char *name = module_name(path);
	h->sure = BIT(R_MODULE_UNKNOWN); /* the file may be missing from the image */
	h->guess = 0;
	snprintf(h->what, sizeof h->what, "%s", name ? name : hp_escs(&e, path));
	if (!name) {
		h->guess = ~0u;
		snprintf(h->what, sizeof h->what, "%s, a module outside the module directories",
		         hp_escs(&e, path));
		return;
	}
	static const char *const ignore_only[] = {"pam_env.so",  "pam_keyinit.so", "pam_mail.so",
	                                          "pam_group.so", "pam_warn.so",   NULL};
	/* modules with no pam_sm_authenticate: libpam gives PAM_MODULE_UNKNOWN */
	static const char *const no_auth[] = {"pam_limits.so", "pam_loginuid.so", "pam_systemd.so",
	                                      "pam_motd.so",   "pam_xauth.so",    "pam_umask.so",
	                                      "pam_time.so",   NULL};
	for (const char *const *m = ignore_only; *m; m++)
		if (strcmp(name, *m) == 0) {
			h->sure |= BIT(R_IGNORE);
			return;
		}
	for (const char *const *m = no_auth; *m; m++)
		if (strcmp(name, *m) == 0)
			return;
	if (strcmp(name, "pam_permit.so") == 0) {
		h->sure |= BIT(R_SUCCESS); /* with no question asked */
		snprintf(h->what, sizeof h->what, "pam_permit.so lets anyone in");
	} else if (strcmp(name, "pam_deny.so") == 0 || strcmp(name, "pam_selinux.so") == 0) {
		h->sure |= BIT(R_AUTH_ERR);
	} else if (strcmp(name, "pam_rootok.so") == 0) {
		h->sure |= BIT(R_AUTH_ERR); /* the caller is not root */
	} else if (strcmp(name, "pam_faildelay.so") == 0) {
		h->sure |= BIT(R_IGNORE) | FAILURES;
	} else if (strcmp(name, "pam_unix.so") == 0) {
		h->sure |= FAILURES;
		bool nullok = has_prefix_arg(argv, argc, "nullok") ||
		              has_prefix_arg(argv, argc, "nullresetok");
		hp_esc_buf t;
		if (nullok && w->target_pw == HP_PW_EMPTY) {
			h->sure |= BIT(R_SUCCESS);
			snprintf(h->what, sizeof h->what,
			         "pam_unix.so nullok lets in an empty password, and %s's is empty",
			         hp_escs(&t, w->target));
		} else if (nullok && w->target_pw == HP_PW_UNKNOWN) {
			h->guess |= BIT(R_SUCCESS);
			snprintf(h->what, sizeof h->what,
			         "pam_unix.so nullok lets in an empty password, and whether %s's is "
			         "empty is unknown (%s)",
			         hp_escs(&t, w->target), w->target_why ? w->target_why : "");
		}
	} else if (strcmp(name, "pam_nologin.so") == 0) {
		h->sure |= BIT(has_arg(argv, argc, "successok") ? R_SUCCESS : R_IGNORE) | FAILURES;
		snprintf(h->what, sizeof h->what, "pam_nologin.so successok succeeds when there is "
		                                  "no nologin file");
	} else if (strcmp(name, "pam_securetty.so") == 0 || strcmp(name, "pam_shells.so") == 0) {
		h->sure |= BIT(R_SUCCESS) | FAILURES;
		snprintf(h->what, sizeof h->what, "%s succeeds without a password where it does not "
		                                  "refuse", name);
	} else if (strcmp(name, "pam_lastlog.so") == 0) {
		h->sure |= BIT(R_SUCCESS) | BIT(R_IGNORE) | FAILURES;
		snprintf(h->what, sizeof h->what, "pam_lastlog.so succeeds without a password where it "
		                                  "does not refuse");
	} else if (strcmp(name, "pam_wheel.so") == 0) {
		classify_wheel(ld, h, argv, argc);
	} else if (strcmp(name, "pam_succeed_if.so") == 0) {
		h->sure |= FAILURES;
		h->guess |= BIT(R_SUCCESS);
		snprintf(h->what, sizeof h->what,
		         "pam_succeed_if.so succeeds when its conditions hold, which are not evaluated");
	} else {
		h->guess = ~0u; /* any answer, none of them sure */
		snprintf(h->what, sizeof h->what, "%s is not a module whose answers this check knows",
		         name);
	}
}

/* --- files ----------------------------------------------------------------------------- */

static void load_file(loader *ld, const char *path, int level, int depth);

/* The file an include names, relative to the root: only etc/pam.d's own
 * files (anything else is not among the files system-files checks). */
static bool include_path(loader *ld, const char *where, const char *name, char *out, size_t n)
{
	const char *base = name;
	if (name[0] == '/') {
		if (strncmp(name, "/etc/pam.d/", 11) != 0) {
			hp_esc_buf e;
			fail(ld, "%s: includes \"%s\", outside etc/pam.d", where, hp_escs(&e, name));
			return false;
		}
		base = name + 11;
	}
	if (!base[0] || strchr(base, '/') || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
	    strlen(base) > 200) {
		hp_esc_buf e;
		fail(ld, "%s: includes \"%s\", which is not a file of etc/pam.d", where,
		     hp_escs(&e, name));
		return false;
	}
	snprintf(out, n, "etc/pam.d/%s", base);
	return true;
}

static void parse_line(loader *ld, char *line, const char *where, int level, int depth)
{
	char *next = line;
	char *tok = pam_tok(NULL, &next);
	hp_esc_buf e;
	if (!tok) /* cannot happen: the line has something before any '#' */
		return;
	if (tok[0] == '-')
		tok++;
	bool include = false, substack = false;
	int actions[NRET];
	for (int i = 0; i < NRET; i++)
		actions[i] = A_UNDEF;
	if (strcasecmp(tok, "@include") == 0) {
		include = true;
	} else if (strcasecmp(tok, "auth") == 0) {
		char *ctl = pam_tok(NULL, &next);
		if (!ctl) {
			fail(ld, "%s: no control after \"auth\"", where);
			return;
		}
		if (strcasecmp(ctl, "required") == 0 || strcasecmp(ctl, "requisite") == 0) {
			actions[R_SUCCESS] = A_OK;
			actions[R_NEW_AUTHTOK_REQD] = A_OK;
			actions[R_IGNORE] = A_IGNORE;
			set_default(actions, strcasecmp(ctl, "required") == 0 ? A_BAD : A_DIE);
		} else if (strcasecmp(ctl, "optional") == 0) {
			actions[R_SUCCESS] = A_OK;
			actions[R_NEW_AUTHTOK_REQD] = A_OK;
			set_default(actions, A_IGNORE);
		} else if (strcasecmp(ctl, "sufficient") == 0) {
			actions[R_SUCCESS] = A_DONE;
			actions[R_NEW_AUTHTOK_REQD] = A_DONE;
			set_default(actions, A_IGNORE);
		} else if (strcasecmp(ctl, "include") == 0) {
			include = true;
		} else if (strcasecmp(ctl, "substack") == 0) {
			include = substack = true;
		} else {
			char copy[LINE_BUF];
			snprintf(copy, sizeof copy, "%s", ctl);
			if (!parse_control(ctl, actions)) {
				fail(ld, "%s: the control \"%s\" is not one this check reads", where,
				     hp_escs(&e, copy));
				return;
			}
			set_default(actions, A_BAD);
		}
	} else if (strcasecmp(tok, "session") == 0 || strcasecmp(tok, "account") == 0 ||
	           strcasecmp(tok, "password") == 0) {
		return; /* another stack's */
	} else {
		fail(ld, "%s: \"%s\" is not a module type", where, hp_escs(&e, tok));
		return;
	}
	char *mod = pam_tok(NULL, &next);
	if (!mod) {
		fail(ld, "%s: no %s", where, include ? "file to include" : "module");
		return;
	}
	if (include) {
		char path[256];
		if (!include_path(ld, where, mod, path, sizeof path))
			return;
		if (substack) {
			if (ld->n >= HP_PAM_MAX_LINES) {
				fail(ld, "%s: more than %d auth lines", where, HP_PAM_MAX_LINES);
				return;
			}
			ld->h = hp_xgrow(ld->h, &ld->cap, ld->n + 1, sizeof *ld->h);
			pam_handler *m = &ld->h[ld->n++];
			memset(m, 0, sizeof *m);
			m->level = level;
			m->marker = true;
			snprintf(m->where, sizeof m->where, "%s", where);
		}
		if (depth + 1 >= HP_PAM_MAX_DEPTH) {
			fail(ld, "%s: includes nested more than %d deep", where, HP_PAM_MAX_DEPTH);
			return;
		}
		load_file(ld, path, level + (substack ? 1 : 0), depth + 1);
		return;
	}
	char *argv[LINE_BUF / 2];
	int argc = 0;
	for (char *a = pam_tok(NULL, &next); a; a = pam_tok(NULL, &next))
		argv[argc++] = a;
	if (ld->n >= HP_PAM_MAX_LINES) {
		fail(ld, "%s: more than %d auth lines", where, HP_PAM_MAX_LINES);
		return;
	}
	ld->h = hp_xgrow(ld->h, &ld->cap, ld->n + 1, sizeof *ld->h);
	pam_handler *h = &ld->h[ld->n++];
	memset(h, 0, sizeof *h);
	h->level = level;
	memcpy(h->actions, actions, sizeof actions);
	snprintf(h->where, sizeof h->where, "%s", where);
	classify(ld, h, mod, argv, argc);
}

static void parse_text(loader *ld, const char *text, size_t len, const char *file, int level,
                       int depth)
{
	line_reader *r = hp_xcalloc(1, sizeof *r);
	r->text = text;
	r->len = len;
	int rc;
	while (!ld->failed && (rc = next_line(ld, r, file)) > 0) {
		char where[160];
		snprintf(where, sizeof where, "%s:%u", file, r->first);
		parse_line(ld, r->buf, where, level, depth);
	}
	free(r);
}

static void load_file(loader *ld, const char *path, int level, int depth)
{
	if (ld->failed)
		return;
	if (++ld->nfiles > HP_PAM_MAX_FILES) {
		fail(ld, "%s: more than %d files read", path, HP_PAM_MAX_FILES);
		return;
	}
	char *buf = NULL;
	size_t len = 0;
	hp_err e;
	hp_tri t = ld->files->read(ld->files->ctx, path, HP_PAM_MAX_FILE, &buf, &len, &e);
	if (t == HP_FALSE) {
		fail(ld, "%s does not exist", path);
		return;
	}
	if (t != HP_TRUE) {
		fail(ld, "%s", e.msg);
		return;
	}
	parse_text(ld, buf, len, path, level, depth);
	free(buf);
}

/* --- the service -------------------------------------------------------------------------- */

static bool valid_service(const char *s)
{
	if (!s[0] || strlen(s) > 64 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			return false;
	return true;
}

/* Load one service's auth lines from the directories libpam looks in:
 * HP_TRUE loaded (possibly none), HP_FALSE no file, HP_UNKNOWN (ld failed). */
static hp_tri load_service(loader *ld, const char *service, bool etc_dir, bool usr_dir)
{
	char path[128];
	const char *dirs[2] = {etc_dir ? "etc/pam.d" : NULL, usr_dir ? "usr/lib/pam.d" : NULL};
	for (int i = 0; i < 2; i++) {
		if (!dirs[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", dirs[i], service);
		char *buf = NULL;
		size_t len = 0;
		hp_err e;
		hp_tri t = ld->files->read(ld->files->ctx, path, HP_PAM_MAX_FILE, &buf, &len, &e);
		if (t == HP_FALSE)
			continue;
		if (t != HP_TRUE) {
			fail(ld, "%s", e.msg);
			return HP_UNKNOWN;
		}
		if (i == 1) {
			free(buf);
			fail(ld, "%s: PAM reads usr/lib/pam.d, whose files system-files does not "
			         "check",
			     path);
			return HP_UNKNOWN;
		}
		ld->nfiles++;
		parse_text(ld, buf, len, path, 0, 0);
		free(buf);
		return ld->failed ? HP_UNKNOWN : HP_TRUE;
	}
	return HP_FALSE;
}

hp_tri hp_etc_pam_passwordless(const hp_pam_files *files, const char *service,
                               const hp_pam_who *who, hp_err *why)
{
	hp_esc_buf e;
	if (!valid_service(service)) {
		hp_err_set(why, "\"%s\" is not a PAM service name", hp_escs(&e, service));
		return HP_UNKNOWN;
	}
	hp_err de;
	hp_tri etc_dir = files->is_dir(files->ctx, "etc/pam.d", &de);
	hp_tri usr_dir = etc_dir == HP_UNKNOWN ? HP_UNKNOWN
	                                       : files->is_dir(files->ctx, "usr/lib/pam.d", &de);
	if (etc_dir == HP_UNKNOWN || usr_dir == HP_UNKNOWN) {
		hp_err_set(why, "%s", de.msg);
		return HP_UNKNOWN;
	}
	if (etc_dir == HP_FALSE && usr_dir == HP_FALSE) {
		char *buf = NULL;
		size_t len = 0;
		hp_tri t = files->read(files->ctx, "etc/pam.conf", HP_PAM_MAX_FILE, &buf, &len, &de);
		free(buf);
		if (t == HP_FALSE) {
			hp_err_set(why, "no etc/pam.d, usr/lib/pam.d or etc/pam.conf: PAM lets no one "
			                "in");
			return HP_FALSE;
		}
		hp_err_set(why, "%s", t == HP_TRUE ? "PAM reads etc/pam.conf, which this check does "
		                                     "not read"
		                                   : de.msg);
		return HP_UNKNOWN;
	}
	loader ld = {.files = files, .who = who, .why = why};
	hp_tri t = load_service(&ld, service, etc_dir == HP_TRUE, usr_dir == HP_TRUE);
	const char *used = service;
	if (t == HP_TRUE && ld.n == 0)
		t = HP_FALSE; /* no auth line: libpam runs other's */
	if (t == HP_FALSE) {
		used = "other";
		t = load_service(&ld, "other", etc_dir == HP_TRUE, usr_dir == HP_TRUE);
		if (t == HP_FALSE) {
			free(ld.h);
			hp_err_set(why, "%s has no PAM file and there is no \"other\": PAM lets no one "
			                "in",
			           service);
			return HP_FALSE;
		}
	}
	if (t == HP_UNKNOWN || ld.failed) {
		free(ld.h);
		return HP_UNKNOWN;
	}
	char label[96];
	snprintf(label, sizeof label, "%s", used);
	hp_tri r = hp_etc_pam_stack_run(ld.h, ld.n, label, why);
	free(ld.h);
	return r;
}
