/* access.c: read/write/execute as the kernel answers it, or computed. */
#include "os/access.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/securebits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "os/mount_content.h"
#include "os/mounts.h"
#include "os/posix_acl.h"
#include "os/safe_path.h"
#include "os/sysx.h"

#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static const char *mode_word(int mode)
{
	switch (mode) {
	case HP_ACC_READ:
		return "read";
	case HP_ACC_WRITE:
		return "write";
	case HP_ACC_EXEC:
		return "execute";
	default:
		return "access";
	}
}

/* Whether plain faccessat(2) (no flags) gives this process the same answer
 * as faccessat2 with AT_EACCESS: it checks with the real ids, and unless
 * SECBIT_NO_SETUID_FIXUP is set it clears the effective capabilities of a
 * non-root caller, or sets them to the permitted set for root
 * (fs/open.c, access_override_creds). Exact when the real ids are the
 * effective ones (a role's child: setresuid set all three) and the
 * capabilities the permission check counts stay the same. */
static bool plain_access_exact(hp_err *why)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0 || ru != eu ||
	    rg != eg) {
		hp_err_set(why, "the real and effective ids differ");
		return false;
	}
	int sb = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (sb >= 0 && (sb & (1 << SECURE_NO_SETUID_FIXUP)))
		return true;
	cap_t c = cap_get_proc();
	if (!c) {
		hp_err_set(why, "cannot read own capabilities");
		return false;
	}
	static const cap_value_t dac[] = {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH};
	bool same = true;
	for (size_t i = 0; i < sizeof dac / sizeof dac[0]; i++) {
		cap_flag_value_t e = CAP_CLEAR, p = CAP_CLEAR;
		if (cap_get_flag(c, dac[i], CAP_EFFECTIVE, &e) < 0 ||
		    cap_get_flag(c, dac[i], CAP_PERMITTED, &p) < 0)
			same = false;
		else if (ru != 0 ? e == CAP_SET : e != p)
			same = false;
	}
	cap_free(c);
	if (!same)
		hp_err_set(why, "the capabilities plain faccessat counts differ");
	return same;
}

static hp_tri self_computed(int fd, int mode, hp_err *why);

/* The kernel refused a write with EROFS. inode_permission refuses it so
 * before it looks at the mode when the filesystem is read-only; faccessat
 * refuses it so after the mode allowed it when only the mount is: then the
 * role may write the file, through any read-write mount of the same
 * filesystem (hp_os_fs_read_only). A read-only filesystem whose content
 * lives elsewhere (an overlay's layers, fuse, nfs...) is not read-only for
 * that content: the mode the kernel did not look at decides, judged for
 * this process from the owner, mode and ACL (hp_os_access_computed). */
static hp_tri erofs_answer(int fd, int mode, hp_err *why)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0) {
		hp_err_set(why, "statfs: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	hp_tri ro = hp_os_fs_read_only(fd, (unsigned long)sf.f_flags | ST_RDONLY, why);
	if (ro != HP_FALSE)
		return ro == HP_UNKNOWN ? HP_UNKNOWN : HP_FALSE;
	hp_tri sb = hp_os_fs_sb_read_only(fd, why);
	if (sb != HP_TRUE)
		return sb == HP_UNKNOWN ? HP_UNKNOWN : HP_TRUE;
	return self_computed(fd, mode, why);
}

/* faccessat2 missing (ENOSYS) or filtered (EPERM): the documented fallback,
 * plain faccessat(2) on /proc/self/fd/N (procfs verified), raw, since
 * glibc's faccessat tries faccessat2 first; only where it is exact. */
static hp_tri access_fallback(int fd, int mode, const char *cause, hp_err *why)
{
	hp_err e;
	char p[64];
	if (!plain_access_exact(&e) || hp_os_proc_fd_path(fd, p, sizeof p, &e) < 0) {
		hp_err_set(why, "faccessat2 %s and plain faccessat is not exact here (%s): %s cannot "
		                "be asked",
		           cause, e.msg, mode_word(mode));
		return HP_UNKNOWN;
	}
	if (syscall(SYS_faccessat, AT_FDCWD, p, mode) == 0)
		return HP_TRUE;
	int err = errno;
	if (err == EROFS)
		return erofs_answer(fd, mode, why);
	if (err == EACCES || err == ETXTBSY)
		return HP_FALSE;
	hp_err_set(why, "faccessat2 %s, and faccessat: %s: %s cannot be asked", cause,
	           strerror(err), mode_word(mode));
	return HP_UNKNOWN;
}

hp_tri hp_os_access_kernel(int fd, int mode, hp_err *why)
{
	if (mode != HP_ACC_READ && mode != HP_ACC_WRITE && mode != HP_ACC_EXEC &&
	    mode != (HP_ACC_WRITE | HP_ACC_EXEC)) {
		hp_err_set(why, "access: unsupported mode %d", mode);
		return HP_UNKNOWN;
	}
	if (hp_os_sys_faccessat2(fd, "", mode, AT_EACCESS | AT_EMPTY_PATH) == 0)
		return HP_TRUE;
	int e = errno;
	switch (e) {
	case EROFS:
		return erofs_answer(fd, mode, why);
	case EACCES:
	case ETXTBSY:
		return HP_FALSE;
	case ENOSYS:
		return access_fallback(fd, mode, "is not available (ENOSYS)", why);
	case EPERM: {
		/* an immutable file explains EPERM for write; nothing else does */
		hp_fileinfo fi;
		hp_err ign;
		if ((mode & HP_ACC_WRITE) && hp_os_fd_info(fd, &fi, &ign) == HP_TRUE &&
		    (fi.attrs_known & HP_ATTR_IMMUTABLE) && (fi.attrs & HP_ATTR_IMMUTABLE))
			return HP_FALSE;
		return access_fallback(fd, mode, "refused with EPERM (a seccomp filter or an LSM)",
		                       why);
	}
	default:
		hp_err_set(why, "faccessat2: %s", strerror(e));
		return HP_UNKNOWN;
	}
}

hp_tri hp_os_self_has_cap(int cap, hp_err *why)
{
	cap_t c = cap_get_proc();
	if (!c) {
		hp_err_set(why, "cannot read own capabilities: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	cap_flag_value_t v = CAP_CLEAR;
	int r = cap_get_flag(c, (cap_value_t)cap, CAP_EFFECTIVE, &v);
	cap_free(c);
	if (r < 0) {
		hp_err_set(why, "cannot read capability %d", cap);
		return HP_UNKNOWN;
	}
	return v == CAP_SET ? HP_TRUE : HP_FALSE;
}

/* Can chmod give the owner what it asks for? (see the header) */
static hp_tri owner_rule(int fd, const hp_fileinfo *fi, int mode, int check_mount, hp_err *note)
{
	if (fi->type == HP_FT_SYMLINK)
		return HP_FALSE;
	if ((fi->attrs_known & HP_ATTR_IMMUTABLE) && (fi->attrs & HP_ATTR_IMMUTABLE))
		return HP_FALSE;
	if ((mode & HP_ACC_WRITE) && (fi->attrs_known & HP_ATTR_APPEND) &&
	    (fi->attrs & HP_ATTR_APPEND))
		return HP_FALSE;
	struct statfs sf;
	if (fd >= 0 && fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC) {
		/* procfs refuses its entries' owners a chmod (proc_setattr,
		 * proc_sys_setattr): a process's own files are not its to make
		 * writable */
		return HP_FALSE;
	}
	if (check_mount) {
		struct statvfs sv;
		if (fstatvfs(fd, &sv) < 0) {
			hp_err_set(note, "statvfs: %s", strerror(errno));
			return HP_UNKNOWN;
		}
		hp_tri ro = hp_os_fs_read_only(fd, sv.f_flag, note);
		if (ro != HP_FALSE)
			return ro == HP_TRUE ? HP_FALSE : HP_UNKNOWN;
		if ((mode & HP_ACC_EXEC) && fi->type != HP_FT_DIR && (sv.f_flag & ST_NOEXEC))
			return HP_FALSE;
	}
	hp_err_set(note, "the role owns the file (or has CAP_FOWNER) and can chmod it");
	return HP_TRUE;
}

void hp_os_self_read(hp_self *self)
{
	memset(self, 0, sizeof *self);
	self->euid = geteuid();
	self->overflow_uid = hp_os_overflow_uid();
	self->fowner = HP_UNKNOWN;
	cap_t c = cap_get_proc();
	if (!c) {
		hp_err_set(&self->why, "cannot read own capabilities: %s", strerror(errno));
		return;
	}
	cap_flag_value_t fo = CAP_CLEAR, dov = CAP_CLEAR, drs = CAP_CLEAR;
	if (cap_get_flag(c, CAP_FOWNER, CAP_EFFECTIVE, &fo) < 0 ||
	    cap_get_flag(c, CAP_DAC_OVERRIDE, CAP_EFFECTIVE, &dov) < 0 ||
	    cap_get_flag(c, CAP_DAC_READ_SEARCH, CAP_EFFECTIVE, &drs) < 0) {
		cap_free(c);
		hp_err_set(&self->why, "cannot read own capabilities");
		return;
	}
	cap_free(c);
	self->fowner = fo == CAP_SET ? HP_TRUE : HP_FALSE;
	self->dac_override = dov == CAP_SET;
	self->dac_read_search = drs == CAP_SET;
}

/* The filesystems whose permission check is generic_permission (fs/namei.c)
 * on the owner and mode statx shows, with nothing that grants more: ext4
 * and xfs have no permission operation, btrfs calls generic_permission
 * first and only refuses after it, tmpfs, f2fs, squashfs and erofs use it
 * as is. Not overlayfs: its statx shows a layer's file as it is now, and
 * its permission check (ovl_permission) asks generic_permission of the
 * overlay inode's own copy of owner and mode, made when it was looked up
 * and changed only through the overlay; a layer changed beside the
 * overlay (0666 made 0644) still lets the agent write what statx says it
 * cannot (test_overlay_stale_modes). */
static bool generic_permission_fs(long magic)
{
	switch ((unsigned long)magic) {
	case EXT4_SUPER_MAGIC: /* ext2, ext3 and ext4 share it */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
	case TMPFS_MAGIC:
	case F2FS_SUPER_MAGIC:
	case SQUASHFS_MAGIC:
	case EROFS_SUPER_MAGIC_V1:
		return true;
	default:
		return false;
	}
}

hp_tri hp_os_access_ruled_out(const hp_fileinfo *fi, long fs_magic, const hp_self *self,
                              int mode)
{
	if (mode != HP_ACC_READ && mode != HP_ACC_WRITE && mode != HP_ACC_EXEC &&
	    mode != (HP_ACC_WRITE | HP_ACC_EXEC))
		return HP_UNKNOWN;
	if (!generic_permission_fs(fs_magic) || fi->type == HP_FT_SYMLINK)
		return HP_UNKNOWN;
	if (self->fowner != HP_FALSE || self->dac_override || self->dac_read_search)
		return HP_UNKNOWN;
	if (fi->uid == self->euid || fi->uid == self->overflow_uid)
		return HP_UNKNOWN;
	hp_err ign;
	if ((mode & HP_ACC_WRITE) && hp_os_content_theirs_self(fi, self->euid, &ign) != HP_FALSE)
		return HP_UNKNOWN;
	unsigned want = (unsigned)mode, group = (fi->mode >> 3) & 7, other = fi->mode & 7;
	if ((group & want) == want || (other & want) == want)
		return HP_UNKNOWN;
	return HP_FALSE;
}

/* The kernel said no: the owner rule may still say yes. self NULL: read
 * the uid, and the capability only when the role does not own the file. */
static hp_tri after_no(int fd, const hp_fileinfo *fi, const hp_self *self, int mode, hp_err *why)
{
	hp_fileinfo own;
	if (!fi) {
		if (hp_os_fd_info(fd, &own, why) != HP_TRUE)
			return HP_UNKNOWN;
		fi = &own;
	}
	if (fi->uid != (self ? self->euid : geteuid())) {
		hp_tri fo;
		if (self) {
			fo = self->fowner;
			if (fo == HP_UNKNOWN)
				hp_err_set(why, "%s", self->why.msg);
		} else {
			fo = hp_os_self_has_cap(CAP_FOWNER, why);
		}
		if (fo != HP_TRUE)
			return fo;
	}
	return owner_rule(fd, fi, mode, 1, why);
}

/* Owner, mode and read-only flags said no to a write: the filesystem's
 * content may still be the process's own to change (mount_content.h). */
static hp_tri content_answer(int fd, const hp_fileinfo *fi, const hp_self *self, hp_err *why)
{
	hp_fileinfo own;
	if (!fi) {
		if (hp_os_fd_info(fd, &own, why) != HP_TRUE)
			return HP_UNKNOWN;
		fi = &own;
	}
	return self ? hp_os_content_theirs_self(fi, self->euid, why)
	            : hp_os_content_theirs(fi, NULL, why);
}

hp_tri hp_os_access_live_self(int fd, const hp_fileinfo *fi, const hp_self *self, int mode,
                              hp_err *why)
{
	hp_tri t = hp_os_access_kernel(fd, mode, why);
	if (t == HP_FALSE)
		t = after_no(fd, fi, self, mode, why);
	if (t == HP_FALSE && (mode & HP_ACC_WRITE))
		t = content_answer(fd, fi, self, why);
	return t;
}

hp_tri hp_os_access_live(int fd, int mode, hp_err *why)
{
	return hp_os_access_live_self(fd, NULL, NULL, mode, why);
}

/* Read the ACL xattr name (system.posix_acl_access or _default) through
 * the verified /proc/self/fd, for every descriptor alike (an O_PATH one
 * has no fgetxattr). Not fgetxattr first for the others: a filter that
 * refused it with ENODATA or ENOTSUP, which read here as "no ACL", would
 * hide every ACL from the answer, where the one call asked of all
 * descriptors is the one a sandbox's profile is tested against.
 * HP_FALSE: no ACL (none set, or a filesystem without ACLs). */
static hp_tri read_acl_named(int fd, const char *name, hp_acl *acl, hp_err *why)
{
	char p[64];
	if (hp_os_proc_fd_path(fd, p, sizeof p, why) < 0)
		return HP_UNKNOWN;
	enum { CAP_BYTES = 4 + 8 * HP_ACL_MAX_ENTRIES };
	unsigned char *buf = hp_xmalloc(CAP_BYTES);
	ssize_t n = getxattr(p, name, buf, CAP_BYTES);
	if (n < 0) {
		int e = errno;
		free(buf);
		if (e == ENODATA || e == ENOTSUP)
			return HP_FALSE;
		hp_err_set(why, "reading the ACL: %s", strerror(e));
		return HP_UNKNOWN;
	}
	hp_tri t = hp_os_acl_parse(buf, (size_t)n, acl, why);
	free(buf);
	return t;
}

static hp_tri read_acl(int fd, hp_acl *acl, hp_err *why)
{
	return read_acl_named(fd, "system.posix_acl_access", acl, why);
}

/* The calling process's fsuid (its euid: a role's child set all its ids)
 * and groups, its egid first. */
static hp_tri self_groups(uid_t *uid, gid_t **groups, size_t *n, hp_err *why)
{
	int k = getgroups(0, NULL);
	gid_t *g = k >= 0 ? hp_xmalloc(((size_t)k + 1) * sizeof *g) : NULL;
	if (k >= 0)
		k = getgroups(k, g + 1);
	if (k < 0) {
		free(g);
		hp_err_set(why, "reading the process's groups: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	g[0] = getegid();
	*uid = geteuid();
	*groups = g;
	*n = (size_t)k + 1;
	return HP_TRUE;
}

hp_tri hp_os_access_default_acl(int fd, const hp_fileinfo *fi, const hp_cred *c, int mode,
                                hp_err *why)
{
	if (fi->type != HP_FT_DIR)
		return HP_FALSE;
	hp_acl dacl;
	hp_err e;
	hp_tri t = read_acl_named(fd, "system.posix_acl_default", &dacl, &e);
	if (t == HP_UNKNOWN)
		hp_err_set(why, "the default ACL: %s", e.msg);
	if (t != HP_TRUE)
		return t;
	uid_t uid;
	gid_t *groups;
	size_t ng;
	if (c) {
		uid = c->uid;
		ng = c->ngroups + 1;
		groups = hp_xmalloc(ng * sizeof *groups);
		groups[0] = c->gid;
		for (size_t i = 0; i < c->ngroups; i++)
			groups[i + 1] = c->groups[i];
	} else if (self_groups(&uid, &groups, &ng, why) != HP_TRUE) {
		hp_os_acl_free(&dacl);
		return HP_UNKNOWN;
	}
	const gid_t *sg = (fi->mode & 02000) ? &fi->gid : NULL;
	int g = hp_os_acl_default_grants(&dacl, sg, uid, groups, ng, (unsigned)mode);
	free(groups);
	hp_os_acl_free(&dacl);
	return g ? HP_TRUE : HP_FALSE;
}

static int cred_in_group(const hp_cred *c, gid_t g)
{
	if (c->gid == g)
		return 1;
	for (size_t i = 0; i < c->ngroups; i++)
		if (c->groups[i] == g)
			return 1;
	return 0;
}

static int has(uint64_t caps, int cap)
{
	return (caps >> cap) & 1;
}

hp_tri hp_os_access_computed(int fd, const hp_cred *c, int mode, hp_err *why)
{
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (fi.uid == hp_os_overflow_uid() || fi.gid == hp_os_overflow_gid()) {
		hp_err_set(why, "owned by the overflow id %u:%u (unmapped in this user namespace)",
		           (unsigned)fi.uid, (unsigned)fi.gid);
		return HP_UNKNOWN;
	}
	int isdir = fi.type == HP_FT_DIR;
	if ((mode & HP_ACC_WRITE) && (fi.attrs_known & HP_ATTR_IMMUTABLE) &&
	    (fi.attrs & HP_ATTR_IMMUTABLE))
		return HP_FALSE;
	/* capable_wrt_inode_uidgid: the DAC overrides */
	if (has(c->caps, CAP_DAC_OVERRIDE)) {
		if (!(mode & HP_ACC_EXEC) || isdir || (fi.mode & 0111))
			return HP_TRUE;
	}
	if (has(c->caps, CAP_DAC_READ_SEARCH)) {
		if (mode == HP_ACC_READ || (isdir && !(mode & HP_ACC_WRITE)))
			return HP_TRUE;
	}
	unsigned want = (unsigned)mode;
	int granted;
	hp_acl acl;
	hp_tri has_acl = HP_FALSE;
	if (fi.type == HP_FT_FILE || isdir)
		has_acl = read_acl(fd, &acl, why);
	if (has_acl == HP_UNKNOWN)
		return HP_UNKNOWN;
	size_t ng = c->ngroups + 1;
	gid_t *groups = hp_xmalloc(ng * sizeof *groups);
	groups[0] = c->gid;
	for (size_t i = 0; i < c->ngroups; i++)
		groups[i + 1] = c->groups[i];
	if (has_acl == HP_TRUE) {
		granted = hp_os_acl_grants(&acl, fi.uid, fi.gid, c->uid, groups, ng, want);
		hp_os_acl_free(&acl);
	} else {
		unsigned bits;
		if (c->uid == fi.uid)
			bits = (fi.mode >> 6) & 7;
		else if (cred_in_group(c, fi.gid))
			bits = (fi.mode >> 3) & 7;
		else
			bits = fi.mode & 7;
		granted = (bits & want) == want;
	}
	free(groups);
	if (granted)
		return HP_TRUE;
	if (c->uid == fi.uid || has(c->caps, CAP_FOWNER))
		return owner_rule(fd, &fi, mode, 0, why);
	return HP_FALSE;
}

/* hp_os_access_computed for this process's own effective ids, groups and
 * the capabilities the computation counts. */
static hp_tri self_computed(int fd, int mode, hp_err *why)
{
	int n = getgroups(0, NULL);
	if (n < 0) {
		hp_err_set(why, "getgroups: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	gid_t *groups = hp_xmalloc(((size_t)n + 1) * sizeof *groups);
	n = getgroups(n, groups);
	cap_t c = cap_get_proc();
	if (n < 0 || !c) {
		hp_err_set(why, "cannot read own groups or capabilities: %s", strerror(errno));
		free(groups);
		if (c)
			cap_free(c);
		return HP_UNKNOWN;
	}
	static const cap_value_t counted[] = {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER};
	uint64_t caps = 0;
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		cap_flag_value_t v = CAP_CLEAR;
		if (cap_get_flag(c, counted[i], CAP_EFFECTIVE, &v) < 0) {
			hp_err_set(why, "cannot read own capabilities");
			cap_free(c);
			free(groups);
			return HP_UNKNOWN;
		}
		if (v == CAP_SET)
			caps |= (uint64_t)1 << counted[i];
	}
	cap_free(c);
	hp_cred cred = {geteuid(), getegid(), groups, (size_t)n, caps};
	hp_tri t = hp_os_access_computed(fd, &cred, mode, why);
	free(groups);
	return t;
}
