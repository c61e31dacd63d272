/* document.h: structured documents a policy reads (docs/documents.md):
 * a Kubernetes Pod or workload manifest (kubectl get -o yaml|json), any
 * YAML or JSON file given with `check --document NAME=FILE`.
 *
 * A document is read once into a tree whose every value keeps its file,
 * line and column, typed the way Kubernetes reads YAML (YAML 1.1: yes, no,
 * on, off are booleans; 0755 is octal). Reading refuses what could make
 * this tool and Kubernetes see different values, or cost more than a
 * manifest is worth: a file that is not regular or is too large, nesting
 * too deep (checked as events arrive, never by recursion), anchors,
 * aliases, tags and merge keys, a key given twice, more than one YAML
 * document, too many values.
 *
 * Queries are paths, answered with the value's type checked: a missing
 * field is ABSENT, a value of another type (a quoted "true" asked as a
 * bool) or a path matching several values is UNKNOWN, never false. */
#ifndef HP_DOCUMENT_H
#define HP_DOCUMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/buf.h"
#include "lib/pool.h"
#include "lib/xalloc.h"
#include "model/value.h"

#define HP_DOC_MAX_FILE (8u * 1024u * 1024u) /* bytes in one document file */
#define HP_DOC_MAX_DEPTH 64u                 /* collections nested */
#define HP_DOC_MAX_NODES (1u << 20)          /* values in one file */
#define HP_DOC_MAX_NAME 64u                  /* bytes in a document's name */
#define HP_DOC_MAX_QUERY 1024u               /* bytes in a query path */

typedef struct hp_doc hp_doc;

/* Read a document from a regular file. name is what policies call it
 * (--document NAME=FILE), file is how messages name the file. false with
 * err = "FILE:LINE:COL: what is wrong" (or "FILE: ..." for the file). */
hp_doc *hp_probe_doc_load_file(const char *name, const char *path, hp_err *err);
/* The same from memory. */
hp_doc *hp_probe_doc_load(const char *name, const char *file, const char *text, size_t len,
                    hp_err *err);
void hp_probe_doc_free(hp_doc *d);

const char *hp_probe_doc_name(const hp_doc *d);
/* The document's top-level `kind` when it is a string, else NULL. */
const char *hp_probe_doc_kind(const hp_doc *d);

/* What a query asks of the values its path selects. */
typedef enum {
	HP_DOC_BOOL,   /* bool: the one value, a boolean */
	HP_DOC_INT,    /* int: the one value, an integer */
	HP_DOC_STR,    /* string: the one value, a string */
	HP_DOC_EXISTS, /* bool: whether the path selects anything */
	HP_DOC_COUNT,  /* int: how many values the path selects */
	HP_DOC_STRS,   /* list: the selected strings, or the items of the one list of strings */
} hp_doc_ask;

/* Answer a query (docs/documents.md, "Paths"):
 *
 *   path := ['@pod'] step...
 *   step := '.'KEY | '[' INDEX ']' | '[*]' | '[' KEY '=' LITERAL ']'
 *
 * the first step's '.' may be left out; KEY is [A-Za-z0-9_-]+; LITERAL is
 * a double-quoted string (\" and \\ escapes), true, false or an integer.
 * '@pod' is the pod: the document itself for a Pod, the pod template of
 * a Deployment, StatefulSet, DaemonSet, ReplicaSet, Job or CronJob.
 * '[*]' selects every item of a list; a filter selects the items of a
 * list (or the mapping itself) whose KEY is that value.
 *
 * The answer is a value of the type ask names, ABSENT, or UNKNOWN with a
 * reason; strings live in the document or in pool. where (when not NULL)
 * gets the evidence: "FILE:LINE:COL: CONCRETE-PATH" of the value
 * answered (its first match for COUNT and STRS), or of the deepest value
 * the path reached when it is absent. */
hp_value hp_probe_doc_query(const hp_doc *d, hp_doc_ask ask, const char *path, hp_pool *pool,
                      hp_buf *where);

#endif
