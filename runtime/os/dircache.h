/* dircache.h: what one identity may do in a directory, remembered by the
 * directory's identity for as long as the process keeps that identity.
 *
 * The scans of a live check ask the same question of the same directories
 * thousands of times: every symlink in /usr/bin has its target's way
 * walked (replace.h), and each step of that walk asks whether the role
 * may write and search /, /usr, /usr/bin... A directory is named here by
 * what the kernel says it is (device, inode and mount: one directory
 * reached by two paths, /bin and /usr/bin on a merged /usr, is one entry;
 * a bind mount of it is another, its mount's flags and a path-based LSM's
 * answer may differ), and only decided answers are kept: an unknown is
 * asked again, with its reason. A directory whose mount the kernel does
 * not report (no STATX_MNT_ID) is never kept.
 *
 * A cache belongs to one process and one identity: whoever changes the
 * process's ids or capabilities drops it first (the live backend does, in
 * hp_probe_sys_set_role). The table stops growing at HP_DIRCACHE_MAX
 * directories; past that every question is asked of the kernel again. */
#ifndef HP_DIRCACHE_H
#define HP_DIRCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/tri.h"
#include "os/safe_path.h"

enum { HP_DIRCACHE_MAX = 1 << 16 };

/* The answers kept for a directory. */
typedef struct {
	bool rdonly;  /* on a read-only filesystem (hp_os_fs_read_only) */
	hp_tri wx;    /* the kernel's answer to write and search: TRUE or FALSE */
	long fs_type; /* statfs's f_type */
} hp_dirfacts;

typedef struct hp_dircache hp_dircache;

hp_dircache *hp_os_dircache_new(void);
void hp_os_dircache_free(hp_dircache *c);

/* The facts kept for the directory fi describes, or NULL. */
const hp_dirfacts *hp_os_dircache_get(const hp_dircache *c, const hp_fileinfo *fi);

/* Keep f for the directory fi describes (nothing when the table is full). */
void hp_os_dircache_put(hp_dircache *c, const hp_fileinfo *fi, const hp_dirfacts *f);

#endif
