/* mount_content.c: whether a filesystem's content is a role's to change
 * (mount_content.h), from its FUSE daemon's uid or its block devices. */
#include "os/mount_content.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/replace.h"

enum {
	MAX_DEVS = 16,      /* devices under one mount, stacked and partitioned */
	MAX_NODES = 16384,  /* entries looked at below /dev */
	DEV_DEPTH = 4,      /* directories below /dev */
	MAX_NEST = 4,       /* a backing file on a mount that has one... */
	LOOP_MAJOR_ = 7,
	BLKEXT_MAJOR_ = 259 /* loop partitions, and NVMe's */
};

static const hp_content_env system_env = {"/sys/dev/block", "/dev"};
static const hp_content_env *cur_env; /* NULL: the system's */

/* --- FUSE ----------------------------------------------------------------- */

static bool is_fuse(const char *type)
{
	return strcmp(type, "fuse") == 0 || strcmp(type, "fuseblk") == 0 ||
	       strncmp(type, "fuse.", 5) == 0;
}

/* The number after "name=" in comma-separated opts: 1, 0 when absent, -1
 * when not a number. */
static int option_uint(const char *opts, const char *name, unsigned long *v)
{
	size_t nl = strlen(name);
	for (const char *p = opts; *p;) {
		size_t n = strcspn(p, ",");
		if (n > nl && memcmp(p, name, nl) == 0 && p[nl] == '=') {
			unsigned long x = 0;
			size_t i = nl + 1;
			if (i == n)
				return -1;
			for (; i < n; i++) {
				if (p[i] < '0' || p[i] > '9' || x > (0xffffffffUL - 9) / 10)
					return -1;
				x = x * 10 + (unsigned long)(p[i] - '0');
			}
			*v = x;
			return 1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

hp_tri hp_os_content_fuse(const hp_mount *x, uid_t uid, hp_err *why)
{
	if (!is_fuse(x->fstype))
		return HP_FALSE;
	unsigned long owner;
	int r = option_uint(x->super_options, "user_id", &owner);
	if (r <= 0) {
		hp_err_set(why, "%s is FUSE (%s) with %s user_id: who serves it is not known",
		           x->mount_point, x->fstype, r < 0 ? "a malformed" : "no");
		return HP_UNKNOWN;
	}
	if (owner == (unsigned long)uid) {
		hp_err_set(why,
		           "%s is FUSE (%s) served for uid %lu, the role's: its daemon answers "
		           "for every file there",
		           x->mount_point, x->fstype, owner);
		return HP_TRUE;
	}
	if (owner != 0) {
		hp_err_set(why,
		           "%s is FUSE (%s) served for uid %lu, not root: whether the role can "
		           "reach its daemon is not known",
		           x->mount_point, x->fstype, owner);
		return HP_UNKNOWN;
	}
	return HP_FALSE;
}

/* --- overlay's layers ------------------------------------------------------- */

/* Whether cred can write the layer directory at path (the directory the
 * overlay was given, as its options name it now); a path not found here is
 * a layer this mount namespace does not show (Docker's, on the host). */
static hp_tri layer_theirs(const hp_mount *x, const char *path, const char *what,
                           const hp_cred *cred, hp_err *why);

/* Every layer an overlay's superblock options name: lowerdir= (layers
 * separated by ':', "::" before data-only ones), lowerdir+=, datadir+=,
 * upperdir= and workdir=. A merged directory shows the attributes of its
 * topmost layer, and the entries of all: a lower or upper directory the
 * role can write adds what the view shows under a root-owned directory;
 * the work directory is where copied-up files are made before they are
 * renamed into the upper one. */
static hp_tri overlay_theirs(const hp_mount *x, const hp_cred *cred, hp_err *why)
{
	static const char *const keys[] = {"lowerdir=", "lowerdir+=", "datadir+=", "upperdir=",
	                                   "workdir="};
	hp_tri t = HP_FALSE;
	for (const char *p = x->super_options; *p && t == HP_FALSE;) {
		size_t n = strcspn(p, ",");
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			size_t kl = strlen(keys[k]);
			if (n <= kl || strncmp(p, keys[k], kl) != 0)
				continue;
			char *v = hp_xstrndup(p + kl, n - kl);
			bool colons = k == 0;
			for (char *q = v; q && t == HP_FALSE;) {
				char *end = colons ? strchr(q, ':') : NULL;
				if (end)
					*end = '\0';
				if (*q)
					t = layer_theirs(x, q, keys[k], cred, why);
				q = end ? end + 1 : NULL;
			}
			free(v);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return t;
}

/* --- block devices ---------------------------------------------------------- */

/* A writable (or doubtful) block node below /dev, for one identity. */
typedef struct {
	dev_t rdev;
	hp_tri w;
	char path[HP_PATH_MAX + 1];
} node;

typedef struct {
	node *v;
	size_t n, cap, seen;
	bool unsure; /* past a bound, or a directory that could not be read */
	hp_err why;
} nodeset;

/* Whether cred (NULL: this process) can write the file fd, its facts fi. */
static hp_tri can_write(int fd, const hp_fileinfo *fi, const hp_cred *cred, hp_err *why)
{
	if (!cred)
		return hp_os_access_live(fd, HP_ACC_WRITE, why);
	hp_tri t = hp_os_access_computed(fd, cred, HP_ACC_WRITE, why);
	return t == HP_FALSE ? hp_os_content_theirs(fi, cred, why) : t;
}

static void scan_dir(int dfd, const char *path, int depth, const hp_cred *cred, nodeset *s)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		s->unsure = true;
		hp_err_set(&s->why, "%s: %s", path, strerror(errno));
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (++s->seen > MAX_NODES) {
			s->unsure = true;
			hp_err_set(&s->why, "%s: more than %d entries", path, MAX_NODES);
			break;
		}
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone meanwhile */
		char sub[HP_PATH_MAX + 1];
		snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
		if (S_ISDIR(st.st_mode)) {
			if (depth >= DEV_DEPTH) {
				s->unsure = true;
				hp_err_set(&s->why, "%s: more than %d directories deep", sub, DEV_DEPTH);
				continue;
			}
			int sfd = openat(dirfd(d), de->d_name,
			                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sfd < 0) {
				if (errno == EACCES)
					continue; /* nothing in it reachable by this process */
				s->unsure = true;
				hp_err_set(&s->why, "%s: %s", sub, strerror(errno));
				continue;
			}
			scan_dir(sfd, sub, depth + 1, cred, s);
			continue;
		}
		if (!S_ISBLK(st.st_mode))
			continue;
		int fd = openat(dirfd(d), de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		hp_fileinfo fi;
		hp_err e;
		e.msg[0] = '\0';
		hp_tri w = HP_UNKNOWN;
		if (fd >= 0 && hp_os_fd_info(fd, &fi, &e) == HP_TRUE && fi.type == HP_FT_BLOCK)
			w = can_write(fd, &fi, cred, &e);
		if (fd >= 0)
			close(fd);
		if (w == HP_FALSE)
			continue;
		s->v = hp_xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
		node *nd = &s->v[s->n++];
		nd->rdev = st.st_rdev;
		nd->w = w;
		snprintf(nd->path, sizeof nd->path, "%s", sub);
	}
	closedir(d);
}

static void scan_nodes(const char *dev, const hp_cred *cred, nodeset *s)
{
	memset(s, 0, sizeof *s);
	int fd = open(dev, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		s->unsure = true;
		hp_err_set(&s->why, "%s: %s", dev, strerror(errno));
		return;
	}
	scan_dir(fd, dev, 0, cred, s);
}

typedef struct {
	dev_t v[MAX_DEVS];
	size_t n;
	bool unsure; /* a device /sys does not describe */
	hp_err why;
} devset;

static hp_tri add_dev(devset *s, dev_t d, hp_err *why)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == d)
			return HP_TRUE;
	if (s->n == MAX_DEVS) {
		hp_err_set(why, "more than %d block devices under one mount", MAX_DEVS);
		return HP_UNKNOWN;
	}
	s->v[s->n++] = d;
	return HP_TRUE;
}

/* A small file of /sys below dirfd, its trailing newline dropped. */
static int read_small(int dirfd, const char *rel, char *buf, size_t cap)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	size_t len = 0;
	for (;;) {
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
		if (len == cap - 1)
			break;
	}
	close(fd);
	buf[len] = '\0';
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return 0;
}

static int parse_devno(const char *s, dev_t *d)
{
	unsigned ma, mi;
	char tail;
	if (sscanf(s, "%u:%u%c", &ma, &mi, &tail) != 2)
		return -1;
	*d = makedev(ma, mi);
	return 0;
}

/* The loop device's backing file, by the name /sys gives it now. */
static hp_tri backing_theirs(const char *path, const hp_cred *cred, hp_err *why)
{
	size_t n = strlen(path);
	static const char deleted[] = " (deleted)";
	if (n >= sizeof deleted - 1 && strcmp(path + n - (sizeof deleted - 1), deleted) == 0) {
		hp_err_set(why, "its loop device's backing file %.*s is deleted: who may write it "
		                "is not known", (int)(n - (sizeof deleted - 1)), path);
		return HP_UNKNOWN;
	}
	if (path[0] != '/') {
		hp_err_set(why, "its loop device's backing file '%s' is no absolute path", path);
		return HP_UNKNOWN;
	}
	hp_root r;
	hp_err e;
	e.msg[0] = '\0';
	if (hp_os_root_open(&r, "/", 0, &e) != HP_TRUE) {
		hp_err_set(why, "its loop device's backing file %s: %s", path, e.msg);
		return HP_UNKNOWN;
	}
	int fd;
	hp_tri t = hp_os_resolve(&r, path, 0, &fd, &e);
	if (t == HP_FALSE) {
		hp_os_root_close(&r);
		hp_err_set(why, "its loop device's backing file %s is not found from here", path);
		return HP_UNKNOWN;
	}
	if (t == HP_TRUE) {
		hp_fileinfo fi;
		t = hp_os_fd_info(fd, &fi, &e);
		if (t == HP_TRUE)
			t = can_write(fd, &fi, cred, &e);
		close(fd);
		if (t == HP_TRUE) {
			hp_os_root_close(&r);
			hp_err_set(why, "the role can write %s, its loop device's backing file", path);
			return HP_TRUE;
		}
	} else if (hp_os_resolve(&r, path, HP_RES_DENIED_FALSE, &fd, &e) == HP_FALSE) {
		t = HP_FALSE; /* the role cannot reach it by its name: only replace it */
	}
	if (t == HP_UNKNOWN) {
		hp_os_root_close(&r);
		hp_err_set(why, "its loop device's backing file %s: %s", path, e.msg);
		return HP_UNKNOWN;
	}
	/* the loop device holds the file, not the name; but the name is how
	 * the file was found here, and one who can put another file under it
	 * can show a root's file in its place */
	t = cred ? hp_os_replaceable_computed(&r, path, cred, &e)
	         : hp_os_replaceable_live(&r, path, &e);
	hp_os_root_close(&r);
	if (t == HP_TRUE)
		hp_err_set(why, "the role can replace %s, its loop device's backing file (%s)", path,
		           e.msg);
	else if (t == HP_UNKNOWN)
		hp_err_set(why, "its loop device's backing file %s: %s", path, e.msg);
	return t;
}

static hp_tri layer_theirs(const hp_mount *x, const char *path, const char *what,
                           const hp_cred *cred, hp_err *why)
{
	if (path[0] != '/')
		return HP_FALSE;
	hp_root r;
	hp_err e;
	e.msg[0] = '\0';
	if (hp_os_root_open(&r, "/", 0, &e) != HP_TRUE) {
		hp_err_set(why, "its layer %s: %s", path, e.msg);
		return HP_UNKNOWN;
	}
	int fd;
	hp_tri t = hp_os_resolve(&r, path, HP_RES_DENIED_FALSE, &fd, &e);
	hp_os_root_close(&r);
	if (t == HP_FALSE)
		return HP_FALSE; /* not here, or the role cannot reach it */
	if (t == HP_TRUE) {
		hp_fileinfo fi;
		t = hp_os_fd_info(fd, &fi, &e);
		if (t == HP_TRUE && fi.has_mnt_id && fi.mnt_id == x->id)
			t = HP_FALSE; /* the overlay mounted over its own layer hides it */
		else if (t == HP_TRUE)
			t = fi.type == HP_FT_DIR ? can_write(fd, &fi, cred, &e) : HP_UNKNOWN;
		close(fd);
	}
	if (t == HP_TRUE)
		hp_err_set(why, "the role can write %s, its layer (%.*s)", path,
		           (int)strcspn(what, "+="), what);
	else if (t == HP_UNKNOWN)
		hp_err_set(why, "its layer %s: %s", path, e.msg);
	return t;
}

/* Add what device d is made of (its whole disk, the devices under a
 * device-mapper or md device) to s, and judge a loop device's backing
 * file: HP_TRUE or HP_UNKNOWN decide the mount. */
static hp_tri expand(int sysfd, dev_t d, devset *s, const hp_cred *cred, hp_err *why)
{
	char name[32], buf[HP_PATH_MAX + 64];
	snprintf(name, sizeof name, "%u:%u", major(d), minor(d));
	if (sysfd < 0) {
		if (major(d) == LOOP_MAJOR_ || major(d) == BLKEXT_MAJOR_) {
			hp_err_set(why, "device %s may be a loop device and /sys cannot tell its "
			                "backing file", name);
			return HP_UNKNOWN;
		}
		s->unsure = true;
		hp_err_set(&s->why, "/sys cannot tell what device %s is made of", name);
		return HP_FALSE;
	}
	int dfd = openat(sysfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		if (major(d) == LOOP_MAJOR_) {
			hp_err_set(why, "loop device %s is not in /sys: its backing file is not known",
			           name);
			return HP_UNKNOWN;
		}
		s->unsure = true;
		hp_err_set(&s->why, "device %s is not in /sys", name);
		return HP_FALSE;
	}
	hp_tri t = HP_FALSE;
	if (read_small(dfd, "loop/backing_file", buf, sizeof buf) == 0) {
		t = backing_theirs(buf, cred, why);
	} else if (major(d) == LOOP_MAJOR_) {
		hp_err_set(why, "loop device %s: its backing file cannot be read from /sys", name);
		t = HP_UNKNOWN;
	}
	dev_t p;
	if (t == HP_FALSE && faccessat(dfd, "partition", F_OK, 0) == 0) {
		if (read_small(dfd, "../dev", buf, sizeof buf) < 0 || parse_devno(buf, &p) < 0) {
			hp_err_set(why, "partition %s: its disk cannot be read from /sys", name);
			t = HP_UNKNOWN;
		} else {
			t = add_dev(s, p, why) == HP_TRUE ? HP_FALSE : HP_UNKNOWN;
		}
	}
	int lfd = t == HP_FALSE ? openat(dfd, "slaves", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	DIR *ld = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (lfd >= 0 && !ld)
		close(lfd);
	struct dirent *de;
	while (ld && t == HP_FALSE && (de = readdir(ld))) {
		if (de->d_name[0] == '.')
			continue;
		char rel[300];
		snprintf(rel, sizeof rel, "%s/dev", de->d_name);
		if (read_small(dirfd(ld), rel, buf, sizeof buf) < 0 || parse_devno(buf, &p) < 0) {
			hp_err_set(why, "device %s: what it is built on cannot be read from /sys", name);
			t = HP_UNKNOWN;
		} else if (add_dev(s, p, why) != HP_TRUE) {
			t = HP_UNKNOWN;
		}
	}
	if (ld)
		closedir(ld);
	close(dfd);
	return t;
}

/* Filesystems on a block device that mountinfo may show with an anonymous
 * device number (btrfs' subvolumes): their source names the device. */
static bool anon_block_type(const char *type)
{
	return strcmp(type, "btrfs") == 0 || strcmp(type, "bcachefs") == 0;
}

/* The writable nodes for one identity, found once per process. */
typedef struct {
	bool self;
	uid_t uid;
	gid_t gid;
	char *dev;
	nodeset nodes;
} nodes_for;

static struct {
	pid_t pid;
	nodes_for *v;
	size_t n, cap;
} nodes_cache;

/* Forget every identity's nodes (this process's copy of them freed). */
static void nodes_cache_clear(void)
{
	for (size_t i = 0; i < nodes_cache.n; i++) {
		free(nodes_cache.v[i].dev);
		free(nodes_cache.v[i].nodes.v);
	}
	free(nodes_cache.v);
	memset(&nodes_cache, 0, sizeof nodes_cache);
}

static const nodeset *nodes_of(const char *dev, const hp_cred *cred)
{
	if (nodes_cache.pid != getpid()) {
		/* a forked child's identity is its own: what its parent found
		 * says nothing about it (what it frees is its own copy) */
		nodes_cache_clear();
		nodes_cache.pid = getpid();
	}
	uid_t uid = cred ? cred->uid : geteuid();
	gid_t gid = cred ? cred->gid : getegid();
	for (size_t i = 0; i < nodes_cache.n; i++) {
		nodes_for *f = &nodes_cache.v[i];
		if (f->self == !cred && f->uid == uid && f->gid == gid && strcmp(f->dev, dev) == 0)
			return &f->nodes;
	}
	nodeset s;
	scan_nodes(dev, cred, &s);
	nodes_cache.v = hp_xgrow(nodes_cache.v, &nodes_cache.cap, nodes_cache.n + 1,
	                         sizeof *nodes_cache.v);
	nodes_for *f = &nodes_cache.v[nodes_cache.n++];
	*f = (nodes_for){!cred, uid, gid, hp_xstrdup(dev), s};
	return &f->nodes;
}

hp_tri hp_os_content_of_mount(const hp_mount *x, const hp_content_env *env, const hp_cred *cred,
                              hp_err *why)
{
	hp_err e;
	e.msg[0] = '\0';
	uid_t uid = cred ? cred->uid : geteuid();
	hp_tri t = hp_os_content_fuse(x, uid, &e);
	if (t != HP_FALSE) {
		hp_err_set(why, "%s", e.msg);
		return t;
	}
	if (strcmp(x->fstype, "overlay") == 0) {
		t = overlay_theirs(x, cred, &e);
		if (t != HP_FALSE)
			hp_err_set(why, "%s is an overlay: %s", x->mount_point, e.msg);
		return t;
	}
	devset s;
	memset(&s, 0, sizeof s);
	if (x->major != 0) {
		s.v[s.n++] = makedev(x->major, x->minor);
	} else if (anon_block_type(x->fstype)) {
		struct stat st;
		if (x->source[0] == '/' && stat(x->source, &st) == 0 && S_ISBLK(st.st_mode)) {
			s.v[s.n++] = st.st_rdev;
		} else {
			s.unsure = true;
			hp_err_set(&s.why, "its device %s is not found", x->source);
		}
	}
	if (s.n == 0 && !s.unsure)
		return HP_FALSE;
	bool sys_env = !env;
	if (!env)
		env = &system_env;
	int sysfd = open(env->sys_block, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs sf;
	if (sysfd >= 0 && sys_env && (fstatfs(sysfd, &sf) < 0 || sf.f_type != SYSFS_MAGIC)) {
		close(sysfd);
		sysfd = -1;
	}
	t = HP_FALSE;
	for (size_t i = 0; i < s.n && t == HP_FALSE; i++)
		t = expand(sysfd, s.v[i], &s, cred, &e);
	if (sysfd >= 0)
		close(sysfd);
	if (t != HP_FALSE) {
		hp_err_set(why, "%s is on %s (%s): %s", x->mount_point, x->source, x->fstype, e.msg);
		return t;
	}
	const nodeset *ns = nodes_of(env->dev, cred);
	for (size_t i = 0; i < s.n; i++)
		for (size_t j = 0; j < ns->n; j++)
			if (ns->v[j].rdev == s.v[i]) {
				hp_err_set(why, "%s is on %s (%s), and %s %s %u:%u", x->mount_point,
				           x->source, x->fstype, ns->v[j].path,
				           ns->v[j].w == HP_TRUE ? "lets the role write block device"
				                                 : "may let the role write block device",
				           major(s.v[i]), minor(s.v[i]));
				return ns->v[j].w;
			}
	if (ns->unsure) {
		hp_err_set(why, "%s is on %s (%s), and whether the role can write a node of it "
		                "is not known: %s", x->mount_point, x->source, x->fstype, ns->why.msg);
		return HP_UNKNOWN;
	}
	if (s.unsure && ns->n > 0) {
		hp_err_set(why, "%s is on %s (%s): %s, and the role can write block node %s",
		           x->mount_point, x->source, x->fstype, s.why.msg, ns->v[0].path);
		return HP_UNKNOWN;
	}
	return HP_FALSE;
}

/* --- once per mount and identity --------------------------------------------- */

typedef struct {
	uint64_t key;
	bool by_id; /* key: the mount id, else the device number */
	bool self;
	uid_t uid;
	gid_t gid;
	bool busy; /* being decided: met again, its backing is on itself */
	hp_tri v;
	hp_err why;
} verdict;

static struct {
	pid_t pid;
	verdict *v;
	size_t n, cap, last;
	int depth;
} cache;

/* For the calling process (self) only its euid is the key: its gid and
 * groups follow from it for a role's process, and an entry a forked child
 * finds from its parent with the same euid was decided with no fewer
 * privileges than the child has (a role's process only drops them), which
 * can only turn a "no" into a "yes". So a hit costs no system call; the
 * pid is looked at only on a miss. */
/* Forget every verdict (this process's copy freed). */
static void verdicts_clear(void)
{
	free(cache.v);
	memset(&cache, 0, sizeof cache);
}

static bool is_key(const verdict *c, uint64_t key, bool by_id, bool self, uid_t uid, gid_t gid)
{
	return c->key == key && c->by_id == by_id && c->self == self && c->uid == uid &&
	       (self || c->gid == gid);
}

static hp_tri theirs(const hp_fileinfo *fi, const hp_cred *cred, uid_t self_uid, hp_err *why)
{
	bool by_id = fi->has_mnt_id != 0;
	uint64_t key = by_id ? fi->mnt_id : (uint64_t)fi->dev;
	uid_t uid = cred ? cred->uid : self_uid;
	gid_t gid = cred ? cred->gid : 0;
	size_t i = cache.last;
	bool hit = i < cache.n && is_key(&cache.v[i], key, by_id, !cred, uid, gid);
	for (size_t k = 0; !hit && k < cache.n; k++)
		if (is_key(&cache.v[k], key, by_id, !cred, uid, gid)) {
			i = k;
			hit = true;
		}
	if (hit) {
		cache.last = i;
		const verdict *c = &cache.v[i];
		if (c->busy) {
			hp_err_set(why, "a filesystem whose backing store is on itself");
			return HP_UNKNOWN;
		}
		if (c->v != HP_FALSE)
			hp_err_set(why, "%s", c->why.msg);
		return c->v;
	}
	if (cache.pid != getpid()) {
		verdicts_clear();
		cache.pid = getpid();
	}
	hp_err e;
	e.msg[0] = '\0';
	if (cache.depth >= MAX_NEST) {
		hp_err_set(why, "filesystems backed by files on filesystems more than %d deep",
		           MAX_NEST);
		return HP_UNKNOWN;
	}
	const hp_mounts *m;
	const hp_mount *x = NULL;
	hp_tri t = hp_os_own_mounts(&m, &e);
	if (t == HP_TRUE)
		t = hp_os_mount_of_info(m, fi, &x, &e);
	cache.v = hp_xgrow(cache.v, &cache.cap, cache.n + 1, sizeof *cache.v);
	i = cache.n++;
	cache.v[i] = (verdict){key, by_id, !cred, uid, gid, true, HP_UNKNOWN, {{0}}};
	if (t == HP_TRUE) {
		cache.depth++;
		t = hp_os_content_of_mount(x, cur_env, cred, &e);
		cache.depth--;
	} else {
		t = HP_UNKNOWN;
		char m2[sizeof e.msg];
		snprintf(m2, sizeof m2, "%s", e.msg);
		hp_err_set(&e, "which mount a file is on: %s", m2);
	}
	/* the array may have moved while a backing file was judged */
	cache.v[i].busy = false;
	cache.v[i].v = t;
	cache.v[i].why = e;
	cache.last = i;
	if (t != HP_FALSE)
		hp_err_set(why, "%s", e.msg);
	return t;
}

hp_tri hp_os_content_theirs(const hp_fileinfo *fi, const hp_cred *cred, hp_err *why)
{
	return theirs(fi, cred, cred ? 0 : geteuid(), why);
}

hp_tri hp_os_content_theirs_self(const hp_fileinfo *fi, uid_t euid, hp_err *why)
{
	return theirs(fi, NULL, euid, why);
}

void hp_os_content_env_set(const hp_content_env *env)
{
	cur_env = env;
	verdicts_clear();
	nodes_cache_clear();
}
