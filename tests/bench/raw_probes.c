/* raw_probes.c: the system calls a live check of the shipped policy cannot
 * do without, and nothing else: read the etc files, scan the PATH
 * directories for setuid and capability bits, fork a child per role that
 * switches identity and asks the kernel about each PATH directory and the
 * hangar directories, start a canary and reach for it, run sudo twice as
 * the agent. It is the floor tests/bench/live-check.sh measures the check
 * against. No parsing, no bytecode, no safety checks: do not use it for
 * anything else.
 *
 *   raw_probes ITERATIONS AGENT_UID HANGAR_UID PATH */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 20];
static unsigned agent, hangar;
static char *dirs[64];
static int ndirs;

static void slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	fstat(fd, &st);
	while (read(fd, buf, sizeof buf) > 0)
		;
	close(fd);
}

static void scan(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[4200];
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_type == DT_DIR || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		snprintf(p, sizeof p, "/proc/self/fd/%d/%s", dirfd(d), e->d_name);
		lgetxattr(p, "security.capability", NULL, 0);
	}
	closedir(d);
}

static void become(unsigned uid, int keep)
{
	gid_t g = uid;
	setgroups(1, &g);
	setresgid(uid, uid, uid);
	if (keep)
		prctl(PR_SET_KEEPCAPS, 1);
	setresuid(uid, uid, uid);
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct c[2] = {{0}};
	if (keep) {
		c[0].effective = c[0].permitted = c[0].inheritable = (1u << 6) | (1u << 7) | (1u << 5);
		syscall(SYS_capset, &h, c);
		for (int cap = 5; cap <= 7; cap++)
			prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0);
	} else {
		syscall(SYS_capset, &h, c);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		prctl(PR_SET_DUMPABLE, 0);
	}
}

static void agent_checks(pid_t canary)
{
	for (int i = 0; i < ndirs; i++) {
		int fd = open(dirs[i], O_PATH | O_CLOEXEC);
		if (fd >= 0) {
			syscall(SYS_faccessat2, fd, "", W_OK, AT_EACCESS | AT_EMPTY_PATH);
			close(fd);
		}
		char a[4096];
		snprintf(a, sizeof a, "%s", dirs[i]);
		for (char *s = strrchr(a, '/'); s && s != a; s = strrchr(a, '/')) {
			struct stat st;
			*s = '\0';
			stat(a, &st);
		}
	}
	const char *own[] = {"/var/lib/hangar", "/var/lib/hangar-ctl",
			     "/etc/claude-code/managed-settings.json", "/var/lib/hangar/harness"};
	for (size_t i = 0; i < 4; i++) {
		access(own[i], W_OK);
		access(own[i], R_OK);
	}
	slurp("/proc/self/status");
	kill(canary, 0);
	ptrace(PTRACE_SEIZE, canary, 0, 0);
	char m[64];
	snprintf(m, sizeof m, "/proc/%d/mem", canary);
	int fd = open(m, O_RDONLY);
	if (fd >= 0)
		close(fd);
}

static void run_sudo(const char *arg)
{
	pid_t p = fork();
	if (p == 0) {
		int nul = open("/dev/null", O_RDWR);
		dup2(nul, 0), dup2(nul, 1), dup2(nul, 2);
		setsid();
		become(agent, 0 /* plain: sudo refuses no_new_privs, but this is the floor */);
		char *const argv[] = {"sudo", "-n", "-k", (char *)arg, NULL};
		char *const envp[] = {"PATH=/usr/bin:/bin", NULL};
		execve("/usr/bin/sudo", argv, envp);
		_exit(127);
	}
	waitpid(p, NULL, 0);
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	int n = atoi(argv[1]);
	agent = (unsigned)atoi(argv[2]);
	hangar = (unsigned)atoi(argv[3]);
	for (char *t = strtok(argv[4], ":"); t && ndirs < 64; t = strtok(NULL, ":"))
		dirs[ndirs++] = t;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int it = 0; it < n; it++) {
		const char *files[] = {"/etc/passwd", "/etc/group", "/etc/shadow", "/etc/nsswitch.conf",
				       "/etc/sudo.conf", "/etc/sudoers", "/etc/sudoers.d/README"};
		for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
			slurp(files[i]);
		for (int i = 0; i < ndirs; i++)
			scan(dirs[i]);
		pid_t canary = fork();
		if (canary == 0) {
			become(hangar, 1);
			pause();
			_exit(0);
		}
		pid_t h = fork();
		if (h == 0) {
			become(hangar, 1);
			slurp("/proc/self/status");
			_exit(0);
		}
		waitpid(h, NULL, 0);
		pid_t ag = fork();
		if (ag == 0) {
			become(agent, 0);
			agent_checks(canary);
			_exit(0);
		}
		waitpid(ag, NULL, 0);
		kill(canary, SIGKILL);
		waitpid(canary, NULL, 0);
		run_sudo("true");
		run_sudo("-l");
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ms = ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n;
	printf("%.2f\n", ms);
	return 0;
}
