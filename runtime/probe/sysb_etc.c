/* sysb_etc.c: users, groups, passwords, PAM and sudoers grants for the
 * live/rootfs backend, from the root's own etc files (etcview.h), turned
 * into the VM's values. */
#include "probe/sysb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textesc.h"
#include "probe/etcview.h"

struct hp_sysb_etcdata {
	hp_etcview *view;
};

static hp_etcview *view_of(hp_sysbackend *s)
{
	if (!s->etc) {
		s->etc = hp_xcalloc(1, sizeof *s->etc);
		s->etc->view = hp_probe_etcview_new(&s->root, s->read_cap);
	}
	return s->etc->view;
}

void hp_probe_sys_secrets_here(hp_sysbackend *s)
{
	hp_probe_etcview_secrets_here(view_of(s));
}

void hp_probe_sysb_etc_preload(hp_sysbackend *s, const bool used[HP_PROBE_COUNT])
{
	unsigned what = 0;
	if (used[HP_PROBE_USER] || used[HP_PROBE_USER_BY_UID] || used[HP_PROBE_GROUP] ||
	    used[HP_PROBE_SUDOERS_GRANTS])
		what |= HP_ETC_USERS;
	if (used[HP_PROBE_USERS_WITH_UID])
		what |= HP_ETC_USERS;
	if (used[HP_PROBE_GROUPS_WITH_GID])
		what |= HP_ETC_USERS;
	if (used[HP_PROBE_USERS_UNLOCKED])
		what |= HP_ETC_USERS | HP_ETC_SHADOW;
	if (used[HP_PROBE_PASSWORD_EMPTY] || used[HP_PROBE_PASSWORD_LOCKED] ||
	    used[HP_PROBE_GROUP_PASSWORD_SET] || used[HP_PROBE_GROUP_ADMINS] ||
	    used[HP_PROBE_PAM_PASSWORDLESS] || used[HP_PROBE_GSHADOW_MEMBERS])
		what |= HP_ETC_SHADOW;
	if (used[HP_PROBE_SUDOERS_GRANTS])
		what |= HP_ETC_SUDOERS;
	hp_probe_etcview_load(view_of(s), what);
}

static bool copy_str(hp_pool *pool, const char *s, hp_str *out)
{
	size_t n = strlen(s);
	if (n > HP_VALUE_MAX_STRING)
		return false;
	char *c = hp_pool_strndup(pool, s, n);
	if (!c)
		return false;
	*out = (hp_str){c, (uint32_t)n};
	return true;
}

static bool copy_list(hp_pool *pool, const char *const *items, size_t n, hp_list *out)
{
	if (n > HP_VALUE_MAX_LIST)
		return false;
	hp_str *v = hp_pool_alloc(pool, (n ? n : 1) * sizeof *v);
	if (!v)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!copy_str(pool, items[i], &v[i]))
			return false;
	*out = (hp_list){v, (uint32_t)n};
	return true;
}

static const char too_big[] = "the entry is larger than a value can hold, or the memory limit";

static hp_value user_value(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	hp_etc_user eu;
	hp_err e;
	hp_tri t;
	if (p == HP_PROBE_USER) {
		t = hp_probe_etcview_user(view_of(s), arg->u.s.p, 0, &eu, &e);
	} else if (arg->u.i < 0 || arg->u.i >= 4294967295LL) {
		hp_err_set(&e, "user_by_uid(%lld): not a uid", (long long)arg->u.i);
		t = HP_UNKNOWN;
	} else {
		t = hp_probe_etcview_user(view_of(s), NULL, (uint32_t)arg->u.i, &eu, &e);
	}
	if (t == HP_FALSE)
		return hp_v_absent(HP_T_USER, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_user *u = hp_pool_alloc(pool, sizeof *u);
	bool ok = u && copy_str(pool, eu.name, &u->name) && copy_str(pool, eu.home, &u->home) &&
	          copy_str(pool, eu.shell, &u->shell) &&
	          copy_list(pool, eu.groups, eu.ngroups, &u->groups);
	if (ok) {
		u->uid = eu.uid;
		u->gid = eu.gid;
	}
	hp_probe_etc_user_free(&eu);
	return ok ? hp_v_user(u) : hp_v_unknown(HP_T_USER, too_big);
}

static hp_value group_value(hp_sysbackend *s, hp_probe_id p, const char *name, hp_pool *pool)
{
	hp_etc_group eg;
	hp_err e;
	hp_tri t = hp_probe_etcview_group(view_of(s), name, &eg, &e);
	if (t == HP_FALSE)
		return hp_v_absent(HP_T_GROUP, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_group *g = hp_pool_alloc(pool, sizeof *g);
	if (!g || !copy_str(pool, eg.name, &g->name) ||
	    !copy_list(pool, eg.members, eg.nmembers, &g->members))
		return hp_v_unknown(HP_T_GROUP, too_big);
	g->gid = eg.gid;
	return hp_v_group(g);
}

/* A list of names from the etc view as the probe's answer: the view's
 * answer t (unknown with e), names freed here (the strings are the view's). */
static hp_value names_answer(hp_probe_id p, hp_tri t, const char **names, size_t n,
                             const hp_err *e, hp_pool *pool)
{
	if (t != HP_TRUE) {
		free(names);
		return hp_probe_sysb_unknown(pool, p, "%s", e->msg);
	}
	hp_list l;
	bool ok = copy_list(pool, names, n, &l);
	free(names);
	return ok ? hp_v_list(l.items, l.n) : hp_v_unknown(HP_T_LIST, too_big);
}

static hp_value uid_accounts(hp_sysbackend *s, hp_probe_id p, int64_t uid, hp_pool *pool)
{
	if (uid < 0 || uid >= 4294967295LL)
		return hp_probe_sysb_unknown(pool, p, "users_with_uid(%lld): not a uid", (long long)uid);
	const char **names;
	size_t n;
	hp_err e;
	hp_tri t = hp_probe_etcview_users_with_uid(view_of(s), (uint32_t)uid, &names, &n, &e);
	return names_answer(p, t, names, n, &e, pool);
}

static hp_value unlocked_accounts(hp_sysbackend *s, hp_probe_id p, hp_pool *pool)
{
	const char **names;
	size_t n;
	hp_err e;
	hp_tri t = hp_probe_etcview_users_unlocked(view_of(s), &names, &n, &e);
	return names_answer(p, t, names, n, &e, pool);
}

static hp_value gid_groups(hp_sysbackend *s, hp_probe_id p, int64_t gid, hp_pool *pool)
{
	if (gid < 0 || gid >= 4294967295LL)
		return hp_probe_sysb_unknown(pool, p, "groups_with_gid(%lld): not a gid", (long long)gid);
	const char **names;
	size_t n;
	hp_err e;
	hp_tri t = hp_probe_etcview_groups_with_gid(view_of(s), (uint32_t)gid, &names, &n, &e);
	return names_answer(p, t, names, n, &e, pool);
}

/* group_admins and gshadow_members: names from etc/gshadow's entry */
static hp_value gshadow_names(hp_sysbackend *s, hp_probe_id p, const char *name, hp_pool *pool)
{
	char **names;
	size_t n;
	int absent;
	hp_err e;
	hp_tri t = p == HP_PROBE_GROUP_ADMINS
	               ? hp_probe_etcview_group_admins(view_of(s), name, &names, &n, &absent, &e)
	               : hp_probe_etcview_gshadow_members(view_of(s), name, &names, &n, &absent,
	                                                  &e);
	if (absent)
		return hp_v_absent(HP_T_LIST, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_list l;
	bool ok = copy_list(pool, (const char *const *)names, n, &l);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok ? hp_v_list(l.items, l.n) : hp_v_unknown(HP_T_LIST, too_big);
}

/* pam_passwordless("SERVICE:USER:CALLER") */
static hp_tri pam_question(hp_sysbackend *s, const char *arg, int *absent, hp_err *e)
{
	*absent = 0;
	char buf[512];
	hp_esc_buf eb;
	if (strlen(arg) >= sizeof buf) {
		hp_err_set(e, "pam_passwordless: an argument of %zu bytes", strlen(arg));
		return HP_UNKNOWN;
	}
	snprintf(buf, sizeof buf, "%s", arg);
	char *user = strchr(buf, ':');
	char *caller = user ? strchr(user + 1, ':') : NULL;
	if (!user || !caller || strchr(caller + 1, ':') || user == buf || caller == user + 1 ||
	    !caller[1]) {
		hp_err_set(e, "pam_passwordless(\"%s\"): not SERVICE:USER:CALLER", hp_escs(&eb, arg));
		return HP_UNKNOWN;
	}
	*user++ = '\0';
	*caller++ = '\0';
	return hp_probe_etcview_pam_passwordless(view_of(s), buf, user, caller, absent, e);
}

hp_value hp_probe_sysb_etc(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	switch (p) {
	case HP_PROBE_USERS_WITH_UID:
		return uid_accounts(s, p, arg->u.i, pool);
	case HP_PROBE_USERS_UNLOCKED:
		return unlocked_accounts(s, p, pool);
	case HP_PROBE_USER:
	case HP_PROBE_USER_BY_UID:
		return user_value(s, p, arg, pool);
	case HP_PROBE_GROUP:
		return group_value(s, p, arg->u.s.p, pool);
	case HP_PROBE_GROUPS_WITH_GID:
		return gid_groups(s, p, arg->u.i, pool);
	case HP_PROBE_GROUP_ADMINS:
	case HP_PROBE_GSHADOW_MEMBERS:
		return gshadow_names(s, p, arg->u.s.p, pool);
	case HP_PROBE_PASSWORD_EMPTY:
	case HP_PROBE_PASSWORD_LOCKED: {
		hp_err e;
		int absent;
		hp_pw_state st = hp_probe_etcview_password_state(view_of(s), arg->u.s.p, &absent, &e);
		if (absent)
			return hp_v_absent(HP_T_BOOL, hp_probe_sysb_reason(pool, "%s", e.msg));
		if (st == HP_PW_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		return hp_v_bool(st == (p == HP_PROBE_PASSWORD_EMPTY ? HP_PW_EMPTY : HP_PW_LOCKED));
	}
	case HP_PROBE_GROUP_PASSWORD_SET:
	case HP_PROBE_PAM_PASSWORDLESS:
	case HP_PROBE_SUDOERS_GRANTS: {
		hp_err e;
		int absent;
		hp_tri t = p == HP_PROBE_GROUP_PASSWORD_SET
		               ? hp_probe_etcview_group_password_set(view_of(s), arg->u.s.p, &absent, &e)
		           : p == HP_PROBE_PAM_PASSWORDLESS
		               ? pam_question(s, arg->u.s.p, &absent, &e)
		               : hp_probe_etcview_sudoers_grants(view_of(s), arg->u.s.p, &absent, &e);
		if (absent)
			return hp_v_absent(HP_T_BOOL, hp_probe_sysb_reason(pool, "%s", e.msg));
		if (t == HP_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		return hp_v_bool(t == HP_TRUE);
	}
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, ETC, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered from etc", hp_probes[p].name);
}

hp_tri hp_probe_sysb_etc_user_ids(hp_sysbackend *s, const char *name, int64_t uid, uid_t *out_uid,
                            gid_t *out_gid, gid_t **gids, size_t *ngids, hp_err *why)
{
	*gids = NULL;
	*ngids = 0;
	hp_etc_user eu;
	hp_tri t = hp_probe_etcview_user(view_of(s), name, (uint32_t)uid, &eu, why);
	if (t != HP_TRUE)
		return t;
	*out_uid = eu.uid;
	*out_gid = eu.gid;
	*gids = hp_xcalloc(eu.ngids ? eu.ngids : 1, sizeof **gids);
	for (size_t i = 0; i < eu.ngids; i++)
		(*gids)[i] = eu.gids[i];
	*ngids = eu.ngids;
	hp_probe_etc_user_free(&eu);
	return HP_TRUE;
}

void hp_probe_sysb_etc_free(hp_sysbackend *s)
{
	if (!s->etc)
		return;
	hp_probe_etcview_free(s->etc->view);
	free(s->etc);
	s->etc = NULL;
}
