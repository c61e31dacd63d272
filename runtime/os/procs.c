/* procs.c: whose processes the caller can see in /proc. */
#include "os/procs.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/sysx.h"

/* The real uid and the parent in a status file: 0, -1 unreadable (errno
 * kept), -2 gone or malformed. */
static int status_uid(int procfd, const char *pid, uid_t *uid, long *ppid)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%s/status", pid);
	int fd = openat(procfd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return (errno == EACCES || errno == EPERM) ? -1 : -2;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	int e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return (e == EACCES || e == EPERM) ? -1 : -2;
	}
	buf[n] = '\0';
	const char *u = strstr(buf, "\nUid:");
	if (!u)
		return -2;
	char *end;
	unsigned long v = strtoul(u + 5, &end, 10);
	if (end == u + 5 || v > UINT32_MAX)
		return -2;
	*uid = (uid_t)v;
	const char *pp = strstr(buf, "\nPPid:");
	long p = pp ? strtol(pp + 6, &end, 10) : -1;
	*ppid = pp && end != pp + 6 ? p : -1;
	return 0;
}

static bool skipped(long pid, const pid_t *skip, size_t nskip)
{
	for (size_t i = 0; i < nskip; i++)
		if (skip[i] == pid)
			return true;
	return false;
}

/* Whether the process whose parent is ppid descends from one of skip:
 * its parent is, or its parent's parent, up to MAX_ANCESTRY steps, each
 * read from /proc (an ancestor whose status cannot be read ends it: not
 * skipped, so counted). */
enum { MAX_ANCESTRY = 8 };
static bool descends(int procfd, long ppid, const pid_t *skip, size_t nskip)
{
	for (int step = 0; step < MAX_ANCESTRY && ppid > 1; step++) {
		if (skipped(ppid, skip, nskip))
			return true;
		char name[32];
		snprintf(name, sizeof name, "%ld", ppid);
		uid_t u;
		if (status_uid(procfd, name, &u, &ppid) != 0)
			return false;
	}
	return false;
}

static int numeric(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

hp_tri hp_os_procs_visible(uid_t uid, size_t max_entries, const pid_t *skip, size_t nskip,
                           hp_err *why)
{
	int pfd = hp_os_proc_open(why);
	if (pfd < 0)
		return HP_UNKNOWN;
	int dfd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		hp_err_set(why, "/proc: %s", strerror(errno));
		close(pfd);
		return HP_UNKNOWN;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		close(pfd);
		hp_err_set(why, "/proc: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	size_t seen = 0;
	hp_tri t = HP_FALSE;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			if (errno) {
				hp_err_set(why, "/proc: reading: %s", strerror(errno));
				t = HP_UNKNOWN;
			}
			break;
		}
		if (!numeric(de->d_name))
			continue;
		if (++seen > max_entries) {
			hp_err_set(why, "/proc: more than %zu processes", max_entries);
			t = HP_UNKNOWN;
			break;
		}
		if (nskip && skipped(strtol(de->d_name, NULL, 10), skip, nskip))
			continue;
		uid_t u;
		long ppid;
		int r = status_uid(pfd, de->d_name, &u, &ppid);
		if (r == 0 && u == uid && !(nskip && descends(pfd, ppid, skip, nskip))) {
			t = HP_TRUE;
			break;
		}
		if (r == -1) {
			struct stat st;
			if (fstatat(pfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (st.st_uid == uid) {
				t = HP_TRUE;
				break;
			}
		}
	}
	closedir(d);
	close(pfd);
	return t;
}

hp_tri hp_os_proc_pid_visible(pid_t pid, hp_err *why)
{
	int pfd = hp_os_proc_open(why);
	if (pfd < 0)
		return HP_UNKNOWN;
	char name[32];
	snprintf(name, sizeof name, "%d", (int)pid);
	struct stat st;
	hp_tri t;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT) {
			t = HP_FALSE;
		} else {
			hp_err_set(why, "/proc/%d: %s", (int)pid, strerror(errno));
			t = HP_UNKNOWN;
		}
	} else {
		t = HP_TRUE;
	}
	close(pfd);
	return t;
}
