/* replace.h: writable_ancestor: could a role replace a path (or create it,
 * if it does not exist) through any directory on the way to it?
 * (docs/runtime.md, B.21; fs/namei.c may_delete and check_sticky.)
 *
 * The path is walked inside the root (safe_path.h, the walker), symlinks
 * followed, and every step counts: the directory holding each component,
 * the directories a symlink's target passes through, the target's own
 * parents. For a step "entry E in directory D" the role can replace E when
 *   - it owns D (it can chmod D and then rename in it), or has CAP_FOWNER,
 *     and D is neither immutable nor append-only (chmod of either is
 *     refused, to its owner too);
 *   - or it can write and search D (asked of the kernel, or computed) and D
 *     is not sticky, or D is sticky and the role owns E or D;
 * and nothing blocks it: D immutable, D append-only or E immutable or
 * append-only (chattr +i, +a: may_delete), or, live, D on a read-only
 * mount. A component that does not exist counts when the role could
 * create it in D (write and search, or owning D as above): an append-only
 * D does not block that (may_create asks only for write and search), an
 * immutable one does.
 * Live, a symlink in /proc on the way makes the walk unknown: the kernel
 * follows fd/N, cwd, root and exe to what they are, not to their text.
 *
 * Answers: HP_TRUE as soon as one step is replaceable (why says which, as
 * evidence); HP_UNKNOWN when none is but some step could not be decided,
 * or the walk itself failed (a loop, a permission denied on the way: the
 * role's view ends there); HP_FALSE when every step was decided "no". The
 * root itself can never be replaced. Hard links are the `links` probe's
 * business.
 */
#ifndef HP_REPLACE_H
#define HP_REPLACE_H

#include "os/access.h"
#include "os/dircache.h"
#include "os/safe_path.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

/* As the calling process (a role's child): the kernel is asked. */
hp_tri hp_os_replaceable_live(const hp_root *r, const char *path, hp_err *why);

/* The same for a process that self describes (hp_os_self_read), keeping
 * each directory's read-only flag and write-and-search answer in dc
 * (dircache.h: one identity's, dropped when it changes) and the walk's
 * steps into directories in memo (walkmemo.h); either may be NULL. */
hp_tri hp_os_replaceable_live_self(const hp_root *r, const char *path, const hp_self *self,
                                   hp_dircache *dc, hp_walkmemo *memo, hp_err *why);

/* Where a walk of hp_os_replaceable_live_end ended. */
typedef struct {
	/* true when the answer is HP_FALSE and the walk ended on a file that
	 * is neither a directory nor a symlink: the last step of a walk that
	 * resolved path, which follows links as the kernel does (a link in
	 * /proc, whose text the kernel does not follow, makes the walk
	 * unknown) */
	bool ended;
	hp_fileinfo info; /* then: that file's facts, from the walk's statx */
	/* then: statfs's f_type of its filesystem, read on its directory
	 * by the walk, when the file is on its directory's mount; else 0 */
	long fs_magic;
} hp_walk_end;

/* hp_os_replaceable_live_self, telling also what path leads to (end),
 * for a caller that would otherwise resolve path again to look at that
 * file. */
hp_tri hp_os_replaceable_live_end(const hp_root *r, const char *path, const hp_self *self,
                                  hp_dircache *dc, hp_walkmemo *memo, hp_walk_end *end,
                                  hp_err *why);

/* One step, "name in dir" (dirfd open on dir; entry NULL when the name is
 * missing), judged live for the process self describes exactly as a walk
 * judges each of its steps: HP_TRUE with why the evidence, HP_FALSE, or
 * HP_UNKNOWN with why. For a scan that already holds the directory and the
 * entry's facts and need not walk to them again. */
hp_tri hp_os_replace_step_live(int dirfd, const hp_fileinfo *dir, const char *name,
                               const hp_fileinfo *entry, const hp_self *self, hp_dircache *dc,
                               hp_err *why);

/* Computed for cred from owners, modes and ACLs (access.h, offline). */
hp_tri hp_os_replaceable_computed(const hp_root *r, const char *path, const hp_cred *cred,
                               hp_err *why);

#endif
