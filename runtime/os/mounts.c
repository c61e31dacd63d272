/* mounts.c: parse mountinfo and match descriptors to mounts. */
#include "os/mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/bounded_read.h"
#include "os/safe_path.h"
#include "os/sysx.h"

/* Split off the next space-separated field of [*p, end); NULL at the end. */
static const char *next_field(const char **p, const char *end, size_t *flen)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return NULL;
	const char *e = s;
	while (e < end && *e != ' ')
		e++;
	*flen = (size_t)(e - s);
	*p = e;
	return s;
}

static char *unescape(const char *s, size_t n)
{
	char *out = hp_xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			out[k++] = (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
			                  (s[i + 3] - '0'));
			i += 3;
		} else {
			out[k++] = s[i];
		}
	}
	out[k] = '\0';
	return out;
}

static int parse_u64(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	if (n == 0 || n > 20)
		return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		uint64_t d = (uint64_t)(s[i] - '0');
		if (x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

static int has_option(const char *opts, const char *want)
{
	size_t wl = strlen(want);
	for (const char *p = opts; *p;) {
		size_t n = strcspn(p, ",");
		if (n == wl && memcmp(p, want, wl) == 0)
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void free_one(hp_mount *x)
{
	free(x->root);
	free(x->mount_point);
	free(x->options);
	free(x->fstype);
	free(x->source);
	free(x->super_options);
}

/* One line into x; a message (without the line number) on error. */
static const char *parse_line(const char *p, const char *end, hp_mount *x)
{
	memset(x, 0, sizeof *x);
	const char *f;
	size_t n;
	uint64_t v;
	if (!(f = next_field(&p, end, &n)) || parse_u64(f, n, UINT64_MAX, &x->id))
		return "bad mount id";
	if (!(f = next_field(&p, end, &n)) || parse_u64(f, n, UINT64_MAX, &x->parent))
		return "bad parent id";
	if (!(f = next_field(&p, end, &n)))
		return "no device number";
	const char *colon = memchr(f, ':', n);
	if (!colon || parse_u64(f, (size_t)(colon - f), UINT32_MAX, &v))
		return "bad device number";
	x->major = (unsigned)v;
	if (parse_u64(colon + 1, n - (size_t)(colon + 1 - f), UINT32_MAX, &v))
		return "bad device number";
	x->minor = (unsigned)v;
	const char *fields[3];
	size_t lens[3];
	for (int i = 0; i < 3; i++)
		if (!(fields[i] = next_field(&p, end, &lens[i])))
			return "too few fields";
	/* optional fields up to the lone "-" */
	int sep = 0;
	for (int i = 0; i < 64 && (f = next_field(&p, end, &n)); i++)
		if (n == 1 && f[0] == '-') {
			sep = 1;
			break;
		}
	if (!sep)
		return "no ' - ' separator";
	const char *tail[3];
	size_t tl[3];
	for (int i = 0; i < 3; i++)
		if (!(tail[i] = next_field(&p, end, &tl[i])))
			return "too few fields after ' - '";
	if (next_field(&p, end, &n))
		return "extra fields at the end";
	x->root = unescape(fields[0], lens[0]);
	x->mount_point = unescape(fields[1], lens[1]);
	x->options = unescape(fields[2], lens[2]);
	x->fstype = unescape(tail[0], tl[0]);
	x->source = unescape(tail[1], tl[1]);
	x->super_options = unescape(tail[2], tl[2]);
	if (x->mount_point[0] != '/') {
		free_one(x);
		return "mount point is not absolute";
	}
	x->read_only = has_option(x->options, "ro") || has_option(x->super_options, "ro");
	return NULL;
}

hp_tri hp_os_mounts_parse(const char *buf, size_t len, hp_mounts *m, hp_err *why)
{
	m->v = NULL;
	m->n = 0;
	size_t cap = 0;
	const char *p = buf, *end = buf + len;
	size_t line = 0;
	while (p < end) {
		line++;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if ((size_t)(le - p) > HP_MOUNTS_LINE_MAX) {
			hp_err_set(why, "mountinfo line %zu: longer than %d bytes", line,
			           HP_MOUNTS_LINE_MAX);
			goto bad;
		}
		if (memchr(p, '\0', (size_t)(le - p))) {
			hp_err_set(why, "mountinfo line %zu: NUL byte", line);
			goto bad;
		}
		if (m->n == HP_MOUNTS_MAX) {
			hp_err_set(why, "mountinfo: more than %d mounts", HP_MOUNTS_MAX);
			goto bad;
		}
		m->v = hp_xgrow(m->v, &cap, m->n + 1, sizeof *m->v);
		const char *err = parse_line(p, le, &m->v[m->n]);
		if (err) {
			hp_err_set(why, "mountinfo line %zu: %s", line, err);
			goto bad;
		}
		m->n++;
		p = nl ? nl + 1 : end;
	}
	if (m->n == 0) {
		hp_err_set(why, "mountinfo: no mounts");
		goto bad;
	}
	return HP_TRUE;
bad:
	hp_os_mounts_free(m);
	return HP_UNKNOWN;
}

void hp_os_mounts_free(hp_mounts *m)
{
	for (size_t i = 0; i < m->n; i++)
		free_one(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

hp_tri hp_os_mounts_read(hp_mounts *m, hp_err *why)
{
	m->v = NULL;
	m->n = 0;
	int pfd = hp_os_proc_open(why);
	if (pfd < 0)
		return HP_UNKNOWN;
	int fd = openat(pfd, "self/mountinfo", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int e = errno;
	close(pfd);
	if (fd < 0) {
		hp_err_set(why, "/proc/self/mountinfo: %s", strerror(e));
		return HP_UNKNOWN;
	}
	char *buf;
	size_t len;
	hp_tri t =
	    hp_os_read_fd_bounded(fd, "/proc/self/mountinfo", HP_READ_CAP_DEFAULT, &buf, &len, why);
	close(fd);
	if (t != HP_TRUE)
		return HP_UNKNOWN;
	t = hp_os_mounts_parse(buf, len, m, why);
	free(buf);
	return t;
}

hp_tri hp_os_mount_of_info(const hp_mounts *m, const hp_fileinfo *fi, const hp_mount **out,
                           hp_err *why)
{
	*out = NULL;
	if (fi->has_mnt_id) {
		for (size_t i = 0; i < m->n; i++)
			if (m->v[i].id == fi->mnt_id) {
				*out = &m->v[i];
				return HP_TRUE;
			}
		hp_err_set(why, "mount id %llu is not in mountinfo", (unsigned long long)fi->mnt_id);
		return HP_UNKNOWN;
	}
	const hp_mount *found = NULL;
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].major == major(fi->dev) && m->v[i].minor == minor(fi->dev)) {
			if (found) {
				hp_err_set(why,
				           "device %u:%u is mounted more than once and the kernel "
				           "gives no mount id",
				           major(fi->dev), minor(fi->dev));
				return HP_UNKNOWN;
			}
			found = &m->v[i];
		}
	if (!found) {
		hp_err_set(why, "device %u:%u is not in mountinfo", major(fi->dev), minor(fi->dev));
		return HP_UNKNOWN;
	}
	*out = found;
	return HP_TRUE;
}

hp_tri hp_os_mount_of_fd(const hp_mounts *m, int fd, const hp_mount **out, hp_err *why)
{
	*out = NULL;
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, why) != HP_TRUE)
		return HP_UNKNOWN;
	return hp_os_mount_of_info(m, &fi, out, why);
}

hp_tri hp_os_mount_point(const hp_mounts *m, int fd, hp_err *why)
{
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (fi.attrs_known & HP_ATTR_MOUNT_ROOT)
		return (fi.attrs & HP_ATTR_MOUNT_ROOT) ? HP_TRUE : HP_FALSE;
	if (fi.type != HP_FT_DIR)
		return HP_FALSE; /* a file bind mount would report MOUNT_ROOT */
	int pfd = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0) {
		hp_err_set(why, "opening the parent directory: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	hp_fileinfo pi;
	hp_tri t = hp_os_fd_info(pfd, &pi, why);
	close(pfd);
	if (t != HP_TRUE)
		return HP_UNKNOWN;
	if (pi.dev == fi.dev && pi.ino == fi.ino)
		return HP_TRUE; /* the root of the namespace */
	if (fi.has_mnt_id && pi.has_mnt_id)
		return fi.mnt_id != pi.mnt_id ? HP_TRUE : HP_FALSE;
	if (pi.dev != fi.dev)
		return HP_TRUE;
	(void)m;
	hp_err_set(why, "no mount id and no mount-root attribute: a bind mount cannot be told");
	return HP_UNKNOWN;
}

hp_tri hp_os_mount_read_only(const hp_mounts *m, int fd, hp_err *why)
{
	const hp_mount *x;
	if (hp_os_mount_of_fd(m, fd, &x, why) != HP_TRUE)
		return HP_UNKNOWN;
	struct statvfs sv;
	if (fstatvfs(fd, &sv) < 0) {
		hp_err_set(why, "statvfs: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	int ro = (sv.f_flag & ST_RDONLY) != 0;
	if (ro != x->read_only) {
		hp_err_set(why, "mountinfo says %s for %s, statvfs says %s",
		           x->read_only ? "ro" : "rw", x->mount_point, ro ? "ro" : "rw");
		return HP_UNKNOWN;
	}
	return ro ? HP_TRUE : HP_FALSE;
}

/* Whether mount root a is b or below it (roots are paths in the
 * filesystem, "/" its top). */
static bool root_within(const char *a, const char *b)
{
	size_t n = strlen(b);
	if (n == 1 && b[0] == '/')
		return true;
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

/* The filesystem types whose content is only what their own superblock
 * holds, on a block device or in memory: read-only there, no path changes
 * it. Every other type is not trusted to be read-only: overlay's files are
 * its layers' (a lower or upper directory another mount reaches), fuse's
 * a process's, 9p's, virtiofs', nfs' and cifs' another machine's or the
 * host's, and a type not listed may be any of those. */
static bool content_is_own(const char *type)
{
	static const char *const own_types[] = {"ext2",     "ext3",  "ext4",    "xfs",
	                                        "btrfs",    "f2fs",  "squashfs", "erofs",
	                                        "iso9660",  "tmpfs", "ramfs"};
	for (size_t i = 0; i < sizeof own_types / sizeof own_types[0]; i++)
		if (strcmp(type, own_types[i]) == 0)
			return true;
	return false;
}

/* This process's table for hp_os_fs_read_only: its mounts do not change
 * while it checks; a forked child reads its own. */
static struct {
	pid_t pid;
	hp_tri ok;
	hp_mounts m;
	hp_err why;
} own;

hp_tri hp_os_own_mounts(const hp_mounts **m, hp_err *why)
{
	if (own.pid != getpid()) {
		if (own.ok == HP_TRUE)
			hp_os_mounts_free(&own.m);
		memset(&own.m, 0, sizeof own.m);
		own.why.msg[0] = '\0';
		own.ok = hp_os_mounts_read(&own.m, &own.why);
		own.pid = getpid();
	}
	*m = &own.m;
	if (own.ok != HP_TRUE) {
		hp_err_set(why, "%s", own.why.msg);
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

/* The mount fd is on, in this process's table (read once per process). */
static hp_tri own_mount_of_fd(int fd, const hp_mount **x, hp_err *why)
{
	const hp_mounts *m;
	hp_err e;
	if (hp_os_own_mounts(&m, &e) != HP_TRUE) {
		hp_err_set(why, "whether a read-only mount's filesystem is read-only: %s", e.msg);
		return HP_UNKNOWN;
	}
	return hp_os_mount_of_fd(m, fd, x, why) == HP_TRUE ? HP_TRUE : HP_UNKNOWN;
}

hp_tri hp_os_fs_read_only(int fd, unsigned long f_flags, hp_err *why)
{
	if (!(f_flags & ST_RDONLY))
		return HP_FALSE;
	const hp_mount *x;
	if (own_mount_of_fd(fd, &x, why) != HP_TRUE)
		return HP_UNKNOWN;
	if (!content_is_own(x->fstype))
		return HP_FALSE;
	if (has_option(x->super_options, "ro"))
		return HP_TRUE;
	/* a file with another link may have it below any mount of its
	 * filesystem, whatever tree that mount shows */
	struct stat st;
	if (fstat(fd, &st) < 0) {
		hp_err_set(why, "fstat: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	bool linked = !S_ISDIR(st.st_mode) && st.st_nlink > 1;
	for (size_t i = 0; i < own.m.n; i++) {
		const hp_mount *y = &own.m.v[i];
		if (y != x && y->major == x->major && y->minor == x->minor && !y->read_only &&
		    (linked || root_within(x->root, y->root) || root_within(y->root, x->root)))
			return HP_FALSE;
	}
	return HP_TRUE;
}

hp_tri hp_os_fs_sb_read_only(int fd, hp_err *why)
{
	const hp_mount *x;
	if (own_mount_of_fd(fd, &x, why) != HP_TRUE)
		return HP_UNKNOWN;
	return has_option(x->super_options, "ro") ? HP_TRUE : HP_FALSE;
}

hp_tri hp_os_mount_fs_type(const hp_mounts *m, int fd, const char **type, hp_err *why)
{
	const hp_mount *x;
	*type = NULL;
	if (hp_os_mount_of_fd(m, fd, &x, why) != HP_TRUE)
		return HP_UNKNOWN;
	*type = x->fstype;
	return HP_TRUE;
}
