/* command_files.c: what running a command by name on a PATH depends on
 * (command_files.h). */
#include "os/command_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/binfmt_misc.h"
#include "os/elf_deps.h"
#include "os/python_paths.h"
#include "os/sysx.h"

typedef struct {
	const hp_root *r;
	const char *path_list; /* the DIRs, colon-separated */
	hp_strv *out;
	hp_err *why;
	int failed; /* out is full or something was unknown */
} ctx;

static void add(ctx *c, const char *p)
{
	for (size_t i = 0; i < c->out->n; i++)
		if (strcmp(c->out->v[i], p) == 0)
			return;
	if (c->out->n == HP_COMMAND_MAX_FILES) {
		hp_err_set(c->why, "more than %d files", HP_COMMAND_MAX_FILES);
		c->failed = 1;
		return;
	}
	hp_strv_push(c->out, p);
}

/* Follow path's symlinks hop by hop, adding each hop; *final is the path
 * of the file it ends on (malloc'd). HP_FALSE when it leads nowhere. */
static hp_tri chain(ctx *c, const char *path, char **final)
{
	char *cur = hp_xstrdup(path);
	for (int hops = 0;; hops++) {
		add(c, cur);
		if (hops > HP_WALK_MAX_SYMLINKS) {
			hp_err_set(c->why, "%s: more than %d symlinks", path, HP_WALK_MAX_SYMLINKS);
			free(cur);
			return HP_UNKNOWN;
		}
		int fd;
		hp_err e;
		hp_tri t = hp_os_resolve(c->r, cur, HP_RES_NOFOLLOW, &fd, &e);
		if (t != HP_TRUE) {
			hp_err_set(c->why, "%s", e.msg);
			free(cur);
			return t;
		}
		hp_fileinfo fi;
		if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE) {
			close(fd);
			hp_err_set(c->why, "%s: %s", cur, e.msg);
			free(cur);
			return HP_UNKNOWN;
		}
		if (fi.type != HP_FT_SYMLINK) {
			close(fd);
			*final = cur;
			return HP_TRUE;
		}
		char link[HP_PATH_MAX + 1];
		ssize_t n = readlinkat(fd, "", link, sizeof link - 1);
		int err = errno;
		close(fd);
		if (n <= 0 || n >= (ssize_t)sizeof link - 1) {
			hp_err_set(c->why, "%s: reading the symlink: %s", cur,
			           n < 0 ? strerror(err) : "empty or too long");
			free(cur);
			return HP_UNKNOWN;
		}
		link[n] = '\0';
		char *next;
		if (link[0] == '/') {
			next = hp_xstrdup(link);
		} else {
			char *d = hp_xpath_dir(cur);
			next = hp_xasprintf("%s/%s", strcmp(d, "/") == 0 ? "" : d, link);
			free(d);
		}
		free(cur);
		cur = next;
		if (strlen(cur) > HP_PATH_MAX) {
			hp_err_set(c->why, "%s: path longer than %d bytes", path, HP_PATH_MAX);
			free(cur);
			return HP_UNKNOWN;
		}
	}
}

/* Every DIR/NAME on the PATH that some user could execute: a regular file
 * with an execute bit. execvp goes on past a file its caller cannot
 * execute (EACCES: no execute permission for it, by the mode or an ACL, a
 * directory on the way it cannot search, a noexec mount, an LSM) and past
 * one that is missing (ENOENT, ENOTDIR), so which of them runs depends on
 * who runs it, and root cannot tell that for another user with certainty.
 * Only what refuses every user is passed over; each of the others may be
 * what runs, and all of them go into the list. */
static hp_tri look_up(ctx *c, const char *name, hp_strv *found)
{
	found->v = NULL;
	found->n = found->cap = 0;
	const char *p = *c->path_list ? c->path_list : NULL;
	while (p) {
		const char *q = strchr(p, ':');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		char *cand = hp_xasprintf("%.*s/%s", (int)n, p, name);
		hp_fileinfo fi;
		hp_err e;
		hp_tri t = hp_os_path_info(c->r, cand, 0, &fi, &e);
		if (t == HP_TRUE && fi.type == HP_FT_FILE && (fi.mode & 0111))
			hp_strv_push(found, cand);
		free(cand);
		if (t == HP_UNKNOWN) {
			/* execvp goes on past some errors and stops at others: what
			 * it ends on is then not known */
			hp_err_set(c->why, "%s", e.msg);
			hp_strv_free(found);
			return HP_UNKNOWN;
		}
		p = q ? q + 1 : NULL;
	}
	if (found->n)
		return HP_TRUE;
	hp_err_set(c->why, "no %s on the PATH %s", name, c->path_list);
	return HP_FALSE;
}

hp_tri hp_os_shebang_parse(const char *buf, size_t len, char **interp, char **arg, hp_err *why)
{
	*interp = *arg = NULL;
	if (len < 2 || buf[0] != '#' || buf[1] != '!')
		return HP_FALSE;
	/* the line ends at a newline, or at the end of a file shorter than
	 * what the kernel reads */
	const char *nl = memchr(buf, '\n', len);
	if (!nl && len < HP_COMMAND_LINE)
		nl = buf + len;
	if (!nl) {
		hp_err_set(why, "the \"#!\" line is longer than %d bytes", HP_COMMAND_LINE);
		return HP_UNKNOWN;
	}
	const char *s = buf + 2, *e = nl;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	const char *w = s;
	while (w < e && *w != ' ' && *w != '\t')
		w++;
	if (w == s || memchr(s, '\0', (size_t)(e - s))) {
		hp_err_set(why, "the \"#!\" line names no interpreter");
		return HP_UNKNOWN;
	}
	*interp = hp_xasprintf("%.*s", (int)(w - s), s);
	while (w < e && (*w == ' ' || *w == '\t'))
		w++;
	*arg = hp_xasprintf("%.*s", (int)(e - w), w);
	return HP_TRUE;
}

hp_tri hp_os_env_command(const char *arg, char **cmd, hp_err *why)
{
	*cmd = NULL;
	/* without -S the kernel passes the rest of the line as one word */
	bool split = strncmp(arg, "-S", 2) == 0;
	const char *p = arg;
	if (split) {
		p += 2;
	} else if (strchr(arg, ' ') || strchr(arg, '\t')) {
		if (arg[0] == '-') {
			hp_err_set(why, "env %s: an option env does not split without -S", arg);
			return HP_UNKNOWN;
		}
		/* one word with blanks: env looks up that whole name */
		*cmd = hp_xstrdup(arg);
		return HP_TRUE;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " \t");
		if (p[0] == '-') {
			/* -i, -0, --ignore-environment... change the environment, not
			 * the command; an option that takes a value cannot be told
			 * apart here */
			if ((n == 2 && strchr("i0v", p[1])) || (n > 2 && p[1] == '-' &&
			    (strncmp(p, "--ignore-environment", n) == 0 || strncmp(p, "--null", n) == 0 ||
			     strncmp(p, "--debug", n) == 0))) {
				p += n;
				continue;
			}
			hp_err_set(why, "env: option %.*s is not understood here", (int)n, p);
			return HP_UNKNOWN;
		}
		if (memchr(p, '=', n)) {
			p += n; /* VAR=value */
			continue;
		}
		*cmd = hp_xasprintf("%.*s", (int)n, p);
		return HP_TRUE;
	}
	hp_err_set(why, "env %s: no command", arg);
	return HP_UNKNOWN;
}

/* The file at path (a regular file) opened for reading: *rfd, its size,
 * and its first bytes, as many as the kernel reads for "#!". */
static hp_tri open_head(ctx *c, const char *path, int *rfd, uint64_t *size, char *buf, size_t *len)
{
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(c->r, path, 0, &fd, &e);
	if (t != HP_TRUE) {
		hp_err_set(c->why, "%s", e.msg);
		return HP_UNKNOWN;
	}
	hp_fileinfo fi;
	if (hp_os_fd_info(fd, &fi, &e) != HP_TRUE || fi.type != HP_FT_FILE) {
		close(fd);
		hp_err_set(c->why, "%s: not a regular file", path);
		return HP_UNKNOWN;
	}
	*rfd = hp_os_proc_reopen(fd, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	close(fd);
	if (*rfd < 0) {
		hp_err_set(c->why, "%s: cannot be read: %s", path, strerror(errno));
		return HP_UNKNOWN;
	}
	*size = fi.size;
	ssize_t n = pread(*rfd, buf, HP_COMMAND_LINE, 0);
	if (n < 0) {
		hp_err_set(c->why, "%s: %s", path, strerror(errno));
		close(*rfd);
		*rfd = -1;
		return HP_UNKNOWN;
	}
	*len = (size_t)n;
	return HP_TRUE;
}

static int pread_all(void *fdp, uint64_t off, void *buf, size_t len)
{
	int fd = *(int *)fdp;
	for (size_t done = 0; done < len;) {
		if (off + done > (uint64_t)INT64_MAX)
			return -1;
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* The package of file (absolute): its root and the node_modules lookup. */
static void package_of(ctx *c, const char *file)
{
	char *d = hp_xpath_dir(file);
	for (int up = 0; up < HP_WALK_MAX_DEPTH && !c->failed; up++) {
		char *pj = hp_xasprintf("%s/package.json", strcmp(d, "/") == 0 ? "" : d);
		hp_fileinfo fi;
		hp_err e;
		hp_tri t = hp_os_path_info(c->r, pj, 0, &fi, &e);
		free(pj);
		if (t == HP_UNKNOWN) {
			hp_err_set(c->why, "%s", e.msg);
			c->failed = 1;
			break;
		}
		if (t == HP_TRUE) {
			add(c, d);
			/* Node looks for DIR/node_modules in the package and in every
			 * directory above it not itself named node_modules */
			char *a = hp_xstrdup(d);
			for (;;) {
				if (strcmp(hp_path_base(a), "node_modules") != 0) {
					char *nm = hp_xasprintf("%s/node_modules",
					                        strcmp(a, "/") == 0 ? "" : a);
					hp_fileinfo ni;
					if (hp_os_path_info(c->r, nm, 0, &ni, &e) == HP_TRUE)
						add(c, nm);
					free(nm);
				}
				if (strcmp(a, "/") == 0)
					break;
				char *up2 = hp_xpath_dir(a);
				free(a);
				a = up2;
			}
			free(a);
			break;
		}
		if (strcmp(d, "/") == 0)
			break;
		char *up2 = hp_xpath_dir(d);
		free(d);
		d = up2;
	}
	free(d);
}

/* What CPython reads from the image when path, ending on final, runs it
 * (python_paths.h); nothing for another program. */
static hp_tri python_of(ctx *c, const char *path, const char *final)
{
	hp_strv py;
	hp_err e;
	hp_tri t = hp_os_python_paths(c->r, path, final, &py, &e);
	if (t == HP_UNKNOWN) {
		hp_err_set(c->why, "%s", e.msg);
		return t;
	}
	for (size_t i = 0; i < py.n; i++)
		add(c, py.v[i]);
	hp_strv_free(&py);
	return HP_TRUE;
}

static hp_tri files_of(ctx *c, const char *path, int depth);
static hp_tri library_files(ctx *c, const char *path, int depth);
static hp_tri shell_of(ctx *c, const char *final, int depth);

/* What the kernel and the loader run for the ELF file final (open as fd):
 * for a program the kernel executes (exec), the loader its PT_INTERP
 * names, and /bin/sh when the kernel may refuse the file; for it and a
 * library alike, the directories its DT_RPATH or DT_RUNPATH name (where
 * the loader looks for the libraries it loads by name) and each library it
 * names by path, in turn. A library found by name in them, or in the
 * loader's own directories (judged by the system-files rule), is not
 * read. origin is what $ORIGIN stands for. */
static hp_tri elf_files(ctx *c, const char *final, const char *origin, int fd, uint64_t size,
                        bool exec, int depth)
{
	hp_elf_src src = {pread_all, &fd, size};
	hp_elf_deps d;
	hp_err e;
	hp_tri t = hp_os_elf_deps(&src, &d, &e);
	if (t != HP_TRUE) {
		hp_err_set(c->why, "%s: %s", final, t == HP_FALSE ? "not an ELF file" : e.msg);
		return HP_UNKNOWN;
	}
	if (exec && d.interp) {
		char *ld = NULL;
		if (d.interp[0] != '/') {
			hp_err_set(c->why,
			           "%s: the loader '%s' is not an absolute path: the kernel "
			           "resolves it against the working directory",
			           final, d.interp);
			t = HP_UNKNOWN;
		} else {
			/* the kernel maps it as it is: no "#!", no loader of its own */
			t = chain(c, d.interp, &ld);
			if (t == HP_FALSE)
				t = HP_UNKNOWN;
		}
		free(ld);
	}
	if (t == HP_TRUE && exec && d.foreign)
		t = shell_of(c, final, depth);
	hp_strv dirs = {NULL, 0, 0};
	for (size_t i = 0; t == HP_TRUE && i < d.runpath.n + d.rpath.n; i++) {
		const char *l = i < d.runpath.n ? d.runpath.v[i] : d.rpath.v[i - d.runpath.n];
		t = hp_os_elf_search_dirs(l, origin, &dirs, &e);
		if (t != HP_TRUE)
			hp_err_set(c->why, "%s: library path %s", final, e.msg);
	}
	for (size_t i = 0; t == HP_TRUE && i < dirs.n; i++)
		add(c, dirs.v[i]);
	hp_strv_free(&dirs);
	for (size_t i = 0; t == HP_TRUE && i < d.needed.n; i++) {
		char *lib = NULL;
		t = hp_os_elf_expand(d.needed.v[i], origin, &lib, &e);
		if (t != HP_TRUE) {
			hp_err_set(c->why, "%s: library %s", final, e.msg);
		} else if (!strchr(lib, '/')) {
			/* searched for in the directories above and the loader's */
		} else if (lib[0] != '/') {
			hp_err_set(c->why,
			           "%s: the library '%s' is a relative path: the loader opens it "
			           "from the working directory",
			           final, lib);
			t = HP_UNKNOWN;
		} else if (depth >= HP_COMMAND_MAX_INTERP) {
			hp_err_set(c->why, "%s: libraries nested more than %d deep", final,
			           HP_COMMAND_MAX_INTERP);
			t = HP_UNKNOWN;
		} else {
			t = library_files(c, lib, depth + 1);
		}
		free(lib);
	}
	hp_os_elf_deps_free(&d);
	return t;
}

/* A library the loader opens by path: its symlinks, its file, and what it
 * loads in turn ($ORIGIN: the directory of the path it was opened by). */
static hp_tri library_files(ctx *c, const char *path, int depth)
{
	char *final = NULL;
	hp_tri t = chain(c, path, &final);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_UNKNOWN : t;
	char buf[HP_COMMAND_LINE];
	size_t len = 0;
	uint64_t size = 0;
	int fd = -1;
	t = open_head(c, final, &fd, &size, buf, &len);
	if (t == HP_TRUE) {
		char *origin = hp_xpath_dir(path);
		t = elf_files(c, final, origin, fd, size, false, depth);
		free(origin);
		close(fd);
	}
	free(final);
	return t;
}

/* A file the kernel refuses to execute (ENOEXEC): glibc's execvp, the
 * driver's and env's, then runs it with /bin/sh. */
static hp_tri shell_of(ctx *c, const char *final, int depth)
{
	if (depth >= HP_COMMAND_MAX_INTERP) {
		hp_err_set(c->why, "%s: interpreters nested more than %d deep", final,
		           HP_COMMAND_MAX_INTERP);
		return HP_UNKNOWN;
	}
	return files_of(c, "/bin/sh", depth + 1);
}

/* The files behind running path (found already), depth levels of
 * interpreters deep. */
static hp_tri files_of(ctx *c, const char *path, int depth)
{
	char *final = NULL;
	hp_tri t = chain(c, path, &final);
	if (t != HP_TRUE)
		return t == HP_FALSE ? HP_UNKNOWN : t;
	char buf[HP_COMMAND_LINE];
	size_t len = 0;
	uint64_t size = 0;
	int fd = -1;
	t = open_head(c, final, &fd, &size, buf, &len);
	char *interp = NULL, *arg = NULL;
	if (t == HP_TRUE) {
		hp_err e;
		t = hp_os_shebang_parse(buf, len, &interp, &arg, &e);
		if (t == HP_UNKNOWN)
			hp_err_set(c->why, "%s: %s", final, e.msg);
		else if (t == HP_FALSE)
			t = HP_TRUE;
	}
	if (t == HP_TRUE)
		package_of(c, final);
	if (t == HP_TRUE)
		t = python_of(c, path, final);
	if (t == HP_TRUE && !interp) {
		if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0) {
			/* $ORIGIN of a program is the directory the file is in
			 * (the loader reads /proc/self/exe) */
			char *origin = hp_xpath_dir(final);
			t = elf_files(c, final, origin, fd, size, true, depth);
			free(origin);
		} else {
			t = shell_of(c, final, depth); /* neither ELF nor "#!": ENOEXEC */
		}
	}
	if (fd >= 0)
		close(fd);
	if (t == HP_TRUE && interp) {
		if (depth >= HP_COMMAND_MAX_INTERP) {
			hp_err_set(c->why, "%s: interpreters nested more than %d deep", final,
			           HP_COMMAND_MAX_INTERP);
			t = HP_UNKNOWN;
		} else if (interp[0] != '/') {
			hp_err_set(c->why,
			           "%s: the interpreter '%s' is not an absolute path: the kernel "
			           "resolves it against the working directory",
			           final, interp);
			t = HP_UNKNOWN;
		} else {
			t = files_of(c, interp, depth + 1);
			if (t == HP_TRUE && strcmp(hp_path_base(interp), "env") == 0) {
				char *cmd = NULL;
				hp_err e;
				t = hp_os_env_command(arg, &cmd, &e);
				if (t != HP_TRUE) {
					hp_err_set(c->why, "%s: %s", final, e.msg);
				} else if (strchr(cmd, '/')) {
					if (cmd[0] != '/') {
						hp_err_set(c->why,
						           "%s: env runs '%s', a relative path", final,
						           cmd);
						t = HP_UNKNOWN;
					} else {
						t = files_of(c, cmd, depth + 1);
					}
				} else {
					hp_strv found;
					t = look_up(c, cmd, &found);
					if (t == HP_FALSE) {
						hp_err_set(c->why, "%s: env runs %s, which is on no "
						           "directory of the PATH", final, cmd);
						t = HP_UNKNOWN;
					}
					for (size_t i = 0; t == HP_TRUE && i < found.n; i++)
						t = files_of(c, found.v[i], depth + 1);
					hp_strv_free(&found);
				}
				free(cmd);
			}
		}
	}
	free(interp);
	free(arg);
	free(final);
	if (t == HP_TRUE && c->failed)
		t = HP_UNKNOWN;
	return t;
}

hp_tri hp_os_command_files(const hp_root *r, const char *spec, hp_strv *out, hp_err *why)
{
	out->v = NULL;
	out->n = out->cap = 0;
	const char *colon = strchr(spec, ':');
	char *name = colon ? hp_xasprintf("%.*s", (int)(colon - spec), spec) : hp_xstrdup(spec);
	ctx c = {r, colon ? colon + 1 : "", out, why, 0};
	hp_tri t;
	hp_strv found = {NULL, 0, 0};
	if (name[0] == '/') {
		hp_strv_push(&found, name);
		hp_fileinfo fi;
		hp_err e;
		t = hp_os_path_info(r, name, 0, &fi, &e);
		if (t != HP_TRUE)
			hp_err_set(why, "%s", e.msg);
	} else if (!*name || strchr(name, '/') || !colon) {
		hp_err_set(why, "'%s': not a command name and a PATH", spec);
		t = HP_UNKNOWN;
	} else {
		t = look_up(&c, name, &found);
	}
	for (size_t i = 0; t == HP_TRUE && i < found.n; i++)
		t = files_of(&c, found.v[i], 0);
	hp_strv_free(&found);
	/* binfmt_misc is the running kernel's: an image has none of its own */
	if (t == HP_TRUE && !(r->flags & HP_ROOT_OFFLINE)) {
		hp_strv bi = {NULL, 0, 0};
		hp_err e;
		t = hp_os_binfmt_interpreters(r, &bi, &e);
		if (t != HP_TRUE)
			hp_err_set(why, "%s", e.msg);
		for (size_t i = 0; t == HP_TRUE && i < bi.n; i++) {
			if (bi.v[i][0] != '/') {
				hp_err_set(why, "the binfmt_misc interpreter '%s' is not an absolute path",
				           bi.v[i]);
				t = HP_UNKNOWN;
			} else {
				t = files_of(&c, bi.v[i], 1);
			}
		}
		hp_strv_free(&bi);
	}
	free(name);
	if (t != HP_TRUE)
		hp_strv_free(out);
	return t;
}
