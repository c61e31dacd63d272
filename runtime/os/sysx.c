/* sysx.c: raw system call wrappers and verified procfs access. */
#include "os/sysx.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/openat2.h>

/* The numbers are the same on every architecture for system calls added
 * after the table was unified (5.1); older headers may lack them. */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif

#define PROCFS_MAGIC 0x9fa0

int hp_os_sys_openat2(int dirfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve)
{
	struct open_how how;
	memset(&how, 0, sizeof how);
	how.flags = flags;
	how.mode = mode;
	how.resolve = resolve;
	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

int hp_os_sys_faccessat2(int dirfd, const char *path, int mode, int flags)
{
	return (int)syscall(SYS_faccessat2, dirfd, path, mode, flags);
}

int hp_os_sys_close_range(unsigned first, unsigned last, unsigned flags)
{
	return (int)syscall(SYS_close_range, first, last, flags);
}

int hp_os_sys_pidfd_open(pid_t pid, unsigned flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

int hp_os_sys_pidfd_send_signal(int pidfd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

long hp_os_sys_getxattrat_size(int dirfd, const char *path, unsigned at_flags, const char *name)
{
	/* struct xattr_args: value (u64), size (u32), flags (u32) */
	struct {
		uint64_t value;
		uint32_t size, flags;
	} args = {0, 0, 0};
	return syscall(SYS_getxattrat, dirfd, path, at_flags, name, &args, sizeof args);
}

hp_tri hp_os_fd_is_procfs(int fd, hp_err *why)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0) {
		hp_err_set(why, "fstatfs: %s", strerror(errno));
		return HP_UNKNOWN;
	}
	return (unsigned long)sf.f_type == PROCFS_MAGIC ? HP_TRUE : HP_FALSE;
}

int hp_os_proc_open(hp_err *why)
{
	int fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		hp_err_set(why, "/proc: %s", strerror(errno));
		return -1;
	}
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0) {
		hp_err_set(why, "/proc: fstatfs: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if ((unsigned long)sf.f_type != PROCFS_MAGIC) {
		hp_err_set(why, "/proc is not procfs (f_type 0x%lx)", (unsigned long)sf.f_type);
		close(fd);
		return -1;
	}
	return fd;
}

int hp_os_proc_reopen(int opath_fd, int flags)
{
	int pfd = hp_os_proc_open(NULL);
	if (pfd < 0) {
		errno = ENOSYS;
		return -1;
	}
	char rel[48];
	snprintf(rel, sizeof rel, "self/fd/%d", opath_fd);
	int fd = openat(pfd, rel, flags | O_CLOEXEC);
	int e = errno;
	close(pfd);
	errno = e;
	return fd;
}

int hp_os_proc_fd_path(int fd, char *buf, size_t n, hp_err *why)
{
	/* statfs by path checks what the path will resolve to as well as
	 * opening /proc would, for what the caller does next is resolve the
	 * path again: one system call where an open, an fstatfs and a close
	 * were three, asked for every ACL a walk reads */
	struct statfs sf;
	if (statfs("/proc", &sf) < 0) {
		hp_err_set(why, "/proc: %s", strerror(errno));
		return -1;
	}
	if ((unsigned long)sf.f_type != PROCFS_MAGIC) {
		hp_err_set(why, "/proc is not procfs (f_type 0x%lx)", (unsigned long)sf.f_type);
		return -1;
	}
	snprintf(buf, n, "/proc/self/fd/%d", fd);
	return 0;
}

int hp_os_proc_read_small(const char *rel, char *buf, size_t cap, hp_err *why)
{
	if (cap < 2) {
		hp_err_set(why, "/proc/%s: no room to read into", rel);
		return -1;
	}
	int pfd = hp_os_proc_open(why);
	if (pfd < 0)
		return -1;
	int fd = openat(pfd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	int e = errno;
	close(pfd);
	if (fd < 0) {
		hp_err_set(why, "/proc/%s: %s", rel, strerror(e));
		return -1;
	}
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			hp_err_set(why, "/proc/%s: %s", rel, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap - 1) {
			char extra;
			ssize_t x = read(fd, &extra, 1);
			if (x != 0) {
				hp_err_set(why, "/proc/%s: longer than %zu bytes", rel, cap - 1);
				close(fd);
				return -1;
			}
			break;
		}
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* A small decimal integer file such as /proc/sys/kernel/cap_last_cap. */
static int read_proc_long(const char *rel, long lo, long hi, long *out, hp_err *why)
{
	char buf[64];
	if (hp_os_proc_read_small(rel, buf, sizeof buf, why) < 0)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0') || v < lo || v > hi) {
		hp_err_set(why, "/proc/%s: not a number in %ld..%ld", rel, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int hp_os_cap_last_cap(hp_err *why)
{
	long v;
	if (read_proc_long("sys/kernel/cap_last_cap", 0, 63, &v, why) < 0)
		return -1;
	return (int)v;
}

uid_t hp_os_overflow_uid(void)
{
	long v;
	if (read_proc_long("sys/kernel/overflowuid", 0, UINT32_MAX - 1, &v, NULL) < 0)
		return 65534;
	return (uid_t)v;
}

gid_t hp_os_overflow_gid(void)
{
	long v;
	if (read_proc_long("sys/kernel/overflowgid", 0, UINT32_MAX - 1, &v, NULL) < 0)
		return 65534;
	return (gid_t)v;
}

int hp_os_yama_ptrace_scope(void)
{
	long v;
	if (read_proc_long("sys/kernel/yama/ptrace_scope", 0, 3, &v, NULL) < 0)
		return -1;
	return (int)v;
}

int64_t hp_os_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
