/* deny-syscalls.c: run a command under a seccomp filter that makes some
 * system calls fail, the way old container profiles and gVisor do, so tests
 * can show that the runtime answers "unknown" (never a wrong answer) when
 * openat2, faccessat2 or close_range are refused, or fail in a way nothing
 * expects (EIO, EINVAL).
 *
 *   deny-syscalls ERRNO SYSCALL[,SYSCALL...] -- COMMAND [ARG]...
 *
 * ERRNO is a name (EPERM, ENOSYS, EIO, EINVAL, EACCES, ENOENT, EROFS,
 * ENOMEM, EAGAIN, EBADF, ELOOP, EXDEV, EOVERFLOW, ENOTSUP) or a number from
 * 1 to 4095.
 *
 * Only syscalls named here can be denied; the filter is classic BPF set with
 * prctl, and is inherited across fork and execve. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "deny-syscalls: unsupported architecture"
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_statx
#define SYS_statx 332
#endif

static const struct {
	const char *name;
	long nr;
} known[] = {
    {"openat2", SYS_openat2},
    {"faccessat2", SYS_faccessat2},
    {"close_range", SYS_close_range},
    {"pidfd_open", SYS_pidfd_open},
    {"statx", SYS_statx},
};

static long lookup(const char *name)
{
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(known[i].name, name) == 0)
			return known[i].nr;
	return -1;
}

int main(int argc, char **argv)
{
	if (argc < 5 || strcmp(argv[3], "--") != 0) {
		fprintf(
		    stderr,
		    "usage: deny-syscalls ERRNO SYSCALL[,SYSCALL...] -- COMMAND [ARG]...\n");
		return 2;
	}
	static const struct {
		const char *name;
		int err;
	} errs[] = {{"EPERM", EPERM},   {"ENOSYS", ENOSYS},   {"EIO", EIO},     {"EINVAL", EINVAL},
	            {"EACCES", EACCES}, {"ENOENT", ENOENT},   {"EROFS", EROFS}, {"ENOMEM", ENOMEM},
	            {"EAGAIN", EAGAIN}, {"EBADF", EBADF},     {"ELOOP", ELOOP}, {"EXDEV", EXDEV},
	            {"EOVERFLOW", EOVERFLOW}, {"ENOTSUP", ENOTSUP}};
	int err = 0;
	for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
		if (strcmp(argv[1], errs[i].name) == 0)
			err = errs[i].err;
	if (!err) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (*argv[1] && !*end && v >= 1 && v <= 4095)
			err = (int)v;
	}
	if (!err) {
		fprintf(stderr, "deny-syscalls: '%s' is not an errno name this tool knows or a "
		                "number from 1 to 4095\n",
		        argv[1]);
		return 2;
	}
	long nrs[8];
	size_t n = 0;
	char *list = strdup(argv[2]);
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		long nr = lookup(tok);
		if (nr < 0 || n == 8) {
			fprintf(stderr, "deny-syscalls: cannot deny '%s'\n", tok);
			return 2;
		}
		nrs[n++] = nr;
	}
	free(list);

	struct sock_filter f[4 + 2 * 8 + 1];
	size_t k = 0;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                      offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		f[k++] =
		    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		                                      SECCOMP_RET_ERRNO | (unsigned)err);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = {(unsigned short)k, f};
	/* Root installs the filter without no_new_privs, which would change what
	 * is being tested (sudo refuses to run under it); others need it. */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
			perror("deny-syscalls: PR_SET_SECCOMP");
			return 2;
		}
	}
	execvp(argv[4], argv + 4);
	perror(argv[4]);
	return 127;
}
