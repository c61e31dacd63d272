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

#include "os/bounded_read.h"
#include "os/sysx.h"

/* entries read from one lib directory while looking for versions */
enum { MAX_LIB_ENTRIES = 65536, MAX_PTH_FILES = 256, PTH_CAP = 64 * 1024, ANY = -1 };

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

/* p (absolute) with "." and ".." taken lexically, as abspath does: the
 * directory getpath takes the interpreter's path to be in */
static char *lexical(const char *p)
{
	char *out = hp_xstrdup("");
	while (*p) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(out, '/');
			if (s)
				*s = '\0';
		} else {
			char *next = hp_xasprintf("%s/%.*s", out, (int)n, p);
			free(out);
			out = next;
		}
		p += n;
	}
	if (!*out) {
		free(out);
		out = hp_xstrdup("/");
	}
	return out;
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

/* An open listing of the directory at path, or NULL: HP_FALSE when it is
 * not there or not a directory. */
static hp_tri open_dir(ctx *c, const char *path, DIR **dp)
{
	*dp = NULL;
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(c->r, path, 0, &fd, &e);
	if (t != HP_TRUE) {
		if (t == HP_UNKNOWN)
			hp_err_set(c->why, "%s", e.msg);
		return t;
	}
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE) {
		close(fd);
		hp_err_set(c->why, "%s: %s", path, e.msg);
		return HP_UNKNOWN;
	}
	if (fi.type != HP_FT_DIR) {
		close(fd);
		return HP_FALSE;
	}
	int dfd = hp_os_proc_reopen(fd, O_RDONLY | O_DIRECTORY);
	close(fd);
	*dp = dfd < 0 ? NULL : fdopendir(dfd);
	if (!*dp) {
		hp_err_set(c->why, "%s: cannot be listed: %s", path, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return HP_UNKNOWN;
	}
	return HP_TRUE;
}

/* The N of every lib/python3.N directory in d/lib, into vers (*nv of them). */
static hp_tri versions_in(ctx *c, const char *d, int *vers, int *nv)
{
	char *lib = hp_xpath_join(d, "lib");
	DIR *dp;
	hp_tri t = open_dir(c, lib, &dp);
	if (t != HP_TRUE) {
		free(lib);
		return t == HP_FALSE ? HP_TRUE : t;
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
		char *sub = hp_xpath_join(lib, de->d_name);
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

/* The directories one .pth file's path lines add to sys.path, as site.py's
 * addpackage reads them: each that exists, relative ones from sitedir. An
 * import line is code the file holds, and the file is in a listed tree. */
static hp_tri pth_lines(ctx *c, const char *sitedir, const char *file)
{
	char *buf;
	size_t len;
	hp_err e;
	hp_tri t = hp_os_read_file_in_root(c->r, file, PTH_CAP, &buf, &len, &e);
	if (t != HP_TRUE) {
		if (t == HP_UNKNOWN)
			hp_err_set(c->why, "%s", e.msg);
		return t == HP_FALSE ? HP_TRUE : t;
	}
	t = HP_TRUE;
	for (char *line = buf; t == HP_TRUE && line < buf + len;) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));
		char *end = nl ? nl : buf + len;
		char *next = nl ? nl + 1 : buf + len;
		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		const char *s = line;
		while (s < end && isspace((unsigned char)*s))
			s++;
		if (s == end || *line == '#' || strncmp(line, "import ", 7) == 0 ||
		    strncmp(line, "import\t", 7) == 0 || memchr(line, '\0', (size_t)(end - line))) {
			line = next;
			continue;
		}
		char *p = hp_xasprintf("%.*s", (int)(end - line), line);
		char *dir = p[0] == '/' ? hp_xstrdup(p) : hp_xpath_join(sitedir, p);
		free(p);
		hp_tri ex = is(c, dir, ANY);
		if (ex == HP_TRUE)
			add(c, dir);
		else if (ex == HP_UNKNOWN)
			t = ex;
		free(dir);
		line = next;
	}
	free(buf);
	return t;
}

/* What the .pth files of a site directory add (sitedir listed already). */
static hp_tri pth_dirs(ctx *c, const char *sitedir)
{
	DIR *dp;
	hp_tri t = open_dir(c, sitedir, &dp);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_TRUE : t;
	hp_strv files = {NULL, 0, 0};
	struct dirent *de;
	while (t == HP_TRUE && (errno = 0, de = readdir(dp))) {
		size_t n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 4, ".pth") != 0)
			continue;
		if (files.n == MAX_PTH_FILES) {
			hp_err_set(c->why, "%s: more than %d .pth files", sitedir, MAX_PTH_FILES);
			t = HP_UNKNOWN;
			break;
		}
		char *f = hp_xpath_join(sitedir, de->d_name);
		hp_strv_push(&files, f);
		free(f);
	}
	if (t == HP_TRUE && errno) {
		hp_err_set(c->why, "%s: %s", sitedir, strerror(errno));
		t = HP_UNKNOWN;
	}
	closedir(dp);
	for (size_t i = 0; t == HP_TRUE && i < files.n; i++)
		t = pth_lines(c, sitedir, files.v[i]);
	hp_strv_free(&files);
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
		char *std = hp_xpath_join(d, sub);
		char *osf = hp_xpath_join(std, "os.py");
		char *osc = hp_xpath_join(std, "os.pyc");
		char *dyn = hp_xpath_join(std, "lib-dynload");
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
		char *up = hp_xpath_dir(d);
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
		char *p = hp_xpath_join(prefix, zip);
		add(c, p);
		free(p);
		/* the site directories site.py runs the .pth files of:
		 * upstream's site-packages (Debian's only in a virtual
		 * environment), in the tree, and for Debian's /usr prefix its
		 * own, with /etc/python3.N for its sitecustomize link */
		hp_strv site = {NULL, 0, 0};
		p = hp_xpath_join(prefix, sub);
		char *sp = hp_xpath_join(p, "site-packages");
		hp_strv_push(&site, sp);
		free(sp);
		if (strcmp(prefix, "/usr") == 0) {
			sp = hp_xpath_join(p, "dist-packages");
			hp_strv_push(&site, sp);
			free(sp);
			sp = hp_xasprintf("/usr/local/lib/python3.%d/dist-packages", v);
			add(c, sp);
			hp_strv_push(&site, sp);
			free(sp);
			add(c, "/usr/lib/python3/dist-packages");
			hp_strv_push(&site, "/usr/lib/python3/dist-packages");
			sp = hp_xasprintf("/etc/python3.%d", v);
			add(c, sp);
			free(sp);
			add(c, "/etc/python3");
		}
		free(p);
		for (size_t i = 0; t == HP_TRUE && i < site.n; i++)
			t = pth_dirs(c, site.v[i]);
		hp_strv_free(&site);
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
	int v = hp_os_python_version(hp_path_base(real));
	if (v == -2 && hp_os_python_version(hp_path_base(exe)) == -2)
		return HP_FALSE;
	ctx c = {r, out, why};
	/* getpath reads pyvenv.cfg one level up first, then beside it */
	char *ex = lexical(exe);
	char *d = hp_xpath_dir(ex);
	free(ex);
	char *up = hp_xpath_dir(d);
	char *cfg_up = hp_xpath_join(up, "pyvenv.cfg");
	char *cfg = hp_xpath_join(d, "pyvenv.cfg");
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
		rdir = hp_xpath_dir(rp);
		char *bd = hp_xpath_join(rdir, "pybuilddir.txt");
		char *sl = hp_xpath_join(rdir, "Modules/Setup.local");
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
			char *u = hp_xpath_dir(a);
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
