/* shadow.c: etc/shadow's password fields, indexed by name. */
#include "etc/shadow.h"

#include <stdlib.h>
#include <string.h>

#include "etc/colonfile.h"
#include "lib/idxtab.h"
#include "lib/textesc.h"

typedef struct {
	const char *name, *passwd;
	unsigned line;
} shadow_entry;

struct hp_shadow {
	char *text; /* the file's copy, hashes and all: wiped when freed */
	size_t len;
	shadow_entry *e;
	size_t n;
	hp_idxtab by_name;
};

static const char *entry_name(const void *ctx, uint32_t i)
{
	return ((const hp_shadow *)ctx)->e[i].name;
}

static int check_days(const hp_colon_reader *r, char **f, hp_err *err)
{
	static const char *const names[] = {"last change",    "minimum age",       "maximum age",
	                                    "warning period", "inactivity period", "expiry date"};
	for (int k = 0; k < 6; k++) {
		for (const char *p = f[2 + k]; *p; p++) {
			if (*p < '0' || *p > '9') {
				hp_esc_buf e;
				hp_err_set(err, "%s:%u: %s \"%s\" is not empty or a number of days",
				           r->file, r->line, names[k], hp_escs(&e, f[2 + k]));
				return -1;
			}
		}
	}
	return 0;
}

hp_shadow *hp_etc_shadow_parse(const char *buf, size_t len, const char *file, hp_err *err)
{
	static const char layout[] = "name:password:lastchg:min:max:warn:inactive:expire:reserved";
	hp_shadow *sh = hp_xcalloc(1, sizeof *sh);
	sh->text = hp_xmalloc(len + 1);
	sh->len = len;
	if (len)
		memcpy(sh->text, buf, len);
	sh->text[len] = '\0';
	hp_colon_reader r;
	hp_etc_colon_init(&r, sh->text, len, file, "user");
	size_t cap = 0;
	char *f[9];
	int rc;
	while ((rc = hp_etc_colon_next(&r, f, 9, layout, err)) > 0) {
		if (check_days(&r, f, err) < 0) {
			rc = -1;
			break;
		}
		sh->e = hp_xgrow(sh->e, &cap, sh->n + 1, sizeof *sh->e);
		sh->e[sh->n++] = (shadow_entry){f[0], f[1], r.line};
	}
	if (rc < 0) {
		hp_etc_shadow_free(sh);
		return NULL;
	}
	hp_idxtab_init(&sh->by_name, sh->n);
	for (uint32_t i = 0; i < sh->n; i++) {
		uint32_t prev = hp_idxtab_add_name(&sh->by_name, i, entry_name, sh);
		if (prev != HP_IDX_NONE) {
			hp_esc_buf e;
			hp_err_set(err, "%s:%u: duplicate user \"%s\" (first at line %u)", file,
			           sh->e[i].line, hp_escs(&e, sh->e[i].name), sh->e[prev].line);
			hp_etc_shadow_free(sh);
			return NULL;
		}
	}
	return sh;
}

void hp_etc_shadow_free(hp_shadow *sh)
{
	if (!sh)
		return;
	if (sh->text)
		explicit_bzero(sh->text, sh->len + 1);
	free(sh->text);
	free(sh->e);
	hp_idxtab_free(&sh->by_name);
	free(sh);
}

const char *hp_etc_shadow_password(const hp_shadow *sh, const char *name)
{
	uint32_t i = hp_idxtab_find_name(&sh->by_name, name, entry_name, sh);
	return i == HP_IDX_NONE ? NULL : sh->e[i].passwd;
}

hp_pw_state hp_etc_password_field(const char *field)
{
	if (!field[0])
		return HP_PW_EMPTY;
	if (field[0] == '!' || field[0] == '*')
		return HP_PW_LOCKED;
	return HP_PW_HASH;
}

hp_pw_state hp_etc_password_state(const hp_userdb *db, const hp_shadow *sh,
                                  const char *shadow_file, const char *name, hp_err *why)
{
	hp_esc_buf e;
	const hp_user *u = hp_etc_userdb_user(db, name);
	if (!u) {
		hp_err_set(why, "no user \"%s\"", hp_escs(&e, name));
		return HP_PW_UNKNOWN;
	}
	if (u->passwd[0] == '#' && u->passwd[1] == '#') {
		hp_err_set(why,
		           "user \"%s\" has a \"##\" password field, which points to a "
		           "password adjunct file",
		           hp_escs(&e, name));
		return HP_PW_UNKNOWN;
	}
	if (strcmp(u->passwd, "x") != 0)
		return hp_etc_password_field(u->passwd);
	if (!sh) {
		hp_err_set(why, "%s could not be read", shadow_file);
		return HP_PW_UNKNOWN;
	}
	const char *pw = hp_etc_shadow_password(sh, name);
	if (!pw) {
		hp_err_set(why, "%s has no entry for \"%s\"", shadow_file, hp_escs(&e, name));
		return HP_PW_UNKNOWN;
	}
	return hp_etc_password_field(pw);
}

hp_tri hp_etc_password_empty(const hp_userdb *db, const hp_shadow *sh, const char *shadow_file,
                         const char *name, hp_err *why)
{
	hp_pw_state st = hp_etc_password_state(db, sh, shadow_file, name, why);
	if (st == HP_PW_UNKNOWN)
		return HP_UNKNOWN;
	return st == HP_PW_EMPTY ? HP_TRUE : HP_FALSE;
}

/* --- etc/gshadow ------------------------------------------------------------------ */

typedef struct {
	const char *name, *passwd, *admins, *members;
	unsigned line;
} gshadow_entry;

struct hp_gshadow {
	char *text; /* as hp_shadow's */
	size_t len;
	gshadow_entry *e;
	size_t n;
	hp_idxtab by_name;
};

static const char *gentry_name(const void *ctx, uint32_t i)
{
	return ((const hp_gshadow *)ctx)->e[i].name;
}

/* A list of names as etc/group's member list is written: "" (none) or
 * names separated by single commas, none empty, none with a blank or a
 * control character. what names the field in the message. */
static int check_names(const hp_colon_reader *r, const char *list, const char *what, hp_err *err)
{
	if (!*list)
		return 0;
	for (const char *s = list;;) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		if (n == 0) {
			hp_err_set(err, "%s:%u: empty name in the %s list", r->file, r->line, what);
			return -1;
		}
		for (size_t k = 0; k < n; k++) {
			unsigned char c = (unsigned char)s[k];
			if (c <= 0x20 || c == 0x7f) {
				hp_esc_buf e;
				hp_err_set(err,
				           "%s:%u: %s name \"%s\" contains a blank or control "
				           "character",
				           r->file, r->line, what, hp_esc(&e, s, n));
				return -1;
			}
		}
		if (!end)
			return 0;
		s = end + 1;
	}
}

hp_gshadow *hp_etc_gshadow_parse(const char *buf, size_t len, const char *file, hp_err *err)
{
	static const char layout[] = "name:password:administrators:members";
	hp_gshadow *gs = hp_xcalloc(1, sizeof *gs);
	gs->text = hp_xmalloc(len + 1);
	gs->len = len;
	if (len)
		memcpy(gs->text, buf, len);
	gs->text[len] = '\0';
	hp_colon_reader r;
	hp_etc_colon_init(&r, gs->text, len, file, "group");
	size_t cap = 0;
	char *f[4];
	int rc;
	while ((rc = hp_etc_colon_next(&r, f, 4, layout, err)) > 0) {
		if (check_names(&r, f[2], "administrator", err) < 0 ||
		    check_names(&r, f[3], "member", err) < 0) {
			rc = -1;
			break;
		}
		gs->e = hp_xgrow(gs->e, &cap, gs->n + 1, sizeof *gs->e);
		gs->e[gs->n++] = (gshadow_entry){f[0], f[1], f[2], f[3], r.line};
	}
	if (rc < 0) {
		hp_etc_gshadow_free(gs);
		return NULL;
	}
	hp_idxtab_init(&gs->by_name, gs->n);
	for (uint32_t i = 0; i < gs->n; i++) {
		uint32_t prev = hp_idxtab_add_name(&gs->by_name, i, gentry_name, gs);
		if (prev != HP_IDX_NONE) {
			hp_esc_buf e;
			hp_err_set(err, "%s:%u: duplicate group \"%s\" (first at line %u)", file,
			           gs->e[i].line, hp_escs(&e, gs->e[i].name), gs->e[prev].line);
			hp_etc_gshadow_free(gs);
			return NULL;
		}
	}
	return gs;
}

void hp_etc_gshadow_free(hp_gshadow *gs)
{
	if (!gs)
		return;
	if (gs->text)
		explicit_bzero(gs->text, gs->len + 1);
	free(gs->text);
	free(gs->e);
	hp_idxtab_free(&gs->by_name);
	free(gs);
}

bool hp_etc_gshadow_entry(const hp_gshadow *gs, const char *name, const char **passwd,
                          const char **admins, const char **members)
{
	uint32_t i = hp_idxtab_find_name(&gs->by_name, name, gentry_name, gs);
	if (i == HP_IDX_NONE)
		return false;
	*passwd = gs->e[i].passwd;
	*admins = gs->e[i].admins;
	*members = gs->e[i].members;
	return true;
}

hp_pw_state hp_etc_group_password_state(const hp_userdb *db, const hp_gshadow *gs,
                                        bool gshadow_missing, const char *gshadow_file,
                                        const char *name, hp_err *why)
{
	hp_esc_buf e;
	const hp_group *g = hp_etc_userdb_group(db, name);
	if (!g) {
		hp_err_set(why, "no group \"%s\"", hp_escs(&e, name));
		return HP_PW_UNKNOWN;
	}
	if (!gs && !gshadow_missing) {
		hp_err_set(why, "%s could not be read", gshadow_file);
		return HP_PW_UNKNOWN;
	}
	const char *pw, *admins, *members;
	if (gs && hp_etc_gshadow_entry(gs, name, &pw, &admins, &members))
		return hp_etc_password_field(pw);
	/* newgrp compares crypt's result with etc/group's field: "x" is no
	 * result of any method (each gives the setting's prefix and more) */
	if (strcmp(g->passwd, "x") == 0)
		return HP_PW_LOCKED;
	return hp_etc_password_field(g->passwd);
}
