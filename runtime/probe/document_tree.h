/* document_tree.h: the tree a document is read into, shared by the reader
 * (document.c) and the queries (doc_query.c) and by nothing else. */
#ifndef HP_DOCUMENT_TREE_H
#define HP_DOCUMENT_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/pool.h"
#include "probe/document.h"

typedef enum { D_NULL, D_BOOL, D_INT, D_FLOAT, D_STR, D_SEQ, D_MAP } dkind;

typedef struct dnode dnode;
struct dnode {
	uint8_t kind; /* dkind */
	bool b;
	uint32_t line, col;
	int64_t i;
	const char *s; /* scalars: the text (a key's canonical text); NUL-terminated */
	uint32_t len;
	dnode **kids; /* seq: items; map: key, value, key, value... */
	uint32_t n;
};

struct hp_doc {
	char *name, *file;
	hp_pool pool;
	dnode *root;
};

/* "null", "a bool"... by dkind, for messages */
extern const char *const hp_doc_kind_names[];

/* The value of key in a mapping, or NULL (NULL for anything but a mapping). */
const dnode *hp_doc_map_get(const dnode *m, const char *key);
/* Whether s is one of the NULL-terminated words. */
bool hp_doc_word_in(const char *s, const char *const *words);

#endif
