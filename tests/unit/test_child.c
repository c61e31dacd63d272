/* test_child.c: a role's child: results over the pipe, the deadline, a crash,
 * an oversized or malformed message, stray descriptors and the working
 * directory, a failed identity, close_range filtered, and nothing left
 * running afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/child.h"
#include "fixture.h"
#include "os/identity.h"
#include "os/sysx.h"

static hp_child_opts opts(int deadline)
{
	hp_child_opts o = {.identity = NULL,
	                   .cwd_fd = -1,
	                   .keep_fds = NULL,
	                   .nkeep = 0,
	                   .deadline_ms = deadline,
	                   .max_msg = 65536,
	                   .max_records = 64};
	return o;
}

static int report_ids(void *arg, hp_frame_writer *out)
{
	(void)arg;
	hp_frame_add_u64(out, 1, geteuid());
	hp_frame_add_u64(out, 2, getegid());
	return 0;
}

static void test_results_come_back(void **state)
{
	(void)state;
	hp_child_opts o = opts(5000);
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_os_child_run(&o, report_ids, NULL, &f, &e), HP_TRUE);
	uint64_t v;
	assert_int_equal(f.n, 2);
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 1), &v), 0);
	assert_int_equal(v, geteuid());
	hp_frame_free(&f);
}

static void test_identity_taken(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_identity id = {
	    .kind = HP_ID_NO_CAPS, .uid = FX_AGENT, .gid = FX_AGENT, .no_new_privs = 1};
	hp_child_opts o = opts(5000);
	o.identity = &id;
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_os_child_run(&o, report_ids, NULL, &f, &e), HP_TRUE);
	uint64_t v;
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 1), &v), 0);
	assert_int_equal(v, FX_AGENT);
	hp_frame_free(&f);
	id.uid = (uid_t)-1;
	assert_int_equal(hp_os_child_run(&o, report_ids, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg,
	                    "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
}

/* The child and a grandchild never finish: both are killed at the deadline. */
static int hang(void *arg, hp_frame_writer *out)
{
	(void)arg;
	(void)out;
	if (fork() == 0)
		for (;;)
			pause();
	for (;;)
		pause();
	return 0;
}

static void test_deadline_kills_everything(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_identity id = {.kind = HP_ID_PLAIN, .uid = FX_OTHER, .gid = FX_OTHER};
	hp_child_opts o = opts(200);
	o.identity = &id;
	hp_frame f;
	hp_err e;
	int64_t t0 = hp_os_now_ms();
	assert_int_equal(hp_os_child_run(&o, hang, NULL, &f, &e), HP_UNKNOWN);
	int64_t took = hp_os_now_ms() - t0;
	assert_string_equal(e.msg, "child exceeded its 200 ms deadline");
	assert_true(took >= 190 && took < 2000);
	/* the grandchild was in the child's group; give init a moment to reap */
	for (int i = 0; i < 100 && fx_count_procs_of_uid(FX_OTHER) > 0; i++)
		usleep(10000);
	assert_int_equal(fx_count_procs_of_uid(FX_OTHER), 0);
}

/* Start a daemon that leaves the child's process group and session (the
 * double fork of a program that detaches) and report the child's own pid. */
static int detach_daemon(void *arg, hp_frame_writer *out)
{
	(void)arg;
	pid_t p = fork();
	if (p == 0) {
		setsid();
		if (fork() == 0) {
			for (;;)
				pause();
		}
		_exit(0);
	}
	waitpid(p, NULL, 0);
	hp_frame_add_u64(out, 1, (uint64_t)getpid());
	return 0;
}

static int report_pid(void *arg, hp_frame_writer *out)
{
	(void)arg;
	hp_frame_add_u64(out, 1, (uint64_t)getpid());
	return 0;
}

/* In a process without CAP_SYS_ADMIN (a Docker container's root), where
 * the kernel refuses a pid namespace: exit 0 when a required namespace is
 * refused with its reason and an optional one gives an ordinary child. */
static int without_sys_admin(void)
{
	cap_t c = cap_get_proc();
	cap_value_t v = CAP_SYS_ADMIN;
	if (!c || cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_CLEAR) < 0 || cap_set_proc(c) < 0)
		return 10;
	cap_free(c);
	hp_child_opts o = opts(5000);
	o.own_pid_namespace = 1;
	hp_frame f;
	hp_err e;
	if (hp_os_child_run(&o, report_pid, NULL, &f, &e) != HP_UNKNOWN)
		return 11;
	if (strcmp(e.msg, "child: no pid namespace of its own: Operation not permitted") != 0)
		return 12;
	o.pid_namespace_optional = 1;
	if (hp_os_child_run(&o, report_pid, NULL, &f, &e) != HP_TRUE)
		return 13;
	uint64_t pid;
	int bad = hp_frame_rec_u64(hp_frame_find(&f, 1), &pid) != 0 || pid == 1;
	hp_frame_free(&f);
	return bad ? 14 : 0;
}

static void test_pid_namespace_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	pid_t p = fork();
	if (p == 0)
		_exit(without_sys_admin());
	int st;
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_own_pid_namespace(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_identity id = {.kind = HP_ID_PLAIN, .uid = FX_OTHER, .gid = FX_OTHER};
	hp_child_opts o = opts(5000);
	o.identity = &id;
	o.own_pid_namespace = 1;
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_os_child_run(&o, detach_daemon, NULL, &f, &e), HP_TRUE);
	uint64_t v;
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 1), &v), 0);
	assert_int_equal(v, 1); /* the init of its namespace */
	hp_frame_free(&f);
	/* the daemon died with the namespace's init */
	for (int i = 0; i < 100 && fx_count_procs_of_uid(FX_OTHER) > 0; i++)
		usleep(10000);
	assert_int_equal(fx_count_procs_of_uid(FX_OTHER), 0);
	/* without a namespace of its own, the same daemon outlives the child (it
	 * holds the result pipe, so the run ends at its deadline) */
	o.own_pid_namespace = 0;
	o.deadline_ms = 300;
	assert_int_equal(hp_os_child_run(&o, detach_daemon, NULL, &f, &e), HP_UNKNOWN);
	usleep(50000);
	assert_true(fx_count_procs_of_uid(FX_OTHER) > 0);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "pkill -KILL -u %u", (unsigned)FX_OTHER);
	assert_int_equal(system(cmd), 0);
	/* this process is a subreaper: the orphaned daemon is its to reap */
	for (int i = 0; i < 100 && fx_count_procs_of_uid(FX_OTHER) > 0; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		usleep(10000);
	}
	assert_int_equal(fx_count_procs_of_uid(FX_OTHER), 0);
}

static int crash(void *arg, hp_frame_writer *out)
{
	(void)arg;
	(void)out;
	raise(SIGSEGV);
	return 0;
}

static int exit3(void *arg, hp_frame_writer *out)
{
	(void)arg;
	(void)out;
	_exit(3);
}

static int fails(void *arg, hp_frame_writer *out)
{
	(void)arg;
	hp_frame_add_u64(out, 1, 1);
	return 1;
}

static int big(void *arg, hp_frame_writer *out)
{
	(void)arg;
	char *b = calloc(1, 100000);
	hp_frame_add(out, 1, b, 100000);
	free(b);
	return 0;
}

/* A hostile child writes its own bytes into whatever descriptor it has. */
static int garbage(void *arg, hp_frame_writer *out)
{
	(void)arg;
	(void)out;
	for (int fd = 3; fd < 64; fd++)
		if (write(fd, "garbage-garbage-garbage", 23) > 0)
			_exit(0);
	_exit(7);
}

static void test_failures_are_unknown(void **state)
{
	(void)state;
	hp_child_opts o = opts(5000);
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_os_child_run(&o, crash, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child killed by signal 11");
	assert_int_equal(hp_os_child_run(&o, exit3, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child exited with status 3");
	assert_int_equal(hp_os_child_run(&o, fails, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "the child's function failed");
	o.max_msg = 4096;
	assert_int_equal(hp_os_child_run(&o, big, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child sent more than 4096 bytes");
	assert_int_equal(hp_os_child_run(&o, garbage, NULL, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child sent a malformed message: frame: bad magic");
}

/* The child lists its descriptors and its working directory. */
static int list_fds(void *arg, hp_frame_writer *out)
{
	(void)arg;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 1;
	int dfd = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dfd)
			hp_frame_add_u64(out, 1, (uint64_t)atoi(e->d_name));
	closedir(d);
	char cwd[4096];
	ssize_t n = readlink("/proc/self/cwd", cwd, sizeof cwd - 1);
	if (n < 0)
		return 1;
	cwd[n] = '\0';
	hp_frame_add_str(out, 2, cwd);
	struct stat st;
	hp_frame_add_u64(out, 3, fstat(0, &st) == 0 && S_ISCHR(st.st_mode));
	return 0;
}

static void check_fds(int keep_fd, const char *want_cwd)
{
	int stray = open("/", O_PATH | O_DIRECTORY); /* not close-on-exec, on purpose */
	int stray2 = open("/", O_RDONLY);
	assert_true(stray > 2 && stray2 > 2);
	hp_child_opts o = opts(5000);
	o.cwd_fd = keep_fd;
	o.keep_fds = &keep_fd;
	o.nkeep = 1;
	hp_frame f;
	hp_err e;
	hp_tri t = hp_os_child_run(&o, list_fds, NULL, &f, &e);
	close(stray);
	close(stray2);
	if (t != HP_TRUE)
		print_error("%s\n", e.msg);
	assert_int_equal(t, HP_TRUE);
	int n_fd = 0;
	for (size_t i = 0; i < f.n; i++) {
		uint64_t v;
		if (f.rec[i].tag != 1)
			continue;
		assert_int_equal(hp_frame_rec_u64(&f.rec[i], &v), 0);
		n_fd++;
		/* 0-2, the kept fd, and the result pipe (the only other one) */
		if (v > 2 && (int)v != keep_fd)
			assert_true((int)v != stray && (int)v != stray2);
	}
	assert_int_equal(n_fd, 5);
	char *cwd;
	assert_int_equal(hp_frame_rec_str(hp_frame_find(&f, 2), &cwd), 0);
	assert_string_equal(cwd, want_cwd);
	free(cwd);
	uint64_t isnull;
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 3), &isnull), 0);
	assert_int_equal(isnull, 1);
	hp_frame_free(&f);
}

static void test_stray_descriptors_and_cwd(void **state)
{
	(void)state;
	char *dir = fx_tmpdir();
	int root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	check_fds(root, dir);
	close(root);
	fx_rmtree(dir);
}

/* close_range refused (old seccomp profiles): the fallback still closes. */
static void test_close_range_filtered(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	char *dir = fx_tmpdir();
	const int errs[] = {ENOSYS, EPERM};
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			const int nr[] = {SYS_close_range};
			if (fx_seccomp_fail(nr, 1, errs[i]) < 0)
				_exit(40);
			if (syscall(SYS_close_range, 100, 200, 0) == 0)
				_exit(41);
			int root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
			check_fds(root, dir);
			_exit(0);
		}
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_int_equal(st, 0);
	}
	fx_rmtree(dir);
}

/* Two children at once: each answers for itself whichever is finished
 * first, a big answer waits in its pipe for its finish, and a child that
 * outlives its deadline while the caller waits for another is killed at
 * its own finish with the deadline counted from its start. */
static int send_big(void *arg, hp_frame_writer *out)
{
	(void)arg;
	static char big[200000];
	memset(big, 'x', sizeof big - 1);
	hp_frame_add_str(out, 3, big);
	return 0;
}

static int sleep_long(void *arg, hp_frame_writer *out)
{
	(void)arg;
	(void)out;
	sleep(30);
	return 0;
}

static void test_children_at_once(void **state)
{
	(void)state;
	hp_child_opts o = opts(5000);
	o.max_msg = 1 << 20;
	hp_child a, b, c;
	hp_err e;
	assert_int_equal(hp_os_child_start(&o, send_big, NULL, &a, &e), HP_TRUE);
	assert_int_equal(hp_os_child_start(&o, report_ids, NULL, &b, &e), HP_TRUE);
	hp_child_opts q = opts(200);
	assert_int_equal(hp_os_child_start(&q, sleep_long, NULL, &c, &e), HP_TRUE);
	pid_t cpid = c.pid;
	hp_frame f;
	uint64_t v;
	assert_int_equal(hp_os_child_finish(&b, &f, &e), HP_TRUE);
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 1), &v), 0);
	assert_int_equal(v, geteuid());
	hp_frame_free(&f);
	assert_int_equal(hp_os_child_finish(&a, &f, &e), HP_TRUE);
	char *str = NULL;
	assert_int_equal(hp_frame_rec_str(hp_frame_find(&f, 3), &str), 0);
	assert_int_equal(strlen(str), 199999);
	free(str);
	hp_frame_free(&f);
	usleep(300 * 1000);
	int64_t t0 = hp_os_now_ms();
	assert_int_equal(hp_os_child_finish(&c, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child exceeded its 200 ms deadline");
	assert_true(hp_os_now_ms() - t0 < 1000);
	assert_int_equal(kill(cpid, 0), -1);
	assert_int_equal(c.pid, -1);
	/* finishing a child that never started */
	assert_int_equal(hp_os_child_finish(&c, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "child: not started");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_results_come_back),
	    cmocka_unit_test(test_children_at_once),
	    cmocka_unit_test(test_identity_taken),
	    cmocka_unit_test(test_deadline_kills_everything),
	    cmocka_unit_test(test_own_pid_namespace),
	    cmocka_unit_test(test_pid_namespace_refused),
	    cmocka_unit_test(test_failures_are_unknown),
	    cmocka_unit_test(test_stray_descriptors_and_cwd),
	    cmocka_unit_test(test_close_range_filtered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
