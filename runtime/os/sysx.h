/* sysx.h: the newer Linux system calls the runtime relies on, called through
 * syscall(2) so that the runtime builds against any libc (glibc, musl) and
 * reports ENOSYS instead of failing to link, plus procfs handles that are
 * checked to be procfs before they are trusted (docs/runtime.md, B.22).
 *
 * Every wrapper returns what the raw system call returns: -1 with errno set
 * on failure. Callers treat ENOSYS and EPERM from these as "could not ask"
 * (B.20), never as a negative answer.
 */
#ifndef HP_SYSX_H
#define HP_SYSX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

/* openat2(2) with struct open_how; resolve is a RESOLVE_* mask. */
int hp_os_sys_openat2(int dirfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve);
/* faccessat2(2): the raw call, never glibc's emulation (B.19). */
int hp_os_sys_faccessat2(int dirfd, const char *path, int mode, int flags);
int hp_os_sys_close_range(unsigned first, unsigned last, unsigned flags);
int hp_os_sys_pidfd_open(pid_t pid, unsigned flags);
int hp_os_sys_pidfd_send_signal(int pidfd, int sig);
/* getxattrat(2) (Linux 6.13) with no buffer: the size of attribute name of
 * path relative to dirfd (at_flags: AT_SYMLINK_NOFOLLOW or 0), or -1 with
 * errno (ENODATA: none; ENOSYS or EPERM: ask another way). */
long hp_os_sys_getxattrat_size(int dirfd, const char *path, unsigned at_flags, const char *name);

/* Whether fd is on procfs (fstatfs). */
hp_tri hp_os_fd_is_procfs(int fd, hp_err *why);

/* Open /proc (O_PATH|O_DIRECTORY) and check it is procfs: the fd, or -1
 * with why set ("/proc is not procfs (f_type 0x...)"). */
int hp_os_proc_open(hp_err *why);

/* Reopen an O_PATH descriptor with open flags (O_RDONLY | O_NONBLOCK ...)
 * through the verified /proc/self/fd. The new fd, or -1 with errno (ENOSYS
 * when /proc is missing or is not procfs). */
int hp_os_proc_reopen(int opath_fd, int flags);

/* Write "/proc/self/fd/N" into buf after checking /proc is procfs, for the
 * path-only calls (getxattr) on an O_PATH descriptor. 0, or -1 with why. */
int hp_os_proc_fd_path(int fd, char *buf, size_t n, hp_err *why);

/* Read a small /proc or /proc/sys file of at most cap bytes below the
 * verified /proc fd into buf (NUL-terminated). -1 with why set on error,
 * on a file longer than cap - 1, or when /proc is not procfs. */
int hp_os_proc_read_small(const char *rel, char *buf, size_t cap, hp_err *why);

/* The kernel's last capability (/proc/sys/kernel/cap_last_cap), checked to
 * be in 0..63 (the runtime keeps capability sets as 64-bit masks); -1 with
 * why set when it cannot be read or is out of range. */
int hp_os_cap_last_cap(hp_err *why);

/* The overflow uid and gid (/proc/sys/kernel/overflow{uid,gid}): owners a
 * user namespace cannot map show as these (B.24). Default 65534 when the
 * files cannot be read. */
uid_t hp_os_overflow_uid(void);
gid_t hp_os_overflow_gid(void);

/* Yama's ptrace_scope, recorded next to every ptrace answer (A.11):
 * 0..3, or -1 when Yama is not present. */
int hp_os_yama_ptrace_scope(void);

/* Monotonic milliseconds, for deadlines. */
int64_t hp_os_now_ms(void);

#endif
