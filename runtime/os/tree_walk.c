/* tree_walk.c: a bounded walk of a directory tree on descriptors (tree_walk.h). */
#include "os/tree_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "os/access.h"
#include "os/dirents.h"
#include "os/sysx.h"

typedef struct {
	hp_dirents ls;    /* its listing */
	size_t len;
	hp_fileinfo info; /* the directory's facts */
	long magic;       /* its statfs f_type, 0 when not known */
} frame;

typedef struct {
	char path[HP_PATH_MAX + 1];
	char entry[HP_PATH_MAX + NAME_MAX + 2]; /* the path of the entry shown */
	frame st[HP_TREE_MAX_DEPTH + 1];
	int depth;
} walk;

/* the current directory's path as a prefix of "/name": "" for the root */
static const char *dirpfx(const walk *w)
{
	return strcmp(w->path, "/") == 0 ? "" : w->path;
}

static int on_same_mount(const hp_fileinfo *a, const hp_fileinfo *b)
{
	if (a->has_mnt_id && b->has_mnt_id)
		return a->mnt_id == b->mnt_id;
	return a->dev == b->dev;
}

static long fs_magic(int fd)
{
	struct statfs sf;
	return fstatfs(fd, &sf) == 0 ? (long)sf.f_type : 0;
}

static bool same_file(const hp_fileinfo *a, const hp_fileinfo *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

hp_tri hp_os_tree_entry_open(const hp_tree_entry *e, int *fd, hp_fileinfo *now, hp_err *why)
{
	if (e->lfd >= 0) {
		/* the walk's own, checked to be this file when it was opened */
		*fd = e->lfd;
		*now = *e->lfd_info;
		return HP_TRUE;
	}
	*fd = e->fd >= 0 ? fcntl(e->fd, F_DUPFD_CLOEXEC, 0)
	                 : openat(e->dirfd, e->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT && e->fd < 0)
			return HP_FALSE;
		hp_err_set(why, "%s: %s", e->path, strerror(errno));
		return HP_UNKNOWN;
	}
	hp_tri t = hp_os_fd_info(*fd, now, why);
	if (t == HP_TRUE && !same_file(now, e->info)) {
		hp_err_set(why, "%s: another file took its name while the walk looked at it",
		           e->path);
		t = HP_UNKNOWN;
	}
	if (t != HP_TRUE) {
		close(*fd);
		*fd = -1;
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

void hp_os_tree_entry_close(const hp_tree_entry *e, int fd)
{
	if (fd >= 0 && fd != e->lfd)
		close(fd);
}

/* Whether a directory below the current one named name fits the walk's
 * bounds of depth and length: when not, why says which. */
static bool fits(const walk *w, const char *name, hp_err *why)
{
	if (w->depth == HP_TREE_MAX_DEPTH) {
		/* the reason first: a path this deep fills the message */
		hp_err_set(why, "more than %d directories deep: %s/%s",
		           HP_TREE_MAX_DEPTH, dirpfx(w), name);
		return false;
	}
	if (w->st[w->depth].len + 1 + strlen(name) > HP_PATH_MAX) {
		hp_err_set(why, "a path longer than %d bytes: %s/%s", HP_PATH_MAX, dirpfx(w),
		           name);
		return false;
	}
	return true;
}

static int open_listing(int dfd, const char *name)
{
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

/* Enter name, a directory of the current one open for listing on fd
 * (taken), with the facts now read on fd. */
static void enter(walk *w, const char *name, int fd, const hp_fileinfo *now)
{
	frame *up = &w->st[w->depth];
	size_t base = up->len, n = strlen(name);
	if (strcmp(w->path, "/") != 0)
		w->path[base++] = '/';
	memcpy(w->path + base, name, n + 1);
	/* one mount is one filesystem: its type is its parent's */
	long magic = up->magic && now->has_mnt_id && up->info.has_mnt_id &&
	                             now->mnt_id == up->info.mnt_id
	                     ? up->magic
	                     : fs_magic(fd);
	w->depth++;
	frame *f = &w->st[w->depth];
	hp_os_dirents_start(&f->ls, fd);
	f->len = base + n;
	f->info = *now;
	f->magic = magic;
}

/* Open the directory entry name of the directory dfd, which the walk saw
 * as fi, for listing, and push it. */
static hp_tri push(walk *w, int dfd, const char *name, const hp_fileinfo *fi, hp_err *why)
{
	if (!fits(w, name, why))
		return HP_UNKNOWN; /* what is below is not looked at */
	int fd = open_listing(dfd, name);
	if (fd < 0 && errno == ENOENT)
		return HP_FALSE; /* removed meanwhile */
	if (fd < 0 && errno == EACCES) {
		/* a directory this process cannot search holds nothing it can
		 * reach; one it can search but not list could hide anything */
		int efd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		hp_fileinfo now;
		hp_err e;
		e.msg[0] = '\0';
		hp_tri searchable = HP_UNKNOWN;
		if (efd >= 0 && hp_os_fd_info(efd, &now, &e) == HP_TRUE && same_file(&now, fi))
			searchable = hp_os_access_kernel(efd, HP_ACC_EXEC, &e);
		if (efd >= 0)
			close(efd);
		if (searchable == HP_FALSE)
			return HP_FALSE;
		hp_err_set(why, "%s/%s: can be searched but not listed", dirpfx(w), name);
		return HP_UNKNOWN;
	}
	if (fd < 0) {
		hp_err_set(why, "%s/%s: %s", dirpfx(w), name, strerror(errno));
		return HP_UNKNOWN;
	}
	hp_fileinfo now;
	if (hp_os_fd_info(fd, &now, why) != HP_TRUE) {
		close(fd);
		return HP_UNKNOWN;
	}
	if (!same_file(&now, fi)) {
		hp_err_set(why, "%s/%s: another file took its name while the walk looked "
		                "at it", dirpfx(w), name);
		close(fd);
		return HP_UNKNOWN;
	}
	enter(w, name, fd, &now);
	return HP_FALSE;
}

/* A directory the walk will enter, opened for listing before the visitor
 * sees it, so that the visitor's questions and the listing share one
 * descriptor: -1 where that is not simply done (a bound, an error, a
 * race), and the visitor and push then open it each their own way, as
 * for any entry. fi: the facts the walk read by name, which the directory
 * opened must match; NULL when it has read none (then what is opened is
 * the entry, with the facts read on it). */
static int open_ahead(const walk *w, int dfd, const char *name, const hp_fileinfo *fi,
                      hp_fileinfo *now)
{
	hp_err e;
	if (!fits(w, name, &e))
		return -1;
	int fd = open_listing(dfd, name);
	if (fd < 0)
		return -1;
	if (hp_os_fd_info(fd, now, &e) != HP_TRUE || (fi && !same_file(now, fi))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void pop(walk *w)
{
	hp_os_dirents_end(&w->st[w->depth].ls);
	w->depth--;
	if (w->depth >= 0)
		w->path[w->st[w->depth].len] = '\0';
}

hp_tri hp_os_tree_walk(const hp_root *r, const char *top, unsigned res_flags, hp_tree_limits *lim,
                    hp_tree_fn fn, void *ctx, int *missing, hp_err *why)
{
	*missing = 0;
	lim->entries = 0;
	int tfd;
	hp_tri t = hp_os_resolve(r, top, res_flags, &tfd, why);
	if (t != HP_TRUE) {
		*missing = t == HP_FALSE;
		return t;
	}
	return hp_os_tree_walk_at(r, tfd, NULL, top, lim, fn, ctx, why);
}

hp_tri hp_os_tree_walk_at(const hp_root *r, int tfd, const hp_fileinfo *known, const char *top,
                          hp_tree_limits *lim, hp_tree_fn fn, void *ctx, hp_err *why)
{
	lim->entries = 0;
	hp_tri t;
	hp_fileinfo top_info;
	if (strnlen(top, HP_PATH_MAX + 1) > HP_PATH_MAX) {
		/* the walk builds every path below it in HP_PATH_MAX bytes */
		hp_err_set(why, "a path longer than %d bytes: %.64s...", HP_PATH_MAX, top);
		close(tfd);
		return HP_UNKNOWN;
	}
	if (known) {
		top_info = *known;
	} else if (hp_os_fd_info(tfd, &top_info, why) != HP_TRUE) {
		close(tfd);
		return HP_UNKNOWN;
	}
	hp_tree_entry te = {tfd, -1, NULL, &top_info, &top_info, 0, top, 1, -1, NULL};
	t = fn(ctx, &te, why);
	if (t != HP_FALSE || top_info.type != HP_FT_DIR) {
		close(tfd);
		return t;
	}
	walk *w = hp_xcalloc(1, sizeof *w);
	w->depth = -1;
	size_t tlen = strlen(top);
	while (tlen > 1 && top[tlen - 1] == '/')
		tlen--;
	memcpy(w->path, top, tlen);
	w->path[tlen] = '\0';
	int fd = openat(tfd, ".", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		hp_err e;
		t = hp_os_access_kernel(tfd, HP_ACC_EXEC, &e) == HP_FALSE ? HP_FALSE : HP_UNKNOWN;
		if (t == HP_UNKNOWN)
			hp_err_set(why, "%s: can be searched but not listed", top);
		close(tfd);
		free(w);
		return t;
	}
	close(tfd);
	if (fd < 0) {
		hp_err_set(why, "%s: %s", top, strerror(errno));
		free(w);
		return HP_UNKNOWN;
	}
	w->depth = 0;
	hp_os_dirents_start(&w->st[0].ls, fd);
	w->st[0].len = tlen;
	w->st[0].info = top_info;
	w->st[0].magic = fs_magic(fd);
	size_t max = lim->max_entries ? lim->max_entries : HP_TREE_MAX_ENTRIES;
	int64_t deadline = hp_os_now_ms() + (lim->max_ms ? lim->max_ms : HP_TREE_MAX_MS);
	bool offline = (r->flags & HP_ROOT_OFFLINE) != 0;
	t = HP_FALSE;
	while (w->depth >= 0 && t == HP_FALSE) {
		frame *f = &w->st[w->depth];
		unsigned char dtype;
		const char *name = hp_os_dirents_next(&f->ls, &dtype);
		if (!name) {
			if (errno) {
				hp_err_set(why, "%s: reading the directory: %s", w->path,
				           strerror(errno));
				t = HP_UNKNOWN;
				break;
			}
			pop(w);
			continue;
		}
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (++lim->entries > max) {
			hp_err_set(why, "%s: more than %zu entries", top, max);
			t = HP_UNKNOWN;
			break;
		}
		if ((lim->entries & 255) == 0 && hp_os_now_ms() > deadline) {
			hp_err_set(why, "%s: the walk took longer than %lld ms", top,
			           (long long)(lim->max_ms ? lim->max_ms : HP_TREE_MAX_MS));
			t = HP_UNKNOWN;
			break;
		}
		int dfd = f->ls.fd;
		hp_fileinfo fi, now;
		/* a directory, as the listing says, is opened for listing first
		 * and described by one statx on that descriptor, where a statx
		 * by name and one on the descriptor would describe the same */
		bool tried = dtype == DT_DIR;
		int lfd = tried ? open_ahead(w, dfd, name, NULL, &now) : -1;
		if (lfd >= 0) {
			fi = now;
		} else if (hp_os_entry_info(dfd, name, &fi) < 0) {
			if (errno == ENOENT)
				continue; /* removed meanwhile */
			if (errno == EACCES) {
				/* listed but not searchable: nothing in it is
				 * reachable, as for one that cannot be opened */
				hp_err e;
				if (hp_os_access_kernel(dfd, HP_ACC_EXEC, &e) == HP_FALSE) {
					pop(w);
					continue;
				}
			}
			/* statx by name refused (a sandbox's seccomp filter):
			 * the facts of a descriptor on it, as fd_info reads them */
			int efd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (efd < 0 && errno == ENOENT)
				continue;
			if (efd < 0) {
				hp_err_set(why, "%s/%s: %s", dirpfx(w), name, strerror(errno));
				t = HP_UNKNOWN;
				break;
			}
			t = hp_os_fd_info(efd, &fi, why);
			close(efd);
			if (t != HP_TRUE) {
				t = HP_UNKNOWN;
				break;
			}
			t = HP_FALSE;
		}
		const char *pfx = dirpfx(w);
		size_t plen = strlen(pfx), nlen = strlen(name);
		memcpy(w->entry, pfx, plen);
		w->entry[plen] = '/';
		memcpy(w->entry + plen + 1, name, nlen + 1);
		bool enters = fi.type == HP_FT_DIR && (!offline || on_same_mount(&fi, &top_info));
		if (lfd >= 0 && !enters) {
			close(lfd);
			lfd = -1;
		}
		if (enters && lfd < 0 && !tried)
			lfd = open_ahead(w, dfd, name, &fi, &now);
		hp_tree_entry e = {-1, dfd, name, &fi, &f->info, f->magic, w->entry, 0,
		                   lfd, lfd >= 0 ? &now : NULL};
		t = fn(ctx, &e, why);
		if (t == HP_FALSE && fi.type == HP_FT_DIR) {
			if (!enters) {
				hp_err_set(why, "%s/%s: a mount inside the image", dirpfx(w),
				           name);
				t = HP_UNKNOWN;
			} else if (lfd >= 0) {
				enter(w, name, lfd, &now);
				lfd = -1;
			} else {
				t = push(w, dfd, name, &fi, why);
			}
		}
		if (lfd >= 0)
			close(lfd);
	}
	while (w->depth >= 0)
		pop(w);
	for (int i = 0; i <= HP_TREE_MAX_DEPTH; i++)
		hp_os_dirents_free(&w->st[i].ls);
	free(w);
	return t;
}
