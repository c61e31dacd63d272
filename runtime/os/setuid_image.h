/* setuid_image.h: the walk behind the setuid_image and setid_image probes:
 * every setuid and setgid executable, to whichever user or group, and every
 * file-capability executable the agent could run anywhere in the sandbox,
 * not only on the driver's PATH (the agent runs any path it likes: a
 * setuid-root shell in /usr/local/lib or /opt, or in its own home on a
 * filesystem mounted without nosuid, gives root to any of its processes
 * that lacks no_new_privs; a setuid program of the driver's user, or one
 * setgid to a group that owns the driver's files, gives it the driver).
 * Each entry says what it sets (HP_SUID, HP_SGID, the _ROOT bits, and
 * HP_FILE_CAPS) and the owner and group it sets them to; one walk answers
 * both probes.
 *
 * Which trees are walked:
 *   live     every mount of /proc/self/mountinfo without nosuid, except the
 *            kernel's own filesystems that hold no programs (proc, sysfs,
 *            cgroup, devpts, ...), each walked from its mount point without
 *            leaving it (another mount is walked on its own, or not at all
 *            when it is nosuid); a mount hidden under another is not
 *            reachable by any path and is not walked;
 *   offline  the whole image root (--root): an image carries no mount
 *            options; a mount inside it is unknown, as for every offline
 *            path.
 *
 * The walk is on descriptors (openat with O_NOFOLLOW, fstatat and
 * getxattrat relative to the directory), never re-joined path strings;
 * symlinks are not followed (the file they lead to is found where it is, or
 * is on a filesystem that ignores setuid). It is bounded in entries and in
 * time over all trees together, and in depth: past any bound, or on an
 * entry that cannot be decided, the answer is unknown, since the entry not
 * looked at could be the one that matters.
 *
 * Answers: HP_TRUE with the absolute paths (sorted, one per file found;
 * entry.name is the path); HP_UNKNOWN with why otherwise. The figures of
 * the walk (entries, trees, milliseconds) are returned either way.
 */
#ifndef HP_SETUID_IMAGE_H
#define HP_SETUID_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/mounts.h"
#include "os/safe_path.h"
#include "os/setuid_scan.h"

enum {
	HP_SETUID_IMAGE_MAX_ENTRIES = 2000000,
	HP_SETUID_IMAGE_MAX_MS = 20000,
	HP_SETUID_IMAGE_MAX_DEPTH = 256,
};

typedef struct {
	size_t max_entries; /* 0: HP_SETUID_IMAGE_MAX_ENTRIES */
	int64_t max_ms;     /* 0: HP_SETUID_IMAGE_MAX_MS */
	/* out: what the walk did */
	size_t entries;
	size_t trees;
	int64_t ms;
} hp_setuid_budget;

/* Walk the tree at top (a directory inside r) without leaving its mount;
 * append what raises privilege to out, as paths below top's name. A
 * directory on another mount is skipped when skip_other_mounts, else the
 * answer is unknown. b's counters accumulate over calls. */
hp_tri hp_os_setuid_tree(const hp_root *r, const char *top, int skip_other_mounts,
                      hp_setuid_budget *b, int64_t deadline, hp_suid_list *out, hp_err *why);

/* What a file's mode and owners make it when executed: HP_SUID and HP_SGID
 * (to anyone), HP_SUID_ROOT and HP_SGID_ROOT (to root). */
unsigned hp_os_setid_bits(unsigned mode, uid_t uid, gid_t gid);

/* Whether a mount's filesystem type is one of the kernel's own, which holds
 * no program a user put there (proc, sysfs, cgroup...). */
int hp_os_setuid_fs_skipped(const char *fstype);

/* Whether a mount's per-mount options include nosuid. */
int hp_os_mount_nosuid(const hp_mount *m);

/* The whole image: offline the root's tree; live (mounts given) each
 * mount without nosuid. */
hp_tri hp_os_setuid_image(const hp_root *r, const hp_mounts *mounts, hp_setuid_budget *b,
                       hp_suid_list *out, hp_err *why);

#endif
