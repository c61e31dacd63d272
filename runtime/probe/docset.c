/* docset.c: the documents of a check and their backend (docset.h). */
#include "probe/docset.h"

#include <stdlib.h>
#include <string.h>

#include "model/bytecode.h"
#include "probe/env_answer.h"

struct hp_docset {
	hp_backend base;
	hp_backend *behind;
	hp_doc *v[HP_DOCSET_MAX];
	size_t n;
	/* the evidence of the last document answer, for where() right after */
	hp_buf where;
	hp_probe_id where_probe;
	char *where_arg;
};

hp_docset *hp_probe_docset_new(void)
{
	return hp_xcalloc(1, sizeof(hp_docset));
}

void hp_probe_docset_free(hp_docset *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		hp_probe_doc_free(s->v[i]);
	hp_buf_free(&s->where);
	free(s->where_arg);
	free(s);
}

size_t hp_probe_docset_count(const hp_docset *s)
{
	return s ? s->n : 0;
}

const hp_doc *hp_probe_docset_find(const hp_docset *s, const char *name, size_t len)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const char *dn = hp_probe_doc_name(s->v[i]);
		if (strlen(dn) == len && memcmp(dn, name, len) == 0)
			return s->v[i];
	}
	return NULL;
}

bool hp_probe_docset_add(hp_docset *s, const char *arg, hp_err *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1]) {
		hp_err_set(err, "--document takes NAME=FILE, not '%s'", arg);
		return false;
	}
	size_t n = (size_t)(eq - arg);
	if (hp_probe_docset_find(s, arg, n)) {
		hp_err_set(err, "--document %.*s given twice", (int)n, arg);
		return false;
	}
	if (s->n >= HP_DOCSET_MAX) {
		hp_err_set(err, "more than %u documents", HP_DOCSET_MAX);
		return false;
	}
	char *name = hp_xstrndup(arg, n);
	hp_doc *d = hp_probe_doc_load_file(name, eq + 1, err);
	free(name);
	if (!d)
		return false;
	s->v[s->n++] = d;
	return true;
}

bool hp_probe_docset_probe(hp_probe_id p)
{
	return (unsigned)p < HP_PROBE_COUNT && hp_probes[p].part == HP_PART_DOC;
}

static hp_doc_ask ask_of(hp_probe_id p)
{
	switch (p) {
	case HP_PROBE_DOC_BOOL:
		return HP_DOC_BOOL;
	case HP_PROBE_DOC_INT:
		return HP_DOC_INT;
	case HP_PROBE_DOC_STR:
		return HP_DOC_STR;
	case HP_PROBE_DOC_EXISTS:
		return HP_DOC_EXISTS;
	case HP_PROBE_DOC_COUNT:
		return HP_DOC_COUNT;
	case HP_PROBE_DOC_STRS:
		return HP_DOC_STRS;
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, DOC, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return HP_DOC_STRS; /* not a document probe: hp_probe_docset_probe refused it */
}

static hp_value ds_ask(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
                       hp_pool *pool)
{
	hp_docset *s = (hp_docset *)b;
	s->where.len = 0;
	free(s->where_arg);
	s->where_arg = NULL;
	hp_type t = hp_probes[probe].result;
	if (!hp_probe_docset_probe(probe)) {
		if (s->behind)
			return hp_backend_ask(s->behind, role, probe, arg, pool);
		/* the check's own environment is known wherever it runs */
		if (probe == HP_PROBE_ENV && arg->state == HP_VAL_KNOWN && arg->type == HP_T_STR)
			return hp_probe_env_answer(arg->u.s.p, pool);
		return hp_v_skipped(t, "only documents were checked: what the sandbox would answer "
		                       "is not known");
	}
	if (arg->state != HP_VAL_KNOWN || arg->type != HP_T_STR)
		return hp_v_unknown(t, "the document query is not a known string");
	const char *colon = strchr(arg->u.s.p, ':');
	const hp_doc *d = colon ? hp_probe_docset_find(s, arg->u.s.p, (size_t)(colon - arg->u.s.p)) : NULL;
	if (!d) {
		if (s->behind)
			return hp_backend_ask(s->behind, role, probe, arg, pool);
		return hp_v_unknown(t, colon ? "no such document was given (--document NAME=FILE)"
		                             : "a document query is NAME:PATH");
	}
	hp_value v = hp_probe_doc_query(d, ask_of(probe), colon + 1, pool, &s->where);
	s->where_probe = probe;
	s->where_arg = hp_xstrdup(arg->u.s.p);
	return v;
}

static const char *ds_where(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
                            hp_pool *pool)
{
	hp_docset *s = (hp_docset *)b;
	if (s->where_arg && probe == s->where_probe && arg->state == HP_VAL_KNOWN &&
	    arg->type == HP_T_STR && strcmp(arg->u.s.p, s->where_arg) == 0) {
		if (!s->where.len)
			return NULL;
		return hp_pool_strndup(pool, s->where.data, s->where.len);
	}
	if (s->behind && !s->where_arg)
		return hp_backend_where(s->behind, role, probe, arg, pool);
	return NULL;
}

static const hp_backend_ops docset_ops = {"documents", ds_ask, NULL, ds_where};

hp_backend *hp_probe_docset_backend(hp_docset *s, hp_backend *behind)
{
	s->base.ops = &docset_ops;
	s->behind = behind;
	return &s->base;
}
