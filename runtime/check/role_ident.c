/* role_ident.c: a role's identity for one check (role_ident.h). */
#include "check/role_ident.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os/sysx.h"

static uint64_t all_caps(void)
{
	hp_err e;
	int last = hp_os_cap_last_cap(&e);
	if (last < 0)
		last = CAP_LAST_CAP;
	return last >= 63 ? UINT64_MAX : (1ull << (last + 1)) - 1;
}

static void ident_fail(hp_role_ident *ri, hp_role r, const char *msg)
{
	ri->ok = false;
	hp_err_set(&ri->why, "role %s cannot run: %s", hp_role_names[r], msg);
}

/* --container: the recording shows what that identity sees there */
void hp_role_ident_container(hp_role_ident *ri, hp_role r, bool selected)
{
	memset(ri, 0, sizeof *ri);
	if (!selected) {
		ident_fail(ri, r, "in a container only the role of the container's own user runs");
		return;
	}
	int n = getgroups(0, NULL);
	if (n < 0 || n > HP_ID_MAX_GROUPS) {
		ident_fail(ri, r, "cannot read this process's groups");
		return;
	}
	ri->groups = hp_xcalloc((size_t)n + 1, sizeof *ri->groups);
	n = getgroups(n, ri->groups);
	if (n < 0) {
		ident_fail(ri, r, "cannot read this process's groups");
		return;
	}
	ri->ngroups = (size_t)n;
	hp_identity *id = &ri->id;
	id->kind = HP_ID_UNCHANGED;
	id->uid = geteuid();
	id->gid = getegid();
	id->groups = ri->groups;
	id->ngroups = ri->ngroups;
	id->dumpable = 0;
	ri->cred.uid = id->uid;
	ri->cred.gid = id->gid;
	ri->cred.groups = ri->groups;
	ri->cred.ngroups = ri->ngroups;
	ri->ok = true;
}

void hp_role_ident_of(hp_role_ident *ri, hp_role r, const hp_bc_role *br, const hp_value *iv,
                      hp_sysbackend *sys)
{
	memset(ri, 0, sizeof *ri);
	if (!br) {
		ident_fail(ri, r, "the policy does not declare it");
		return;
	}
	if (iv->state != HP_VAL_KNOWN) {
		hp_buf b = {0};
		hp_buf_puts(&b, "its identity is ");
		hp_value_format(&b, iv);
		ident_fail(ri, r, b.data);
		hp_buf_free(&b);
		return;
	}
	const char *name = NULL;
	int64_t uid = -1;
	if (iv->type == HP_T_USER) {
		name = iv->u.user->name.p;
	} else if (iv->type == HP_T_INT) {
		uid = iv->u.i;
		if (uid < 0 || uid >= 4294967295LL) {
			char d[64];
			snprintf(d, sizeof d, "its uid %" PRId64 " is not a uid", uid);
			ident_fail(ri, r, d);
			return;
		}
	} else {
		ident_fail(ri, r, "its identity is neither a uid nor a user");
		return;
	}
	if (uid == 0 && !(br->flags & (HP_BC_ROLE_KEEP_CAPS | HP_BC_ROLE_NO_CAPS))) {
		/* root as the check itself runs: nothing to switch, nothing to
		 * look up (its groups are the check's own) */
		ri->id.kind = HP_ID_UNCHANGED;
		ri->id.no_new_privs = (br->flags & HP_BC_ROLE_NO_NEW_PRIVS) != 0;
		ri->cred.caps = all_caps();
		ri->ok = true;
		return;
	}
	uid_t u;
	gid_t g;
	hp_err e;
	hp_tri t = hp_probe_sys_user_ids(sys, name, uid, &u, &g, &ri->groups, &ri->ngroups, &e);
	if (t != HP_TRUE) {
		char d[600];
		if (t == HP_FALSE && name)
			snprintf(d, sizeof d, "no user \"%s\" in etc/passwd", name);
		else if (t == HP_FALSE)
			snprintf(d, sizeof d,
			         "uid %" PRId64
			         " has no entry in etc/passwd: its groups are unknown",
			         uid);
		else
			snprintf(d, sizeof d, "%s", e.msg);
		ident_fail(ri, r, d);
		return;
	}
	if (iv->type == HP_T_USER && (int64_t)u != iv->u.user->uid) {
		ident_fail(ri, r, "etc/passwd changed while the check ran");
		return;
	}
	hp_identity *id = &ri->id;
	id->uid = u;
	id->gid = g;
	id->groups = ri->groups;
	id->ngroups = ri->ngroups;
	id->no_new_privs = (br->flags & HP_BC_ROLE_NO_NEW_PRIVS) != 0;
	id->dumpable = 0;
	if (br->flags & HP_BC_ROLE_KEEP_CAPS) {
		id->kind = HP_ID_KEEP_CAPS;
		id->keep_caps = br->keep_caps;
	} else if (br->flags & HP_BC_ROLE_NO_CAPS) {
		id->kind = HP_ID_NO_CAPS;
	} else if (u == 0) {
		id->kind = HP_ID_UNCHANGED;
	} else {
		id->kind = HP_ID_PLAIN;
	}
	ri->cred.uid = u;
	ri->cred.gid = g;
	ri->cred.groups = ri->groups;
	ri->cred.ngroups = ri->ngroups;
	ri->cred.caps = id->kind == HP_ID_KEEP_CAPS   ? id->keep_caps
	                : id->kind == HP_ID_UNCHANGED ? all_caps()
	                                              : 0;
	ri->ok = true;
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorted, without duplicates and without the primary gid. */
static size_t norm_groups(gid_t *g, size_t n, gid_t primary)
{
	qsort(g, n, sizeof *g, cmp_gid);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (g[i] != primary && (k == 0 || g[k - 1] != g[i]))
			g[k++] = g[i];
	return k;
}

bool hp_role_ident_is_current(const hp_role_ident *ri, hp_role r, hp_err *why)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0) {
		hp_err_set(why, "role %s not run: cannot read this process's ids",
		           hp_role_names[r]);
		return false;
	}
	if (ru != ri->id.uid || eu != ri->id.uid || su != ri->id.uid) {
		hp_err_set(why, "role %s not run: switching to uid %u needs root", hp_role_names[r],
		           (unsigned)ri->id.uid);
		return false;
	}
	if (rg != ri->id.gid || eg != ri->id.gid || sg != ri->id.gid) {
		hp_err_set(why,
		           "role %s not run: this process's gid is %u, the role's is %u, and "
		           "switching needs root",
		           hp_role_names[r], (unsigned)eg, (unsigned)ri->id.gid);
		return false;
	}
	int n = getgroups(0, NULL);
	if (n < 0 || n > HP_ID_MAX_GROUPS) {
		hp_err_set(why, "role %s not run: cannot read this process's groups",
		           hp_role_names[r]);
		return false;
	}
	gid_t *have = hp_xcalloc((size_t)n + 1, sizeof *have);
	gid_t *want = hp_xcalloc(ri->ngroups + 1, sizeof *want);
	n = getgroups(n, have);
	memcpy(want, ri->groups, ri->ngroups * sizeof *want);
	size_t nh = n < 0 ? 0 : norm_groups(have, (size_t)n, ri->id.gid);
	size_t nw = norm_groups(want, ri->ngroups, ri->id.gid);
	bool same = n >= 0 && nh == nw && memcmp(have, want, nh * sizeof *have) == 0;
	free(have);
	free(want);
	if (!same)
		hp_err_set(why,
		           "role %s not run: this process's supplementary groups are not the "
		           "role's (from etc/group), and setting them needs root",
		           hp_role_names[r]);
	return same;
}

int hp_role_ident_self_restrict(const hp_identity *id)
{
	if (id->kind == HP_ID_NO_CAPS || id->kind == HP_ID_PLAIN) {
		cap_t c = cap_init();
		int r = c ? cap_set_proc(c) : -1;
		if (c)
			cap_free(c);
		if (r < 0)
			return -1;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
			return -1;
	}
	if (id->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

bool hp_role_ident_seen_by_others(const hp_role_ident *ri)
{
	return ri->id.uid != 0 || ri->cred.uid != 0;
}

void hp_role_ident_free(hp_role_ident *ri)
{
	free(ri->groups);
	ri->groups = NULL;
	ri->ngroups = 0;
}
