/* sysbackend.c: the live/rootfs backend's set-up, its role context and the
 * dispatch of each probe to the file that answers it. */
#include "probe/sysb.h"
#include "probe/env_answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "os/bounded_read.h"

const char hp_probe_sysb_needs_live[] = "needs a live sandbox";

const char *hp_probe_sysb_reason(hp_pool *pool, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	const char *r = hp_pool_strndup(pool, buf, strlen(buf));
	return r ? r : "memory limit";
}

hp_value hp_probe_sysb_unknown(hp_pool *pool, hp_probe_id p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	const char *r = hp_pool_strndup(pool, buf, strlen(buf));
	return hp_v_unknown(hp_probes[p].result, r ? r : "memory limit");
}

hp_value hp_probe_sysb_str(hp_pool *pool, hp_probe_id p, const char *s, size_t len)
{
	if (len > HP_VALUE_MAX_STRING)
		return hp_probe_sysb_unknown(pool, p, "the answer is longer than %u bytes",
		                       HP_VALUE_MAX_STRING);
	char *c = hp_pool_strndup(pool, s, len);
	if (!c)
		return hp_v_unknown(hp_probes[p].result, "memory limit");
	return hp_v_str(c, (uint32_t)len);
}

/* The ENV worker: the check's own environment, never the agent's. */
hp_value hp_probe_sysb_env(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	(void)s;
	switch (p) {
	case HP_PROBE_ENV:
		return hp_probe_env_answer(arg->u.s.p, pool);
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, ENV, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered from the environment", hp_probes[p].name);
}

/* The DOC worker: a document question that reached the system backend is
 * about a document the check was not given (those given are answered in
 * front of this backend, probe/docset.h). */
hp_value hp_probe_sysb_doc(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	(void)s;
	switch (p) {
	case HP_PROBE_DOC_BOOL:
	case HP_PROBE_DOC_INT:
	case HP_PROBE_DOC_STR:
	case HP_PROBE_DOC_EXISTS:
	case HP_PROBE_DOC_COUNT:
	case HP_PROBE_DOC_STRS: {
		const char *q = arg->u.s.p, *colon = strchr(q, ':');
		int n = colon ? (int)(colon - q) : (int)strlen(q);
		return hp_probe_sysb_unknown(pool, p,
		                       "no document '%.*s' was given (check --document %.*s=FILE)",
		                       n, q, n, q);
	}
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, DOC, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered from a document", hp_probes[p].name);
}

static hp_value sys_ask(hp_backend *b, hp_role role, hp_probe_id p, const hp_value *arg,
                        hp_pool *pool)
{
	hp_sysbackend *s = (hp_sysbackend *)b;
	if ((unsigned)p >= HP_PROBE_COUNT)
		return hp_v_unknown(HP_T_NONE, "no such probe");
	const hp_probe_info *pi = &hp_probes[p];
	if (arg->state != HP_VAL_KNOWN || arg->type != pi->arg)
		return hp_probe_sysb_unknown(pool, p, "%s: the argument is not a known %s", pi->name,
		                       hp_type_names[pi->arg]);
	if (pi->scope == HP_SCOPE_ROLE && role != s->role.role)
		return hp_probe_sysb_unknown(pool, p, "%s: asked as %s in the process of role %s",
		                       pi->name, hp_role_names[role % HP_ROLE_COUNT],
		                       hp_role_names[s->role.role]);
	if (pi->needs == HP_NEEDS_LIVE && s->kind == HP_SYS_ROOTFS)
		return hp_v_skipped(pi->result, hp_probe_sysb_needs_live);
	if (pi->asks == HP_ASKS_HELPER && s->role.role != HP_ROLE_ROOT && s->helper_fd >= 0)
		return hp_probe_sysb_helper_ask(s, p, arg, pool);
	/* one case per probe, to the worker of its part (sysb.h) */
	switch (p) {
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	case HP_PROBE_##id:                                                                  \
		return HP_SYSB_WORKER_##part(s, p, arg, pool);
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_v_unknown(HP_T_NONE, "no such probe");
}

static void sys_destroy(hp_backend *b)
{
	hp_sysbackend *s = (hp_sysbackend *)b;
	hp_probe_sysb_proc_reset(s);
	hp_probe_sysb_path_reset(s);
	hp_probe_sys_helper_forked(s);
	hp_probe_sysb_etc_free(s);
	for (size_t i = 0; i < s->nscans; i++)
		hp_os_suid_list_free(&s->scans[i].list);
	free(s->scans);
	hp_os_suid_list_free(&s->image);
	free(s->cred_groups);
	hp_os_root_close(&s->root);
	free(s);
}

static const hp_backend_ops live_ops = {"live", sys_ask, sys_destroy, NULL};
static const hp_backend_ops rootfs_ops = {"rootfs", sys_ask, sys_destroy, NULL};

hp_sysbackend *hp_probe_sys_open(const hp_sys_opts *o, hp_err *err)
{
	bool offline = o->kind == HP_SYS_ROOTFS;
	const char *dir = offline ? o->root_dir : "/";
	if (!dir || !*dir) {
		hp_err_set(err, "no image root given");
		return NULL;
	}
	hp_sysbackend *s = hp_xcalloc(1, sizeof *s);
	s->base.ops = offline ? &rootfs_ops : &live_ops;
	s->kind = o->kind;
	s->read_cap = o->read_cap ? o->read_cap : HP_READ_CAP_DEFAULT;
	unsigned flags = o->root_flags | (offline ? HP_ROOT_OFFLINE : 0u);
	if (hp_os_root_open(&s->root, dir, flags, err) != HP_TRUE) {
		free(s);
		return NULL;
	}
	if (offline) {
		struct statvfs sv;
		if (fstatvfs(s->root.fd, &sv) == 0) {
			s->image_mnt_flags = sv.f_flag;
			s->image_mnt_known = true;
		}
	}
	s->role.role = HP_ROLE_ROOT;
	s->caps_ok = s->mounts_ok = HP_UNKNOWN;
	s->helper_fd = -1;
	return s;
}

hp_backend *hp_probe_sys_backend(hp_sysbackend *s)
{
	return &s->base;
}

const hp_root *hp_probe_sys_root(const hp_sysbackend *s)
{
	return &s->root;
}

bool hp_probe_sys_offline(const hp_sysbackend *s)
{
	return s->kind == HP_SYS_ROOTFS;
}

void hp_probe_sys_preload(hp_sysbackend *s, const bool used[HP_PROBE_COUNT])
{
	hp_probe_sysb_etc_preload(s, used);
}

hp_tri hp_probe_sys_user_ids(hp_sysbackend *s, const char *name, int64_t uid, uid_t *out_uid,
                       gid_t *out_gid, gid_t **gids, size_t *ngids, hp_err *why)
{
	return hp_probe_sysb_etc_user_ids(s, name, uid, out_uid, out_gid, gids, ngids, why);
}

void hp_probe_sys_set_role(hp_sysbackend *s, const hp_sys_role *r)
{
	hp_probe_sysb_proc_reset(s);
	hp_probe_sysb_path_reset(s);
	free(s->cred_groups);
	s->cred_groups = NULL;
	s->role = *r;
	if (r->cred.ngroups) {
		s->cred_groups = hp_xmalloc(r->cred.ngroups * sizeof *s->cred_groups);
		memcpy(s->cred_groups, r->cred.groups, r->cred.ngroups * sizeof *s->cred_groups);
	}
	s->role.cred.groups = s->cred_groups;
}
