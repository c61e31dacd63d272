/* setuid_scan.c: setuid/setgid-root and file-capability executables in a dir. */
#include "os/setuid_scan.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "lib/strv.h"
#include "os/sysx.h"

/* Whether the file behind an O_PATH descriptor has file capabilities. */
static hp_tri has_file_caps(int fd, hp_err *why)
{
	char p[64];
	if (hp_os_proc_fd_path(fd, p, sizeof p, why) < 0)
		return HP_UNKNOWN;
	ssize_t n = getxattr(p, "security.capability", NULL, 0);
	if (n > 0)
		return HP_TRUE;
	if (n == 0 || errno == ENODATA || errno == ENOTSUP)
		return HP_FALSE;
	hp_err_set(why, "reading security.capability: %s", strerror(errno));
	return HP_UNKNOWN;
}

/* What makes the regular file fi (descriptor fd) a privilege raiser. */
static hp_tri classify(int fd, const hp_fileinfo *fi, unsigned *what, hp_err *why)
{
	*what = 0;
	if (fi->type != HP_FT_FILE || !(fi->mode & 0111))
		return HP_TRUE;
	if ((fi->mode & S_ISUID) && fi->uid == 0)
		*what |= HP_SUID_ROOT;
	if ((fi->mode & S_ISGID) && fi->gid == 0)
		*what |= HP_SGID_ROOT;
	hp_tri c = has_file_caps(fd, why);
	if (c == HP_UNKNOWN)
		return HP_UNKNOWN;
	if (c == HP_TRUE)
		*what |= HP_FILE_CAPS;
	return HP_TRUE;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const hp_suid_entry *)a)->name, ((const hp_suid_entry *)b)->name);
}

void hp_os_suid_list_free(hp_suid_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void append(hp_suid_list *out, size_t *cap, const char *name, unsigned what, unsigned mode,
                   int via)
{
	out->v = hp_xgrow(out->v, cap, out->n + 1, sizeof *out->v);
	hp_suid_entry *x = &out->v[out->n++];
	x->name = hp_xstrdup(name);
	x->why = what;
	x->mode = mode;
	x->via_symlink = via;
	/* only root's ids are looked for here (the bits say so): no owner kept */
	x->uid = (uid_t)-1;
	x->gid = (gid_t)-1;
}

/* An entry reached through a symlink: resolved inside the root, as the
 * driver's exec would find it. The slow path; PATH directories hold few. */
static hp_tri via_symlink(const hp_root *r, const char *dir, const char *name, hp_suid_list *out,
                          size_t *cap, hp_err *why)
{
	int fd = -1;
	hp_fileinfo fi;
	hp_err e;
	char *p = hp_xasprintf("%s/%s", dir, name);
	hp_tri t = hp_os_resolve(r, p, 0, &fd, &e);
	free(p);
	if (t == HP_FALSE)
		return HP_TRUE; /* dangling: runs nothing */
	if (t == HP_TRUE)
		t = hp_os_fd_info(fd, &fi, &e);
	unsigned what = 0;
	if (t == HP_TRUE)
		t = classify(fd, &fi, &what, &e);
	if (fd >= 0)
		close(fd);
	if (t != HP_TRUE) {
		hp_err_set(why, "%s/%s: %s", dir, name, e.msg);
		return HP_UNKNOWN;
	}
	if (what)
		append(out, cap, name, what, fi.mode, 1);
	return HP_TRUE;
}

/* What one scan learnt of the capability xattr of each executable it read
 * it for, by inode: a symlink to a file of the same directory
 * (/usr/bin/python3 -> python3.11, and the alternatives that lead back into
 * /usr/bin) is answered from it instead of a second path walk and a
 * second read. The inode's change time is part of the key: setting or
 * removing the attribute changes it, so a file changed in between is read
 * again, never answered from the memo. */
typedef struct {
	dev_t dev;
	ino_t ino;
	struct timespec ctime;
	bool used, caps;
} caps_slot;

typedef struct {
	caps_slot *v;
	size_t cap; /* a power of two, or 0 */
	size_t n;
} caps_memo;

static size_t memo_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4full;
	return (size_t)(h ^ (h >> 29));
}

static caps_slot *memo_find(const caps_memo *m, const struct stat *st)
{
	if (!m->cap)
		return NULL;
	for (size_t i = memo_hash(st->st_dev, st->st_ino) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		caps_slot *c = &m->v[i];
		if (!c->used)
			return NULL;
		if (c->dev == st->st_dev && c->ino == st->st_ino)
			return c;
	}
}

static void memo_put(caps_memo *m, const struct stat *st, bool caps)
{
	if (2 * (m->n + 1) > m->cap) {
		caps_memo g = {NULL, m->cap ? 2 * m->cap : 256, 0};
		g.v = hp_xcalloc(g.cap, sizeof *g.v);
		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].used) {
				size_t k = memo_hash(m->v[i].dev, m->v[i].ino) & (g.cap - 1);
				while (g.v[k].used)
					k = (k + 1) & (g.cap - 1);
				g.v[k] = m->v[i];
				g.n++;
			}
		free(m->v);
		*m = g;
	}
	size_t k = memo_hash(st->st_dev, st->st_ino) & (m->cap - 1);
	while (m->v[k].used && !(m->v[k].dev == st->st_dev && m->v[k].ino == st->st_ino))
		k = (k + 1) & (m->cap - 1);
	if (!m->v[k].used)
		m->n++;
	m->v[k] = (caps_slot){st->st_dev, st->st_ino, st->st_ctim, true, caps};
}

/* The memo's answer for the file st describes, when it has one as fresh. */
static bool memo_answer(const caps_memo *m, const struct stat *st, bool *caps)
{
	const caps_slot *c = memo_find(m, st);
	if (!c || c->ctime.tv_sec != st->st_ctim.tv_sec || c->ctime.tv_nsec != st->st_ctim.tv_nsec)
		return false;
	*caps = c->caps;
	return true;
}

/* One entry of the directory; appends to out when it raises privilege.
 * Most entries cost one fstatat and one getxattrat: the directory's kind
 * hint skips what cannot run, and the capability xattr is read relative to
 * the directory's descriptor, or (*xattrat false: the kernel lacks
 * getxattrat or a filter refuses it) by name below the directory's
 * /proc/self/fd link (procfs checked once, by the caller). */
static hp_tri one_entry(const hp_root *r, bool root_is_slash, const char *dir, int dfd,
                        const char *name, unsigned char d_type, const char *fdpath,
                        bool *xattrat, caps_memo *memo, hp_suid_list *out, size_t *cap,
                        hp_err *why)
{
	switch (d_type) {
	case DT_DIR:
	case DT_FIFO:
	case DT_SOCK:
	case DT_CHR:
	case DT_BLK:
		return HP_TRUE; /* never run as a program */
	default:
		break;
	}
	struct stat st;
	int via = 0;
	if (d_type == DT_LNK && root_is_slash) {
		/* the directory says symlink: its target at once, as exec finds
		 * it (the link's own inode says nothing a scan needs) */
		if (fstatat(dfd, name, &st, 0) == 0) {
			via = 1;
		} else {
			/* dangling, a loop, or gone: what the link itself is
			 * decides, as when it is looked at first */
			if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
				if (errno == ENOENT)
					return HP_TRUE; /* removed meanwhile */
				hp_err_set(why, "%s/%s: %s", dir, name, strerror(errno));
				return HP_UNKNOWN;
			}
			if (S_ISLNK(st.st_mode))
				return HP_TRUE; /* dangling or a loop: runs nothing */
			/* replaced by a file meanwhile: that file, as below */
		}
	} else {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno == ENOENT)
				return HP_TRUE; /* removed meanwhile */
			hp_err_set(why, "%s/%s: %s", dir, name, strerror(errno));
			return HP_UNKNOWN;
		}
		if (S_ISLNK(st.st_mode)) {
			/* An image root must be walked inside the root; on the live
			 * system the root is /, where the kernel's own resolution is
			 * the same walk, and much cheaper. */
			if (!root_is_slash)
				return via_symlink(r, dir, name, out, cap, why);
			if (fstatat(dfd, name, &st, 0) != 0)
				return HP_TRUE; /* dangling or a loop: runs nothing */
			via = 1;
		}
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return HP_TRUE;
	unsigned what = 0;
	if ((st.st_mode & S_ISUID) && st.st_uid == 0)
		what |= HP_SUID_ROOT;
	if ((st.st_mode & S_ISGID) && st.st_gid == 0)
		what |= HP_SGID_ROOT;
	/* getxattrat on the directory's descriptor where the kernel has it
	 * (half the cost of a path through /proc/self/fd); else by name
	 * below the directory's /proc/self/fd link. Not following: an entry
	 * swapped for a symlink meanwhile is not followed. */
	bool known;
	if (via && memo_answer(memo, &st, &known)) {
		if (known)
			what |= HP_FILE_CAPS;
		if (what)
			append(out, cap, name, what, (unsigned)st.st_mode & 07777u, via);
		return HP_TRUE;
	}
	ssize_t x = -1;
	errno = ENOSYS;
	if (*xattrat)
		x = hp_os_sys_getxattrat_size(dfd, name, via ? 0 : AT_SYMLINK_NOFOLLOW,
		                           "security.capability");
	if (x < 0 && (errno == ENOSYS || errno == EPERM)) {
		*xattrat = false;
		char xpath[4200];
		int n = snprintf(xpath, sizeof xpath, "%s/%s", fdpath, name);
		if (n < 0 || (size_t)n >= sizeof xpath) {
			hp_err_set(why, "%s/%s: name too long", dir, name);
			return HP_UNKNOWN;
		}
		x = via ? getxattr(xpath, "security.capability", NULL, 0)
		        : lgetxattr(xpath, "security.capability", NULL, 0);
	}
	if (x > 0)
		what |= HP_FILE_CAPS;
	else if (x < 0 && errno != ENODATA && errno != ENOTSUP) {
		if (errno == ENOENT)
			return HP_TRUE;
		hp_err_set(why, "%s/%s: reading security.capability: %s", dir, name,
		           strerror(errno));
		return HP_UNKNOWN;
	}
	if (root_is_slash)
		memo_put(memo, &st, x > 0);
	if (what)
		append(out, cap, name, what, (unsigned)st.st_mode & 07777u, via);
	return HP_TRUE;
}

hp_tri hp_os_setuid_scan(const hp_root *r, const char *dir, size_t max_entries, hp_suid_list *out,
                      hp_err *why)
{
	out->v = NULL;
	out->n = 0;
	int pfd;
	hp_tri t = hp_os_resolve(r, dir, 0, &pfd, why);
	if (t != HP_TRUE)
		return t;
	hp_fileinfo fi;
	if (hp_os_fd_info(pfd, &fi, why) != HP_TRUE) {
		close(pfd);
		return HP_UNKNOWN;
	}
	if (fi.type != HP_FT_DIR) {
		close(pfd);
		hp_err_set(why, "%s: not a directory (%s)", dir, hp_os_ftype_name(fi.type));
		return HP_UNKNOWN;
	}
	DIR *d = hp_os_opendir_path(pfd);
	if (!d) {
		hp_err_set(why, "%s: %s", dir, strerror(errno));
		return HP_UNKNOWN;
	}
	/* Symlinks may take the kernel's own resolution only when the root is
	 * this system's /, and never offline. */
	struct stat rs, ss;
	bool root_is_slash = !(r->flags & HP_ROOT_OFFLINE) && fstat(r->fd, &rs) == 0 &&
	                     stat("/", &ss) == 0 && rs.st_dev == ss.st_dev &&
	                     rs.st_ino == ss.st_ino;
	char fdpath[64];
	if (hp_os_proc_fd_path(dirfd(d), fdpath, sizeof fdpath, why) < 0) {
		closedir(d);
		return HP_UNKNOWN;
	}
	size_t cap = 0, seen = 0;
	bool xattrat = true;
	caps_memo memo = {NULL, 0, 0};
	/* symlinks after the files, so that those that lead to a file of
	 * this directory find its answer in the memo */
	hp_strv links = {0};
	t = HP_TRUE;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			if (errno) {
				hp_err_set(why, "%s: reading the directory: %s", dir,
				           strerror(errno));
				t = HP_UNKNOWN;
			}
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (++seen > max_entries) {
			hp_err_set(why, "%s: more than %zu entries", dir, max_entries);
			t = HP_UNKNOWN;
			break;
		}
		if (de->d_type == DT_LNK && root_is_slash) {
			hp_strv_push(&links, de->d_name);
			continue;
		}
		t = one_entry(r, root_is_slash, dir, dirfd(d), de->d_name, de->d_type, fdpath,
		              &xattrat, &memo, out, &cap, why);
		if (t != HP_TRUE)
			break;
	}
	for (size_t i = 0; t == HP_TRUE && i < links.n; i++)
		t = one_entry(r, root_is_slash, dir, dirfd(d), links.v[i], DT_LNK, fdpath,
		              &xattrat, &memo, out, &cap, why);
	hp_strv_free(&links);
	free(memo.v);
	closedir(d);
	if (t != HP_TRUE) {
		hp_os_suid_list_free(out);
		return HP_UNKNOWN;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_entry);
	return HP_TRUE;
}
