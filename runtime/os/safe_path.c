/* safe_path.c: resolution inside a root, by openat2 or by a component walker. */
#include "os/safe_path.h"

#include "os/walkmemo.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/sysx.h"

const char *hp_os_ftype_name(hp_ftype t)
{
	static const char *const names[] = {"file",   "dir",  "symlink", "fifo",
	                                    "socket", "char", "block",   "other"};
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "other";
}

static hp_ftype ftype_of(unsigned m)
{
	switch (m & S_IFMT) {
	case S_IFREG:
		return HP_FT_FILE;
	case S_IFDIR:
		return HP_FT_DIR;
	case S_IFLNK:
		return HP_FT_SYMLINK;
	case S_IFIFO:
		return HP_FT_FIFO;
	case S_IFSOCK:
		return HP_FT_SOCKET;
	case S_IFCHR:
		return HP_FT_CHAR;
	case S_IFBLK:
		return HP_FT_BLOCK;
	default:
		return HP_FT_OTHER;
	}
}

/* Filesystems that do not report chattr flags through statx may still have
 * them (FS_IOC_GETFLAGS). Only regular files and directories are opened for
 * it: the ioctl on a device or FIFO would reach a driver. */
static void flags_by_ioctl(int fd, hp_fileinfo *fi)
{
	if (fi->type != HP_FT_FILE && fi->type != HP_FT_DIR)
		return;
	int rfd = hp_os_proc_reopen(fd, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (rfd < 0)
		return;
	struct stat st;
	int fl = 0;
	if (fstat(rfd, &st) == 0 && st.st_dev == fi->dev && st.st_ino == fi->ino) {
		if (ioctl(rfd, FS_IOC_GETFLAGS, &fl) == 0) {
			fi->attrs_known |= HP_ATTR_IMMUTABLE | HP_ATTR_APPEND;
			fi->attrs &= ~(unsigned)(HP_ATTR_IMMUTABLE | HP_ATTR_APPEND);
			if (fl & FS_IMMUTABLE_FL)
				fi->attrs |= HP_ATTR_IMMUTABLE;
			if (fl & FS_APPEND_FL)
				fi->attrs |= HP_ATTR_APPEND;
		} else if (errno == ENOTTY || errno == EOPNOTSUPP) {
			/* no flags on this filesystem: none can be set */
			fi->attrs_known |= HP_ATTR_IMMUTABLE | HP_ATTR_APPEND;
		}
	}
	close(rfd);
}

static void from_statx(const struct statx *sx, hp_fileinfo *fi)
{
	fi->type = ftype_of(sx->stx_mode);
	fi->uid = sx->stx_uid;
	fi->gid = sx->stx_gid;
	fi->mode = sx->stx_mode & 07777;
	fi->nlink = sx->stx_nlink;
	fi->size = sx->stx_size;
	fi->dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	fi->ino = sx->stx_ino;
	if (sx->stx_mask & STATX_MNT_ID) {
		fi->mnt_id = sx->stx_mnt_id;
		fi->has_mnt_id = 1;
	}
	uint64_t m = sx->stx_attributes_mask, a = sx->stx_attributes;
	if ((m & STATX_ATTR_IMMUTABLE) && (m & STATX_ATTR_APPEND))
		fi->attrs_known |= HP_ATTR_IMMUTABLE | HP_ATTR_APPEND;
	if (m & STATX_ATTR_MOUNT_ROOT)
		fi->attrs_known |= HP_ATTR_MOUNT_ROOT;
	if (a & STATX_ATTR_IMMUTABLE)
		fi->attrs |= HP_ATTR_IMMUTABLE;
	if (a & STATX_ATTR_APPEND)
		fi->attrs |= HP_ATTR_APPEND;
	if (a & STATX_ATTR_MOUNT_ROOT)
		fi->attrs |= HP_ATTR_MOUNT_ROOT;
}

hp_tri hp_os_fd_info(int fd, hp_fileinfo *fi, hp_err *why)
{
	memset(fi, 0, sizeof *fi);
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_MNT_ID,
	          &sx) == 0) {
		from_statx(&sx, fi);
	} else {
		struct stat st;
		if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
			hp_err_set(why, "stat: %s", strerror(errno));
			return HP_UNKNOWN;
		}
		fi->type = ftype_of(st.st_mode);
		fi->uid = st.st_uid;
		fi->gid = st.st_gid;
		fi->mode = st.st_mode & 07777;
		fi->nlink = st.st_nlink;
		fi->size = (uint64_t)st.st_size;
		fi->dev = st.st_dev;
		fi->ino = st.st_ino;
	}
	if (!(fi->attrs_known & HP_ATTR_IMMUTABLE))
		flags_by_ioctl(fd, fi);
	return HP_TRUE;
}

int hp_os_entry_info(int dirfd, const char *name, hp_fileinfo *fi)
{
	memset(fi, 0, sizeof *fi);
	struct statx sx;
	if (strchr(name, '/')) {
		errno = EINVAL;
		return -1;
	}
	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
	          STATX_BASIC_STATS | STATX_MNT_ID, &sx) < 0)
		return -1;
	from_statx(&sx, fi);
	return 0;
}

bool hp_os_same_file_on_mount(const hp_fileinfo *a, const hp_fileinfo *b)
{
	return a->has_mnt_id && b->has_mnt_id && a->dev == b->dev && a->ino == b->ino &&
	       a->mnt_id == b->mnt_id;
}

/* the same directory: device and inode, and mount when both know it */
static bool same_dir(const hp_fileinfo *a, const hp_fileinfo *b)
{
	if (a->dev != b->dev || a->ino != b->ino)
		return false;
	return !(a->has_mnt_id && b->has_mnt_id) || a->mnt_id == b->mnt_id;
}

hp_tri hp_os_dir_within(const hp_root *r, int fd, const hp_fileinfo *top, hp_err *why)
{
	int cur = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	hp_tri res = HP_UNKNOWN;
	if (cur < 0) {
		hp_err_set(why, "%s", strerror(errno));
		return HP_UNKNOWN;
	}
	for (int i = 0; i <= HP_WALK_MAX_STEPS; i++) {
		hp_fileinfo fi;
		if (hp_os_fd_info(cur, &fi, why) != HP_TRUE)
			break;
		if (same_dir(&fi, top)) {
			res = HP_TRUE;
			break;
		}
		if (fi.dev == r->dev && fi.ino == r->ino) {
			res = HP_FALSE; /* the root, and top is not it */
			break;
		}
		int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0) {
			hp_err_set(why, "the parent of a directory on the way: %s", strerror(errno));
			break;
		}
		hp_fileinfo ui;
		if (hp_os_fd_info(up, &ui, why) != HP_TRUE) {
			close(up);
			break;
		}
		close(cur);
		cur = up;
		if (ui.dev == fi.dev && ui.ino == fi.ino) {
			res = HP_FALSE; /* the top of the filesystem: no root met */
			break;
		}
		if (i == HP_WALK_MAX_STEPS)
			hp_err_set(why, "more than %d directories up", HP_WALK_MAX_STEPS);
	}
	close(cur);
	return res;
}

DIR *hp_os_opendir_path(int fd)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	close(fd);
	if (dfd < 0) {
		errno = e;
		return NULL;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		e = errno;
		close(dfd);
		errno = e;
	}
	return d;
}

hp_tri hp_os_root_open(hp_root *r, const char *dir, unsigned flags, hp_err *why)
{
	r->fd = -1;
	r->flags = flags;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		hp_err_set(why, "%s: cannot open as a root directory: %s", dir, strerror(errno));
		return HP_UNKNOWN;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		hp_err_set(why, "%s: %s", dir, strerror(errno));
		close(fd);
		return HP_UNKNOWN;
	}
	r->fd = fd;
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	return HP_TRUE;
}

hp_tri hp_os_root_at(hp_root *r, int fd, unsigned flags, hp_err *why)
{
	r->fd = -1;
	r->flags = flags;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		hp_err_set(why, "cannot use as a root directory: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	if (!S_ISDIR(st.st_mode)) {
		hp_err_set(why, "cannot use as a root directory: not a directory");
		return HP_UNKNOWN;
	}
	r->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (r->fd < 0) {
		hp_err_set(why, "cannot use as a root directory: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	r->dev = st.st_dev;
	r->ino = st.st_ino;
	return HP_TRUE;
}

void hp_os_root_close(hp_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static hp_tri check_path_arg(const char *path, hp_err *why)
{
	size_t n = strnlen(path, HP_PATH_MAX + 1);
	if (n == 0) {
		hp_err_set(why, "empty path");
		return HP_UNKNOWN;
	}
	if (n > HP_PATH_MAX) {
		hp_err_set(why, "path longer than %d bytes", HP_PATH_MAX);
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

/* The answer for a failed lookup: missing is false, anything else unknown. */
static hp_tri lookup_error(const char *path, int e, unsigned flags, hp_err *why)
{
	switch (e) {
	case EACCES:
		hp_err_set(why, "%s: a directory on the way refuses search", path);
		return (flags & HP_RES_DENIED_FALSE) ? HP_FALSE : HP_UNKNOWN;
	case ENOENT:
	case ENOTDIR:
		hp_err_set(why, "%s: no such file or directory", path);
		return HP_FALSE;
	case ELOOP:
		hp_err_set(why, "%s: too many levels of symbolic links, or a magic link", path);
		return HP_UNKNOWN;
	case EXDEV:
		if (flags & HP_RES_BENEATH)
			hp_err_set(why,
			           "%s: resolution would leave the directory it must stay beneath, "
			           "or cross a mount point",
			           path);
		else
			hp_err_set(why, "%s: resolution would cross a mount point or leave the root",
			           path);
		return HP_UNKNOWN;
	default:
		hp_err_set(why, "%s: %s", path, strerror(e));
		return HP_UNKNOWN;
	}
}

/* --- the component walker ------------------------------------------------ */

typedef struct {
	int fd[HP_WALK_MAX_DEPTH + 1];
	hp_fileinfo info[HP_WALK_MAX_DEPTH + 1];
	/* the descriptor is the root's or a walk memo's (walkmemo.h): never
	 * closed here */
	bool borrowed[HP_WALK_MAX_DEPTH + 1];
	int depth;
} dirstack;

static void stack_pop_to(dirstack *s, int depth)
{
	while (s->depth > depth) {
		if (!s->borrowed[s->depth])
			close(s->fd[s->depth]);
		s->depth--;
	}
}

/* A descriptor the caller will own: a borrowed one duplicated. */
static int owned_fd(int fd, bool borrowed)
{
	return borrowed ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : fd;
}

static void drop(int fd, bool borrowed)
{
	if (!borrowed && fd >= 0)
		close(fd);
}

/* The remaining path: components are taken from the front; a symlink's
 * target is put in front of what is left. */
typedef struct {
	char buf[2 * (HP_PATH_MAX + 1)];
	size_t off;
} pending;

static int pending_prepend(pending *p, const char *target, size_t tlen)
{
	size_t rest = strlen(p->buf + p->off);
	if (tlen + 1 + rest + 1 > sizeof p->buf)
		return -1;
	char tmp[sizeof p->buf];
	memcpy(tmp, target, tlen);
	tmp[tlen] = '/';
	memcpy(tmp + tlen + 1, p->buf + p->off, rest + 1);
	memcpy(p->buf, tmp, tlen + 1 + rest + 1);
	p->off = 0;
	return 0;
}

/* Next component into comp; returns its length, 0 when none is left. */
static size_t pending_next(pending *p, char *comp, size_t cap)
{
	const char *s = p->buf + p->off;
	while (*s == '/')
		s++;
	size_t n = strcspn(s, "/");
	if (n >= cap)
		n = cap - 1; /* cannot happen: names are shorter than the buffer */
	memcpy(comp, s, n);
	comp[n] = '\0';
	p->off = (size_t)(s - p->buf) + n;
	return n;
}

static int pending_empty(const pending *p)
{
	const char *s = p->buf + p->off;
	while (*s == '/')
		s++;
	return *s == '\0';
}

static int same_mount(const hp_fileinfo *a, const hp_fileinfo *b)
{
	if (a->has_mnt_id && b->has_mnt_id)
		return a->mnt_id == b->mnt_id;
	return a->dev == b->dev;
}

/* Whether a step to the listed entry e may take it from the memo: where no
 * descriptor is needed, a symlink followed or the end of a walk that reads
 * nothing through it (walkmemo.h); never a directory, which the walk
 * steps into on a descriptor. */
static bool listed_takes(const hp_listed *e, int last, unsigned flags)
{
	if (e->info.type == HP_FT_DIR)
		return false;
	if (!last || (flags & HP_RES_NO_FD))
		return true;
	return e->info.type == HP_FT_SYMLINK && !(flags & HP_RES_NOFOLLOW);
}

hp_tri hp_os_resolve_walk(const hp_root *r, const char *path, unsigned flags, hp_step_fn visit,
                       void *ctx, int *out, hp_err *why)
{
	return hp_os_resolve_walk_memo(r, path, flags, visit, ctx, NULL, out, why);
}

hp_tri hp_os_resolve_walk_memo(const hp_root *r, const char *path, unsigned flags,
                               hp_step_fn visit, void *ctx, hp_walkmemo *memo, int *out,
                               hp_err *why)
{
	*out = -1;
	if (check_path_arg(path, why) != HP_TRUE)
		return HP_UNKNOWN;
	dirstack *s = hp_xmalloc(sizeof *s);
	pending *p = hp_xmalloc(sizeof *p);
	char *comp = hp_xmalloc(HP_PATH_MAX + 1);
	char *link = hp_xmalloc(HP_PATH_MAX + 1);
	hp_tri res = HP_UNKNOWN;
	s->depth = 0;
	const hp_fileinfo *rinfo = memo ? hp_os_walkmemo_root(memo, r) : NULL;
	if (rinfo) {
		s->fd[0] = r->fd;
		s->borrowed[0] = true;
		s->info[0] = *rinfo;
	} else {
		s->borrowed[0] = false;
		s->fd[0] = fcntl(r->fd, F_DUPFD_CLOEXEC, 3);
		if (s->fd[0] < 0) {
			hp_err_set(why, "%s: %s", path, strerror(errno));
			s->depth = -1;
			goto done;
		}
		if (hp_os_fd_info(s->fd[0], &s->info[0], why) != HP_TRUE)
			goto done;
	}
	/* beneath: the root is where resolution must stay, so an absolute
	 * path, like an absolute symlink or a '..' above it below, leaves it */
	if ((flags & HP_RES_BENEATH) && path[0] == '/') {
		res = lookup_error(path, EXDEV, flags, why);
		goto done;
	}
	snprintf(p->buf, sizeof p->buf, "%s", path);
	p->off = 0;
	/* "dir/" names a directory, as the kernel resolves it: a symlink in
	 * the last place is followed, and what it ends on must be a directory */
	size_t plen = strlen(path);
	int trailing = plen > 0 && path[plen - 1] == '/';
	if (trailing)
		flags &= ~(unsigned)HP_RES_NOFOLLOW;
	int steps = 0, links = 0;
	for (;;) {
		size_t n = pending_next(p, comp, HP_PATH_MAX + 1);
		if (n == 0) {
			/* the path named the directory on top of the stack */
			if (flags & HP_RES_NO_FD) {
				res = HP_TRUE;
				goto done;
			}
			*out = owned_fd(s->fd[s->depth], s->borrowed[s->depth]);
			if (*out < 0) {
				hp_err_set(why, "%s: %s", path, strerror(errno));
				goto done;
			}
			if (!s->borrowed[s->depth])
				s->fd[s->depth] = -1;
			s->borrowed[s->depth] = true; /* nothing left to close there */
			res = HP_TRUE;
			goto done;
		}
		if (++steps > HP_WALK_MAX_STEPS) {
			hp_err_set(why, "%s: more than %d resolution steps", path,
			           HP_WALK_MAX_STEPS);
			goto done;
		}
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			if (s->depth > 0) {
				stack_pop_to(s, s->depth - 1);
			} else if (flags & HP_RES_BENEATH) {
				res = lookup_error(path, EXDEV, flags, why);
				goto done;
			}
			continue;
		}
		int last = pending_empty(p);
		int dirfd = s->fd[s->depth];
		const hp_fileinfo *dinfo = &s->info[s->depth];
		hp_fileinfo fi;
		const hp_fileinfo *known = NULL;
		int fd = memo ? hp_os_walkmemo_get(memo, dinfo, comp, &known) : -1;
		bool borrowed = fd >= 0;
		hp_listed *listed = !borrowed && memo ? hp_os_walkmemo_listed(memo, dinfo, comp) : NULL;
		if (listed && !listed_takes(listed, last, flags))
			listed = NULL;
		if (borrowed) {
			fi = *known;
		} else if (listed) {
			fi = listed->info;
		} else if (last && (flags & HP_RES_NO_FD) && hp_os_entry_info(dirfd, comp, &fi) == 0 &&
		           fi.type != HP_FT_DIR) {
			/* looked at by name, fd stays -1: what the name holds is
			 * changed between this and a readlinkat only by one who can
			 * write the directory, the step the visitor judges below */
		} else {
			fd = openat(dirfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				int e = errno;
				if (e == ENOENT && visit) {
					hp_step st = {dirfd, dinfo, comp, -1, NULL};
					visit(ctx, &st);
				}
				res = lookup_error(path, e, flags, why);
				goto done;
			}
			if (hp_os_fd_info(fd, &fi, why) != HP_TRUE) {
				close(fd);
				goto done;
			}
			if (memo)
				hp_os_walkmemo_put(memo, dinfo, comp, fd, &fi);
		}
		if ((r->flags & HP_ROOT_OFFLINE) && !same_mount(&fi, &s->info[0])) {
			drop(fd, borrowed);
			res = lookup_error(path, EXDEV, flags, why);
			goto done;
		}
		if ((flags & HP_RES_SAFE) && dinfo->uid != 0 && fi.uid != dinfo->uid) {
			hp_err_set(why,
			           "%s: unsafe ownership step at '%s' (owned by uid %u, in a "
			           "directory owned by uid %u)",
			           path, comp, (unsigned)fi.uid, (unsigned)dinfo->uid);
			drop(fd, borrowed);
			goto done;
		}
		if (visit) {
			hp_step st = {dirfd, dinfo, comp, fd, &fi};
			visit(ctx, &st);
		}
		if (fi.type == HP_FT_SYMLINK && !(last && (flags & HP_RES_NOFOLLOW))) {
			if (++links > HP_WALK_MAX_SYMLINKS) {
				drop(fd, borrowed);
				res = lookup_error(path, ELOOP, flags, why);
				goto done;
			}
			ssize_t ln;
			if (listed && listed->text) {
				ln = (ssize_t)strlen(listed->text);
				memcpy(link, listed->text, (size_t)ln);
			} else {
				ln = fd >= 0 ? readlinkat(fd, "", link, HP_PATH_MAX + 1)
				             : readlinkat(dirfd, comp, link, HP_PATH_MAX + 1);
				if (listed && ln > 0 && ln <= HP_PATH_MAX && !memchr(link, '\0', (size_t)ln))
					listed->text = hp_xstrndup(link, (size_t)ln);
			}
			int e = errno;
			drop(fd, borrowed);
			if (ln < 0 || ln > HP_PATH_MAX) {
				hp_err_set(why, "%s: reading symlink '%s': %s", path, comp,
				           ln < 0 ? strerror(e) : "target too long");
				goto done;
			}
			if (ln == 0) {
				res = lookup_error(path, ENOENT, flags, why);
				goto done;
			}
			if (link[0] == '/' && (flags & HP_RES_BENEATH)) {
				res = lookup_error(path, EXDEV, flags, why);
				goto done;
			}
			if (link[0] == '/')
				stack_pop_to(s, 0);
			if (pending_prepend(p, link, (size_t)ln) < 0) {
				hp_err_set(why, "%s: path longer than %d bytes after symlinks",
				           path, HP_PATH_MAX);
				goto done;
			}
			continue;
		}
		if (last && trailing && fi.type != HP_FT_DIR) {
			drop(fd, borrowed);
			res = lookup_error(path, ENOTDIR, flags, why);
			goto done;
		}
		if (last) {
			*out = fd < 0 ? -1 : owned_fd(fd, borrowed);
			if (*out < 0 && fd >= 0) {
				hp_err_set(why, "%s: %s", path, strerror(errno));
				goto done;
			}
			res = HP_TRUE;
			goto done;
		}
		if (fi.type != HP_FT_DIR) {
			drop(fd, borrowed);
			res = lookup_error(path, ENOTDIR, flags, why);
			goto done;
		}
		if (s->depth == HP_WALK_MAX_DEPTH) {
			drop(fd, borrowed);
			hp_err_set(why, "%s: deeper than %d directories", path, HP_WALK_MAX_DEPTH);
			goto done;
		}
		s->depth++;
		s->fd[s->depth] = fd;
		s->borrowed[s->depth] = borrowed;
		s->info[s->depth] = fi;
	}
done:
	if (s->depth >= 0)
		stack_pop_to(s, 0);
	if (s->depth == 0 && s->fd[0] >= 0 && !s->borrowed[0])
		close(s->fd[0]);
	free(link);
	free(comp);
	free(p);
	free(s);
	return res;
}

/* --- openat2 ------------------------------------------------------------- */

hp_tri hp_os_resolve(const hp_root *r, const char *path, unsigned flags, int *out, hp_err *why)
{
	*out = -1;
	if (check_path_arg(path, why) != HP_TRUE)
		return HP_UNKNOWN;
	if ((r->flags & HP_ROOT_WALK) || (flags & HP_RES_SAFE))
		return hp_os_resolve_walk(r, path, flags, NULL, NULL, out, why);
	uint64_t oflags = O_PATH | O_CLOEXEC | ((flags & HP_RES_NOFOLLOW) ? O_NOFOLLOW : 0);
	uint64_t res = ((flags & HP_RES_BENEATH) ? RESOLVE_BENEATH : RESOLVE_IN_ROOT) |
	               RESOLVE_NO_MAGICLINKS;
	if (r->flags & HP_ROOT_OFFLINE)
		res |= RESOLVE_NO_XDEV;
	for (int i = 0; i < HP_OPENAT2_TRIES; i++) {
		int fd = hp_os_sys_openat2(r->fd, path, oflags, 0, res);
		if (fd >= 0) {
			*out = fd;
			return HP_TRUE;
		}
		int e = errno;
		if (e == EAGAIN || e == EINTR)
			continue;
		if (e == ENOSYS || e == EPERM || e == E2BIG)
			return hp_os_resolve_walk(r, path, flags, NULL, NULL, out, why);
		return lookup_error(path, e, flags, why);
	}
	hp_err_set(why, "%s: the tree kept changing while it was resolved (%d tries)", path,
	           HP_OPENAT2_TRIES);
	return HP_UNKNOWN;
}

hp_tri hp_os_path_info(const hp_root *r, const char *path, unsigned flags, hp_fileinfo *fi,
                    hp_err *why)
{
	int fd;
	hp_tri t = hp_os_resolve(r, path, flags, &fd, why);
	if (t != HP_TRUE)
		return t;
	hp_err e2;
	t = hp_os_fd_info(fd, fi, &e2);
	close(fd);
	if (t != HP_TRUE)
		hp_err_set(why, "%s: %s", path, e2.msg);
	return t;
}
