/* walkmemo.c: the steps into directories a process's walks have taken
 * (walkmemo.h), in a small array searched from the newest: a scan steps
 * through a few dozen directories; and the listings it read, each sorted
 * by name, found by their directory the same way. */
#include "os/walkmemo.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

typedef struct {
	hp_fileinfo dir;
	hp_listed *v;
	size_t n;
} listing;

struct hp_walkmemo {
	step steps[HP_WALKMEMO_MAX];
	size_t n;
	size_t max; /* HP_WALKMEMO_MAX, or less under a low RLIMIT_NOFILE */
	int root_fd; /* the root whose facts root_info holds, or -1 */
	dev_t root_dev;
	ino_t root_ino;
	hp_fileinfo root_info;
	listing lists[HP_WALKMEMO_LISTINGS];
	size_t nlists, nlisted;
};

hp_walkmemo *hp_os_walkmemo_new(void)
{
	hp_walkmemo *m = hp_xcalloc(1, sizeof *m);
	m->root_fd = -1;
	/* the descriptors held must leave the process most of its limit */
	struct rlimit rl;
	m->max = HP_WALKMEMO_MAX;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 4 < m->max)
		m->max = (size_t)(rl.rlim_cur / 4);
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
	for (size_t i = 0; i < m->nlists; i++) {
		for (size_t j = 0; j < m->lists[i].n; j++) {
			free(m->lists[i].v[j].name);
			free(m->lists[i].v[j].text);
		}
		free(m->lists[i].v);
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
	if (m->n >= m->max || !dir->has_mnt_id || !info->has_mnt_id ||
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

bool hp_os_walkmemo_keep_listing(hp_walkmemo *m, const hp_fileinfo *dir, hp_listed *v,
                                 size_t n)
{
	if (!dir->has_mnt_id || m->nlists == HP_WALKMEMO_LISTINGS ||
	    n > HP_WALKMEMO_LISTED - m->nlisted)
		return false;
	m->lists[m->nlists++] = (listing){*dir, v, n};
	m->nlisted += n;
	return true;
}

static int cmp_name(const void *key, const void *e)
{
	return strcmp(key, ((const hp_listed *)e)->name);
}

hp_listed *hp_os_walkmemo_listed(const hp_walkmemo *m, const hp_fileinfo *dir,
                                 const char *name)
{
	if (!dir->has_mnt_id)
		return NULL;
	for (size_t i = m->nlists; i-- > 0;) {
		const listing *l = &m->lists[i];
		if (hp_os_same_file_on_mount(&l->dir, dir)) {
			hp_listed *e = l->n ? bsearch(name, l->v, l->n, sizeof *l->v, cmp_name) : NULL;
			return e && e->have ? e : NULL;
		}
	}
	return NULL;
}
