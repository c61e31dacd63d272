/* identity.c: setpriv-style and NOPRIV-style switches, checked and read back. */
#include "os/identity.h"

#include <errno.h>
#include <inttypes.h>
#include <grp.h>
#include <linux/securebits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os/capstate.h"
#include "os/sysx.h"

/* What HP_ID_NO_CAPS sets and locks. */
#define NOPRIV_SECUREBITS                                                                        \
	(SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |                         \
	 SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE | \
	 SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED)

static hp_tri fail(hp_err *why, const char *step)
{
	hp_err_set(why, "identity: %s: %s", step, strerror(errno));
	return HP_UNKNOWN;
}

static hp_tri threads_one(hp_err *why)
{
	char buf[16384];
	if (hp_os_proc_read_small("self/status", buf, sizeof buf, why) < 0)
		return HP_UNKNOWN;
	const char *t = strstr(buf, "\nThreads:");
	if (!t || strtol(t + 9, NULL, 10) != 1) {
		hp_err_set(why, "identity: the process is not single-threaded");
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

static hp_tri check_input(const hp_identity *id, int last, hp_err *why)
{
	if (id->uid == (uid_t)-1 || id->gid == (gid_t)-1) {
		hp_err_set(why,
		           "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
		return HP_UNKNOWN;
	}
	if (id->ngroups > HP_ID_MAX_GROUPS) {
		hp_err_set(why, "identity: more than %d supplementary groups", HP_ID_MAX_GROUPS);
		return HP_UNKNOWN;
	}
	for (size_t i = 0; i < id->ngroups; i++)
		if (id->groups[i] == (gid_t)-1) {
			hp_err_set(why, "identity: supplementary group -1 (4294967295)");
			return HP_UNKNOWN;
		}
	uint64_t valid = last == 63 ? UINT64_MAX : (1ull << (last + 1)) - 1;
	if (id->kind == HP_ID_KEEP_CAPS && (id->keep_caps & ~valid)) {
		hp_err_set(why, "identity: a kept capability is past the kernel's last (%d)", last);
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

static int final_dumpable(const hp_identity *id)
{
	return id->kind == HP_ID_NO_CAPS ? 0 : (id->dumpable ? 1 : 0);
}

/* After the uid changes the kernel sets dumpable to fs.suid_dumpable, which
 * may be 1: a process that is to end non-dumpable becomes so at once, so
 * that no process of the new uid can attach before the sets are emptied
 * (bubblewrap CVE-2016-8659). */
static hp_tri early_nondumpable(const hp_identity *id, hp_err *why)
{
	if (final_dumpable(id) == 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return fail(why, "PR_SET_DUMPABLE");
	return HP_TRUE;
}

static hp_tri set_ids(const hp_identity *id, hp_err *why)
{
	if (setgroups(id->ngroups, id->groups) < 0)
		return fail(why, "setgroups");
	if (setresgid(id->gid, id->gid, id->gid) < 0)
		return fail(why, "setresgid");
	if (setresuid(id->uid, id->uid, id->uid) < 0)
		return fail(why, "setresuid");
	return early_nondumpable(id, why);
}

/* Set permitted, effective and inheritable to mask. */
static hp_tri set_pei(uint64_t mask, int last, hp_err *why)
{
	cap_t c = cap_init();
	if (!c)
		return fail(why, "cap_init");
	for (int i = 0; i <= last; i++) {
		if (!((mask >> i) & 1))
			continue;
		cap_value_t v = i;
		if (cap_set_flag(c, CAP_PERMITTED, 1, &v, CAP_SET) < 0 ||
		    cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_SET) < 0 ||
		    cap_set_flag(c, CAP_INHERITABLE, 1, &v, CAP_SET) < 0) {
			cap_free(c);
			return fail(why, "cap_set_flag");
		}
	}
	int r = cap_set_proc(c);
	int e = errno;
	cap_free(c);
	errno = e;
	return r < 0 ? fail(why, "cap_set_proc") : HP_TRUE;
}

static hp_tri become_keep_caps(const hp_identity *id, int last, hp_err *why)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return fail(why, "PR_SET_KEEPCAPS 1");
	if (prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) != 1) {
		hp_err_set(why, "identity: PR_SET_KEEPCAPS 1 did not take");
		return HP_UNKNOWN;
	}
	if (set_ids(id, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (set_pei(id->keep_caps, last, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (cap_reset_ambient() < 0)
		return fail(why, "clearing the ambient set");
	for (int i = 0; i <= last; i++)
		if (((id->keep_caps >> i) & 1) && cap_set_ambient((cap_value_t)i, CAP_SET) < 0)
			return fail(why, "raising an ambient capability");
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return fail(why, "PR_SET_KEEPCAPS 0");
	return HP_TRUE;
}

static hp_tri become_no_caps(const hp_identity *id, int last, hp_err *why)
{
	if (setgroups(id->ngroups, id->groups) < 0)
		return fail(why, "setgroups");
	if (setresgid(id->gid, id->gid, id->gid) < 0)
		return fail(why, "setresgid");
	/* both need CAP_SETPCAP, so before the uid changes */
	for (int i = 0; i <= last; i++)
		if (prctl(PR_CAPBSET_DROP, i, 0, 0, 0) < 0)
			return fail(why, "PR_CAPBSET_DROP");
	if (prctl(PR_SET_SECUREBITS, NOPRIV_SECUREBITS, 0, 0, 0) < 0)
		return fail(why, "PR_SET_SECUREBITS");
	if (setresuid(id->uid, id->uid, id->uid) < 0)
		return fail(why, "setresuid");
	if (early_nondumpable(id, why) != HP_TRUE)
		return HP_UNKNOWN;
	/* NO_SETUID_FIXUP kept the sets across the uid change: empty them */
	if (set_pei(0, last, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (cap_reset_ambient() < 0)
		return fail(why, "clearing the ambient set");
	return HP_TRUE;
}

static hp_tri become_plain(const hp_identity *id, int last, hp_err *why)
{
	if (set_ids(id, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (set_pei(0, last, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (cap_reset_ambient() < 0)
		return fail(why, "clearing the ambient set");
	return HP_TRUE;
}

hp_tri hp_os_identity_become(const hp_identity *id, hp_err *why)
{
	if (id->kind == HP_ID_UNCHANGED)
		return HP_TRUE;
	if (threads_one(why) != HP_TRUE)
		return HP_UNKNOWN;
	int last = hp_os_cap_last_cap(why);
	if (last < 0)
		return HP_UNKNOWN;
	if (check_input(id, last, why) != HP_TRUE)
		return HP_UNKNOWN;
	hp_tri t;
	switch (id->kind) {
	case HP_ID_KEEP_CAPS:
		t = become_keep_caps(id, last, why);
		break;
	case HP_ID_NO_CAPS:
		t = become_no_caps(id, last, why);
		break;
	case HP_ID_PLAIN:
		t = become_plain(id, last, why);
		break;
	case HP_ID_UNCHANGED:
	default:
		hp_err_set(why, "identity: unknown kind %d", (int)id->kind);
		return HP_UNKNOWN;
	}
	if (t != HP_TRUE)
		return t;
	if (id->no_new_privs && id->kind != HP_ID_PLAIN &&
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail(why, "PR_SET_NO_NEW_PRIVS");
	/* last, after every credential change (A.10) */
	if (prctl(PR_SET_DUMPABLE, final_dumpable(id), 0, 0, 0) < 0)
		return fail(why, "PR_SET_DUMPABLE");
	return hp_os_identity_verify(id, why);
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort and remove duplicates in place; the new count. */
static size_t sort_unique(gid_t *g, size_t n)
{
	qsort(g, n, sizeof *g, cmp_gid);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || g[k - 1] != g[i])
			g[k++] = g[i];
	return k;
}

static hp_tri check_groups(const hp_identity *id, hp_err *why)
{
	gid_t *want = hp_xmalloc((id->ngroups + 1) * sizeof *want);
	gid_t *have = hp_xmalloc((HP_ID_MAX_GROUPS + 1) * sizeof *have);
	if (id->ngroups)
		memcpy(want, id->groups, id->ngroups * sizeof *want);
	size_t nw = sort_unique(want, id->ngroups);
	int nh = getgroups(HP_ID_MAX_GROUPS + 1, have);
	hp_tri t = HP_TRUE;
	if (nh < 0) {
		t = fail(why, "getgroups");
	} else {
		size_t n = sort_unique(have, (size_t)nh);
		if (n != nw || (n && memcmp(want, have, n * sizeof *have) != 0)) {
			hp_err_set(why,
			           "identity: the supplementary groups are not the ones asked for");
			t = HP_UNKNOWN;
		}
	}
	free(want);
	free(have);
	return t;
}

hp_tri hp_os_identity_verify(const hp_identity *id, hp_err *why)
{
	if (id->kind == HP_ID_UNCHANGED)
		return HP_TRUE;
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return fail(why, "getresuid");
	if (r != id->uid || e != id->uid || s != id->uid) {
		hp_err_set(why, "identity: uids are %u/%u/%u, not %u", (unsigned)r, (unsigned)e,
		           (unsigned)s, (unsigned)id->uid);
		return HP_UNKNOWN;
	}
	if (rg != id->gid || eg != id->gid || sg != id->gid) {
		hp_err_set(why, "identity: gids are %u/%u/%u, not %u", (unsigned)rg, (unsigned)eg,
		           (unsigned)sg, (unsigned)id->gid);
		return HP_UNKNOWN;
	}
	if (check_groups(id, why) != HP_TRUE)
		return HP_UNKNOWN;
	hp_capstate cs;
	if (hp_os_capstate_self(&cs, why) != HP_TRUE)
		return HP_UNKNOWN;
	uint64_t want = id->kind == HP_ID_KEEP_CAPS ? id->keep_caps : 0;
	if (cs.permitted != want || cs.effective != want || cs.inheritable != want ||
	    cs.ambient != want) {
		hp_err_set(why,
		           "identity: capabilities are permitted %#" PRIx64 ", effective %#" PRIx64
		           ", inheritable %#" PRIx64 ", ambient %#" PRIx64 "; expected %#" PRIx64,
		           cs.permitted, cs.effective, cs.inheritable, cs.ambient, want);
		return HP_UNKNOWN;
	}
	if (id->kind == HP_ID_NO_CAPS) {
		if (cs.bounding != 0) {
			hp_err_set(why, "identity: the bounding set is %#" PRIx64 ", not empty",
			           cs.bounding);
			return HP_UNKNOWN;
		}
		if ((cs.securebits & NOPRIV_SECUREBITS) != NOPRIV_SECUREBITS) {
			hp_err_set(why, "identity: securebits are %#x, not locked", cs.securebits);
			return HP_UNKNOWN;
		}
	}
	int nnp = id->kind == HP_ID_PLAIN ? 0 : (id->no_new_privs ? 1 : 0);
	if (cs.no_new_privs != nnp) {
		hp_err_set(why, "identity: no_new_privs is %d, expected %d", cs.no_new_privs, nnp);
		return HP_UNKNOWN;
	}
	int dump = final_dumpable(id);
	if (cs.dumpable != dump) {
		hp_err_set(why, "identity: dumpable is %d, expected %d", cs.dumpable, dump);
		return HP_UNKNOWN;
	}
	/* no way back (A.4) */
	if (!((want >> CAP_SETUID) & 1) && setuid(0) == 0) {
		hp_err_set(why, "identity: setuid(0) succeeded: the role can become root again");
		return HP_UNKNOWN;
	}
	if (!((want >> CAP_SETGID) & 1) && setgroups(0, NULL) == 0) {
		hp_err_set(why, "identity: setgroups() succeeded: the role can change its groups");
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}
