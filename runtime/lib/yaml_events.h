/* yaml_events.h: the one loop from libyaml's events to a tree, for every
 * YAML file hangar-policy reads (facts files, documents, test cases,
 * waivers). What no reader accepts is refused here, with one wording: more
 * than one document, aliases, anchors, tags, a NUL in a string, more
 * nodes than the reader allows, collections nested past its depth. The
 * stack is explicit and bounded: nesting costs no C stack, and the depth
 * limit is hit at the first collection past it, before the rest of the
 * file is read. The nodes are the reader's own: it makes them in its
 * callbacks, and may refuse any one with its own message. */
#ifndef HP_YAML_EVENTS_H
#define HP_YAML_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

/* Where a node starts and ends: 1-based lines and columns (in characters,
 * as libyaml counts them); the end is just past it. */
typedef struct {
	uint32_t line, col, end_line, end_col;
} hp_ymark;

typedef struct {
	const char *name;   /* the file, for messages: "NAME:LINE:COL: what" */
	unsigned max_depth; /* collections nested at most this deep */
	uint32_t max_nodes; /* scalars and collections in the file */
	void *ctx;          /* the callbacks' */
	/* A scalar (s is NUL-terminated, holds no NUL); at_key: it is a
	 * mapping's key. The node, or NULL with err set (hp_yaml_fail). */
	void *(*scalar)(void *ctx, const char *s, size_t len, bool plain, bool at_key,
	                const hp_ymark *m, hp_err *err);
	/* A collection opened (its end is not known yet). */
	void *(*open)(void *ctx, bool seq, bool at_key, const hp_ymark *m, hp_err *err);
	/* A collection closed, with its items (a mapping's: key, value, key,
	 * value...); kids stays the loop's, to copy from. false with err set. */
	bool (*close)(void *ctx, void *node, void *const *kids, size_t n, const hp_ymark *m,
	              hp_err *err);
} hp_yaml_reader;

/* Read text (len bytes) into *root: the document's top node, NULL when the
 * text holds none. false with err set, "NAME:LINE:COL: what"; nodes made
 * before the error are the reader's to free. */
bool hp_yaml_read(const hp_yaml_reader *r, const char *text, size_t len, void **root,
                  hp_err *err);

/* err = "NAME:LINE:COL: message". Returns false. */
bool hp_yaml_fail(hp_err *err, const char *name, uint32_t line, uint32_t col, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));

#endif
