/* test_canary.c: one role reaching another's process: signal, ptrace and
 * /proc/PID/mem from a role's child against a canary; the canary's report
 * read by the prober before anything is tried; an agent process hammering
 * the agent-role children while they switch; nothing left over. */
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
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/canary.h"
#include "os/child.h"
#include "fixture.h"
#include "os/identity.h"
#include "os/sysx.h"
#include "sysb_fixture.h"

static hp_identity hangar, agent, agent_plain;

static int setup_ids(void **state)
{
	(void)state;
	hangar = (hp_identity){.kind = HP_ID_KEEP_CAPS,
	                       .uid = FX_HANGAR,
	                       .gid = FX_HANGAR,
	                       .keep_caps = 1ull << CAP_KILL,
	                       .dumpable = 1};
	agent = (hp_identity){
	    .kind = HP_ID_NO_CAPS, .uid = FX_AGENT, .gid = FX_AGENT, .no_new_privs = 1};
	agent_plain =
	    (hp_identity){.kind = HP_ID_PLAIN, .uid = FX_AGENT, .gid = FX_AGENT, .dumpable = 1};
	return 0;
}

static int probe_all(void *arg, hp_frame_writer *out)
{
	const hp_canary *c = arg;
	hp_err e;
	hp_frame_add_u64(out, 1, hp_os_canary_signal(c, &e));
	hp_frame_add_str(out, 11, e.msg);
	hp_frame_add_u64(out, 2, hp_os_canary_ptrace(c, &e));
	hp_frame_add_str(out, 12, e.msg);
	hp_frame_add_u64(out, 3, hp_os_canary_proc_mem(c, &e));
	hp_frame_add_str(out, 13, e.msg);
	return 0;
}

/* fn(c) in a child with identity id (NULL: root) that keeps the nkeep
 * descriptors keep; its records in f. */
static void run_prober(const hp_identity *id, int *keep, size_t nkeep,
                       int (*fn)(void *, hp_frame_writer *), hp_canary *c, hp_frame *f)
{
	hp_child_opts o = {.identity = id,
	                   .cwd_fd = -1,
	                   .keep_fds = keep,
	                   .nkeep = nkeep,
	                   .deadline_ms = 5000,
	                   .max_msg = 65536,
	                   .max_records = 16};
	hp_err e;
	hp_tri t = hp_os_child_run(&o, fn, c, f, &e);
	if (t != HP_TRUE)
		print_error("%s\n", e.msg);
	assert_int_equal(t, HP_TRUE);
}

/* Answers of signal, ptrace, proc_mem from a child with identity id. */
static void probe_as(const hp_identity *id, hp_canary *c, hp_tri want[3])
{
	hp_frame f;
	run_prober(id, &c->pidfd, 1, probe_all, c, &f);
	for (uint16_t k = 1; k <= 3; k++) {
		uint64_t v;
		char *s;
		assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, k), &v), 0);
		assert_int_equal(hp_frame_rec_str(hp_frame_find(&f, (uint16_t)(k + 10)), &s), 0);
		if ((hp_tri)v != want[k - 1])
			print_error("probe %u: %s\n", k, s);
		free(s);
		assert_int_equal(v, want[k - 1]);
	}
	hp_frame_free(&f);
}

static void test_agent_cannot_reach_hangar(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	assert_int_equal(hp_os_canary_start(&c, &hangar, 5000, &e), HP_TRUE);
	hp_tri no[3] = {HP_FALSE, HP_FALSE, HP_FALSE};
	hp_tri yes[3] = {HP_TRUE, HP_TRUE, HP_TRUE};
	probe_as(&agent, &c, no);
	probe_as(&agent_plain, &c, no);
	probe_as(NULL, &c, yes); /* root can */
	pid_t pid = c.pid;
	hp_os_canary_stop(&c);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(fx_count_procs_of_uid(FX_HANGAR), 0);
}

/* A process of the same uid that is dumpable can be reached: the probes
 * can say yes. */
static void test_same_uid_dumpable_is_reachable(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	assert_int_equal(hp_os_canary_start(&c, &agent_plain, 5000, &e), HP_TRUE);
	hp_tri yes[3] = {HP_TRUE, HP_TRUE, HP_TRUE};
	probe_as(&agent_plain, &c, yes);
	hp_os_canary_stop(&c);
}

/* The agent-role child is non-dumpable: a process of the agent uid can
 * signal it but neither trace it nor read its memory. */
static void test_agent_cannot_trace_agent_role_child(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	assert_int_equal(hp_os_canary_start(&c, &agent, 5000, &e), HP_TRUE);
	hp_tri want[3] = {HP_TRUE, HP_FALSE, HP_FALSE};
	probe_as(&agent_plain, &c, want);
	hp_os_canary_stop(&c);
}

static void test_failed_switch_and_dead_canary(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	hp_identity bad = agent;
	bad.uid = (uid_t)-1;
	assert_int_equal(hp_os_canary_start(&c, &bad, 5000, &e), HP_UNKNOWN);
	assert_string_equal(e.msg,
	                    "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
	assert_int_equal(c.pid, 0);
	/* a canary that died is never reported as unreachable */
	assert_int_equal(hp_os_canary_start(&c, &hangar, 5000, &e), HP_TRUE);
	kill(c.pid, SIGKILL);
	siginfo_t si;
	waitid(P_PID, (id_t)c.pid, &si, WEXITED | WNOWAIT);
	assert_int_equal(hp_os_canary_signal(&c, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "canary: it is gone");
	assert_int_equal(hp_os_canary_ptrace(&c, &e), HP_UNKNOWN);
	assert_int_equal(hp_os_canary_proc_mem(&c, &e), HP_UNKNOWN);
	hp_os_canary_stop(&c);
}

/* A canary started without waiting for its report: the prober (here the
 * agent's child) reads it before it tries anything, once; a canary whose
 * switch failed is never tried, and says why. */
static int ready_then_probe(void *arg, hp_frame_writer *out)
{
	hp_canary *c = arg;
	hp_err e;
	hp_tri r = hp_os_canary_ready(c, &e);
	hp_frame_add_u64(out, 4, r);
	hp_frame_add_str(out, 14, r == HP_TRUE ? "" : e.msg);
	hp_frame_add_u64(out, 5, c->word_fd < 0);            /* read and closed */
	hp_frame_add_u64(out, 6, hp_os_canary_ready(c, &e) == r); /* kept */
	if (r == HP_TRUE)
		probe_all(c, out);
	return 0;
}

static void prober_reads(hp_canary *c, hp_tri want_ready, const char *want_why)
{
	int keep[2] = {c->pidfd, c->word_fd};
	hp_frame f;
	run_prober(&agent, keep, 2, ready_then_probe, c, &f);
	uint64_t v;
	char *why;
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 4), &v), 0);
	assert_int_equal(v, want_ready);
	assert_int_equal(hp_frame_rec_str(hp_frame_find(&f, 14), &why), 0);
	assert_string_equal(why, want_why);
	free(why);
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 5), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(hp_frame_rec_u64(hp_frame_find(&f, 6), &v), 0);
	assert_int_equal(v, 1);
	for (uint16_t k = 1; k <= 3; k++) {
		const hp_frame_rec *rec = hp_frame_find(&f, k);
		if (want_ready != HP_TRUE) {
			assert_null(rec); /* nothing tried */
			continue;
		}
		assert_int_equal(hp_frame_rec_u64(rec, &v), 0);
		assert_int_equal(v, HP_FALSE);
	}
	hp_frame_free(&f);
}

static void test_report_read_by_prober(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	assert_int_equal(hp_os_canary_spawn(&c, &hangar, 5000, &e), HP_TRUE);
	assert_true(c.pid > 0);
	assert_true(c.word_fd >= 0);
	prober_reads(&c, HP_TRUE, "");
	hp_os_canary_stop(&c);
	assert_int_equal(c.word_fd, -1);
	hp_identity bad = hangar;
	bad.uid = (uid_t)-1;
	assert_int_equal(hp_os_canary_spawn(&c, &bad, 5000, &e), HP_TRUE);
	prober_reads(&c, HP_UNKNOWN,
	             "identity: uid or gid is -1 (4294967295), which means \"unchanged\"");
	hp_os_canary_stop(&c);
	assert_int_equal(c.pid, 0);
	/* a canary never started is not ready */
	hp_os_canary_init(&c);
	assert_int_equal(hp_os_canary_ready(&c, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, "canary: not started");
	assert_int_equal(fx_count_procs_of_uid(FX_HANGAR), 0);
}

/* The report's wait is measured from the fork, however late it is asked:
 * a report there in time is read after the wait has passed, and one that
 * never comes makes a late ask unknown at once (not a prober held past
 * its own deadline). */
static void test_report_wait_from_fork(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_canary c;
	hp_err e;
	assert_int_equal(hp_os_canary_spawn(&c, &hangar, 100, &e), HP_TRUE);
	usleep(300 * 1000);
	assert_int_equal(hp_os_canary_ready(&c, &e), HP_TRUE);
	hp_os_canary_stop(&c);
	assert_int_equal(hp_os_canary_spawn(&c, &hangar, 100, &e), HP_TRUE);
	/* its report swapped for a pipe nobody writes */
	int p[2];
	assert_int_equal(pipe(p), 0);
	close(c.word_fd);
	c.word_fd = p[0];
	usleep(300 * 1000);
	int64_t t0 = hp_os_now_ms();
	assert_int_equal(hp_os_canary_ready(&c, &e), HP_UNKNOWN);
	assert_true(hp_os_now_ms() - t0 < 50);
	assert_string_equal(e.msg, "canary: no word from it within 100 ms");
	close(p[1]);
	hp_os_canary_stop(&c);
	assert_int_equal(c.word_fd, -1);
	/* a canary never started (zeroed) holds no descriptor to close: fd 0
	 * stays open */
	int saved = dup(0), null = open("/dev/null", O_RDONLY);
	assert_true(null >= 0);
	assert_int_equal(dup2(null, 0), 0);
	memset(&c, 0, sizeof c);
	hp_os_canary_stop(&c);
	assert_true(fcntl(0, F_GETFD) >= 0);
	if (saved >= 0) {
		dup2(saved, 0);
		close(saved);
	}
	close(null);
	assert_int_equal(fx_count_procs_of_uid(FX_HANGAR), 0);
}

/* The signal probe of the live backend, asked as the agent of a hangar
 * canary started without waiting: an answer for one that says "ok", and
 * for one whose switch failed the probe is unknown with its reason (it is
 * never tried: such a canary may still be root when it is asked). */
typedef struct {
	hp_canary *c;
	char got[512];
} probe_ask;

static int signal_as_agent(void *arg)
{
	probe_ask *q = arg;
	hp_canary *can[HP_ROLE_COUNT] = {0};
	can[HP_ROLE_HANGAR] = q->c;
	hp_sysbackend *s = sx_open_live(HP_ROLE_AGENT, FX_AGENT, FX_AGENT, can);
	if (!s)
		return 1;
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value r = hp_v_role(HP_ROLE_HANGAR);
	sx_format(hp_backend_ask(hp_probe_sys_backend(s), HP_ROLE_AGENT, HP_PROBE_SIGNAL, &r, &pool),
	          q->got, sizeof q->got);
	hp_pool_free(&pool);
	hp_backend_destroy(hp_probe_sys_backend(s));
	return 0;
}

static void test_probe_waits_for_report(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	probe_ask *q = mmap(NULL, sizeof *q, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(q != MAP_FAILED);
	hp_canary c;
	hp_err e;
	q->c = &c;
	assert_int_equal(hp_os_canary_spawn(&c, &hangar, 5000, &e), HP_TRUE);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, signal_as_agent, q), 0);
	assert_string_equal(q->got, "false");
	hp_os_canary_stop(&c);
	hp_identity bad = hangar;
	bad.gid = (gid_t)-1;
	assert_int_equal(hp_os_canary_spawn(&c, &bad, 5000, &e), HP_TRUE);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, signal_as_agent, q), 0);
	assert_string_equal(q->got, "unknown (signal(canary hangar): no canary of hangar is running: "
	                            "identity: uid or gid is -1 (4294967295), which means "
	                            "\"unchanged\")");
	hp_os_canary_stop(&c);
	munmap(q, sizeof *q);
}

/* An agent process hammers PTRACE_SEIZE, /proc/PID/mem and pidfd_getfd on
 * every process of the agent uid while agent-role children are forked and
 * switched again and again (bubblewrap CVE-2016-8659). The machine's
 * fs.suid_dumpable is left as it is: it is global, and other suites may run
 * at the same time. */
typedef struct {
	int seize, mem, getfd, tries;
} hammer_counts;

static int hammer(void *arg)
{
	hammer_counts *h = arg;
	pid_t self = getpid();
	for (int64_t end = hp_os_now_ms() + 1500; hp_os_now_ms() < end;) {
		DIR *d = opendir("/proc");
		if (!d)
			return 1;
		struct dirent *de;
		while ((de = readdir(d))) {
			pid_t pid = atoi(de->d_name);
			if (pid <= 0 || pid == self)
				continue;
			char p[64], buf[512];
			snprintf(p, sizeof p, "/proc/%d/status", pid);
			FILE *f = fopen(p, "r");
			if (!f)
				continue;
			unsigned uid = 0;
			while (fgets(buf, sizeof buf, f))
				if (sscanf(buf, "Uid: %u", &uid) == 1)
					break;
			fclose(f);
			if (uid != FX_AGENT)
				continue;
			h->tries++;
			if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) == 0) {
				h->seize++;
				ptrace(PTRACE_DETACH, pid, NULL, NULL);
			}
			snprintf(p, sizeof p, "/proc/%d/mem", pid);
			int fd = open(p, O_RDONLY);
			if (fd >= 0) {
				h->mem++;
				close(fd);
			}
			int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
			if (pfd >= 0) {
				for (int t = 3; t < 8; t++) {
					int g = (int)syscall(SYS_pidfd_getfd, pfd, t, 0);
					if (g >= 0) {
						h->getfd++;
						close(g);
					}
				}
				close(pfd);
			}
		}
		closedir(d);
	}
	return 0;
}

static int sleepy(void *arg, hp_frame_writer *out)
{
	(void)arg;
	hp_frame_add_u64(out, 1, geteuid());
	usleep(2000);
	return 0;
}

static void test_hammering_while_switching(void **state)
{
	(void)state;
	FX_NEED_ROOT();
	hp_err e;
	hammer_counts *h =
	    mmap(NULL, sizeof *h, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(h, 0, sizeof *h);
	pid_t attacker = fork();
	if (attacker == 0) {
		hp_identity a = agent_plain;
		if (hp_os_identity_become(&a, &e) != HP_TRUE)
			_exit(2);
		_exit(hammer(h));
	}
	int ok = 0;
	hp_child_opts o = {.identity = &agent,
	                   .cwd_fd = -1,
	                   .deadline_ms = 5000,
	                   .max_msg = 4096,
	                   .max_records = 4};
	for (int64_t end = hp_os_now_ms() + 1200; hp_os_now_ms() < end;) {
		hp_frame f;
		if (hp_os_child_run(&o, sleepy, NULL, &f, &e) == HP_TRUE) {
			ok++;
			hp_frame_free(&f);
		}
	}
	int st;
	waitpid(attacker, &st, 0);
	print_message("%d agent children, %d attempts on them\n", ok, h->tries);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(ok > 10);
	assert_true(h->tries > 0);
	assert_int_equal(h->seize, 0);
	assert_int_equal(h->mem, 0);
	assert_int_equal(h->getfd, 0);
	munmap(h, sizeof *h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_agent_cannot_reach_hangar),
	    cmocka_unit_test(test_same_uid_dumpable_is_reachable),
	    cmocka_unit_test(test_agent_cannot_trace_agent_role_child),
	    cmocka_unit_test(test_failed_switch_and_dead_canary),
	    cmocka_unit_test(test_report_read_by_prober),
	    cmocka_unit_test(test_probe_waits_for_report),
	    cmocka_unit_test(test_report_wait_from_fork),
	    cmocka_unit_test(test_hammering_while_switching),
	};
	return cmocka_run_group_tests(tests, setup_ids, NULL);
}
