/* fixture.c: temp trees and uid-switched children for unit tests. */
#include "fixture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fixture: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

/* Set once when the test program starts, so forked children agree. */
static uid_t uid_base;

__attribute__((constructor)) static void init_uid_base(void)
{
	uid_base = 3000000 + (uid_t)(getpid() % 100000) * 8;
}

uid_t fx_uid(int k)
{
	return uid_base + (uid_t)k;
}

char *fx_tmpdir(void)
{
	char *d = strdup("/tmp/hp-test-XXXXXX");
	if (!d || !mkdtemp(d))
		die("mkdtemp", "/tmp");
	if (chmod(d, 0755) < 0)
		die("chmod", d);
	return d;
}

static int clear_flags(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	(void)type;
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return 0;
	int fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		int fl = 0;
		if (ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0 &&
		    (fl & (FS_IMMUTABLE_FL | FS_APPEND_FL))) {
			fl &= ~(FS_IMMUTABLE_FL | FS_APPEND_FL);
			(void)ioctl(fd, FS_IOC_SETFLAGS, &fl);
		}
		close(fd);
	}
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	if (type == FTW_DP)
		rmdir(p);
	else
		unlink(p);
	return 0;
}

void fx_rmtree(char *dir)
{
	if (!dir)
		return;
	nftw(dir, clear_flags, 32, FTW_PHYS);
	nftw(dir, rm_one, 32, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

char *fx_path(const char *root, const char *rel)
{
	size_t n = strlen(root) + strlen(rel) + 2;
	char *p = malloc(n);
	if (!p)
		abort();
	snprintf(p, n, "%s/%s", root, rel);
	return p;
}

static void own(const char *p, unsigned mode, uid_t uid, gid_t gid)
{
	if (lchown(p, uid, gid) < 0)
		die("chown", p);
	if (chmod(p, mode) < 0)
		die("chmod", p);
}

void fx_dir(const char *root, const char *rel, unsigned mode, uid_t uid, gid_t gid)
{
	char *p = fx_path(root, rel);
	if (mkdir(p, 0700) < 0)
		die("mkdir", p);
	own(p, mode, uid, gid);
	free(p);
}

void fx_file(const char *root, const char *rel, const char *content, unsigned mode, uid_t uid,
             gid_t gid)
{
	char *p = fx_path(root, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		die("create", p);
	size_t n = strlen(content);
	if (write(fd, content, n) != (ssize_t)n)
		die("write", p);
	close(fd);
	own(p, mode, uid, gid);
	free(p);
}

void fx_link(const char *root, const char *rel, const char *target)
{
	char *p = fx_path(root, rel);
	if (symlink(target, p) < 0)
		die("symlink", p);
	free(p);
}

void fx_fifo(const char *root, const char *rel, unsigned mode)
{
	char *p = fx_path(root, rel);
	if (mkfifo(p, mode) < 0)
		die("mkfifo", p);
	free(p);
}

static int child_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid", "");
	if (WIFSIGNALED(st))
		return 256 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int fx_run_as(uid_t uid, gid_t gid, int (*fn)(void *arg), void *arg)
{
	pid_t pid = fork();
	if (pid < 0)
		die("fork", "");
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(255);
		_exit(fn(arg) & 0xff);
	}
	return child_status(pid);
}

int fx_in_child(int (*fn)(void *arg), void *arg)
{
	pid_t pid = fork();
	if (pid < 0)
		die("fork", "");
	if (pid == 0)
		_exit(fn(arg) & 0xff);
	return child_status(pid);
}

int fx_hide_procfs(void)
{
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/proc", "tmpfs", 0, "size=64k") < 0)
		return -1;
	return 0;
}

pid_t fx_sleeper(uid_t uid, int dumpable)
{
	int p[2];
	if (pipe(p) != 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(1);
		prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
		(void)!write(p[1], "x", 1);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	char c;
	ssize_t r = read(p[0], &c, 1);
	close(p[0]);
	if (r != 1)
		abort();
	return pid;
}

void fx_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int fx_count_procs_of_uid(uid_t uid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char p[300], line[256];
		snprintf(p, sizeof p, "/proc/%s/status", e->d_name);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof line, f)) {
			unsigned r;
			if (sscanf(line, "Uid: %u", &r) == 1) {
				if (r == uid)
					n++;
				break;
			}
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

int fx_seccomp_fail(const int *nrs, size_t n, int err)
{
	if (n > 32)
		return -1;
	struct sock_filter f[2 + 32 * 2 + 1];
	size_t k = 0;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                      offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		f[k++] =
		    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		                                      SECCOMP_RET_ERRNO | ((unsigned)err & 0xffff));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = {.len = (unsigned short)k, .filter = f};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

static int set_flag(const char *path, int flag, int on)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int fl = 0;
	int r = ioctl(fd, FS_IOC_GETFLAGS, &fl);
	if (r == 0) {
		fl = on ? (fl | flag) : (fl & ~flag);
		r = ioctl(fd, FS_IOC_SETFLAGS, &fl);
	}
	close(fd);
	return r;
}

int fx_set_immutable(const char *path, int on)
{
	return set_flag(path, FS_IMMUTABLE_FL, on);
}

int fx_set_append(const char *path, int on)
{
	return set_flag(path, FS_APPEND_FL, on);
}

size_t fx_acl_blob(unsigned char *b, const unsigned (*ents)[3], size_t n)
{
	b[0] = 2, b[1] = b[2] = b[3] = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char *q = b + 4 + 8 * i;
		q[0] = (unsigned char)ents[i][0], q[1] = (unsigned char)(ents[i][0] >> 8);
		q[2] = (unsigned char)ents[i][1], q[3] = 0;
		for (int k = 0; k < 4; k++)
			q[4 + k] = (unsigned char)(ents[i][2] >> (8 * k));
	}
	return 4 + 8 * n;
}

void fx_set_acl(const char *root, const char *rel, const unsigned (*ents)[3], size_t n)
{
	unsigned char b[4 + 8 * 16];
	if (n > 16)
		abort();
	size_t len = fx_acl_blob(b, ents, n);
	char *p = fx_path(root, rel);
	if (setxattr(p, "system.posix_acl_access", b, len, 0) != 0)
		die("setting an ACL on", p);
	free(p);
}

fx_rooted *fx_rooted_new(void (*fill)(const char *dir))
{
	fx_rooted *f = calloc(1, sizeof *f);
	if (!f)
		abort();
	f->dir = fx_tmpdir();
	if (fill)
		fill(f->dir);
	hp_err e;
	if (hp_os_root_open(&f->root, f->dir, 0, &e) != HP_TRUE) {
		fprintf(stderr, "fx_rooted_new: %s\n", e.msg);
		abort();
	}
	return f;
}

void fx_rooted_free(fx_rooted *f)
{
	hp_os_root_close(&f->root);
	fx_rmtree(f->dir);
	free(f);
}
