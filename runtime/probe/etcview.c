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
#include <sys/stat.h>
#include <unistd.h>

#include "os/bounded_read.h"
#include "os/child.h"
#include "etc/nsswitch.h"
#include "etc/pam.h"
#include "etc/shadow.h"
#include "etc/sudoers/sudoers.h"
#include "lib/textesc.h"
#include "etc/userdb.h"

enum { SHADOW_CHILD_MS = 5000, TAG_PW = 1, TAG_GPW = 2 };

typedef struct {
	char *name;
	hp_pw_state state;
	char *why;
	char *admins;  /* groups: gshadow's administrators, comma-separated */
	char *members; /* groups: gshadow's members, comma-separated */
	char gshadow;  /* groups: GS_ENTRY, GS_NO_ENTRY or GS_NO_FILE */
} pw_entry;

/* Whether etc/gshadow had an entry for a group, as the child tells it. */
enum { GS_ENTRY = 'e', GS_NO_ENTRY = 'n', GS_NO_FILE = 'f' };

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
	bool secrets_here; /* etc/shadow read in this process (hp_probe_etcview_secrets_here) */
	hp_err shadow_why; /* why shadow_ok is false */
	pw_entry *pw;
	size_t npw;
	pw_entry *gpw; /* per group, in etc/group's order */
	size_t ngpw;
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
	for (size_t i = 0; i < v->ngpw; i++) {
		free(v->gpw[i].name);
		free(v->gpw[i].why);
		free(v->gpw[i].admins);
		free(v->gpw[i].members);
	}
	free(v->gpw);
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
	DIR *d = hp_os_opendir_path(fd);
	if (!d) {
		if (errno == ENOTDIR)
			return HP_TRUE; /* something that is not a directory: not nothing */
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

/* In the child: read and parse etc/shadow and etc/gshadow, send each
 * user's and each group's password state (never a hash), and each group's
 * gshadow administrators and members (names, no secret) with whether it
 * has an entry there. */
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
		explicit_bzero(buf, len);
		free(buf);
	}
	for (size_t i = 0; i < hp_etc_userdb_nusers(v->db); i++) {
		const hp_user *u = hp_etc_userdb_user_at(v->db, i);
		hp_err why;
		why.msg[0] = '\0';
		hp_pw_state r = hp_etc_password_state(v->db, sh, "etc/shadow", u->name, &why);
		if (r == HP_PW_UNKNOWN && !sh && strcmp(u->passwd, "x") == 0)
			hp_err_set(&why, "%s", t == HP_FALSE ? "etc/shadow does not exist" : e.msg);
		hp_buf rec = {0};
		hp_buf_putc(&rec, (char)('0' + r));
		hp_buf_append(&rec, u->name, strlen(u->name) + 1);
		hp_buf_append(&rec, why.msg, strlen(why.msg));
		hp_frame_add(out, TAG_PW, rec.data, rec.len);
		hp_buf_free(&rec);
	}
	hp_etc_shadow_free(sh);

	hp_gshadow *gs = NULL;
	hp_err ge;
	ge.msg[0] = '\0';
	buf = NULL;
	t = read_etc(v->root, "etc/gshadow", v->cap, &buf, &len, &ge);
	if (t == HP_TRUE) {
		gs = hp_etc_gshadow_parse(buf, len, "etc/gshadow", &ge);
		explicit_bzero(buf, len);
		free(buf);
	}
	for (size_t i = 0; i < hp_etc_userdb_ngroups(v->db); i++) {
		const hp_group *g = hp_etc_userdb_group_at(v->db, i);
		hp_err why;
		why.msg[0] = '\0';
		hp_pw_state r = hp_etc_group_password_state(v->db, gs, t == HP_FALSE, "etc/gshadow",
		                                            g->name, &why);
		if (r == HP_PW_UNKNOWN && !gs && t != HP_FALSE)
			hp_err_set(&why, "%s", ge.msg);
		const char *pw = "", *admins = "", *members = "";
		char has = t == HP_FALSE ? GS_NO_FILE : GS_NO_ENTRY;
		if (gs && hp_etc_gshadow_entry(gs, g->name, &pw, &admins, &members))
			has = GS_ENTRY;
		hp_buf rec = {0};
		hp_buf_putc(&rec, (char)('0' + r));
		hp_buf_putc(&rec, has);
		hp_buf_append(&rec, g->name, strlen(g->name) + 1);
		hp_buf_append(&rec, admins, strlen(admins) + 1);
		hp_buf_append(&rec, members, strlen(members) + 1);
		hp_buf_append(&rec, why.msg, strlen(why.msg));
		hp_frame_add(out, TAG_GPW, rec.data, rec.len);
		hp_buf_free(&rec);
	}
	hp_etc_gshadow_free(gs);
	return 0;
}

/* The NUL-terminated field at *at, which must end before end; moves *at
 * past it. NULL when it does not end there. */
static const char *take_field(const char **at, const char *end)
{
	const char *f = *at;
	const char *nul = memchr(f, '\0', (size_t)(end - f));
	if (!nul)
		return NULL;
	*at = nul + 1;
	return f;
}

/* One record from the child: state, name, why for a user; state, whether
 * gshadow has an entry, name, admins, members, why for a group. False when
 * it is not well-formed. */
static bool take_record(const hp_frame_rec *rec, bool group, pw_entry *p)
{
	const char *d = (const char *)rec->data, *end = d + rec->len;
	if (rec->len < 2 || d[0] < '0' || d[0] > '0' + HP_PW_UNKNOWN)
		return false;
	const char *at = d + 1;
	char has = 0;
	if (group) {
		has = *at++;
		if (has != GS_ENTRY && has != GS_NO_ENTRY && has != GS_NO_FILE)
			return false;
	}
	const char *name = take_field(&at, end), *admins = NULL, *members = NULL;
	if (!name || !*name)
		return false;
	if (group && (!(admins = take_field(&at, end)) || !(members = take_field(&at, end))))
		return false;
	const char *why = at;
	if (memchr(why, '\0', (size_t)(end - why)))
		return false;
	p->state = (hp_pw_state)(d[0] - '0');
	p->name = hp_xstrdup(name);
	p->admins = admins ? hp_xstrdup(admins) : NULL;
	p->members = members ? hp_xstrdup(members) : NULL;
	p->gshadow = has;
	p->why = hp_xstrndup(why, (size_t)(end - why));
	return true;
}

static void free_entries(pw_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].why);
		free(e[i].admins);
		free(e[i].members);
	}
	free(e);
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
	size_t n = hp_etc_userdb_nusers(v->db), ng = hp_etc_userdb_ngroups(v->db);
	/* administrators and members: together at most gshadow's size */
	size_t bytes = 4096 + v->cap;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(hp_etc_userdb_user_at(v->db, i)->name) + HP_FRAME_RECORD_HEADER + 2 +
		         sizeof e.msg;
	for (size_t i = 0; i < ng; i++)
		bytes += strlen(hp_etc_userdb_group_at(v->db, i)->name) + HP_FRAME_RECORD_HEADER + 5 +
		         sizeof e.msg;
	shadow_arg a = {v};
	hp_child_opts co = {.identity = NULL,
	                    .cwd_fd = v->root->fd,
	                    .keep_fds = &v->root->fd,
	                    .nkeep = 1,
	                    .deadline_ms = SHADOW_CHILD_MS,
	                    .max_msg = bytes,
	                    .max_records = n + ng + 2};
	hp_frame f;
	if (v->secrets_here) {
		/* the same answers, the same checks on them, without the process */
		hp_frame_writer w;
		hp_frame_begin(&w);
		shadow_child(&a, &w);
		hp_frame_end(&w);
		hp_tri d = w.b.len <= bytes
		               ? hp_frame_decode((unsigned char *)w.b.data, w.b.len, n + ng + 2, &f, &e)
		               : HP_UNKNOWN;
		if (w.b.len > bytes)
			hp_err_set(&e, "more than %zu bytes of answers", bytes);
		hp_buf_free(&w.b);
		if (d != HP_TRUE) {
			hp_err_set(&v->shadow_why, "etc/shadow: %s", e.msg);
			return;
		}
	} else if (hp_os_child_run(&co, shadow_child, &a, &f, &e) != HP_TRUE) {
		hp_err_set(&v->shadow_why, "etc/shadow: %s", e.msg);
		return;
	}
	pw_entry *pw = hp_xcalloc(n ? n : 1, sizeof *pw), *gpw = hp_xcalloc(ng ? ng : 1, sizeof *gpw);
	size_t npw = 0, ngpw = 0;
	bool bad = false;
	for (size_t i = 0; i < f.n && !bad; i++) {
		const hp_frame_rec *rec = &f.rec[i];
		if (rec->tag == TAG_PW && npw < n)
			bad = !take_record(rec, false, &pw[npw++]);
		else if (rec->tag == TAG_GPW && ngpw < ng)
			bad = !take_record(rec, true, &gpw[ngpw++]);
		else
			bad = true;
		/* each answer must be the one for the entry at its place */
		if (!bad && rec->tag == TAG_PW)
			bad = strcmp(pw[npw - 1].name, hp_etc_userdb_user_at(v->db, npw - 1)->name) != 0;
		if (!bad && rec->tag == TAG_GPW)
			bad = strcmp(gpw[ngpw - 1].name, hp_etc_userdb_group_at(v->db, ngpw - 1)->name) != 0;
	}
	hp_frame_free(&f);
	if (bad || npw != n || ngpw != ng) {
		free_entries(pw, npw);
		free_entries(gpw, ngpw);
		hp_err_set(&v->shadow_why,
		           "etc/shadow: the reading process sent a malformed answer");
		return;
	}
	v->pw = pw;
	v->npw = npw;
	v->gpw = gpw;
	v->ngpw = ngpw;
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
	DIR *d = hp_os_opendir_path(fd);
	if (!d) {
		int e = errno;
		hp_err_set(err, "%s: %s", path, strerror(e));
		return e == ENOTDIR ? HP_SUDO_IO_NOT_REGULAR : HP_SUDO_IO_ERROR;
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

void hp_probe_etcview_secrets_here(hp_etcview *v)
{
	v->secrets_here = true;
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

hp_tri hp_probe_etcview_users_with_uid(hp_etcview *v, uint32_t uid, const char ***names, size_t *n,
                                 hp_err *why)
{
	*names = NULL;
	*n = 0;
	hp_probe_etcview_load(v, HP_ETC_USERS);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	size_t cap = 0;
	for (size_t i = 0; i < hp_etc_userdb_nusers(v->db); i++) {
		const hp_user *u = hp_etc_userdb_user_at(v->db, i);
		if (u->uid != uid)
			continue;
		*names = hp_xgrow(*names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = u->name;
	}
	return HP_TRUE;
}

hp_tri hp_probe_etcview_users_unlocked(hp_etcview *v, const char ***names, size_t *n, hp_err *why)
{
	*names = NULL;
	*n = 0;
	hp_probe_etcview_load(v, HP_ETC_SHADOW);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	if (!v->shadow_ok) {
		hp_err_set(why, "%s", v->shadow_why.msg);
		return HP_UNKNOWN;
	}
	size_t cap = 0;
	for (size_t i = 0; i < v->npw; i++) {
		if (v->pw[i].state == HP_PW_LOCKED)
			continue;
		if (v->pw[i].state == HP_PW_UNKNOWN) {
			hp_esc_buf eb;
			hp_err_set(why, "the password of \"%s\": %s", hp_escs(&eb, v->pw[i].name),
			           v->pw[i].why);
			free(*names);
			*names = NULL;
			*n = 0;
			return HP_UNKNOWN;
		}
		*names = hp_xgrow(*names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = v->pw[i].name;
	}
	return HP_TRUE;
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

hp_pw_state hp_probe_etcview_password_state(hp_etcview *v, const char *name, int *absent,
                                           hp_err *why)
{
	*absent = 0;
	hp_probe_etcview_load(v, HP_ETC_SHADOW);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_PW_UNKNOWN;
	}
	const hp_user *u = hp_etc_userdb_user(v->db, name);
	if (!u) {
		hp_esc_buf eb;
		hp_err_set(why, "no user \"%s\" in etc/passwd", hp_escs(&eb, name));
		*absent = 1;
		return HP_PW_UNKNOWN;
	}
	if (u->uid == 0 && v->uid0.msg[0]) {
		hp_err_set(why, "%s: its password counts as much as %s's", v->uid0.msg, name);
		return HP_PW_UNKNOWN;
	}
	if (!v->shadow_ok) {
		hp_err_set(why, "%s", v->shadow_why.msg);
		return HP_PW_UNKNOWN;
	}
	for (size_t i = 0; i < v->npw; i++)
		if (strcmp(v->pw[i].name, name) == 0) {
			if (v->pw[i].state == HP_PW_UNKNOWN)
				hp_err_set(why, "%s", v->pw[i].why);
			return v->pw[i].state;
		}
	hp_err_set(why, "etc/shadow: no answer for \"%s\"", name);
	return HP_PW_UNKNOWN;
}

/* The child's answer for group name, or NULL with why (absent: no group). */
static const pw_entry *group_entry(hp_etcview *v, const char *name, int *absent, hp_err *why)
{
	*absent = 0;
	hp_probe_etcview_load(v, HP_ETC_SHADOW);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return NULL;
	}
	hp_esc_buf eb;
	if (!hp_etc_userdb_group(v->db, name)) {
		hp_err_set(why, "no group \"%s\" in etc/group", hp_escs(&eb, name));
		*absent = 1;
		return NULL;
	}
	if (!v->shadow_ok) {
		hp_err_set(why, "%s", v->shadow_why.msg);
		return NULL;
	}
	for (size_t i = 0; i < v->ngpw; i++)
		if (strcmp(v->gpw[i].name, name) == 0)
			return &v->gpw[i];
	hp_err_set(why, "etc/gshadow: no answer for \"%s\"", hp_escs(&eb, name));
	return NULL;
}

hp_tri hp_probe_etcview_group_password_set(hp_etcview *v, const char *name, int *absent,
                                           hp_err *why)
{
	const pw_entry *g = group_entry(v, name, absent, why);
	if (!g)
		return HP_UNKNOWN;
	if (g->state == HP_PW_UNKNOWN) {
		hp_err_set(why, "%s", g->why);
		return HP_UNKNOWN;
	}
	return g->state == HP_PW_HASH ? HP_TRUE : HP_FALSE;
}

/* Cut a comma-separated list of names (checked by shadow.c) into *names. */
static void split_names(const char *list, char ***names, size_t *n)
{
	size_t cap = 0;
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len) {
			*names = hp_xgrow(*names, &cap, *n + 1, sizeof **names);
			(*names)[(*n)++] = hp_xstrndup(p, len);
		}
		p += len + (c ? 1 : 0);
	}
}

/* The child's answer for group name when it read etc/gshadow, or NULL with
 * why. A group's state is unknown only when gshadow could not be read or
 * parsed: then who administers it and who are its members are not known
 * either (never "no entry"). */
static const pw_entry *gshadow_entry(hp_etcview *v, const char *name, int *absent, hp_err *why)
{
	const pw_entry *g = group_entry(v, name, absent, why);
	if (g && g->state == HP_PW_UNKNOWN) {
		hp_err_set(why, "%s", g->why);
		return NULL;
	}
	return g;
}

hp_tri hp_probe_etcview_group_admins(hp_etcview *v, const char *name, char ***names, size_t *n,
                                     int *absent, hp_err *why)
{
	*names = NULL;
	*n = 0;
	const pw_entry *g = gshadow_entry(v, name, absent, why);
	if (!g)
		return HP_UNKNOWN;
	split_names(g->admins, names, n);
	return HP_TRUE;
}

hp_tri hp_probe_etcview_gshadow_members(hp_etcview *v, const char *name, char ***names,
                                        size_t *n, int *absent, hp_err *why)
{
	*names = NULL;
	*n = 0;
	const pw_entry *g = gshadow_entry(v, name, absent, why);
	if (!g)
		return HP_UNKNOWN;
	hp_esc_buf eb;
	if (g->gshadow != GS_ENTRY) {
		if (g->gshadow == GS_NO_FILE)
			hp_err_set(why, "etc/gshadow does not exist");
		else
			hp_err_set(why, "etc/gshadow has no entry for \"%s\"", hp_escs(&eb, name));
		*absent = 1;
		return HP_FALSE;
	}
	split_names(g->members, names, n);
	return HP_TRUE;
}

hp_tri hp_probe_etcview_groups_with_gid(hp_etcview *v, uint32_t gid, const char ***names,
                                        size_t *n, hp_err *why)
{
	*names = NULL;
	*n = 0;
	hp_probe_etcview_load(v, HP_ETC_USERS);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	size_t cap = 0;
	for (size_t i = 0; i < hp_etc_userdb_ngroups(v->db); i++) {
		const hp_group *g = hp_etc_userdb_group_at(v->db, i);
		if (g->gid != gid)
			continue;
		*names = hp_xgrow(*names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = g->name;
	}
	return HP_TRUE;
}

/* --- PAM, through the root ------------------------------------------------------------- */

static hp_tri pam_read(void *ctx, const char *path, size_t max, char **buf, size_t *len,
                       hp_err *err)
{
	hp_etcview *v = ctx;
	return hp_os_read_file_in_root(v->root, path, max < v->cap ? max : v->cap, buf, len, err);
}

static hp_tri pam_is_dir(void *ctx, const char *path, hp_err *err)
{
	hp_etcview *v = ctx;
	int fd;
	hp_tri t = hp_os_resolve(v->root, path, 0, &fd, err);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_FALSE : HP_UNKNOWN;
	struct stat st;
	int rc = fstat(fd, &st);
	int e = errno;
	close(fd);
	if (rc < 0) {
		hp_err_set(err, "%s: %s", path, strerror(e));
		return HP_UNKNOWN;
	}
	return S_ISDIR(st.st_mode) ? HP_TRUE : HP_FALSE;
}

hp_tri hp_probe_etcview_pam_passwordless(hp_etcview *v, const char *service, const char *target,
                                         const char *caller, int *absent, hp_err *why)
{
	*absent = 0;
	hp_probe_etcview_load(v, HP_ETC_SHADOW);
	if (!v->db) {
		hp_err_set(why, "%s", v->db_why.msg);
		return HP_UNKNOWN;
	}
	hp_esc_buf eb;
	const hp_user *c = hp_etc_userdb_user(v->db, caller);
	const char *missing = !hp_etc_userdb_user(v->db, target) ? target : !c ? caller : NULL;
	if (missing) {
		hp_err_set(why, "no user \"%s\" in etc/passwd", hp_escs(&eb, missing));
		*absent = 1;
		return HP_UNKNOWN;
	}
	if (c->uid == 0) {
		hp_err_set(why, "the caller %s is root, whom su asks nothing", hp_escs(&eb, caller));
		return HP_UNKNOWN;
	}
	hp_err pw_why;
	int pw_absent;
	pw_why.msg[0] = '\0';
	hp_pam_who who = {.db = v->db,
	                  .target = target,
	                  .target_pw = hp_probe_etcview_password_state(v, target, &pw_absent, &pw_why),
	                  .target_why = pw_why.msg,
	                  .caller_uid = c->uid};
	hp_pam_files files = {v, pam_read, pam_is_dir};
	return hp_etc_pam_passwordless(&files, service, &who, why);
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
