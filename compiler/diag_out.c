/* diag_out.c: JSON and SARIF output of diagnostics (diag_out.h). */
#include "diag_out.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/version.h"
#include "lib/utf8.h"
#include "lib/xalloc.h"

static char *dup_or_null(const char *s)
{
	return s ? hp_xstrdup(s) : NULL;
}

static uint32_t hash_str(uint32_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

static uint32_t rec_hash(const hp_diag_rec *x, const char *msg)
{
	uint32_t h = 2166136261u ^ (x->line * 2654435761u) ^ (x->col * 40503u) ^ (uint32_t)x->code;
	return hash_str(hash_str(h, x->path), msg);
}

/* Grow the duplicate index to twice the records, at least 64 slots. */
static void rehash(hp_diag_recs *r)
{
	size_t n = r->nslots ? r->nslots * 2 : 64;
	while (n < (r->n + 1) * 2)
		n *= 2;
	free(r->slots);
	r->slots = hp_xcalloc(n, sizeof *r->slots);
	r->nslots = n;
	for (size_t i = 0; i < r->n; i++) {
		size_t j = rec_hash(&r->v[i], r->v[i].msg) & (n - 1);
		while (r->slots[j])
			j = (j + 1) & (n - 1);
		r->slots[j] = i + 1;
	}
}

/* The 1-based column of off in code points (an invalid byte counts as
 * one), resuming from the last count when it is on the same line. */
static uint32_t chars_col(hp_diag_recs *r, const hp_src *src, uint32_t line, uint32_t off)
{
	if (line == 0 || line > src->nlines)
		return 1;
	uint32_t pos = src->lines[line - 1], chars = 0;
	if (r->c_src == src && r->c_line == line && r->c_pos <= off) {
		pos = r->c_pos;
		chars = r->c_chars;
	}
	const unsigned char *t = (const unsigned char *)src->text;
	while (pos < off) {
		unsigned l = hp_utf8_len(t + pos, src->len - pos);
		pos += l ? l : 1;
		chars++;
	}
	r->c_src = src;
	r->c_line = line;
	r->c_pos = pos;
	r->c_chars = chars;
	return chars + 1;
}

int hp_diag_recs_add(hp_diag_recs *r, const hp_diag *g)
{
	hp_diag_rec x;
	memset(&x, 0, sizeof x);
	x.path = (char *)(g->path ? g->path : "");
	x.sev = g->sev;
	x.code = g->code;
	if (g->src && g->span.line) {
		x.has_pos = true;
		x.line = g->span.line;
		x.col = g->span.col;
		/* the end, on the span's first line */
		uint32_t off = g->span.off <= g->src->len ? g->span.off : g->src->len;
		uint32_t len = g->span.len <= g->src->len - off ? g->span.len : g->src->len - off;
		const char *nl = memchr(g->src->text + off, '\n', len);
		uint32_t end = nl ? (uint32_t)(nl - g->src->text) : off + len;
		x.end_col = x.col + (end - off);
		x.ccol = chars_col(r, g->src, x.line, off);
		x.end_ccol = chars_col(r, g->src, x.line, end);
		if (x.end_col <= x.col)
			x.end_col = x.col + 1, x.end_ccol = x.ccol + 1;
	}
	uint32_t h = rec_hash(&x, g->msg);
	if ((r->n + 1) * 2 > r->nslots)
		rehash(r);
	size_t j = h & (r->nslots - 1);
	for (; r->slots[j]; j = (j + 1) & (r->nslots - 1)) {
		const hp_diag_rec *o = &r->v[r->slots[j] - 1];
		if (o->line == x.line && o->col == x.col && o->code == x.code && o->sev == x.sev &&
		    strcmp(o->path, x.path) == 0 && strcmp(o->msg, g->msg) == 0)
			return 0;
	}
	r->slots[j] = r->n + 1;
	x.path = hp_xstrdup(x.path);
	x.msg = hp_xstrdup(g->msg);
	x.help = dup_or_null(g->help);
	x.note = dup_or_null(g->note);
	if (g->note && g->note_path) {
		x.note_path = hp_xstrdup(g->note_path);
		x.note_line = g->note_span.line;
		x.note_col = g->note_span.col;
	}
	r->v = hp_xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	r->v[r->n++] = x;

	return 1;
}

int hp_diag_recs_add_at(hp_diag_recs *r, const char *path, uint32_t line, uint32_t col,
                        hp_severity sev, hp_diag_code code, const char *msg)
{
	hp_diag_rec x;
	memset(&x, 0, sizeof x);
	x.path = hp_xstrdup(path);
	x.has_pos = line > 0;
	x.line = line;
	x.col = x.ccol = col ? col : 1;
	x.end_col = x.end_ccol = x.col + 1;
	x.sev = sev;
	x.code = code;
	x.msg = hp_xstrdup(msg);
	r->v = hp_xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	r->v[r->n++] = x;
	return 1;
}

/* Workflow command text: % and line breaks escaped; in a property also
 * ':' and ','. */
static void gh_escape(hp_buf *b, const char *s, bool property)
{
	for (; s && *s; s++) {
		if (*s == '%')
			hp_buf_puts(b, "%25");
		else if (*s == '\r')
			hp_buf_puts(b, "%0D");
		else if (*s == '\n')
			hp_buf_puts(b, "%0A");
		else if (property && *s == ':')
			hp_buf_puts(b, "%3A");
		else if (property && *s == ',')
			hp_buf_puts(b, "%2C");
		else
			hp_buf_putc(b, *s);
	}
}

void hp_diag_recs_github(hp_buf *b, const hp_diag_recs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const hp_diag_rec *x = &r->v[i];
		hp_buf_printf(b, "::%s file=", x->sev == HP_SEV_ERROR ? "error" : "warning");
		gh_escape(b, x->path, true);
		if (x->has_pos)
			hp_buf_printf(b, ",line=%u,col=%u,endColumn=%u", x->line, x->ccol, x->end_ccol);
		hp_buf_puts(b, ",title=");
		gh_escape(b, hp_diag_code_names[x->code], true);
		hp_buf_puts(b, "::");
		gh_escape(b, x->msg, false);
		if (x->help) {
			hp_buf_puts(b, "%0Ahelp: ");
			gh_escape(b, x->help, false);
		}
		if (x->note) {
			hp_buf_puts(b, "%0Anote: ");
			gh_escape(b, x->note, false);
			if (x->note_path) {
				hp_buf_puts(b, " (");
				gh_escape(b, x->note_path, false);
				hp_buf_printf(b, ":%u:%u)", x->note_line, x->note_col);
			}
		}
		hp_buf_putc(b, '\n');
	}
}

void hp_diag_recs_free(hp_diag_recs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].msg);
		free(r->v[i].help);
		free(r->v[i].note);
		free(r->v[i].note_path);
	}
	free(r->v);
	free(r->slots);
	memset(r, 0, sizeof *r);
}

static void json_str_or_null(hp_buf *b, const char *s)
{
	if (s)
		hp_buf_json_string(b, s);
	else
		hp_buf_puts(b, "null");
}

void hp_diag_recs_json(hp_buf *b, const hp_diag_recs *r)
{
	hp_buf_printf(b, "{\"format_version\": %d, \"diagnostics\": [", HP_LINT_JSON_FORMAT_VERSION);
	for (size_t i = 0; i < r->n; i++) {
		const hp_diag_rec *x = &r->v[i];
		hp_buf_puts(b, i ? ",\n  {" : "\n  {");
		hp_buf_puts(b, "\"file\": ");
		hp_buf_json_string(b, x->path);
		if (x->has_pos)
			hp_buf_printf(b, ", \"line\": %u, \"column\": %u, \"end_column\": %u",
			              x->line, x->col, x->end_col);
		else
			hp_buf_puts(b, ", \"line\": null, \"column\": null, \"end_column\": null");
		hp_buf_printf(b, ", \"severity\": \"%s\", \"code\": \"%s\", \"message\": ",
		              x->sev == HP_SEV_ERROR ? "error" : "warning",
		              hp_diag_code_names[x->code]);
		hp_buf_json_string(b, x->msg);
		hp_buf_puts(b, ", \"help\": ");
		json_str_or_null(b, x->help);
		hp_buf_puts(b, ", \"note\": ");
		if (x->note) {
			hp_buf_puts(b, "{\"message\": ");
			hp_buf_json_string(b, x->note);
			if (x->note_path) {
				hp_buf_puts(b, ", \"file\": ");
				hp_buf_json_string(b, x->note_path);
				hp_buf_printf(b, ", \"line\": %u, \"column\": %u", x->note_line,
				              x->note_col);
			}
			hp_buf_puts(b, "}");
		} else {
			hp_buf_puts(b, "null");
		}
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, r->n ? "\n]}\n" : "]}\n");
}

/* A path as URI text: unreserved bytes and '/' kept, everything else
 * percent-encoded (so it needs no JSON escaping). */
static void uri_raw(hp_buf *b, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			hp_buf_putc(b, (char)*p);
		else {
			hp_buf_putc(b, '%');
			hp_buf_putc(b, hex[*p >> 4]);
			hp_buf_putc(b, hex[*p & 15]);
		}
	}
}

/* "artifactLocation": an absolute path as a file:// URI, a relative one
 * relative to SRCROOT (the directory lint ran in). */
static void artifact(hp_buf *b, const char *path)
{
	hp_buf_puts(b, "{\"artifactLocation\": {\"uri\": \"");
	if (path[0] == '/') {
		hp_buf_puts(b, "file://");
		uri_raw(b, path);
		hp_buf_puts(b, "\"}");
	} else {
		uri_raw(b, path);
		hp_buf_puts(b, "\", \"uriBaseId\": \"SRCROOT\"}");
	}
}

void hp_diag_recs_sarif(hp_buf *b, const hp_diag_recs *r)
{
	hp_buf_puts(b, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	               "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
	               "      \"tool\": {\n        \"driver\": {\n"
	               "          \"name\": \"hangar-policy\",\n");
	hp_buf_printf(b, "          \"version\": \"%s\",\n", HP_VERSION);
	hp_buf_printf(b, "          \"informationUri\": \"%s\",\n", HP_INFORMATION_URI);
	hp_buf_puts(b, "          \"rules\": [");
	for (int i = 0; i < HP_DG_COUNT; i++) {
		hp_buf_printf(b,
		              "%s\n            {\"id\": \"%s\", \"shortDescription\": {\"text\": ",
		              i ? "," : "", hp_diag_code_names[i]);
		hp_buf_json_string(b, hp_diag_code_docs[i]);
		hp_buf_puts(b, "}}");
	}
	hp_buf_puts(b, "\n          ]\n        }\n      },\n");
	/* lint ran to its end: finding errors in policies is what it is for */
	hp_buf_puts(b, "      \"invocations\": [{\"executionSuccessful\": true}],\n");
	/* relative paths are relative to the directory lint ran in */
	char *cwd = getcwd(NULL, 0);
	if (cwd) {
		hp_buf_puts(b, "      \"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": \"file://");
		uri_raw(b, cwd);
		hp_buf_puts(b, strcmp(cwd, "/") ? "/\"}},\n" : "\"}},\n");
		free(cwd);
	}
	hp_buf_puts(b, "      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [");
	for (size_t i = 0; i < r->n; i++) {
		const hp_diag_rec *x = &r->v[i];
		hp_buf_printf(
		    b,
		    "%s\n        {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"%s\", "
		    "\"message\": {\"text\": ",
		    i ? "," : "", hp_diag_code_names[x->code], (int)x->code,
		    x->sev == HP_SEV_ERROR ? "error" : "warning");
		hp_buf *msg = &(hp_buf){0};
		hp_buf_puts(msg, x->msg);
		if (x->help) {
			hp_buf_puts(msg, "\nhelp: ");
			hp_buf_puts(msg, x->help);
		}
		hp_buf_json_string(b, msg->data);
		hp_buf_free(msg);
		hp_buf_puts(b, "}, \"locations\": [{\"physicalLocation\": ");
		artifact(b, x->path);
		if (x->has_pos)
			hp_buf_printf(b,
			              ", \"region\": {\"startLine\": %u, \"startColumn\": %u, "
			              "\"endLine\": %u, \"endColumn\": %u}",
			              x->line, x->ccol, x->line, x->end_ccol);
		hp_buf_puts(b, "}}]");
		/* a note with a place of its own (where a duplicate was first
		 * declared, an include chain) is a related location */
		if (x->note && x->note_path) {
			hp_buf_puts(b, ", \"relatedLocations\": [{\"id\": 1, \"physicalLocation\": ");
			artifact(b, x->note_path);
			if (x->note_line)
				hp_buf_printf(b, ", \"region\": {\"startLine\": %u, \"startColumn\": %u}",
				              x->note_line, x->note_col ? x->note_col : 1);
			hp_buf_puts(b, "}, \"message\": {\"text\": ");
			hp_buf_json_string(b, x->note);
			hp_buf_puts(b, "}}]");
		} else if (x->note) {
			hp_buf_puts(b, ", \"relatedLocations\": [{\"id\": 1, \"message\": {\"text\": ");
			hp_buf_json_string(b, x->note);
			hp_buf_puts(b, "}}]");
		}
		hp_buf_puts(b, "}");
	}
	hp_buf_puts(b, r->n ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n");
}
