/* test_sudo_live.c: the live sudo probe against fake setuid "sudo" scripts
 * in a fixture root (a sudo that never exits, one that asks for a password,
 * one that prints its environment and descriptors...), the verification of
 * candidates, runs announced to the check (vforked and forked), and the
 * real sudo as a uid with no passwd entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fixture.h"
#include "os/adopted.h"
#include "os/identity.h"
#include "os/safe_path.h"
#include "os/sudo_live.h"
#include "os/sysx.h"

static char *dir;
static hp_root root;
static hp_identity agent;
static const hp_sudo_opts opts = {.deadline_ms = 2000, .out_cap = 65536};

static void fake(const char *name, const char *script, unsigned mode, unsigned dirmode)
{
	char rel[128];
	fx_dir(dir, name, dirmode, 0, 0);
	snprintf(rel, sizeof rel, "%s/sudo", name);
	fx_file(dir, rel, script, mode, 0, 0);
}

static int setup(void **state)
{
	(void)state;
	agent = (hp_identity){.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT};
	if (geteuid() != 0)
		return 0;
	dir = fx_tmpdir();
	fake("ok", "#!/bin/sh\nexit 0\n", 04755, 0755);
	fake("pw", "#!/bin/sh\necho 'sudo: a password is required' >&2\nexit 1\n", 04755, 0755);
	fake("hang", "#!/bin/sh\nsleep 1000 &\nsleep 1000\n", 04755, 0755);
	fake("env", "#!/bin/sh\nenv\nexit 1\n", 04755, 0755);
	fake("nnp",
	     "#!/bin/sh\necho 'sudo: The \"no new privileges\" flag is set, which prevents sudo "
	     "from running as root.' >&2\nexit 1\n",
	     04755, 0755);
	fake("big", "#!/bin/sh\nhead -c 200000 /dev/zero\n", 04755, 0755);
	/* each open descriptor: "... N -> what it is" */
	fake("fds", "#!/bin/sh\nls -l /proc/self/fd\nexit 1\n", 04755, 0755);
	/* grants unless asked with -k: a run without it would read, and write,
	 * the agent's timestamp file */
	fake("kflag",
	     "#!/bin/sh\ncase \" $* \" in *\" -n -k \"*) echo 'sudo: a password is required' "
	     ">&2; exit 1;; esac\nexit 0\n",
	     04755, 0755);
	/* each run logs its start and end: -l grants, true does not */
	char *log = hp_xasprintf("%s/runs.log", dir);
	fx_file(dir, "runs.log", "", 0644, FX_AGENT, FX_AGENT);
	char *listing = hp_xasprintf("#!/bin/sh\necho \"start $*\" >>%s\nsleep 0.2\necho \"end $*\" >>%s\n"
	                             "[ \"$3\" = -l ] && exit 0\n"
	                             "echo 'sudo: a password is required' >&2\nexit 1\n",
	                             log, log);
	fake("listing", listing, 04755, 0755);
	char *granting = hp_xasprintf("#!/bin/sh\necho \"start $*\" >>%s\nexit 0\n", log);
	fake("granting", granting, 04755, 0755);
	free(listing);
	free(granting);
	free(log);
	fake("notsuid", "#!/bin/sh\nexit 0\n", 0755, 0755);
	fake("agentw", "#!/bin/sh\nexit 0\n", 04755, 0777);
	fake("wfile", "#!/bin/sh\nexit 0\n", 04777, 0755);
	fx_dir(dir, "link", 0755, 0, 0);
	fx_link(dir, "link/sudo", "/ok/sudo");
	/* a sudo that works, behind a directory the agent cannot search */
	fx_dir(dir, "private", 0700, 0, 0);
	fx_dir(dir, "private/bin", 0755, 0, 0);
	fx_file(dir, "private/bin/sudo", "#!/bin/sh\nexit 0\n", 04755, 0, 0);
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

static hp_tri probe(const char *const *dirs, size_t n, hp_err *e)
{
	e->msg[0] = '\0';
	return hp_os_sudo_probe_as(&root, &agent, dirs, n, &opts, e);
}

static void test_answers(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_err e;
	const char *pw[] = {"/pw"};
	assert_int_equal(probe(pw, 1, &e), HP_FALSE);
	assert_string_equal(e.msg, "/pw/sudo: sudo -n -k true: sudo refused: sudo: a password is "
	                           "required");
	const char *ok[] = {"/pw", "/ok", "/link"};
	assert_int_equal(probe(ok, 3, &e), HP_TRUE);
	assert_string_equal(e.msg, "/ok/sudo: sudo -n -k true: sudo exited 0");
	const char *none[] = {"/missing", "/notsuid"};
	assert_int_equal(probe(none, 2, &e), HP_FALSE);
	assert_string_equal(e.msg, "no setuid-root sudo found");
	/* refused under no_new_privs must never read as "no sudo" */
	const char *nnp[] = {"/nnp"};
	assert_int_equal(probe(nnp, 1, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/nnp/sudo: sudo -n -k true: sudo exited 1: sudo: The \"no new "
	                           "privileges\" flag is set, which prevents sudo from running as "
	                           "root.");
	/* both runs ignore cached credentials (and so leave the timestamp alone) */
	const char *kflag[] = {"/kflag"};
	assert_int_equal(probe(kflag, 1, &e), HP_FALSE);
	assert_string_equal(e.msg, "/kflag/sudo: sudo -n -k true: sudo refused: sudo: a password "
	                           "is required");
	const char *big[] = {"/big"};
	assert_int_equal(probe(big, 1, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/big/sudo: sudo -n -k true: sudo wrote more than 65536 bytes");
}

/* The two runs one after the other, the second not when the first grants. */
static char *read_log(void)
{
	char *path = hp_xasprintf("%s/runs.log", dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[1024];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	f = fopen(path, "w"); /* empty for the next */
	assert_non_null(f);
	fclose(f);
	free(path);
	return buf;
}

static void test_runs_in_turn(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_err e;
	const char *listing[] = {"/listing"};
	assert_int_equal(probe(listing, 1, &e), HP_TRUE);
	assert_string_equal(e.msg, "/listing/sudo: sudo -n -k -l: sudo exited 0");
	assert_string_equal(read_log(), "start -n -k -- true\nend -n -k -- true\n"
	                                "start -n -k -l\nend -n -k -l\n");
	const char *granting[] = {"/granting"};
	assert_int_equal(probe(granting, 1, &e), HP_TRUE);
	assert_string_equal(e.msg, "/granting/sudo: sudo -n -k true: sudo exited 0");
	assert_string_equal(read_log(), "start -n -k -- true\n");
}

/* A sudo the agent cannot reach by its path is one it cannot run: no sudo,
 * not unknown (a root-only directory on the driver's PATH, like /root/bin). */
static void test_unreachable_is_no_sudo(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_err e;
	const char *priv[] = {"/private/bin"};
	assert_int_equal(probe(priv, 1, &e), HP_FALSE);
	assert_string_equal(e.msg, "no setuid-root sudo found");
}

static void test_unverified_candidates_not_run(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_err e;
	const char *aw[] = {"/agentw"};
	assert_int_equal(probe(aw, 1, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "not run: /agentw/sudo: can write the directory that holds "
	                           "'sudo' (not sticky)");
	const char *wf[] = {"/wfile"};
	assert_int_equal(probe(wf, 1, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "/wfile/sudo: writable by the agent: not run");
	hp_identity nopriv = agent;
	nopriv.kind = HP_ID_NO_CAPS;
	const char *ok[] = {"/ok"};
	assert_int_equal(hp_os_sudo_probe_as(&root, &nopriv, ok, 1, &opts, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "sudo: asked as a restricted identity (it must be a plain one)");
}

static void test_never_exits_is_killed(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_sudo_opts quick = {.deadline_ms = 300, .out_cap = 65536};
	const char *hang[] = {"/pw", "/hang"};
	hp_err e;
	int64_t t0 = hp_os_now_ms();
	assert_int_equal(hp_os_sudo_probe_as(&root, &agent, hang, 2, &quick, &e), HP_UNKNOWN);
	int64_t took = hp_os_now_ms() - t0;
	assert_string_equal(e.msg, "/hang/sudo: sudo -n -k true: sudo did not finish within 300 "
	                           "ms and was killed");
	assert_true(took < 3000);
	for (int i = 0; i < 100 && fx_count_procs_of_uid(FX_AGENT) > 0; i++)
		usleep(10000);
	assert_int_equal(fx_count_procs_of_uid(FX_AGENT), 0);
}

/* The check's own environment never reaches sudo. */
static void test_environment_poisoning(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	const char *poison[] = {"LD_PRELOAD",   "LD_LIBRARY_PATH", "BASH_ENV", "ENV",
	                        "SUDO_ASKPASS", "SUDO_EDITOR",     "HOME",     "IFS",
	                        "SHELLOPTS"};
	for (size_t i = 0; i < sizeof poison / sizeof poison[0]; i++)
		setenv(poison[i], "/tmp/evil", 1);
	int fd;
	hp_err e;
	assert_int_equal(hp_os_resolve(&root, "/env/sudo", 0, &fd, &e), HP_TRUE);
	const char *argv[] = {"sudo", "-n", "-l", NULL};
	hp_sudo_run run;
	assert_int_equal(hp_os_sudo_exec(fd, argv, &opts, &run, &e), HP_TRUE);
	close(fd);
	for (size_t i = 0; i < sizeof poison / sizeof poison[0]; i++)
		unsetenv(poison[i]);
	assert_int_equal(run.exit_status, 1);
	assert_non_null(strstr(run.out, "PATH=/usr/sbin:/usr/bin:/sbin:/bin\n"));
	assert_non_null(strstr(run.out, "LC_ALL=C\n"));
	assert_null(strstr(run.out, "evil"));
	/* nothing else but what the shell itself sets */
	for (char *l = run.out; *l; l = strchr(l, '\n') + 1) {
		if (strncmp(l, "PATH=", 5) && strncmp(l, "LC_ALL=", 7) && strncmp(l, "PWD=", 4) &&
		    strncmp(l, "SHLVL=", 6) && strncmp(l, "_=", 2))
			fail_msg("unexpected variable: %.40s", l);
		if (!strchr(l, '\n'))
			break;
	}
	free(run.out);
}

/* stdin is /dev/null; only 0-2, the binary's own descriptor and the
 * listing's are open (not the stray one the check holds). */
static void test_descriptors(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	/* not close-on-exec, one at a low number and one high up: neither may
	 * reach sudo, whatever number sudo's own descriptor takes */
	char where[4096];
	snprintf(where, sizeof where, "%s/fds", dir);
	int stray = open(where, O_RDONLY | O_DIRECTORY);
	assert_true(stray >= 0);
	assert_true(dup2(stray, 60) == 60);
	int fd;
	hp_err e;
	assert_int_equal(hp_os_resolve(&root, "/fds/sudo", 0, &fd, &e), HP_TRUE);
	const char *argv[] = {"sudo", NULL};
	hp_sudo_run run;
	assert_int_equal(hp_os_sudo_exec(fd, argv, &opts, &run, &e), HP_TRUE);
	close(fd);
	close(60);
	close(stray);
	assert_non_null(strstr(run.out, " 0 -> /dev/null\n"));
	int n = 0;
	for (char *l = strstr(run.out, " -> "); l; l = strstr(l + 4, " -> ")) {
		char *num = l;
		while (num > run.out && num[-1] != ' ')
			num--;
		assert_true(atoi(num) != 60);
		/* the stray's directory itself, not the script below it */
		assert_false(strncmp(l + 4, where, strlen(where)) == 0 && l[4 + strlen(where)] == '\n');
		n++;
	}
	if (n > 5)
		print_message("%s", run.out);
	assert_true(n <= 5); /* 0, 1, 2, the script, ls's directory */
	free(run.out);
}

/* Runs of /NAME/sudo announced on a socket (adopted.h): sudo never sees
 * the socket, the socket holds one pidfd per run, and a run that cannot be
 * announced (nobody reads the socket) does not exec, with a reason.
 * 0, or what failed. */
static int announced_runs(void *arg)
{
	(void)arg;
	int sk[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sk) < 0)
		return 10;
	hp_sudo_opts ao = opts;
	ao.announce = true;
	ao.announce_fd = sk[1];
	int fd;
	hp_err e;
	if (hp_os_resolve(&root, "/fds/sudo", 0, &fd, &e) != HP_TRUE)
		return 11;
	const char *argv[] = {"sudo", NULL};
	hp_sudo_run run;
	int bad = 0;
	for (int i = 0; i < 2 && !bad; i++) {
		if (hp_os_sudo_exec(fd, argv, &ao, &run, &e) != HP_TRUE)
			return 12;
		/* 0, 1, 2, the script, ls's directory: not the socket */
		int n = 0;
		for (char *l = strstr(run.out, " -> "); l; l = strstr(l + 4, " -> "))
			n++;
		bad = run.exit_status != 1 || n > 5 || strstr(run.out, "socket:") ? 13 : 0;
		free(run.out);
	}
	if (bad)
		return bad;
	/* two announcements, both of runs reaped already */
	char b;
	int got = 0;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	for (;;) {
		struct iovec iov = {&b, 1};
		struct msghdr m = {.msg_iov = &iov,
		                   .msg_iovlen = 1,
		                   .msg_control = u.buf,
		                   .msg_controllen = sizeof u.buf};
		if (recvmsg(sk[0], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
			break;
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
			return 14;
		int pfd;
		memcpy(&pfd, CMSG_DATA(c), sizeof pfd);
		if (hp_os_reap_adopted(pfd))
			return 15;
		close(pfd);
		got++;
	}
	if (got != 2)
		return 16;
	/* nobody to read: not run */
	close(sk[0]);
	if (hp_os_sudo_exec(fd, argv, &ao, &run, &e) != HP_TRUE)
		return 17;
	bad = run.exit_status != 126 ||
	              strcmp(run.out, "not run: cannot announce the run to the check\n") != 0
	          ? 18
	          : 0;
	if (!bad && (hp_os_sudo_classify(&run, &ao, &e) != HP_UNKNOWN ||
	             strcmp(e.msg, "sudo exited 126: not run: cannot announce the run to the "
	                           "check") != 0))
		bad = 19;
	free(run.out);
	close(sk[1]);
	close(fd);
	return bad;
}

/* Where close_range(2) is refused, runs are forked, not vforked. */
static int announced_runs_forked(void *arg)
{
	int nr = SYS_close_range;
	if (fx_seccomp_fail(&nr, 1, ENOSYS) != 0)
		return 20;
	return announced_runs(arg);
}

static void test_announced_runs(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	if (!hp_os_announce_works()) {
		print_message("skipped: this kernel has no pidfds\n");
		skip();
	}
	assert_int_equal(fx_in_child(announced_runs, NULL), 0);
	assert_int_equal(fx_in_child(announced_runs_forked, NULL), 0);
}

/* The real sudo, as a uid no passwd entry names: it refuses in a way that
 * is neither a grant nor a password prompt, so the answer is unknown. */
static void test_real_sudo(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	struct stat st;
	if (stat("/usr/bin/sudo", &st) != 0 || !(st.st_mode & S_ISUID) || st.st_uid != 0) {
		print_message("skipped: no setuid-root /usr/bin/sudo\n");
		skip();
	}
	hp_root live;
	hp_err e;
	assert_int_equal(hp_os_root_open(&live, "/", 0, &e), HP_TRUE);
	const char *d[] = {"/usr/bin"};
	hp_tri t = hp_os_sudo_probe_as(&live, &agent, d, 1, &opts, &e);
	hp_os_root_close(&live);
	assert_int_equal(t, HP_UNKNOWN);
	assert_string_equal(e.msg, "/usr/bin/sudo: sudo -n -k true: sudo exited 1: sudo: you do "
	                           "not exist in the passwd database");
}

static void test_classify(void **state)
{
	(void)state;
	hp_sudo_run r = {0};
	hp_err e;
	char out[128];
	r.out = out;
	snprintf(out, sizeof out, "Sorry, user agent may not run sudo on box.\n");
	r.exit_status = 1;
	assert_int_equal(hp_os_sudo_classify(&r, &opts, &e), HP_FALSE);
	snprintf(out, sizeof out, "agent is not in the sudoers file.\n");
	assert_int_equal(hp_os_sudo_classify(&r, &opts, &e), HP_FALSE);
	snprintf(out, sizeof out,
	         "sudo: effective uid is not 0, is /usr/bin/sudo on a file "
	         "system with the 'nosuid' option set?\n");
	assert_int_equal(hp_os_sudo_classify(&r, &opts, &e), HP_UNKNOWN);
	out[0] = '\0';
	assert_int_equal(hp_os_sudo_classify(&r, &opts, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "sudo exited 1: (no output)");
	r.exit_status = 0;
	r.signaled = 9;
	assert_int_equal(hp_os_sudo_classify(&r, &opts, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "sudo was killed by signal 9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answers),
	    cmocka_unit_test(test_unreachable_is_no_sudo),
	    cmocka_unit_test(test_unverified_candidates_not_run),
	    cmocka_unit_test(test_never_exits_is_killed),
	    cmocka_unit_test(test_environment_poisoning),
	    cmocka_unit_test(test_descriptors),
	    cmocka_unit_test(test_runs_in_turn),
	    cmocka_unit_test(test_announced_runs),
	    cmocka_unit_test(test_real_sudo),
	    cmocka_unit_test(test_classify),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
