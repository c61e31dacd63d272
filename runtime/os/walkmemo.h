/* walkmemo.h: the directories a process's walks (safe_path.h) have already
 * stepped into, so that the next walk through them opens nothing.
 *
 * The scans of a live check walk thousands of paths that share their first
 * directories: every symlink in /usr/bin has /, /usr and /usr/bin on its
 * way, and most /etc/alternatives. A memo maps a step, "name in directory
 * D" (D by device, inode and mount), to the directory it leads to, with an
 * O_PATH descriptor held open and its facts; a walk given the memo uses
 * them instead of openat and statx, and reports the step to its visitor
 * the same way. Only directories are kept (what a walk ends on, or a
 * symlink on the way, is always looked at again), at most HP_WALKMEMO_MAX
 * of them and never more than a quarter of the process's RLIMIT_NOFILE
 * (past that, walks open as before), and a directory whose mount
 * the kernel does not report (no STATX_MNT_ID) is never kept.
 *
 * The memo answers what was there when the step was first taken: it
 * belongs to one scan (the live backend keeps one per role process and
 * drops it with the role), in which a later step would have seen the same
 * unless someone replaced a directory meanwhile, which only one who can
 * write its parent can do (and that step is then the scan's answer). The
 * same holds of a listed entry: its name is replaced only through its
 * directory, and its owner and mode changed only by its owner, whom the
 * scan finds to be the role, or by root. */
#ifndef HP_WALKMEMO_H
#define HP_WALKMEMO_H

#include "os/safe_path.h"

enum {
	HP_WALKMEMO_MAX = 256,
	HP_WALKMEMO_LISTINGS = 256,
	HP_WALKMEMO_LISTED = 1 << 17,
};

/* One entry of a listing: its name, and its facts when have (one statx on
 * the directory's own mount gave them); text, a symlink's once read. */
typedef struct {
	char *name;
	hp_fileinfo info;
	bool have;
	char *text;
} hp_listed;

/* hp_walkmemo is declared in safe_path.h, whose walker takes one. */

hp_walkmemo *hp_os_walkmemo_new(void);
void hp_os_walkmemo_free(hp_walkmemo *m); /* closes the descriptors */

/* The facts of root r's directory, read once (NULL when they cannot be). */
const hp_fileinfo *hp_os_walkmemo_root(hp_walkmemo *m, const hp_root *r);

/* The directory name in dir leads to: its descriptor (the memo's: never
 * closed by the caller) and facts, or -1. */
int hp_os_walkmemo_get(const hp_walkmemo *m, const hp_fileinfo *dir, const char *name,
                       const hp_fileinfo **info);

/* Keep "name in dir leads to the directory fd with info" (fd duplicated;
 * nothing when the memo is full, info is not a directory or a mount id is
 * missing). */
void hp_os_walkmemo_put(hp_walkmemo *m, const hp_fileinfo *dir, const char *name, int fd,
                        const hp_fileinfo *info);

/* Give the memo the listing of dir: n entries sorted by name (strcmp), the
 * array, its names and texts malloc'd. True when it keeps them (freed
 * with the memo; the caller may go on reading them and adding texts
 * until then); false when it does not (dir has no mount id, the memo is
 * full) and they stay the caller's. */
bool hp_os_walkmemo_keep_listing(hp_walkmemo *m, const hp_fileinfo *dir, hp_listed *v,
                                 size_t n);

/* The entry name of a kept listing of dir with its facts, or NULL. */
hp_listed *hp_os_walkmemo_listed(const hp_walkmemo *m, const hp_fileinfo *dir,
                                 const char *name);

#endif
