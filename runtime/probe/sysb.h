/* sysb.h: the inside of the live/rootfs backend (sysbackend.h), shared by
 * its files: sysbackend.c (set-up, dispatch, env), sysb_path.c (paths and
 * access), sysb_proc.c (capabilities, canaries, processes, mounts, sudo),
 * sysb_etc.c (users, groups, passwords, sudoers), sysb_net.c (envd on
 * loopback). Nothing outside the
 * backend includes it. */
#ifndef HP_SYSB_H
#define HP_SYSB_H

#include <stdbool.h>
#include <stdint.h>

#include "os/capstate.h"
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

	/* per process: read once by the role's process when first needed */
	bool caps_read;
	hp_tri caps_ok;
	hp_capstate caps;
	hp_err caps_why;
	bool mounts_read;
	hp_tri mounts_ok;
	hp_mounts mounts;
	hp_err mounts_why;

	/* setuid_root's scans by directory (dev, ino): /bin and /usr/bin on a
	 * merged-/usr system are one directory, scanned once */
	struct hp_sysb_scan {
		dev_t dev;
		ino_t ino;
		hp_suid_list list;
	} * scans;
	size_t nscans, cap_scans;

	/* the root helper (sysb_helper.c): in the parent its process, in a
	 * role's child the socket to it; -1 and 0 when there is none */
	pid_t helper_pid;
	int helper_pidfd;
	int helper_fd;
};

/* Why a LIVE probe is not asked offline. */
extern const char hp_sysb_needs_live[];

/* A reason in the pool ("memory limit" when the pool is full). */
const char *hp_sysb_reason(hp_pool *pool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
hp_value hp_sysb_unknown(hp_pool *pool, hp_probe_id p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A string answer copied into the pool (UNKNOWN past the limits). */
hp_value hp_sysb_str(hp_pool *pool, hp_probe_id p, const char *s, size_t len);

/* sysb_path.c: exists, type, owner, group_owner, mode, links, readable,
 * writable, executable, writable_ancestor, setuid_root. */
hp_value hp_sysb_path(hp_sysbackend *s, hp_probe_id p, const char *path, hp_pool *pool);

/* sysb_proc.c: sudo, caps.*, no_new_privs, signal, ptrace, proc_mem,
 * procs_visible, mount_point, read_only, fs_type (live only). */
hp_value hp_sysb_proc(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool);
void hp_sysb_proc_reset(hp_sysbackend *s);

/* sysb_net.c: envd_tokenless (live only), from the role's own process. */
hp_value hp_sysb_net(hp_sysbackend *s, hp_probe_id p, const char *arg, hp_pool *pool);

/* sysb_helper.c: the global probes about files that a non-root role's
 * process asks the root helper. */
bool hp_sysb_helper_probe(hp_probe_id p);
hp_value hp_sysb_helper_ask(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool);

/* sysb_etc.c: user, user_by_uid, group, password_empty, sudoers_grants. */
void hp_sysb_etc_preload(hp_sysbackend *s, const bool used[HP_PROBE_COUNT]);
hp_value hp_sysb_etc(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool);
hp_tri hp_sysb_etc_user_ids(hp_sysbackend *s, const char *name, int64_t uid, uid_t *out_uid,
                            gid_t *out_gid, gid_t **gids, size_t *ngids, hp_err *why);
void hp_sysb_etc_free(hp_sysbackend *s);

#endif
