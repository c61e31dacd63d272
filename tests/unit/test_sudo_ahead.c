/* test_sudo_ahead.c: a role's sudo probe in a job of its own: the answer
 * on the pipe ('0' + hp_tri, then why) for fake setuid "sudo" scripts found
 * on the check's PATH, as the role's user; a deadline
 * too close asks nothing; a stopped job leaves no process behind, with its
 * pid namespace or, where the kernel refuses one, when the job was killed
 * while a run of sudo hung. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "check/sudo_ahead.h"
#include "fixture.h"

static char *dir;
static hp_root root;
static hp_identity agent;

static void fake(const char *name, const char *script)
{
	char rel[128];
	fx_dir(dir, name, 0755, 0, 0);
	snprintf(rel, sizeof rel, "%s/sudo", name);
	fx_file(dir, rel, script, 04755, 0, 0);
}

static int setup(void **state)
{
	(void)state;
	agent = (hp_identity){.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT};
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fake("ok", "#!/bin/sh\nexit 0\n");
	fake("pw", "#!/bin/sh\necho 'sudo: a password is required' >&2\nexit 1\n");
	/* grants to root only: tells whose identity the job asked as */
	fake("rootonly", "#!/bin/sh\n[ \"$(id -ru)\" = 0 ] && exit 0\n"
	                 "echo 'sudo: a password is required' >&2\nexit 1\n");
	fake("hang", "#!/bin/sh\nsleep 1000\n");
	hp_err e;
	return hp_os_root_open(&root, dir, 0, &e) != HP_TRUE;
}

static int teardown(void **state)
{
	(void)state;
	if (dir) {
		hp_os_root_close(&root);
		fx_rmtree(dir);
	}
	return 0;
}

/* The job's whole answer, read until it closes the pipe: "T why" with T
 * the hp_tri's digit. */
static const char *answer(const char *path, bool as_root, int left_ms)
{
	static char out[1024];
	setenv("PATH", path, 1);
	hp_sudo_ask a = {&root, &agent, as_root, left_ms, 2000};
	hp_sudo_ahead j;
	hp_sudo_ahead_init(&j);
	assert_true(hp_sudo_ahead_start(&j, &a));
	assert_true(j.pid > 0);
	size_t n = 0;
	for (;;) {
		struct pollfd pf = {j.fd, POLLIN, 0};
		assert_int_equal(poll(&pf, 1, 10000), 1);
		ssize_t r = read(j.fd, out + n, sizeof out - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		assert_true(r >= 0);
		if (r == 0)
			break;
		n += (size_t)r;
	}
	out[n] = '\0';
	hp_sudo_ahead_stop(&j);
	assert_int_equal(j.pid, 0);
	assert_int_equal(j.fd, -1);
	return out;
}

static void test_answers_on_the_pipe(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_string_equal(answer("/pw", true, 30000),
	                    "0/pw/sudo: sudo -n -k true: sudo refused: sudo: a password is required");
	assert_string_equal(answer("relative:/pw:/ok", true, 30000),
	                    "1/ok/sudo: sudo -n -k true: sudo exited 0");
	/* as the role's user, not as the check's root */
	assert_string_equal(answer("/rootonly", true, 30000),
	                    "0/rootonly/sudo: sudo -n -k true: sudo refused: sudo: a password is "
	                    "required");
}

static void test_deadline_too_close(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_string_equal(answer("/ok", true, 20),
	                    "2sudo: not asked: the check's deadline is too close");
}

static void test_stop_leaves_nothing(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_sudo_ahead j;
	hp_sudo_ahead_init(&j);
	hp_sudo_ahead_stop(&j); /* never started: nothing to do */
	assert_int_equal(j.pid, 0);
	setenv("PATH", "/hang", 1);
	hp_sudo_ask a = {&root, &agent, true, 30000, 20000};
	assert_true(hp_sudo_ahead_start(&j, &a));
	pid_t pid = j.pid;
	usleep(200 * 1000);
	hp_sudo_ahead_stop(&j);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	/* what the job started as the agent dies with it (its PID namespace) */
	int left = -1;
	for (int i = 0; i < 200 && (left = fx_count_procs_of_uid(FX_AGENT)) != 0; i++)
		usleep(10 * 1000);
	assert_int_equal(left, 0);
}

/* Where the kernel refuses the job a pid namespace (a Docker container's
 * root, without CAP_SYS_ADMIN), and the job is killed (by the deadline,
 * or by the agent: the job is the agent's process) while a run of sudo
 * hangs: the run is this process's child now, in a session of its own,
 * and stopping the job kills and reaps it and what it started. In a
 * forked child that has dropped CAP_SYS_ADMIN; its exit status says what
 * failed. */
static int killed_job_without_pid_namespace(void *arg)
{
	(void)arg;
	cap_t c = cap_get_proc();
	cap_value_t v = CAP_SYS_ADMIN;
	if (!c || cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_CLEAR) < 0 || cap_set_proc(c) < 0)
		return 10;
	cap_free(c);
	setenv("PATH", "/hang", 1);
	hp_sudo_ask a = {&root, &agent, true, 30000, 20000};
	hp_sudo_ahead j;
	hp_sudo_ahead_init(&j);
	if (!hp_sudo_ahead_start(&j, &a))
		return 11;
	/* the job, the run (sh) and its sleep, all the agent's */
	int n = 0;
	for (int i = 0; i < 500 && (n = fx_count_procs_of_uid(FX_AGENT)) < 3; i++)
		usleep(10 * 1000);
	if (n < 3)
		return 12;
	kill(j.pid, SIGKILL);
	hp_sudo_ahead_stop(&j);
	int left = -1;
	for (int i = 0; i < 200 && (left = fx_count_procs_of_uid(FX_AGENT)) != 0; i++)
		usleep(10 * 1000);
	return left == 0 ? 0 : 13;
}

static void test_killed_job_without_pid_namespace(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(fx_count_procs_of_uid(FX_AGENT), 0);
	assert_int_equal(fx_in_child(killed_job_without_pid_namespace, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answers_on_the_pipe),
	    cmocka_unit_test(test_deadline_too_close),
	    cmocka_unit_test(test_stop_leaves_nothing),
	    cmocka_unit_test(test_killed_job_without_pid_namespace),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
