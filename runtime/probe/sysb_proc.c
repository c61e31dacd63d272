/* sysb_proc.c: the live probes about the role's own process and the
 * processes around it: its capability sets and no_new_privs (capstate.h),
 * another role's canary (canary.h), visible processes (procs.h), mounts
 * (mounts.h), and sudo, which the parent asked before the role's process
 * started (session.c). Offline these are never asked: sysbackend.c answers
 * them "needs a live sandbox". */
#include "probe/sysb.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "os/canary.h"
#include "os/pipe_word.h"
#include "os/procs.h"
#include "os/sysx.h"

void hp_probe_sysb_proc_reset(hp_sysbackend *s)
{
	if (s->mounts_read && s->mounts_ok == HP_TRUE)
		hp_os_mounts_free(&s->mounts);
	s->mounts_read = s->caps_read = s->procs_read = false;
	s->mounts_ok = s->caps_ok = HP_UNKNOWN;
}

/* The sudo job's answer (sysbackend.h, sudo_pending), read once. */
static void sudo_collect(hp_sysbackend *s)
{
	if (!s->role.sudo_pending)
		return;
	s->role.sudo_pending = false;
	char buf[sizeof s->sudo_msg.msg + 1];
	bool ended;
	size_t n = hp_os_pipe_word(s->role.sudo_fd, buf, sizeof buf - 1,
	                           hp_os_now_ms() + s->role.sudo_wait_ms, &ended);
	buf[n] = '\0';
	close(s->role.sudo_fd);
	s->role.sudo_fd = -1;
	if (n >= 1 && buf[0] >= '0' && buf[0] <= '2') {
		s->role.sudo = (hp_tri)(buf[0] - '0');
		hp_err_set(&s->sudo_msg, "%s", buf + 1);
	} else {
		s->role.sudo = HP_UNKNOWN;
		hp_err_set(&s->sudo_msg, "sudo: the probe gave no answer before the check's deadline");
	}
	s->role.sudo_why = s->sudo_msg.msg;
}

/* The check's word for procs_visible (sysbackend.h, procs_fd), read once:
 * the pids not to count, until the pipe closes. */
static hp_tri procs_word(hp_sysbackend *s, hp_err *why)
{
	if (!s->procs_read) {
		s->procs_read = true;
		s->procs_ok = HP_TRUE;
		s->nprocs_skip = 0;
		if (s->role.procs_pending) {
			s->role.procs_pending = false;
			/* one byte more than a word may hold: a longer one is
			 * malformed, not late */
			unsigned char buf[sizeof s->procs_skip + 1];
			bool closed;
			size_t n = hp_os_pipe_word(s->role.procs_fd, buf, sizeof buf,
			                           hp_os_now_ms() + s->role.procs_wait_ms, &closed);
			close(s->role.procs_fd);
			s->role.procs_fd = -1;
			if (n == sizeof buf) {
				hp_err_set(&s->procs_why, "procs_visible: the check's word about its own "
				                          "processes is malformed");
				s->procs_ok = HP_UNKNOWN;
			} else if (!closed) {
				hp_err_set(&s->procs_why, "procs_visible: the check did not say which "
				                          "processes are its own in time");
				s->procs_ok = HP_UNKNOWN;
			} else if (n % sizeof(pid_t) != 0) {
				hp_err_set(&s->procs_why, "procs_visible: the check's word about its own "
				                          "processes is malformed");
				s->procs_ok = HP_UNKNOWN;
			} else {
				memcpy(s->procs_skip, buf, n);
				s->nprocs_skip = n / sizeof(pid_t);
			}
		}
	}
	if (s->procs_ok != HP_TRUE)
		*why = s->procs_why;
	return s->procs_ok;
}

/* The role's answers are the role's process's: a process that does not
 * have the identity cannot give them. */
static bool not_as_role(hp_sysbackend *s, hp_probe_id p, hp_pool *pool, hp_value *out)
{
	if (s->role.as_role)
		return false;
	*out = hp_probe_sysb_unknown(pool, p, "%s: this process does not have the %s role's identity",
	                       hp_probes[p].name, hp_role_names[s->role.role]);
	return true;
}

/* What caps_probe answers from the role's capability state. */
typedef enum {
	CAPS_EFFECTIVE,
	CAPS_PERMITTED,
	CAPS_INHERITABLE,
	CAPS_AMBIENT,
	CAPS_BOUNDING,
	CAPS_NO_NEW_PRIVS,
} caps_kind;

static hp_value caps_probe(hp_sysbackend *s, hp_probe_id p, caps_kind k, hp_pool *pool)
{
	if (!s->caps_read) {
		s->caps_read = true;
		s->caps_ok = hp_os_capstate_self(&s->caps, &s->caps_why);
	}
	if (s->caps_ok != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", s->caps_why.msg);
	switch (k) {
	case CAPS_EFFECTIVE:
		return hp_v_caps(s->caps.effective);
	case CAPS_PERMITTED:
		return hp_v_caps(s->caps.permitted);
	case CAPS_INHERITABLE:
		return hp_v_caps(s->caps.inheritable);
	case CAPS_AMBIENT:
		return hp_v_caps(s->caps.ambient);
	case CAPS_BOUNDING:
		return hp_v_caps(s->caps.bounding);
	case CAPS_NO_NEW_PRIVS:
		return hp_v_bool(s->caps.no_new_privs != 0);
	}
	return hp_probe_sysb_unknown(pool, p, "%s: no such capability fact", hp_probes[p].name);
}

static hp_value canary_probe(hp_sysbackend *s, hp_probe_id p, unsigned target, hp_pool *pool)
{
	if (target >= HP_ROLE_COUNT)
		return hp_probe_sysb_unknown(pool, p, "%s: no such role", hp_probes[p].name);
	hp_canary *c = s->role.canary[target];
	hp_err e;
	const char *why = s->role.canary_why[target];
	bool ready = c && c->pid > 0;
	/* nothing is tried on a canary that has not said it runs as its role */
	if (ready && hp_os_canary_ready(c, &e) != HP_TRUE) {
		ready = false;
		why = e.msg;
	}
	if (!ready)
		return hp_probe_sysb_unknown(pool, p, "%s(canary %s): no canary of %s is running%s%s",
		                       hp_probes[p].name, hp_role_names[target],
		                       hp_role_names[target], why ? ": " : "", why ? why : "");
	hp_tri t;
	if (p == HP_PROBE_SIGNAL)
		t = hp_os_canary_signal(c, &e);
	else if (p == HP_PROBE_PTRACE)
		t = hp_os_canary_ptrace(c, &e);
	else
		t = hp_os_canary_proc_mem(c, &e);
	if (t == HP_UNKNOWN)
		return hp_probe_sysb_unknown(pool, p, "%s(canary %s): %s", hp_probes[p].name,
		                       hp_role_names[target], e.msg);
	return hp_v_bool(t == HP_TRUE);
}

static hp_value mount_probe(hp_sysbackend *s, hp_probe_id p, const char *path, hp_pool *pool)
{
	if (!s->mounts_read) {
		s->mounts_read = true;
		s->mounts_ok = hp_os_mounts_read(&s->mounts, &s->mounts_why);
	}
	if (s->mounts_ok != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", s->mounts_why.msg);
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(&s->root, path, 0, &fd, &e);
	if (t == HP_FALSE)
		return hp_v_absent(hp_probes[p].result, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_value v;
	const char *type = NULL;
	if (p == HP_PROBE_MOUNT_POINT)
		t = hp_os_mount_point(&s->mounts, fd, &e);
	else if (p == HP_PROBE_READ_ONLY)
		t = hp_os_mount_read_only(&s->mounts, fd, &e);
	else
		t = hp_os_mount_fs_type(&s->mounts, fd, &type, &e);
	close(fd);
	if (t == HP_UNKNOWN)
		v = hp_probe_sysb_unknown(pool, p, "%s: %s", path, e.msg);
	else if (p == HP_PROBE_FS_TYPE)
		v = hp_probe_sysb_str(pool, p, type, strlen(type));
	else
		v = hp_v_bool(t == HP_TRUE);
	return v;
}

/* The PROC worker (sysb.h). */
hp_value hp_probe_sysb_proc(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	hp_value out;
	if (not_as_role(s, p, pool, &out))
		return out;
	switch (p) {
	case HP_PROBE_SUDO:
		sudo_collect(s);
		if (!s->role.sudo_asked)
			return hp_probe_sysb_unknown(pool, p,
			                       "sudo was not asked before the %s role's "
			                       "process started",
			                       hp_role_names[s->role.role]);
		if (s->role.sudo == HP_UNKNOWN)
			return hp_probe_sysb_unknown(
			    pool, p, "%s", s->role.sudo_why ? s->role.sudo_why : "sudo: unknown");
		return hp_v_bool(s->role.sudo == HP_TRUE);
	case HP_PROBE_CAPS_EFFECTIVE:
		return caps_probe(s, p, CAPS_EFFECTIVE, pool);
	case HP_PROBE_CAPS_PERMITTED:
		return caps_probe(s, p, CAPS_PERMITTED, pool);
	case HP_PROBE_CAPS_INHERITABLE:
		return caps_probe(s, p, CAPS_INHERITABLE, pool);
	case HP_PROBE_CAPS_AMBIENT:
		return caps_probe(s, p, CAPS_AMBIENT, pool);
	case HP_PROBE_CAPS_BOUNDING:
		return caps_probe(s, p, CAPS_BOUNDING, pool);
	case HP_PROBE_NO_NEW_PRIVS:
		return caps_probe(s, p, CAPS_NO_NEW_PRIVS, pool);
	case HP_PROBE_SIGNAL:
	case HP_PROBE_PTRACE:
	case HP_PROBE_PROC_MEM:
		return canary_probe(s, p, arg->u.role, pool);
	case HP_PROBE_PROCS_VISIBLE: {
		int64_t uid = arg->u.i;
		if (uid < 0 || uid >= 4294967295LL)
			return hp_probe_sysb_unknown(pool, p, "procs_visible(%lld): not a uid",
			                       (long long)uid);
		hp_err e;
		/* the canaries this process was handed have switched (or
		 * failed) before the processes are counted, as when the
		 * check waited for them before it started this process */
		for (int r = 0; r < HP_ROLE_COUNT; r++)
			if (s->role.canary[r] && s->role.canary[r]->pid > 0)
				(void)hp_os_canary_ready(s->role.canary[r], &e);
		/* and the other roles' runs beside this one are skipped, or over */
		if (procs_word(s, &e) != HP_TRUE)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		hp_tri t = hp_os_procs_visible((uid_t)uid, HP_PROCS_MAX_DEFAULT, s->procs_skip,
		                               s->nprocs_skip, &e);
		if (t == HP_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		return hp_v_bool(t == HP_TRUE);
	}
	case HP_PROBE_MOUNT_POINT:
	case HP_PROBE_READ_ONLY:
	case HP_PROBE_FS_TYPE:
		return mount_probe(s, p, arg->u.s.p, pool);
	case HP_PROBE_PROCESS_UID: {
		uid_t ru, eu, su;
		if (getresuid(&ru, &eu, &su) < 0)
			return hp_probe_sysb_unknown(pool, p, "process_uid: cannot read this process's uids");
		if (ru != eu || eu != su)
			return hp_probe_sysb_unknown(pool, p,
			                       "process_uid: the real, effective and saved uids "
			                       "differ (%u, %u, %u)",
			                       (unsigned)ru, (unsigned)eu, (unsigned)su);
		return hp_v_int((int64_t)eu);
	}
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, PROC, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered by the %s backend", hp_probes[p].name,
	                       s->base.ops->name);
}
