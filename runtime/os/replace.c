/* replace.c: writable_ancestor, step by step along a walk. */
#include "os/replace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/mount_content.h"
#include "os/mounts.h"
#include "os/sysx.h"

/* Set in statfs's f_flags when the kernel fills them in (since Linux
 * 2.6.36; include/linux/statfs.h), which glibc does not export. */
#ifndef ST_VALID
#define ST_VALID 0x0020
#endif

typedef struct {
	const hp_cred *cred; /* NULL: live */
	uid_t uid;
	uid_t overflow;
	int fowner;
	hp_dircache *dc; /* live: the directories' answers so far, or NULL */
	hp_walkmemo *memo; /* the walks' steps into directories so far, or NULL */
	hp_tri answer; /* the running verdict: FALSE until a TRUE or UNKNOWN step */
	hp_err note;
	hp_err unknown;
	/* whether to look, at each directory the walk enters, if the role can
	 * search it (live: only on a second walk, after the first failed) */
	int check_search;
	/* the walk entered a directory the role cannot search: sealed if the
	 * role cannot make it searchable either (nothing below is reachable),
	 * else owned (it can chmod it and replace anything below) */
	int sealed, owned;
	char blocked[256];
	/* the entry of the walk's latest step: where it ended, once it has;
	 * and its filesystem's type when that step read it (else 0) */
	hp_fileinfo last;
	bool have_last;
	long last_magic;
} ctx_t;

/* procfs's root directory (fs/proc/internal.h) */
enum { PROC_ROOT_INO = 1 };

static bool has_attr(const hp_fileinfo *fi, unsigned attr)
{
	return (fi->attrs_known & attr) && (fi->attrs & attr);
}

/* chmod of an immutable or append-only inode is refused (notify_change),
 * even to its owner and to CAP_FOWNER: owning it gives nothing more */
static bool chmod_refused(const hp_fileinfo *fi)
{
	return has_attr(fi, HP_ATTR_IMMUTABLE) || has_attr(fi, HP_ATTR_APPEND);
}

/* Whether flags alone block the step: nothing changes in an immutable
 * directory; an existing entry cannot be unlinked or renamed over when its
 * directory is append-only or it is immutable or append-only itself
 * (may_delete). A missing entry can still be created in an append-only
 * directory (may_create asks only for write and search). */
static bool blocked(const hp_step *s)
{
	if (has_attr(s->dir, HP_ATTR_IMMUTABLE))
		return true;
	return s->entry && (has_attr(s->dir, HP_ATTR_APPEND) || chmod_refused(s->entry));
}

static void found(ctx_t *c, const char *before, const char *name, const char *after)
{
	if (c->answer == HP_TRUE)
		return;
	c->answer = HP_TRUE;
	hp_err_set(&c->note, "%s '%s'%s", before, name, after);
}

/* A directory the walk may enter: can the role search it? */
static void note_search(ctx_t *c, const hp_step *s)
{
	if (!c->check_search || !s->entry || s->entry->type != HP_FT_DIR)
		return;
	hp_err e;
	hp_tri x = c->cred ? hp_os_access_computed(s->entryfd, c->cred, HP_ACC_EXEC, &e)
	                   : hp_os_access_kernel(s->entryfd, HP_ACC_EXEC, &e);
	if (x != HP_FALSE)
		return;
	if ((s->entry->uid == c->uid || c->fowner) && !chmod_refused(s->entry))
		c->owned = 1;
	else
		c->sealed = 1;
	snprintf(c->blocked, sizeof c->blocked, "%s", s->name);
}

static void step(ctx_t *c, const hp_step *s);

static void visit(void *vctx, const hp_step *s)
{
	ctx_t *c = vctx;
	c->have_last = s->entry != NULL;
	if (s->entry)
		c->last = *s->entry;
	c->last_magic = 0;
	/* past a directory the role can never search, nothing is reachable */
	if (c->answer == HP_TRUE || c->sealed)
		return;
	step(c, s);
	note_search(c, s);
}

static void step(ctx_t *c, const hp_step *s)
{
	if (!c->cred) {
		/* who controls the filesystem's content changes its flags too */
		hp_err ce;
		hp_tri own = hp_os_content_theirs_self(s->dir, c->uid, &ce);
		if (own == HP_TRUE) {
			found(c, "can change the filesystem that holds", s->name, "");
			hp_err_set(&c->note, "can change the filesystem that holds '%s': %s", s->name,
			           ce.msg);
			return;
		}
		if (own == HP_UNKNOWN) {
			c->answer = HP_UNKNOWN;
			hp_err_set(&c->unknown, "'%s': %s", s->name, ce.msg);
			return;
		}
	}
	if (blocked(s))
		return;
	const hp_dirfacts *known = c->dc ? hp_os_dircache_get(c->dc, s->dir) : NULL;
	long fs_type = 0;
	if (!c->cred) {
		bool rdonly;
		if (known) {
			rdonly = known->rdonly;
			fs_type = known->fs_type;
		} else {
			struct statfs sf;
			if (fstatfs(s->dirfd, &sf) < 0 || !(sf.f_flags & ST_VALID)) {
				c->answer = HP_UNKNOWN;
				hp_err_set(&c->unknown, "'%s': statfs: %s", s->name,
				           errno ? strerror(errno) : "no mount flags");
				return;
			}
			hp_err re;
			hp_tri ro = hp_os_fs_read_only(s->dirfd, (unsigned long)sf.f_flags, &re);
			if (ro == HP_UNKNOWN) {
				c->answer = HP_UNKNOWN;
				hp_err_set(&c->unknown, "'%s': %s", s->name, re.msg);
				return;
			}
			rdonly = ro == HP_TRUE;
			fs_type = (long)sf.f_type;
			if (rdonly && c->dc)
				hp_os_dircache_put(c->dc, s->dir, &(hp_dirfacts){true, HP_FALSE, fs_type});
		}
		/* one mount is one filesystem: an entry on its directory's
		 * mount is of the directory's type */
		if (s->entry && s->entry->has_mnt_id && s->dir->has_mnt_id &&
		    s->entry->mnt_id == s->dir->mnt_id)
			c->last_magic = fs_type;
		if (fs_type == PROC_SUPER_MAGIC) {
			/* a link in a process's directory (fd/N, cwd, root, exe)
			 * leads where the kernel says, not where its text reads: a
			 * walk that read it would judge another file's way. The
			 * links in procfs's own root (self, thread-self, mounts,
			 * net) lead where their text says, every reader to its
			 * own directory, which the walk then enters as its reader
			 * (an /etc/mtab to /proc/mounts shows each reader its own
			 * mounts). */
			if (s->entry && s->entry->type == HP_FT_SYMLINK && s->dir->ino != PROC_ROOT_INO) {
				c->answer = HP_UNKNOWN;
				hp_err_set(&c->unknown,
				           "'%s': a link in /proc, which the walk cannot follow",
				           s->name);
				return;
			}
			/* the kernel makes procfs's entries: nobody creates,
			 * renames or unlinks one, and its owner's chmod is refused
			 * (proc_setattr, proc_sys_setattr), so owning a process's
			 * directory is no way to replace what is in it */
			return;
		}
		if (rdonly)
			return;
	} else if (s->dir->uid == c->overflow || (s->entry && s->entry->uid == c->overflow)) {
		c->answer = HP_UNKNOWN;
		hp_err_set(&c->unknown, "'%s': owned by the overflow uid", s->name);
		return;
	}
	if ((s->dir->uid == c->uid || c->fowner) && !chmod_refused(s->dir)) {
		found(c, "owns the directory that holds", s->name, "");
		return;
	}
	hp_err e;
	e.msg[0] = '\0';
	hp_tri wx;
	if (known) {
		wx = known->wx;
	} else {
		wx = c->cred ? hp_os_access_computed(s->dirfd, c->cred, HP_ACC_WRITE | HP_ACC_EXEC, &e)
		             : hp_os_access_kernel(s->dirfd, HP_ACC_WRITE | HP_ACC_EXEC, &e);
		if (c->dc)
			hp_os_dircache_put(c->dc, s->dir, &(hp_dirfacts){false, wx, fs_type});
	}
	if (wx == HP_UNKNOWN) {
		c->answer = HP_UNKNOWN;
		hp_err_set(&c->unknown, "the directory that holds '%s': %s", s->name, e.msg);
		return;
	}
	if (wx == HP_FALSE)
		return;
	if (!s->entry) {
		found(c, "can create the missing", s->name, "");
		return;
	}
	if (!(s->dir->mode & S_ISVTX)) {
		found(c, "can write the directory that holds", s->name, " (not sticky)");
		return;
	}
	if (s->entry->uid == c->uid)
		found(c, "owns", s->name, " in a sticky directory it can write");
}

static hp_tri walk(const hp_root *r, const char *path, ctx_t *c, hp_err *werr)
{
	c->answer = HP_FALSE;
	c->note.msg[0] = c->unknown.msg[0] = '\0';
	c->sealed = c->owned = 0;
	c->have_last = false;
	int fd = -1;
	werr->msg[0] = '\0';
	hp_tri w = hp_os_resolve_walk_memo(r, path, HP_RES_NO_FD, visit, c, c->memo, &fd, werr);
	if (fd >= 0)
		close(fd);
	return w;
}

/* The verdict of a walk that returned w (the walk's own error in werr),
 * walking again when it stopped at a directory the role may not search. */
static hp_tri finish(const hp_root *r, const char *path, ctx_t *c, hp_tri w, hp_err *werr,
                     hp_err *why)
{
	if (w == HP_UNKNOWN && c->answer != HP_TRUE && !c->check_search) {
		/* did the walk stop at a directory the role cannot search? */
		c->check_search = 1;
		w = walk(r, path, c, werr);
	}
	if (c->answer != HP_TRUE && c->owned && w == HP_UNKNOWN)
		found(c, "owns", c->blocked, ", which it cannot search but can chmod, on the way");
	if (c->answer == HP_TRUE) {
		hp_err_set(why, "%s: %s", path, c->note.msg);
		return HP_TRUE;
	}
	if (w == HP_UNKNOWN && !c->sealed) {
		hp_err_set(why, "%s", werr->msg);
		return HP_UNKNOWN;
	}
	if (c->answer == HP_UNKNOWN) {
		hp_err_set(why, "%s: %s", path, c->unknown.msg);
		return HP_UNKNOWN;
	}
	return HP_FALSE;
}

static hp_tri run(const hp_root *r, const char *path, ctx_t *c, hp_err *why)
{
	hp_err werr;
	hp_tri w = walk(r, path, c, &werr);
	return finish(r, path, c, w, &werr, why);
}

/* A live walk's context for the process self describes: unknown, with
 * why, when its capabilities could not be read or it runs as the
 * overflow uid (an unmapped id owns nothing it can be told apart from). */
static bool live_ctx(ctx_t *c, const hp_self *self, hp_dircache *dc, hp_walkmemo *memo,
                     const char *what, hp_err *why)
{
	memset(c, 0, sizeof *c);
	if (self->fowner == HP_UNKNOWN) {
		hp_err_set(why, "%s", self->why.msg);
		return false;
	}
	if (self->euid == self->overflow_uid) {
		hp_err_set(why, "%s: the role runs as the overflow uid", what);
		return false;
	}
	c->uid = self->euid;
	c->overflow = self->overflow_uid;
	c->fowner = self->fowner == HP_TRUE;
	c->dc = dc;
	c->memo = memo;
	return true;
}

hp_tri hp_os_replaceable_live_self(const hp_root *r, const char *path, const hp_self *self,
                                   hp_dircache *dc, hp_walkmemo *memo, hp_err *why)
{
	ctx_t c;
	if (!live_ctx(&c, self, dc, memo, path, why))
		return HP_UNKNOWN;
	return run(r, path, &c, why);
}

hp_tri hp_os_replaceable_live_end(const hp_root *r, const char *path, const hp_self *self,
                                  hp_dircache *dc, hp_walkmemo *memo, hp_walk_end *end,
                                  hp_err *why)
{
	memset(end, 0, sizeof *end);
	ctx_t c;
	if (!live_ctx(&c, self, dc, memo, path, why))
		return HP_UNKNOWN;
	hp_err werr;
	hp_tri w = walk(r, path, &c, &werr);
	/* the walk resolved path: its last step was the file it names (a
	 * link there is followed, and "." or ".." can only follow a
	 * directory, which is left out) */
	bool ended = w == HP_TRUE && c.have_last && c.last.type != HP_FT_DIR &&
	             c.last.type != HP_FT_SYMLINK;
	hp_tri t = finish(r, path, &c, w, &werr, why);
	if (ended && t == HP_FALSE) {
		end->ended = true;
		end->info = c.last;
		end->fs_magic = c.last_magic;
	}
	return t;
}

hp_tri hp_os_replace_step_live(int dirfd, const hp_fileinfo *dir, const char *name,
                               const hp_fileinfo *entry, const hp_self *self, hp_dircache *dc,
                               hp_err *why)
{
	ctx_t c;
	if (!live_ctx(&c, self, dc, NULL, name, why))
		return HP_UNKNOWN;
	c.answer = HP_FALSE;
	hp_step st = {dirfd, dir, name, -1, entry};
	step(&c, &st);
	if (c.answer == HP_TRUE)
		hp_err_set(why, "%s", c.note.msg);
	else if (c.answer == HP_UNKNOWN)
		hp_err_set(why, "%s", c.unknown.msg);
	return c.answer;
}

hp_tri hp_os_replaceable_live(const hp_root *r, const char *path, hp_err *why)
{
	hp_self self;
	hp_os_self_read(&self);
	return hp_os_replaceable_live_self(r, path, &self, NULL, NULL, why);
}

hp_tri hp_os_replaceable_computed(const hp_root *r, const char *path, const hp_cred *cred, hp_err *why)
{
	ctx_t c = {.cred = cred,
	           .uid = cred->uid,
	           .overflow = hp_os_overflow_uid(),
	           .fowner = (int)((cred->caps >> CAP_FOWNER) & 1),
	           .check_search = 1};
	return run(r, path, &c, why);
}
