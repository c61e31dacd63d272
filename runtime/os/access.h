/* access.h: can a role read, write or execute (search) a file?
 *
 * Live (and for an image root whenever the runtime can switch identity):
 * asked of the kernel in the calling process, which is already the role's
 * child (identity.h), with the raw faccessat2(fd, "", mode, AT_EACCESS |
 * AT_EMPTY_PATH) on the O_PATH descriptor the path resolved to. The kernel
 * counts ACLs, read-only mounts, capabilities and LSMs; the mode bits alone
 * do not (docs/runtime.md, B.19). EPERM or ENOSYS from the call (seccomp,
 * gVisor, or an immutable file) is unknown, never "no" (B.20).
 *
 * The owner rule: the owner of a file can always chmod it, so a "no" from
 * the kernel becomes "yes" when the caller owns the file (or has
 * CAP_FOWNER), unless chmod could not help: the mount is read-only, the file
 * is immutable (or append-only, for write), or execute is asked of a file on
 * a noexec mount. Flags the filesystem does not report count as absent,
 * which can only turn a "no" into a "yes". why then holds a note saying so.
 *
 * Offline (computed): when no child can take the role's identity (the
 * runtime is not root), rootfs answers from owner, group, mode and the
 * system.posix_acl_access ACL, with the role's uid, groups and effective
 * capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), the way
 * the kernel's generic_permission does, plus the owner rule. Mount options
 * of the machine the image was unpacked on say nothing about the image and
 * are ignored. Owners that are the overflow uid or gid (an unmapped id in a
 * user namespace, B.24) make a computed answer unknown.
 */
#ifndef HP_ACCESS_H
#define HP_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "os/safe_path.h"
#include "lib/xalloc.h"

/* The modes: the same values as R_OK, W_OK and X_OK. */
enum { HP_ACC_READ = 4, HP_ACC_WRITE = 2, HP_ACC_EXEC = 1 };

/* The kernel's answer for the calling process, nothing added. */
hp_tri hp_os_access_kernel(int fd, int mode, hp_err *why);

/* The kernel's answer with the owner rule: what `readable`, `writable` and
 * `executable` report for a live role. */
hp_tri hp_os_access_live(int fd, int mode, hp_err *why);

/* What the owner rule needs of the calling process: its effective uid and
 * whether it has CAP_FOWNER (and, for hp_os_access_ruled_out, the DAC
 * overrides). A role's process never changes identity while it asks, so a
 * scan reads them once (hp_os_self_read) and not per file: two system
 * calls saved on each of thousands of entries. */
typedef struct {
	uid_t euid;
	uid_t overflow_uid; /* the kernel's overflow uid (sysctl), for replace.h */
	hp_tri fowner;      /* HP_UNKNOWN: the capabilities could not be read (why) */
	bool dac_override, dac_read_search;
	hp_err why;
} hp_self;
void hp_os_self_read(hp_self *self);

/* Whether the file's owner and mode alone rule out mode for self, without
 * asking the kernel: HP_FALSE when self does not own the file, has none of
 * CAP_FOWNER, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, and neither the group
 * class bits nor the other bits hold all of mode, on a filesystem whose
 * permission check is the kernel's generic one (fs_magic: statfs's f_type;
 * ext2/3/4, xfs, btrfs, tmpfs, overlayfs, f2fs, squashfs, erofs). Then no
 * ACL entry can grant it (a named entry is bounded by the mask, which the
 * group class bits are), and an LSM can only refuse more: the kernel's
 * answer would be "no" as well. HP_UNKNOWN otherwise: ask the kernel. A
 * filesystem that decides for itself (FUSE, NFS, 9p, CIFS, gVisor's
 * gofer) is always asked. */
hp_tri hp_os_access_ruled_out(const hp_fileinfo *fi, long fs_magic, const hp_self *self,
                              int mode);

/* hp_os_access_live for the process self describes (NULL: read it when
 * needed), with fi the facts of fd when the caller has them (NULL: read
 * them when needed). */
hp_tri hp_os_access_live_self(int fd, const hp_fileinfo *fi, const hp_self *self, int mode,
                              hp_err *why);

/* A role's credentials, for computed answers. caps is the effective set as
 * a mask (bit n is capability n). */
typedef struct {
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t ngroups;
	uint64_t caps;
} hp_cred;

/* The computed answer for cred, with the owner rule. */
hp_tri hp_os_access_computed(int fd, const hp_cred *cred, int mode, hp_err *why);

/* Whether files created later in directory fd (facts fi) would let cred
 * (NULL: the calling process) access them in mode through the
 * directory's default ACL (system.posix_acl_default, posix_acl.h): what
 * the role could write there once another user creates it, which no
 * permission of the files there now shows. HP_FALSE when fd is not a
 * directory, has no default ACL (or its filesystem no ACLs), or one that
 * grants nothing; HP_UNKNOWN with why when it cannot be read or parsed
 * (too large, malformed). Capabilities are not counted: the files' own
 * check counts them. */
hp_tri hp_os_access_default_acl(int fd, const hp_fileinfo *fi, const hp_cred *cred, int mode,
                                hp_err *why);

/* Whether the calling process has capability cap in its effective set:
 * HP_UNKNOWN when it cannot be read. */
hp_tri hp_os_self_has_cap(int cap, hp_err *why);

#endif
