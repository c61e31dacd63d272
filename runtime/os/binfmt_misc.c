/* binfmt_misc.c: the live kernel's binfmt_misc handlers and their
 * interpreters (binfmt_misc.h). */
#include "os/binfmt_misc.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/bounded_read.h"

#define BINFMT_DIR "/proc/sys/fs/binfmt_misc"

hp_tri hp_os_binfmt_entry_parse(const char *buf, bool *enabled, char **interp, hp_err *why)
{
	*interp = NULL;
	size_t first = strcspn(buf, "\n");
	if (first == 7 && strncmp(buf, "enabled", 7) == 0) {
		*enabled = true;
	} else if (first == 8 && strncmp(buf, "disabled", 8) == 0) {
		*enabled = false;
	} else {
		hp_err_set(why, "the first line is neither \"enabled\" nor \"disabled\"");
		return HP_UNKNOWN;
	}
	for (const char *l = buf; *l;) {
		size_t n = strcspn(l, "\n");
		if (n > 12 && strncmp(l, "interpreter ", 12) == 0) {
			*interp = hp_xstrndup(l + 12, n - 12);
			return HP_TRUE;
		}
		l += n;
		if (*l)
			l++;
	}
	hp_err_set(why, "no \"interpreter\" line");
	return HP_UNKNOWN;
}

static hp_tri read_entry(const hp_root *r, const char *name, char **buf, hp_err *why)
{
	char *p = hp_xasprintf(BINFMT_DIR "/%s", name);
	size_t len;
	hp_tri t = hp_os_read_file_in_root(r, p, 65536, buf, &len, why);
	free(p);
	return t;
}

hp_tri hp_os_binfmt_interpreters(const hp_root *r, hp_strv *out, hp_err *why)
{
	char *buf = NULL;
	hp_tri t = read_entry(r, "status", &buf, why);
	if (t == HP_FALSE)
		return HP_TRUE; /* not mounted here */
	if (t != HP_TRUE)
		return t;
	bool on = strncmp(buf, "enabled", 7) == 0;
	if (!on && strncmp(buf, "disabled", 8) != 0) {
		hp_err_set(why, BINFMT_DIR "/status: neither enabled nor disabled");
		free(buf);
		return HP_UNKNOWN;
	}
	free(buf);
	if (!on)
		return HP_TRUE;
	int fd;
	if (hp_os_resolve(r, BINFMT_DIR, 0, &fd, why) != HP_TRUE)
		return HP_UNKNOWN;
	DIR *d = hp_os_opendir_path(fd);
	if (!d) {
		hp_err_set(why, BINFMT_DIR ": %s", strerror(errno));
		return HP_UNKNOWN;
	}
	size_t seen = 0;
	t = HP_TRUE;
	for (struct dirent *de; t == HP_TRUE && (errno = 0, de = readdir(d)) != NULL;) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "register") ||
		    !strcmp(n, "status"))
			continue;
		if (++seen > HP_BINFMT_MAX) {
			hp_err_set(why, BINFMT_DIR ": more than %d handlers", HP_BINFMT_MAX);
			t = HP_UNKNOWN;
			break;
		}
		hp_err e;
		t = read_entry(r, n, &buf, &e);
		if (t != HP_TRUE) {
			/* one removed meanwhile matches nothing any more */
			if (t == HP_FALSE) {
				t = HP_TRUE;
				continue;
			}
			hp_err_set(why, "%s", e.msg);
			break;
		}
		bool en;
		char *interp;
		t = hp_os_binfmt_entry_parse(buf, &en, &interp, &e);
		free(buf);
		if (t != HP_TRUE)
			hp_err_set(why, BINFMT_DIR "/%s: %s", n, e.msg);
		else if (en)
			hp_strv_push(out, interp);
		free(interp);
	}
	if (t == HP_TRUE && errno) {
		hp_err_set(why, BINFMT_DIR ": %s", strerror(errno));
		t = HP_UNKNOWN;
	}
	closedir(d);
	return t;
}
