/* sudoers_eval.c: does the parsed policy grant a user anything?
 *
 * sudo matches a list from its last member backwards and the first member
 * that matches decides, allowing or (negated) denying; a member that does
 * not match leaves the list "unspecified". Here a member may also match
 * "maybe" (a netgroup, a name equal but for case, a group sudo may resolve
 * by name or by gid), so a list evaluates to the set of outcomes it can
 * have: ALLOW, DENY, UNSPEC. A rule applies for certain when its user list
 * can only ALLOW, possibly when ALLOW is among the outcomes. Host lists are
 * evaluated the same way with every host name a "maybe". Commands are not
 * matched at all: a command list grants when some command in it, aliases
 * expanded, is not negated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "etc/sudoers/sudoers_tree.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

enum { O_ALLOW = 1, O_DENY = 2, O_UNSPEC = 4, O_ANY = 7 };
typedef enum { M_NO = 0, M_MAYBE = 1, M_YES = 2 } match;

typedef struct {
	const hp_sudoers *s;
	const hp_userdb *db;
	const hp_sudo_subject *who;
	uint8_t *memo[SA_NKINDS]; /* 0 new, 1 being evaluated, else 2 | result << 2 */
	int depth;
	char maybe[256]; /* the first reason a user list may or may not match */
} ev;

static void note(ev *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(ev *E, const char *fmt, ...)
{
	if (E->maybe[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(E->maybe, sizeof E->maybe, fmt, ap);
	va_end(ap);
}

static unsigned flip(unsigned o)
{
	return (o & O_UNSPEC) | (o & O_ALLOW ? O_DENY : 0) | (o & O_DENY ? O_ALLOW : 0);
}

static unsigned leaf(match m, bool neg)
{
	unsigned sign = neg ? O_DENY : O_ALLOW;
	return m == M_YES ? sign : m == M_NO ? O_UNSPEC : sign | O_UNSPEC;
}

static match name_match(ev *E, const char *pattern, const char *name, const char *what)
{
	if (strcmp(pattern, name) == 0)
		return M_YES;
	if (strcasecmp(pattern, name) == 0) {
		hp_esc_buf a, b;
		note(E,
		     "%s \"%s\" matches \"%s\" only if case is ignored (sudo's "
		     "case_insensitive_%s)",
		     what, hp_escs(&a, pattern), hp_escs(&b, name), what);
		return M_MAYBE;
	}
	return M_NO;
}

/* sudo's "#id": decimal, or negative (older sudo wraps it modulo 2^32). */
static bool parse_id(const char *s, uint32_t *id, bool *negative)
{
	*negative = *s == '-';
	if (*negative)
		s++;
	if (!*s)
		return false;
	uint64_t v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT32_MAX)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*negative) {
		if (v == 0 || v > 0x80000000u)
			return false;
		*id = (uint32_t)(0x100000000ull - v);
		return true;
	}
	if (v > UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

static bool has_gid(const uint32_t *v, size_t n, uint32_t gid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == gid)
			return true;
	return false;
}

/* Whether gid is in the user's group vector: M_YES, M_MAYBE or M_NO. */
static match in_groups(const hp_sudo_subject *w, uint32_t gid, bool primary_counts)
{
	if (has_gid(w->gids, w->ngids, gid) || (primary_counts && gid == w->gid))
		return M_YES;
	if (has_gid(w->maybe_gids, w->nmaybe, gid) || gid == w->gid)
		return M_MAYBE;
	return M_NO;
}

/* %group: sudo compares the names of the user's groups with it by default,
 * or its gid with the user's gids (match_group_by_gid); only an answer both
 * ways agree on is certain. */
static match group_word(ev *E, const char *g)
{
	const hp_sudo_subject *w = E->who;
	hp_esc_buf e;
	if (g[0] == ':') {
		if (!E->s->group_plugin)
			return M_NO;
		note(E, "non-Unix group %%%s is answered by the group plugin", hp_escs(&e, g));
		return M_MAYBE;
	}
	match r;
	uint32_t id;
	bool negative;
	if (g[0] == '#' && parse_id(g + 1, &id, &negative)) {
		r = in_groups(w, id, true);
		if (r == M_YES && negative) {
			note(E, "group id %%%s is negative, which sudo versions read differently",
			     hp_escs(&e, g));
			r = M_MAYBE;
		}
	} else {
		match by_name = M_NO, by_gid = M_NO;
		const uint32_t *sets[2] = {w->gids, w->maybe_gids};
		size_t ns[2] = {w->ngids, w->nmaybe};
		for (int k = 0; k < 3; k++) {
			size_t n = k < 2 ? ns[k] : 1;
			for (size_t i = 0; i < n; i++) {
				uint32_t gid = k < 2 ? sets[k][i] : w->gid;
				const hp_group *gr = hp_etc_userdb_group_by_gid(E->db, gid);
				if (!gr)
					continue;
				match m = name_match(E, g, gr->name, "group");
				bool certain =
				    k == 0 || (k == 2 && has_gid(w->gids, w->ngids, gid));
				if (m == M_YES && !certain)
					m = M_MAYBE;
				if (m > by_name)
					by_name = m;
			}
		}
		const hp_group *gr = hp_etc_userdb_group(E->db, g);
		if (gr)
			by_gid = in_groups(w, gr->gid, true);
		r = by_name == by_gid ? by_name : M_MAYBE;
		if (by_name != by_gid)
			note(E,
			     "%%%s matches by gid or by name, not both (sudo's match_group_by_gid)",
			     hp_escs(&e, g));
	}
	if (r == M_NO && E->s->group_plugin) {
		note(E, "%%%s may be answered by the group plugin", hp_escs(&e, g));
		r = M_MAYBE;
	}
	return r;
}

static match user_word(ev *E, const char *word)
{
	hp_esc_buf e;
	if (word[0] == '%')
		return group_word(E, word + 1);
	if (word[0] == '+') {
		note(E, "netgroup %s cannot be checked offline", hp_escs(&e, word));
		return M_MAYBE;
	}
	uint32_t id;
	bool negative;
	if (word[0] == '#' && parse_id(word + 1, &id, &negative) && id == E->who->uid) {
		if (!negative)
			return M_YES;
		note(E, "uid %s is negative, which sudo versions read differently",
		     hp_escs(&e, word));
		return M_MAYBE;
	}
	return name_match(E, word, E->who->name, "user");
}

static unsigned list_out(ev *E, hp_sudoers_akind k, const hp_sudoers_list *l);

static unsigned alias_out(ev *E, hp_sudoers_akind k, const hp_sudoers_alias *a)
{
	size_t i = (size_t)(a - E->s->al[k]);
	uint8_t st = E->memo[k][i];
	if (st >= 2)
		return st >> 2;
	if (st == 1 || E->depth >= HP_SUDOERS_MAX_ALIAS_DEPTH) {
		hp_esc_buf e;
		note(E, "alias %s refers to itself or nests too deep", hp_escs(&e, a->name));
		return O_ANY;
	}
	E->memo[k][i] = 1;
	E->depth++;
	unsigned o = list_out(E, k, &a->members);
	E->depth--;
	E->memo[k][i] = (uint8_t)(2 | o << 2);
	return o;
}

static unsigned member_out(ev *E, hp_sudoers_akind k, const hp_sudoers_member *m)
{
	if (m->kind == HP_SUDOERS_SM_ALL)
		return leaf(M_YES, m->neg);
	if (m->kind == HP_SUDOERS_SM_ALIAS) {
		const hp_sudoers_alias *a = hp_sudoers_find_alias(E->s, k, m->text);
		if (a) {
			unsigned o = alias_out(E, k, a);
			return m->neg ? flip(o) : o;
		}
		/* an undefined alias: sudo matches the name as a plain word */
	}
	return leaf(k == SA_USER ? user_word(E, m->text) : M_MAYBE, m->neg);
}

static unsigned list_out(ev *E, hp_sudoers_akind k, const hp_sudoers_list *l)
{
	unsigned out = 0;
	for (uint32_t i = l->n; i-- > 0;) {
		unsigned o = member_out(E, k, &l->v[i]);
		out |= o & ~(unsigned)O_UNSPEC;
		if (!(o & O_UNSPEC))
			return out;
	}
	return out | O_UNSPEC;
}

/* Bit 0: the command (aliases expanded) holds a command under an even
 * number of negations, which can allow; bit 1: one under an odd number. */
static unsigned cmnd_bits(ev *E, const hp_sudoers_member *m)
{
	unsigned r = 0;
	if (m->kind == HP_SUDOERS_SM_ALL || m->kind == HP_SUDOERS_SM_CMND) {
		r = 1;
	} else if (m->kind == HP_SUDOERS_SM_ALIAS) {
		const hp_sudoers_alias *a = hp_sudoers_find_alias(E->s, SA_CMND, m->text);
		if (a) {
			size_t i = (size_t)(a - E->s->al[SA_CMND]);
			uint8_t st = E->memo[SA_CMND][i];
			if (st >= 2) {
				r = st >> 2;
			} else if (st == 1 || E->depth >= HP_SUDOERS_MAX_ALIAS_DEPTH) {
				r = 3;
			} else {
				E->memo[SA_CMND][i] = 1;
				E->depth++;
				for (uint32_t j = 0; j < a->members.n; j++)
					r |= cmnd_bits(E, &a->members.v[j]);
				E->depth--;
				E->memo[SA_CMND][i] = (uint8_t)(2 | r << 2);
			}
		}
	}
	return m->neg ? ((r & 1) << 1) | ((r >> 1) & 1) : r;
}

hp_tri hp_sudoers_grants(const hp_sudoers *s, const hp_userdb *db, const hp_sudo_subject *who,
                         hp_sudo_verdict *out)
{
	ev E = {.s = s, .db = db, .who = who};
	for (int k = 0; k < SA_NKINDS; k++)
		E.memo[k] = hp_xcalloc(s->nal[k] ? s->nal[k] : 1, 1);
	bool noauth = false;
	for (size_t i = 0; i < s->nnoauth; i++)
		if (s->noauth[i].type != ':' ||
		    (list_out(&E, SA_USER, &s->noauth[i].binding) & O_ALLOW))
			noauth = true;
	E.maybe[0] = '\0';

	const hp_sudoers_userspec *sure = NULL, *sure_nopw = NULL, *maybe = NULL;
	bool maybe_nopw = false;
	char maybe_why[256] = "";
	for (size_t i = 0; i < s->nus; i++) {
		const hp_sudoers_userspec *u = &s->us[i];
		E.maybe[0] = '\0';
		unsigned uo = list_out(&E, SA_USER, &u->users);
		if (!(uo & O_ALLOW))
			continue;
		bool grants = false, nopw = false;
		for (uint32_t p = 0; p < u->nprivs; p++) {
			const hp_sudoers_priv *pr = &u->privs[p];
			if (!(list_out(&E, SA_HOST, &pr->hosts) & O_ALLOW))
				continue;
			for (uint32_t c = 0; c < pr->nspecs; c++) {
				if (cmnd_bits(&E, &pr->specs[c].cmnd) & 1) {
					grants = true;
					nopw = nopw || pr->specs[c].nopasswd || noauth;
				}
			}
		}
		if (!grants)
			continue;
		if (uo == O_ALLOW) {
			if (!sure)
				sure = u;
			if (nopw && !sure_nopw)
				sure_nopw = u;
		} else if (!maybe) {
			maybe = u;
			maybe_nopw = nopw;
			snprintf(maybe_why, sizeof maybe_why, "%s",
			         E.maybe[0] ? E.maybe : "its user list may or may not match");
		}
	}
	for (int k = 0; k < SA_NKINDS; k++)
		free(E.memo[k]);

	hp_esc_buf e;
	const char *name = hp_escs(&e, who->name);
	if (sure) {
		const hp_sudoers_userspec *u = sure_nopw ? sure_nopw : sure;
		out->nopasswd = sure_nopw != NULL;
		snprintf(out->why, sizeof out->why, "%s:%u: \"%s\" grants %s%s", u->file, u->line,
		         u->text, name, out->nopasswd ? " without a password" : "");
		return HP_TRUE;
	}
	out->nopasswd = maybe_nopw;
	if (s->nproblems) {
		if (s->nproblems > 1)
			snprintf(out->why, sizeof out->why, "%s (and %zu more problems)",
			         s->problems[0], s->nproblems - 1);
		else
			snprintf(out->why, sizeof out->why, "%s", s->problems[0]);
		return HP_UNKNOWN;
	}
	if (maybe) {
		snprintf(out->why, sizeof out->why, "%s:%u: \"%s\" may grant %s: %s", maybe->file,
		         maybe->line, maybe->text, name, maybe_why);
		return HP_UNKNOWN;
	}
	out->nopasswd = false;
	if (!s->nmain && s->missing_main)
		snprintf(out->why, sizeof out->why, "%s does not exist: sudo grants nothing",
		         s->missing_main);
	else
		snprintf(out->why, sizeof out->why,
		         "no rule in the %zu sudoers file%s read grants %s", s->nfiles,
		         s->nfiles == 1 ? "" : "s", name);
	return HP_FALSE;
}

/* a sorted copy of a gid list */
static int cmp_gid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

hp_tri hp_sudoers_grants_user(const hp_sudoers *s, const hp_userdb *db, const char *user,
                              hp_sudo_verdict *out)
{
	const hp_user *u = hp_etc_userdb_user(db, user);
	if (!u) {
		hp_esc_buf e;
		out->nopasswd = false;
		snprintf(out->why, sizeof out->why, "no user \"%s\" in the passwd file",
		         hp_escs(&e, user));
		return HP_UNKNOWN;
	}
	const hp_user *first = hp_etc_userdb_user_by_uid(db, u->uid);
	hp_user_groups gu, gf;
	hp_etc_userdb_user_groups(db, u, &gu);
	hp_etc_userdb_user_groups(db, first, &gf);
	/* certain: in both lists; maybe: in one only */
	uint32_t *sure = hp_xmalloc((gu.ngids + 1) * sizeof *sure);
	uint32_t *maybe = hp_xmalloc((gu.ngids + gf.ngids + 1) * sizeof *maybe);
	size_t ns = 0, nm = 0;
	qsort(gf.gids, gf.ngids, sizeof *gf.gids, cmp_gid);
	qsort(gu.gids, gu.ngids, sizeof *gu.gids, cmp_gid);
	for (size_t i = 0; i < gu.ngids; i++) {
		if (bsearch(&gu.gids[i], gf.gids, gf.ngids, sizeof *gf.gids, cmp_gid))
			sure[ns++] = gu.gids[i];
		else
			maybe[nm++] = gu.gids[i];
	}
	for (size_t i = 0; i < gf.ngids; i++)
		if (!bsearch(&gf.gids[i], gu.gids, gu.ngids, sizeof *gu.gids, cmp_gid))
			maybe[nm++] = gf.gids[i];
	hp_sudo_subject who = {.name = first->name,
	                       .uid = first->uid,
	                       .gid = first->gid,
	                       .gids = sure,
	                       .ngids = ns,
	                       .maybe_gids = maybe,
	                       .nmaybe = nm};
	hp_tri r = hp_sudoers_grants(s, db, &who, out);
	free(sure);
	free(maybe);
	hp_etc_user_groups_free(&gu);
	hp_etc_user_groups_free(&gf);
	return r;
}
