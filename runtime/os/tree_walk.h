/* tree_walk.h: every entry below a directory inside a root, for the
 * questions asked of a whole tree (tree_writable: can the role write, or
 * does it own, anything a package loads from?).
 *
 * The top is resolved inside the root (safe_path.h, symlinks followed); the
 * walk below it is on descriptors: each entry is described by one statx of
 * its name relative to its directory's descriptor, never following it
 * (hp_os_entry_info), and opened only when the visitor needs it
 * (hp_os_tree_entry_open, O_PATH | O_NOFOLLOW, checked to be the file the
 * facts describe) or the walk enters it (O_DIRECTORY | O_NOFOLLOW, checked
 * the same way): most entries of a package's tree are judged by their owner
 * and mode, and an open and a close for each were most of a walk's system
 * calls. A directory the walk will enter is opened for listing before the
 * visitor sees it, and the visitor asks its questions on that descriptor
 * (lfd) rather than opening its own: one open, one statx and one close a
 * directory fewer; it is listed with getdents64 into the walk's buffers
 * (dirents.h), and a directory on its parent's mount takes its parent's
 * filesystem type rather than asking statfs again. Symlinks are shown, never followed (the visitor decides what one
 * means), and a directory on another mount is shown but not entered when
 * offline (a mount inside an image is unknown there, as for every path).
 * Bounded: entries, depth and wall time; past a bound the walk is unknown,
 * because the entry not looked at could be the one that matters.
 */
#ifndef HP_TREE_WALK_H
#define HP_TREE_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum {
	HP_TREE_MAX_ENTRIES = 500000,
	HP_TREE_MAX_MS = 10000,
	HP_TREE_MAX_DEPTH = 128,
};

typedef struct {
	int fd;                  /* the top: O_PATH on it (followed); below it -1 */
	int dirfd;               /* below the top: its directory, open for listing, */
	const char *name;        /* and its name there */
	const hp_fileinfo *info; /* its facts */
	const hp_fileinfo *dir;  /* its directory's facts (the top: its own) */
	long dir_fs_magic;       /* statfs's f_type of that directory; 0: not known */
	const char *path;        /* its path from the root, for messages */
	int is_top;
	int lfd;                     /* a directory the walk will enter: open for */
	const hp_fileinfo *lfd_info; /* listing, and its facts read on that; else -1 */
} hp_tree_entry;

/* The visitor: HP_FALSE to go on, HP_TRUE to stop with that answer (found),
 * HP_UNKNOWN to stop with why set. */
typedef hp_tri (*hp_tree_fn)(void *ctx, const hp_tree_entry *e, hp_err *why);

typedef struct {
	size_t max_entries; /* 0: HP_TREE_MAX_ENTRIES */
	int64_t max_ms;     /* 0: HP_TREE_MAX_MS */
	size_t entries;     /* out: entries visited */
} hp_tree_limits;

/* Visit top (followed; resolved with res_flags, e.g. HP_RES_DENIED_FALSE)
 * and, when it is a directory, everything below it. A directory below that
 * this process cannot search is not entered (nothing in it is reachable);
 * one it can search but not list is unknown. HP_FALSE when the visitor
 * never stopped the walk; HP_TRUE or HP_UNKNOWN as it said; HP_UNKNOWN
 * past a bound; the answer of resolving top when that is not HP_TRUE
 * (HP_FALSE: no such path, or unreachable, with why). *missing tells that
 * last case apart. */
hp_tri hp_os_tree_walk(const hp_root *r, const char *top, unsigned res_flags, hp_tree_limits *lim,
                    hp_tree_fn fn, void *ctx, int *missing, hp_err *why);

/* The same walk from tfd, top's resolution (taken: closed whatever
 * happens), with its facts when the caller has read them (NULL: read
 * here): for a caller that looks at what top is before it walks. */
hp_tri hp_os_tree_walk_at(const hp_root *r, int tfd, const hp_fileinfo *known, const char *top,
                          hp_tree_limits *lim, hp_tree_fn fn, void *ctx, hp_err *why);

/* A descriptor on the entry (O_PATH | O_NOFOLLOW; the top's own, duplicated)
 * in *fd, with its facts read on it in *now: HP_TRUE; HP_FALSE when the
 * name is gone (removed meanwhile: it leads nowhere); HP_UNKNOWN with why
 * when it cannot be opened or another file has taken the name since the
 * walk looked at it. */
hp_tri hp_os_tree_entry_open(const hp_tree_entry *e, int *fd, hp_fileinfo *now, hp_err *why);

/* Give back what hp_os_tree_entry_open gave: closed unless it is the
 * walk's own descriptor (lfd), which the walk goes on listing. */
void hp_os_tree_entry_close(const hp_tree_entry *e, int fd);

#endif
