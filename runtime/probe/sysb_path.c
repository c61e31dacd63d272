/* sysb_path.c: the path probes of the live/rootfs backend: a path's
 * existence, type, owner, mode and links, whether the role can read, write,
 * execute or replace it, the setuid-root executables in a directory, and
 * the role's view and memory that sysb_entries.c (the names in a
 * directory the role could change) and sysb_tree.c (whole trees) share.
 * Which answer rootfs gives when it can both ask the kernel and compute is
 * documented in docs/runtime.md ("Access offline"). */
#include "probe/sysb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/command_files.h"
#include "etc/loader_dirs.h"
#include "os/mount_content.h"
#include "os/replace.h"
#include "os/setuid_image.h"
#include "os/setuid_scan.h"
#include "os/sysx.h"
#include "os/walkmemo.h"

/* --- resolution in the role's view ---------------------------------------------- */

typedef struct {
	const hp_cred *cred;
	bool denied; /* the role cannot search a directory on the way */
	bool unknown;
	hp_err why;
} search_ctx;

/* computed: every directory a step looks in must be searchable by the role */
static void check_search(void *vctx, const hp_step *st)
{
	search_ctx *c = vctx;
	if (c->denied || c->unknown)
		return;
	hp_err e;
	hp_tri t = hp_os_access_computed(st->dirfd, c->cred, HP_ACC_EXEC, &e);
	if (t == HP_TRUE)
		return;
	if (t == HP_FALSE) {
		c->denied = true;
		hp_err_set(&c->why, "the role cannot search the directory holding '%s' (computed)",
		           st->name);
	} else {
		c->unknown = true;
		hp_err_set(&c->why, "the directory holding '%s': %s", st->name, e.msg);
	}
}

/* Resolve path as the role sees it: by the kernel when the process has the
 * role's identity, else by a walk that checks, from owners, modes and ACLs,
 * that the role can search every directory on the way. A directory that
 * refuses search is HP_FALSE with HP_RES_DENIED_FALSE, else unknown. */
hp_tri hp_probe_sysb_resolve_as_role(hp_sysbackend *s, const char *path, unsigned flags, int *fd,
                              hp_err *why)
{
	if (s->role.as_role)
		return hp_os_resolve(&s->root, path, flags, fd, why);
	search_ctx c;
	memset(&c, 0, sizeof c);
	c.cred = &s->role.cred;
	/* this process is not the role: a directory refusing it search says
	 * nothing about the role, and is unknown */
	hp_tri t = hp_os_resolve_walk(&s->root, path, flags & ~(unsigned)HP_RES_DENIED_FALSE,
	                           check_search, &c, fd, why);
	if ((c.denied || c.unknown) && t != HP_UNKNOWN) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		hp_err_set(why, "%s: %s", path, c.why.msg);
		return c.denied && (flags & HP_RES_DENIED_FALSE) ? HP_FALSE : HP_UNKNOWN;
	}
	return t;
}

/* --- access -------------------------------------------------------------------- */

static const char *yes_no(hp_tri t)
{
	return t == HP_TRUE ? "yes" : "no";
}

/* Whether the kernel's answer, for the process that has the role's identity,
 * says something about the image: its mount on this machine must not deny
 * what the image's own mount would allow. */
static bool kernel_means(const hp_sysbackend *s, int mode, bool isdir)
{
	if (!s->role.as_role || !s->image_mnt_known)
		return false;
	if ((mode & HP_ACC_WRITE) && (s->image_mnt_flags & ST_RDONLY))
		return false;
	if ((mode & HP_ACC_EXEC) && !isdir && (s->image_mnt_flags & ST_NOEXEC))
		return false;
	return true;
}

/* rootfs: the computed answer, checked against the kernel's when that
 * means something; a disagreement is unknown. */
static hp_tri offline_answer(hp_sysbackend *s, hp_tri computed, const hp_err *cwhy, hp_tri kernel,
                             const hp_err *kwhy, bool asked, const char *what, hp_err *why)
{
	if (computed == HP_UNKNOWN) {
		hp_err_set(why, "%s", cwhy->msg);
		return HP_UNKNOWN;
	}
	if (!asked || kernel == HP_UNKNOWN || kernel == computed) {
		(void)kwhy;
		return computed;
	}
	hp_err_set(why,
	           "%s%sthe kernel, asked as %s on this machine, says %s; the image's owners, "
	           "modes and ACLs say %s (an LSM, a mount option or the filesystem here "
	           "differs from the image's)",
	           what ? what : "", what ? ": " : "", hp_role_names[s->role.role], yes_no(kernel),
	           yes_no(computed));
	return HP_UNKNOWN;
}

/* --- the role process's memory (sysb.h) ------------------------------------------ */

const hp_self *hp_probe_sysb_self(hp_sysbackend *s)
{
	if (!s->self_read) {
		hp_os_self_read(&s->self);
		s->self_read = true;
	}
	return &s->self;
}

hp_dircache *hp_probe_sysb_dirs(hp_sysbackend *s)
{
	if (!s->dirs)
		s->dirs = hp_os_dircache_new();
	return s->dirs;
}

hp_walkmemo *hp_probe_sysb_walks(hp_sysbackend *s)
{
	if (!s->walks)
		s->walks = hp_os_walkmemo_new();
	return s->walks;
}

void hp_probe_sysb_path_reset(hp_sysbackend *s)
{
	s->self_read = false;
	hp_os_dircache_free(s->dirs);
	s->dirs = NULL;
	hp_os_walkmemo_free(s->walks);
	s->walks = NULL;
	for (size_t i = 0; i < s->nentries; i++) {
		for (size_t j = 0; j < s->entries[i].n; j++)
			free(s->entries[i].names[j]);
		free(s->entries[i].names);
	}
	free(s->entries);
	s->entries = NULL;
	s->nentries = s->cap_entries = 0;
	free(s->trees);
	s->trees = NULL;
	s->ntrees = s->cap_trees = 0;
}

/* fi: fd's facts when the caller has them, else NULL */
hp_tri hp_probe_sysb_access_for(hp_sysbackend *s, int fd, const hp_fileinfo *fi, int mode,
                                hp_err *why)
{
	if (s->kind == HP_SYS_LIVE)
		return hp_os_access_live_self(fd, fi, hp_probe_sysb_self(s), mode, why);
	hp_err ce, ke;
	ce.msg[0] = ke.msg[0] = '\0';
	hp_tri c = hp_os_access_computed(fd, &s->role.cred, mode, &ce);
	hp_fileinfo own;
	if (!fi && hp_os_fd_info(fd, &own, &ke) == HP_TRUE)
		fi = &own;
	bool isdir = fi && fi->type == HP_FT_DIR;
	bool asked = kernel_means(s, mode, isdir);
	hp_tri k = asked ? hp_os_access_live_self(fd, fi, hp_probe_sysb_self(s), mode, &ke) : HP_UNKNOWN;
	return offline_answer(s, c, &ce, k, &ke, asked, NULL, why);
}

hp_tri hp_probe_sysb_default_acl_for(hp_sysbackend *s, int fd, const hp_fileinfo *fi,
                                     hp_err *why)
{
	const hp_cred *c = s->kind == HP_SYS_LIVE ? NULL : &s->role.cred;
	return hp_os_access_default_acl(fd, fi, c, HP_ACC_WRITE, why);
}

hp_tri hp_probe_sysb_replaceable_for(hp_sysbackend *s, const char *path, hp_err *why)
{
	if (s->kind == HP_SYS_LIVE)
		return hp_os_replaceable_live_self(&s->root, path, hp_probe_sysb_self(s),
		                                   hp_probe_sysb_dirs(s), hp_probe_sysb_walks(s),
		                                   why);
	hp_err ce, ke;
	ce.msg[0] = ke.msg[0] = '\0';
	hp_tri c = hp_os_replaceable_computed(&s->root, path, &s->role.cred, &ce);
	bool asked = kernel_means(s, HP_ACC_WRITE | HP_ACC_EXEC, true);
	hp_tri k =
	    asked ? hp_os_replaceable_live_self(&s->root, path, hp_probe_sysb_self(s),
	                                        hp_probe_sysb_dirs(s), hp_probe_sysb_walks(s), &ke)
	          : HP_UNKNOWN;
	hp_tri t = offline_answer(s, c, &ce, k, &ke, asked, path, why);
	if (t == HP_TRUE)
		hp_err_set(why, "%s", ce.msg);
	return t;
}

/* --- the probes ---------------------------------------------------------------- */

/* A global probe that could not be answered in a role's own process. */
static hp_value global_unknown(hp_sysbackend *s, hp_probe_id p, const hp_err *e, hp_pool *pool)
{
	if (s->role.role != HP_ROLE_ROOT && s->role.as_role && geteuid() != 0)
		return hp_probe_sysb_unknown(pool, p,
		                       "%s (asked in the %s role's process, which sees only what "
		                       "%s can reach: ask %s in an `as root` block)",
		                       e->msg, hp_role_names[s->role.role],
		                       hp_role_names[s->role.role], hp_probes[p].name);
	return hp_probe_sysb_unknown(pool, p, "%s", e->msg);
}

/* What file_fact answers about a path. */
typedef enum { FACT_TYPE, FACT_OWNER, FACT_GROUP_OWNER, FACT_MODE, FACT_LINKS } file_fact_kind;

static hp_value file_fact(hp_sysbackend *s, hp_probe_id p, const char *path, file_fact_kind k,
                          hp_pool *pool)
{
	hp_fileinfo fi;
	hp_err e;
	unsigned flags = k == FACT_TYPE ? HP_RES_NOFOLLOW : 0;
	hp_tri t = hp_os_path_info(&s->root, path, flags, &fi, &e);
	if (t == HP_FALSE)
		return hp_v_absent(hp_probes[p].result, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return global_unknown(s, p, &e, pool);
	switch (k) {
	case FACT_TYPE: {
		const char *n = hp_os_ftype_name(fi.type);
		return hp_v_str(n, (uint32_t)strlen(n));
	}
	case FACT_OWNER:
		if (fi.uid == hp_os_overflow_uid())
			return hp_probe_sysb_unknown(
			    pool, p,
			    "%s: owned by the overflow uid %u (an owner this user "
			    "namespace cannot map)",
			    path, (unsigned)fi.uid);
		return hp_v_int((int64_t)fi.uid);
	case FACT_GROUP_OWNER:
		if (fi.gid == hp_os_overflow_gid())
			return hp_probe_sysb_unknown(
			    pool, p,
			    "%s: owned by the overflow gid %u (a group this user "
			    "namespace cannot map)",
			    path, (unsigned)fi.gid);
		return hp_v_int((int64_t)fi.gid);
	case FACT_MODE:
		return hp_v_int((int64_t)fi.mode);
	case FACT_LINKS:
		return hp_v_int((int64_t)fi.nlink);
	}
	return hp_probe_sysb_unknown(pool, p, "%s: no such file fact", hp_probes[p].name);
}

/* The identity of the directory path leads to: 1, 0 when it does not
 * exist or cannot be looked at (the scan then says why). */
static int dir_key(hp_sysbackend *s, const char *path, dev_t *dev, ino_t *ino)
{
	hp_fileinfo fi;
	hp_err e;
	if (hp_os_path_info(&s->root, path, 0, &fi, &e) != HP_TRUE || fi.type != HP_FT_DIR)
		return 0;
	*dev = fi.dev;
	*ino = fi.ino;
	return 1;
}

/* The scan of dir, from the cache when the same directory was scanned
 * already; NULL (why set, *missing when it does not exist) otherwise. */
static const hp_suid_list *scan_of(hp_sysbackend *s, const char *dir, bool *missing, hp_err *why)
{
	*missing = false;
	dev_t dev;
	ino_t ino;
	int known = dir_key(s, dir, &dev, &ino);
	for (size_t i = 0; known && i < s->nscans; i++)
		if (s->scans[i].dev == dev && s->scans[i].ino == ino)
			return &s->scans[i].list;
	hp_suid_list l;
	hp_tri t = hp_os_setuid_scan(&s->root, dir, HP_SETUID_SCAN_MAX_DEFAULT, &l, why);
	if (t != HP_TRUE) {
		*missing = t == HP_FALSE;
		return NULL;
	}
	dev_t dev2;
	ino_t ino2;
	/* cached only when the path led to the same directory before and
	 * after the scan, so the list is that directory's */
	if (!known || !dir_key(s, dir, &dev2, &ino2) || dev2 != dev || ino2 != ino) {
		s->scans = hp_xgrow(s->scans, &s->cap_scans, s->nscans + 1, sizeof *s->scans);
		s->scans[s->nscans] = (struct hp_sysb_scan){0, 0, l};
		/* kept, under no key, so that the list outlives this answer */
		return &s->scans[s->nscans++].list;
	}
	s->scans = hp_xgrow(s->scans, &s->cap_scans, s->nscans + 1, sizeof *s->scans);
	s->scans[s->nscans] = (struct hp_sysb_scan){dev, ino, l};
	return &s->scans[s->nscans++].list;
}

static hp_value setuid_list(hp_sysbackend *s, hp_probe_id p, const char *dir, hp_pool *pool)
{
	hp_err e;
	bool missing;
	const hp_suid_list *l = scan_of(s, dir, &missing, &e);
	if (!l && missing)
		return hp_v_list(NULL, 0); /* no directory: nothing in it */
	if (!l)
		return global_unknown(s, p, &e, pool);
	if (l->n > HP_VALUE_MAX_LIST)
		return hp_probe_sysb_unknown(
		    pool, p, "%s: %zu setuid-root entries, more than a list holds", dir, l->n);
	hp_str *items = l->n ? hp_pool_alloc(pool, l->n * sizeof *items) : NULL;
	if (l->n && !items)
		return hp_v_unknown(HP_T_LIST, "memory limit");
	for (size_t i = 0; i < l->n; i++) {
		size_t len = strlen(l->v[i].name);
		char *c = hp_pool_strndup(pool, l->v[i].name, len);
		if (!c)
			return hp_v_unknown(HP_T_LIST, "memory limit");
		items[i] = (hp_str){c, (uint32_t)len};
	}
	return hp_v_list(items, (uint32_t)l->n);
}

/* The whole image's walk, once per process: both probes answer from it. */
static const hp_suid_list *image_walk(hp_sysbackend *s, hp_err *why)
{
	if (!s->image_walked) {
		s->image_walked = true;
		hp_mounts m = {0};
		bool live = s->kind == HP_SYS_LIVE;
		s->image_ok = HP_TRUE;
		if (live && hp_os_mounts_read(&m, &s->image_why) != HP_TRUE)
			s->image_ok = HP_UNKNOWN;
		if (s->image_ok == HP_TRUE) {
			hp_setuid_budget b;
			memset(&b, 0, sizeof b);
			s->image_ok = hp_os_setuid_image(&s->root, live ? &m : NULL, &b, &s->image,
			                                 &s->image_why);
		}
		if (live)
			hp_os_mounts_free(&m);
	}
	if (s->image_ok != HP_TRUE) {
		*why = s->image_why;
		return NULL;
	}
	return &s->image;
}

/* setuid_image: the paths of the walk's entries that raise to root (want
 * HP_RAISES_ROOT); setid_image: of every entry (want 0: each one sets some
 * identity, or carries capabilities). */
static hp_value image_list(hp_sysbackend *s, hp_probe_id p, unsigned want, hp_pool *pool)
{
	hp_err e;
	const hp_suid_list *l = image_walk(s, &e);
	if (!l)
		return global_unknown(s, p, &e, pool);
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!want || (l->v[i].why & want))
			n++;
	if (n > HP_VALUE_MAX_LIST)
		return hp_probe_sysb_unknown(pool, p, "%zu set-id entries, more than a list holds", n);
	hp_str *items = hp_pool_alloc(pool, (n ? n : 1) * sizeof *items);
	if (!items)
		return hp_v_unknown(HP_T_LIST, "memory limit");
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (want && !(l->v[i].why & want))
			continue;
		size_t len = strlen(l->v[i].name);
		char *c = len <= HP_VALUE_MAX_STRING ? hp_pool_strndup(pool, l->v[i].name, len) : NULL;
		if (!c)
			return hp_v_unknown(HP_T_LIST, "memory limit");
		items[k++] = (hp_str){c, (uint32_t)len};
	}
	return hp_v_list(items, (uint32_t)n);
}

/* A list value of l's strings, in the pool, for probe p; l is freed. */
static hp_value strv_list(hp_strv *l, hp_probe_id p, hp_pool *pool)
{
	hp_value v = hp_v_unknown(HP_T_LIST, "memory limit");
	hp_str *items = NULL;
	size_t i = 0;
	if (l->n > HP_VALUE_MAX_LIST) {
		v = hp_probe_sysb_unknown(pool, p, "%zu names, more than a list holds", l->n);
		goto out;
	}
	items = hp_pool_alloc(pool, (l->n ? l->n : 1) * sizeof *items);
	for (; items && i < l->n; i++) {
		size_t len = strlen(l->v[i]);
		if (len > HP_VALUE_MAX_STRING) {
			v = hp_probe_sysb_unknown(pool, p, "a name longer than a string holds");
			goto out;
		}
		char *c = hp_pool_strndup(pool, l->v[i], len);
		if (!c)
			break;
		items[i] = (hp_str){c, (uint32_t)len};
	}
	if (items && i == l->n)
		v = hp_v_list(items, (uint32_t)l->n);
out:
	hp_strv_free(l);
	return v;
}

static hp_value command_files(hp_sysbackend *s, const char *spec, hp_pool *pool)
{
	hp_probe_id p = HP_PROBE_COMMAND_FILES;
	hp_strv l;
	hp_err e;
	hp_tri t = hp_os_command_files(&s->root, spec, &l, &e);
	if (t == HP_FALSE)
		return hp_v_absent(HP_T_LIST, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return global_unknown(s, p, &e, pool);
	return strv_list(&l, p, pool);
}

static hp_value loader_dirs(hp_sysbackend *s, hp_pool *pool)
{
	hp_strv l;
	hp_err e;
	if (hp_etc_loader_dirs(&s->root, &l, &e) != HP_TRUE)
		return global_unknown(s, HP_PROBE_LOADER_DIRS, &e, pool);
	return strv_list(&l, HP_PROBE_LOADER_DIRS, pool);
}

static hp_value writable_ancestor(hp_sysbackend *s, hp_probe_id p, const char *path,
                                  hp_pool *pool)
{
	hp_err e;
	e.msg[0] = '\0';
	hp_tri t = hp_probe_sysb_replaceable_for(s, path, &e);
	if (t == HP_UNKNOWN)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	return hp_v_bool(t == HP_TRUE);
}

/* For a path that resolved to nothing: whether the first name on the way
 * that leads nowhere is a symlink (the dangling link itself, or one in a
 * parent's place). Such a path is there in all but its target: whoever
 * can create what the link names makes the path exist after the check
 * (an /etc/ld.so.preload linked to a file the agent may create later), so
 * exists() counts it as existing. HP_TRUE: a link leads nowhere;
 * HP_FALSE: a plain name is missing; HP_UNKNOWN with why. */
static hp_tri dangling_on_way(hp_sysbackend *s, const char *path, hp_err *why)
{
	size_t len = strlen(path);
	char *prefix = hp_xmalloc(len + 1);
	hp_tri t = HP_FALSE;
	for (size_t i = 1; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		int fd = -1;
		hp_tri followed = hp_probe_sysb_resolve_as_role(s, prefix, 0, &fd, why);
		if (fd >= 0)
			close(fd);
		if (followed == HP_TRUE)
			continue;
		t = followed;
		if (followed == HP_FALSE) {
			fd = -1;
			t = hp_probe_sysb_resolve_as_role(s, prefix, HP_RES_NOFOLLOW, &fd, why);
			if (fd >= 0)
				close(fd);
		}
		break;
	}
	free(prefix);
	return t;
}

/* Whether the path exists in the role's view (mode 0), or whether the role
 * may access it in mode (HP_ACC_*). */
static hp_value role_path(hp_sysbackend *s, hp_probe_id p, const char *path, int mode,
                          hp_pool *pool)
{
	hp_err e;
	e.msg[0] = '\0';
	int fd;
	/* A role that a directory on the way refuses search cannot read, write
	 * or run the path by its name: the kernel has answered. Whether the
	 * path exists is then not known to the role. */
	hp_tri t = hp_probe_sysb_resolve_as_role(s, path, mode == 0 ? 0 : HP_RES_DENIED_FALSE, &fd, &e);
	if (mode == 0 && t == HP_FALSE)
		t = dangling_on_way(s, path, &e);
	if (mode == 0 || t != HP_TRUE) {
		if (fd >= 0)
			close(fd);
		/* a path that does not exist cannot be read, written or run
		 * (whether it could be created is writable_ancestor's question) */
		if (t == HP_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		return hp_v_bool(t == HP_TRUE);
	}
	t = hp_probe_sysb_access_for(s, fd, NULL, mode, &e);
	close(fd);
	if (t == HP_UNKNOWN)
		return hp_probe_sysb_unknown(pool, p, "%s: %s", path, e.msg);
	return hp_v_bool(t == HP_TRUE);
}

/* The PATH worker (sysb.h). */
hp_value hp_probe_sysb_path(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	const char *path = arg->u.s.p;
	switch (p) {
	case HP_PROBE_TYPE:
		return file_fact(s, p, path, FACT_TYPE, pool);
	case HP_PROBE_OWNER:
		return file_fact(s, p, path, FACT_OWNER, pool);
	case HP_PROBE_GROUP_OWNER:
		return file_fact(s, p, path, FACT_GROUP_OWNER, pool);
	case HP_PROBE_MODE:
		return file_fact(s, p, path, FACT_MODE, pool);
	case HP_PROBE_LINKS:
		return file_fact(s, p, path, FACT_LINKS, pool);
	case HP_PROBE_SETUID_ROOT:
		return setuid_list(s, p, path, pool);
	case HP_PROBE_WRITABLE_ANCESTOR:
		return writable_ancestor(s, p, path, pool);
	case HP_PROBE_SETUID_IMAGE:
		return image_list(s, p, HP_RAISES_ROOT, pool);
	case HP_PROBE_SETID_IMAGE:
		return image_list(s, p, 0, pool);
	case HP_PROBE_COMMAND_FILES:
		return command_files(s, path, pool);
	case HP_PROBE_LOADER_DIRS:
		return loader_dirs(s, pool);
	case HP_PROBE_TREE_WRITABLE:
		return hp_probe_sysb_tree_writable(s, path, pool);
	case HP_PROBE_TREE_WRITABLE_BY:
		return hp_probe_sysb_tree_writable_by(s, path, pool);
	case HP_PROBE_EXISTS:
		return role_path(s, p, path, 0, pool);
	case HP_PROBE_READABLE:
		return role_path(s, p, path, HP_ACC_READ, pool);
	case HP_PROBE_WRITABLE:
		return role_path(s, p, path, HP_ACC_WRITE, pool);
	case HP_PROBE_EXECUTABLE:
		return role_path(s, p, path, HP_ACC_EXEC, pool);
	case HP_PROBE_WRITABLE_ENTRIES:
		return hp_probe_sysb_writable_entries(s, p, path, pool);
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, PATH, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered from paths", hp_probes[p].name);
}
