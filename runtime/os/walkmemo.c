/* walkmemo.c: the steps into directories a process's walks have taken
 * (walkmemo.h), in a small array searched from the newest: a scan steps
 * through a few dozen directories. */
#include "os/walkmemo.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"

typedef struct {
	dev_t pdev;
	ino_t pino;
	uint64_t pmnt;
	char *name;
	int fd;
	hp_fileinfo info;
} step;

struct hp_walkmemo {
	step steps[HP_WALKMEMO_MAX];
	size_t n;
	int root_fd; /* the root whose facts root_info holds, or -1 */
	dev_t root_dev;
	ino_t root_ino;
	hp_fileinfo root_info;
};

hp_walkmemo *hp_os_walkmemo_new(void)
{
	hp_walkmemo *m = hp_xcalloc(1, sizeof *m);
	m->root_fd = -1;
	return m;
}

const hp_fileinfo *hp_os_walkmemo_root(hp_walkmemo *m, const hp_root *r)
{
	if (m->root_fd == r->fd && m->root_dev == r->dev && m->root_ino == r->ino)
		return &m->root_info;
	hp_err e;
	if (hp_os_fd_info(r->fd, &m->root_info, &e) != HP_TRUE) {
		m->root_fd = -1;
		return NULL;
	}
	m->root_fd = r->fd;
	m->root_dev = r->dev;
	m->root_ino = r->ino;
	return &m->root_info;
}

void hp_os_walkmemo_free(hp_walkmemo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		close(m->steps[i].fd);
		free(m->steps[i].name);
	}
	free(m);
}

int hp_os_walkmemo_get(const hp_walkmemo *m, const hp_fileinfo *dir, const char *name,
                       const hp_fileinfo **info)
{
	if (!dir->has_mnt_id)
		return -1;
	for (size_t i = m->n; i-- > 0;) {
		const step *s = &m->steps[i];
		if (s->pino == dir->ino && s->pdev == dir->dev && s->pmnt == dir->mnt_id &&
		    strcmp(s->name, name) == 0) {
			*info = &s->info;
			return s->fd;
		}
	}
	return -1;
}

void hp_os_walkmemo_put(hp_walkmemo *m, const hp_fileinfo *dir, const char *name, int fd,
                        const hp_fileinfo *info)
{
	if (m->n == HP_WALKMEMO_MAX || !dir->has_mnt_id || !info->has_mnt_id ||
	    info->type != HP_FT_DIR)
		return;
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup < 0)
		return;
	step *s = &m->steps[m->n++];
	s->pdev = dir->dev;
	s->pino = dir->ino;
	s->pmnt = dir->mnt_id;
	s->name = hp_xstrdup(name);
	s->fd = dup;
	s->info = *info;
}
