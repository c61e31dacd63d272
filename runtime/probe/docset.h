/* docset.h: the documents of one check (--document NAME=FILE) and the
 * backend that answers the doc_* probes from them (probes.def), in front
 * of the backend that answers everything else. The argument of a doc_*
 * probe is "NAME:PATH" (document.h for PATH).
 *
 * A doc_* question about a document the check was not given goes to the
 * backend behind (facts may hold a recorded answer); with nothing behind
 * it is unknown. With nothing behind (a check of documents alone, as in
 * CI before anything runs), every other probe is skipped: what a sandbox
 * would answer is not known, and skipped never passes. */
#ifndef HP_DOCSET_H
#define HP_DOCSET_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/document.h"
#include "vm/backend.h"

#define HP_DOCSET_MAX 16u /* documents in one check */

typedef struct hp_docset hp_docset;

hp_docset *hp_probe_docset_new(void);
void hp_probe_docset_free(hp_docset *s);

/* Read the document of a --document NAME=FILE argument. false with err
 * (a malformed argument, a name given twice, a file that does not read). */
bool hp_probe_docset_add(hp_docset *s, const char *name_eq_file, hp_err *err);
size_t hp_probe_docset_count(const hp_docset *s);
const hp_doc *hp_probe_docset_find(const hp_docset *s, const char *name, size_t len);

/* The backend over s, with behind for every other question (NULL: none).
 * It does not own behind; destroying it destroys neither s nor behind. */
hp_backend *hp_probe_docset_backend(hp_docset *s, hp_backend *behind);

/* Whether a probe is one of the doc_* probes. */
bool hp_probe_docset_probe(hp_probe_id p);

#endif
