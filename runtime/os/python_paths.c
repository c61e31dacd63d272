/* python_paths.c: what CPython's startup reads from the image
 * (python_paths.h). */
#include "os/python_paths.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/sysx.h"

/* entries read from one lib directory while looking for versions */
enum { MAX_LIB_ENTRIES = 65536, ANY = -1 };

typedef struct {
	const hp_root *r;
	hp_strv *out;
	hp_err *why;
} ctx;

static void add(ctx *c, const char *p)
{
	for (size_t i = 0; i < c->out->n; i++)
		if (strcmp(c->out->v[i], p) == 0)
			return;
	hp_strv_push(c->out, p);
}

static char *dir_of(const char *p)
{
	const char *s = strrchr(p, '/');
	if (!s || s == p)
		return hp_xstrdup("/");
	return hp_xasprintf("%.*s", (int)(s - p), p);
}

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* d + "/" + rel without doubling the root's slash */
static char *join(const char *d, const char *rel)
{
	return hp_xasprintf("%s/%s", strcmp(d, "/") == 0 ? "" : d, rel);
}

int hp_os_python_version(const char *name)
{
	if (strncmp(name, "python3", 7) != 0)
		return -2;
	if (!name[7])
		return -1;
	if (name[7] != '.' || !isdigit((unsigned char)name[8]))
		return -2;
	int n = 0;
	for (const char *p = name + 8; *p; p++) {
		if (!isdigit((unsigned char)*p) || n > 9999)
			return -2;
		n = n * 10 + (*p - '0');
	}
	return n;
}

/* HP_TRUE when path exists (its symlinks followed) and is of type want
 * (ANY: of any type), HP_FALSE when not. */
static hp_tri is(ctx *c, const char *path, int want)
{
	hp_fileinfo fi;
	hp_err e;
	hp_tri t = hp_os_path_info(c->r, path, 0, &fi, &e);
	if (t == HP_UNKNOWN)
		hp_err_set(c->why, "%s", e.msg);
	if (t == HP_TRUE && want != ANY && (int)fi.type != want)
		return HP_FALSE;
	return t;
}

/* path with every symlink on it resolved, as realpath(3) does, inside r */
static hp_tri real_path(ctx *c, const char *path, char **res)
{
	char *done = hp_xstrdup("");
	char *rest = hp_xstrdup(path);
	int links = 0;
	hp_tri t = HP_TRUE;
	for (;;) {
		char *p = rest;
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, "/");
		char *comp = hp_xasprintf("%.*s", (int)n, p);
		char *after = hp_xstrdup(p + n);
		free(rest);
		rest = after;
		if (strcmp(comp, ".") == 0) {
			free(comp);
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			char *s = strrchr(done, '/');
			if (s)
				*s = '\0';
			free(comp);
			continue;
		}
		char *cand = hp_xasprintf("%s/%s", done, comp);
		free(comp);
		int fd;
		hp_err e;
		hp_fileinfo fi;
		t = hp_os_resolve(c->r, cand, HP_RES_NOFOLLOW, &fd, &e);
		if (t == HP_TRUE && hp_os_fd_info(fd, &fi, &e) != HP_TRUE) {
			close(fd);
			t = HP_UNKNOWN;
		}
		if (t != HP_TRUE) {
			hp_err_set(c->why, "%s", e.msg);
			free(cand);
			t = HP_UNKNOWN;
			break;
		}
		if (fi.type != HP_FT_SYMLINK) {
			close(fd);
			free(done);
			done = cand;
			continue;
		}
		char link[HP_PATH_MAX + 1];
		ssize_t ln = readlinkat(fd, "", link, sizeof link - 1);
		int err = errno;
		close(fd);
		if (++links > HP_WALK_MAX_SYMLINKS || ln <= 0 || ln >= (ssize_t)sizeof link - 1) {
			hp_err_set(c->why, "%s: %s", cand,
			           links > HP_WALK_MAX_SYMLINKS ? "too many symlinks"
			           : ln < 0                     ? strerror(err)
			                                        : "symlink empty or too long");
			free(cand);
			t = HP_UNKNOWN;
			break;
		}
		free(cand);
		link[ln] = '\0';
		if (link[0] == '/')
			done[0] = '\0';
		char *next = hp_xasprintf("%s%s", link, rest);
		free(rest);
		rest = next;
		if (strlen(rest) + strlen(done) > HP_PATH_MAX) {
			hp_err_set(c->why, "%s: path longer than %d bytes", path, HP_PATH_MAX);
			t = HP_UNKNOWN;
			break;
		}
	}
	free(rest);
	if (t != HP_TRUE) {
		free(done);
		return t;
	}
	if (!*done) {
		free(done);
		done = hp_xstrdup("/");
	}
	*res = done;
	return HP_TRUE;
}

/* A file CPython reads if it is there and that changes what it loads in
 * ways not modelled: listed when absent, unknown when present. */
static hp_tri must_be_absent(ctx *c, const char *path, const char *what)
{
	add(c, path);
	hp_tri t = is(c, path, ANY);
	if (t == HP_TRUE) {
		hp_err_set(c->why, "%s: %s: what CPython loads then is not modelled", path, what);
		return HP_UNKNOWN;
	}
	return t == HP_FALSE ? HP_TRUE : t;
}

/* The N of every lib/python3.N directory in d/lib, into vers (*nv of them). */
static hp_tri versions_in(ctx *c, const char *d, int *vers, int *nv)
{
	char *lib = join(d, "lib");
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(c->r, lib, 0, &fd, &e);
	if (t != HP_TRUE) {
		if (t == HP_UNKNOWN)
			hp_err_set(c->why, "%s", e.msg);
		free(lib);
		return t == HP_FALSE ? HP_TRUE : t;
	}
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE || fi.type != HP_FT_DIR) {
		close(fd);
		free(lib);
		return HP_TRUE;
	}
	int dfd = hp_os_proc_reopen(fd, O_RDONLY | O_DIRECTORY);
	close(fd);
	DIR *dp = dfd < 0 ? NULL : fdopendir(dfd);
	if (!dp) {
		hp_err_set(c->why, "%s: cannot be listed: %s", lib, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		free(lib);
		return HP_UNKNOWN;
	}
	t = HP_TRUE;
	struct dirent *de;
	for (long n = 0; t == HP_TRUE && (errno = 0, de = readdir(dp)); n++) {
		if (n > MAX_LIB_ENTRIES) {
			hp_err_set(c->why, "%s: more than %d entries", lib, MAX_LIB_ENTRIES);
			t = HP_UNKNOWN;
			break;
		}
		int v = hp_os_python_version(de->d_name);
		if (v < 0)
			continue;
		char *sub = join(lib, de->d_name);
		hp_tri ist = is(c, sub, HP_FT_DIR);
		free(sub);
		if (ist == HP_UNKNOWN) {
			t = HP_UNKNOWN;
			break;
		}
		if (ist == HP_FALSE)
			continue;
		bool seen = false;
		for (int i = 0; i < *nv; i++)
			seen |= vers[i] == v;
		if (seen)
			continue;
		if (*nv == HP_PYTHON_MAX_VERSIONS) {
			hp_err_set(c->why,
			           "more than %d python3.N directories above the interpreter",
			           HP_PYTHON_MAX_VERSIONS);
			t = HP_UNKNOWN;
			break;
		}
		vers[(*nv)++] = v;
	}
	if (t == HP_TRUE && errno) {
		hp_err_set(c->why, "%s: %s", lib, strerror(errno));
		t = HP_UNKNOWN;
	}
	closedir(dp);
	free(lib);
	return t;
}

/* CPython 3.N run from the real directory rdir: its prefix and what
 * below it, and above it for Debian's layout, it reads. */
static hp_tri version_paths(ctx *c, const char *rdir, int v)
{
	char *sub = hp_xasprintf("lib/python3.%d", v);
	char *zip = hp_xasprintf("lib/python3%d.zip", v);
	char *d = hp_xstrdup(rdir);
	char *prefix = NULL;
	bool dynload = false; /* the exec prefix found */
	hp_tri t = HP_TRUE;
	for (;;) {
		char *std = join(d, sub);
		char *osf = join(std, "os.py");
		char *osc = join(std, "os.pyc");
		char *dyn = join(std, "lib-dynload");
		hp_tri a = is(c, osf, HP_FT_FILE);
		hp_tri b = a == HP_UNKNOWN ? a : is(c, osc, HP_FT_FILE);
		hp_tri e = b == HP_UNKNOWN ? b : is(c, dyn, HP_FT_DIR);
		free(osf);
		free(osc);
		free(dyn);
		if (e == HP_UNKNOWN) {
			free(std);
			t = HP_UNKNOWN;
			break;
		}
		bool landmark = a == HP_TRUE || b == HP_TRUE;
		/* every directory looked in: whoever could change one could
		 * move the prefix or the exec prefix there */
		add(c, std);
		free(std);
		if (!prefix && landmark)
			prefix = hp_xstrdup(d);
		if (e == HP_TRUE)
			dynload = true;
		if ((prefix && dynload) || strcmp(d, "/") == 0)
			break;
		char *up = dir_of(d);
		free(d);
		d = up;
	}
	free(d);
	if (t == HP_TRUE && (!prefix || !dynload)) {
		hp_err_set(c->why, "no %s/%s above %s: CPython would use the prefix built into it",
		           sub, prefix ? "lib-dynload" : "os.py", rdir);
		t = HP_UNKNOWN;
	}
	if (t == HP_TRUE) {
		char *p = join(prefix, zip);
		add(c, p);
		free(p);
		if (strcmp(prefix, "/usr") == 0) {
			/* Debian's site.py and its sitecustomize link */
			p = hp_xasprintf("/usr/local/lib/python3.%d/dist-packages", v);
			add(c, p);
			free(p);
			add(c, "/usr/lib/python3/dist-packages");
			p = hp_xasprintf("/etc/python3.%d", v);
			add(c, p);
			free(p);
			add(c, "/etc/python3");
		}
	}
	free(prefix);
	free(sub);
	free(zip);
	return t;
}

hp_tri hp_os_python_paths(const hp_root *r, const char *exe, const char *real, hp_strv *out,
                          hp_err *why)
{
	out->v = NULL;
	out->n = out->cap = 0;
	int v = hp_os_python_version(base_of(real));
	if (v == -2 && hp_os_python_version(base_of(exe)) == -2)
		return HP_FALSE;
	ctx c = {r, out, why};
	/* getpath reads pyvenv.cfg one level up first, then beside it */
	char *d = dir_of(exe);
	char *up = dir_of(d);
	char *cfg_up = join(up, "pyvenv.cfg");
	char *cfg = join(d, "pyvenv.cfg");
	hp_tri t = must_be_absent(&c, cfg_up, "a virtual environment");
	if (t == HP_TRUE)
		t = must_be_absent(&c, cfg, "a virtual environment");
	free(cfg_up);
	free(cfg);
	free(up);
	free(d);
	char *rp = NULL, *rdir = NULL;
	if (t == HP_TRUE)
		t = real_path(&c, real, &rp);
	if (t == HP_TRUE) {
		rdir = dir_of(rp);
		char *bd = join(rdir, "pybuilddir.txt");
		char *sl = join(rdir, "Modules/Setup.local");
		t = must_be_absent(&c, bd, "a build directory");
		if (t == HP_TRUE)
			t = must_be_absent(&c, sl, "a build directory");
		free(bd);
		free(sl);
	}
	int vers[HP_PYTHON_MAX_VERSIONS], nv = 0;
	if (t == HP_TRUE && v >= 0) {
		vers[nv++] = v;
	} else if (t == HP_TRUE) {
		/* the name tells no version: every one that could be it */
		char *a = hp_xstrdup(rdir);
		for (;;) {
			t = versions_in(&c, a, vers, &nv);
			if (t != HP_TRUE || strcmp(a, "/") == 0)
				break;
			char *u = dir_of(a);
			free(a);
			a = u;
		}
		free(a);
		if (t == HP_TRUE && nv == 0) {
			hp_err_set(why, "no lib/python3.N above %s", rdir);
			t = HP_UNKNOWN;
		}
	}
	for (int i = 0; t == HP_TRUE && i < nv; i++)
		t = version_paths(&c, rdir, vers[i]);
	free(rp);
	free(rdir);
	if (t != HP_TRUE)
		hp_strv_free(out);
	return t;
}
