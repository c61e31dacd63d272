/* test_adopted.c: runs that announce a pidfd of themselves, and the
 * subreaper that kills and reaps those their starter left behind, with
 * what they started; a process that is not its child, one already reaped,
 * one it may not signal and a descriptor that is no pidfd are left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "os/adopted.h"
#include "os/sysx.h"

static int sock[2];

/* Skip the current test where the kernel gives no pidfds (before 5.3):
 * nothing can be announced there. */
#define NEED_PIDFDS()                                                          \
	do {                                                                   \
		if (!hp_os_announce_works()) {                                 \
			print_message("skipped: this kernel has no pidfds\n"); \
			skip();                                                \
		}                                                              \
	} while (0)

static int setup(void **state)
{
	(void)state;
	/* as the check is: what its children leave comes to it */
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

static int pair(void **state)
{
	(void)state;
	return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock);
}

static int unpair(void **state)
{
	(void)state;
	close(sock[0]);
	if (sock[1] >= 0)
		close(sock[1]);
	return 0;
}

/* A pipe the run writes its pid (and its own child's) to, for the test. */
static int pids[2];

/* The run, in the order a run of sudo takes: announced, then a session
 * of its own, a child of its own in its group, both pids told; then it
 * waits to be killed. */
static void run(void)
{
	if (hp_os_announce_self(sock[1]) < 0 || setsid() < 0)
		_exit(3);
	pid_t g = fork();
	if (g == 0) {
		for (;;)
			pause();
	}
	pid_t both[2] = {getpid(), g};
	if (write(pids[1], both, sizeof both) != sizeof both)
		_exit(4);
	for (;;)
		pause();
}

/* A starter that runs a run and then, as told, dies (leaving it) or stays. */
static pid_t starter(bool dies, pid_t both[2])
{
	assert_int_equal(pipe(pids), 0);
	pid_t s = fork();
	assert_true(s >= 0);
	if (s == 0) {
		if (fork() == 0)
			run();
		if (dies)
			_exit(0);
		for (;;)
			pause();
	}
	close(pids[1]);
	assert_int_equal(read(pids[0], both, 2 * sizeof(pid_t)), (ssize_t)(2 * sizeof(pid_t)));
	close(pids[0]);
	close(sock[1]);
	sock[1] = -1;
	return s;
}

static bool gone(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

static void test_starter_died(void **state)
{
	(void)state;
	NEED_PIDFDS();
	pid_t both[2];
	pid_t s = starter(true, both);
	assert_int_equal(waitpid(s, NULL, 0), s);
	/* the run and its child live on, the run this process's child now */
	assert_int_equal(kill(both[0], 0), 0);
	assert_int_equal(kill(both[1], 0), 0);
	assert_int_equal(hp_os_reap_announced(sock[0]), 1);
	assert_true(gone(both[0]));
	assert_true(gone(both[1]));
	/* everything reaped: no child is left */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_not_a_child_left_alone(void **state)
{
	(void)state;
	NEED_PIDFDS();
	pid_t both[2];
	pid_t s = starter(false, both);
	/* the run is its starter's child, not this process's */
	assert_int_equal(hp_os_reap_announced(sock[0]), 0);
	assert_int_equal(kill(both[0], 0), 0);
	assert_int_equal(kill(both[1], 0), 0);
	kill(-both[0], SIGKILL);
	kill(s, SIGKILL);
	assert_int_equal(waitpid(s, NULL, 0), s);
	/* the run, its child, and the starter's leftovers come here */
	while (waitpid(-1, NULL, 0) > 0)
		;
}

static void test_reaped_already(void **state)
{
	(void)state;
	NEED_PIDFDS();
	pid_t s = fork();
	assert_true(s >= 0);
	if (s == 0) {
		pid_t r = fork();
		if (r == 0)
			_exit(hp_os_announce_self(sock[1]) == 0 ? 0 : 3);
		int st;
		_exit(waitpid(r, &st, 0) == r && WIFEXITED(st) ? WEXITSTATUS(st) : 5);
	}
	close(sock[1]);
	sock[1] = -1;
	int st;
	assert_int_equal(waitpid(s, &st, 0), s);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(hp_os_reap_announced(sock[0]), 0);
	/* and the announcement was read: nothing is queued */
	char b;
	assert_int_equal(recv(sock[0], &b, 1, MSG_DONTWAIT), 0);
}

/* A descriptor of another kind in the message: closed, nothing killed. */
static void test_not_a_pidfd(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} u;
	memset(&u, 0, sizeof u);
	char byte = 'p';
	struct iovec iov = {&byte, 1};
	struct msghdr m = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(2 * sizeof(int));
	memcpy(CMSG_DATA(c), p, sizeof p);
	assert_int_equal(sendmsg(sock[1], &m, 0), 1);
	close(p[0]);
	close(p[1]);
	int lowest = dup(0);
	close(lowest);
	assert_int_equal(hp_os_reap_announced(sock[0]), 0);
	/* the copies received were closed again */
	int now = dup(0);
	close(now);
	assert_int_equal(now, lowest);
	assert_false(hp_os_reap_adopted(-1));
}

/* Where the kernel refuses pidfd_send_signal (a seccomp profile), an
 * adopted run that never exits (stopped here, as the agent can stop its
 * own process) is left at once, not waited for without end. In a forked
 * child; its exit status says what failed. */
static int refused_signal(void *arg)
{
	(void)arg;
	int nr = SYS_pidfd_send_signal;
	pid_t both[2];
	pid_t s = starter(true, both);
	if (waitpid(s, NULL, 0) != s || kill(both[0], SIGSTOP) < 0)
		return 10;
	if (fx_seccomp_fail(&nr, 1, EPERM) != 0)
		return 11;
	int64_t t0 = hp_os_now_ms();
	int n = hp_os_reap_announced(sock[0]);
	int64_t took = hp_os_now_ms() - t0;
	int alive = kill(both[0], 0) == 0 && kill(both[1], 0) == 0;
	kill(-both[0], SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
	/* well under the half second it gives a killed process */
	return n != 0 ? 12 : !alive ? 13 : took >= 400 ? 14 : 0;
}

static void test_signal_refused(void **state)
{
	(void)state;
	NEED_PIDFDS();
	assert_int_equal(fx_in_child(refused_signal, NULL), 0);
}

/* An announcement with nobody to read it fails: the caller does not run
 * what it cannot announce. */
static void test_announce_fails(void **state)
{
	(void)state;
	NEED_PIDFDS();
	close(sock[0]);
	assert_int_equal(hp_os_announce_self(sock[1]), -1);
	assert_int_equal(errno, EPIPE);
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_starter_died, pair, unpair),
	    cmocka_unit_test_setup_teardown(test_not_a_child_left_alone, pair, unpair),
	    cmocka_unit_test_setup_teardown(test_reaped_already, pair, unpair),
	    cmocka_unit_test_setup_teardown(test_not_a_pidfd, pair, unpair),
	    cmocka_unit_test_setup_teardown(test_signal_refused, pair, unpair),
	    cmocka_unit_test_setup_teardown(test_announce_fails, pair, unpair),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
