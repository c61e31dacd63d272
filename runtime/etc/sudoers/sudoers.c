/* sudoers.c: loading a sudoers policy through the caller's file callbacks:
 * the main file, @include and @includedir (relative to the including file,
 * includedir filtered and sorted as sudo does), with the depth limit, loop
 * detection and the bounds of sudoers.h; and sudo.conf first when asked. */
#include "etc/sudoers/sudoers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etc/sudo_conf.h"
#include "etc/sudoers/sudoers_tree.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

struct hp_sudoers_loader {
	const hp_sudo_files *files;
	char *stack[HP_SUDOERS_MAX_DEPTH + 2]; /* normalized paths being read */
	int depth;
};

/* A path with "//", "/./" and "dir/.." folded away, for loop detection.
 * (Symlinks can still make two names for one file; the depth limit and
 * the file count end such loops.) */
static char *normalize(const char *path)
{
	size_t n = strlen(path);
	char *out = hp_xmalloc(n + 2), *o = out;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		const char *c = p;
		while (*p && *p != '/')
			p++;
		size_t len = (size_t)(p - c);
		if (len == 0 || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			while (o > out && *--o != '/')
				;
			continue;
		}
		*o++ = '/';
		memcpy(o, c, len);
		o += len;
	}
	if (o == out)
		*o++ = '/';
	*o = '\0';
	return out;
}

static void where(char *buf, size_t n, const char *from, unsigned line, unsigned col)
{
	if (from)
		snprintf(buf, n, "%s:%u:%u: ", from, line, col);
	else
		buf[0] = '\0';
}

static void load(hp_sudoers *s, hp_sudoers_loader *ld, const char *path, int depth, bool in_dir,
                 const char *from, unsigned line, unsigned col)
{
	char at[512];
	hp_esc_buf e;
	where(at, sizeof at, from, line, col);
	if (depth > HP_SUDOERS_MAX_DEPTH) {
		hp_sudoers_add_problem(s, "%sincludes nested deeper than %d (at %s)", at, HP_SUDOERS_MAX_DEPTH,
		           hp_escs(&e, path));
		return;
	}
	if (s->nfiles >= HP_SUDOERS_MAX_FILES) {
		hp_sudoers_add_problem(s, "%smore than %d sudoers files to read (at %s)", at,
		           HP_SUDOERS_MAX_FILES, hp_escs(&e, path));
		return;
	}
	char *norm = normalize(path);
	for (int i = 0; i < ld->depth; i++) {
		if (strcmp(ld->stack[i], norm) == 0) {
			hp_sudoers_add_problem(s, "%sinclude loop: %s is already being read", at,
			           hp_escs(&e, path));
			free(norm);
			return;
		}
	}
	char *buf = NULL;
	size_t len = 0;
	hp_err err = {{0}};
	hp_sudo_io r = ld->files->read_file(ld->files->ctx, path, &buf, &len, &err);
	if (r != HP_SUDO_IO_OK) {
		free(buf);
		free(norm);
		if (in_dir && (r == HP_SUDO_IO_MISSING || r == HP_SUDO_IO_NOT_REGULAR))
			return; /* sudo skips what is not a regular file in an includedir */
		if (r == HP_SUDO_IO_MISSING && !from) {
			if (!s->missing_main)
				s->missing_main = hp_xstrdup(path);
		} else if (r == HP_SUDO_IO_MISSING) {
			hp_sudoers_add_problem(s, "%scannot include %s: it does not exist", at,
			           hp_escs(&e, path));
		} else if (r == HP_SUDO_IO_NOT_REGULAR) {
			hp_sudoers_add_problem(s, "%scannot read %s: not a regular file", at,
			           hp_escs(&e, path));
		} else {
			hp_sudoers_add_problem(s, "%scannot read %s: %s", at, hp_escs(&e, path), err.msg);
		}
		return;
	}
	s->nfiles++;
	s->nmain += !from;
	s->nbytes += len;
	const char *nul = memchr(buf, '\0', len);
	if (s->nbytes > HP_SUDOERS_MAX_BYTES) {
		hp_sudoers_add_problem(s, "%smore than %d bytes of sudoers files to read (at %s)", at,
		           HP_SUDOERS_MAX_BYTES, hp_escs(&e, path));
	} else if (nul) {
		unsigned l = 1;
		for (const char *p = buf; p < nul; p++)
			l += *p == '\n';
		hp_sudoers_add_problem(s, "%s:%u: NUL byte in the file", hp_escs(&e, path), l);
	} else {
		ld->stack[ld->depth++] = norm;
		hp_sudoers_parse(s, ld, hp_sudoers_strdup(s, path, strlen(path)), buf, len, depth);
		ld->depth--;
	}
	free(norm);
	free(buf);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_dir(hp_sudoers *s, hp_sudoers_loader *ld, const char *dir, int depth, const char *from,
                     unsigned line, unsigned col)
{
	char **names = NULL;
	hp_err err = {{0}};
	hp_esc_buf e;
	hp_sudo_io r = ld->files->list_dir(ld->files->ctx, dir, &names, &err);
	if (r == HP_SUDO_IO_MISSING || r == HP_SUDO_IO_NOT_REGULAR) {
		/* sudo ignores a missing include directory, or something else there */
		return;
	}
	if (r != HP_SUDO_IO_OK) {
		hp_sudoers_add_problem(s, "%s:%u:%u: cannot list %s: %s", from, line, col, hp_escs(&e, dir),
		           err.msg);
		return;
	}
	size_t n = 0, keep = 0;
	while (names[n])
		n++;
	for (size_t i = 0; i < n; i++) {
		const char *nm = names[i];
		size_t len = strlen(nm);
		if (len == 0 || nm[len - 1] == '~' || strchr(nm, '.') || strchr(nm, '/'))
			free(names[i]);
		else
			names[keep++] = names[i];
	}
	if (keep > HP_SUDOERS_MAX_DIR_ENTRIES) {
		hp_sudoers_add_problem(s, "%s:%u:%u: more than %d files in %s", from, line, col,
		           HP_SUDOERS_MAX_DIR_ENTRIES, hp_escs(&e, dir));
	} else {
		qsort(names, keep, sizeof *names, by_name);
		size_t dl = strlen(dir);
		for (size_t i = 0; i < keep; i++) {
			char *p = hp_xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/",
			                       names[i]);
			load(s, ld, p, depth + 1, true, from, line, col);
			free(p);
		}
	}
	for (size_t i = 0; i < keep; i++)
		free(names[i]);
	free(names);
}

void hp_sudoers_include(hp_sudoers *s, hp_sudoers_loader *ld, const char *path, bool dir, int depth,
                const char *from, unsigned line, unsigned col)
{
	char *full;
	const char *slash = strrchr(from, '/');
	if (path[0] == '/' || !slash)
		full = hp_xstrdup(path);
	else
		full = hp_xasprintf("%.*s%s", (int)(slash + 1 - from), from, path);
	if (dir)
		load_dir(s, ld, full, depth, from, line, col);
	else
		load(s, ld, full, depth + 1, false, from, line, col);
	free(full);
}

hp_sudoers *hp_sudoers_load(const char *path, const hp_sudo_files *files)
{
	hp_sudoers *s = hp_xcalloc(1, sizeof *s);
	hp_sudoers_loader ld = {.files = files};
	load(s, &ld, path, 0, false, NULL, 0, 0);
	hp_sudoers_index_aliases(s);
	return s;
}

const hp_sudo_place hp_sudoers_sudo_places[] = {
    {"/etc/sudo.conf", "/etc/sudoers"},
    {"/usr/local/etc/sudo.conf", "/usr/local/etc/sudoers"},
};
const size_t hp_sudoers_sudo_nplaces = sizeof hp_sudoers_sudo_places / sizeof hp_sudoers_sudo_places[0];

hp_sudoers *hp_sudoers_load_system(const hp_sudo_files *files, const hp_nsswitch *ns)
{
	hp_sudoers *s = hp_xcalloc(1, sizeof *s);
	hp_sudoers_loader ld = {.files = files};
	if (ns && ns->src[HP_NSS_SUDOERS] != HP_NSS_FILES)
		hp_sudoers_add_problem(s, "%s", ns->why[HP_NSS_SUDOERS]);
	for (size_t i = 0; i < hp_sudoers_sudo_nplaces; i++) {
		const hp_sudo_place *pl = &hp_sudoers_sudo_places[i];
		hp_sudo_conf conf;
		char *buf = NULL;
		size_t len = 0;
		hp_err err = {{0}};
		hp_sudo_io r = files->read_file(files->ctx, pl->sudo_conf, &buf, &len, &err);
		if (r == HP_SUDO_IO_OK) {
			hp_etc_sudo_conf_parse(buf, len, pl->sudo_conf, pl->sudoers, &conf);
			if (!conf.ok)
				hp_sudoers_add_problem(s, "%s", conf.why);
		} else {
			hp_etc_sudo_conf_default(&conf, pl->sudoers);
			if (r == HP_SUDO_IO_NOT_REGULAR)
				hp_sudoers_add_problem(s, "cannot read %s: not a regular file", pl->sudo_conf);
			else if (r != HP_SUDO_IO_MISSING)
				hp_sudoers_add_problem(s, "cannot read %s: %s", pl->sudo_conf, err.msg);
		}
		free(buf);
		load(s, &ld, conf.sudoers_file, 0, false, NULL, 0, 0);
		hp_etc_sudo_conf_free(&conf);
	}
	hp_sudoers_index_aliases(s);
	return s;
}

void hp_sudoers_free(hp_sudoers *s)
{
	if (!s)
		return;
	hp_sudoers_arena_free(s);
	free(s->us);
	for (int k = 0; k < SA_NKINDS; k++) {
		free(s->al[k]);
		hp_idxtab_free(&s->alidx[k]);
	}
	free(s->noauth);
	for (size_t i = 0; i < s->nproblems && i < HP_SUDOERS_MAX_PROBLEMS; i++)
		free(s->problems[i]);
	free(s->missing_main);
	free(s);
}

size_t hp_sudoers_nproblems(const hp_sudoers *s)
{
	return s->nproblems;
}

const char *hp_sudoers_problem(const hp_sudoers *s, size_t i)
{
	return i < s->nproblems && i < HP_SUDOERS_MAX_PROBLEMS ? s->problems[i] : NULL;
}

size_t hp_sudoers_nfiles(const hp_sudoers *s)
{
	return s->nfiles;
}
