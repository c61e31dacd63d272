/* sysb.h: the inside of the live/rootfs backend (sysbackend.h), shared by
 * its files: sysbackend.c (set-up, dispatch, env), the workers that answer
 * the probes of each part (the routing, below, generated from probes.def)
 * and sysb_helper.c (the root helper). Nothing outside the backend
 * includes it. */
#ifndef HP_SYSB_H
#define HP_SYSB_H

#include <stdbool.h>
#include <stdint.h>

#include "os/access.h"
#include "os/capstate.h"
#include "os/dircache.h"
#include "os/mounts.h"
#include "os/setuid_scan.h"
#include "probe/sysbackend.h"

typedef struct hp_sysb_etcdata hp_sysb_etcdata;

struct hp_sysbackend {
	hp_backend base;
	hp_sys_kind kind;
	hp_root root;
	size_t read_cap;
	/* rootfs: the flags of the mount the image root is on (statvfs),
	 * which say nothing about the image: ST_RDONLY, ST_NOEXEC */
	unsigned long image_mnt_flags;
	bool image_mnt_known;

	hp_sysb_etcdata *etc; /* sysb_etc.c */

	hp_sys_role role;
	gid_t *cred_groups; /* the copy role.cred.groups points to */

	/* the sudo job's answer, once read (hp_sys_role.sudo_pending) */
	hp_err sudo_msg;
	/* the check's word for procs_visible, once read (hp_sys_role.procs_fd):
	 * the pids not to count, or why it could not be read */
	bool procs_read;
	hp_tri procs_ok;
	pid_t procs_skip[HP_SYS_PROCS_MAX];
	size_t nprocs_skip;
	hp_err procs_why;

	/* per process: read once by the role's process when first needed */
	bool caps_read;
	hp_tri caps_ok;
	hp_capstate caps;
	hp_err caps_why;
	bool mounts_read;
	hp_tri mounts_ok;
	hp_mounts mounts;
	hp_err mounts_why;

	/* the path probes' memory of this role's process (sysb_path.c): its
	 * own uid and CAP_FOWNER, read once; what it may do in each directory
	 * (os/dircache.h); the directories its walks stepped into and the
	 * listings writable_entries read (os/walkmemo.h); writable_entries' answers by directory, so /bin
	 * and /usr/bin on a merged /usr are listed once, and tree_writable's
	 * by tree. Dropped with the role
	 * (hp_probe_sysb_path_reset). */
	bool self_read;
	hp_self self;
	hp_dircache *dirs;
	hp_walkmemo *walks;
	struct hp_sysb_entries {
		hp_fileinfo dir;
		char **names;
		size_t n;
	} * entries;
	size_t nentries, cap_entries;
	/* tree_writable's answers by the tree's top (the same directory on
	 * the same mount), so /lib/x86_64-linux-gnu/gconv and its /usr/lib
	 * twin are walked once; kept only from a walk whose answer did not
	 * depend on the path it was asked by (no link judged by its path) */
	struct hp_sysb_tree {
		hp_fileinfo top;
		bool writable;
	} * trees;
	size_t ntrees, cap_trees;

	/* setuid_root's scans by directory (dev, ino): /bin and /usr/bin on a
	 * merged-/usr system are one directory, scanned once */
	struct hp_sysb_scan {
		dev_t dev;
		ino_t ino;
		hp_suid_list list;
	} * scans;
	size_t nscans, cap_scans;

	/* the whole image's walk (setuid_image.h), done once for the
	 * setuid_image and setid_image probes: the walk is a large part of a
	 * live check's cost, and two walks could also see two images */
	bool image_walked;
	hp_tri image_ok;
	hp_suid_list image;
	hp_err image_why;

	/* the root helper (sysb_helper.c): in a role's child the socket to
	 * the check's process that answers; -1 when there is none. serving:
	 * this process answers such questions (it has taken root's role) */
	int helper_fd;
	bool serving;
};

/* Why a LIVE probe is not asked offline. */
extern const char hp_probe_sysb_needs_live[];

/* A reason in the pool ("memory limit" when the pool is full). */
const char *hp_probe_sysb_reason(hp_pool *pool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
hp_value hp_probe_sysb_unknown(hp_pool *pool, hp_probe_id p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A string answer copied into the pool (UNKNOWN past the limits). */
hp_value hp_probe_sysb_str(hp_pool *pool, hp_probe_id p, const char *s, size_t len);

/* --- the routing, generated from probes.def's PART and ASKS columns ---
 *
 * Each part of the PART column has one worker, a function that answers
 * every probe of that part and no other:
 *
 *   ETC   hp_probe_sysb_etc   sysb_etc.c    users, groups, passwords, sudoers
 *   PATH  hp_probe_sysb_path  sysb_path.c   paths and access (writable_entries
 *                                     in sysb_entries.c, the whole-tree
 *                                     probes in sysb_tree.c)
 *   PROC  hp_probe_sysb_proc  sysb_proc.c   capabilities, canaries, processes,
 *                                     mounts, sudo (live only)
 *   ENV   hp_probe_sysb_env   sysbackend.c  the check's own environment
 *   DOC   hp_probe_sysb_doc   sysbackend.c  documents: none reach this backend (the
 *                                     documents of --document answer in front
 *                                     of it, probe/docset.h), so unknown
 *   NET   hp_probe_sysb_net   sysb_net.c    the network as the role's own process
 *                                     sees it: envd on loopback (live only)
 *
 * sysbackend.c's dispatch is a switch with one case per probe, calling HP_SYSB_WORKER_<PART>; a probe of ASKS
 * HELPER goes to the root helper instead when a non-root role's process
 * asks it (sysb_helper.c). */
typedef hp_value hp_sysb_worker(hp_sysbackend *s, hp_probe_id p, const hp_value *arg,
                                hp_pool *pool);
hp_sysb_worker hp_probe_sysb_etc, hp_probe_sysb_path, hp_probe_sysb_proc, hp_probe_sysb_env, hp_probe_sysb_doc, hp_probe_sysb_net;
#define HP_SYSB_WORKER_ETC hp_probe_sysb_etc
#define HP_SYSB_WORKER_PATH hp_probe_sysb_path
#define HP_SYSB_WORKER_PROC hp_probe_sysb_proc
#define HP_SYSB_WORKER_ENV hp_probe_sysb_env
#define HP_SYSB_WORKER_DOC hp_probe_sysb_doc
#define HP_SYSB_WORKER_NET hp_probe_sysb_net

/* A worker's switch over the probes has a case for each probe of its part,
 * written by hand, and the case labels of every other probe, generated
 * (HP_PROBE_CASE_UNLESS, model/domain.h):
 *
 *     #define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc) \
 *             HP_PROBE_CASE_UNLESS(part, ETC, id)
 *     #include "model/probes.def"
 *     case HP_PROBE_COUNT:
 *             break;
 *
 * and no default label. So the compiler checks the worker against the
 * table: a probe of its part that it does not answer is an unhandled
 * enumeration value (-Wswitch), one of another part that it answers is a
 * duplicate case label. */

void hp_probe_sysb_proc_reset(hp_sysbackend *s);
void hp_probe_sysb_path_reset(hp_sysbackend *s);

/* sysb_path.c, for sysb_entries.c: the role's view and what its process
 * remembers (docs/runtime.md, "What a role's process remembers"). */
/* path resolved as the role sees it: by the kernel when this process has
 * the role's identity, else by a walk checking search on the way */
hp_tri hp_probe_sysb_resolve_as_role(hp_sysbackend *s, const char *path, unsigned flags, int *fd,
                                     hp_err *why);
/* whether the role may open fd for mode (fi: fd's facts, or NULL) */
hp_tri hp_probe_sysb_access_for(hp_sysbackend *s, int fd, const hp_fileinfo *fi, int mode,
                                hp_err *why);
/* Whether directory fd's default ACL lets the role write what another user
 * creates in it later (hp_os_access_default_acl): live for the process
 * itself, else for the role's credentials. */
hp_tri hp_probe_sysb_default_acl_for(hp_sysbackend *s, int fd, const hp_fileinfo *fi,
                                     hp_err *why);
/* whether the role could replace path through a directory on its way */
hp_tri hp_probe_sysb_replaceable_for(hp_sysbackend *s, const char *path, hp_err *why);
const hp_self *hp_probe_sysb_self(hp_sysbackend *s);
hp_dircache *hp_probe_sysb_dirs(hp_sysbackend *s);
hp_walkmemo *hp_probe_sysb_walks(hp_sysbackend *s);

/* sysb_tree.c: the whole-tree probes. */
hp_value hp_probe_sysb_tree_writable(hp_sysbackend *s, const char *path, hp_pool *pool);
hp_value hp_probe_sysb_tree_writable_by(hp_sysbackend *s, const char *spec, hp_pool *pool);

/* sysb_entries.c: the writable_entries probe. */
hp_value hp_probe_sysb_writable_entries(hp_sysbackend *s, hp_probe_id p, const char *dir,
                                        hp_pool *pool);

/* sysb_helper.c: asks the root helper a probe of ASKS HELPER. */
hp_value hp_probe_sysb_helper_ask(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool);

/* sysb_etc.c: the etc view, read before the roles' processes start. */
void hp_probe_sysb_etc_preload(hp_sysbackend *s, const bool used[HP_PROBE_COUNT]);
hp_tri hp_probe_sysb_etc_user_ids(hp_sysbackend *s, const char *name, int64_t uid, uid_t *out_uid,
                            gid_t *out_gid, gid_t **gids, size_t *ngids, hp_err *why);
void hp_probe_sysb_etc_free(hp_sysbackend *s);

#endif
