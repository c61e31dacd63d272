/* test_replace.c: writable_ancestor, live (as a raw uid) and computed, on a
 * fixture tree with sticky, world-writable, owned, immutable and
 * append-only directories and symlinked PATH entries; the
 * symlink-exchange race; and what a walk tells of where it ended. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/access.h"
#include "fixture.h"
#include "os/replace.h"
#include "os/walkmemo.h"
#include "os/safe_path.h"

typedef fx_rooted fx;

static void fill_tree(const char *d)
{
	fx_dir(d, "pub", 01777, 0, 0);
	fx_file(d, "pub/rootf", "x", 0644, 0, 0);
	fx_file(d, "pub/agentf", "x", 0644, FX_AGENT, FX_AGENT);
	fx_dir(d, "w", 0777, 0, 0);
	fx_file(d, "w/f", "x", 0644, 0, 0);
	fx_dir(d, "own", 0555, FX_AGENT, FX_AGENT);
	fx_file(d, "own/f", "x", 0644, 0, 0);
	fx_dir(d, "ro", 0755, 0, 0);
	fx_file(d, "ro/f", "x", 0666, 0, 0);
	fx_dir(d, "ro/sub", 0755, 0, 0);
	fx_file(d, "ro/sub/f", "x", 0644, 0, 0);
	fx_dir(d, "grp", 0775, 0, FX_GROUP);
	fx_file(d, "grp/f", "x", 0644, 0, 0);
	fx_dir(d, "imm", 0777, 0, 0);
	fx_file(d, "imm/f", "x", 0644, 0, 0);
	fx_dir(d, "home", 0755, 0, 0);
	fx_dir(d, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_dir(d, "home/agent/real", 0755, FX_AGENT, FX_AGENT);
	fx_link(d, "bin", "/home/agent/real");
	fx_link(d, "bin2", "ro/sub");
	fx_link(d, "loop", "loop");
	/* a directory the agent cannot search and does not own: nothing below
	 * it is reachable, even a world-writable directory */
	fx_dir(d, "sealed", 0700, FX_OTHER, FX_OTHER);
	fx_dir(d, "sealed/w", 0777, FX_OTHER, FX_OTHER);
	fx_file(d, "sealed/w/f", "x", 0644, 0, 0);
	/* one it cannot search but owns: it can chmod it */
	fx_dir(d, "mine", 0755, FX_AGENT, FX_AGENT);
	fx_dir(d, "mine/sub", 0755, 0, 0);
	fx_file(d, "mine/sub/f", "x", 0644, 0, 0);
	char *mine = fx_path(d, "mine");
	assert_int_equal(chmod(mine, 0600), 0);
	free(mine);
	char *imm = fx_path(d, "imm");
	assert_int_equal(fx_set_immutable(imm, 1), 0);
	free(imm);
	/* append-only directories: nothing in them can be unlinked or renamed
	 * over, but a missing name can be created by whoever may write them;
	 * their owner cannot chmod them */
	fx_dir(d, "app", 0777, 0, 0);
	fx_file(d, "app/f", "x", 0644, 0, 0);
	fx_dir(d, "appown", 0755, FX_AGENT, FX_AGENT);
	fx_file(d, "appown/f", "x", 0644, 0, 0);
	fx_dir(d, "appown0", 0555, FX_AGENT, FX_AGENT);
	fx_dir(d, "appmine", 0755, FX_AGENT, FX_AGENT);
	fx_dir(d, "appmine/sub", 0755, 0, 0);
	fx_file(d, "appmine/sub/f", "x", 0644, 0, 0);
	/* an append-only file in a directory anyone may write */
	fx_dir(d, "w2", 0777, 0, 0);
	fx_file(d, "w2/f", "x", 0644, 0, 0);
	const char *app[] = {"app", "appown", "appown0", "appmine", "w2/f"};
	for (size_t i = 0; i < sizeof app / sizeof app[0]; i++) {
		char *p = fx_path(d, app[i]);
		if (strcmp(app[i], "appmine") == 0)
			assert_int_equal(chmod(p, 0600), 0);
		assert_int_equal(fx_set_append(p, 1), 0);
		free(p);
	}
}

static int setup(void **state)
{
	*state = fx_rooted_new(fill_tree);
	return 0;
}

static int teardown(void **state)
{
	fx_rooted_free(*state);
	return 0;
}

static const struct {
	const char *path;
	hp_tri agent;     /* uid FX_AGENT, gid FX_AGENT */
	hp_tri grouped;   /* uid FX_OTHER, gid FX_GROUP */
	const char *note; /* the agent's evidence, when true */
} cases[] = {
    {"pub/rootf", HP_FALSE, HP_FALSE, NULL},
    {"pub/agentf", HP_TRUE, HP_FALSE,
     "pub/agentf: owns 'agentf' in a sticky directory it can write"},
    {"w/f", HP_TRUE, HP_TRUE, "w/f: can write the directory that holds 'f' (not sticky)"},
    {"w/missing", HP_TRUE, HP_TRUE, "w/missing: can create the missing 'missing'"},
    {"own/f", HP_TRUE, HP_FALSE, "own/f: owns the directory that holds 'f'"},
    {"ro/f", HP_FALSE, HP_FALSE, NULL},
    {"ro/sub/f", HP_FALSE, HP_FALSE, NULL},
    {"ro/missing", HP_FALSE, HP_FALSE, NULL},
    {"grp/f", HP_FALSE, HP_TRUE, NULL},
    {"imm/f", HP_FALSE, HP_FALSE, NULL},
    {"imm/missing", HP_FALSE, HP_FALSE, NULL},
    {"app/f", HP_FALSE, HP_FALSE, NULL},
    {"app/missing", HP_TRUE, HP_TRUE, "app/missing: can create the missing 'missing'"},
    {"appown/f", HP_FALSE, HP_FALSE, NULL},
    {"appown/missing", HP_TRUE, HP_FALSE, "appown/missing: can create the missing 'missing'"},
    {"appown0/missing", HP_FALSE, HP_FALSE, NULL},
    {"appmine/sub/f", HP_FALSE, HP_FALSE, NULL},
    {"w2/f", HP_FALSE, HP_FALSE, NULL},
    {"bin", HP_TRUE, HP_FALSE, "bin: owns the directory that holds 'real'"},
    {"bin2", HP_FALSE, HP_FALSE, NULL},
    {"/", HP_FALSE, HP_FALSE, NULL},
    {"loop", HP_UNKNOWN, HP_UNKNOWN, NULL},
    {"sealed/w/f", HP_FALSE, HP_TRUE, NULL},
    {"mine/sub/f", HP_TRUE, HP_FALSE,
     "mine/sub/f: owns 'mine', which it cannot search but can chmod, on the way"},
};
#define NCASES (sizeof cases / sizeof cases[0])

typedef struct {
	fx *f;
	hp_tri got[NCASES];
	char why[NCASES][512];
	/* the same asked with a directory cache and a walk memo shared by
	 * every case, twice (filling them, then answering from them) */
	hp_tri cached[2][NCASES];
	char cached_why[2][NCASES][512];
} live_ctx;

static int ask_live(void *arg)
{
	live_ctx *c = arg;
	for (size_t i = 0; i < NCASES; i++) {
		hp_err e;
		e.msg[0] = '\0';
		c->got[i] = hp_os_replaceable_live(&c->f->root, cases[i].path, &e);
		snprintf(c->why[i], sizeof c->why[i], "%s", e.msg);
	}
	hp_self self;
	hp_os_self_read(&self);
	hp_dircache *dc = hp_os_dircache_new();
	hp_walkmemo *m = hp_os_walkmemo_new();
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < NCASES; i++) {
			hp_err e;
			e.msg[0] = '\0';
			c->cached[round][i] =
			    hp_os_replaceable_live_self(&c->f->root, cases[i].path, &self, dc, m, &e);
			snprintf(c->cached_why[round][i], sizeof c->cached_why[round][i], "%s", e.msg);
		}
	hp_os_walkmemo_free(m);
	hp_os_dircache_free(dc);
	return 0;
}

static void check_role(fx *f, uid_t uid, gid_t gid, int agent)
{
	live_ctx *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	c->f = f;
	assert_int_equal(fx_run_as(uid, gid, ask_live, c), 0);
	hp_cred cred = {uid, gid, NULL, 0, 0};
	for (size_t i = 0; i < NCASES; i++) {
		hp_tri want = agent ? cases[i].agent : cases[i].grouped;
		hp_err e;
		hp_tri comp = hp_os_replaceable_computed(&f->root, cases[i].path, &cred, &e);
		if (c->got[i] != want || comp != want)
			print_error("%s as %u: live %d (%s) computed %d (%s), want %d\n",
			            cases[i].path, (unsigned)uid, c->got[i], c->why[i], comp, e.msg,
			            want);
		assert_int_equal(c->got[i], want);
		assert_int_equal(comp, want);
		for (int round = 0; round < 2; round++) {
			assert_int_equal(c->cached[round][i], want);
			assert_string_equal(c->cached_why[round][i], c->why[i]);
		}
		if (agent && cases[i].note)
			assert_string_equal(c->why[i], cases[i].note);
	}
	munmap(c, sizeof *c);
}

static void test_agent(void **state)
{
	FX_NEED_ROOT();
	check_role(*state, FX_AGENT, FX_AGENT, 1);
}

static void test_group_member(void **state)
{
	FX_NEED_ROOT();
	check_role(*state, FX_OTHER, FX_GROUP, 0);
}

/* A process that owns its /proc/PID (dumpable, as an agent process is)
 * can neither chmod anything there nor create, rename or unlink an entry:
 * procfs refuses both. So its own mounts file, reached through /proc/self
 * as /etc/mtab leads every reader, is neither writable nor replaceable;
 * a link in a process's directory (cwd) stays unknown to the walk. */
static int procfs_child(void *arg)
{
	(void)arg;
	if (prctl(PR_SET_DUMPABLE, 1) != 0)
		return 1;
	hp_root r;
	hp_err e;
	if (hp_os_root_open(&r, "/", 0, &e) != HP_TRUE)
		return 2;
	int fd = open("/proc/self/mounts", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 3;
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_uid != getuid())
		return 4; /* the process must own its own files for the test to mean anything */
	int rc = 0;
	if (hp_os_access_live(fd, HP_ACC_WRITE, &e) != HP_FALSE)
		rc = 5;
	close(fd);
	if (!rc && hp_os_replaceable_live(&r, "/proc/self/mounts", &e) != HP_FALSE)
		rc = 6;
	if (!rc && hp_os_replaceable_live(&r, "/proc/mounts", &e) != HP_FALSE)
		rc = 7;
	if (!rc && hp_os_replaceable_live(&r, "/proc/self/cwd/x", &e) != HP_UNKNOWN)
		rc = 8;
	hp_os_root_close(&r);
	return rc;
}

static void test_procfs_own_directory(void **state)
{
	FX_NEED_ROOT();
	(void)state;
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, procfs_child, NULL), 0);
}

static void test_loop_reason(void **state)
{
	fx *f = *state;
	hp_cred cred = {FX_AGENT, FX_AGENT, NULL, 0, 0};
	hp_err e;
	assert_int_equal(hp_os_replaceable_computed(&f->root, "loop", &cred, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "loop: too many levels of symbolic links, or a magic link");
}

/* --- the symlink-exchange race (runc CVE-2021-30465) ---
 * A root-run swapper exchanges pathdir/bin between a root-owned directory
 * and a symlink into the agent's home with renameat2(RENAME_EXCHANGE) as
 * fast as it can. The agent asks writable(pathdir/bin) again and again:
 * every answer must be right for the directory it was given about (root's:
 * no; the agent's: yes), so a swap can never make the check say "not
 * writable" about the agent's directory. In agent-writable apath the same
 * swap runs, and writable_ancestor must never say no. */

static pid_t start_swapper(const char *dir, const char *a, const char *b)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *pa = fx_path(dir, a), *pb = fx_path(dir, b);
		for (;;)
			if (syscall(SYS_renameat2, AT_FDCWD, pa, AT_FDCWD, pb, 2 /* EXCHANGE */) <
			    0)
				_exit(1);
	}
	return pid;
}

typedef struct {
	fx *f;
	ino_t root_ino, agent_ino;
	int seen_root, seen_agent, unknown, wrong;
	int ancestor_false, ancestor_true;
} race_ctx;

static int race_writable(void *arg)
{
	race_ctx *c = arg;
	int64_t end = 0;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec + 4;
	hp_self self;
	hp_os_self_read(&self);
	hp_dircache *dc = hp_os_dircache_new();
	hp_walkmemo *memo = hp_os_walkmemo_new();
	for (int i = 0; i < 200000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec > end || (c->seen_root > 50 && c->seen_agent > 50 && i > 2000))
			break;
		int fd;
		hp_err e;
		if (hp_os_resolve(&c->f->root, "pathdir/bin", 0, &fd, &e) != HP_TRUE) {
			c->unknown++;
			continue;
		}
		hp_fileinfo fi;
		hp_tri w = hp_os_access_live(fd, HP_ACC_WRITE, &e);
		if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE) {
			close(fd);
			c->unknown++;
			continue;
		}
		close(fd);
		if (w == HP_UNKNOWN)
			c->unknown++;
		else if (fi.ino == c->agent_ino) {
			c->seen_agent++;
			c->wrong += w != HP_TRUE;
		} else if (fi.ino == c->root_ino) {
			c->seen_root++;
			c->wrong += w != HP_FALSE;
		} else {
			c->wrong++;
		}
		hp_tri a = hp_os_replaceable_live(&c->f->root, "apath/bin", &e);
		c->ancestor_false += a == HP_FALSE;
		c->ancestor_true += a == HP_TRUE;
		/* and with the scan's memory: a directory replaced between two
		 * walks is one whose parent the agent can write */
		a = hp_os_replaceable_live_self(&c->f->root, "apath/bin", &self, dc, memo, &e);
		c->ancestor_false += a == HP_FALSE;
		c->ancestor_true += a == HP_TRUE;
	}
	hp_os_walkmemo_free(memo);
	hp_os_dircache_free(dc);
	return 0;
}

static void test_symlink_exchange_race(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	const char *d = f->dir;
	fx_dir(d, "pathdir", 0755, 0, 0);
	fx_dir(d, "pathdir/bin", 0755, 0, 0);
	fx_link(d, "pathdir/bin.alt", "/home/agent/real");
	fx_dir(d, "apath", 0777, 0, 0);
	fx_dir(d, "apath/bin", 0755, 0, 0);
	fx_link(d, "apath/bin.alt", "/ro/sub");
	struct stat st;
	char *p = fx_path(d, "pathdir/bin");
	assert_int_equal(stat(p, &st), 0);
	free(p);
	race_ctx *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	c->f = f;
	c->root_ino = st.st_ino;
	p = fx_path(d, "home/agent/real");
	assert_int_equal(stat(p, &st), 0);
	free(p);
	c->agent_ino = st.st_ino;
	pid_t s1 = start_swapper(d, "pathdir/bin", "pathdir/bin.alt");
	pid_t s2 = start_swapper(d, "apath/bin", "apath/bin.alt");
	int r = fx_run_as(FX_AGENT, FX_AGENT, race_writable, c);
	kill(s1, SIGKILL);
	kill(s2, SIGKILL);
	waitpid(s1, NULL, 0);
	waitpid(s2, NULL, 0);
	print_message("race: %d answers about root's dir, %d about the agent's, %d unknown\n",
	              c->seen_root, c->seen_agent, c->unknown);
	assert_int_equal(r, 0);
	assert_int_equal(c->wrong, 0);
	assert_int_equal(c->ancestor_false, 0);
	assert_true(c->ancestor_true > 0);
	/* the race really happened both ways */
	assert_true(c->seen_root > 0);
	assert_true(c->seen_agent > 0);
	munmap(c, sizeof *c);
}

/* hp_os_replaceable_live_end: where a walk that found nothing ended, and
 * the type of that file's filesystem, read by the walk on its directory,
 * only when the file is on its directory's mount: a file bound over a
 * name is of the filesystem it came from, which the walk never read, and
 * a caller judging the file by its owner and mode must not take the
 * directory's type for it. */
typedef struct {
	hp_root root;
	long tree_magic;
} end_ctx;

static int ends_as_agent(void *arg)
{
	end_ctx *c = arg;
	hp_self self;
	hp_os_self_read(&self);
	static const struct {
		const char *path;
		hp_tri answer;
		bool ended;
		int magic; /* 0: none, 1: the tree's, 2: tmpfs */
	} want[] = {
	    {"/ro/f", HP_FALSE, true, 1},
	    {"/ro/via", HP_FALSE, true, 1},   /* a link followed to ro/f */
	    {"/mt/g", HP_FALSE, true, 2},     /* in a tmpfs mounted on mt */
	    {"/ro/bound", HP_FALSE, true, 0}, /* a tmpfs file bound over it */
	    {"/ro", HP_FALSE, false, 0},      /* a directory */
	    {"/ro/none", HP_FALSE, false, 0}, /* missing */
	    {"/w/f", HP_TRUE, false, 0},      /* its directory the agent's to write */
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		hp_walk_end end;
		memset(&end, 0xa5, sizeof end);
		hp_err e;
		e.msg[0] = '\0';
		hp_tri t = hp_os_replaceable_live_end(&c->root, want[i].path, &self, NULL, NULL,
		                                      &end, &e);
		long magic = want[i].magic == 1 ? c->tree_magic : want[i].magic == 2 ? TMPFS_MAGIC : 0;
		if (t != want[i].answer || end.ended != want[i].ended ||
		    (end.ended && end.fs_magic != magic) || (!end.ended && end.fs_magic != 0)) {
			fprintf(stderr, "%s: %d (%s), ended %d, type %lx; want %d, %d, %lx\n",
			        want[i].path, t, e.msg, end.ended, end.fs_magic, want[i].answer,
			        want[i].ended, magic);
			return 20 + (int)i;
		}
		if (end.ended && end.info.type != HP_FT_FILE)
			return 40 + (int)i;
	}
	return 0;
}

static int ends_over_mounts(void *arg)
{
	const char *d = arg;
	char *mt = fx_path(d, "mt"), *src = fx_path(d, "mt/src"), *bound = fx_path(d, "ro/bound");
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", mt, "tmpfs", 0, "mode=0755") < 0)
		return 10;
	fx_file(d, "mt/g", "g", 0644, 0, 0);
	fx_file(d, "mt/src", "s", 0644, 0, 0);
	if (mount(src, bound, NULL, MS_BIND, NULL) < 0)
		return 11;
	end_ctx c;
	struct statfs sf;
	hp_err e;
	if (statfs(d, &sf) < 0 || hp_os_root_open(&c.root, d, 0, &e) != HP_TRUE)
		return 12;
	c.tree_magic = (long)sf.f_type;
	int r = fx_run_as(FX_AGENT, FX_AGENT, ends_as_agent, &c);
	hp_os_root_close(&c.root);
	free(mt);
	free(src);
	free(bound);
	return r;
}

static void test_walk_end(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *d = fx_tmpdir();
	struct statfs sf;
	if (statfs(d, &sf) == 0 && sf.f_type == TMPFS_MAGIC) {
		fx_rmtree(d);
		skip(); /* a tree on tmpfs cannot tell a tmpfs mount apart */
	}
	fx_dir(d, "ro", 0755, 0, 0);
	fx_file(d, "ro/f", "x", 0644, 0, 0);
	fx_file(d, "ro/bound", "x", 0644, 0, 0);
	fx_link(d, "ro/via", "f");
	fx_dir(d, "mt", 0755, 0, 0);
	fx_dir(d, "w", 0777, 0, 0);
	fx_file(d, "w/f", "x", 0644, 0, 0);
	assert_int_equal(fx_in_child(ends_over_mounts, d), 0);
	fx_rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_agent, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_group_member, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_loop_reason, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_procfs_own_directory, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_symlink_exchange_race, setup, teardown),
	    cmocka_unit_test(test_walk_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
