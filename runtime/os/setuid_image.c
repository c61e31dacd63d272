/* setuid_image.c: setuid and setgid executables (to any user or group) and
 * file-capability executables on every filesystem that honours setuid
 * (setuid_image.h). */
#include "os/setuid_image.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "os/dirents.h"
#include "os/sysx.h"

int hp_os_setuid_fs_skipped(const char *fstype)
{
	static const char *const kernel_fs[] = {
	    "proc",    "sysfs",      "cgroup",  "cgroup2",   "devpts",   "mqueue",
	    "securityfs", "debugfs", "tracefs", "bpf",       "pstore",   "configfs",
	    "fusectl", "binfmt_misc", "efivarfs", "autofs",  "rpc_pipefs", "nsfs",
	    "selinuxfs", "hugetlbfs",
	};
	for (size_t i = 0; i < sizeof kernel_fs / sizeof kernel_fs[0]; i++)
		if (strcmp(fstype, kernel_fs[i]) == 0)
			return 1;
	return 0;
}

int hp_os_mount_nosuid(const hp_mount *m)
{
	const char *o = m->options;
	size_t n = strlen("nosuid");
	while (o && *o) {
		size_t len = strcspn(o, ",");
		if (len == n && strncmp(o, "nosuid", n) == 0)
			return 1;
		o += len;
		if (*o == ',')
			o++;
	}
	return 0;
}

/* One directory being read: its stream and where its name ends in the path. */
typedef struct {
	hp_dirents ls;
	size_t len;
	char fdpath[64]; /* /proc/self/fd/N, made when getxattrat is missing */
} frame;

typedef struct {
	char path[HP_PATH_MAX + 1];
	frame st[HP_SETUID_IMAGE_MAX_DEPTH + 1];
	int depth;
	uint64_t mnt_id;
	int has_mnt_id;
	dev_t dev;
	int skip_other_mounts;
	bool xattrat;
	hp_setuid_budget *b;
	int64_t deadline;
	hp_suid_list *out;
	size_t cap;
	hp_err *why;
} walk;

/* the current directory's path as a prefix of "/name": "" for the root */
static const char *dirpfx(const walk *w)
{
	return strcmp(w->path, "/") == 0 ? "" : w->path;
}

/* What a regular executable's mode and owners make it: HP_SUID/HP_SGID for
 * setuid/setgid to anyone, the _ROOT bits when that one is root. */
unsigned hp_os_setid_bits(unsigned mode, uid_t uid, gid_t gid)
{
	unsigned what = 0;
	if (mode & S_ISUID)
		what |= HP_SUID | (uid == 0 ? HP_SUID_ROOT : 0);
	if (mode & S_ISGID)
		what |= HP_SGID | (gid == 0 ? HP_SGID_ROOT : 0);
	return what;
}

static void add(walk *w, const char *name, unsigned what, unsigned mode, uid_t uid, gid_t gid)
{
	w->out->v = hp_xgrow(w->out->v, &w->cap, w->out->n + 1, sizeof *w->out->v);
	hp_suid_entry *x = &w->out->v[w->out->n++];
	/* the top of a walk of "/" is "/" itself: no second slash */
	x->name = hp_xpath_join(w->path, name);
	x->why = what;
	x->mode = mode;
	x->via_symlink = 0;
	x->uid = uid;
	x->gid = gid;
}

/* Whether the entry (not followed) carries file capabilities. */
static hp_tri file_caps(walk *w, int dfd, const char *name)
{
	ssize_t x = -1;
	errno = ENOSYS;
	if (w->xattrat)
		x = hp_os_sys_getxattrat_size(dfd, name, AT_SYMLINK_NOFOLLOW, "security.capability");
	if (x < 0 && (errno == ENOSYS || errno == EPERM)) {
		w->xattrat = false;
		frame *f = &w->st[w->depth];
		if (!f->fdpath[0] && hp_os_proc_fd_path(dfd, f->fdpath, sizeof f->fdpath, w->why) < 0)
			return HP_UNKNOWN;
		char xpath[4200];
		int n = snprintf(xpath, sizeof xpath, "%s/%s", f->fdpath, name);
		if (n < 0 || (size_t)n >= sizeof xpath) {
			hp_err_set(w->why, "%s/%s: name too long", dirpfx(w), name);
			return HP_UNKNOWN;
		}
		x = lgetxattr(xpath, "security.capability", NULL, 0);
	}
	if (x > 0)
		return HP_TRUE;
	if (x == 0 || errno == ENODATA || errno == ENOTSUP || errno == ENOENT)
		return HP_FALSE;
	hp_err_set(w->why, "%s/%s: reading security.capability: %s", dirpfx(w), name,
	           strerror(errno));
	return HP_UNKNOWN;
}

static int same_mount(const walk *w, const struct statx *sx)
{
	if (w->has_mnt_id && (sx->stx_mask & STATX_MNT_ID))
		return sx->stx_mnt_id == w->mnt_id;
	return makedev(sx->stx_dev_major, sx->stx_dev_minor) == w->dev;
}

/* Descend into directory name of the top frame. */
static hp_tri push(walk *w, int dfd, const char *name)
{
	if (w->depth == HP_SETUID_IMAGE_MAX_DEPTH) {
		/* the reason first: a path this deep fills the message */
		hp_err_set(w->why, "more than %d directories deep: %s/%s",
		           HP_SETUID_IMAGE_MAX_DEPTH, dirpfx(w), name);
		return HP_UNKNOWN;
	}
	size_t base = w->st[w->depth].len, n = strlen(name);
	if (base + 1 + n > HP_PATH_MAX) {
		hp_err_set(w->why, "a path longer than %d bytes: %s/%s", HP_PATH_MAX, dirpfx(w),
		           name);
		return HP_UNKNOWN;
	}
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return HP_TRUE; /* removed or replaced meanwhile: found where it went */
		hp_err_set(w->why, "%s/%s: %s", dirpfx(w), name, strerror(errno));
		return HP_UNKNOWN;
	}
	if (strcmp(w->path, "/") != 0)
		w->path[base++] = '/';
	memcpy(w->path + base, name, n + 1);
	w->depth++;
	frame *f = &w->st[w->depth];
	hp_os_dirents_start(&f->ls, fd);
	f->len = base + n;
	f->fdpath[0] = '\0';
	return HP_TRUE;
}

static hp_tri entry(walk *w, int dfd, const char *name, unsigned char type)
{
	switch (type) {
	case DT_LNK:
	case DT_FIFO:
	case DT_SOCK:
	case DT_CHR:
	case DT_BLK:
		return HP_TRUE; /* never run as a setuid program where it is */
	default:
		break;
	}
	struct statx sx;
	if (statx(dfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
	          STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_MNT_ID, &sx) != 0) {
		if (errno == ENOENT)
			return HP_TRUE;
		hp_err_set(w->why, "%s/%s: %s", dirpfx(w), name, strerror(errno));
		return HP_UNKNOWN;
	}
	if (S_ISDIR(sx.stx_mode)) {
		if (!same_mount(w, &sx)) {
			if (w->skip_other_mounts)
				return HP_TRUE; /* walked on its own, or nosuid */
			hp_err_set(w->why, "%s/%s: a mount inside the image", dirpfx(w), name);
			return HP_UNKNOWN;
		}
		return push(w, dfd, name);
	}
	if (!S_ISREG(sx.stx_mode) || !(sx.stx_mode & 0111))
		return HP_TRUE;
	unsigned what = hp_os_setid_bits(sx.stx_mode, sx.stx_uid, sx.stx_gid);
	hp_tri c = file_caps(w, dfd, name);
	if (c == HP_UNKNOWN)
		return HP_UNKNOWN;
	if (c == HP_TRUE)
		what |= HP_FILE_CAPS;
	if (what)
		add(w, name, what, (unsigned)sx.stx_mode & 07777u, sx.stx_uid, sx.stx_gid);
	return HP_TRUE;
}

static void pop(walk *w)
{
	hp_os_dirents_end(&w->st[w->depth].ls);
	w->depth--;
	if (w->depth >= 0)
		w->path[w->st[w->depth].len] = '\0';
}

hp_tri hp_os_setuid_tree(const hp_root *r, const char *top, int skip_other_mounts,
                      hp_setuid_budget *b, int64_t deadline, hp_suid_list *out, hp_err *why)
{
	size_t tlen = strlen(top);
	if (tlen == 0 || top[0] != '/' || tlen > HP_PATH_MAX) {
		hp_err_set(why, "%s: not an absolute path", top);
		return HP_UNKNOWN;
	}
	int pfd;
	hp_tri t = hp_os_resolve(r, top, 0, &pfd, why);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_TRUE : HP_UNKNOWN; /* no such tree: nothing in it */
	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	close(pfd);
	if (fd < 0) {
		hp_err_set(why, "%s: %s", top, strerror(e));
		return HP_UNKNOWN;
	}
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) != 0) {
		hp_err_set(why, "%s: %s", top, strerror(errno));
		close(fd);
		return HP_UNKNOWN;
	}
	walk *w = hp_xcalloc(1, sizeof *w);
	/* paths are shown without a trailing slash, "/" alone for the root */
	while (tlen > 1 && top[tlen - 1] == '/')
		tlen--;
	memcpy(w->path, top, tlen);
	w->path[tlen] = '\0';
	hp_os_dirents_start(&w->st[0].ls, fd);
	w->st[0].len = tlen;
	w->has_mnt_id = (sx.stx_mask & STATX_MNT_ID) != 0;
	w->mnt_id = sx.stx_mnt_id;
	w->dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	w->skip_other_mounts = skip_other_mounts;
	w->xattrat = true;
	w->b = b;
	w->deadline = deadline;
	w->out = out;
	w->cap = out->n;
	w->why = why;
	size_t max = b->max_entries ? b->max_entries : HP_SETUID_IMAGE_MAX_ENTRIES;
	b->trees++;
	t = HP_TRUE;
	while (w->depth >= 0 && t == HP_TRUE) {
		frame *f = &w->st[w->depth];
		unsigned char type;
		const char *name = hp_os_dirents_next(&f->ls, &type);
		if (!name) {
			/* a directory removed since it was opened is empty (rmdir
			 * takes only empty ones) and can never hold an entry again:
			 * its end, as readdir has it, so that an agent removing its
			 * own directories under the scan cannot make it unknown */
			if (errno && errno != ENOENT) {
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
		if (++b->entries > max) {
			hp_err_set(why, "more than %zu entries on the filesystems that honour setuid",
			           max);
			t = HP_UNKNOWN;
			break;
		}
		if ((b->entries & 1023) == 0 && deadline && hp_os_now_ms() > deadline) {
			hp_err_set(why, "the walk took longer than its %lld ms, at %s",
			           (long long)(b->max_ms ? b->max_ms : HP_SETUID_IMAGE_MAX_MS),
			           w->path);
			t = HP_UNKNOWN;
			break;
		}
		t = entry(w, f->ls.fd, name, type);
	}
	while (w->depth >= 0)
		pop(w);
	for (int i = 0; i <= HP_SETUID_IMAGE_MAX_DEPTH; i++)
		hp_os_dirents_free(&w->st[i].ls);
	free(w);
	return t;
}

/* A mount whose root is a file (a bind mount of one file, as container
 * runtimes make for resolv.conf, and as anyone could make for a setuid
 * program): the file alone. fd is an O_PATH descriptor of it. */
static hp_tri mounted_file(int fd, const char *path, hp_setuid_budget *b, hp_suid_list *out,
                           size_t *cap, hp_err *why)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		hp_err_set(why, "%s: %s", path, strerror(errno));
		return HP_UNKNOWN;
	}
	b->entries++;
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return HP_TRUE;
	unsigned what = hp_os_setid_bits(st.st_mode, st.st_uid, st.st_gid);
	char p[64];
	if (hp_os_proc_fd_path(fd, p, sizeof p, why) < 0)
		return HP_UNKNOWN;
	ssize_t x = getxattr(p, "security.capability", NULL, 0);
	if (x > 0)
		what |= HP_FILE_CAPS;
	else if (x < 0 && errno != ENODATA && errno != ENOTSUP) {
		hp_err_set(why, "%s: reading security.capability: %s", path, strerror(errno));
		return HP_UNKNOWN;
	}
	if (!what)
		return HP_TRUE;
	out->v = hp_xgrow(out->v, cap, out->n + 1, sizeof *out->v);
	out->v[out->n++] = (hp_suid_entry){hp_xstrdup(path), what, (unsigned)st.st_mode & 07777u, 0,
	                                   st.st_uid, st.st_gid};
	return HP_TRUE;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const hp_suid_entry *)a)->name, ((const hp_suid_entry *)b)->name);
}

hp_tri hp_os_setuid_image(const hp_root *r, const hp_mounts *mounts, hp_setuid_budget *b,
                       hp_suid_list *out, hp_err *why)
{
	out->v = NULL;
	out->n = 0;
	int64_t start = hp_os_now_ms();
	int64_t deadline = start + (b->max_ms ? b->max_ms : HP_SETUID_IMAGE_MAX_MS);
	hp_tri t = HP_TRUE;
	if (!mounts) {
		t = hp_os_setuid_tree(r, "/", 0, b, deadline, out, why);
	} else {
		for (size_t i = 0; i < mounts->n && t == HP_TRUE; i++) {
			const hp_mount *m = &mounts->v[i];
			if (hp_os_mount_nosuid(m) || hp_os_setuid_fs_skipped(m->fstype))
				continue;
			/* the mount point's path may lead to another mount stacked on
			 * top: walk only when it leads to this one */
			int fd;
			hp_err e;
			hp_tri rt = hp_os_resolve(r, m->mount_point, 0, &fd, &e);
			if (rt == HP_FALSE)
				continue; /* not reachable by a path from here */
			if (rt != HP_TRUE) {
				hp_err_set(why, "the mount at %s: %s", m->mount_point, e.msg);
				t = HP_UNKNOWN;
				break;
			}
			struct statx sx;
			int ok = statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_MNT_ID, &sx) == 0;
			if (ok && (sx.stx_mask & STATX_MNT_ID) && sx.stx_mnt_id == m->id &&
			    !S_ISDIR(sx.stx_mode)) {
				size_t cap = out->n;
				t = mounted_file(fd, m->mount_point, b, out, &cap, why);
				close(fd);
				continue;
			}
			close(fd);
			if (!ok || !(sx.stx_mask & STATX_MNT_ID)) {
				hp_err_set(why,
				           "the mount at %s: the kernel does not say which mount a "
				           "path is on (statx STATX_MNT_ID)",
				           m->mount_point);
				t = HP_UNKNOWN;
				break;
			}
			if (sx.stx_mnt_id != m->id)
				continue; /* hidden under another mount */
			t = hp_os_setuid_tree(r, m->mount_point, 1, b, deadline, out, why);
		}
	}
	b->ms = hp_os_now_ms() - start;
	if (t != HP_TRUE) {
		hp_os_suid_list_free(out);
		return HP_UNKNOWN;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_name);
	return HP_TRUE;
}
