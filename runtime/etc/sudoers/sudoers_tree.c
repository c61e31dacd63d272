/* sudoers_tree.c: the tree's arena, problems and alias index. */
#include "etc/sudoers/sudoers_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textesc.h"
#include "lib/xalloc.h"

enum { CHUNK = 64 * 1024 };

struct hp_sudoers_chunk {
	hp_sudoers_chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

void *hp_sudoers_alloc(hp_sudoers *s, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	hp_sudoers_chunk *c = s->arena;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK ? n : CHUNK;
		c = hp_xmalloc(sizeof *c + cap);
		c->cap = cap;
		c->used = 0;
		c->next = s->arena;
		s->arena = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	return p;
}

void hp_sudoers_arena_free(hp_sudoers *s)
{
	while (s->arena) {
		hp_sudoers_chunk *next = s->arena->next;
		free(s->arena);
		s->arena = next;
	}
}

const char *hp_sudoers_strdup(hp_sudoers *s, const char *str, size_t n)
{
	char *p = hp_sudoers_alloc(s, n + 1);
	memcpy(p, str, n);
	p[n] = '\0';
	return p;
}

void hp_sudoers_add_problem(hp_sudoers *s, const char *fmt, ...)
{
	if (s->nproblems < HP_SUDOERS_MAX_PROBLEMS) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(NULL, 0, fmt, ap);
		va_end(ap);
		char *m = hp_xmalloc(n > 0 ? (size_t)n + 1 : 1);
		va_start(ap, fmt);
		vsnprintf(m, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
		va_end(ap);
		s->problems[s->nproblems] = m;
	}
	s->nproblems++;
}

static const char *const kind_names[SA_NKINDS] = {"User_Alias", "Runas_Alias", "Host_Alias",
                                                  "Cmnd_Alias"};

typedef struct {
	const hp_sudoers *s;
	hp_sudoers_akind k;
} alias_ctx;

static const char *alias_name(const void *ctx, uint32_t i)
{
	const alias_ctx *a = ctx;
	return a->s->al[a->k][i].name;
}

/* Find aliases that refer to themselves, and nesting deeper than the
 * evaluator goes, with an explicit stack: a hostile chain of aliases must
 * not use up the C stack. */
static void check_nesting(hp_sudoers *s, hp_sudoers_akind k)
{
	size_t n = s->nal[k];
	if (!n)
		return;
	uint8_t *color = hp_xcalloc(n, 1); /* 0 new, 1 on the stack, 2 done */
	uint32_t *height = hp_xcalloc(n, sizeof *height);
	struct frame {
		uint32_t alias, next;
	} *st = hp_xmalloc(n * sizeof *st);
	bool looped = false, deep = false;
	for (uint32_t root = 0; root < n; root++) {
		if (color[root])
			continue;
		size_t sp = 0;
		st[sp++] = (struct frame){root, 0};
		color[root] = 1;
		while (sp) {
			struct frame *f = &st[sp - 1];
			const hp_sudoers_alias *a = &s->al[k][f->alias];
			if (f->next == a->members.n) {
				color[f->alias] = 2;
				uint32_t h = height[f->alias] + 1;
				sp--;
				if (sp && height[st[sp - 1].alias] < h)
					height[st[sp - 1].alias] = h;
				if (h > HP_SUDOERS_MAX_ALIAS_DEPTH && !deep) {
					deep = true;
					hp_esc_buf e;
					hp_sudoers_add_problem(s, "%s:%u: %s %s nests aliases deeper than %d",
					           a->file, a->line, kind_names[k],
					           hp_escs(&e, a->name),
					           HP_SUDOERS_MAX_ALIAS_DEPTH);
				}
				continue;
			}
			const hp_sudoers_member *m = &a->members.v[f->next++];
			if (m->kind != HP_SUDOERS_SM_ALIAS)
				continue;
			const hp_sudoers_alias *b = hp_sudoers_find_alias(s, k, m->text);
			if (!b)
				continue;
			uint32_t bi = (uint32_t)(b - s->al[k]);
			if (color[bi] == 1) {
				if (!looped) {
					looped = true;
					hp_esc_buf e1, e2;
					hp_sudoers_add_problem(s, "%s:%u: %s %s refers to itself (through %s)",
					           b->file, b->line, kind_names[k],
					           hp_escs(&e1, b->name), hp_escs(&e2, a->name));
				}
				continue;
			}
			if (color[bi] == 2) {
				if (height[f->alias] < height[bi])
					height[f->alias] = height[bi];
				continue;
			}
			color[bi] = 1;
			st[sp++] = (struct frame){bi, 0};
		}
	}
	free(color);
	free(height);
	free(st);
}

void hp_sudoers_index_aliases(hp_sudoers *s)
{
	for (int k = 0; k < SA_NKINDS; k++) {
		alias_ctx c = {s, (hp_sudoers_akind)k};
		hp_idxtab_init(&s->alidx[k], s->nal[k]);
		for (uint32_t i = 0; i < s->nal[k]; i++) {
			uint32_t prev = hp_idxtab_add_name(&s->alidx[k], i, alias_name, &c);
			if (prev == HP_IDX_NONE)
				continue;
			const hp_sudoers_alias *a = &s->al[k][i], *first = &s->al[k][prev];
			hp_esc_buf e;
			hp_sudoers_add_problem(s, "%s:%u: %s %s is defined twice (first at %s:%u)", a->file,
			           a->line, kind_names[k], hp_escs(&e, a->name), first->file,
			           first->line);
		}
	}
	for (int k = 0; k < SA_NKINDS; k++)
		check_nesting(s, (hp_sudoers_akind)k);
}

const hp_sudoers_alias *hp_sudoers_find_alias(const hp_sudoers *s, hp_sudoers_akind k, const char *name)
{
	alias_ctx c = {s, k};
	uint32_t i = hp_idxtab_find_name(&s->alidx[k], name, alias_name, &c);
	return i == HP_IDX_NONE ? NULL : &s->al[k][i];
}
