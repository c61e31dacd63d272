/* alternate.c: runs several commands in turn, A B C A B C ..., N rounds
 * after one round to warm caches, and prints for each the median wall time
 * of one run, its spread, and the median CPU time (user + system of the
 * process and everything it waited for). Taking the figures in alternation
 * spreads whatever else the machine does over every command alike, so the
 * ratios between them are steadier than the figures themselves.
 *
 * Besides external commands (run with execvp, stdin and stdout on
 * /dev/null), two built-in ones give the floor of a live check, each in a
 * child forked here (no exec of a helper of its own):
 *   @sudo UID GID     `sudo -n -k true` as that uid and gid (no other
 *                     groups), in a new session, with the environment the
 *                     check gives sudo: one run of the setuid sudo, the
 *                     one exec a live check cannot avoid
 *   @walk J DIR...    only the system calls the check's setuid scans make
 *                     on these directories: open, getdents64 and one statx
 *                     per entry (type, mode, owner, group), nothing else;
 *                     J processes at once, the directories dealt out to them
 *                     (J = 1 is one process, as the check's root child)
 *   @tree J TOP...    the same for whole trees, as an image-wide setuid scan
 *                     walks them: each TOP and everything below it, not
 *                     entering a directory on another mount (statx's mount
 *                     id), each directory opened O_NOFOLLOW relative to its
 *                     parent (a TOP that is a file: one statx of it); J
 *                     processes, the tops dealt out to them
 *   @scan JOB...      both at once, the way the check's processes share
 *                     them out: each JOB one process, a comma-separated
 *                     list of tree:PATH (walked whole, as @tree) and
 *                     dir:PATH (one directory, as @walk) items
 *
 *   alternate N NAME CMD... [-- NAME CMD...]...
 *
 * Output, one line per command, times in milliseconds:
 *   NAME median P10 P90 min max cpu-median failures
 * Exit status 1 if a command could not be started. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_CMDS = 16, MAX_WALK = 256 };

typedef struct {
	const char *name;
	char **argv;
	double *wall, *cpu;
	int fails;
} cmd;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void quiet(void)
{
	int nul = open("/dev/null", O_RDWR);
	if (nul < 0)
		_exit(126);
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(nul, 2);
	if (nul > 2)
		close(nul);
}

static void run_sudo(char **argv)
{
	if (!argv[1] || !argv[2])
		_exit(125);
	uid_t uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid_t gid = (gid_t)strtoul(argv[2], NULL, 10);
	quiet();
	if (setsid() < 0 || setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 ||
	    setresuid(uid, uid, uid) != 0)
		_exit(126);
	char *const a[] = {"sudo", "-n", "-k", "--", "true", NULL};
	char *const env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
	execve("/usr/bin/sudo", a, env);
	_exit(127);
}

/* getdents64 and one statx per entry, relative to the directory */
static void walk_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[32768];
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			off += d->reclen;
			if (d->name[0] == '.' &&
			    (d->name[1] == '\0' || (d->name[1] == '.' && d->name[2] == '\0')))
				continue;
			struct statx sx;
			statx(fd, d->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			      STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID, &sx);
		}
	}
	close(fd);
}

enum { MAX_DEPTH = 256 };

/* Everything below the directory open as fd, on mount mnt. */
static void walk_tree(int fd, unsigned long long mnt, int depth)
{
	char buf[32768];
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			off += d->reclen;
			if (d->name[0] == '.' &&
			    (d->name[1] == '\0' || (d->name[1] == '.' && d->name[2] == '\0')))
				continue;
			struct statx sx;
			if (statx(fd, d->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			          STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_MNT_ID,
			          &sx) != 0)
				continue;
			if (!S_ISDIR(sx.stx_mode) || sx.stx_mnt_id != mnt || depth >= MAX_DEPTH)
				continue;
			/* getdents reads the rest of this directory after the child */
			int c = openat(fd, d->name,
			               O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (c >= 0) {
				walk_tree(c, mnt, depth + 1);
				close(c);
			}
		}
	}
}

static void tree_top(const char *top)
{
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		/* a mount of one file (a bind-mounted program): the file alone,
		 * as the image-wide scan looks at it */
		struct statx sx;
		statx(AT_FDCWD, top, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		      STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID, &sx);
		return;
	}
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) == 0)
		walk_tree(fd, sx.stx_mnt_id, 0);
	close(fd);
}

static void run_walk(char **argv)
{
	void (*one)(const char *) = strcmp(argv[0], "@tree") == 0 ? tree_top : walk_dir;
	if (!argv[1])
		_exit(125);
	int jobs = atoi(argv[1]);
	char **dirs = argv + 2;
	int ndirs = 0;
	while (dirs[ndirs])
		ndirs++;
	if (jobs < 1)
		jobs = 1;
	if (jobs > ndirs)
		jobs = ndirs ? ndirs : 1;
	for (int j = 1; j < jobs; j++) {
		pid_t p = fork();
		if (p == 0) {
			for (int i = j; i < ndirs; i += jobs)
				one(dirs[i]);
			_exit(0);
		}
	}
	for (int i = 0; i < ndirs; i += jobs)
		one(dirs[i]);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

/* @scan: one process per JOB argument, all at once */
static void run_scan(char **argv)
{
	for (int j = 1; argv[j]; j++) {
		pid_t p = fork();
		if (p != 0)
			continue;
		char *list = strdup(argv[j]);
		for (char *save = NULL, *it = strtok_r(list, ",", &save); it;
		     it = strtok_r(NULL, ",", &save)) {
			if (strncmp(it, "tree:", 5) == 0)
				tree_top(it + 5);
			else if (strncmp(it, "dir:", 4) == 0)
				walk_dir(it + 4);
			else
				_exit(125);
		}
		_exit(0);
	}
	int st, bad = 0;
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad = 1;
	_exit(bad ? 125 : 0);
}

/* One run: wall and CPU milliseconds; -1 when it could not start. */
static int run_once(cmd *c, double *wall, double *cpu)
{
	double t0 = now_ms();
	pid_t p = fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		if (strcmp(c->argv[0], "@sudo") == 0)
			run_sudo(c->argv);
		if (strcmp(c->argv[0], "@walk") == 0 || strcmp(c->argv[0], "@tree") == 0)
			run_walk(c->argv);
		if (strcmp(c->argv[0], "@scan") == 0)
			run_scan(c->argv);
		quiet();
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	while (wait4(p, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*wall = now_ms() - t0;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	if (WIFEXITED(st) && WEXITSTATUS(st) >= 125)
		return -1;
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted v[0..n) (nearest rank). */
static double quantile(const double *v, int n, double q)
{
	int i = (int)(q * (n - 1) + 0.5);
	return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: alternate N NAME CMD... [-- NAME CMD...]...\n");
		return 2;
	}
	int n = atoi(argv[1]);
	if (n < 1)
		return 2;
	cmd cmds[MAX_CMDS];
	int nc = 0;
	for (int i = 2; i < argc && nc < MAX_CMDS;) {
		cmd *c = &cmds[nc++];
		c->name = argv[i++];
		c->argv = &argv[i];
		while (i < argc && strcmp(argv[i], "--") != 0)
			i++;
		if (i < argc)
			argv[i++] = NULL;
		if (!c->argv[0]) {
			fprintf(stderr, "alternate: %s: no command\n", c->name);
			return 2;
		}
		c->wall = calloc((size_t)n, sizeof(double));
		c->cpu = calloc((size_t)n, sizeof(double));
		c->fails = 0;
		if (!c->wall || !c->cpu)
			return 2;
	}
	int rc = 0;
	for (int round = -1; round < n; round++) {
		for (int k = 0; k < nc; k++) {
			double w = 0, u = 0;
			if (run_once(&cmds[k], &w, &u) < 0) {
				cmds[k].fails++;
				rc = 1;
			}
			if (round >= 0) {
				cmds[k].wall[round] = w;
				cmds[k].cpu[round] = u;
			}
		}
	}
	for (int k = 0; k < nc; k++) {
		cmd *c = &cmds[k];
		qsort(c->wall, (size_t)n, sizeof(double), cmp_d);
		qsort(c->cpu, (size_t)n, sizeof(double), cmp_d);
		printf("%s %.2f %.2f %.2f %.2f %.2f %.2f %d\n", c->name, quantile(c->wall, n, 0.5),
		       quantile(c->wall, n, 0.1), quantile(c->wall, n, 0.9), c->wall[0],
		       c->wall[n - 1], quantile(c->cpu, n, 0.5), c->fails);
	}
	return rc;
}
