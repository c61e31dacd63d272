/* sysbackend.h: the probe backend that asks a real system: every probe of
 * probes.def answered against a root directory, in one of two flavours
 * (docs/runtime.md, "The live and rootfs backends"):
 *
 *   live    the running sandbox ("/"): ROLE probes are asked of the kernel
 *           in a process that has the role's identity (session.h forks it);
 *   rootfs  an unpacked image root (--root DIR), nothing in it executed:
 *           LIVE probes answer SKIPPED "needs a live sandbox"; access is
 *           computed from owners, modes and ACLs, and also asked of the
 *           kernel when the process has the role's identity (the rule is
 *           in docs/runtime.md).
 *
 * GLOBAL probes (users, groups, passwords, sudoers, env, a path's type,
 * owner, mode, links, setuid_root) come from the root's own files, read
 * once per run, never through NSS. env() reads the check's own
 * environment. Every answer that is not certain is UNKNOWN with a reason a
 * person can act on: it becomes evidence in the report.
 *
 * Lifecycle, as session.c drives it:
 *   hp_probe_sys_open        opens the root; nothing is read yet;
 *   hp_probe_sys_preload     reads the etc files the given probes need, in
 *                      the parent, as root, before any child is forked
 *                      (a role's child inherits them: it may not be able
 *                      to read etc/shadow or etc/sudoers itself); what is
 *                      not preloaded is read by the first process that
 *                      asks (root's child, for what only root's code asks);
 *   hp_probe_sys_set_role    tells the backend which role the calling process
 *                      runs and what it may rely on (identity taken,
 *                      credentials for computed access, canaries, the
 *                      answer to `sudo` asked beforehand by the parent);
 *   hp_backend_ask     through hp_probe_sys_backend, from the VM;
 *   hp_backend_destroy.
 */
#ifndef HP_SYSBACKEND_H
#define HP_SYSBACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "os/access.h"
#include "vm/backend.h"
#include "os/canary.h"
#include "model/domain.h"
#include "os/safe_path.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

typedef enum { HP_SYS_LIVE, HP_SYS_ROOTFS } hp_sys_kind;

typedef struct {
	hp_sys_kind kind;
	const char *root_dir; /* ROOTFS: the image root; LIVE: ignored ("/") */
	unsigned root_flags;  /* extra hp_root flags (HP_ROOT_WALK in tests) */
	size_t read_cap;      /* bytes of one etc file; 0: HP_READ_CAP_DEFAULT */
} hp_sys_opts;

typedef struct hp_sysbackend hp_sysbackend;

/* Open the root. NULL with err set when the root cannot be opened. */
hp_sysbackend *hp_probe_sys_open(const hp_sys_opts *o, hp_err *err);
hp_backend *hp_probe_sys_backend(hp_sysbackend *s);
const hp_root *hp_probe_sys_root(const hp_sysbackend *s);
bool hp_probe_sys_offline(const hp_sysbackend *s);

/* Read what answering these probes needs from the root's etc files
 * (used[p] for each probe p the program asks). Idempotent: each file is
 * read once per backend. Whatever cannot be read is remembered as the
 * reason the probes that need it answer UNKNOWN. */
void hp_probe_sys_preload(hp_sysbackend *s, const bool used[HP_PROBE_COUNT]);

/* The etc data a session needs to build a role's identity: the user named
 * name (or with uid, when name is NULL), its uid, gid and groups (primary
 * first, as initgroups builds them from etc/group). HP_TRUE; HP_FALSE when
 * no such user exists; HP_UNKNOWN with why when the files cannot be
 * trusted. *gids is the caller's to free. */
hp_tri hp_probe_sys_user_ids(hp_sysbackend *s, const char *name, int64_t uid, uid_t *out_uid,
                       gid_t *out_gid, gid_t **gids, size_t *ngids, hp_err *why);

/* etc/shadow and etc/gshadow are read in the calling process, not in a
 * reader of their own (etcview.h): only for a process that is root and
 * never starts one of another identity (root's role child). */
void hp_probe_sys_secrets_here(hp_sysbackend *s);

enum { HP_SYS_PROCS_MAX = 64 };

/* What a role's run may rely on. */
typedef struct {
	hp_role role;
	/* The calling process has the role's identity (live: always, else the
	 * role is not run; rootfs: when the runtime could switch): the kernel
	 * can be asked as the role. */
	bool as_role;
	/* The role's credentials, for computed answers (rootfs). */
	hp_cred cred;
	/* Canaries of other roles, started by the parent (NULL or pid 0:
	 * none, and canary_why says why, or NULL: none was needed); each
	 * one's report is read here before it is tried (hp_os_canary_ready). */
	hp_canary *canary[HP_ROLE_COUNT];
	const char *canary_why[HP_ROLE_COUNT];
	/* `sudo` for this role, asked by a job the parent started before the
	 * role's child (sudo needs a plain process of the role, which a child
	 * that has already dropped everything cannot make); HP_UNKNOWN with
	 * sudo_why when it was not asked. With sudo_pending the answer is not
	 * in yet: the job writes it to sudo_fd (one byte, '0' + the hp_tri,
	 * then the reason), and the role's process reads it when the probe is
	 * first asked, waiting at most sudo_wait_ms, so that the role's other
	 * probes run while sudo does. */
	bool sudo_asked;
	hp_tri sudo;
	const char *sudo_why;
	bool sudo_pending;
	int sudo_fd;
	int sudo_wait_ms;
	/* how long to wait for the root helper's answer (0: 10 s) */
	int helper_ms;
	/* The check's word for procs_visible when it runs other roles'
	 * children beside this one (session.c): on procs_fd, the pids (pid_t,
	 * at most HP_SYS_PROCS_MAX) of the check's processes that belong to
	 * another role's run, then the pipe's end, which comes once every
	 * role's child started before this one has finished; read before the
	 * first count, waiting at most procs_wait_ms, so that each role counts
	 * what it would have counted had the roles run in turn. Without
	 * procs_pending there is no word to wait for. */
	bool procs_pending;
	int procs_fd;
	int procs_wait_ms;
} hp_sys_role;

/* Switch the backend to a role (copied; canaries and strings must outlive
 * the run). Cached per-process state (the mount table, capability state)
 * is dropped. */
void hp_probe_sys_set_role(hp_sysbackend *s, const hp_sys_role *r);

/* The root helper: the global probes about files (type, owner,
 * group_owner, mode, links, setuid_root, setuid_image, setid_image,
 * command_files, tree_writable_by) that a role's child that is not root
 * asks are answered by the check's own process, root, so that they are
 * root's answers, the same for every role. Right before forking such a
 * child, hp_probe_sys_helper_open makes a socket pair: the child's end is
 * hp_probe_sys_helper_fd (keep it open in the child, which asks through
 * it), the parent's end is *served_fd. Right after the fork,
 * hp_probe_sys_helper_forked closes the parent's copy of the child's end.
 * While the parent waits for the child, hp_probe_sys_helper_serve answers
 * one question from served_fd (false: nothing more is to be answered
 * there: the child closed it, or the question was malformed or late);
 * the first call makes this process root's role (hp_probe_sys_set_role),
 * as root's child is. The parent closes served_fd when the child is done:
 * one pair serves one child. Without it, such a child answers them itself,
 * unknown where it cannot reach the path. */
bool hp_probe_sys_helper_open(hp_sysbackend *s, int *served_fd, hp_err *why);
int hp_probe_sys_helper_fd(const hp_sysbackend *s);
void hp_probe_sys_helper_forked(hp_sysbackend *s);
bool hp_probe_sys_helper_serve(hp_sysbackend *s, int served_fd, int64_t end);

#endif
