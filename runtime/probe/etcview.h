/* etcview.h: the users, groups and passwords of a root directory as the
 * live/rootfs backend sees them: etc/passwd and etc/group parsed by
 * userdb.h, etc/nsswitch.conf checked by nsswitch.h, etc/shadow by
 * shadow.h, each file read once (bounded, regular files only, resolved
 * inside the root), never through NSS.
 *
 * Failing closed: when nsswitch.conf lets another source answer, or a file
 * is missing, unreadable, malformed or over its cap, every question that
 * needs it is unknown with the reason. A uid-0 account besides root makes
 * the questions it could change unknown: the user with uid 0, and whether
 * root's password is empty (su to the other account is just as good).
 *
 * sudo.conf, sudoers and everything they include are read by sudoers.h
 * through this view's root (every path resolved inside it, regular files
 * only, capped), with its conservative reading: unknown counts as a grant.
 *
 * Password hashes never enter this process: etc/shadow and etc/gshadow
 * are read and evaluated in a short-lived child, which sends back only,
 * per user and per group, the password's state (empty, locked, a hash,
 * unknown) and gshadow's administrators and members. A role's child (which
 * may be the agent) inherits nothing secret. A process that is root and
 * starts no process of another identity (root's role child) reads them
 * itself instead (hp_probe_etcview_secrets_here), with the same answers
 * and the files' bytes wiped once read.
 *
 * Answers use plain C types, not the VM's values (sysb_etc.c converts). */
#ifndef HP_ETCVIEW_H
#define HP_ETCVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "os/safe_path.h"
#include "etc/pwstate.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

typedef struct hp_etcview hp_etcview;

enum { HP_ETC_USERS = 1u, HP_ETC_SHADOW = 2u, HP_ETC_SUDOERS = 4u };

/* An empty view of root r (which must outlive it). */
hp_etcview *hp_probe_etcview_new(const hp_root *r, size_t cap);
void hp_probe_etcview_free(hp_etcview *v);

/* Read what `what` (HP_ETC_*) needs, unless read already. Never fails:
 * what could not be read is remembered as the reason its questions are
 * unknown. */
void hp_probe_etcview_load(hp_etcview *v, unsigned what);

/* etc/shadow and etc/gshadow are read in this process, not in a reader
 * of their own: for a process that is root and never starts a process of
 * another identity (root's role child), whose memory no less privileged
 * process can reach. The answers and their checks are the reader's; the
 * files' bytes are wiped once read. */
void hp_probe_etcview_secrets_here(hp_etcview *v);

/* A user, as the user probe answers it. Strings point into the view. */
typedef struct {
	const char *name, *home, *shell;
	uint32_t uid, gid;
	const char **groups; /* names: the primary group's first, then memberships */
	size_t ngroups;
	uint32_t *gids; /* the primary gid first, then memberships, no duplicates */
	size_t ngids;
} hp_etc_user;

typedef struct {
	const char *name;
	uint32_t gid;
	const char *const *members;
	size_t nmembers;
} hp_etc_group;

/* HP_TRUE found (free with hp_probe_etc_user_free), HP_FALSE no such user (why
 * says so), HP_UNKNOWN with why. name NULL: by uid. */
hp_tri hp_probe_etcview_user(hp_etcview *v, const char *name, uint32_t uid, hp_etc_user *out,
                       hp_err *why);
void hp_probe_etc_user_free(hp_etc_user *u);
hp_tri hp_probe_etcview_group(hp_etcview *v, const char *name, hp_etc_group *out, hp_err *why);

/* The names of every account with this uid, in etc/passwd's order (several
 * when accounts share it: each is a way to that uid for whoever knows, or
 * needs no, its password). HP_TRUE with *names the caller frees (the
 * strings point into the view), possibly none; HP_UNKNOWN with why. */
hp_tri hp_probe_etcview_users_with_uid(hp_etcview *v, uint32_t uid, const char ***names, size_t *n,
                                 hp_err *why);

/* The names of every account in etc/passwd whose password is not locked
 * (empty, or a hash: su takes it), in etc/passwd's order. HP_TRUE with
 * *names the caller frees (the strings point into the view), possibly
 * none; HP_UNKNOWN with why when any account's state is not known. */
hp_tri hp_probe_etcview_users_unlocked(hp_etcview *v, const char ***names, size_t *n, hp_err *why);

/* The state of user name's password (shadow.h): HP_PW_UNKNOWN with why;
 * *absent is set when there is no such user. */
hp_pw_state hp_probe_etcview_password_state(hp_etcview *v, const char *name, int *absent,
                                           hp_err *why);

/* Whether group name has a password newgrp takes (a hash: not empty, not
 * locked): HP_TRUE, HP_FALSE, or HP_UNKNOWN with why; *absent is set when
 * there is no such group. */
hp_tri hp_probe_etcview_group_password_set(hp_etcview *v, const char *name, int *absent,
                                           hp_err *why);

/* The administrators etc/gshadow names for group name (the caller frees
 * *names and each name): HP_TRUE, possibly none (also when gshadow has no
 * entry or does not exist), or HP_UNKNOWN with why (gshadow unreadable or
 * malformed); *absent is set when there is no such group. */
hp_tri hp_probe_etcview_group_admins(hp_etcview *v, const char *name, char ***names, size_t *n,
                                     int *absent, hp_err *why);

/* The members etc/gshadow lists for group name, whom newgrp lets in without
 * a password in place of etc/group's members (the caller frees *names and
 * each name): HP_TRUE, possibly none; HP_FALSE with *absent set and why when
 * gshadow has no entry for it or does not exist (etc/group's members
 * decide), and *absent set too when there is no such group; HP_UNKNOWN with
 * why (gshadow unreadable or malformed). */
hp_tri hp_probe_etcview_gshadow_members(hp_etcview *v, const char *name, char ***names,
                                        size_t *n, int *absent, hp_err *why);

/* The names of every group with this gid, in etc/group's order (the caller
 * frees *names; the strings point into the view). */
hp_tri hp_probe_etcview_groups_with_gid(hp_etcview *v, uint32_t gid, const char ***names,
                                        size_t *n, hp_err *why);

/* Whether PAM service's auth stack could let caller in as target without
 * target's password (pam.h), read through the root. *absent: no such
 * user. */
hp_tri hp_probe_etcview_pam_passwordless(hp_etcview *v, const char *service, const char *target,
                                         const char *caller, int *absent, hp_err *why);

/* Whether sudoers (and its includes) grant user name anything: HP_TRUE,
 * HP_FALSE, or HP_UNKNOWN with why; *absent is set when there is no such
 * user. */
hp_tri hp_probe_etcview_sudoers_grants(hp_etcview *v, const char *name, int *absent, hp_err *why);

#endif
