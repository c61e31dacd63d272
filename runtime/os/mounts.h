/* mounts.h: the mount table from /proc/self/mountinfo, and what the
 * mount_point, read_only and fs_type probes answer for a path. The parser is pure (a buffer in, a table out) and fuzzed
 * (tests/fuzz/fuzz_mountinfo.c).
 *
 * A mountinfo line is
 *   ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS
 * with spaces, tabs, newlines and backslashes in names written as \040,
 * \011, \012 and \134 (any \ooo octal escape is decoded). The table is
 * bounded (HP_MOUNTS_MAX lines, HP_MOUNTS_LINE_MAX bytes a line); past a
 * bound, or on any malformed line, the whole table is unknown, with the line
 * number ("mountinfo line 3: no ' - ' separator").
 *
 * A path is matched to its mount by the mount id statx reports
 * (STATX_MNT_ID); without it, by device number when exactly one mount has
 * it, else unknown. mount_point uses STATX_ATTR_MOUNT_ROOT, or compares the
 * mount id with the parent directory's. read_only is "ro" in the mount's
 * or the superblock's options, cross-checked with statvfs(ST_RDONLY); a
 * disagreement is unknown.
 */
#ifndef HP_MOUNTS_H
#define HP_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum { HP_MOUNTS_MAX = 65536, HP_MOUNTS_LINE_MAX = 65536 };

typedef struct {
	uint64_t id, parent;
	unsigned major, minor;
	char *root, *mount_point, *options, *fstype, *source, *super_options;
	int read_only;
} hp_mount;

typedef struct {
	hp_mount *v;
	size_t n;
} hp_mounts;

hp_tri hp_os_mounts_parse(const char *buf, size_t len, hp_mounts *m, hp_err *why);
void hp_os_mounts_free(hp_mounts *m);

/* /proc/self/mountinfo (procfs verified, bounded read), parsed. */
hp_tri hp_os_mounts_read(hp_mounts *m, hp_err *why);

/* The mount fd (O_PATH, from safe_path.h) is on. */
hp_tri hp_os_mount_of_fd(const hp_mounts *m, int fd, const hp_mount **out, hp_err *why);
/* The same for a file's facts already read (its mount id, or its device
 * when the kernel gives none). */
hp_tri hp_os_mount_of_info(const hp_mounts *m, const hp_fileinfo *fi, const hp_mount **out,
                           hp_err *why);
/* This process's own table, read once per process (a forked child reads
 * its own): HP_UNKNOWN with why when it cannot be read. */
hp_tri hp_os_own_mounts(const hp_mounts **m, hp_err *why);

hp_tri hp_os_mount_point(const hp_mounts *m, int fd, hp_err *why);
hp_tri hp_os_mount_read_only(const hp_mounts *m, int fd, hp_err *why);
/* Whether what fd is on is read-only on every path this mount namespace
 * has to it. A read-only bind mount keeps one path to an inode from
 * writing it; another mount of the same filesystem, read-write, may reach
 * the same inode (a file bound read-only into /etc from the agent's home
 * is written through the home). So true when the superblock is read-only,
 * or when no read-write mount of the filesystem here has a tree that
 * overlaps this mount's (one's root within the other's: a pod's volume
 * mounted read-only beside another, read-write, of the same disk is not
 * reached through it), or, for a file with more than one link, no
 * read-write mount of the filesystem at all; false when one has. Only
 * for a filesystem whose content is its own (ext2/3/4, xfs, btrfs, f2fs,
 * squashfs, erofs, iso9660, tmpfs, ramfs): any other type (overlay, fuse,
 * 9p, virtiofs, nfs, cifs...) keeps its content where other paths reach
 * it, and is false. f_flags: fd's statfs(2) flags; only when they say
 * ST_RDONLY is this process's mountinfo read, once per process. */
hp_tri hp_os_fs_read_only(int fd, unsigned long f_flags, hp_err *why);
/* Whether the superblock fd is on is read-only (its options in this
 * process's mountinfo, read once per process), whatever its type. */
hp_tri hp_os_fs_sb_read_only(int fd, hp_err *why);
/* On HP_TRUE *type points into m. */
hp_tri hp_os_mount_fs_type(const hp_mounts *m, int fd, const char **type, hp_err *why);

#endif
