/* test_procs.c: processes of another uid seen (or not) through /proc, with
 * the default mount and with hidepid=1 and hidepid=2 in a private mount
 * namespace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "os/procs.h"


static pid_t target;
static pid_t skip[2];
static size_t nskip;
static hp_tri got[3];
static char msg[512];

static int ask(void *arg)
{
	(void)arg;
	hp_err e;
	e.msg[0] = '\0';
	got[0] = hp_os_procs_visible(FX_OTHER, HP_PROCS_MAX_DEFAULT, skip, nskip, &e);
	snprintf(msg, sizeof msg, "%s", e.msg);
	got[1] = hp_os_procs_visible(FX_HANGAR, HP_PROCS_MAX_DEFAULT, skip, nskip, &e);
	got[2] = hp_os_proc_pid_visible(target, &e);
	return got[0] * 16 + got[1] * 4 + got[2];
}

static int as_agent(void)
{
	return fx_run_as(FX_AGENT, FX_AGENT, ask, NULL);
}

static void test_default_proc(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	target = fx_sleeper(FX_OTHER, 0);
	int r = as_agent();
	fx_stop(target);
	assert_int_equal(r, HP_TRUE * 16 + HP_FALSE * 4 + HP_TRUE);
}

/* hidepid in a private mount namespace: a fresh procfs over /proc. */
static int with_hidepid(const char *opt, int dumpable)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("proc", "/proc", "proc", 0, opt) < 0)
			_exit(99);
		target = fx_sleeper(FX_OTHER, dumpable);
		int r = as_agent();
		fx_stop(target);
		_exit(r);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_hidepid_2_hides(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(with_hidepid("hidepid=2", 0), HP_FALSE * 16 + HP_FALSE * 4 + HP_FALSE);
}

static void test_hidepid_1(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	/* the status is hidden, the directory still shows the owner, dumpable or not */
	assert_int_equal(with_hidepid("hidepid=1", 1), HP_TRUE * 16 + HP_FALSE * 4 + HP_TRUE);
	assert_int_equal(with_hidepid("hidepid=1", 0), HP_TRUE * 16 + HP_FALSE * 4 + HP_TRUE);
}

/* A process the caller skips is not counted, nor one it started (its
 * status readable, its parent skipped); any other of the uid still is. */
static pid_t parent_of_sleeper(uid_t uid, pid_t *child)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		pid_t c = fx_sleeper(uid, 0);
		(void)!write(p[1], &c, sizeof c);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], child, sizeof *child), (ssize_t)sizeof *child);
	close(p[0]);
	return pid;
}

static void test_skipped(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	pid_t grandchild;
	pid_t parent = parent_of_sleeper(FX_OTHER, &grandchild);
	target = grandchild;
	skip[0] = parent;
	nskip = 1;
	int r = as_agent();
	/* the grandchild is FX_OTHER's, and its parent (root's) is skipped */
	assert_int_equal(r, HP_FALSE * 16 + HP_FALSE * 4 + HP_TRUE);
	/* the same skip list does not hide another process of that uid */
	pid_t other = fx_sleeper(FX_OTHER, 0);
	r = as_agent();
	assert_int_equal(r, HP_TRUE * 16 + HP_FALSE * 4 + HP_TRUE);
	/* nor, with nothing skipped, the grandchild */
	fx_stop(other);
	nskip = 0;
	r = as_agent();
	assert_int_equal(r, HP_TRUE * 16 + HP_FALSE * 4 + HP_TRUE);
	/* and a skipped pid is not counted itself */
	skip[0] = grandchild;
	nskip = 1;
	r = as_agent();
	assert_int_equal(r, HP_FALSE * 16 + HP_FALSE * 4 + HP_TRUE);
	nskip = 0;
	kill(grandchild, SIGKILL);
	fx_stop(parent);
}

static void test_bound(void **state)
{
	(void)state;
	hp_err e;
	assert_int_equal(hp_os_procs_visible(FX_HANGAR, 1, NULL, 0, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/proc: more than 1 processes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_default_proc),
	    cmocka_unit_test(test_hidepid_2_hides),
	    cmocka_unit_test(test_hidepid_1),
	    cmocka_unit_test(test_skipped),
	    cmocka_unit_test(test_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
