/* bounded_read.c: regular files only, capped, never blocking. The read
 * itself is lib/readfile.c's one loop; what is ours is how a file the
 * agent may have planted is opened (readfile.h says why that is not the
 * library's). */
#include "os/bounded_read.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/readfile.h"
#include "os/sysx.h"

static int reopen_via_proc(int opath_fd)
{
	return hp_os_proc_reopen(opath_fd, O_RDONLY | O_NONBLOCK | O_NOCTTY);
}

static hp_tri read_all(int fd, const char *name, size_t cap, size_t hint, char **buf, size_t *len,
                       hp_err *why)
{
	if (hp_read_fd_all(fd, cap, hint, buf, len) != 0) {
		int e = errno;
		if (e == EFBIG)
			hp_err_set(why, "%s: larger than the %zu-byte cap", name, cap);
		else
			hp_err_set(why, "%s: %s", name, strerror(e));
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

static hp_tri check_regular(int fd, const char *name, size_t cap, hp_fileinfo *fi, hp_err *why)
{
	hp_err e;
	if (hp_os_fd_info(fd, fi, &e) != HP_TRUE) {
		hp_err_set(why, "%s: %s", name, e.msg);
		return HP_UNKNOWN;
	}
	if (fi->type != HP_FT_FILE) {
		hp_err_set(why, "%s: not a regular file (%s)", name, hp_os_ftype_name(fi->type));
		return HP_UNKNOWN;
	}
	if (fi->size > cap) {
		hp_err_set(why, "%s: larger than the %zu-byte cap", name, cap);
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

static hp_tri read_checked(int rfd, const hp_fileinfo *fi, const char *name, size_t cap, char **buf,
                           size_t *len, hp_err *why)
{
	struct stat st;
	if (fstat(rfd, &st) < 0 || st.st_dev != fi->dev || st.st_ino != fi->ino ||
	    !S_ISREG(st.st_mode)) {
		hp_err_set(why, "%s: changed while it was opened", name);
		return HP_UNKNOWN;
	}
	return read_all(rfd, name, cap, (size_t)fi->size, buf, len, why);
}

hp_tri hp_os_read_fd_bounded(int opath_fd, const char *name, size_t cap, char **buf, size_t *len,
                          hp_err *why)
{
	*buf = NULL;
	*len = 0;
	hp_fileinfo fi;
	if (check_regular(opath_fd, name, cap, &fi, why) != HP_TRUE)
		return HP_UNKNOWN;
	int rfd = reopen_via_proc(opath_fd);
	if (rfd < 0) {
		int e = errno;
		if (e == ENOSYS)
			hp_err_set(why, "%s: cannot reopen for reading without procfs", name);
		else
			hp_err_set(why, "%s: %s", name, strerror(e));
		return HP_UNKNOWN;
	}
	hp_tri t = read_checked(rfd, &fi, name, cap, buf, len, why);
	close(rfd);
	return t;
}

hp_tri hp_os_read_file_in_root(const hp_root *r, const char *path, size_t cap, char **buf, size_t *len,
                            hp_err *why)
{
	*buf = NULL;
	*len = 0;
	int fd;
	hp_tri t = hp_os_resolve(r, path, 0, &fd, why);
	if (t != HP_TRUE)
		return t;
	hp_fileinfo fi;
	if (check_regular(fd, path, cap, &fi, why) != HP_TRUE) {
		close(fd);
		return HP_UNKNOWN;
	}
	int rfd = reopen_via_proc(fd);
	int e = errno;
	close(fd);
	if (rfd < 0 && e == ENOSYS && !(r->flags & HP_ROOT_WALK)) {
		uint64_t res = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
		if (r->flags & HP_ROOT_OFFLINE)
			res |= RESOLVE_NO_XDEV;
		rfd = hp_os_sys_openat2(r->fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0,
		                     res);
		e = errno;
	}
	if (rfd < 0) {
		if (e == ENOSYS)
			hp_err_set(why, "%s: cannot reopen for reading without procfs", path);
		else
			hp_err_set(why, "%s: %s", path, strerror(e));
		return HP_UNKNOWN;
	}
	t = read_checked(rfd, &fi, path, cap, buf, len, why);
	close(rfd);
	return t;
}
