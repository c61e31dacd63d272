/* test_access.c: read/write/execute asked of the kernel as a raw uid, the
 * owner rule, ACLs, read-only mounts, immutable files, syscalls filtered by
 * seccomp, and the offline computation agreeing with the kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "os/access.h"
#include "fixture.h"
#include "os/posix_acl.h"
#include "os/safe_path.h"

typedef fx_rooted fx;

static void fill_tree(const char *d)
{
	fx_file(d, "r600", "x", 0600, 0, 0);
	fx_file(d, "r644", "x", 0644, 0, 0);
	fx_file(d, "r666", "x", 0666, 0, 0);
	fx_file(d, "g660", "x", 0660, 0, FX_GROUP);
	fx_file(d, "a000", "x", 0000, FX_AGENT, FX_AGENT);
	fx_file(d, "a066", "x", 0066, FX_AGENT, 0); /* owner bits only count for the owner */
	fx_file(d, "o604", "x", 0604, FX_OTHER, FX_GROUP);
	fx_file(d, "x755", "x", 0755, 0, 0);
	fx_dir(d, "d700", 0700, 0, 0);
	fx_dir(d, "d555a", 0555, FX_AGENT, FX_AGENT);
	fx_dir(d, "d777", 0777, 0, 0);
	/* ACL: the mode says no, the ACL says yes */
	fx_file(d, "acl_user", "x", 0600, 0, 0);
	const unsigned u[][3] = {{1, 6, 0}, {2, 6, FX_AGENT}, {4, 0, 0}, {16, 6, 0}, {32, 0, 0}};
	fx_set_acl(d, "acl_user", u, 5);
	/* ACL: a named user entry masked away */
	fx_file(d, "acl_masked", "x", 0600, 0, 0);
	const unsigned m[][3] = {{1, 6, 0}, {2, 6, FX_AGENT}, {4, 0, 0}, {16, 4, 0}, {32, 0, 0}};
	fx_set_acl(d, "acl_masked", m, 5);
	/* ACL: a named group that grants, the other entry denying */
	fx_file(d, "acl_group", "x", 0604, 0, 0);
	const unsigned g[][3] = {{1, 6, 0}, {4, 0, 0}, {8, 6, FX_GROUP}, {16, 7, 0}, {32, 4, 0}};
	fx_set_acl(d, "acl_group", g, 5);
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

static const char *const files[] = {"r600", "r644",     "r666",       "g660",     "a000",
                                    "a066", "o604",     "x755",       "d700",     "d555a",
                                    "d777", "acl_user", "acl_masked", "acl_group"};
#define NFILES (sizeof files / sizeof files[0])
static const int modes[] = {HP_ACC_READ, HP_ACC_WRITE, HP_ACC_EXEC};

typedef struct {
	fx *f;
	hp_tri got[NFILES][3];
	int live; /* hp_os_access_live instead of the bare kernel answer */
} ask_ctx;

/* The child writes its answers into a shared mapping. */
static int ask_all(void *arg)
{
	ask_ctx *c = arg;
	for (size_t i = 0; i < NFILES; i++) {
		int fd;
		hp_err e;
		if (hp_os_resolve(&c->f->root, files[i], 0, &fd, &e) != HP_TRUE)
			return 1;
		for (int m = 0; m < 3; m++)
			c->got[i][m] = c->live ? hp_os_access_live(fd, modes[m], &e)
			                       : hp_os_access_kernel(fd, modes[m], &e);
		close(fd);
	}
	return 0;
}

static ask_ctx *ask_as(fx *f, uid_t uid, gid_t gid, int live)
{
	ask_ctx *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	c->f = f;
	c->live = live;
	assert_int_equal(fx_run_as(uid, gid, ask_all, c), 0);
	return c;
}

static hp_tri t_of(ask_ctx *c, const char *name, int mode)
{
	for (size_t i = 0; i < NFILES; i++)
		if (strcmp(files[i], name) == 0)
			for (int m = 0; m < 3; m++)
				if (modes[m] == mode)
					return c->got[i][m];
	fail();
	return HP_UNKNOWN;
}

static void test_kernel_answers_for_agent(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	ask_ctx *c = ask_as(f, FX_AGENT, FX_AGENT, 0);
	assert_int_equal(t_of(c, "r600", HP_ACC_READ), HP_FALSE);
	assert_int_equal(t_of(c, "r644", HP_ACC_READ), HP_TRUE);
	assert_int_equal(t_of(c, "r644", HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(t_of(c, "r666", HP_ACC_WRITE), HP_TRUE);
	assert_int_equal(t_of(c, "a066", HP_ACC_READ), HP_FALSE);
	assert_int_equal(t_of(c, "x755", HP_ACC_EXEC), HP_TRUE);
	assert_int_equal(t_of(c, "d700", HP_ACC_EXEC), HP_FALSE);
	/* the ACL grants what the mode denies */
	assert_int_equal(t_of(c, "acl_user", HP_ACC_WRITE), HP_TRUE);
	assert_int_equal(t_of(c, "acl_masked", HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(t_of(c, "acl_masked", HP_ACC_READ), HP_TRUE);
	munmap(c, sizeof *c);
}

static void test_owner_rule(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	ask_ctx *k = ask_as(f, FX_AGENT, FX_AGENT, 0);
	ask_ctx *l = ask_as(f, FX_AGENT, FX_AGENT, 1);
	/* mode 0000 and 0555, but the agent owns them: chmod away */
	assert_int_equal(t_of(k, "a000", HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(t_of(l, "a000", HP_ACC_WRITE), HP_TRUE);
	assert_int_equal(t_of(k, "d555a", HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(t_of(l, "d555a", HP_ACC_WRITE), HP_TRUE);
	/* someone else's file: the kernel's answer stands */
	assert_int_equal(t_of(l, "r644", HP_ACC_WRITE), HP_FALSE);
	munmap(k, sizeof *k);
	munmap(l, sizeof *l);
}

/* The offline computation gives the kernel's answer, for every file, mode
 * and a few credentials, the owner rule included. */
static void test_computed_agrees_with_kernel(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	const gid_t grp[] = {FX_GROUP};
	const struct {
		uid_t uid;
		gid_t gid;
		const gid_t *groups;
		size_t ng;
	} creds[] = {{FX_AGENT, FX_AGENT, NULL, 0},
	             {FX_OTHER, FX_OTHER, NULL, 0},
	             {FX_AGENT, FX_AGENT, grp, 1}};
	for (size_t ci = 0; ci < 3; ci++) {
		ask_ctx *k = mmap(NULL, sizeof *k, PROT_READ | PROT_WRITE,
		                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		k->f = f;
		k->live = 1;
		pid_t pid = fork();
		if (pid == 0) {
			if (setgroups(creds[ci].ng, creds[ci].groups) < 0 ||
			    setresgid(creds[ci].gid, creds[ci].gid, creds[ci].gid) < 0 ||
			    setresuid(creds[ci].uid, creds[ci].uid, creds[ci].uid) < 0)
				_exit(9);
			_exit(ask_all(k));
		}
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_int_equal(st, 0);
		hp_cred cr = {creds[ci].uid, creds[ci].gid, creds[ci].groups, creds[ci].ng, 0};
		for (size_t i = 0; i < NFILES; i++) {
			int fd;
			hp_err e;
			assert_int_equal(hp_os_resolve(&f->root, files[i], 0, &fd, &e), HP_TRUE);
			for (int m = 0; m < 3; m++) {
				hp_tri c = hp_os_access_computed(fd, &cr, modes[m], &e);
				if (c != k->got[i][m])
					print_error("%s mode %d cred %zu: computed %d kernel %d\n",
					            files[i], modes[m], ci, c, k->got[i][m]);
				assert_int_equal(c, k->got[i][m]);
			}
			close(fd);
		}
		munmap(k, sizeof *k);
	}
}

static void test_computed_capabilities(void **state)
{
	fx *f = *state;
	int fd;
	hp_err e;
	assert_int_equal(hp_os_resolve(&f->root, "r600", 0, &fd, &e), HP_TRUE);
	hp_cred c = {FX_AGENT, FX_AGENT, NULL, 0, 0};
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_WRITE, &e), HP_FALSE);
	c.caps = 1ull << 1; /* CAP_DAC_OVERRIDE */
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_WRITE, &e), HP_TRUE);
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_EXEC, &e), HP_FALSE);
	c.caps = 1ull << 2; /* CAP_DAC_READ_SEARCH */
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_READ, &e), HP_TRUE);
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_WRITE, &e), HP_FALSE);
	c.caps = 1ull << 3; /* CAP_FOWNER: may chmod anything */
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_WRITE, &e), HP_TRUE);
	assert_string_equal(e.msg, "the role owns the file (or has CAP_FOWNER) and can chmod it");
	close(fd);
}

static void test_overflow_owner_is_unknown(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_file(f->dir, "nobody", "x", 0644, 65534, 65534);
	int fd;
	hp_err e;
	assert_int_equal(hp_os_resolve(&f->root, "nobody", 0, &fd, &e), HP_TRUE);
	hp_cred c = {FX_AGENT, FX_AGENT, NULL, 0, 0};
	assert_int_equal(hp_os_access_computed(fd, &c, HP_ACC_READ, &e), HP_UNKNOWN);
	assert_string_equal(
	    e.msg, "owned by the overflow id 65534:65534 (unmapped in this user namespace)");
	close(fd);
}

static int write_immutable(void *arg)
{
	fx *f = arg;
	int fd;
	hp_err e;
	if (hp_os_resolve(&f->root, "a066", 0, &fd, &e) != HP_TRUE)
		return 1;
	/* the agent owns it, yet neither write nor chmod can work */
	int r = hp_os_access_live(fd, HP_ACC_WRITE, &e) == HP_FALSE ? 0 : 2;
	close(fd);
	return r;
}

static void test_immutable_blocks_owner(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "a066");
	assert_int_equal(chmod(p, 0666), 0);
	assert_int_equal(fx_set_immutable(p, 1), 0);
	int r = fx_run_as(FX_AGENT, FX_AGENT, write_immutable, f);
	fx_set_immutable(p, 0);
	free(p);
	assert_int_equal(r, 0);
}

/* Both files writable by the agent (want HP_TRUE) or neither (HP_FALSE). */
typedef struct {
	fx *f;
	hp_tri want;
} ro_case;

static int write_on_ro(void *arg)
{
	ro_case *c = arg;
	int fd;
	hp_err e;
	int r = 0;
	if (hp_os_resolve(&c->f->root, "r666", 0, &fd, &e) != HP_TRUE)
		return 1;
	if (hp_os_access_live(fd, HP_ACC_WRITE, &e) != c->want)
		r = 2;
	close(fd);
	/* owned by the agent: it could chmod it, where a write can be made */
	if (hp_os_resolve(&c->f->root, "a000", 0, &fd, &e) != HP_TRUE)
		return 3;
	if (hp_os_access_live(fd, HP_ACC_WRITE, &e) != c->want)
		r = 4;
	close(fd);
	/* root's 0644: no, whichever mount it is on */
	if (hp_os_resolve(&c->f->root, "r644", 0, &fd, &e) != HP_TRUE)
		return 5;
	if (hp_os_access_live(fd, HP_ACC_WRITE, &e) != HP_FALSE)
		r = 6;
	close(fd);
	return r;
}

enum ro_kind { RO_BIND, RO_TMPFS, RO_OVERLAY };

/* The fixture's tree bound read-only (RO_BIND), on a tmpfs then remounted
 * read-only itself (RO_TMPFS), or the lower layer of a read-only overlay
 * mounted over it (RO_OVERLAY), in a child in its own mount namespace, so
 * nothing stays mounted; the agent's answers for r666 and a000 are want,
 * for r644 no. */
static void ro_run(fx *f, enum ro_kind kind, hp_tri want)
{
	/* overlay needs two lower layers without an upper, apart: an empty one */
	char *empty = fx_tmpdir();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(20);
		char *opts = hp_xasprintf("lowerdir=%s:%s", f->dir, empty);
		if (kind == RO_TMPFS) {
			if (mount("t", f->dir, "tmpfs", 0, "mode=0755") < 0)
				_exit(22);
			fx_file(f->dir, "r666", "", 0666, 0, 0);
			fx_file(f->dir, "r644", "", 0644, 0, 0);
			fx_file(f->dir, "a000", "", 0, FX_AGENT, FX_AGENT);
			if (mount(NULL, f->dir, NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0)
				_exit(23);
		} else if (kind == RO_OVERLAY) {
			if (mount("overlay", f->dir, "overlay", MS_RDONLY, opts) < 0)
				_exit(24);
		} else if (mount(f->dir, f->dir, NULL, MS_BIND, NULL) < 0 ||
		           mount(NULL, f->dir, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) < 0) {
			_exit(20);
		}
		hp_err e;
		hp_os_root_close(&f->root);
		if (hp_os_root_open(&f->root, f->dir, 0, &e) != HP_TRUE)
			_exit(21);
		free(opts);
		ro_case c = {f, want};
		_exit(fx_run_as(FX_AGENT, FX_AGENT, write_on_ro, &c));
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	rmdir(empty);
	free(empty);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* A read-only bind mount keeps one path from writing, not the inode: the
 * same files are written through any read-write mount of the filesystem,
 * so what the mode or the owner allows stays allowed. A read-only
 * filesystem (its superblock) no path can write: no. A read-only overlay
 * is not such a filesystem: its files are its layers', written through
 * their own mounts, so the mode and the owner decide. */
static void test_read_only_mount(void **state)
{
	FX_NEED_ROOT();
	ro_run(*state, RO_BIND, HP_TRUE);
	ro_run(*state, RO_TMPFS, HP_FALSE);
	ro_run(*state, RO_OVERLAY, HP_TRUE);
}

/* faccessat2 filtered with EPERM or ENOSYS: plain faccessat on
 * /proc/self/fd/N gives the same answer where it is exact (real ids equal to
 * the effective ones); otherwise, or when it is filtered too, unknown with
 * the reason. */
typedef struct {
	fx *f;
	int err;       /* what the filter returns */
	int both;      /* faccessat filtered too */
	int split_ids; /* real uid not the effective one */
	const char *file;
	hp_tri want;
	const char *msg;
} filtered_case;

static int filtered_child(void *arg)
{
	filtered_case *c = arg;
	const int nr[] = {SYS_faccessat2, SYS_faccessat};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    fx_seccomp_fail(nr, c->both ? 2 : 1, c->err) < 0)
		return 30;
	if (c->split_ids && setresuid(FX_OTHER, 0, 0) < 0)
		return 34;
	int fd;
	hp_err e;
	e.msg[0] = '\0';
	if (hp_os_resolve(&c->f->root, c->file, 0, &fd, &e) != HP_TRUE)
		return 31;
	hp_tri t = hp_os_access_kernel(fd, HP_ACC_WRITE, &e);
	if (t != c->want)
		return 32;
	if (c->msg && strcmp(e.msg, c->msg) != 0)
		return 33;
	return 0;
}

static int filtered_fork(filtered_case *c, int as_agent)
{
	if (as_agent)
		return fx_run_as(FX_AGENT, FX_AGENT, filtered_child, c);
	pid_t pid = fork();
	if (pid == 0)
		_exit(filtered_child(c));
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 99;
	return WEXITSTATUS(st);
}

static void test_filtered_syscall(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	for (int k = 0; k < 2; k++) {
		int err = k ? ENOSYS : EPERM;
		/* the fallback answers exactly, for root and for the agent */
		filtered_case root = {f, err, 0, 0, "r644", HP_TRUE, NULL};
		assert_int_equal(filtered_fork(&root, 0), 0);
		filtered_case agent = {f, err, 0, 0, "r644", HP_FALSE, NULL};
		assert_int_equal(filtered_fork(&agent, 1), 0);
		filtered_case mine = {f, err, 0, 0, "r666", HP_TRUE, NULL};
		assert_int_equal(filtered_fork(&mine, 1), 0);
	}
	filtered_case both = {f, EPERM, 1, 0, "r644", HP_UNKNOWN,
	                      "faccessat2 refused with EPERM (a seccomp filter or an LSM), and "
	                      "faccessat: Operation not permitted: write cannot be asked"};
	assert_int_equal(filtered_fork(&both, 0), 0);
	/* any other errno is no answer at all: never "not writable" */
	filtered_case eio = {f, EIO, 0, 0, "r644", HP_UNKNOWN, "faccessat2: Input/output error"};
	assert_int_equal(filtered_fork(&eio, 0), 0);
	filtered_case einval = {f, EINVAL, 0, 0, "r666", HP_UNKNOWN,
	                        "faccessat2: Invalid argument"};
	assert_int_equal(filtered_fork(&einval, 1), 0);
	filtered_case enoent = {f, ENOENT, 0, 0, "r644", HP_UNKNOWN,
	                        "faccessat2: No such file or directory"};
	assert_int_equal(filtered_fork(&enoent, 0), 0);
	filtered_case split = {f, ENOSYS, 0, 1, "r644", HP_UNKNOWN,
	                       "faccessat2 is not available (ENOSYS) and plain faccessat is not "
	                       "exact here (the real and effective ids differ): write cannot be "
	                       "asked"};
	assert_int_equal(filtered_fork(&split, 0), 0);
}

/* The kernel is asked with the effective ids and capabilities (AT_EACCESS),
 * which are the ones an open would use: a process whose real uid is not its
 * effective one, or a non-root process that keeps CAP_DAC_OVERRIDE in its
 * effective set, gets the answer of its effective credentials. Without
 * AT_EACCESS the kernel would check the real uid and drop the
 * capabilities, and answer "not writable" for what the process can write. */
static int effective_child(void *arg)
{
	fx *f = arg;
	int fd;
	hp_err e;
	if (hp_os_resolve(&f->root, "r644", 0, &fd, &e) != HP_TRUE)
		return 40;
	/* real uid another user's, effective root */
	if (setresuid(FX_OTHER, 0, 0) < 0)
		return 41;
	if (hp_os_access_kernel(fd, HP_ACC_WRITE, &e) != HP_TRUE)
		return 42;
	/* every uid the agent's, CAP_DAC_OVERRIDE kept in the effective set */
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 || setresuid(0, 0, 0) < 0 ||
	    setresgid(FX_AGENT, FX_AGENT, FX_AGENT) < 0 || setgroups(0, NULL) < 0 ||
	    setresuid(FX_AGENT, FX_AGENT, FX_AGENT) < 0)
		return 43;
	cap_t c = cap_init();
	const cap_value_t dac[] = {CAP_DAC_OVERRIDE};
	if (!c || cap_set_flag(c, CAP_EFFECTIVE, 1, dac, CAP_SET) < 0 ||
	    cap_set_flag(c, CAP_PERMITTED, 1, dac, CAP_SET) < 0 || cap_set_proc(c) < 0)
		return 44;
	cap_free(c);
	if (hp_os_access_kernel(fd, HP_ACC_WRITE, &e) != HP_TRUE)
		return 45;
	/* and without the capability, the agent cannot write root's 0644 file */
	c = cap_init();
	if (!c || cap_set_proc(c) < 0)
		return 46;
	cap_free(c);
	if (hp_os_access_kernel(fd, HP_ACC_WRITE, &e) != HP_FALSE)
		return 47;
	return 0;
}

static void test_effective_credentials(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	pid_t pid = fork();
	if (pid == 0)
		_exit(effective_child(f));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* --- the ACL parser --- */

static void test_acl_parse_errors(void **state)
{
	(void)state;
	unsigned char b[4 + 8 * 8] = {0};
	hp_acl a;
	hp_err e;
	assert_int_equal(hp_os_acl_parse(b, 3, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: size 3 is not 4 + 8 * entries");
	const unsigned v[][3] = {{1, 6, 0}, {4, 4, 0}, {32, 4, 0}};
	size_t n = fx_acl_blob(b, v, 3);
	b[0] = 1;
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: version 1, expected 2");
	const unsigned bad_tag[][3] = {{1, 6, 0}, {0x40, 4, 0}, {32, 4, 0}};
	n = fx_acl_blob(b, bad_tag, 3);
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: entry 2: unknown tag 0x40");
	const unsigned nomask[][3] = {{1, 6, 0}, {2, 6, 5}, {4, 4, 0}, {32, 4, 0}};
	n = fx_acl_blob(b, nomask, 4);
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: named entries without a mask");
	const unsigned twice[][3] = {{1, 6, 0}, {2, 6, 5},  {2, 4, 5},
	                             {4, 4, 0}, {16, 7, 0}, {32, 4, 0}};
	n = fx_acl_blob(b, twice, 6);
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: entry 3: id 5 named twice");
	const unsigned perm[][3] = {{1, 9, 0}, {4, 4, 0}, {32, 4, 0}};
	n = fx_acl_blob(b, perm, 3);
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "ACL: entry 1: permission bits 0x9");
	const unsigned ok[][3] = {{1, 6, 0}, {4, 4, 0}, {32, 4, 0}};
	n = fx_acl_blob(b, ok, 3);
	assert_int_equal(hp_os_acl_parse(b, n, &a, &e), HP_TRUE);
	assert_int_equal(a.n, 3);
	hp_os_acl_free(&a);
}

/* What a default ACL gives the files created later in its directory to a
 * process that does not create them: a named entry for its uid (limited
 * by the mask, and deciding alone), a named entry for one of its groups,
 * the group entry when it may be in the new file's group, other; never
 * the owner entry (the creator owns the file). */
static int dgrants(const unsigned (*ents)[3], size_t n, const gid_t *sg, unsigned want)
{
	unsigned char b[4 + 8 * 8];
	size_t len = fx_acl_blob(b, ents, n);
	hp_acl a;
	hp_err e;
	assert_int_equal(hp_os_acl_parse(b, len, &a, &e), HP_TRUE);
	gid_t groups[] = {1000, 50};
	int g = hp_os_acl_default_grants(&a, sg, 1000, groups, 2, want);
	hp_os_acl_free(&a);
	return g;
}

static void test_acl_default_grants(void **state)
{
	(void)state;
	/* mirrors of 0755 and 0777 */
	const unsigned m755[][3] = {{1, 7, 0}, {4, 5, 0}, {32, 5, 0}};
	assert_false(dgrants(m755, 3, NULL, 2));
	assert_true(dgrants(m755, 3, NULL, 4));
	const unsigned own[][3] = {{1, 7, 0}, {4, 5, 0}, {32, 5, 0}};
	assert_false(dgrants(own, 3, NULL, 6)); /* the owner entry: the creator's */
	const unsigned other[][3] = {{1, 7, 0}, {4, 5, 0}, {32, 6, 0}};
	assert_true(dgrants(other, 3, NULL, 2));
	/* the agent named */
	const unsigned user[][3] = {{1, 7, 0}, {2, 7, 1000}, {4, 5, 0}, {16, 7, 0}, {32, 5, 0}};
	assert_true(dgrants(user, 5, NULL, 2));
	const unsigned masked[][3] = {{1, 7, 0}, {2, 7, 1000}, {4, 5, 0}, {16, 5, 0}, {32, 5, 0}};
	assert_false(dgrants(masked, 5, NULL, 2));
	const unsigned another[][3] = {{1, 7, 0}, {2, 7, 1001}, {4, 5, 0}, {16, 7, 0}, {32, 5, 0}};
	assert_false(dgrants(another, 5, NULL, 2));
	/* a named entry that grants nothing decides: other is not looked at */
	const unsigned ro_user[][3] = {{1, 7, 0}, {2, 5, 1000}, {4, 5, 0}, {16, 7, 0}, {32, 7, 0}};
	assert_false(dgrants(ro_user, 5, NULL, 2));
	/* a group of the agent's named, limited by the mask */
	const unsigned grp[][3] = {{1, 7, 0}, {4, 5, 0}, {8, 6, 50}, {16, 7, 0}, {32, 5, 0}};
	assert_true(dgrants(grp, 5, NULL, 2));
	const unsigned grp_m[][3] = {{1, 7, 0}, {4, 5, 0}, {8, 6, 50}, {16, 4, 0}, {32, 5, 0}};
	assert_false(dgrants(grp_m, 5, NULL, 2));
	/* the group entry: the new file's group is the creator's, which may
	 * be the agent's, unless the directory is setgid */
	const unsigned gobj[][3] = {{1, 7, 0}, {4, 7, 0}, {32, 5, 0}};
	assert_true(dgrants(gobj, 3, NULL, 2));
	gid_t theirs = 999, mine = 50;
	assert_false(dgrants(gobj, 3, &theirs, 2));
	assert_true(dgrants(gobj, 3, &mine, 2));
	const unsigned gobj_m[][3] = {{1, 7, 0}, {2, 5, 7}, {4, 7, 0}, {16, 5, 0}, {32, 5, 0}};
	assert_false(dgrants(gobj_m, 5, NULL, 2));
	/* a named group of the agent's that grants nothing denies when the
	 * file's group is not the agent's, and other is not looked at; when
	 * it may be, the group entry grants */
	const unsigned gdeny[][3] = {{1, 7, 0}, {4, 5, 0}, {8, 4, 50}, {16, 7, 0}, {32, 7, 0}};
	assert_false(dgrants(gdeny, 5, NULL, 2));
	assert_false(dgrants(gdeny, 5, &theirs, 2));
	/* other grants only when no group entry matched: with the file's
	 * group not the agent's (setgid) and no named group of its */
	const unsigned gobj_ro[][3] = {{1, 7, 0}, {4, 5, 0}, {32, 7, 0}};
	assert_true(dgrants(gobj_ro, 3, &theirs, 2));
	assert_false(dgrants(gobj_ro, 3, &mine, 2));
	assert_true(dgrants(gobj_ro, 3, NULL, 2)); /* the creator's group may be another */
}

/* hp_os_access_default_acl on real directories: the default ACL setfacl -d
 * writes, read by /proc/self/fd for an O_PATH descriptor and one open for
 * listing alike; none, on a file, or one that grants nothing: no. */
static void test_access_default_acl(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	if (system("command -v setfacl >/dev/null 2>&1") != 0) {
		print_message("skipped: setfacl is not installed\n");
		skip();
	}
	char *d = fx_path(f->dir, "dacl");
	assert_int_equal(mkdir(d, 0755), 0);
	gid_t g[] = {FX_GROUP};
	hp_cred agent = {FX_AGENT, FX_AGENT, g, 1, 0};
	hp_err e;
	hp_fileinfo fi;
	int fd = open(d, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(hp_os_fd_info(fd, &fi, &e), HP_TRUE);
	assert_int_equal(hp_os_access_default_acl(fd, &fi, &agent, HP_ACC_WRITE, &e), HP_FALSE);
	char cmd[512];
	struct {
		const char *entry, *rest;
		uid_t id;
		hp_tri want;
	} cases[] = {
	    {"u:", ":rwx", FX_AGENT, HP_TRUE},       {"g:", ":rw", FX_GROUP, HP_TRUE},
	    {"o:", ":rw", 0, HP_TRUE},               {"u:", ":rwx,m::rx", FX_AGENT, HP_FALSE},
	    {"u:", ":rx", FX_AGENT, HP_FALSE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char spec[64];
		if (cases[i].id)
			snprintf(spec, sizeof spec, "%s%d%s", cases[i].entry, (int)cases[i].id,
			         cases[i].rest);
		else
			snprintf(spec, sizeof spec, "%s%s", cases[i].entry, cases[i].rest);
		const hp_tri want_i = cases[i].want;
		snprintf(cmd, sizeof cmd, "setfacl -k %s && setfacl -d -m '%s' %s", d, spec, d);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(hp_os_access_default_acl(fd, &fi, &agent, HP_ACC_WRITE, &e),
		                 want_i);
	}
	/* read the same on a descriptor open for listing (a walk's) as on
	 * an O_PATH one; without procfs, unknown for both: the read is by
	 * /proc/self/fd path, never by fgetxattr, whose refusal by a filter
	 * could read as "no ACL" */
	snprintf(cmd, sizeof cmd, "setfacl -k %s && setfacl -d -m 'u:%d:rwx' %s", d, (int)FX_AGENT,
	         d);
	assert_int_equal(system(cmd), 0);
	int lfd = open(d, O_RDONLY | O_DIRECTORY);
	assert_true(lfd >= 0);
	assert_int_equal(hp_os_access_default_acl(lfd, &fi, &agent, HP_ACC_WRITE, &e), HP_TRUE);
	assert_int_equal(hp_os_access_default_acl(fd, &fi, &agent, HP_ACC_WRITE, &e), HP_TRUE);
	pid_t pid = fork();
	if (pid == 0) {
		if (fx_hide_procfs() < 0)
			_exit(60);
		if (hp_os_access_default_acl(lfd, &fi, &agent, HP_ACC_WRITE, &e) != HP_UNKNOWN ||
		    !strstr(e.msg, "not procfs"))
			_exit(61);
		if (hp_os_access_default_acl(fd, &fi, &agent, HP_ACC_WRITE, &e) != HP_UNKNOWN ||
		    !strstr(e.msg, "not procfs"))
			_exit(62);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(st, 0);
	close(lfd);
	close(fd);
	/* a file holds no default ACL */
	char *r = fx_path(f->dir, "r600");
	fd = open(r, O_PATH);
	assert_true(fd >= 0);
	assert_int_equal(hp_os_fd_info(fd, &fi, &e), HP_TRUE);
	assert_int_equal(hp_os_access_default_acl(fd, &fi, &agent, HP_ACC_WRITE, &e), HP_FALSE);
	close(fd);
	free(r);
	free(d);
}

/* An ACL written by setfacl parses, and grants what getfacl says. */
static void test_acl_from_setfacl(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	if (system("command -v setfacl >/dev/null 2>&1") != 0) {
		print_message("skipped: setfacl is not installed\n");
		skip();
	}
	char cmd[512];
	snprintf(cmd, sizeof cmd, "setfacl -m u:%d:rw,g:%d:r %s/r600", FX_OTHER, FX_GROUP, f->dir);
	assert_int_equal(system(cmd), 0);
	char *p = fx_path(f->dir, "r600");
	unsigned char b[256];
	ssize_t n = getxattr(p, "system.posix_acl_access", b, sizeof b);
	free(p);
	assert_true(n > 0);
	hp_acl a;
	hp_err e;
	assert_int_equal(hp_os_acl_parse(b, (size_t)n, &a, &e), HP_TRUE);
	gid_t g1[] = {FX_OTHER};
	gid_t g2[] = {FX_AGENT, FX_GROUP};
	assert_true(hp_os_acl_grants(&a, 0, 0, FX_OTHER, g1, 1, 6));
	assert_false(hp_os_acl_grants(&a, 0, 0, FX_AGENT, g2, 2, 2));
	assert_true(hp_os_acl_grants(&a, 0, 0, FX_AGENT, g2, 2, 4));
	assert_false(hp_os_acl_grants(&a, 0, 0, FX_AGENT, g2, 1, 4));
	hp_os_acl_free(&a);
}

/* What hp_os_access_ruled_out says next to the kernel's answer, for every
 * fixture file and mode, in a child with the calling identity. */
typedef struct {
	fx *f;
	hp_tri ruled[NFILES][3];
	hp_tri kernel[NFILES][3];
	long magic;
} ruled_ctx;

static int ruled_all(void *arg)
{
	ruled_ctx *c = arg;
	hp_self self;
	hp_os_self_read(&self);
	for (size_t i = 0; i < NFILES; i++) {
		int fd;
		hp_err e;
		hp_fileinfo fi;
		struct statfs sf;
		if (hp_os_resolve(&c->f->root, files[i], 0, &fd, &e) != HP_TRUE ||
		    hp_os_fd_info(fd, &fi, &e) != HP_TRUE || fstatfs(fd, &sf) < 0)
			return 1;
		c->magic = (long)sf.f_type;
		for (int m = 0; m < 3; m++) {
			c->ruled[i][m] = hp_os_access_ruled_out(&fi, (long)sf.f_type, &self, modes[m]);
			c->kernel[i][m] = hp_os_access_live_self(fd, &fi, &self, modes[m], &e);
		}
		close(fd);
	}
	return 0;
}

static ruled_ctx *ruled_as(fx *f, uid_t uid, gid_t gid)
{
	ruled_ctx *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	c->f = f;
	if (uid == 0)
		assert_int_equal(ruled_all(c), 0);
	else
		assert_int_equal(fx_run_as(uid, gid, ruled_all, c), 0);
	return c;
}

static hp_tri ruled_of(ruled_ctx *c, const char *name, int mode)
{
	for (size_t i = 0; i < NFILES; i++)
		if (strcmp(files[i], name) == 0)
			for (int m = 0; m < 3; m++)
				if (modes[m] == mode)
					return c->ruled[i][m];
	fail();
	return HP_UNKNOWN;
}

/* The shortcut a scan takes past the kernel: where it says "no" the kernel
 * says "no" too, for every file and mode (ACLs, the owner rule and a
 * group's bits included), and it says "no" only where owner and mode leave
 * nothing else. A role with DAC capabilities is always asked. */
static void test_ruled_out_never_contradicts(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	ruled_ctx *c = ruled_as(f, FX_AGENT, FX_AGENT);
	if (c->magic != 0xEF53 && c->magic != 0x01021994 && c->magic != 0x58465342 &&
	    c->magic != (long)0x9123683E && c->magic != 0x794c7630) {
		munmap(c, sizeof *c);
		skip(); /* the fixture is not on a filesystem the shortcut knows */
	}
	for (size_t i = 0; i < NFILES; i++)
		for (int m = 0; m < 3; m++) {
			if (c->ruled[i][m] == HP_FALSE && c->kernel[i][m] != HP_FALSE)
				print_error("%s mode %d: ruled out, the kernel says %d\n", files[i],
				            modes[m], c->kernel[i][m]);
			assert_false(c->ruled[i][m] == HP_FALSE && c->kernel[i][m] != HP_FALSE);
			assert_true(c->ruled[i][m] == HP_FALSE || c->ruled[i][m] == HP_UNKNOWN);
		}
	/* owner and mode alone decide these */
	assert_int_equal(ruled_of(c, "r644", HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(ruled_of(c, "r600", HP_ACC_READ), HP_FALSE);
	assert_int_equal(ruled_of(c, "d700", HP_ACC_EXEC), HP_FALSE);
	/* the mask (the group class bits) holds no write: no entry grants it */
	assert_int_equal(ruled_of(c, "acl_masked", HP_ACC_WRITE), HP_FALSE);
	/* these only the kernel can answer: others may write, a group may, an
	 * ACL entry may, the agent owns the file */
	assert_int_equal(ruled_of(c, "r666", HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(ruled_of(c, "r644", HP_ACC_READ), HP_UNKNOWN);
	assert_int_equal(ruled_of(c, "g660", HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(ruled_of(c, "acl_user", HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(ruled_of(c, "a000", HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(ruled_of(c, "d555a", HP_ACC_WRITE), HP_UNKNOWN);
	munmap(c, sizeof *c);
	/* root keeps CAP_DAC_OVERRIDE: never ruled out */
	c = ruled_as(f, 0, 0);
	for (size_t i = 0; i < NFILES; i++)
		for (int m = 0; m < 3; m++)
			assert_int_equal(c->ruled[i][m], HP_UNKNOWN);
	munmap(c, sizeof *c);
}

/* The shortcut's conditions one by one, on facts made up. */
static void test_ruled_out_conditions(void **state)
{
	(void)state;
	hp_self self = {.euid = 1000, .overflow_uid = 65534, .fowner = HP_FALSE};
	hp_fileinfo fi = {.type = HP_FT_FILE, .uid = 0, .gid = 0, .mode = 0644};
	/* on a mount of this process's that no block device or FUSE daemon
	 * backs (mount_content.h): the shortcut's own conditions decide */
	hp_fileinfo proc;
	hp_err e;
	int pfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(pfd >= 0);
	assert_int_equal(hp_os_fd_info(pfd, &proc, &e), HP_TRUE);
	close(pfd);
	fi.dev = proc.dev;
	fi.mnt_id = proc.mnt_id;
	fi.has_mnt_id = proc.has_mnt_id;
	const long ext4 = 0xEF53, fuse = 0x65735546, nfs = 0x6969, v9fs = 0x01021997;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_FALSE);
	assert_int_equal(hp_os_access_ruled_out(&fi, 0x01021994, &self, HP_ACC_WRITE), HP_FALSE);
	/* an overlay checks its inode's own copy of owner and mode, which
	 * statx does not show (test_overlay_stale_modes) */
	assert_int_equal(hp_os_access_ruled_out(&fi, 0x794c7630, &self, HP_ACC_WRITE), HP_UNKNOWN);
	/* a filesystem that decides for itself */
	assert_int_equal(hp_os_access_ruled_out(&fi, fuse, &self, HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(hp_os_access_ruled_out(&fi, nfs, &self, HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(hp_os_access_ruled_out(&fi, v9fs, &self, HP_ACC_WRITE), HP_UNKNOWN);
	assert_int_equal(hp_os_access_ruled_out(&fi, 0, &self, HP_ACC_WRITE), HP_UNKNOWN);
	/* the group class or the others may */
	fi.mode = 0664;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	fi.mode = 0646;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	/* write and search: a class must hold both */
	fi.mode = 0751;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE | HP_ACC_EXEC),
	                 HP_FALSE);
	fi.mode = 0722; /* write without search in each class */
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE | HP_ACC_EXEC),
	                 HP_FALSE);
	fi.mode = 0753;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE | HP_ACC_EXEC),
	                 HP_UNKNOWN);
	fi.mode = 0773;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE | HP_ACC_EXEC),
	                 HP_UNKNOWN);
	fi.mode = 0644;
	/* the role's own file, or the overflow uid's */
	fi.uid = 1000;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	fi.uid = 65534;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	fi.uid = 0;
	/* a symlink is never ruled out: its target is the question */
	fi.type = HP_FT_SYMLINK;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	fi.type = HP_FT_FILE;
	/* capabilities that override, or not known */
	self.fowner = HP_TRUE;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	self.fowner = HP_UNKNOWN;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	self.fowner = HP_FALSE;
	self.dac_override = true;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_WRITE), HP_UNKNOWN);
	self.dac_override = false;
	self.dac_read_search = true;
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_READ), HP_UNKNOWN);
	self.dac_read_search = false;
	/* a mode the kernel is not asked for */
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, 0), HP_UNKNOWN);
	assert_int_equal(hp_os_access_ruled_out(&fi, ext4, &self, HP_ACC_READ | HP_ACC_WRITE),
	                 HP_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_kernel_answers_for_agent, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_owner_rule, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_computed_agrees_with_kernel, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_computed_capabilities, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_overflow_owner_is_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_immutable_blocks_owner, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_read_only_mount, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_filtered_syscall, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_effective_credentials, setup, teardown),
	    cmocka_unit_test(test_acl_parse_errors),
	    cmocka_unit_test(test_acl_default_grants),
	    cmocka_unit_test_setup_teardown(test_access_default_acl, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ruled_out_never_contradicts, setup, teardown),
	    cmocka_unit_test(test_ruled_out_conditions),
	    cmocka_unit_test_setup_teardown(test_acl_from_setfacl, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
