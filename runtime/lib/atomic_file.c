/* atomic_file.c: temporary file, fsync, rename; and the checked path walk
 * for the files `check` writes. */
#include "lib/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Write all of data to fd; 0 or the errno. */
static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

bool hp_atomic_write(const char *path, const void *data, size_t len, mode_t mode, hp_err *err)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			hp_err_set(err, "%s: not a regular file, not overwriting it", path);
			return false;
		}
		mode = st.st_mode & 07777;
	}
	/* The temporary file sits next to the target so rename stays on one filesystem. */
	char *tmp = hp_xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		hp_err_set(err, "%s: cannot create a temporary file: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	int saved = write_all(fd, data, len);
	if (!saved && fchmod(fd, mode) != 0)
		saved = errno;
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && rename(tmp, path) != 0)
		saved = errno;
	if (saved) {
		unlink(tmp);
		hp_err_set(err, "%s: cannot write: %s", path, strerror(saved));
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

/* --- the checked write ------------------------------------------------------------------ */

#define MAX_DEPTH 256 /* directories on the way: a path deeper than this is refused */

/* Whether a file owned by uid can be trusted by a caller of effective uid me. */
static bool trusted_owner(uid_t uid, uid_t me)
{
	return uid == 0 || uid == me;
}

/* Check a directory on the way, as held by its descriptor. shown is its
 * path, for the message. */
static bool check_dir(const char *path, const char *shown, const struct stat *st, uid_t me,
                      hp_err *err)
{
	if (!S_ISDIR(st->st_mode)) {
		hp_err_set(err, "%s: %s is not a directory", path, shown);
		return false;
	}
	if (!trusted_owner(st->st_uid, me)) {
		hp_err_set(err,
		           "%s: directory %s is owned by uid %u, neither root nor the caller: "
		           "its owner could replace what is written there",
		           path, shown, (unsigned)st->st_uid);
		return false;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		hp_err_set(err,
		           "%s: directory %s is writable by %s (mode %04o) without the sticky "
		           "bit: they could replace what is written there",
		           path, shown, (st->st_mode & S_IWOTH) ? "others" : "its group",
		           (unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

/* The absolute path of path: as it is, or after the working directory's
 * real path (getcwd never names a symbolic link). NULL with err set. */
static char *absolute(const char *path, hp_err *err)
{
	if (path[0] == '/')
		return hp_xasprintf("%s", path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd)) {
		hp_err_set(err, "%s: cannot find the working directory: %s", path, strerror(errno));
		return NULL;
	}
	return hp_xasprintf("%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, path);
}

/* Walk the directories of abs (all but its last component) from /, each
 * opened without following a link and checked. Returns the descriptor of
 * the last directory, and in *last the last component (inside abs), or -1
 * with err set. ".." goes back to the directory before, which is the
 * kernel's answer too, since no component on the way is a link. */
static int walk(const char *path, char *abs, char **last, uid_t me, hp_err *err)
{
	int fds[MAX_DEPTH];
	size_t depth = 0;
	struct stat st;
	fds[0] = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fds[0] < 0) {
		hp_err_set(err, "%s: cannot open /: %s", path, strerror(errno));
		return -1;
	}
	bool ok = false;
	if (fstat(fds[0], &st) != 0) {
		hp_err_set(err, "%s: cannot open /: %s", path, strerror(errno));
		goto out;
	}
	if (!check_dir(path, "/", &st, me, err))
		goto out;
	char *slash = strrchr(abs, '/');
	char *name = slash + 1;
	if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		hp_err_set(err, "%s: names a directory, not a file", path);
		goto out;
	}
	*slash = '\0';
	/* abs now holds the directories. While a component is looked at, it is
	 * cut off after it, so abs itself is the path shown in messages. */
	for (char *p = abs; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *q = strchr(p, '/');
		if (q)
			*q = '\0';
		if (strcmp(p, "..") == 0) {
			if (depth > 0)
				close(fds[depth--]);
		} else if (strcmp(p, ".") != 0) {
			if (depth + 1 >= MAX_DEPTH) {
				hp_err_set(err, "%s: more than %d directories deep", path, MAX_DEPTH);
				goto out;
			}
			if (fstatat(fds[depth], p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode)) {
				hp_err_set(err,
				           "%s: %s is a symbolic link, which is not followed: its "
				           "owner could point it anywhere (name the directory it "
				           "points to)",
				           path, abs);
				goto out;
			}
			int fd = openat(fds[depth], p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				hp_err_set(err, "%s: cannot open directory %s: %s", path, abs,
				           strerror(errno));
				goto out;
			}
			fds[++depth] = fd;
			if (fstat(fd, &st) != 0) {
				hp_err_set(err, "%s: cannot open directory %s: %s", path, abs,
				           strerror(errno));
				goto out;
			}
			if (!check_dir(path, abs, &st, me, err))
				goto out;
		}
		if (!q)
			break;
		*q = '/';
		p = q + 1;
	}
	*last = name;
	ok = true;
out:
	for (size_t i = 0; i < depth; i++)
		close(fds[i]);
	if (ok)
		return fds[depth];
	close(fds[depth]);
	return -1;
}

/* A name for the temporary file that nobody can guess: the target's name
 * after a dot, then 16 random hex digits. */
static char *temp_name(const char *name)
{
	uint64_t r = 0;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
		/* no entropy to be had: O_EXCL still refuses a name planted first */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)getpid() ^ (uint64_t)ts.tv_sec;
	}
	return hp_xasprintf(".%s.tmp.%016llx", name, (unsigned long long)r);
}

bool hp_safe_write(const char *path, const void *data, size_t len, mode_t mode, hp_err *err)
{
	if (!*path) {
		hp_err_set(err, "an empty path names no file");
		return false;
	}
	const uid_t me = geteuid();
	char *abs = absolute(path, err);
	if (!abs)
		return false;
	char *name;
	int dir = walk(path, abs, &name, me, err);
	if (dir < 0) {
		free(abs);
		return false;
	}
	bool ok = false;
	char *tmp = NULL;
	int fd = -1;
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode)) {
			hp_err_set(err,
			           "%s: the file is a symbolic link, which is not followed: its "
			           "owner could point it anywhere",
			           path);
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			hp_err_set(err, "%s: not a regular file, not replacing it", path);
			goto out;
		}
		if (!trusted_owner(st.st_uid, me)) {
			hp_err_set(err,
			           "%s: the file is owned by uid %u, neither root nor the caller: "
			           "remove it, or write somewhere else",
			           path, (unsigned)st.st_uid);
			goto out;
		}
		if (st.st_mode & (S_IWGRP | S_IWOTH)) {
			hp_err_set(err,
			           "%s: the file is writable by %s (mode %04o): remove it, or "
			           "write somewhere else",
			           path, (st.st_mode & S_IWOTH) ? "others" : "its group",
			           (unsigned)(st.st_mode & 07777));
			goto out;
		}
	} else if (errno != ENOENT) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	/* The process is single-threaded: reading the umask by setting it is safe. */
	mode_t mask = umask(077);
	umask(mask);
	const mode_t want = mode & ~mask & 0777;
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		free(tmp);
		tmp = temp_name(name);
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, want);
		if (fd < 0 && errno != EEXIST) {
			hp_err_set(err, "%s: cannot create a temporary file: %s", path,
			           strerror(errno));
			goto out;
		}
	}
	if (fd < 0) {
		hp_err_set(err, "%s: cannot create a temporary file: every name tried exists",
		           path);
		goto out;
	}
	/* fchmod also narrows a default ACL the directory would give the new file */
	int saved = write_all(fd, data, len);
	if (!saved && fchmod(fd, want) != 0)
		saved = errno;
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && renameat(dir, tmp, dir, name) != 0)
		saved = errno;
	if (!saved) {
		/* the rename itself to disk; dir is an O_PATH descriptor, which fsync refuses */
		int d = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d >= 0) {
			if (fsync(d) != 0 && errno != EINVAL)
				saved = errno;
			close(d);
		}
	}
	if (saved) {
		unlinkat(dir, tmp, 0);
		hp_err_set(err, "%s: cannot write: %s", path, strerror(saved));
		goto out;
	}
	ok = true;
out:
	close(dir);
	free(tmp);
	free(abs);
	return ok;
}
