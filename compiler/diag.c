/* diag.c: collecting, sorting and printing diagnostics (see diag.h). */
#include "diag.h"

#include "check/color.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/utf8.h"
#include "lib/xalloc.h"

const char *const hp_diag_code_names[HP_DG_COUNT] = {
#define HP_DIAG(id, name, doc) name,
#include "diag.def"
};
const char *const hp_diag_code_docs[HP_DG_COUNT] = {
#define HP_DIAG(id, name, doc) doc,
#include "diag.def"
};

/* The widest source excerpt printed; longer lines are shown around the span. */
#define EXCERPT_MAX 120u

static hp_excerpt capture(const hp_src *src, hp_span sp);

void hp_diags_init(hp_diags *d)
{
	memset(d, 0, sizeof *d);
}

void hp_diags_clear(hp_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].msg);
		free(d->v[i].help);
		free(d->v[i].note);
		free((char *)d->v[i].path);
		free(d->v[i].note_path);
		free(d->v[i].ex.text);
		free(d->v[i].note_ex.text);
	}
	d->n = 0;
	d->nerrors = d->nwarnings = d->dropped = 0;
}

void hp_diags_free(hp_diags *d)
{
	hp_diags_clear(d);
	free(d->v);
	memset(d, 0, sizeof *d);
}

static hp_diag *add(hp_diags *d, hp_severity sev, hp_diag_code code, const hp_src *src,
                    const char *path, hp_span span, const char *fmt, va_list ap)
{
	if (sev == HP_SEV_ERROR)
		d->nerrors++;
	else
		d->nwarnings++;
	if (d->n >= HP_DIAG_KEEP_MAX) {
		d->dropped++;
		return NULL;
	}
	d->v = hp_xgrow(d->v, &d->cap, d->n + 1, sizeof *d->v);
	hp_diag *g = &d->v[d->n];
	memset(g, 0, sizeof *g);
	g->sev = sev;
	g->code = code;
	g->src = src;
	g->path = hp_xstrdup(src ? src->path : path ? path : "");
	g->file_order = src ? src->index + 1 : 0;
	g->span = span;
	g->ex = capture(src, span);
	g->seq = (uint32_t)d->n;
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	g->msg = hp_xstrdup(buf);
	d->n++;
	return g;
}

hp_diag *hp_diag_add(hp_diags *d, hp_severity sev, hp_diag_code code, const hp_src *src,
                     hp_span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hp_diag *g = add(d, sev, code, src, NULL, span, fmt, ap);
	va_end(ap);
	return g;
}

hp_diag *hp_diag_path(hp_diags *d, hp_severity sev, hp_diag_code code, const char *path,
                      const char *fmt, ...)
{
	va_list ap;
	hp_span none = {0, 0, 0, 0, 0};
	va_start(ap, fmt);
	hp_diag *g = add(d, sev, code, NULL, path, none, fmt, ap);
	va_end(ap);
	return g;
}

void hp_diag_help(hp_diag *g, const char *fmt, ...)
{
	if (!g)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(g->help);
	g->help = hp_xstrdup(buf);
}

void hp_diag_note(hp_diag *g, const hp_src *src, hp_span span, const char *fmt, ...)
{
	if (!g)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(g->note);
	free(g->note_path);
	free(g->note_ex.text);
	g->note = hp_xstrdup(buf);
	g->note_src = src;
	g->note_span = span;
	g->note_path = src ? hp_xstrdup(src->path) : NULL;
	g->note_ex = capture(src, span);
}

static int diag_cmp(const void *pa, const void *pb)
{
	const hp_diag *a = pa, *b = pb;
	/* Diagnostics about a path that was never read come first. */
	uint32_t fa = a->file_order, fb = b->file_order;
	if (fa != fb)
		return fa < fb ? -1 : 1;
	if (!fa && a->path && b->path) {
		int c = strcmp(a->path, b->path);
		if (c)
			return c;
	}
	if (a->span.off != b->span.off)
		return a->span.off < b->span.off ? -1 : 1;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

void hp_diags_sort(hp_diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof *d->v, diag_cmp);
	for (size_t i = 0; i < d->n; i++)
		d->v[i].seq = (uint32_t)i;
}

hp_diag_style hp_diag_style_for(FILE *f)
{
	hp_diag_style st = {false, 50};
	st.color = hp_color_for_fd(fileno(f));
	return st;
}

void hp_src_linecol(const hp_src *src, uint32_t off, uint32_t *line, uint32_t *col_bytes,
                    uint32_t *col_chars)
{
	if (off > src->len)
		off = src->len;
	uint32_t lo = 0, hi = src->nlines;
	while (hi - lo > 1) { /* the last line start <= off */
		uint32_t mid = lo + (hi - lo) / 2;
		if (src->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	uint32_t start = src->nlines ? src->lines[lo] : 0;
	if (line)
		*line = lo + 1;
	if (col_bytes)
		*col_bytes = off - start + 1;
	if (col_chars) {
		const unsigned char *t = (const unsigned char *)src->text;
		uint32_t chars = 0;
		for (uint32_t i = start; i < off;) {
			unsigned l = hp_utf8_len(t + i, src->len - i);
			i += l ? l : 1;
			chars++;
		}
		*col_chars = chars + 1;
	}
}

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_GREEN "\033[1;32m"
#define C_CYAN "\033[1;36m"
#define C_BLUE "\033[1;34m"

static const char *col(const hp_diag_style *st, const char *c)
{
	return st->color ? c : "";
}

/* Print bytes [from, to) of a source line for display: control characters
 * and invalid UTF-8 as '?', tabs kept. Returns the display columns used. */
static void put_excerpt(FILE *f, const unsigned char *t, size_t from, size_t to, size_t len)
{
	for (size_t i = from; i < to;) {
		unsigned l = hp_utf8_len(t + i, len - i);
		if (l == 0 || (l == 1 && t[i] < 0x20 && t[i] != '\t') || t[i] == 0x7f) {
			fputc('?', f);
			i++;
			continue;
		}
		if (i + l > to)
			break;
		fwrite(t + i, 1, l, f);
		i += l;
	}
}

/* The underline: blanks (tabs where the line has tabs) up to the span, then
 * ^ and ~ over it, one per displayed character. */
static void put_underline(FILE *f, const unsigned char *t, size_t from, size_t start, size_t end,
                          size_t len)
{
	for (size_t i = from; i < start;) {
		unsigned l = hp_utf8_len(t + i, len - i);
		fputc(t[i] == '\t' ? '\t' : ' ', f);
		i += l ? l : 1;
	}
	bool first = true;
	for (size_t i = start; i < end || first;) {
		fputc(first ? '^' : '~', f);
		first = false;
		if (i >= end)
			break;
		unsigned l = hp_utf8_len(t + i, len - i);
		i += l ? l : 1;
	}
}

/* The shown part of span's first line: all of it when it is short, else a
 * window with some context before the span. Reads O(EXCERPT_MAX) bytes
 * whatever the line's length. */
static hp_excerpt capture(const hp_src *src, hp_span sp)
{
	hp_excerpt ex;
	memset(&ex, 0, sizeof ex);
	if (!src || sp.line == 0 || sp.line > src->nlines)
		return ex;
	const unsigned char *t = (const unsigned char *)src->text;
	size_t ls = src->lines[sp.line - 1];
	size_t start = sp.off < ls ? ls : sp.off > src->len ? src->len : sp.off;
	/* the line's end, looked for no further than the window can reach */
	size_t limit =
	    start + 2 * EXCERPT_MAX + 1 < src->len ? start + 2 * EXCERPT_MAX + 1 : src->len;
	const unsigned char *nl = memchr(t + start, '\n', limit - start);
	bool known_end = nl || limit == src->len;
	size_t le = nl ? (size_t)(nl - t) : limit;
	if (nl && le > ls && t[le - 1] == '\r')
		le--;
	if (start > le)
		start = le;
	size_t end = (size_t)sp.off + sp.len;
	if (end > le)
		end = le; /* a span over several lines is underlined on its first */
	if (end < start)
		end = start;
	size_t from = ls, to = le;
	if (!known_end || le - ls > EXCERPT_MAX) {
		if (start - ls > EXCERPT_MAX / 2) {
			from = start - EXCERPT_MAX / 3;
			while (from < start && (t[from] & 0xc0) == 0x80)
				from++;
			ex.cut_left = true;
		}
		if (!known_end || to - from > EXCERPT_MAX) {
			to = from + EXCERPT_MAX;
			if (to < end)
				to = end < from + 2 * EXCERPT_MAX ? end : from + 2 * EXCERPT_MAX;
			if (to > le)
				to = le;
			ex.cut_right = true;
		}
		if (end > to)
			end = to;
	}
	ex.text = hp_xstrndup((const char *)t + from, to - from);
	ex.len = (uint32_t)(to - from);
	ex.start = (uint32_t)(start - from);
	ex.end = (uint32_t)(end - from);
	ex.line = sp.line;
	return ex;
}

static void print_excerpt(FILE *f, const hp_excerpt *ex, const hp_diag_style *st, const char *mark)
{
	if (!ex->text)
		return;
	const unsigned char *t = (const unsigned char *)ex->text;
	char num[16];
	int w = snprintf(num, sizeof num, "%u", ex->line);
	if (w < 4)
		w = 4;
	fprintf(f, "%s%*u |%s ", col(st, C_BLUE), w, ex->line, col(st, C_RESET));
	if (ex->cut_left)
		fputs("...", f);
	put_excerpt(f, t, 0, ex->len, ex->len);
	if (ex->cut_right)
		fputs("...", f);
	fputc('\n', f);
	fprintf(f, "%s%*s |%s ", col(st, C_BLUE), w, "", col(st, C_RESET));
	if (ex->cut_left)
		fputs("   ", f);
	fputs(col(st, mark), f);
	put_underline(f, t, 0, ex->start, ex->end, ex->len);
	fputs(col(st, C_RESET), f);
	fputc('\n', f);
}

void hp_diag_print(FILE *f, const hp_diag *g, const hp_diag_style *st)
{
	const char *sev = g->sev == HP_SEV_ERROR ? "error" : "warning";
	const char *sevc = g->sev == HP_SEV_ERROR ? C_RED : C_MAGENTA;
	if (g->file_order)
		fprintf(f, "%s%s:%u:%u:%s ", col(st, C_BOLD), g->path, g->span.line, g->span.col,
		        col(st, C_RESET));
	else if (g->path)
		fprintf(f, "%s%s:%s ", col(st, C_BOLD), g->path, col(st, C_RESET));
	fprintf(f, "%s%s:%s %s%s%s\n", col(st, sevc), sev, col(st, C_RESET), col(st, C_BOLD),
	        g->msg, col(st, C_RESET));
	print_excerpt(f, &g->ex, st, g->sev == HP_SEV_ERROR ? C_RED : C_MAGENTA);
	if (g->note) {
		if (g->note_path)
			fprintf(f, "%s%s:%u:%u:%s ", col(st, C_BOLD), g->note_path,
			        g->note_span.line, g->note_span.col, col(st, C_RESET));
		fprintf(f, "%snote:%s %s\n", col(st, C_CYAN), col(st, C_RESET), g->note);
		print_excerpt(f, &g->note_ex, st, C_CYAN);
	}
	if (g->help)
		fprintf(f, "%shelp:%s %s\n", col(st, C_GREEN), col(st, C_RESET), g->help);
}

void hp_diags_print(FILE *f, hp_diags *d, const hp_diag_style *st)
{
	hp_diags_sort(d);
	size_t shown = d->n;
	if (st->max_shown && shown > st->max_shown)
		shown = st->max_shown;
	for (size_t i = 0; i < shown; i++)
		hp_diag_print(f, &d->v[i], st);
}

static void count(FILE *f, uint32_t n, const char *what)
{
	fprintf(f, "%u %s%s", n, what, n == 1 ? "" : "s");
}

void hp_diags_print_summary(FILE *f, const hp_diags *d, uint32_t shown)
{
	uint32_t total = d->nerrors + d->nwarnings;
	if (total == 0)
		return;
	if (d->nerrors)
		count(f, d->nerrors, "error");
	if (d->nerrors && d->nwarnings)
		fputs(", ", f);
	if (d->nwarnings)
		count(f, d->nwarnings, "warning");
	fputs(" generated", f);
	if (shown < total)
		fprintf(f, " (%u not shown)", total - shown);
	fputc('\n', f);
}

unsigned hp_edit_distance(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	unsigned row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0], best;
		row[0] = (unsigned)i;
		best = row[0];
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned v = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb] > cap ? cap + 1 : row[lb];
}
