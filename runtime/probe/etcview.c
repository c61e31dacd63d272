/* etcview.c: a root's users, groups and empty passwords, read once
 * (etcview.h). */
#include "probe/etcview.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/bounded_read.h"
#include "os/child.h"
#include "etc/nsswitch.h"
#include "etc/shadow.h"
#include "etc/sudoers/sudoers.h"
#include "lib/textesc.h"
#include "etc/userdb.h"

enum { SHADOW_CHILD_MS = 5000, TAG_PW = 1 };

typedef struct {
	char *name;
	hp_tri empty;
	char *why;
} pw_entry;

struct hp_etcview {
	const hp_root *root;
	size_t cap;
	unsigned loaded;
	hp_nsswitch ns;
	bool ns_read;
	hp_userdb *db;
	hp_err db_why; /* why db is NULL */
	hp_sudoers *sudoers;
	hp_err uid0; /* a uid-0 finding, or empty */
	bool shadow_ok;
	hp_err shadow_why; /* why shadow_ok is false */
	pw_entry *pw;
	size_t npw;
};

hp_etcview *hp_probe_etcview_new(const hp_root *r, size_t cap)
{
	hp_etcview *v = hp_xcalloc(1, sizeof *v);
	v->root = r;
	v->cap = cap;
	hp_err_set(&v->db_why, "etc/passwd and etc/group were not read");
	hp_err_set(&v->shadow_why, "etc/shadow was not read");
	return v;
}

void hp_probe_etcview_free(hp_etcview *v)
{
	if (!v)
		return;
	hp_etc_userdb_free(v->db);
	hp_sudoers_free(v->sudoers);
	for (size_t i = 0; i < v->npw; i++) {
		free(v->pw[i].name);
		free(v->pw[i].why);
	}
	free(v->pw);
	free(v);
}

/* Whether a directory holds anything (a systemd user record, a varlink
 * service): HP_TRUE, HP_FALSE (empty or missing), HP_UNKNOWN. */
static hp_tri dir_has_entries(const hp_root *r, const char *path, hp_err *why)
{
	int fd;
	hp_tri t = hp_os_resolve(r, path, 0, &fd, why);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_FALSE : HP_UNKNOWN;
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	close(fd);
	if (dfd < 0) {
		if (e == ENOTDIR)
			return HP_TRUE; /* something that is not a directory: not nothing */
		hp_err_set(why, "%s: %s", path, strerror(e));
		return HP_UNKNOWN;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		hp_err_set(why, "%s: %s", path, strerror(errno));
		return HP_UNKNOWN;
	}
	hp_tri res = HP_FALSE;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			hp_err_set(why, "%s/%s exists", path, de->d_name);
			res = HP_TRUE;
			break;
		}
	}
	if (!de && errno) {
		hp_err_set(why, "%s: %s", path, strerror(errno));
		res = HP_UNKNOWN;
	}
	closedir(d);
	return res;
}

static hp_tri systemd_records(const hp_root *r, hp_err *why)
{
	hp_tri any = HP_FALSE;
	for (const char *const *p = hp_etc_nss_userdb_paths; *p && any != HP_TRUE; p++) {
		hp_err e;
		hp_tri t = dir_has_entries(r, *p, &e);
		if (t != HP_FALSE) {
			any = t;
			hp_err_set(why, "%s", e.msg);
		}
	}
	return any;
}

/* Whether the files are the whole truth for db; why otherwise. */
static bool files_only(const hp_root *r, const hp_nsswitch *ns, hp_nss_db db, hp_err *why)
{
	hp_err se;
	se.msg[0] = '\0';
	hp_tri sd = HP_FALSE;
	if (ns->src[db] == HP_NSS_FILES_SYSTEMD)
		sd = systemd_records(r, &se);
	hp_err e;
	hp_tri t = hp_etc_nsswitch_files_only(ns, db, sd, &e);
	if (t == HP_TRUE)
		return true;
	if (sd != HP_FALSE && se.msg[0])
		hp_err_set(why, "%s (%s)", e.msg, se.msg);
	else
		hp_err_set(why, "%s", e.msg);
	return false;
}

static void read_nsswitch_file(const hp_root *r, size_t cap, hp_nsswitch *ns)
{
	char *buf;
	size_t len;
	hp_err e;
	hp_tri t = hp_os_read_file_in_root(r, "etc/nsswitch.conf", cap, &buf, &len, &e);
	if (t == HP_TRUE) {
		hp_etc_nsswitch_parse(buf, len, "etc/nsswitch.conf", ns);
		free(buf);
	} else if (t == HP_FALSE) {
		hp_etc_nsswitch_default(ns, "etc/nsswitch.conf");
	} else {
		/* unreadable: every database is in doubt */
		for (int d = 0; d < HP_NSS_NDB; d++) {
			ns->src[d] = HP_NSS_MALFORMED;
			snprintf(ns->why[d], sizeof ns->why[d], "%.200s", e.msg);
		}
	}
}

/* etc/nsswitch.conf, read once. */
static const hp_nsswitch *nsswitch_of(hp_etcview *v)
{
	if (!v->ns_read) {
		v->ns_read = true;
		read_nsswitch_file(v->root, v->cap, &v->ns);
	}
	return &v->ns;
}

static hp_tri read_etc(const hp_root *r, const char *path, size_t cap, char **buf, size_t *len,
                       hp_err *why)
{
	hp_tri t = hp_os_read_file_in_root(r, path, cap, buf, len, why);
	if (t == HP_FALSE)
		hp_err_set(why, "%s does not exist", path);
	return t;
}

static void load_users(hp_etcview *v)
{
	const hp_nsswitch *ns = nsswitch_of(v);
	hp_err e;
	if (!files_only(v->root, ns, HP_NSS_PASSWD, &e) ||
	    !files_only(v->root, ns, HP_NSS_GROUP, &e)) {
		hp_err_set(&v->db_why, "%s", e.msg);
		return;
	}
	char *pw = NULL, *gr = NULL;
	size_t pwlen = 0, grlen = 0;
	if (read_etc(v->root, "etc/passwd", v->cap, &pw, &pwlen, &e) != HP_TRUE ||
	    read_etc(v->root, "etc/group", v->cap, &gr, &grlen, &e) != HP_TRUE) {
		hp_err_set(&v->db_why, "%s", e.msg);
		free(pw);
		return;
	}
	v->db = hp_etc_userdb_parse(pw, pwlen, "etc/passwd", gr, grlen, "etc/group", &e);
	free(pw);
	free(gr);
	if (!v->db) {
		hp_err_set(&v->db_why, "%s", e.msg);
		return;
	}
	if (hp_etc_userdb_nfindings(v->db))
		hp_err_set(&v->uid0, "%s", hp_etc_userdb_finding(v->db, 0));
}

/* --- etc/shadow, in a child ----------------------------------------------------- */

typedef struct {
	hp_etcview *v;
} shadow_arg;

/* In the child: read and parse etc/shadow, send each user's verdict. */
static int shadow_child(void *varg, hp_frame_writer *out)
{
	hp_etcview *v = ((shadow_arg *)varg)->v;
	char *buf = NULL;
	size_t len = 0;
	hp_err e;
	e.msg[0] = '\0';
	hp_shadow *sh = NULL;
	hp_tri t = read_etc(v->root, "etc/shadow", v->cap, &buf, &len, &e);
	if (t == HP_TRUE) {
		sh = hp_etc_shadow_parse(buf, len, "etc/shadow", &e);
		free(buf);
	}
	for (size_t i = 0; i < hp_etc_userdb_nusers(v->db); i++) {
		const hp_user *u = hp_etc_userdb_user_at(v->db, i);
		hp_err why;
		why.msg[0] = '\0';
		hp_tri r = hp_etc_password_empty(v->db, sh, "etc/shadow", u->name, &why);
		if (r == HP_UNKNOWN && !sh && strcmp(u->passwd, "x") == 0)
			hp_err_set(&why, "%s", t == HP_FALSE ? "etc/shadow does not exist" : e.msg);
		hp_buf rec = {0};
		hp_buf_putc(&rec, (char)('0' + r));
		hp_buf_append(&rec, u->name, strlen(u->name) + 1);
		hp_buf_append(&rec, why.msg, strlen(why.msg));
		hp_frame_add(out, TAG_PW, rec.data, rec.len);
		hp_buf_free(&rec);
	}
	hp_etc_shadow_free(sh);
	return 0;
}

static void load_shadow(hp_etcview *v)
{
	if (!v->db) {
		hp_err_set(&v->shadow_why, "%s", v->db_why.msg);
		return;
	}
	hp_err e;
	if (!files_only(v->root, nsswitch_of(v), HP_NSS_SHADOW, &e)) {
		hp_err_set(&v->shadow_why, "%s", e.msg);
		return;
	}
	size_t n = hp_etc_userdb_nusers(v->db), bytes = 4096;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(hp_etc_userdb_user_at(v->db, i)->name) + HP_FRAME_RECORD_HEADER + 2 +
		         sizeof e.msg;
	shadow_arg a = {v};
	hp_child_opts co = {.identity = NULL,
	                    .cwd_fd = v->root->fd,
	                    .keep_fds = &v->root->fd,
	                    .nkeep = 1,
	                    .deadline_ms = SHADOW_CHILD_MS,
	                    .max_msg = bytes,
	                    .max_records = n + 2};
	hp_frame f;
	if (hp_os_child_run(&co, shadow_child, &a, &f, &e) != HP_TRUE) {
		hp_err_set(&v->shadow_why, "etc/shadow: %s", e.msg);
		return;
	}
	v->pw = hp_xcalloc(n ? n : 1, sizeof *v->pw);
	for (size_t i = 0; i < f.n; i++) {
		const hp_frame_rec *rec = &f.rec[i];
		const char *d = (const char *)rec->data;
		const char *nul = rec->len > 1 ? memchr(d + 1, '\0', rec->len - 1) : NULL;
		if (rec->tag != TAG_PW || !nul || d[0] < '0' || d[0] > '2' || v->npw == n ||
		    memchr(nul + 1, '\0', rec->len - (size_t)(nul + 1 - d))) {
			if (rec->tag == TAG_PW)
				v->npw = n + 1;
			continue;
		}
		pw_entry *p = &v->pw[v->npw++];
		p->empty = (hp_tri)(d[0] - '0');
		p->name = hp_xstrdup(d + 1);
		p->why = hp_xstrndup(nul + 1, rec->len - (size_t)(nul + 1 - d));
	}
	hp_frame_free(&f);
	if (v->npw != n) {
		for (size_t i = 0; i < v->npw && i < n; i++) {
			free(v->pw[i].name);
			free(v->pw[i].why);
		}
		free(v->pw);
		v->pw = NULL;
		v->npw = 0;
		hp_err_set(&v->shadow_why,
		           "etc/shadow: the reading process sent a malformed answer");
		return;
	}
	v->shadow_ok = true;
}

/* --- sudoers, through the root ---------------------------------------------------- */

static hp_sudo_io sudo_read(void *ctx, const char *path, char **buf, size_t *len, hp_err *err)
{
	hp_etcview *v = ctx;
	hp_tri t = hp_os_read_file_in_root(v->root, path, v->cap, buf, len, err);
	if (t == HP_TRUE)
		return HP_SUDO_IO_OK;
	return t == HP_FALSE ? HP_SUDO_IO_MISSING : HP_SUDO_IO_ERROR;
}

static hp_sudo_io sudo_list(void *ctx, const char *path, char ***names, hp_err *err)
{
	hp_etcview *v = ctx;
	*names = NULL;
	int fd;
	hp_tri t = hp_os_resolve(v->root, path, 0, &fd, err);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_SUDO_IO_MISSING : HP_SUDO_IO_ERROR;
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	close(fd);
	if (dfd < 0) {
		hp_err_set(err, "%s: %s", path, strerror(e));
		return e == ENOTDIR ? HP_SUDO_IO_NOT_REGULAR : HP_SUDO_IO_ERROR;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		hp_err_set(err, "%s: %s", path, strerror(errno));
		return HP_SUDO_IO_ERROR;
	}
	size_t n = 0, cap = 16;
	char **v_names = hp_xcalloc(cap, sizeof *v_names);
	hp_sudo_io res = HP_SUDO_IO_OK;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n > HP_SUDOERS_MAX_DIR_ENTRIES) {
			hp_err_set(err, "%s: more than %d entries", path,
			           HP_SUDOERS_MAX_DIR_ENTRIES);
			res = HP_SUDO_IO_ERROR;
			break;
		}
		v_names = hp_xgrow(v_names, &cap, n + 2, sizeof *v_names);
		v_names[n++] = hp_xstrdup(de->d_name);
		v_names[n] = NULL;
		errno = 0;
	}
	if (res == HP_SUDO_IO_OK && !de && errno) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		res = HP_SUDO_IO_ERROR;
	}
	closedir(d);
	if (res != HP_SUDO_IO_OK) {
		for (size_t i = 0; i < n; i++)
			free(v_names[i]);
		free(v_names);
		return res;
	}
	*names = v_names;
	return HP_SUDO_IO_OK;
}

static void load_sudoers(hp_etcview *v)
{
	hp_sudo_files files = {v, sudo_read, sudo_list};
	v->sudoers = hp_sudoers_load_system(&files, nsswitch_of(v));
}

void hp_probe_etcview_load(hp_etcview *v, unsigned what)
{
	if (what & (HP_ETC_SHADOW | HP_ETC_SUDOERS))
		what |= HP_ETC_USERS;
	if ((what & HP_ETC_USERS) && !(v->loaded & HP_ETC_USERS)) {
		v->loaded |= HP_ETC_USERS;
		load_users(v);
	}
	if ((what & HP_ETC_SHADOW) && !(v->loaded & HP_ETC_SHADOW)) {
		v->loaded |= HP_ETC_SHADOW;
		load_shadow(v);
	}
	if ((what & HP_ETC_SUDOERS) && !(v->loaded & HP_ETC_SUDOERS)) {
		v->loaded |= HP_ETC_SUDOERS;
		load_sudoers(v);
	}
}

/* --- questions ------------------------------------------------------------------- */

hp_tri hp_probe_etcview_user(hp_etcview *v, const char *name, uint32_t uid, hp_etc_user *out, hp_err *why)
{
	memset(out, 0, sizeof *out);
	hp_probe_etcview_load(v, HP_ETC_USERS);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	hp_esc_buf eb;
	const hp_user *u = name ? hp_etc_userdb_user(v->db, name) : hp_etc_userdb_user_by_uid(v->db, uid);
	if (!name && uid == 0 && v->uid0.msg[0]) {
		hp_err_set(why, "%s: which account uid 0 names is ambiguous", v->uid0.msg);
		return HP_UNKNOWN;
	}
	if (!u) {
		if (name)
			hp_err_set(why, "no user \"%s\" in etc/passwd", hp_escs(&eb, name));
		else
			hp_err_set(why, "no user with uid %u in etc/passwd", (unsigned)uid);
		return HP_FALSE;
	}
	hp_user_groups g;
	hp_etc_userdb_user_groups(v->db, u, &g);
	out->name = u->name;
	out->home = u->home;
	out->shell = u->shell;
	out->uid = u->uid;
	out->gid = u->gid;
	out->gids = g.gids;
	out->ngids = g.ngids;
	out->groups = g.names;
	out->ngroups = g.nnames;
	return HP_TRUE;
}

void hp_probe_etc_user_free(hp_etc_user *u)
{
	hp_user_groups g = {u->gids, u->ngids, u->groups, u->ngroups};
	hp_etc_user_groups_free(&g);
	memset(u, 0, sizeof *u);
}

hp_tri hp_probe_etcview_group(hp_etcview *v, const char *name, hp_etc_group *out, hp_err *why)
{
	memset(out, 0, sizeof *out);
	hp_probe_etcview_load(v, HP_ETC_USERS);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	const hp_group *g = hp_etc_userdb_group(v->db, name);
	if (!g) {
		hp_esc_buf eb;
		hp_err_set(why, "no group \"%s\" in etc/group", hp_escs(&eb, name));
		return HP_FALSE;
	}
	out->name = g->name;
	out->gid = g->gid;
	out->members = g->members;
	out->nmembers = g->nmembers;
	return HP_TRUE;
}

hp_tri hp_probe_etcview_password_empty(hp_etcview *v, const char *name, int *absent, hp_err *why)
{
	*absent = 0;
	hp_probe_etcview_load(v, HP_ETC_SHADOW);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	const hp_user *u = hp_etc_userdb_user(v->db, name);
	if (!u) {
		hp_esc_buf eb;
		hp_err_set(why, "no user \"%s\" in etc/passwd", hp_escs(&eb, name));
		*absent = 1;
		return HP_FALSE;
	}
	if (u->uid == 0 && v->uid0.msg[0]) {
		hp_err_set(why, "%s: its password counts as much as %s's", v->uid0.msg, name);
		return HP_UNKNOWN;
	}
	if (!v->shadow_ok) {
		hp_err_set(why, "%s", v->shadow_why.msg);
		return HP_UNKNOWN;
	}
	for (size_t i = 0; i < v->npw; i++)
		if (strcmp(v->pw[i].name, name) == 0) {
			if (v->pw[i].empty == HP_UNKNOWN)
				hp_err_set(why, "%s", v->pw[i].why);
			return v->pw[i].empty;
		}
	hp_err_set(why, "etc/shadow: no answer for \"%s\"", name);
	return HP_UNKNOWN;
}

hp_tri hp_probe_etcview_sudoers_grants(hp_etcview *v, const char *name, int *absent, hp_err *why)
{
	*absent = 0;
	hp_probe_etcview_load(v, HP_ETC_SUDOERS);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	if (!hp_etc_userdb_user(v->db, name)) {
		hp_esc_buf eb;
		hp_err_set(why, "no user \"%s\" in etc/passwd", hp_escs(&eb, name));
		*absent = 1;
		return HP_FALSE;
	}
	hp_sudo_verdict sv;
	memset(&sv, 0, sizeof sv);
	hp_tri t = hp_sudoers_grants_user(v->sudoers, v->db, name, &sv);
	hp_err_set(why, "%s", sv.why);
	return t;
}
