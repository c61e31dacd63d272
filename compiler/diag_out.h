/* diag_out.h: diagnostics kept after their sources are freed, and written
 * as JSON (lint --format json, documented in docs/lint.md) or SARIF 2.1.0
 * (lint --format sarif, for GitHub code scanning). */
#ifndef HP_DIAG_OUT_H
#define HP_DIAG_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "diag.h"

typedef struct {
	char *path;
	bool has_pos;
	/* 1-based; columns in bytes (col) and in code points (ccol); the end
	 * is exclusive and on the span's first line. */
	uint32_t line, col, end_col, ccol, end_ccol;
	hp_severity sev;
	hp_diag_code code;
	char *msg, *help, *note;
	char *note_path;
	uint32_t note_line, note_col;
} hp_diag_rec;

typedef struct {
	hp_diag_rec *v;
	size_t n, cap;
	size_t *slots; /* open-addressing index of v (entry + 1), for duplicates */
	size_t nslots;
	/* where the last code point count stopped: diagnostics arrive sorted,
	 * so counting resumes there and a long line is walked once */
	const hp_src *c_src;
	uint32_t c_line, c_pos, c_chars;
} hp_diag_recs;

/* Append a copy of g, unless an identical diagnostic is already there (a
 * file included by several linted files is reported once). Returns 1 when
 * added. */
int hp_diag_recs_add(hp_diag_recs *r, const hp_diag *g);
/* Append a diagnostic of a file that is not a policy (a waiver file), at
 * line:col (0: no position). Returns 1 when added. */
int hp_diag_recs_add_at(hp_diag_recs *r, const char *path, uint32_t line, uint32_t col,
                        hp_severity sev, hp_diag_code code, const char *msg);
void hp_diag_recs_free(hp_diag_recs *r);
/* GitHub Actions workflow commands, one a line:
 *   ::error file=F,line=L,col=C,endColumn=E,title=CODE::message */
void hp_diag_recs_github(hp_buf *b, const hp_diag_recs *r);
/* The version of lint's JSON shape: raised when a field changes meaning or
 * goes away (adding one does not). */
#define HP_LINT_JSON_FORMAT_VERSION 1
void hp_diag_recs_json(hp_buf *b, const hp_diag_recs *r);
void hp_diag_recs_sarif(hp_buf *b, const hp_diag_recs *r);

#endif
