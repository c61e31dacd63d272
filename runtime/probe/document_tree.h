/* document_tree.h: the tree a document is read into, shared by the reader
 * (document.c) and the queries (doc_query.c) and by nothing else. */
#ifndef HP_DOCUMENT_TREE_H
#define HP_DOCUMENT_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/pool.h"
#include "probe/document.h"

typedef enum { HP_DNODE_NULL, HP_DNODE_BOOL, HP_DNODE_INT, HP_DNODE_FLOAT, HP_DNODE_STR, HP_DNODE_SEQ, HP_DNODE_MAP } hp_dnode_kind;

typedef struct hp_dnode hp_dnode;
struct hp_dnode {
	uint8_t kind; /* hp_dnode_kind */
	bool b;
	uint32_t line, col;
	int64_t i;
	const char *s; /* scalars: the text (a key's canonical text); NUL-terminated */
	uint32_t len;
	hp_dnode **kids; /* seq: items; map: key, value, key, value... */
	uint32_t n;
};

struct hp_doc {
	char *name, *file;
	hp_pool pool;
	hp_dnode *root;
};

/* "null", "a bool"... by hp_dnode_kind, for messages */
extern const char *const hp_probe_doc_kind_names[];

/* The value of key in a mapping, or NULL (NULL for anything but a mapping). */
const hp_dnode *hp_probe_doc_map_get(const hp_dnode *m, const char *key);
/* Whether s is one of the NULL-terminated words. */
bool hp_probe_doc_word_in(const char *s, const char *const *words);

#endif
