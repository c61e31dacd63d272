/* loader_dirs.c: the directories the loader's configuration and cache
 * name, read inside a root. */
#include "etc/loader_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etc/ldconf.h"
#include "lib/textesc.h"
#include "os/bounded_read.h"

typedef struct {
	const hp_root *r;
	hp_strv *dirs;
	unsigned files; /* configuration files read so far */
} conf_walk;

static hp_tri read_conf(conf_walk *w, const char *path, unsigned depth, hp_err *why);

static bool has_wildcard(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory dir matching pattern, sorted as glob sorts them:
 * HP_TRUE, HP_FALSE when dir does not exist, HP_UNKNOWN. */
static hp_tri list_matches(const hp_root *r, const char *dir, const char *pattern, hp_strv *out,
                           hp_err *why)
{
	int fd;
	hp_err e;
	hp_tri t = hp_os_resolve(r, dir, 0, &fd, &e);
	if (t == HP_FALSE)
		return HP_FALSE;
	if (t != HP_TRUE) {
		hp_err_set(why, "%s", e.msg);
		return HP_UNKNOWN;
	}
	DIR *d = hp_os_opendir_path(fd);
	if (!d) {
		if (errno == ENOTDIR)
			return HP_FALSE; /* glob matches nothing below a file */
		hp_err_set(why, "%s: %s", dir, strerror(errno));
		return HP_UNKNOWN;
	}
	hp_tri res = HP_TRUE;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fnmatch(pattern, de->d_name, FNM_PERIOD) != 0)
			continue;
		if (out->n >= HP_LDCONF_MAX_FILES) {
			hp_err_set(why, "%s: more than %d files match %s", dir, HP_LDCONF_MAX_FILES,
			           pattern);
			res = HP_UNKNOWN;
			break;
		}
		hp_strv_push(out, de->d_name);
		errno = 0;
	}
	if (res == HP_TRUE && !de && errno) {
		hp_err_set(why, "%s: %s", dir, strerror(errno));
		res = HP_UNKNOWN;
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_str);
	return res;
}

/* The files an include pattern names, each read in turn. */
static hp_tri include(conf_walk *w, const char *pattern, unsigned depth, hp_err *why)
{
	hp_esc_buf eb;
	const char *sl = strrchr(pattern, '/');
	if (!sl) {
		hp_err_set(why, "include %s: not a path", hp_escs(&eb, pattern));
		return HP_UNKNOWN;
	}
	const char *last = sl + 1;
	if (has_wildcard(pattern, (size_t)(sl - pattern))) {
		hp_err_set(why, "include %s: a wildcard in a directory's name is not followed",
		           hp_escs(&eb, pattern));
		return HP_UNKNOWN;
	}
	char *dir = sl == pattern ? hp_xstrdup("/") : hp_xstrndup(pattern, (size_t)(sl - pattern));
	hp_tri t = HP_TRUE;
	if (!has_wildcard(last, strlen(last))) {
		t = read_conf(w, pattern, depth, why);
	} else {
		hp_strv names = {0};
		hp_tri l = list_matches(w->r, dir, last, &names, why);
		if (l == HP_UNKNOWN)
			t = HP_UNKNOWN;
		for (size_t i = 0; l == HP_TRUE && t == HP_TRUE && i < names.n; i++) {
			char *path = hp_xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", names.v[i]);
			t = read_conf(w, path, depth, why);
			free(path);
		}
		hp_strv_free(&names);
	}
	free(dir);
	return t;
}

static hp_tri read_conf(conf_walk *w, const char *path, unsigned depth, hp_err *why)
{
	if (depth > HP_LDCONF_MAX_DEPTH) {
		hp_err_set(why, "%s: includes nested more than %d deep", path, HP_LDCONF_MAX_DEPTH);
		return HP_UNKNOWN;
	}
	if (++w->files > HP_LDCONF_MAX_FILES) {
		hp_err_set(why, "%s: more than %d configuration files", path, HP_LDCONF_MAX_FILES);
		return HP_UNKNOWN;
	}
	char *buf;
	size_t len;
	hp_tri t = hp_os_read_file_in_root(w->r, path, HP_READ_CAP_DEFAULT, &buf, &len, why);
	if (t == HP_FALSE)
		return HP_TRUE; /* names nothing, as for ldconfig */
	if (t != HP_TRUE)
		return HP_UNKNOWN;
	hp_strv includes = {0};
	t = hp_etc_ldconf_parse(buf, len, path, w->dirs, &includes, why);
	free(buf);
	for (size_t i = 0; t == HP_TRUE && i < includes.n; i++)
		t = include(w, includes.v[i], depth + 1, why);
	hp_strv_free(&includes);
	return t;
}

static hp_tri read_cache(const hp_root *r, hp_strv *dirs, hp_err *why)
{
	const char *path = "/etc/ld.so.cache";
	char *buf;
	size_t len;
	hp_tri t = hp_os_read_file_in_root(r, path, HP_READ_CAP_DEFAULT, &buf, &len, why);
	if (t == HP_FALSE)
		return HP_TRUE;
	if (t != HP_TRUE)
		return HP_UNKNOWN;
	t = hp_etc_ldcache_dirs(buf, len, path, dirs, why);
	free(buf);
	return t;
}

hp_tri hp_etc_loader_dirs(const hp_root *r, hp_strv *out, hp_err *why)
{
	hp_strv dirs = {0};
	conf_walk w = {r, &dirs, 0};
	hp_tri t = read_conf(&w, "/etc/ld.so.conf", 0, why);
	if (t == HP_TRUE)
		t = read_cache(r, &dirs, why);
	if (t != HP_TRUE) {
		hp_strv_free(&dirs);
		return HP_UNKNOWN;
	}
	if (dirs.n > 1)
		qsort(dirs.v, dirs.n, sizeof *dirs.v, cmp_str);
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < dirs.n; i++)
		if (!out->n || strcmp(out->v[out->n - 1], dirs.v[i]) != 0)
			hp_strv_push(out, dirs.v[i]);
	hp_strv_free(&dirs);
	return HP_TRUE;
}
