/* test_identity.c: switching to throwaway uids in forked children, and
 * reading every set back; the refusals ((uid_t)-1, caps past the kernel's
 * last, threads) and the silent successes the checks must catch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <grp.h>
#include <linux/securebits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/capstate.h"
#include "fixture.h"
#include "os/identity.h"
#include "os/sysx.h"

typedef struct {
	char msg[512];
	hp_capstate cs;
	char out[8192]; /* what an exec'd program printed */
} shared;

static shared *sh;

static int setup(void **state)
{
	(void)state;
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return sh == MAP_FAILED;
}

static int teardown(void **state)
{
	(void)state;
	munmap(sh, sizeof *sh);
	return 0;
}

/* Run fn in a child; its exit status. */
static int in_child(int (*fn)(void))
{
	memset(sh, 0, sizeof *sh);
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn());
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static int become(const hp_identity *id)
{
	hp_err e;
	e.msg[0] = '\0';
	hp_tri t = hp_os_identity_become(id, &e);
	snprintf(sh->msg, sizeof sh->msg, "%s", e.msg);
	if (t != HP_TRUE)
		return 1;
	if (hp_os_capstate_self(&sh->cs, &e) != HP_TRUE) {
		snprintf(sh->msg, sizeof sh->msg, "%s", e.msg);
		return 2;
	}
	return 0;
}

static int agent_child(void)
{
	const gid_t agent_groups[] = {FX_GROUP, FX_AGENT};
	hp_identity id = {.kind = HP_ID_NO_CAPS,
	                  .uid = FX_AGENT,
	                  .gid = FX_AGENT,
	                  .groups = agent_groups,
	                  .ngroups = 2,
	                  .no_new_privs = 1};
	int r = become(&id);
	if (r)
		return r;
	/* and the way back is shut */
	if (setuid(0) == 0 || setgroups(0, NULL) == 0 || setresuid(0, 0, 0) == 0)
		return 3;
	gid_t g[8];
	if (getgroups(8, g) != 2)
		return 4;
	return 0;
}

static void test_agent_has_nothing(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int r = in_child(agent_child);
	if (r)
		print_error("%s\n", sh->msg);
	assert_int_equal(r, 0);
	assert_int_equal(sh->cs.effective, 0);
	assert_int_equal(sh->cs.permitted, 0);
	assert_int_equal(sh->cs.inheritable, 0);
	assert_int_equal(sh->cs.ambient, 0);
	assert_int_equal(sh->cs.bounding, 0);
	assert_int_equal(sh->cs.no_new_privs, 1);
	assert_int_equal(sh->cs.dumpable, 0);
	assert_int_equal(sh->cs.uid[0], FX_AGENT);
	assert_int_equal(sh->cs.uid[2], FX_AGENT);
	assert_true(sh->cs.securebits & SECBIT_NOROOT_LOCKED);
}

#define KEEP ((1ull << CAP_KILL) | (1ull << CAP_NET_BIND_SERVICE))

/* The ambient set survives execve: what the driver really gets. */
static int exec_status(void)
{
	int p[2];
	if (pipe(p) < 0)
		return 10;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		char *const argv[] = {"cat", "/proc/self/status", NULL};
		char *const envp[] = {NULL};
		execve("/bin/cat", argv, envp);
		_exit(127);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof sh->out - 1 && (r = read(p[0], sh->out + n, sizeof sh->out - 1 - n)) > 0)
		n += (size_t)r;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	return st == 0 ? 0 : 11;
}

static int hangar_child(void)
{
	hp_identity id = {.kind = HP_ID_KEEP_CAPS,
	                  .uid = FX_HANGAR,
	                  .gid = FX_HANGAR,
	                  .keep_caps = KEEP,
	                  .dumpable = 1};
	int r = become(&id);
	return r ? r : exec_status();
}

static uint64_t status_field(const char *name)
{
	const char *p = strstr(sh->out, name);
	assert_non_null(p);
	return strtoull(p + strlen(name), NULL, 16);
}

static void test_hangar_keeps_ambient_caps(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int r = in_child(hangar_child);
	if (r)
		print_error("%s\n", sh->msg);
	assert_int_equal(r, 0);
	assert_int_equal(sh->cs.ambient, KEEP);
	assert_int_equal(sh->cs.effective, KEEP);
	assert_int_equal(sh->cs.permitted, KEEP);
	assert_int_equal(sh->cs.no_new_privs, 0);
	assert_int_equal(sh->cs.dumpable, 1);
	assert_int_not_equal(sh->cs.bounding, 0); /* left alone, as setpriv does */
	/* after execve of an ordinary binary */
	assert_int_equal(status_field("CapAmb:"), KEEP);
	assert_int_equal(status_field("CapEff:"), KEEP);
}

/* The sketch's driver keeps setuid and setgid: then setuid(0) working is
 * the point, and is not held against it. */
static int hangar_setuid_child(void)
{
	hp_identity id = {.kind = HP_ID_KEEP_CAPS,
	                  .uid = FX_HANGAR,
	                  .gid = FX_HANGAR,
	                  .keep_caps =
	                      (1ull << CAP_SETUID) | (1ull << CAP_SETGID) | (1ull << CAP_KILL)};
	return become(&id);
}

static void test_hangar_with_setuid(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	int r = in_child(hangar_setuid_child);
	if (r)
		print_error("%s\n", sh->msg);
	assert_int_equal(r, 0);
	assert_int_equal(sh->cs.dumpable, 0);
}

static int plain_child(void)
{
	hp_identity id = {.kind = HP_ID_PLAIN,
	                  .uid = FX_AGENT,
	                  .gid = FX_AGENT,
	                  .no_new_privs = 1 /* ignored: never for PLAIN */};
	return become(&id);
}

static void test_plain_keeps_bounding_and_no_nnp(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(plain_child), 0);
	assert_int_equal(sh->cs.permitted, 0);
	assert_int_equal(sh->cs.no_new_privs, 0);
	assert_int_not_equal(sh->cs.bounding, 0);
}

static int minus_one_uid(void)
{
	hp_identity id = {.kind = HP_ID_NO_CAPS, .uid = (uid_t)-1, .gid = FX_AGENT};
	int r = become(&id);
	return r == 1 && geteuid() == 0 ? 0 : 9;
}

static int minus_one_gid(void)
{
	hp_identity id = {.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = (gid_t)-1};
	return become(&id) == 1 && getegid() == 0 ? 0 : 9;
}

static int minus_one_group(void)
{
	const gid_t g[] = {(gid_t)-1};
	hp_identity id = {
	    .kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT, .groups = g, .ngroups = 1};
	return become(&id) == 1 ? 0 : 9;
}

static void test_minus_one_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(minus_one_uid), 0);
	assert_string_equal(sh->msg,
	                    "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
	assert_int_equal(in_child(minus_one_gid), 0);
	assert_string_equal(sh->msg,
	                    "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
	assert_int_equal(in_child(minus_one_group), 0);
	assert_string_equal(sh->msg, "identity: supplementary group -1 (4294967295)");
}

static int cap_past_last(void)
{
	hp_identity id = {
	    .kind = HP_ID_KEEP_CAPS, .uid = FX_HANGAR, .gid = FX_HANGAR, .keep_caps = 1ull << 63};
	return become(&id);
}

static void test_cap_past_last_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(cap_past_last), 1);
	hp_err e;
	char want[128];
	snprintf(want, sizeof want, "identity: a kept capability is past the kernel's last (%d)",
	         hp_os_cap_last_cap(&e));
	assert_string_equal(sh->msg, want);
}

/* An ambient raise the kernel refuses (the securebit forbids it) is an
 * error, never a switch that silently kept nothing. */
static int ambient_locked(void)
{
	if (prctl(PR_SET_SECUREBITS, SECBIT_NO_CAP_AMBIENT_RAISE, 0, 0, 0) < 0)
		return 8;
	hp_identity id = {
	    .kind = HP_ID_KEEP_CAPS, .uid = FX_HANGAR, .gid = FX_HANGAR, .keep_caps = KEEP};
	return become(&id);
}

static void test_ambient_raise_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(ambient_locked), 1);
	assert_string_equal(sh->msg,
	                    "identity: raising an ambient capability: Operation not permitted");
}

/* dumpable back at 1 (as after an execve) is caught by the check. */
static int dumpable_back(void)
{
	hp_identity id = {.kind = HP_ID_NO_CAPS, .uid = FX_AGENT, .gid = FX_AGENT};
	if (become(&id))
		return 1;
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	hp_err e;
	hp_tri t = hp_os_identity_verify(&id, &e);
	snprintf(sh->msg, sizeof sh->msg, "%s", e.msg);
	return t == HP_UNKNOWN ? 0 : 2;
}

static void test_dumpable_checked(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(dumpable_back), 0);
	assert_string_equal(sh->msg, "identity: dumpable is 1, expected 0");
}

static int wrong_uid(void)
{
	hp_identity id = {.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT};
	if (become(&id))
		return 1;
	id.uid = FX_OTHER;
	hp_err e;
	hp_tri t = hp_os_identity_verify(&id, &e);
	snprintf(sh->msg, sizeof sh->msg, "%s", e.msg);
	return t == HP_UNKNOWN ? 0 : 2;
}

static int root_hangar(void)
{
	/* a driver "user" that is uid 0 can get back: an error, never a split */
	hp_identity id = {.kind = HP_ID_KEEP_CAPS, .uid = 0, .gid = 0, .keep_caps = KEEP};
	return become(&id);
}

static void test_verify_catches_mismatch(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(wrong_uid), 0);
	char want[128];
	snprintf(want, sizeof want, "identity: uids are %u/%u/%u, not %u", FX_AGENT, FX_AGENT,
	         FX_AGENT, FX_OTHER);
	assert_string_equal(sh->msg, want);
	assert_int_equal(in_child(root_hangar), 1);
	assert_string_equal(sh->msg,
	                    "identity: setuid(0) succeeded: the role can become root again");
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static int threaded(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, sleeper, NULL) != 0)
		return 8;
	hp_identity id = {.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT};
	return become(&id);
}

static void test_threads_refused(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	assert_int_equal(in_child(threaded), 1);
	assert_string_equal(sh->msg, "identity: the process is not single-threaded");
}

static void test_status_parser(void **state)
{
	(void)state;
	const char ok[] =
	    "Name:\tx\nUid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\nCapInh:\t0000000000000000\n"
	    "CapPrm:\t0000000000000020\nCapEff:\t0000000000000020\n"
	    "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000020\nNoNewPrivs:\t1\n";
	hp_capstate s;
	hp_err e;
	assert_int_equal(hp_os_capstate_parse_status(ok, sizeof ok - 1, &s, &e), HP_TRUE);
	assert_int_equal(s.uid[1], 2);
	assert_int_equal(s.gid[3], 8);
	assert_int_equal(s.ambient, 0x20);
	assert_int_equal(s.bounding, 0x1ffffffffffull);
	assert_int_equal(s.no_new_privs, 1);
	const char twice[] = "Uid:\t1\t2\t3\t4\nUid:\t1\t2\t3\t4\n";
	assert_int_equal(hp_os_capstate_parse_status(twice, sizeof twice - 1, &s, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "status line 2: Uid: twice");
	const char bad[] = "Uid:\t1\t2\t3\nGid:\t5\t6\t7\t8\n";
	assert_int_equal(hp_os_capstate_parse_status(bad, sizeof bad - 1, &s, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "status line 1: malformed Uid:");
	const char longhex[] = "CapEff:\t00000000000000000\n";
	assert_int_equal(hp_os_capstate_parse_status(longhex, sizeof longhex - 1, &s, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "status line 1: malformed CapEff:");
	const char missing[] = "Uid:\t1\t2\t3\t4\n";
	assert_int_equal(hp_os_capstate_parse_status(missing, sizeof missing - 1, &s, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "status: no Gid: line");
}

static void test_self_state(void **state)
{
	(void)state;
	hp_capstate s;
	hp_err e;
	assert_int_equal(hp_os_capstate_self(&s, &e), HP_TRUE);
	assert_int_equal(s.uid[0], getuid());
	assert_int_equal(s.no_new_privs, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_agent_has_nothing),
	    cmocka_unit_test(test_hangar_keeps_ambient_caps),
	    cmocka_unit_test(test_hangar_with_setuid),
	    cmocka_unit_test(test_plain_keeps_bounding_and_no_nnp),
	    cmocka_unit_test(test_minus_one_refused),
	    cmocka_unit_test(test_cap_past_last_refused),
	    cmocka_unit_test(test_ambient_raise_refused),
	    cmocka_unit_test(test_dumpable_checked),
	    cmocka_unit_test(test_verify_catches_mismatch),
	    cmocka_unit_test(test_threads_refused),
	    cmocka_unit_test(test_status_parser),
	    cmocka_unit_test(test_self_state),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
