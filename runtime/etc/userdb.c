/* userdb.c: parsing etc/passwd and etc/group into an indexed database. */
#include "etc/userdb.h"

#include <stdlib.h>
#include <string.h>

#include "lib/idxtab.h"
#include "lib/textesc.h"

struct hp_userdb {
	char *pw_text, *gr_text; /* copies, cut into fields in place */
	hp_user *users;
	size_t nusers;
	hp_group *groups;
	size_t ngroups;
	const char **members;   /* every group's members, one array */
	uint32_t *member_group; /* the group of members[i] */
	uint32_t *member_next;  /* next occurrence of the same name, or HP_IDX_NONE */
	uint32_t *member_tail;  /* for a name's first occurrence: its last one */
	size_t nmembers;
	uint32_t *gid_next; /* next group with the same gid, or HP_IDX_NONE */
	hp_idxtab user_by_name, user_by_uid, group_by_name, group_by_gid, member_by_name;
	char **findings;
	size_t nfindings;
};

static const char *user_name(const void *ctx, uint32_t i)
{
	return ((const hp_userdb *)ctx)->users[i].name;
}

static uint32_t user_uid(const void *ctx, uint32_t i)
{
	return ((const hp_userdb *)ctx)->users[i].uid;
}

static const char *group_name(const void *ctx, uint32_t i)
{
	return ((const hp_userdb *)ctx)->groups[i].name;
}

static uint32_t group_gid(const void *ctx, uint32_t i)
{
	return ((const hp_userdb *)ctx)->groups[i].gid;
}

static const char *member_name(const void *ctx, uint32_t i)
{
	return ((const hp_userdb *)ctx)->members[i];
}

static char *copy_text(const char *buf, size_t len)
{
	char *c = hp_xmalloc(len + 1);
	if (len)
		memcpy(c, buf, len);
	c[len] = '\0';
	return c;
}

static void add_finding(hp_userdb *db, char *msg)
{
	db->findings = hp_xrealloc(db->findings, (db->nfindings + 1) * sizeof *db->findings);
	db->findings[db->nfindings++] = msg;
}

static int parse_passwd(hp_userdb *db, const char *buf, size_t len, const char *file, hp_err *err)
{
	static const char layout[] = "name:password:uid:gid:gecos:home:shell";
	hp_colon_reader r;
	size_t cap = 0;
	char *f[7];
	int rc;
	db->pw_text = copy_text(buf, len);
	hp_etc_colon_init(&r, db->pw_text, len, file, "user");
	while ((rc = hp_etc_colon_next(&r, f, 7, layout, err)) > 0) {
		hp_user u = {.name = f[0],
		             .passwd = f[1],
		             .gecos = f[4],
		             .home = f[5],
		             .shell = f[6],
		             .line = r.line};
		if (hp_etc_colon_id(&r, f[2], "uid", &u.uid, err) < 0 ||
		    hp_etc_colon_id(&r, f[3], "gid", &u.gid, err) < 0)
			return -1;
		db->users = hp_xgrow(db->users, &cap, db->nusers + 1, sizeof *db->users);
		db->users[db->nusers++] = u;
	}
	if (rc < 0)
		return -1;
	hp_idxtab_init(&db->user_by_name, db->nusers);
	hp_idxtab_init(&db->user_by_uid, db->nusers);
	for (uint32_t i = 0; i < db->nusers; i++) {
		const hp_user *u = &db->users[i];
		uint32_t prev = hp_idxtab_add_name(&db->user_by_name, i, user_name, db);
		if (prev != HP_IDX_NONE) {
			hp_esc_buf e;
			hp_err_set(err, "%s:%u: duplicate user \"%s\" (first at line %u)", file,
			           u->line, hp_escs(&e, u->name), db->users[prev].line);
			return -1;
		}
		hp_idxtab_add_id(&db->user_by_uid, i, user_uid, db);
		if (u->uid == 0 && strcmp(u->name, "root") != 0) {
			hp_esc_buf e;
			add_finding(db, hp_xasprintf("%s:%u: account \"%s\" has uid 0 besides root",
			                             file, u->line, hp_escs(&e, u->name)));
		}
	}
	return 0;
}

/* Cut a member list in place; members must be names like user names. */
static int split_members(hp_userdb *db, const hp_colon_reader *r, char *list, size_t *cap,
                         uint32_t group, hp_err *err)
{
	if (!*list)
		return 0;
	for (char *s = list;;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (!*s) {
			hp_err_set(err, "%s:%u: empty member name in the member list", r->file,
			           r->line);
			return -1;
		}
		for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
			if (*p <= 0x20 || *p == 0x7f) {
				hp_esc_buf e;
				hp_err_set(err,
				           "%s:%u: member name \"%s\" contains a blank or control "
				           "character",
				           r->file, r->line, hp_escs(&e, s));
				return -1;
			}
		}
		size_t old = *cap;
		db->members = hp_xgrow(db->members, cap, db->nmembers + 1, sizeof *db->members);
		if (*cap != old)
			db->member_group =
			    hp_xrealloc(db->member_group, *cap * sizeof *db->member_group);
		db->members[db->nmembers] = s;
		db->member_group[db->nmembers++] = group;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

static int parse_group(hp_userdb *db, const char *buf, size_t len, const char *file, hp_err *err)
{
	static const char layout[] = "name:password:gid:members";
	hp_colon_reader r;
	size_t cap = 0, mcap = 0;
	size_t *first = NULL; /* members[first[i]] is group i's first member */
	char *f[4];
	int rc;
	db->gr_text = copy_text(buf, len);
	hp_etc_colon_init(&r, db->gr_text, len, file, "group");
	while ((rc = hp_etc_colon_next(&r, f, 4, layout, err)) > 0) {
		hp_group g = {.name = f[0], .passwd = f[1], .line = r.line};
		size_t start = db->nmembers;
		if (hp_etc_colon_id(&r, f[2], "gid", &g.gid, err) < 0 ||
		    split_members(db, &r, f[3], &mcap, (uint32_t)db->ngroups, err) < 0) {
			rc = -1;
			break;
		}
		g.nmembers = db->nmembers - start;
		size_t old = cap;
		db->groups = hp_xgrow(db->groups, &cap, db->ngroups + 1, sizeof *db->groups);
		if (cap != old)
			first = hp_xrealloc(first, cap * sizeof *first);
		first[db->ngroups] = start;
		db->groups[db->ngroups++] = g;
	}
	if (rc < 0) {
		free(first);
		return -1;
	}
	/* members are linked once their array stops moving */
	for (size_t i = 0; i < db->ngroups; i++)
		db->groups[i].members = db->groups[i].nmembers ? db->members + first[i] : NULL;
	free(first);

	hp_idxtab_init(&db->group_by_name, db->ngroups);
	hp_idxtab_init(&db->group_by_gid, db->ngroups);
	db->gid_next = hp_xmalloc((db->ngroups ? db->ngroups : 1) * sizeof *db->gid_next);
	uint32_t *gid_tail = hp_xmalloc((db->ngroups ? db->ngroups : 1) * sizeof *gid_tail);
	for (uint32_t i = 0; i < db->ngroups; i++) {
		const hp_group *g = &db->groups[i];
		uint32_t prev = hp_idxtab_add_name(&db->group_by_name, i, group_name, db);
		if (prev != HP_IDX_NONE) {
			hp_esc_buf e;
			hp_err_set(err, "%s:%u: duplicate group \"%s\" (first at line %u)", file,
			           g->line, hp_escs(&e, g->name), db->groups[prev].line);
			free(gid_tail);
			return -1;
		}
		db->gid_next[i] = HP_IDX_NONE;
		uint32_t head = hp_idxtab_add_id(&db->group_by_gid, i, group_gid, db);
		if (head == HP_IDX_NONE) {
			gid_tail[i] = i;
		} else {
			db->gid_next[gid_tail[head]] = i;
			gid_tail[head] = i;
		}
	}
	free(gid_tail);

	size_t nm = db->nmembers ? db->nmembers : 1;
	hp_idxtab_init(&db->member_by_name, db->nmembers);
	db->member_next = hp_xmalloc(nm * sizeof *db->member_next);
	db->member_tail = hp_xmalloc(nm * sizeof *db->member_tail);
	for (uint32_t i = 0; i < db->nmembers; i++) {
		db->member_next[i] = HP_IDX_NONE;
		uint32_t head = hp_idxtab_add_name(&db->member_by_name, i, member_name, db);
		if (head == HP_IDX_NONE) {
			db->member_tail[i] = i;
		} else {
			db->member_next[db->member_tail[head]] = i;
			db->member_tail[head] = i;
		}
	}
	return 0;
}

hp_userdb *hp_etc_userdb_parse(const char *passwd, size_t passwd_len, const char *passwd_file,
                           const char *group, size_t group_len, const char *group_file, hp_err *err)
{
	hp_userdb *db = hp_xcalloc(1, sizeof *db);
	if (parse_passwd(db, passwd, passwd_len, passwd_file, err) < 0 ||
	    parse_group(db, group, group_len, group_file, err) < 0) {
		hp_etc_userdb_free(db);
		return NULL;
	}
	return db;
}

void hp_etc_userdb_free(hp_userdb *db)
{
	if (!db)
		return;
	free(db->pw_text);
	free(db->gr_text);
	free(db->users);
	free(db->groups);
	free(db->members);
	free(db->member_group);
	free(db->member_next);
	free(db->member_tail);
	free(db->gid_next);
	hp_idxtab_free(&db->user_by_name);
	hp_idxtab_free(&db->user_by_uid);
	hp_idxtab_free(&db->group_by_name);
	hp_idxtab_free(&db->group_by_gid);
	hp_idxtab_free(&db->member_by_name);
	for (size_t i = 0; i < db->nfindings; i++)
		free(db->findings[i]);
	free(db->findings);
	free(db);
}

size_t hp_etc_userdb_nusers(const hp_userdb *db)
{
	return db->nusers;
}

const hp_user *hp_etc_userdb_user_at(const hp_userdb *db, size_t i)
{
	return i < db->nusers ? &db->users[i] : NULL;
}

size_t hp_etc_userdb_ngroups(const hp_userdb *db)
{
	return db->ngroups;
}

const hp_group *hp_etc_userdb_group_at(const hp_userdb *db, size_t i)
{
	return i < db->ngroups ? &db->groups[i] : NULL;
}

const hp_user *hp_etc_userdb_user(const hp_userdb *db, const char *name)
{
	uint32_t i = hp_idxtab_find_name(&db->user_by_name, name, user_name, db);
	return i == HP_IDX_NONE ? NULL : &db->users[i];
}

const hp_user *hp_etc_userdb_user_by_uid(const hp_userdb *db, uint32_t uid)
{
	uint32_t i = hp_idxtab_find_id(&db->user_by_uid, uid, user_uid, db);
	return i == HP_IDX_NONE ? NULL : &db->users[i];
}

const hp_group *hp_etc_userdb_group(const hp_userdb *db, const char *name)
{
	uint32_t i = hp_idxtab_find_name(&db->group_by_name, name, group_name, db);
	return i == HP_IDX_NONE ? NULL : &db->groups[i];
}

const hp_group *hp_etc_userdb_group_by_gid(const hp_userdb *db, uint32_t gid)
{
	uint32_t i = hp_idxtab_find_id(&db->group_by_gid, gid, group_gid, db);
	return i == HP_IDX_NONE ? NULL : &db->groups[i];
}

static uint32_t gid_of_out(const void *ctx, uint32_t i)
{
	return ((const hp_user_groups *)ctx)->gids[i];
}

void hp_etc_userdb_user_groups(const hp_userdb *db, const hp_user *u, hp_user_groups *out)
{
	memset(out, 0, sizeof *out);
	size_t n = 1;
	uint32_t head = hp_idxtab_find_name(&db->member_by_name, u->name, member_name, db);
	for (uint32_t m = head; m != HP_IDX_NONE; m = db->member_next[m])
		n++;
	hp_idxtab seen;
	hp_idxtab_init(&seen, n);
	size_t cap = 0;
	out->gids = hp_xgrow(out->gids, &cap, 1, sizeof *out->gids);
	out->gids[0] = u->gid;
	hp_idxtab_add_id(&seen, 0, gid_of_out, out);
	out->ngids = 1;
	for (uint32_t m = head; m != HP_IDX_NONE; m = db->member_next[m]) {
		out->gids = hp_xgrow(out->gids, &cap, out->ngids + 1, sizeof *out->gids);
		out->gids[out->ngids] = db->groups[db->member_group[m]].gid;
		if (hp_idxtab_add_id(&seen, (uint32_t)out->ngids, gid_of_out, out) == HP_IDX_NONE)
			out->ngids++;
	}
	hp_idxtab_free(&seen);
	size_t ncap = 0;
	for (size_t k = 0; k < out->ngids; k++) {
		uint32_t g = hp_idxtab_find_id(&db->group_by_gid, out->gids[k], group_gid, db);
		for (; g != HP_IDX_NONE; g = db->gid_next[g]) {
			out->names =
			    hp_xgrow(out->names, &ncap, out->nnames + 1, sizeof *out->names);
			out->names[out->nnames++] = db->groups[g].name;
		}
	}
}

void hp_etc_user_groups_free(hp_user_groups *g)
{
	free(g->gids);
	free(g->names);
	memset(g, 0, sizeof *g);
}

size_t hp_etc_userdb_nfindings(const hp_userdb *db)
{
	return db->nfindings;
}

const char *hp_etc_userdb_finding(const hp_userdb *db, size_t i)
{
	return i < db->nfindings ? db->findings[i] : NULL;
}
