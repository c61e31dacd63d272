/* dircache.c: an open-addressing table from a directory's identity to what
 * one identity may do in it (dircache.h). */
#include "os/dircache.h"

#include <stdlib.h>

#include "lib/xalloc.h"

typedef struct {
	uint64_t dev, ino, mnt;
	bool used;
	hp_dirfacts f;
} slot;

struct hp_dircache {
	slot *slots;
	size_t cap; /* a power of two */
	size_t n;
};

hp_dircache *hp_os_dircache_new(void)
{
	hp_dircache *c = hp_xcalloc(1, sizeof *c);
	c->cap = 256;
	c->slots = hp_xcalloc(c->cap, sizeof *c->slots);
	return c;
}

void hp_os_dircache_free(hp_dircache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c);
}

static void key_of(const hp_fileinfo *fi, uint64_t k[3])
{
	k[0] = (uint64_t)fi->dev;
	k[1] = (uint64_t)fi->ino;
	k[2] = fi->mnt_id;
}

static size_t hash(const uint64_t k[3])
{
	uint64_t h = k[1] * 0x9e3779b97f4a7c15u;
	h ^= (k[0] + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u;
	h ^= (k[2] + 0x94d049bb133111ebu) * 0x94d049bb133111ebu;
	return (size_t)(h ^ (h >> 31));
}

static slot *find(const hp_dircache *c, const uint64_t k[3])
{
	size_t mask = c->cap - 1;
	for (size_t i = hash(k) & mask;; i = (i + 1) & mask) {
		slot *s = &c->slots[i];
		if (!s->used || (s->dev == k[0] && s->ino == k[1] && s->mnt == k[2]))
			return s;
	}
}

const hp_dirfacts *hp_os_dircache_get(const hp_dircache *c, const hp_fileinfo *fi)
{
	if (!fi->has_mnt_id)
		return NULL;
	uint64_t k[3];
	key_of(fi, k);
	const slot *s = find(c, k);
	return s->used ? &s->f : NULL;
}

static void grow(hp_dircache *c)
{
	slot *old = c->slots;
	size_t ocap = c->cap;
	c->cap *= 2;
	c->slots = hp_xcalloc(c->cap, sizeof *c->slots);
	for (size_t i = 0; i < ocap; i++)
		if (old[i].used) {
			uint64_t k[3] = {old[i].dev, old[i].ino, old[i].mnt};
			*find(c, k) = old[i];
		}
	free(old);
}

void hp_os_dircache_put(hp_dircache *c, const hp_fileinfo *fi, const hp_dirfacts *f)
{
	/* only decided answers are kept, and only for a directory whose
	 * mount is known: a path-based LSM may answer a bind mount of it
	 * otherwise */
	if ((f->wx != HP_TRUE && f->wx != HP_FALSE) || !fi->has_mnt_id)
		return;
	uint64_t k[3];
	key_of(fi, k);
	slot *s = find(c, k);
	if (!s->used) {
		if (c->n >= HP_DIRCACHE_MAX)
			return;
		/* at most half full, so a probe always ends at a free slot */
		if (2 * (c->n + 1) > c->cap) {
			grow(c);
			s = find(c, k);
		}
		c->n++;
		s->used = true;
		s->dev = k[0];
		s->ino = k[1];
		s->mnt = k[2];
	}
	s->f = *f;
}
