/* sudoers_memfs.c: the loader's callbacks over files in memory. */
#include "etc/sudoers/sudoers_memfs.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* Whether some file lives under dir. */
static int is_dir(const hp_memfs *fs, const char *dir)
{
	size_t dl = strlen(dir);
	for (size_t i = 0; i < fs->n; i++) {
		const char *p = fs->files[i].path;
		if (strncmp(p, dir, dl) == 0 && (p[dl] == '/' || (dl && dir[dl - 1] == '/')) &&
		    p[dl] != '\0')
			return 1;
	}
	return 0;
}

static hp_sudo_io read_file(void *ctx, const char *path, char **buf, size_t *len, hp_err *err)
{
	const hp_memfs *fs = ctx;
	(void)err;
	for (size_t i = 0; i < fs->n; i++) {
		if (strcmp(fs->files[i].path, path) != 0)
			continue;
		*len = fs->files[i].len;
		*buf = hp_xmalloc(*len ? *len : 1);
		if (*len)
			memcpy(*buf, fs->files[i].data, *len);
		return HP_SUDO_IO_OK;
	}
	return is_dir(fs, path) ? HP_SUDO_IO_NOT_REGULAR : HP_SUDO_IO_MISSING;
}

static hp_sudo_io list_dir(void *ctx, const char *path, char ***names, hp_err *err)
{
	const hp_memfs *fs = ctx;
	(void)err;
	if (!is_dir(fs, path)) {
		for (size_t i = 0; i < fs->n; i++)
			if (strcmp(fs->files[i].path, path) == 0)
				return HP_SUDO_IO_NOT_REGULAR;
		return HP_SUDO_IO_MISSING;
	}
	size_t dl = strlen(path), n = 0;
	if (dl && path[dl - 1] == '/')
		dl--;
	char **out = hp_xmalloc((fs->n + 1) * sizeof *out);
	for (size_t i = 0; i < fs->n; i++) {
		const char *p = fs->files[i].path;
		if (strncmp(p, path, dl) != 0 || p[dl] != '/' || !p[dl + 1])
			continue;
		const char *name = p + dl + 1, *slash = strchr(name, '/');
		size_t len = slash ? (size_t)(slash - name) : strlen(name);
		size_t k = 0;
		while (k < n && !(strlen(out[k]) == len && memcmp(out[k], name, len) == 0))
			k++;
		if (k == n)
			out[n++] = hp_xstrndup(name, len);
	}
	out[n] = NULL;
	*names = out;
	return HP_SUDO_IO_OK;
}

hp_sudo_files hp_sudoers_memfs_callbacks(const hp_memfs *fs)
{
	hp_sudo_files f = {(void *)(uintptr_t)fs, read_file, list_dir};
	return f;
}
