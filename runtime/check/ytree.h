/* ytree.h: a YAML file as a small tree, for the files the commands read
 * (test cases, waivers): bounded in size, depth and node
 * count; one document; no anchors, aliases or tags. Every node keeps its
 * line and column where it starts and ends, so messages name the place and a part of
 * the file can be handed on whole (a case's inline facts go to the facts
 * reader as they were written). */
#ifndef HP_YTREE_H
#define HP_YTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

#define HP_YTREE_MAX_FILE (16u * 1024u * 1024u)
#define HP_YTREE_MAX_DEPTH 16u
#define HP_YTREE_MAX_NODES (1u << 20)

typedef enum { HP_Y_SCALAR, HP_Y_SEQ, HP_Y_MAP } hp_ykind;

typedef struct hp_ynode hp_ynode;
struct hp_ynode {
	hp_ykind kind;
	bool plain;       /* a plain (unquoted) scalar */
	uint32_t line, col; /* 1-based */
	uint32_t end_line, end_col; /* just past the node */
	char *s;          /* scalar, NUL-terminated */
	hp_ynode **kids;  /* seq: items; map: key, value, key, value... */
	uint32_t n;
};

typedef struct hp_ytree hp_ytree;

/* Read and parse the file at path (a regular file, at most
 * HP_YTREE_MAX_FILE bytes). NULL with err = "PATH:LINE:COL: what". */
hp_ytree *hp_ytree_load_file(const char *path, hp_err *err);
hp_ytree *hp_ytree_parse(const char *name, const char *text, size_t len, hp_err *err);
void hp_ytree_free(hp_ytree *t);

const hp_ynode *hp_ytree_root(const hp_ytree *t); /* NULL for an empty file */
const char *hp_ytree_text(const hp_ytree *t, size_t *len);
const char *hp_ytree_name(const hp_ytree *t);

/* The byte offset of a 1-based line and column (in characters, as libyaml
 * counts them), or the text's length past its end. */
size_t hp_ytree_offset(const hp_ytree *t, uint32_t line, uint32_t col);

/* A mapping's value for key, or NULL. */
const hp_ynode *hp_ymap_get(const hp_ynode *map, const char *key);
/* "a scalar", "a list" or "a mapping". */
const char *hp_ykind_name(const hp_ynode *n);

/* Check a mapping's keys: every key a scalar, one of keys (NULL-ended),
 * none twice. false with err naming the place. */
bool hp_ymap_check_keys(const hp_ytree *t, const hp_ynode *map, const char *const *keys,
                        hp_err *err);

/* err = "NAME:LINE:COL: message" for node n. Returns false. */
bool hp_yfail(const hp_ytree *t, const hp_ynode *n, hp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
