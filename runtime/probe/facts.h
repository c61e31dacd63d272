/* facts.h: the facts backend: probe answers read from YAML files
 * (docs/facts.md), so a policy can be evaluated without root and without
 * the system it describes: hand-written tests, a decision reproduced from
 * a recording, a pod's containers checked apart and decided together.
 *
 * Each fact is a role (or none, for every role), a probe named as in
 * probes.def, its argument, and its answer: a value of the probe's result
 * type, or absent, unknown or skipped. A question no fact answers is
 * UNKNOWN. Files are read with libyaml's event parser, bounded in size,
 * depth and count; anything malformed is an error naming file, line and
 * column. */
#ifndef HP_FACTS_H
#define HP_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "vm/backend.h"
#include "lib/xalloc.h"

#define HP_FACTS_MAX_FILE (16u * 1024u * 1024u) /* bytes in one facts file */
#define HP_FACTS_MAX_DEPTH 8u                   /* YAML collections nested */
#define HP_FACTS_MAX_NODES (1u << 21)           /* YAML nodes in one file */

typedef struct hp_facts hp_facts;

hp_facts *hp_probe_facts_new(void);
void hp_probe_facts_free(hp_facts *f);

/* Add the facts of a file. A file may name the container it was recorded
 * in (docs/facts.md): a question a file of the same container answered
 * differently is an error naming both files and lines, never replaced;
 * files of different containers keep their answers apart, and a question
 * they answer differently is UNKNOWN. hangar's own settings (env HANGAR_*)
 * are never answered from facts, only from this process's environment.
 * false with err = "FILE:LINE:COL: what is wrong". */
bool hp_probe_facts_load_file(hp_facts *f, const char *path, hp_err *err);
/* The same from memory, named name in messages. */
bool hp_probe_facts_load(hp_facts *f, const char *name, const char *text, size_t len, hp_err *err);
/* Facts that amend those loaded before: an answer here replaces an earlier
 * file's for the same question. Only for a test's own edits of its base
 * facts (hangar-policy test, docs/testing.md): check never amends. */
bool hp_probe_facts_amend(hp_facts *f, const char *name, const char *text, size_t len, hp_err *err);

/* Let the facts answer the doc_* probes. Without it a doc_* question is
 * unknown: check and diff take a document's answers from the deciding
 * call's --document only, never from a recording made where the agent
 * could write it (docs/kubernetes.md). Only hangar-policy test allows
 * them: its facts are the test's own, written by the policy's authors. */
void hp_probe_facts_allow_documents(hp_facts *f);

/* Whether the facts reader knows the kernel's range of probe's int
 * argument (arg) or int answer: every probe with an int has one, and a fact
 * outside it is refused with its line. */
bool hp_probe_facts_int_has_range(hp_probe_id probe, bool arg);

/* How many facts are held. */
size_t hp_probe_facts_count(const hp_facts *f);

/* One fact as held: the question and its answer, and the line of the file
 * that gave it (the answer that counts, when several files were loaded). */
typedef struct {
	hp_probe_id probe;
	int role; /* hp_role, or -1: every role */
	const hp_value *arg, *answer;
	const char *file;      /* the file that gave it, as named when loaded */
	uint32_t line;         /* 1-based */
	const char *container; /* the file's container (--container), or NULL */
} hp_fact_view;

/* The i-th fact held (0 <= i < hp_probe_facts_count), in the order first given;
 * the views point into f. */
void hp_probe_facts_get(const hp_facts *f, size_t i, hp_fact_view *out);

/* The backend that answers from f (f must outlive it; destroying the
 * backend does not free f). */
hp_backend *hp_probe_facts_backend(hp_facts *f);

#endif
