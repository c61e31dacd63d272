/* sysb_entries.c: writable_entries, the names in a directory whose file
 * the role could change: each entry judged from one statx where its owner
 * and mode decide, every symlink among them from what the listing read
 * (its facts and text, kept in the walk memo for later walks) and the walk
 * of its way, and each directory's
 * answer kept for the role's process. docs/runtime.md, "How, live". */
#include "probe/sysb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "os/replace.h"
#include "os/walkmemo.h"

enum { ENTRIES_MAX = 65536 };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the role could change what the symlink dir/name leads to: the
 * file it ends on written, or replaced through any directory on the
 * target's way, or created when it is missing. */
static hp_tri link_changeable(hp_sysbackend *s, const char *dir, const char *name, hp_err *why)
{
	hp_err e;
	e.msg[0] = '\0';
	char *path = hp_xpath_join(dir, name);
	int tfd = -1;
	hp_tri t = hp_probe_sysb_resolve_as_role(s, path, HP_RES_DENIED_FALSE, &tfd, &e);
	if (t == HP_TRUE) {
		t = hp_probe_sysb_access_for(s, tfd, NULL, HP_ACC_WRITE, &e);
		close(tfd);
	} else if (tfd >= 0) {
		close(tfd);
	}
	/* dangling or out of the role's reach: whether it could be made to
	 * lead somewhere is the walk's answer */
	if (t == HP_FALSE)
		t = hp_probe_sysb_replaceable_for(s, path, &e);
	if (t == HP_UNKNOWN)
		hp_err_set(why, "%s: %s", path, e.msg);
	free(path);
	return t;
}

/* A listing's directory's own way, asked once per listing by the first
 * link that needs it (hp_probe_sysb_replaceable_for(dir)). */
typedef struct {
	bool asked;
	hp_tri answer;
	hp_err why;
} dir_way;

static hp_tri way_of(hp_sysbackend *s, const char *dir, dir_way *w)
{
	if (!w->asked) {
		w->why.msg[0] = '\0';
		w->answer = hp_probe_sysb_replaceable_for(s, dir, &w->why);
		w->asked = true;
	}
	return w->answer;
}

/* A directory's entries as one listing read them, sorted by name: each
 * with its facts when one statx gave them on the directory's own mount
 * (hp_listed). Once read whole, the role's walk memo keeps it (walkmemo.h),
 * so that the walks of its links, and of any later probe, take what it
 * looked at from there. */
typedef struct {
	hp_listed *v;
	size_t n, cap;
	bool kept; /* the memo's */
} listing;

static int cmp_listed(const void *a, const void *b)
{
	return strcmp(((const hp_listed *)a)->name, ((const hp_listed *)b)->name);
}

static const hp_listed *listing_find(const listing *l, const char *name)
{
	hp_listed key = {.name = (char *)name};
	return l->n ? bsearch(&key, l->v, l->n, sizeof *l->v, cmp_listed) : NULL;
}

static void listing_free(listing *l)
{
	if (l->kept)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].text);
	}
	free(l->v);
}

/* The text of the listed symlink en in dfd into text (HP_PATH_MAX + 1
 * bytes, not terminated), as readlinkat answers it: read once, by the
 * listing or by a walk that came through it first. */
static ssize_t link_text(int dfd, hp_listed *en, char *text)
{
	if (en->text) {
		size_t n = strlen(en->text);
		memcpy(text, en->text, n);
		return (ssize_t)n;
	}
	ssize_t n = readlinkat(dfd, en->name, text, HP_PATH_MAX + 1);
	if (n > 0 && n <= HP_PATH_MAX && !memchr(text, '\0', (size_t)n))
		en->text = hp_xstrndup(text, (size_t)n);
	return n;
}

/* link_changeable for a symlink whose target is a name in its own
 * directory (libfoo.so.1 -> libfoo.so.1.2.3, gcc -> gcc-12), without
 * walking to it again: the steps of that walk are the directory's own way
 * (way_of), "name in dir" and "target in dir", each judged as the walk
 * judges it (hp_os_replace_step_live), and the target written as
 * hp_probe_sysb_access_for asks it. t is the link's text, and the target's
 * facts are the listing's (a name it does not hold is missing: whether the
 * role could create it is the step's question).
 * Returns -1 when this does not apply or cannot decide (another mount, a
 * target that is itself a link or a directory, any unknown): the caller
 * judges it as any link the listing holds (listed_link). */
static int sibling_link(hp_sysbackend *s, int dfd, const hp_fileinfo *di, long magic,
                        const listing *l, const char *dir, const char *name,
                        const hp_fileinfo *efi, const char *t, dir_way *way, hp_tri *out)
{
	if (strchr(t, '/') || strlen(t) >= 256 || strcmp(t, ".") == 0 || strcmp(t, "..") == 0)
		return -1;
	const hp_listed *tl = listing_find(l, t);
	if (tl && !tl->have)
		return -1;
	bool missing = !tl;
	hp_fileinfo tfi;
	if (tl)
		tfi = tl->info;
	if (tl && (tfi.type == HP_FT_SYMLINK || tfi.type == HP_FT_DIR))
		return -1;
	hp_err e;
	e.msg[0] = '\0';
	if (!missing &&
	    hp_os_access_ruled_out(&tfi, magic, hp_probe_sysb_self(s), HP_ACC_WRITE) != HP_FALSE) {
		int fd = openat(dfd, t, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		hp_fileinfo now;
		hp_tri w = hp_os_fd_info(fd, &now, &e) == HP_TRUE && now.dev == tfi.dev &&
		                   now.ino == tfi.ino
		               ? hp_probe_sysb_access_for(s, fd, &now, HP_ACC_WRITE, &e)
		               : HP_UNKNOWN;
		close(fd);
		if (w == HP_UNKNOWN)
			return -1;
		if (w == HP_TRUE) {
			*out = HP_TRUE;
			return 0;
		}
	}
	hp_tri a = way_of(s, dir, way);
	if (a == HP_UNKNOWN)
		return -1;
	if (a != HP_TRUE)
		a = hp_os_replace_step_live(dfd, di, name, efi, hp_probe_sysb_self(s), hp_probe_sysb_dirs(s), &e);
	if (a == HP_FALSE)
		a = hp_os_replace_step_live(dfd, di, t, missing ? NULL : &tfi, hp_probe_sysb_self(s),
		                            hp_probe_sysb_dirs(s), &e);
	if (a == HP_UNKNOWN)
		return -1;
	*out = a;
	return 0;
}

/* link_changeable for any symlink the listing holds, live, from what the
 * listing already has: its facts efi, and its text t (read once, never
 * again by a walk). First the walk of dir/name, in the three parts it is
 * made of: the directory's own way (way_of), "name in dir"
 * (hp_os_replace_step_live), and the walk of t from where the link is
 * (t itself when it is absolute, else dir/t: the walker takes "..", as
 * the kernel does, from the directory it reached). Then the file it ends
 * on written: ruled out by its owner and mode when the walk ended on a
 * file whose filesystem it read (hp_os_access_ruled_out), else asked of
 * the kernel on its resolution as the role (link_changeable's way). */
static hp_tri listed_link(hp_sysbackend *s, int dfd, const hp_fileinfo *di, const char *dir,
                          const char *name, const hp_fileinfo *efi,
                          const char *t, dir_way *way, hp_err *why)
{
	if (strlen(dir) + strlen(t) + 1 > HP_PATH_MAX)
		return link_changeable(s, dir, name, why);
	hp_err e;
	e.msg[0] = '\0';
	/* true as soon as one part is, else unknown with the first unknown
	 * part's why */
	hp_tri c = way_of(s, dir, way);
	if (c == HP_UNKNOWN)
		e = way->why;
	if (c != HP_TRUE) {
		hp_err pe;
		hp_tri a = hp_os_replace_step_live(dfd, di, name, efi, hp_probe_sysb_self(s),
		                                   hp_probe_sysb_dirs(s), &pe);
		if (a == HP_UNKNOWN && c != HP_UNKNOWN)
			e = pe;
		c = hp_tri_or(c, a);
	}
	hp_walk_end end = {.ended = false};
	if (c != HP_TRUE) {
		char *tp = t[0] == '/' ? hp_xstrdup(t) : hp_xpath_join(dir, t);
		hp_err pe;
		hp_tri a = hp_os_replaceable_live_end(&s->root, tp, hp_probe_sysb_self(s), hp_probe_sysb_dirs(s),
		                                      hp_probe_sysb_walks(s), &end, &pe);
		if (a == HP_UNKNOWN && c != HP_UNKNOWN)
			e = pe;
		c = hp_tri_or(c, a);
		free(tp);
	}
	char *path = hp_xpath_join(dir, name);
	if (c != HP_TRUE && !(end.ended && hp_os_access_ruled_out(&end.info, end.fs_magic,
	                                                          hp_probe_sysb_self(s),
	                                                          HP_ACC_WRITE) == HP_FALSE)) {
		hp_err pe;
		pe.msg[0] = '\0';
		int tfd = -1;
		hp_tri a = hp_probe_sysb_resolve_as_role(s, path, HP_RES_DENIED_FALSE, &tfd, &pe);
		if (a == HP_TRUE)
			a = hp_probe_sysb_access_for(s, tfd, NULL, HP_ACC_WRITE, &pe);
		if (tfd >= 0)
			close(tfd);
		if (a == HP_UNKNOWN && c != HP_UNKNOWN)
			e = pe;
		c = hp_tri_or(c, a);
	}
	if (c == HP_UNKNOWN)
		hp_err_set(why, "%s: %s", path, e.msg);
	free(path);
	return c;
}

/* Whether the role could change what dir/name runs or loads: the file it
 * can write, or owns (the owner rule is access.h's); a symlink, the file it
 * leads to (link_changeable). The entry itself is replaced only through
 * dir, which is writable()'s and writable_ancestor()'s question. */
static hp_tri entry_changeable(hp_sysbackend *s, int dfd, const char *dir, const char *name,
                               hp_err *why)
{
	int efd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (efd < 0) {
		if (errno == ENOENT)
			return HP_FALSE; /* removed meanwhile: leads nowhere */
		hp_err_set(why, "%s/%s: %s", dir, name, strerror(errno));
		return HP_UNKNOWN;
	}
	hp_fileinfo fi;
	hp_err e;
	e.msg[0] = '\0';
	if (hp_os_fd_info(efd, &fi, &e) != HP_TRUE) {
		close(efd);
		hp_err_set(why, "%s/%s: %s", dir, name, e.msg);
		return HP_UNKNOWN;
	}
	if (fi.type != HP_FT_SYMLINK) {
		hp_tri t = hp_probe_sysb_access_for(s, efd, &fi, HP_ACC_WRITE, &e);
		close(efd);
		if (t == HP_UNKNOWN)
			hp_err_set(why, "%s/%s: %s", dir, name, e.msg);
		return t;
	}
	close(efd);
	return link_changeable(s, dir, name, why);
}

/* The list value of names (sorted) in the pool. */
static hp_value names_value(char **names, size_t n, hp_pool *pool)
{
	hp_str *items = n ? hp_pool_alloc(pool, n * sizeof *items) : NULL;
	if (n && !items)
		return hp_v_unknown(HP_T_LIST, "memory limit");
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		char *c = hp_pool_strndup(pool, names[i], len);
		if (!c)
			return hp_v_unknown(HP_T_LIST, "memory limit");
		items[i] = (hp_str){c, (uint32_t)len};
	}
	return hp_v_list(items, (uint32_t)n);
}

/* writable_entries' answer already found for the directory fi describes
 * (the same directory and mount, sysb.h), or NULL */
static const struct hp_sysb_entries *entries_known(const hp_sysbackend *s, const hp_fileinfo *fi)
{
	for (size_t i = 0; i < s->nentries; i++)
		if (hp_os_same_file_on_mount(&s->entries[i].dir, fi))
			return &s->entries[i];
	return NULL;
}

/* The names in dir whose file the role could change (entry_changeable),
 * sorted. A directory that does not exist, that the role cannot reach or
 * cannot search, holds nothing it could change through it: the empty
 * list. One it can search but not list is unknown (it could write a name it knows), as is a
 * directory past ENTRIES_MAX entries or any entry not decided. A decided
 * answer is kept for the role's process (a directory reached again by
 * another path is not listed again). */
hp_value hp_probe_sysb_writable_entries(hp_sysbackend *s, hp_probe_id p, const char *dir,
                                        hp_pool *pool)
{
	hp_err e;
	e.msg[0] = '\0';
	int pfd = -1;
	hp_tri t = hp_probe_sysb_resolve_as_role(s, dir, HP_RES_DENIED_FALSE, &pfd, &e);
	if (t != HP_TRUE) {
		if (pfd >= 0)
			close(pfd);
		if (t == HP_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
		return hp_v_list(NULL, 0);
	}
	hp_fileinfo fi;
	if (hp_os_fd_info(pfd, &fi, &e) != HP_TRUE) {
		close(pfd);
		return hp_probe_sysb_unknown(pool, p, "%s: %s", dir, e.msg);
	}
	if (fi.type != HP_FT_DIR) {
		close(pfd);
		return hp_probe_sysb_unknown(pool, p, "%s: not a directory (%s)", dir,
		                             hp_os_ftype_name(fi.type));
	}
	const struct hp_sysb_entries *known = entries_known(s, &fi);
	if (known) {
		close(pfd);
		return names_value(known->names, known->n, pool);
	}
	/* a directory the role cannot search keeps every name in it out of
	 * its reach (one it owns it can chmod: writable()'s answer) */
	t = hp_probe_sysb_access_for(s, pfd, &fi, HP_ACC_EXEC, &e);
	if (t != HP_TRUE) {
		close(pfd);
		if (t == HP_UNKNOWN)
			return hp_probe_sysb_unknown(pool, p, "%s: %s", dir, e.msg);
		return hp_v_list(NULL, 0);
	}
	/* what another user creates in it later is the role's to write when
	 * its default ACL says so: listed as "." */
	t = hp_probe_sysb_default_acl_for(s, pfd, &fi, &e);
	if (t == HP_UNKNOWN) {
		close(pfd);
		return hp_probe_sysb_unknown(pool, p, "%s: %s", dir, e.msg);
	}
	bool later = t == HP_TRUE;
	DIR *d = hp_os_opendir_path(pfd);
	if (!d)
		return hp_probe_sysb_unknown(pool, p, "%s: listing it: %s", dir, strerror(errno));
	/* live, the kernel is asked of each entry only when its owner and mode
	 * leave it possible (hp_os_access_ruled_out): one statx for most */
	long magic = 0;
	struct statfs sf;
	if (s->kind == HP_SYS_LIVE && fi.has_mnt_id && fstatfs(dirfd(d), &sf) == 0)
		magic = (long)sf.f_type;
	char **found = NULL;
	size_t nfound = 0, cap = 0;
	dir_way way = {.asked = false}; /* the links' */
	char *text = magic ? hp_xmalloc(HP_PATH_MAX + 1) : NULL; /* a link's */
	/* the whole listing first, each entry's facts with it, so that a link
	 * to a name beside it finds the target's facts here */
	listing l = {0};
	t = HP_FALSE;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			if (errno) {
				hp_err_set(&e, "%s: reading the directory: %s", dir, strerror(errno));
				t = HP_UNKNOWN;
			}
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (l.n == ENTRIES_MAX) {
			hp_err_set(&e, "%s: more than %d entries", dir, ENTRIES_MAX);
			t = HP_UNKNOWN;
			break;
		}
		l.v = hp_xgrow(l.v, &l.cap, l.n + 1, sizeof *l.v);
		hp_listed *en = &l.v[l.n++];
		en->name = hp_xstrdup(de->d_name);
		en->text = NULL;
		en->have = magic && hp_os_entry_info(dirfd(d), de->d_name, &en->info) == 0 &&
		           en->info.has_mnt_id && en->info.mnt_id == fi.mnt_id;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof *l.v, cmp_listed);
	if (magic && t != HP_UNKNOWN)
		l.kept = hp_os_walkmemo_keep_listing(hp_probe_sysb_walks(s), &fi, l.v, l.n);
	for (size_t i = 0; i < l.n && t != HP_UNKNOWN; i++) {
		hp_listed *en = &l.v[i];
		const char *name = en->name;
		hp_tri c = HP_UNKNOWN;
		bool link = en->have && en->info.type == HP_FT_SYMLINK;
		if (en->have && !link)
			c = hp_os_access_ruled_out(&en->info, magic, hp_probe_sysb_self(s), HP_ACC_WRITE);
		ssize_t tn = link ? link_text(dirfd(d), en, text) : -1;
		if (link && (tn <= 0 || tn > HP_PATH_MAX || memchr(text, '\0', (size_t)tn)))
			c = link_changeable(s, dir, name, &e);
		else if (link && (text[tn] = '\0', sibling_link(s, dirfd(d), &fi, magic, &l, dir, name,
		                                                &en->info, text, &way, &c) < 0))
			c = listed_link(s, dirfd(d), &fi, dir, name, &en->info, text, &way, &e);
		else if (c == HP_UNKNOWN)
			c = entry_changeable(s, dirfd(d), dir, name, &e);
		if (c == HP_UNKNOWN)
			t = HP_UNKNOWN;
		else if (c == HP_TRUE) {
			found = hp_xgrow(found, &cap, nfound + 1, sizeof *found);
			found[nfound++] = hp_xstrdup(name);
		}
	}
	if (later) {
		found = hp_xgrow(found, &cap, nfound + 1, sizeof *found);
		found[nfound++] = hp_xstrdup(".");
	}
	listing_free(&l);
	closedir(d);
	free(text);
	hp_value v;
	bool keep = false;
	if (t == HP_UNKNOWN) {
		v = hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	} else if (nfound > HP_VALUE_MAX_LIST) {
		v = hp_probe_sysb_unknown(pool, p, "%s: %zu entries the role could change, more "
		                                   "than a list holds", dir, nfound);
	} else {
		if (nfound) /* qsort takes no null array, even of nothing */
			qsort(found, nfound, sizeof *found, cmp_str);
		v = names_value(found, nfound, pool);
		keep = fi.has_mnt_id;
	}
	if (keep) {
		s->entries = hp_xgrow(s->entries, &s->cap_entries, s->nentries + 1, sizeof *s->entries);
		s->entries[s->nentries++] = (struct hp_sysb_entries){fi, found, nfound};
		return v;
	}
	for (size_t i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	return v;
}
