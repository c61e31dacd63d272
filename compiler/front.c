/* front.c: the front end's entry point (front.h): reads the top-level file
 * and, depth-first, every file it includes (once each, cycles reported),
 * parses each, then runs the checker over the include-expanded order. */
#include "front.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "check.h"
#include "intern.h"
#include "parse.h"
#include "lib/xalloc.h"

/* A large file's buffer is offered for transparent huge pages before it is
 * filled (advice only): reading 30 MB otherwise faults it in 4 KiB at a
 * time. */
static void advise_huge(void *p, size_t n)
{
	const uintptr_t huge = 2u * 1024u * 1024u;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(huge - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

int hp_front_read_file(void *ctx, const char *path, char **text, size_t *len, char *err,
                       size_t errlen)
{
	(void)ctx;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "is a directory");
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		close(fd);
		return -1;
	}
	if ((unsigned long long)st.st_size > HP_FRONT_MAX_FILE) {
		snprintf(err, errlen, "larger than %u MiB", HP_FRONT_MAX_FILE >> 20);
		close(fd);
		return -1;
	}
	/* room for the NUL and one byte more, so that the read which finds the
	 * end of a file of the size fstat gave needs no bigger buffer (a copy
	 * of the whole file, and twice its size at the peak) */
	size_t cap = (size_t)st.st_size + 2, n = 0;
	char *buf = hp_xmalloc(cap);
	advise_huge(buf, cap);
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > HP_FRONT_MAX_FILE) {
				snprintf(err, errlen, "larger than %u MiB",
				         HP_FRONT_MAX_FILE >> 20);
				free(buf);
				close(fd);
				return -1;
			}
			cap *= 2;
			buf = hp_xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

typedef struct {
	hp_program *p;
	hp_arena *arena;
	hp_intern *names;
	hp_diags *d;
	hp_front_reader read;
	void *read_ctx;
	bool parse_only;
	hp_src **files;
	size_t nfiles, files_cap;
	hp_namemap by_path; /* interned normalized path -> hp_src */
	uint32_t stack[HP_FRONT_MAX_INCLUDE_DEPTH + 1];
	uint32_t depth;
	hp_decl **order;
	size_t norder, order_cap;
} front;

/* Index the start of every line; the lexer tracks lines itself, this table
 * serves diagnostics and the formatter. */
static void index_lines(hp_arena *a, hp_src *s)
{
	uint32_t n = 1;
	const char *t = s->text, *end = s->text + s->len;
	for (const char *q = t; (q = memchr(q, '\n', (size_t)(end - q))); q++)
		n++;
	s->lines = hp_arena_alloc(a, n * sizeof *s->lines);
	s->lines[0] = 0;
	uint32_t i = 1;
	for (const char *q = t; (q = memchr(q, '\n', (size_t)(end - q))); q++)
		s->lines[i++] = (uint32_t)(q - t + 1);
	s->nlines = n;
}

/* text: malloc'd, NUL after it; the arena takes it over. */
static const char *join_path(front *f, const char *from, const char *rel);

/* path: as messages name it; its normalized form is the key that finds
 * the file again (a cycle through "./a.hpol" and "a.hpol" is one cycle). */
static hp_src *add_src(front *f, const char *path, char *text, size_t len, int32_t parent)
{
	hp_src *s = hp_arena_alloc(f->arena, sizeof *s);
	s->path = path;
	hp_arena_adopt(f->arena, text);
	s->text = text;
	s->len = (uint32_t)len;
	s->index = (uint32_t)f->nfiles;
	s->parent = parent;
	index_lines(f->arena, s);
	f->files = hp_xgrow(f->files, &f->files_cap, f->nfiles + 1, sizeof *f->files);
	f->files[f->nfiles++] = s;
	hp_namemap_put(&f->by_path, join_path(f, "", path), s);
	return s;
}

/* dir(from) + rel, with "." and "x/.." components removed. */
static const char *join_path(front *f, const char *from, const char *rel)
{
	size_t fl = strlen(from), rl = strlen(rel);
	char *buf = hp_xmalloc(fl + rl + 2);
	size_t n = 0;
	if (rel[0] != '/') {
		const char *slash = strrchr(from, '/');
		if (slash) {
			n = (size_t)(slash - from) + 1;
			memcpy(buf, from, n);
		}
	}
	memcpy(buf + n, rel, rl + 1);
	/* normalize in place, component by component */
	char *out = hp_xmalloc(strlen(buf) + 2);
	size_t o = 0;
	const char *p = buf;
	bool abs = *p == '/';
	if (abs)
		out[o++] = '/';
	size_t base = o; /* ".." cannot climb above here */
	while (*p) {
		while (*p == '/')
			p++;
		const char *q = p;
		while (*q && *q != '/')
			q++;
		size_t cl = (size_t)(q - p);
		if (cl == 0)
			break;
		if (cl == 1 && p[0] == '.') {
			p = q;
			continue;
		}
		if (cl == 2 && p[0] == '.' && p[1] == '.') {
			/* drop the previous component unless it is itself ".." */
			size_t k = o;
			while (k > base && out[k - 1] == '/')
				k--;
			size_t s = k;
			while (s > base && out[s - 1] != '/')
				s--;
			if (k > base && !(k - s == 2 && out[s] == '.' && out[s + 1] == '.')) {
				o = s;
				p = q;
				continue;
			}
			if (abs) {
				p = q;
				continue;
			}
		}
		if (o > base && out[o - 1] != '/')
			out[o++] = '/';
		memcpy(out + o, p, cl);
		o += cl;
		p = q;
	}
	if (o == 0)
		out[o++] = '.';
	const char *r = hp_intern_name(f->names, out, o);
	free(out);
	free(buf);
	return r;
}

static void push_order(front *f, hp_decl *d)
{
	f->order = hp_xgrow(f->order, &f->order_cap, f->norder + 1, sizeof *f->order);
	f->order[f->norder++] = d;
}

static void expand(front *f, hp_src *s);

static void follow_include(front *f, hp_src *s, hp_decl *inc)
{
	if (!inc->name || !*inc->name) {
		hp_diag_add(f->d, HP_SEV_ERROR, HP_DG_INCLUDE, s, inc->name_span,
		            "an empty include path");
		return;
	}
	const char *path = join_path(f, s->path, inc->name);
	hp_src *t = hp_namemap_get(&f->by_path, path);
	if (t) {
		for (uint32_t i = 0; i < f->depth; i++) {
			if (f->stack[i] != t->index)
				continue;
			/* the chain from t back to itself */
			char chain[1024];
			size_t n = 0;
			for (uint32_t k = i; k < f->depth && n < sizeof chain; k++)
				n += (size_t)snprintf(chain + n, sizeof chain - n, "%s -> ",
				                      f->files[f->stack[k]]->path);
			if (n < sizeof chain)
				snprintf(chain + n, sizeof chain - n, "%s", t->path);
			hp_diag *g = hp_diag_add(f->d, HP_SEV_ERROR, HP_DG_INCLUDE, s, inc->span,
			                         "include cycle: %s", chain);
			hp_diag_help(g, "remove one of these includes");
			return;
		}
		inc->u.include.file = (int32_t)t->index;
		return; /* already included: its declarations count once */
	}
	if (f->depth >= HP_FRONT_MAX_INCLUDE_DEPTH) {
		hp_diag_add(f->d, HP_SEV_ERROR, HP_DG_LIMIT, s, inc->span,
		            "includes nested too deeply (the limit is %u)",
		            HP_FRONT_MAX_INCLUDE_DEPTH);
		return;
	}
	char *text = NULL;
	size_t len = 0;
	char err[256] = "";
	if (f->read(f->read_ctx, path, &text, &len, err, sizeof err) != 0) {
		hp_diag *g = hp_diag_add(f->d, HP_SEV_ERROR, HP_DG_INCLUDE, s, inc->name_span,
		                         "cannot include '%s': %s", path, err);
		hp_diag_help(g, "include paths are relative to the including file");
		return;
	}
	hp_src *c = add_src(f, path, text, len, (int32_t)s->index);
	inc->u.include.file = (int32_t)c->index;
	hp_parse_src(c, f->arena, f->names, f->d);
	expand(f, c);
}

/* Declarations in evaluation order: an included file's stand where it is
 * included. Recursion is bounded by HP_FRONT_MAX_INCLUDE_DEPTH. */
static void expand(front *f, hp_src *s)
{
	f->stack[f->depth++] = s->index;
	for (hp_decl *d = s->decls; d; d = d->next) {
		if (d->kind == HP_D_INCLUDE)
			follow_include(f, s, d);
		else
			push_order(f, d);
	}
	f->depth--;
}

static hp_program *run(front *f, const char *name, char *text, size_t len)
{
	uint32_t errors_before = f->d->nerrors;
	const char *path = hp_intern_name(f->names, name, strlen(name));
	hp_src *top = add_src(f, path, text, len, -1);
	hp_parse_src(top, f->arena, f->names, f->d);
	if (!f->parse_only) {
		expand(f, top);
	}
	hp_program *p = f->p;
	p->files = hp_arena_alloc(f->arena, f->nfiles * sizeof *p->files);
	memcpy(p->files, f->files, f->nfiles * sizeof *p->files);
	p->nfiles = (uint32_t)f->nfiles;
	if (!f->parse_only)
		hp_check(p, f->order, f->norder, f->names, f->d, errors_before);
	p->ok = f->d->nerrors == errors_before;
	free(f->files);
	free(f->order);
	hp_namemap_free(&f->by_path);
	hp_intern_free(f->names);
	return p;
}

static void front_init(front *f, const hp_front_opts *opts, hp_diags *d)
{
	memset(f, 0, sizeof *f);
	f->arena = hp_arena_new();
	f->p = hp_arena_alloc(f->arena, sizeof *f->p);
	f->p->arena = f->arena;
	f->names = hp_intern_new(f->arena);
	f->d = d;
	f->read = opts && opts->read ? opts->read : hp_front_read_file;
	f->read_ctx = opts ? opts->read_ctx : NULL;
	f->parse_only = opts && opts->parse_only;
	hp_namemap_init(&f->by_path);
}

hp_program *hp_front_compile(const char *path, const hp_front_opts *opts, hp_diags *d)
{
	front f;
	front_init(&f, opts, d);
	char *text = NULL;
	size_t len = 0;
	char err[256] = "";
	if (f.read(f.read_ctx, path, &text, &len, err, sizeof err) != 0) {
		hp_diag_path(d, HP_SEV_ERROR, HP_DG_IO, path, "cannot read: %s", err);
		hp_program *p = f.p;
		hp_intern_free(f.names);
		return p;
	}
	return run(&f, path, text, len);
}

hp_program *hp_front_compile_text(const char *name, const char *text, size_t len,
                                  const hp_front_opts *opts, hp_diags *d)
{
	front f;
	front_init(&f, opts, d);
	if (len > HP_FRONT_MAX_FILE) {
		hp_diag_path(d, HP_SEV_ERROR, HP_DG_IO, name, "cannot read: larger than %u MiB",
		             HP_FRONT_MAX_FILE >> 20);
		hp_intern_free(f.names);
		return f.p;
	}
	char *copy = hp_xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return run(&f, name, copy, len);
}

void hp_program_free(hp_program *p)
{
	if (p)
		hp_arena_free(p->arena);
}
