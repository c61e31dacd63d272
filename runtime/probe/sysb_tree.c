/* sysb_tree.c: the whole-tree probes of the live/rootfs backend:
 * tree_writable (can the role write, or does it own, anything in a tree a
 * program loads from, through the tree's own links too) and
 * tree_writable_by (root's walk of a tree with a user's credentials).
 * The walk itself is runtime/os/tree_walk.c; what each entry means for
 * the role is decided here, in the visitor (docs/runtime.md, "Whole
 * trees"). */
#include "probe/sysb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/mount_content.h"
#include "os/replace.h"
#include "os/tree_walk.h"

typedef struct {
	hp_sysbackend *s;
	const char *top;
	char *found; /* the first entry the role can write or owns */
	/* tree_writable_by: the user's credentials, answered from each
	 * file's owner, mode and ACL (root walks); NULL: the role's own */
	const hp_cred *cred;
	bool by_path; /* a link was judged by the path the walk was asked by */
	/* the top, once the walk has shown it: where a link's target must
	 * resolve to stay in the tree (fd -1 until then, or when the top is
	 * not a directory) */
	hp_root tree;
	hp_fileinfo top_info;
	int nest; /* how many links out of a tree led to this walk */
} tree_ctx;

/* Links out of a tree to a directory, each walked as a tree of its own,
 * followed this deep (a cycle of them ends here, unknown) */
enum { TREE_MAX_NEST = 8 };

static void tree_ctx_init(tree_ctx *c, hp_sysbackend *s, const char *top, const hp_cred *cred)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->top = top;
	c->cred = cred;
	c->tree.fd = -1;
}

static void tree_ctx_done(tree_ctx *c)
{
	free(c->found);
	hp_os_root_close(&c->tree);
}

/* Whether fd is one of the memory devices whose content no writer
 * changes: /dev/null, zero, full, random and urandom (char major 1). A
 * masked systemd unit is a link to /dev/null: anyone may write it, and
 * every reader still reads nothing. A terminal or any other device a
 * role may write is judged as a file. */
static bool fixed_content_device(int fd, const hp_fileinfo *fi)
{
	if (fi && fi->type != HP_FT_CHAR)
		return false;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 1)
		return false;
	switch (minor(st.st_rdev)) {
	case 3: case 5: case 7: case 8: case 9:
		return true;
	default:
		return false;
	}
}

static hp_tri tree_access(tree_ctx *c, int fd, const hp_fileinfo *fi, hp_err *why)
{
	if (fixed_content_device(fd, fi))
		return HP_FALSE;
	if (!c->cred)
		return hp_probe_sysb_access_for(c->s, fd, fi, HP_ACC_WRITE, why);
	hp_tri t = hp_os_access_computed(fd, c->cred, HP_ACC_WRITE, why);
	if (t != HP_FALSE || c->s->kind != HP_SYS_LIVE)
		return t;
	/* live, a filesystem the user serves or whose backing store it
	 * writes is its own, whatever the owners and modes say */
	hp_fileinfo own;
	if (!fi) {
		if (hp_os_fd_info(fd, &own, why) != HP_TRUE)
			return HP_UNKNOWN;
		fi = &own;
	}
	return hp_os_content_theirs(fi, c->cred, why);
}

/* Whether the default ACL of directory fd gives the role (or the user of
 * tree_writable_by) write access to what another user creates in it
 * later: a file there tomorrow is as much the tree's as one there now. */
static hp_tri tree_default_acl(tree_ctx *c, int fd, const hp_fileinfo *fi, hp_err *why)
{
	if (c->cred)
		return hp_os_access_default_acl(fd, fi, c->cred, HP_ACC_WRITE, why);
	return hp_probe_sysb_default_acl_for(c->s, fd, fi, why);
}

static hp_tri tree_replaceable(tree_ctx *c, const char *path, hp_err *why)
{
	if (c->cred)
		return hp_os_replaceable_computed(&c->s->root, path, c->cred, why);
	return hp_probe_sysb_replaceable_for(c->s, path, why);
}

/* The walk's entry at path, from the top: the walk names each entry by
 * the top (without trailing slashes) and the names below it. NULL when
 * path is not so (then nothing is decided from it). */
static const char *below_top(const char *path, const char *top)
{
	size_t n = strlen(top);
	while (n > 1 && top[n - 1] == '/')
		n--;
	if (n == 1 && top[0] == '/')
		return path[0] == '/' && path[1] ? path + 1 : NULL;
	if (strncmp(path, top, n) != 0 || path[n] != '/' || !path[n + 1])
		return NULL;
	return path + n + 1;
}

/* Whether the link te (text link) stays in the tree: HP_TRUE when its
 * target, resolved from the link's directory with every symlink on the way
 * followed, never leaves the top (openat2's RESOLVE_BENEATH, or the
 * walker's same rule): every directory and link it passes through is then
 * an entry of the tree, which the walk judges anyway, and so is what it
 * ends on (or the directory where it is missing). Anything else, a doubt
 * included, is HP_FALSE: the target is out of the tree, and judged. */
static hp_tri link_stays(tree_ctx *c, const hp_tree_entry *te, const char *link)
{
	const char *rel = c->tree.fd >= 0 ? below_top(te->path, c->top) : NULL;
	if (!rel || link[0] == '/')
		return HP_FALSE;
	const char *sl = strrchr(rel, '/');
	char *beneath = sl ? hp_xasprintf("%.*s/%s", (int)(sl - rel), rel, link) : hp_xstrdup(link);
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(&c->tree, beneath, HP_RES_BENEATH, &fd, &e);
	free(beneath);
	if (fd >= 0)
		close(fd);
	/* HP_FALSE: missing where it stopped, a directory of the tree */
	return t == HP_UNKNOWN ? HP_FALSE : HP_TRUE;
}

static hp_tri tree_visit(void *vctx, const hp_tree_entry *te, hp_err *why);

/* A directory a link of the tree leads to, outside it: what the tree's
 * reader finds through the link is that whole directory, so it is walked
 * as a tree of its own, for the same role (an /etc/alternatives/jre to a
 * JDK in /usr/lib/jvm). fd: the directory, resolved from target, and
 * top its facts read on fd. */
static hp_tri outside_tree(tree_ctx *c, int fd, const hp_fileinfo *top, const char *target,
                           hp_err *why)
{
	if (c->nest >= TREE_MAX_NEST) {
		hp_err_set(why, "links out of a tree to a directory nested more than %d deep",
		           TREE_MAX_NEST);
		return HP_UNKNOWN;
	}
	int tfd = fcntl(fd, F_DUPFD_CLOEXEC, 0); /* the walk takes it */
	if (tfd < 0) {
		hp_err_set(why, "%s: %s", target, strerror(errno));
		return HP_UNKNOWN;
	}
	tree_ctx sub;
	tree_ctx_init(&sub, c->s, target, c->cred);
	sub.nest = c->nest + 1;
	hp_tree_limits lim;
	memset(&lim, 0, sizeof lim);
	hp_tri t = hp_os_tree_walk_at(&c->s->root, tfd, top, target, &lim, tree_visit, &sub, why);
	if (t == HP_TRUE && sub.found)
		hp_err_set(why, "%s", sub.found);
	tree_ctx_done(&sub);
	return t;
}

/* Live, for the role itself: whether the link's target is ruled out
 * without opening it, as writable_entries rules out the links it lists.
 * The walk of the target's way resolves it step by step (the way the
 * kernel does, from the role's root); when no step of it is replaceable
 * and it ends on a file that is neither a directory nor a link, that
 * file's owner and mode, read by the walk's last statx on a filesystem
 * whose type the walk read, rule out writing it. Only a sure "no" comes
 * from here: anything else is asked in full by link_out. */
static bool link_target_ruled_out(tree_ctx *c, const char *target)
{
	if (c->cred || c->s->kind != HP_SYS_LIVE)
		return false;
	const hp_self *self = hp_probe_sysb_self(c->s);
	hp_walk_end end;
	hp_err e;
	hp_tri w = hp_os_replaceable_live_end(&c->s->root, target, self, hp_probe_sysb_dirs(c->s),
	                                      hp_probe_sysb_walks(c->s), &end, &e);
	return w == HP_FALSE && end.ended &&
	       hp_os_access_ruled_out(&end.info, end.fs_magic, self, HP_ACC_WRITE) == HP_FALSE;
}

/* A symlink out of the tree leads to a file that must be as safe as the
 * tree; target is where it leads, from the path the walk was asked by. */
static hp_tri link_out(tree_ctx *c, const hp_tree_entry *te, const char *link,
                       const char *target, hp_err *why)
{
	if (link_target_ruled_out(c, target))
		return HP_FALSE;
	hp_err e;
	e.msg[0] = '\0';
	/* resolved once: its facts and the questions below are of the one
	 * file the path led to */
	hp_fileinfo fi;
	int fd;
	hp_tri t = hp_os_resolve(&c->s->root, target, 0, &fd, &e);
	if (t == HP_TRUE) {
		hp_err e2;
		if (hp_os_fd_info(fd, &fi, &e2) != HP_TRUE) {
			hp_err_set(&e, "%s: %s", target, e2.msg);
			close(fd);
			t = HP_UNKNOWN;
		}
	}
	if (t == HP_FALSE) {
		/* dangling: it loads nothing now, and what the role can create
		 * there it loads later */
		hp_tri cr = tree_replaceable(c, target, &e);
		if (cr == HP_TRUE) {
			c->found = hp_xasprintf("%s (through %s, which the role can create)", target,
			                        te->path);
			return HP_TRUE;
		}
		if (cr == HP_UNKNOWN) {
			hp_err_set(why, "%s -> %s: %s", te->path, link, e.msg);
			return HP_UNKNOWN;
		}
		return HP_FALSE;
	}
	if (t != HP_TRUE) {
		hp_err_set(why, "%s -> %s: %s", te->path, link, e.msg);
		return HP_UNKNOWN;
	}
	/* a directory is walked only when it is the tree's: where it
	 * really is (its parents, not the link's text), and reached by a way
	 * the role cannot change (below); one outside it is walked as a tree
	 * of its own, anything else is asked as a file */
	hp_err we;
	bool outside = fi.type == HP_FT_DIR &&
	               (c->tree.fd < 0 ||
	                hp_os_dir_within(&c->s->root, fd, &c->top_info, &we) != HP_TRUE);
	t = outside ? outside_tree(c, fd, &fi, target, &e) : tree_access(c, fd, &fi, &e);
	close(fd);
	if (t == HP_FALSE)
		t = tree_replaceable(c, target, &e);
	if (t == HP_TRUE) {
		c->found = hp_xasprintf("%s (through %s)", target, te->path);
		return HP_TRUE;
	}
	if (t == HP_UNKNOWN) {
		hp_err_set(why, "%s -> %s: %s", te->path, link, e.msg);
		return HP_UNKNOWN;
	}
	return HP_FALSE;
}

/* A link the package loads through: one that stays in the tree leads to
 * what the walk sees anyway; one that leaves it is judged by its target. */
static hp_tri tree_link(tree_ctx *c, const hp_tree_entry *te, hp_err *why)
{
	char link[HP_PATH_MAX + 1];
	/* by name below the top: only one who can write the directory,
	 * which the walk judged before it entered it, can change what
	 * the name holds meanwhile */
	ssize_t n = te->fd >= 0 ? readlinkat(te->fd, "", link, sizeof link - 1)
	                        : readlinkat(te->dirfd, te->name, link, sizeof link - 1);
	if (n <= 0 || n >= (ssize_t)sizeof link - 1) {
		hp_err_set(why, "%s: reading the symlink failed", te->path);
		return HP_UNKNOWN;
	}
	link[n] = '\0';
	if (link_stays(c, te, link) == HP_TRUE)
		return HP_FALSE;
	/* what it leads to is found from the path the walk was asked by:
	 * another path to this tree could find another answer */
	c->by_path = true;
	char *target;
	if (link[0] == '/') {
		target = hp_xstrdup(link);
	} else {
		const char *sl = strrchr(te->path, '/');
		target = hp_xasprintf("%.*s/%s", (int)(sl ? sl - te->path : 0), te->path, link);
	}
	hp_tri r = link_out(c, te, link, target, why);
	free(target);
	return r;
}

/* Live, for the role itself: whether the owner and mode of fi, the entry
 * te or the directory the walk opened for it, rule out the role's
 * writing it, on its directory's mount (whose filesystem type the walk
 * read), as writable_entries rules out what it lists; when not, it is
 * opened and asked. */
static bool entry_ruled_out(tree_ctx *c, const hp_tree_entry *te, const hp_fileinfo *fi)
{
	return !c->cred && c->s->kind == HP_SYS_LIVE && fi->has_mnt_id && te->dir->has_mnt_id &&
	       fi->mnt_id == te->dir->mnt_id &&
	       hp_os_access_ruled_out(fi, te->dir_fs_magic, hp_probe_sysb_self(c->s),
	                              HP_ACC_WRITE) == HP_FALSE;
}

static hp_tri tree_visit(void *vctx, const hp_tree_entry *te, hp_err *why)
{
	tree_ctx *c = vctx;
	hp_err e;
	e.msg[0] = '\0';
	if (te->is_top && te->info->type == HP_FT_DIR && c->tree.fd < 0) {
		c->top_info = *te->info;
		if (hp_os_root_at(&c->tree, te->fd, c->s->root.flags, &e) != HP_TRUE)
			c->tree.fd = -1; /* no link is then taken to stay in the tree */
	}
	if (te->info->type == HP_FT_SYMLINK)
		return tree_link(c, te, why);
	/* a file ruled out by its owner and mode is done without opening
	 * it; a directory is opened all the same (the walk has it open to
	 * list it), because what its default ACL gives what is created in
	 * it later is not in its owner and mode */
	bool isdir = te->info->type == HP_FT_DIR;
	if (!isdir && entry_ruled_out(c, te, te->info))
		return HP_FALSE;
	int fd;
	hp_fileinfo now;
	hp_tri t = hp_os_tree_entry_open(te, &fd, &now, why);
	if (t != HP_TRUE)
		return t; /* gone: it leads nowhere */
	t = isdir && entry_ruled_out(c, te, &now) ? HP_FALSE : tree_access(c, fd, &now, &e);
	if (t == HP_FALSE && isdir) {
		t = tree_default_acl(c, fd, &now, &e);
		if (t == HP_TRUE) {
			hp_os_tree_entry_close(te, fd);
			c->found = hp_xasprintf("%s (its default ACL lets the role write what is "
			                        "created in it)",
			                        te->path);
			return HP_TRUE;
		}
	}
	hp_os_tree_entry_close(te, fd);
	if (t == HP_UNKNOWN) {
		hp_err_set(why, "%s: %s", te->path, e.msg);
		return HP_UNKNOWN;
	}
	if (t == HP_TRUE) {
		c->found = hp_xstrdup(te->path);
		return HP_TRUE;
	}
	return HP_FALSE;
}

/* tree_writable's answer already found for the tree whose top fi
 * describes, or NULL */
static const struct hp_sysb_tree *tree_known(const hp_sysbackend *s, const hp_fileinfo *fi)
{
	for (size_t i = 0; i < s->ntrees; i++)
		if (hp_os_same_file_on_mount(&s->trees[i].top, fi))
			return &s->trees[i];
	return NULL;
}

hp_value hp_probe_sysb_tree_writable(hp_sysbackend *s, const char *path, hp_pool *pool)
{
	hp_probe_id p = HP_PROBE_TREE_WRITABLE;
	tree_ctx c;
	tree_ctx_init(&c, s, path, NULL);
	hp_tree_limits lim;
	memset(&lim, 0, sizeof lim);
	hp_err e;
	e.msg[0] = '\0';
	int tfd;
	hp_tri t = hp_os_resolve(&s->root, path, s->role.as_role ? HP_RES_DENIED_FALSE : 0, &tfd, &e);
	if (t == HP_FALSE)
		return hp_v_bool(false); /* nothing there to write */
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_fileinfo top;
	if (hp_os_fd_info(tfd, &top, &e) != HP_TRUE) {
		close(tfd);
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	}
	const struct hp_sysb_tree *known = top.type == HP_FT_DIR ? tree_known(s, &top) : NULL;
	if (known) {
		close(tfd);
		return hp_v_bool(known->writable);
	}
	t = hp_os_tree_walk_at(&s->root, tfd, &top, path, &lim, tree_visit, &c, &e);
	tree_ctx_done(&c);
	if (t == HP_UNKNOWN)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	if (top.type == HP_FT_DIR && top.has_mnt_id && !c.by_path) {
		s->trees = hp_xgrow(s->trees, &s->cap_trees, s->ntrees + 1, sizeof *s->trees);
		s->trees[s->ntrees++] = (struct hp_sysb_tree){top, t == HP_TRUE};
	}
	return hp_v_bool(t == HP_TRUE);
}

/* tree_writable_by("USER:PATH"): root's walk of the whole tree, each entry
 * answered for USER's credentials from its owner, mode and ACL. The role's
 * own walk (tree_writable) cannot enter a directory the role cannot
 * search, and what is inside one is still the role's to write when it
 * owns or may write the file and reaches it another way: a hard link of
 * its own elsewhere on the filesystem, a bind mount, a descriptor. */
hp_value hp_probe_sysb_tree_writable_by(hp_sysbackend *s, const char *spec, hp_pool *pool)
{
	hp_probe_id p = HP_PROBE_TREE_WRITABLE_BY;
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec)
		return hp_probe_sysb_unknown(pool, p, "'%s': not USER:PATH", spec);
	const char *path = colon + 1;
	if (path[0] != '/')
		return hp_probe_sysb_unknown(pool, p, "'%s': the path is not absolute", spec);
	char *user = hp_xasprintf("%.*s", (int)(colon - spec), spec);
	uid_t uid;
	gid_t gid, *groups;
	size_t ngroups;
	hp_err e;
	e.msg[0] = '\0';
	hp_tri t = hp_probe_sysb_etc_user_ids(s, user, 0, &uid, &gid, &groups, &ngroups, &e);
	free(user);
	if (t == HP_FALSE)
		return hp_v_absent(HP_T_BOOL, hp_probe_sysb_reason(pool, "%s", e.msg));
	if (t != HP_TRUE)
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	hp_cred cred = {uid, gid, groups, ngroups, 0};
	tree_ctx c;
	tree_ctx_init(&c, s, path, &cred);
	hp_tree_limits lim;
	memset(&lim, 0, sizeof lim);
	int missing;
	t = hp_os_tree_walk(&s->root, path, 0, &lim, tree_visit, &c, &missing, &e);
	free(groups);
	tree_ctx_done(&c);
	if (missing)
		return hp_v_bool(false); /* nothing there to write */
	if (t == HP_UNKNOWN) /* past a bound, or an entry that cannot be decided */
		return hp_probe_sysb_unknown(pool, p, "%s", e.msg);
	return hp_v_bool(t == HP_TRUE);
}
