/* session.c: one whole check (session.h): the backend, phase one, a child
 * per role with its identity, canaries and the sudo probe around it, the
 * rule results, and the record. */
#include "check/session.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os/canary.h"
#include "os/child.h"
#include "os/cleanup.h"
#include "check/record.h"
#include "check/role_ident.h"
#include "check/sudo_ahead.h"
#include "os/sudo_live.h"
#include "probe/sysbackend.h"
#include "os/sysx.h"

enum {
	TAG_RESULT = 1,     /* a role's child: its encoded hp_role_result */
	MARGIN_MS = 250,    /* kept back from a child's deadline for the VM to stop by itself */
	BACKSTOP_MS = 2000, /* after the check's deadline, the process ends (cleanup.h) */
	MIN_CHILD_MS = 50,  /* less than this left: the role is not started */
};

/* What a program's region asks: its probes and the roles it names. */
typedef struct {
	bool probe[HP_PROBE_COUNT];
	unsigned roles; /* bit per role pushed as a constant or loaded from a role param */
} region_use;

/* A role's child from its start to its result (role_start, role_finish). */
typedef struct role_job {
	bool active;       /* started, or out already filled: role_finish is due */
	bool seen;         /* its child is of a uid other than 0 (hp_role_ident_seen_by_others) */
	bool child_started; /* the child runs: its result goes to out */
	hp_role role;
	hp_role_result *out;
	hp_child child;
	hp_canary can[HP_ROLE_COUNT];
	char *cwhy[HP_ROLE_COUNT];
	int helper_fd; /* this process's end of the root helper's pair; -1: none */
	int procs_w;   /* the write end of its child's word for procs_visible; -1: none */
	unsigned order; /* its place among the children started beside (1 first); 0: none */
	bool live;
} role_job;

typedef struct {
	const hp_bc *bc;
	const hp_session_opts *o;
	hp_session *s;
	hp_sysbackend *sys; /* live and rootfs */
	hp_backend *b;
	const hp_globals *g; /* phase one's, once it has run */
	bool params_resolved;
	bool root; /* this process can switch identities */
	int64_t end;
	region_use use[HP_ROLE_COUNT];
	hp_role_ident ident[HP_ROLE_COUNT];
	bool ident_done[HP_ROLE_COUNT];
	hp_sudo_ahead sudo[HP_ROLE_COUNT];
	role_job beside[HP_ROLE_COUNT]; /* roles' children running beside the next roles' (runs_beside) */
	unsigned started;               /* how many of them have started */
	char *not_run[HP_ROLE_COUNT]; /* why a role did not run: the notes, in role order */
} sess;

/* --- what the program asks ------------------------------------------------------ */

static void scan_region(const hp_bc *bc, hp_bc_region r, region_use *u)
{
	for (uint32_t pc = r.start; pc < r.start + r.len && pc < bc->ncode; pc++) {
		const hp_insn *in = &bc->code[pc];
		if ((in->op == HP_I_PROBE0 || in->op == HP_I_PROBE1) && in->b < HP_PROBE_COUNT)
			u->probe[in->b] = true;
		else if (in->op == HP_I_PUSH_ROLE && in->a < HP_ROLE_COUNT)
			u->roles |= 1u << in->a;
		else if (in->op == HP_I_LOAD_PARAM && in->c < bc->nparams &&
		         bc->params[in->c].type == HP_T_ROLE)
			u->roles |= 1u << HP_ROLE_COUNT; /* resolved after phase one */
	}
}

/* What each role's code asks (x->use), and in shared the probes phase
 * one or a role other than root asks: what they need is read before the
 * roles' children are forked, so that each inherits it; what root's code
 * alone asks, root's child reads itself. */
static void scan_program(sess *x, bool shared[HP_PROBE_COUNT])
{
	const hp_bc *bc = x->bc;
	region_use g;
	memset(&g, 0, sizeof g);
	for (uint32_t i = 0; i < bc->nparams; i++)
		scan_region(bc, bc->params[i].code, &g);
	for (uint32_t i = 0; i < bc->nconds; i++)
		scan_region(bc, bc->conds[i].code, &g);
	for (uint32_t i = 0; i < bc->nroles; i++)
		scan_region(bc, bc->roles[i].identity, &g);
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		memset(&x->use[r], 0, sizeof x->use[r]);
		if (bc->role_index[r] >= 0)
			scan_region(bc, bc->roles[bc->role_index[r]].body, &x->use[r]);
	}
	for (int p = 0; p < HP_PROBE_COUNT; p++) {
		shared[p] = g.probe[p];
		for (int r = 0; r < HP_ROLE_COUNT; r++)
			if (r != HP_ROLE_ROOT)
				shared[p] = shared[p] || x->use[r].probe[p];
	}
}

/* Whether a region asks a global probe about files, which a non-root
 * role's process gets from the root helper (ASKS HELPER in probes.def). */
static bool uses_global_files(const region_use *u)
{
	for (int p = 0; p < HP_PROBE_COUNT; p++)
		if (u->probe[p] && hp_probes[p].asks == HP_ASKS_HELPER)
			return true;
	return false;
}

/* Roles named through role params, known once phase one has run. */
static void resolve_role_params(sess *x)
{
	unsigned from_params = 0;
	for (uint32_t i = 0; i < x->bc->nparams; i++) {
		const hp_value *v = &x->g->params[i];
		if (x->bc->params[i].type == HP_T_ROLE && v->state == HP_VAL_KNOWN &&
		    v->u.role < HP_ROLE_COUNT)
			from_params |= 1u << v->u.role;
	}
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (x->use[r].roles & (1u << HP_ROLE_COUNT))
			x->use[r].roles =
			    (x->use[r].roles & ((1u << HP_ROLE_COUNT) - 1)) | from_params;
}

/* --- identities ------------------------------------------------------------------- */

/* Role r's identity (role_ident.h), made once per check. */
static const hp_role_ident *ident_of(sess *x, hp_role r)
{
	hp_role_ident *ri = &x->ident[r];
	if (x->ident_done[r])
		return ri;
	x->ident_done[r] = true;
	int idx = x->bc->role_index[r];
	if (x->o->container && idx >= 0)
		hp_role_ident_container(ri, r, !x->o->roles || (x->o->roles & (1u << r)));
	else
		hp_role_ident_of(ri, r, idx >= 0 ? &x->bc->roles[idx] : NULL, &x->g->identity[r],
		                 x->sys);
	return ri;
}

/* --- time ---------------------------------------------------------------------- */

static int left_ms(const sess *x)
{
	int64_t l = x->end - hp_os_now_ms();
	return l <= 0 ? 0 : l > INT32_MAX ? INT32_MAX : (int)l;
}

static hp_limits role_limits(const sess *x, int deadline_ms)
{
	hp_limits l = x->o->limits;
	uint64_t vm_ms = deadline_ms > 2 * MARGIN_MS ? (uint64_t)(deadline_ms - MARGIN_MS)
	                                             : (uint64_t)deadline_ms / 2 + 1;
	if (l.max_millis == 0 || l.max_millis > vm_ms)
		l.max_millis = vm_ms;
	return l;
}

/* --- results that are not runs ---------------------------------------------------- */

static void stopped(hp_role_result *res, hp_role r, const char *reason)
{
	hp_role_result_init(res, r);
	res->status = HP_RUN_STOPPED;
	res->reason = (uint32_t)res->data.len;
	hp_buf_puts(&res->data, reason);
	hp_buf_putc(&res->data, '\0');
}

static void not_run(sess *x, hp_role r, hp_role_result *out, const char *reason)
{
	hp_role_result_not_run(out, r, reason);
	free(x->not_run[r]);
	x->not_run[r] = hp_xstrdup(reason);
}

/* --- sudo, asked before the role's child starts --------------------------------------- */

/* Whether role r's child will start: its sudo job is started ahead
 * (sudo_ahead.h) only then. */
static bool role_will_run(sess *x, hp_role r)
{
	if (x->bc->role_index[r] < 0 || (x->o->roles && !(x->o->roles & (1u << r))))
		return false;
	const hp_role_ident *ri = ident_of(x, r);
	hp_err e;
	return ri->ok && (x->root || hp_role_ident_is_current(ri, r, &e));
}

/* The answer's pipe of every sudo job, before the first role's child:
 * each job itself is started right after its role's child (start_sudo_job),
 * which reads the answer from the pipe when its code asks. */
static void open_sudo_jobs(sess *x)
{
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (x->use[r].probe[HP_PROBE_SUDO] && role_will_run(x, (hp_role)r))
			hp_sudo_ahead_open(&x->sudo[r]);
}

/* Role r's sudo job, its pipe handed to r's child already: started after
 * that child, so that the child, the longest run, starts first. */
static void start_sudo_job(sess *x, hp_role r)
{
	if (x->sudo[r].fd < 0 || x->sudo[r].pid > 0)
		return;
	hp_sudo_ask a = {.root = hp_probe_sys_root(x->sys),
	                 .id = &x->ident[r].id,
	                 .as_root = x->root,
	                 .left_ms = left_ms(x),
	                 .sudo_ms = x->o->sudo_ms ? x->o->sudo_ms : HP_SESSION_SUDO_MS};
	hp_sudo_ahead_start(&x->sudo[r], &a);
}

/* Role r's sudo job handed to its child: the child reads the answer when
 * it asks (hp_sys_role.sudo_pending), so the role's other probes run
 * while sudo does. false when there is no job for it. The job itself is
 * the parent's to stop (reap_sudo_job), once the role's child has
 * finished. */
static bool hand_sudo_job(sess *x, hp_role r, hp_sys_role *ctx)
{
	const hp_sudo_ahead *j = &x->sudo[r];
	if (j->fd < 0)
		return false;
	int left = left_ms(x);
	ctx->sudo_asked = true;
	ctx->sudo = HP_UNKNOWN;
	ctx->sudo_pending = true;
	ctx->sudo_fd = j->fd;
	ctx->sudo_wait_ms = left > 2 * MARGIN_MS ? left - MARGIN_MS : left / 2;
	return true;
}

/* Role r's sudo job stopped (it has written its answer, or it is killed
 * now: nothing it started outlives the role). */
static void reap_sudo_job(sess *x, hp_role r)
{
	hp_sudo_ahead_stop(&x->sudo[r]);
}

/* Jobs whose role never collected them (it did not run after all). */
static void stop_sudo_jobs(sess *x)
{
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		reap_sudo_job(x, (hp_role)r);
}

/* --- a role's run ---------------------------------------------------------------------- */

typedef struct {
	sess *x;
	hp_role role;
	hp_sys_role ctx;
	const hp_identity *self; /* without root: what to restrict in the child */
	hp_limits lim;
} child_arg;

static int role_child(void *varg, hp_frame_writer *out)
{
	child_arg *a = varg;
	if (a->self && hp_role_ident_self_restrict(a->self) < 0)
		return -1;
	hp_probe_sys_set_role(a->x->sys, &a->ctx);
	/* root's child, root, starts no process of another identity: the
	 * password states it asks need no reader process of their own */
	if (a->role == HP_ROLE_ROOT && !a->self && a->ctx.cred.uid == 0 && geteuid() == 0)
		hp_probe_sys_secrets_here(a->x->sys);
	hp_role_result res;
	hp_vm_run_role(a->x->bc, a->x->g, a->role, a->x->b, &a->lim, &res);
	hp_buf enc = {0};
	hp_role_result_encode(&res, &enc);
	hp_role_result_free(&res);
	hp_frame_add(out, TAG_RESULT, enc.data, enc.len);
	hp_buf_free(&enc);
	return 0;
}

/* Canaries of the roles this role probes, started as those roles. */
static void start_canaries(sess *x, hp_role r, hp_canary c[HP_ROLE_COUNT], hp_sys_role *ctx,
                           char *whys[HP_ROLE_COUNT])
{
	const region_use *u = &x->use[r];
	bool wanted =
	    u->probe[HP_PROBE_SIGNAL] || u->probe[HP_PROBE_PTRACE] || u->probe[HP_PROBE_PROC_MEM];
	for (int t = 0; t < HP_ROLE_COUNT; t++) {
		hp_os_canary_init(&c[t]);
		if (!wanted || !(u->roles & (1u << t)))
			continue;
		const hp_role_ident *ti = ident_of(x, (hp_role)t);
		hp_err e;
		if (!ti->ok) {
			whys[t] = hp_xstrdup(ti->why.msg);
		} else if (!x->root && ti->id.kind != HP_ID_UNCHANGED) {
			whys[t] =
			    hp_xasprintf("starting a process as %s needs root", hp_role_names[t]);
		} else {
			hp_identity cid = ti->id;
			/* as the role's real process is after its execve */
			cid.dumpable = 1;
			int dl = left_ms(x) < 2000 ? left_ms(x) : 2000;
			/* its report is the role's child's to read, before it
			 * tries anything on it (hp_os_canary_ready): the child
			 * starts while the canary switches */
			if (dl < MIN_CHILD_MS || hp_os_canary_spawn(&c[t], &cid, dl, &e) != HP_TRUE)
				whys[t] = hp_xstrdup(
				    dl < MIN_CHILD_MS ? "the check's deadline passed" : e.msg);
		}
		ctx->canary[t] = &c[t];
		ctx->canary_why[t] = whys[t];
	}
}


/* Everything up to the role's child running: canaries, the sudo answer's
 * pipe, the helper's pair, the fork, then the sudo job. When the child
 * cannot start, out is filled now. */
static void role_start(sess *x, hp_role r, const hp_role_ident *ri, bool as_self, bool beside,
                       role_job *j, hp_role_result *out)
{
	memset(j, 0, sizeof *j);
	j->active = true;
	j->seen = hp_role_ident_seen_by_others(ri);
	if (beside)
		j->order = ++x->started;
	j->role = r;
	j->out = out;
	j->live = x->o->source == HP_SESSION_LIVE;
	j->helper_fd = -1;
	j->procs_w = -1;
	for (int t = 0; t < HP_ROLE_COUNT; t++)
		hp_os_canary_init(&j->can[t]);
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = r;
	ctx.as_role = true;
	ctx.cred = ri->cred;
	/* the root, canaries and their reports, the sudo job, the helper, the
	 * word for procs_visible */
	int keep[4 + 2 * HP_ROLE_COUNT];
	size_t nkeep = 0;
	keep[nkeep++] = hp_probe_sys_root(x->sys)->fd;
	if (j->live) {
		start_canaries(x, r, j->can, &ctx, j->cwhy);
		for (int t = 0; t < HP_ROLE_COUNT; t++) {
			if (j->can[t].pidfd >= 0)
				keep[nkeep++] = j->can[t].pidfd;
			if (j->can[t].word_fd >= 0)
				keep[nkeep++] = j->can[t].word_fd;
		}
		if (hand_sudo_job(x, r, &ctx))
			keep[nkeep++] = ctx.sudo_fd;
	}
	int dl = left_ms(x);
	ctx.helper_ms = dl;
	if (dl < MIN_CHILD_MS) {
		char *m = hp_xasprintf("role %s not run: the check's deadline of %u ms passed",
		                       hp_role_names[r], x->o->deadline_ms);
		stopped(out, r, m);
		free(m);
		return;
	}
	/* its questions to the root helper are this process's to answer, while
	 * it waits for the child (role_finish) */
	if (r != HP_ROLE_ROOT && x->root && uses_global_files(&x->use[r])) {
		hp_err e;
		if (hp_probe_sys_helper_open(x->sys, &j->helper_fd, &e))
			keep[nkeep++] = hp_probe_sys_helper_fd(x->sys);
	}
	/* beside other roles' children, what it counts of processes waits for
	 * the check's word (tell_procs) */
	int procs_r = -1;
	if (beside && j->seen && x->use[r].probe[HP_PROBE_PROCS_VISIBLE]) {
		int pp[2];
		if (pipe2(pp, O_CLOEXEC) == 0) {
			procs_r = pp[0];
			j->procs_w = pp[1];
			ctx.procs_pending = true;
			ctx.procs_fd = procs_r;
			ctx.procs_wait_ms = dl > 2 * MARGIN_MS ? dl - MARGIN_MS : dl / 2;
			keep[nkeep++] = procs_r;
		}
	}
	/* the child gets its own copy of a (and of the canaries ctx points to)
	 * at the fork: nothing here needs to outlive the start */
	child_arg a = {x, r, ctx, as_self ? &ri->id : NULL, role_limits(x, dl)};
	size_t max = 2 * x->o->limits.max_memory + (1u << 20);
	if (max > HP_SESSION_MAX_RESULT)
		max = HP_SESSION_MAX_RESULT;
	hp_child_opts co = {.identity = as_self ? NULL : &ri->id,
	                    .cwd_fd = hp_probe_sys_root(x->sys)->fd,
	                    .keep_fds = keep,
	                    .nkeep = nkeep,
	                    .deadline_ms = dl,
	                    .max_msg = max,
	                    .max_records = 4};
	hp_err e;
	x->s->ran[r] = true;
	hp_tri started = hp_os_child_start(&co, role_child, &a, &j->child, &e);
	/* the child's end of the helper's pair went with it, and the read end
	 * of its word */
	hp_probe_sys_helper_forked(x->sys);
	if (procs_r >= 0)
		close(procs_r);
	/* the canaries' reports went with the child: this process does not
	 * read them */
	for (int t = 0; t < HP_ROLE_COUNT; t++)
		if (j->can[t].word_fd >= 0) {
			close(j->can[t].word_fd);
			j->can[t].word_fd = -1;
		}
	if (started != HP_TRUE) {
		char *m = hp_xasprintf("role %s: %s", hp_role_names[r], e.msg);
		stopped(out, r, m);
		free(m);
		return;
	}
	j->child_started = true;
	if (j->live)
		start_sudo_job(x, r);
}

/* hp_child_service's serve: one question of a role's child to the root
 * helper, answered by this process. */
static bool serve_helper(void *ctx, int fd, int64_t end)
{
	sess *x = ctx;
	return hp_probe_sys_helper_serve(x->sys, fd, end);
}

/* The role's result from its child (its questions to the root helper
 * answered meanwhile), then its canaries stopped. */
static void role_finish(sess *x, role_job *j)
{
	if (!j->active)
		return;
	j->active = false;
	hp_role r = j->role;
	hp_role_result *out = j->out;
	if (j->child_started) {
		hp_frame f;
		hp_err e;
		hp_child_service svc = {j->helper_fd, serve_helper, x};
		if (hp_os_child_finish_serving(&j->child, j->helper_fd >= 0 ? &svc : NULL, &f, &e) !=
		    HP_TRUE) {
			char *m = hp_xasprintf("role %s: %s", hp_role_names[r], e.msg);
			stopped(out, r, m);
			free(m);
		} else {
			const hp_frame_rec *rec = hp_frame_find(&f, TAG_RESULT);
			hp_err de;
			if (!rec) {
				stopped(out, r, "the role's process sent no result");
			} else if (!hp_role_result_decode(x->bc, rec->data, rec->len, out, &de)) {
				char *m =
				    hp_xasprintf("role %s: its process sent a malformed result: %s",
				                 hp_role_names[r], de.msg);
				stopped(out, r, m);
				free(m);
			} else if (out->role != (uint32_t)r || out->status == HP_RUN_NOT_RUN) {
				hp_role_result_free(out);
				stopped(out, r, "the role's process sent another role's result");
			}
			hp_frame_free(&f);
		}
	}
	if (j->helper_fd >= 0)
		close(j->helper_fd);
	j->helper_fd = -1;
	if (j->procs_w >= 0)
		close(j->procs_w);
	j->procs_w = -1;
	for (int t = 0; t < HP_ROLE_COUNT; t++) {
		if (j->live && j->can[t].pid > 0)
			hp_os_canary_stop(&j->can[t]);
		free(j->cwhy[t]);
	}
	reap_sudo_job(x, r);
}

static void run_role_child(sess *x, hp_role r, const hp_role_ident *ri, bool as_self,
                           hp_role_result *out)
{
	role_job j;
	role_start(x, r, ri, as_self, false, &j, out);
	role_finish(x, &j);
}

/* Whether a role's child may run beside the roles' after it instead of
 * before them: live, when this check is root. A uid-0 child adds nothing
 * to what the other roles can see or reach (the check itself is one,
 * running throughout). Children of other uids run beside one another too,
 * and what each counts of processes (procs_visible) is what it would have
 * counted had they run in turn: the check tells it the processes of the
 * roles started after it, which it skips, and the word comes once the
 * roles started before it are finished (tell_procs, finish_roles). */
static bool runs_beside(const sess *x)
{
	return x->root && x->o->source == HP_SESSION_LIVE;
}

/* Role r's processes, just started (its child, its canaries, its sudo job),
 * told to every child of another uid started before it that waits for the
 * check's word: those are not theirs to count. Pinned: none of them is
 * reaped before every child told has finished (finish_roles finishes in
 * the order they started, and a role's canaries and job are stopped with
 * its child). */
static void tell_procs(sess *x, const role_job *j)
{
	if (!j->child_started || !j->seen)
		return;
	pid_t pids[2 + HP_ROLE_COUNT];
	size_t n = 0;
	pids[n++] = j->child.pid;
	for (int t = 0; t < HP_ROLE_COUNT; t++)
		if (j->can[t].pid > 0)
			pids[n++] = j->can[t].pid;
	if (x->sudo[j->role].pid > 0)
		pids[n++] = x->sudo[j->role].pid;
	for (int k = 0; k < HP_ROLE_COUNT; k++) {
		role_job *o = &x->beside[k];
		if (o == j || !o->active || o->procs_w < 0 || o->order >= j->order)
			continue;
		/* a few pids in one write to a pipe: whole, and never blocking */
		if (write(o->procs_w, pids, n * sizeof *pids) != (ssize_t)(n * sizeof *pids)) {
			/* no word then: the child finds the pipe closed early with
			 * less than it needs and counts all it sees (at worst the
			 * other role's child too: a stricter answer) */
			close(o->procs_w);
			o->procs_w = -1;
		}
	}
}

/* eval.h's finish hook: the results of the roles whose children ran
 * beside the others, in the order they started. No role starts after
 * this: before each is waited for, its word ends (the roles before it
 * are finished by then), so that it may count processes. */
static void finish_roles(void *ctx)
{
	sess *x = ctx;
	for (unsigned o = 1; o <= x->started; o++)
		for (int r = 0; r < HP_ROLE_COUNT; r++) {
			role_job *j = &x->beside[r];
			if (!j->active || j->order != o)
				continue;
			if (j->procs_w >= 0) {
				close(j->procs_w);
				j->procs_w = -1;
			}
			role_finish(x, j);
		}
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		role_finish(x, &x->beside[r]);
}

/* rootfs without root, and facts: the role's checks in this process. */
static void run_role_here(sess *x, hp_role r, const hp_role_ident *ri, hp_role_result *out)
{
	if (x->sys) {
		hp_sys_role ctx;
		memset(&ctx, 0, sizeof ctx);
		ctx.role = r;
		ctx.as_role = false;
		ctx.cred = ri->cred;
		hp_probe_sys_set_role(x->sys, &ctx);
	}
	hp_limits lim = role_limits(x, left_ms(x));
	hp_vm_run_role(x->bc, x->g, r, x->b, &lim, out);
	x->s->ran[r] = true;
}

/* eval.h's hook: one role's run, whichever way this session runs it. */
static void run_role(void *ctx, const hp_bc *bc, const hp_globals *g, hp_role r, hp_backend *b,
                     const hp_limits *lim, hp_role_result *out)
{
	sess *x = ctx;
	hp_session *s = x->s;
	(void)bc;
	(void)b;
	(void)lim;
	x->g = g;
	if (!x->params_resolved) {
		x->params_resolved = true;
		resolve_role_params(x);
		if (x->o->source == HP_SESSION_LIVE)
			open_sudo_jobs(x);
	}
	if (x->o->roles && !(x->o->roles & (1u << r))) {
		char *m =
		    hp_xasprintf("role %s not run: not selected with --role", hp_role_names[r]);
		not_run(x, r, out, m);
		free(m);
		return;
	}
	if (left_ms(x) < MIN_CHILD_MS) {
		char *m = hp_xasprintf("role %s not run: the check's deadline of %u ms passed",
		                       hp_role_names[r], x->o->deadline_ms);
		stopped(out, r, m);
		free(m);
		return;
	}
	if (x->o->source == HP_SESSION_FACTS) {
		run_role_here(x, r, NULL, out);
		s->roles_run++;
		return;
	}
	const hp_role_ident *ri = ident_of(x, r);
	if (!ri->ok) {
		stopped(out, r, ri->why.msg);
		return;
	}
	if (x->o->source == HP_SESSION_ROOTFS && !x->root) {
		run_role_here(x, r, ri, out);
		s->roles_run++;
		return;
	}
	bool as_self = false;
	if (!x->root) {
		hp_err e;
		if (!hp_role_ident_is_current(ri, r, &e)) {
			not_run(x, r, out, e.msg);
			return;
		}
		as_self = true;
	}
	s->roles_run++;
	if (!as_self && runs_beside(x)) {
		/* out is filled by finish_roles, after the next roles have started */
		role_start(x, r, ri, as_self, true, &x->beside[r], out);
		tell_procs(x, &x->beside[r]);
		return;
	}
	run_role_child(x, r, ri, as_self, out);
}

/* --- the whole check --------------------------------------------------------------- */

void hp_session_opts_default(hp_session_opts *o)
{
	memset(o, 0, sizeof *o);
	o->source = HP_SESSION_LIVE;
	hp_limits_default(&o->limits);
	o->deadline_ms = HP_SESSION_DEFAULT_MS;
	o->sudo_ms = HP_SESSION_SUDO_MS;
}

bool hp_session_role_bit(const char *name, unsigned *mask, hp_err *err)
{
	int r = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, name);
	if (r < 0) {
		char roles[64];
		hp_err_set(err, "--role %s: not a role (roles: %s)", name,
		           hp_names_text(roles, sizeof roles, hp_role_names, HP_ROLE_COUNT, NULL));
		return false;
	}
	*mask |= 1u << r;
	return true;
}

hp_session_status hp_session_run(const hp_bc *bc, const hp_session_opts *o, hp_session *s,
                                 hp_err *err)
{
	memset(s, 0, sizeof *s);
	int64_t start = hp_os_now_ms();
	sess x;
	memset(&x, 0, sizeof x);
	x.bc = bc;
	x.o = o;
	x.s = s;
	x.root = geteuid() == 0;
	x.end = start + (o->deadline_ms ? o->deadline_ms : HP_SESSION_DEFAULT_MS);
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		hp_sudo_ahead_init(&x.sudo[r]);
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if ((o->roles & (1u << r)) && bc->role_index[r] < 0) {
			hp_err_set(err, "--role %s: the policy declares no role %s",
			           hp_role_names[r], hp_role_names[r]);
			return HP_SESSION_USAGE;
		}
	bool shared[HP_PROBE_COUNT];
	scan_program(&x, shared);
	/* a backstop beyond the deadline every child already keeps: what this
	 * process does itself could block on a hung filesystem */
	hp_os_cleanup_install((o->deadline_ms ? o->deadline_ms : HP_SESSION_DEFAULT_MS) + BACKSTOP_MS);
	if (o->source == HP_SESSION_FACTS) {
		if (!o->facts) {
			hp_err_set(err, "no facts were given");
			hp_os_cleanup_restore();
			return HP_SESSION_FAILED;
		}
		x.b = o->facts;
	} else {
		hp_sys_opts so = {.kind =
		                      o->source == HP_SESSION_ROOTFS ? HP_SYS_ROOTFS : HP_SYS_LIVE,
		                  .root_dir = o->root_dir,
		                  .root_flags = o->root_flags};
		x.sys = hp_probe_sys_open(&so, err);
		if (!x.sys) {
			hp_os_cleanup_restore();
			return HP_SESSION_FAILED;
		}
		x.b = hp_probe_sys_backend(x.sys);
		s->offline = hp_probe_sys_offline(x.sys);
		/* root's own files (its shadow, its sudoers) are its child's to
		 * read, beside the agent's run, unless something else asks too;
		 * without root every role runs here, and reads what it asks */
		hp_probe_sys_preload(x.sys, shared);
	}
	hp_backend *inner = x.b;
	if (o->docs)
		x.b = hp_probe_docset_backend(o->docs, x.b);
	s->backend = inner->ops->name;
	hp_limits l1 = role_limits(&x, left_ms(&x));
	hp_eval_opts eo = {
	    .run_role = run_role, .finish = finish_roles, .ctx = &x, .roles = 0, .limits = &l1};
	hp_session_status st = HP_SESSION_OK;
	if (!hp_eval_run(bc, x.b, o->params, o->nparams, &eo, &s->eval, err)) {
		st = HP_SESSION_USAGE;
	} else {
		if (s->offline)
			for (int r = 0; r < HP_ROLE_COUNT; r++)
				for (uint32_t k = 0; k < s->eval.roles[r].noutcomes; k++)
					s->live_needed +=
					    s->eval.roles[r].outcomes[k].kind == HP_OUT_SKIPPED;
		if (o->record && !hp_record_write(o->record, bc, &s->eval.globals, s->eval.roles,
		                                  s->backend, o->container, err))
			st = HP_SESSION_FAILED;
	}
	finish_roles(&x); /* nothing if the evaluation finished them */
	stop_sudo_jobs(&x);
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		if (x.not_run[r]) {
			hp_strv_push(&s->notes, x.not_run[r]);
			free(x.not_run[r]);
		}
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		hp_role_ident_free(&x.ident[r]);
	if (x.sys)
		hp_backend_destroy(inner);
	hp_os_cleanup_restore();
	s->millis = hp_os_now_ms() - start;
	return st;
}

void hp_session_free(hp_session *s)
{
	hp_eval_free(&s->eval);
	hp_strv_free(&s->notes);
	memset(s, 0, sizeof *s);
}
