/* mount_content.h: whether what a filesystem holds is a role's to change,
 * whatever owners and modes its files show (docs/runtime.md, "Read,
 * write, execute"): a role that serves it or writes its backing store
 * changes every file on it, root's 0755 ones and read-only mounts included.
 *
 * A mount's content is the role's (HP_TRUE, why says how) when
 *   - it is FUSE (fuse, fuseblk, fuse.*) and its daemon's user_id is the
 *     role's uid: the daemon answers every stat and read. A FUSE mount
 *     with another non-root user_id, or none, is HP_UNKNOWN: whoever
 *     serves it is no known owner's. root's is judged as any other mount;
 *   - a block device under it (its device, the whole disk of a partition,
 *     the devices a device-mapper or md device is built on, from
 *     /sys/dev/block) is a loop device whose backing file the role can
 *     write or replace (its name is how the file is found: a role that can
 *     put another file under it could show another), or whose backing
 *     file is itself on a filesystem whose content is the role's;
 *   - or a block node in /dev of one of those devices is one the role can
 *     write (the kernel asked, so a device cgroup counts);
 *   - or it is an overlay one of whose layer directories (lower, upper,
 *     work, data), as its options name them, the role can write: a layer
 *     this mount namespace does not show (Docker's, on the host) is not.
 * HP_UNKNOWN where that cannot be established and it matters: a loop
 * device whose backing file is deleted, not found from here, or that
 * /sys does not describe; devices /sys does not describe while some block
 * node in /dev is the role's to write. Other types without a device
 * (tmpfs, proc...) and block devices no node of which the role can write
 * are HP_FALSE. Not looked at: block nodes outside /dev.
 *
 * Live only: an image's files (rootfs) are not on this machine's mounts.
 */
#ifndef HP_MOUNT_CONTENT_H
#define HP_MOUNT_CONTENT_H

#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/access.h"
#include "os/mounts.h"
#include "os/safe_path.h"

/* The verdict for the mount the file fi describes is on, for cred (NULL:
 * the calling process, live), from this process's mount table. Decided
 * once per mount and identity in a process; later calls look it up. */
hp_tri hp_os_content_theirs(const hp_fileinfo *fi, const hp_cred *cred, hp_err *why);
/* The same for the calling process, whose euid the caller already has
 * (hp_self): no system call once the mount's verdict is known, for the
 * scans that ask it of every entry. */
hp_tri hp_os_content_theirs_self(const hp_fileinfo *fi, uid_t euid, hp_err *why);

/* Where the block devices' facts are read: "/sys/dev/block" and "/dev"
 * unless a test points them at a tree of its own. */
typedef struct {
	const char *sys_block;
	const char *dev;
} hp_content_env;

/* Read them where env says from now on in this process and its children
 * (NULL: the system's again), forgetting what was decided: for tests. */
void hp_os_content_env_set(const hp_content_env *env);

/* The verdict for the mount x, uncached, with the facts read where env
 * says (NULL: the system's). */
hp_tri hp_os_content_of_mount(const hp_mount *x, const hp_content_env *env, const hp_cred *cred,
                              hp_err *why);

/* The FUSE part alone, from the mount's type and superblock options (no
 * system call): HP_FALSE for a type that is not FUSE or a daemon of
 * root's. */
hp_tri hp_os_content_fuse(const hp_mount *x, uid_t uid, hp_err *why);

#endif
