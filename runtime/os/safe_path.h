/* safe_path.h: paths resolved inside a root directory, on descriptors, so
 * that no symlink or '..' leads out of the root and no answer is about a
 * different file than the one that was looked at (docs/runtime.md,
 * B.14–B.18, B.24).
 *
 * A root is the live "/" or an unpacked image (--root DIR). Every path is
 * taken relative to it: an absolute symlink leads to the root, '..' at the
 * root stays there, as RESOLVE_IN_ROOT does.
 *
 * Resolution uses openat2(O_PATH, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
 * plus RESOLVE_NO_XDEV for an image root), retried a bounded number of times
 * on EAGAIN (a rename elsewhere in the tree while it ran), then unknown.
 * When openat2 is missing or filtered (ENOSYS, EPERM: older kernels, gVisor,
 * seccomp profiles), a component walker does the same job with
 * openat(O_PATH | O_NOFOLLOW) one step at a time: symlinks are read and
 * resolved by hand inside the root (at most 40), '..' goes back to the
 * directory the walk came through and never above the root, and the walk
 * stops after a fixed number of steps. The walker is also used whenever the
 * caller wants every step reported (writable_ancestor) or the CHASE_SAFE
 * ownership rule (B.16).
 *
 * Answers: HP_TRUE resolved; HP_FALSE the path does not exist (a component
 * is missing, or a non-directory is used as one); HP_UNKNOWN anything else
 * (loop, too many steps, permission denied, a mount crossed offline, an
 * unsafe ownership step), with the reason in why. why is also set for
 * HP_FALSE, so callers can show what was missing.
 */
#ifndef HP_SAFE_PATH_H
#define HP_SAFE_PATH_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

typedef enum {
	HP_FT_FILE,
	HP_FT_DIR,
	HP_FT_SYMLINK,
	HP_FT_FIFO,
	HP_FT_SOCKET,
	HP_FT_CHAR,
	HP_FT_BLOCK,
	HP_FT_OTHER
} hp_ftype;

/* The names the `type` probe answers: "file", "dir", "symlink", "fifo",
 * "socket", "char", "block" (and "other"). */
const char *hp_os_ftype_name(hp_ftype t);

/* Inode attributes that block changes (chattr +i, +a) and whether the inode
 * is the root of a mount. attrs_known says which bits of attrs are real. */
enum { HP_ATTR_IMMUTABLE = 1u, HP_ATTR_APPEND = 2u, HP_ATTR_MOUNT_ROOT = 4u };

/* What lstat says about one inode, from statx where available. */
typedef struct {
	hp_ftype type;
	uid_t uid;
	gid_t gid;
	unsigned mode; /* permission bits, setuid, setgid and sticky: st_mode & 07777 */
	uint64_t nlink;
	uint64_t size;
	dev_t dev;
	ino_t ino;
	uint64_t mnt_id; /* valid when has_mnt_id */
	int has_mnt_id;
	unsigned attrs;
	unsigned attrs_known;
} hp_fileinfo;

/* Facts about the inode fd refers to (an O_PATH fd of a symlink describes
 * the symlink). Unknown with why set when statx and fstatat both fail. */
hp_tri hp_os_fd_info(int fd, hp_fileinfo *fi, hp_err *why);

/* The same for the entry name (one component, never followed, no automount)
 * of the open directory dirfd, from one statx and nothing else: attrs are
 * only what statx reports. 0, or -1 with errno (a name with a '/': EINVAL). */
int hp_os_entry_info(int dirfd, const char *name, hp_fileinfo *fi);

/* Whether a and b are one file on one mount (device, inode and mount id;
 * false when either has no mount id): the key under which a role's
 * process keeps what it found of a directory. */
bool hp_os_same_file_on_mount(const hp_fileinfo *a, const hp_fileinfo *b);

/* A stream listing the directory fd names (an O_PATH descriptor a
 * resolution gave), opened through fd so that what is listed is the file
 * that was resolved and judged. fd is closed whatever happens. NULL with
 * errno set: ENOTDIR when fd names something else. */
DIR *hp_os_opendir_path(int fd);

/* A root directory every path is resolved in. */
typedef struct {
	int fd; /* O_PATH | O_DIRECTORY */
	unsigned flags;
	dev_t dev;
	ino_t ino;
} hp_root;

enum {
	/* An image root (--root): also RESOLVE_NO_XDEV, and the walker
	 * refuses to cross a mount; crossing one is unknown. */
	HP_ROOT_OFFLINE = 1u,
	/* Never use openat2: what happens when it is missing (tests). */
	HP_ROOT_WALK = 2u,
};

/* Open dir as a root (it is the operator's choice, so symlinks in dir itself
 * are followed). HP_TRUE, or HP_UNKNOWN with why set. */
hp_tri hp_os_root_open(hp_root *r, const char *dir, unsigned flags, hp_err *why);
/* A root on the directory fd refers to (duplicated: fd stays the
 * caller's), for resolving paths beneath it (HP_RES_BENEATH). HP_TRUE, or
 * HP_UNKNOWN with why set (r->fd is then -1). */
hp_tri hp_os_root_at(hp_root *r, int fd, unsigned flags, hp_err *why);
void hp_os_root_close(hp_root *r);

/* Whether the directory fd refers to is top or below it where it really
 * is, whatever path led to it: its parents are followed through ".." up
 * to the root r. HP_TRUE; HP_FALSE when the root (or the top of the
 * filesystem) comes first; HP_UNKNOWN with why when a parent cannot be
 * looked at, or past HP_WALK_MAX_STEPS parents. */
hp_tri hp_os_dir_within(const hp_root *r, int fd, const hp_fileinfo *top, hp_err *why);

enum {
	/* Do not follow a symlink in the last component (lstat). */
	HP_RES_NOFOLLOW = 1u,
	/* Trusted paths (the driver's PATH, sudo): refuse a step from a
	 * directory not owned by root to an entry with a different owner,
	 * as systemd's CHASE_SAFE does (B.16). Implies the walker. */
	HP_RES_SAFE = 2u,
	/* A directory on the way that refuses the caller search (EACCES)
	 * answers HP_FALSE instead of HP_UNKNOWN: for "can this identity
	 * read, write or run P" the kernel's refusal to reach P by its name
	 * is the answer. Never for "does P exist", which stays unknown. */
	HP_RES_DENIED_FALSE = 4u,
	/* The caller reads nothing through the result: on HP_TRUE *fd is -1,
	 * and the last component, unless it is a directory, is looked at by
	 * name (statx, and readlinkat for a symlink) instead of opened. For a
	 * walk that only judges its steps (replace.h): two system calls fewer
	 * where it ends. Walker only (hp_os_resolve_walk_memo). */
	HP_RES_NO_FD = 8u,
	/* The root is a directory the path must stay beneath, not one it is
	 * confined to: a resolution that would leave it (the path or a
	 * symlink on the way absolute, a '..' above it) is HP_UNKNOWN, never
	 * taken back to the root as RESOLVE_IN_ROOT does (openat2's
	 * RESOLVE_BENEATH; the walker the same). Every symlink on the way is
	 * followed and must stay beneath too: whether a link in a tree leads
	 * out of it (tree_writable) is decided on where it resolves, never on
	 * how its text reads. */
	HP_RES_BENEATH = 16u,
};

/* Longest path accepted, and the walker's bounds. */
enum {
	HP_PATH_MAX = 4095,
	HP_WALK_MAX_STEPS = 1024,
	HP_WALK_MAX_SYMLINKS = 40,
	HP_WALK_MAX_DEPTH = 256,
	HP_OPENAT2_TRIES = 16
};

/* Resolve path inside r. On HP_TRUE *fd is a new O_PATH | O_CLOEXEC
 * descriptor the caller closes; otherwise *fd is -1. */
hp_tri hp_os_resolve(const hp_root *r, const char *path, unsigned flags, int *fd, hp_err *why);

/* One step of a walk: entry `name` looked up in directory dirfd (O_PATH).
 * Both are described by lstat facts. Symlinks are steps too: the directory
 * that holds a symlink is on the way just like the one holding a dir. */
typedef struct {
	int dirfd;
	const hp_fileinfo *dir;
	const char *name;
	/* O_PATH | O_NOFOLLOW on the entry itself; always for a directory,
	 * and -1 for another entry looked at by name (HP_RES_NO_FD's end) or
	 * taken from a walk memo (walkmemo.h) */
	int entryfd;
	const hp_fileinfo *entry;
} hp_step;

/* Called for every step of the walk, in order, including steps that a later
 * '..' or symlink undoes (they were on the way). The descriptors are only
 * valid during the call. When a component does not exist in a directory the
 * walk reports that last step with entryfd -1 and entry NULL (whoever can
 * create it there can plant the path), then answers HP_FALSE. */
typedef void (*hp_step_fn)(void *ctx, const hp_step *step);

/* hp_os_resolve with the walker, reporting each step to visit. */
hp_tri hp_os_resolve_walk(const hp_root *r, const char *path, unsigned flags, hp_step_fn visit,
                       void *ctx, int *fd, hp_err *why);

/* The same, taking the steps into directories memo already holds from it
 * and keeping the new ones there (walkmemo.h; NULL: none). */
typedef struct hp_walkmemo hp_walkmemo;
hp_tri hp_os_resolve_walk_memo(const hp_root *r, const char *path, unsigned flags,
                               hp_step_fn visit, void *ctx, hp_walkmemo *memo, int *fd,
                               hp_err *why);

/* lstat-like facts about path (HP_RES_NOFOLLOW) or stat-like (0). */
hp_tri hp_os_path_info(const hp_root *r, const char *path, unsigned flags, hp_fileinfo *fi,
                    hp_err *why);

#endif
