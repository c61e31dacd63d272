/* diag.h: compiler diagnostics, collected and then printed the way a
 * compiler prints them. Used by lint, compile, explain and check: every
 * message about a policy's text goes through here.
 *
 *   file:line:col: error: message
 *      12 |     forbid writable(42)
 *         |                     ^~
 *   help: did you mean 'setuid'?
 *
 * Diagnostics are printed sorted by file and position, capped, with a final
 * count. Colour by the rule of check/color.h (--color, NO_COLOR, CLICOLOR_FORCE, TERM).
 */
#ifndef HP_DIAG_H
#define HP_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"

typedef enum {
#define HP_DIAG(id, name, doc) HP_DG_##id,
#include "diag.def"
	HP_DG_COUNT
} hp_diag_code;

extern const char *const hp_diag_code_names[HP_DG_COUNT];
extern const char *const hp_diag_code_docs[HP_DG_COUNT];

typedef enum { HP_SEV_ERROR, HP_SEV_WARNING } hp_severity;

/* The part of a source line a diagnostic shows, copied when it is reported
 * (at most a few hundred bytes, however long the line). */
typedef struct {
	char *text; /* NULL: nothing to show */
	uint32_t len;
	uint32_t start, end; /* the underlined bytes of text */
	uint32_t line;
	bool cut_left, cut_right; /* the line goes on beyond text */
} hp_excerpt;

/* A diagnostic. Everything printed is copied when it is reported, so a
 * diagnostic outlives the program it is about; src and note_src (for
 * lint's JSON and SARIF columns) are valid only while the program is. */
typedef struct {
	hp_severity sev;
	hp_diag_code code;
	const hp_src *src; /* NULL: about no file's text (the span is unused) */
	const char *path;  /* the file named (owned copy) */
	hp_span span;
	char *msg;
	char *help;             /* NULL or a "help:" line */
	const hp_src *note_src; /* NULL or a "note:" pointing elsewhere */
	hp_span note_span;
	char *note;
	uint32_t seq; /* order of report, for a stable sort */
	/* copies for printing */
	uint32_t file_order; /* 0: no file's text; else the file's index + 1 */
	hp_excerpt ex;
	char *note_path; /* owned copy of note_src->path, or NULL */
	hp_excerpt note_ex;
} hp_diag;

/* Diagnostics kept in memory are capped; beyond the cap they are counted. */
#define HP_DIAG_KEEP_MAX 10000u

typedef struct {
	hp_diag *v;
	size_t n, cap;
	uint32_t nerrors;
	uint32_t nwarnings;
	uint32_t dropped; /* reported beyond HP_DIAG_KEEP_MAX */
} hp_diags;

void hp_diags_init(hp_diags *d);
void hp_diags_free(hp_diags *d);
/* Forget the diagnostics kept so far (counts too). */
void hp_diags_clear(hp_diags *d);

/* Report at a span of src (src may be NULL for a message about a path). The
 * returned diagnostic (NULL when over the cap) can take a help line and a
 * note. Messages are complete sentences without a trailing period. */
hp_diag *hp_diag_add(hp_diags *d, hp_severity sev, hp_diag_code code, const hp_src *src,
                     hp_span span, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same, naming a path that was not read (no source text). */
hp_diag *hp_diag_path(hp_diags *d, hp_severity sev, hp_diag_code code, const char *path,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void hp_diag_help(hp_diag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hp_diag_note(hp_diag *g, const hp_src *src, hp_span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Sort by file (order read), then position, then order of report. */
void hp_diags_sort(hp_diags *d);

typedef struct {
	bool color;         /* ANSI colours */
	uint32_t max_shown; /* 0: no cap */
} hp_diag_style;

/* Colour by the one rule of check/color.h, for stream f. */
hp_diag_style hp_diag_style_for(FILE *f);

/* Print one diagnostic with its source line and underline. */
void hp_diag_print(FILE *f, const hp_diag *g, const hp_diag_style *st);
/* Print all (sorted first), up to st->max_shown, without the final count. */
void hp_diags_print(FILE *f, hp_diags *d, const hp_diag_style *st);
/* "2 errors, 1 warning generated" (nothing when there are none). */
void hp_diags_print_summary(FILE *f, const hp_diags *d, uint32_t shown);

/* Line and column (1-based, in Unicode code points, an invalid byte counting
 * as one) of byte offset off in src: for SARIF and JSON. */
void hp_src_linecol(const hp_src *src, uint32_t off, uint32_t *line, uint32_t *col_bytes,
                    uint32_t *col_chars);


/* Edit distance with a cap: returns cap+1 when the distance exceeds cap. */
unsigned hp_edit_distance(const char *a, const char *b, unsigned cap);

#endif
