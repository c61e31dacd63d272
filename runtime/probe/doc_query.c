/* doc_query.c: answering path queries on a document's tree (document.h,
 * docs/documents.md "Paths"): each step maps the values selected so far to
 * the next ones, keeping how each was reached, so the answer's evidence
 * names its concrete path and its file:line:col. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/document.h"
#include "probe/document_tree.h"

/* One selected value and how it was reached: its parent entry and the step
 * from there (a key, or an index), so the concrete path can be written. */
typedef struct {
	const hp_dnode *n;
	uint32_t parent; /* index of the parent entry, or NONE */
	const char *key; /* the step: a key, or NULL for an index */
	uint32_t index;
	/* a mapping kept by a filter ([privileged=true]): the field that
	 * matched, whose place is the evidence; NULL otherwise */
	const hp_dnode *witness;
	const char *wkey;
} sel;

#define NONE UINT32_MAX
#define MAX_SELECTED (1u << 22) /* entries over all steps of one query */

typedef enum { S_KEY, S_INDEX, S_ALL, S_FILTER } step_kind;

typedef struct {
	step_kind kind;
	char key[HP_DOC_MAX_QUERY + 1];
	uint32_t index;
	hp_dnode lit; /* S_FILTER: the literal, typed */
	char lits[HP_DOC_MAX_QUERY + 1];
	const char *src; /* where the step starts in the query */
} step;

typedef struct {
	const hp_doc *d;
	sel *v;
	size_t n, cap;
	const char *why; /* set when the answer is UNKNOWN */
	hp_pool *pool;
} qrun;

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* Parse one step at *pp; false for a malformed path. */
static bool parse_step(const char **pp, bool first, step *st)
{
	const char *p = *pp;
	st->src = p;
	if (*p == '.' || (first && is_key_char(*p))) {
		if (*p == '.')
			p++;
		size_t n = 0;
		while (is_key_char(*p))
			st->key[n++] = *p++;
		if (!n)
			return false;
		st->key[n] = '\0';
		st->kind = S_KEY;
	} else if (*p == '[') {
		p++;
		if (*p == '*' && p[1] == ']') {
			st->kind = S_ALL;
			p += 2;
		} else if (*p >= '0' && *p <= '9') {
			uint64_t v = 0;
			while (*p >= '0' && *p <= '9') {
				v = v * 10 + (uint64_t)(*p++ - '0');
				if (v > UINT32_MAX - 1)
					return false;
			}
			if (*p++ != ']')
				return false;
			st->kind = S_INDEX;
			st->index = (uint32_t)v;
		} else {
			size_t n = 0;
			while (is_key_char(*p))
				st->key[n++] = *p++;
			if (!n || *p++ != '=')
				return false;
			st->key[n] = '\0';
			st->kind = S_FILTER;
			memset(&st->lit, 0, sizeof st->lit);
			if (*p == '"') {
				p++;
				size_t m = 0;
				while (*p && *p != '"') {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					else if (*p == '\\')
						return false;
					st->lits[m++] = *p++;
				}
				if (*p++ != '"')
					return false;
				st->lits[m] = '\0';
				st->lit.kind = HP_DNODE_STR;
			} else {
				size_t m = 0;
				while (*p && *p != ']')
					st->lits[m++] = *p++;
				st->lits[m] = '\0';
				st->lit.s = st->lits;
				if (strcmp(st->lits, "true") == 0)
					st->lit.kind = HP_DNODE_BOOL, st->lit.b = true;
				else if (strcmp(st->lits, "false") == 0)
					st->lit.kind = HP_DNODE_BOOL, st->lit.b = false;
				else if (hp_parse_int(st->lits, &st->lit.i))
					st->lit.kind = HP_DNODE_INT;
				else
					return false;
			}
			st->lit.s = st->lits;
			if (*p++ != ']')
				return false;
		}
	} else {
		return false;
	}
	*pp = p;
	return true;
}

static bool add_sel(qrun *q, const hp_dnode *n, uint32_t parent, const char *key, uint32_t index)
{
	if (q->n >= MAX_SELECTED) {
		q->why = "the path selects too many values";
		return false;
	}
	q->v = hp_xgrow(q->v, &q->cap, q->n + 1, sizeof *q->v);
	q->v[q->n++] = (sel){n, parent, key, index, NULL, NULL};
	return true;
}

/* The concrete path of entry i: spec.containers[1].securityContext */
static void write_path(hp_buf *b, const qrun *q, uint32_t i)
{
	uint32_t chain[HP_DOC_MAX_DEPTH + 2];
	size_t n = 0;
	for (uint32_t k = i; k != NONE && n < sizeof chain / sizeof *chain; k = q->v[k].parent)
		chain[n++] = k;
	bool any = false;
	while (n--) {
		const sel *s = &q->v[chain[n]];
		if (s->parent == NONE)
			continue;
		if (s->key) {
			if (any)
				hp_buf_putc(b, '.');
			hp_buf_puts(b, s->key);
		} else {
			hp_buf_printf(b, "[%u]", s->index);
		}
		any = true;
	}
	if (!any)
		hp_buf_puts(b, "(the document)");
}

static const char *located(qrun *q, uint32_t i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static const char *located(qrun *q, uint32_t i, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_buf m = {0};
	const hp_dnode *n = q->v[i].n;
	hp_buf_printf(&m, "%s:%u:%u: ", q->d->file, n->line, n->col);
	write_path(&m, q, i);
	hp_buf_puts(&m, msg);
	const char *s = hp_pool_strndup(q->pool, m.data, m.len);
	hp_buf_free(&m);
	return s ? s : "out of memory for the answer";
}

static bool wrong_kind(qrun *q, uint32_t i, const char *want)
{
	q->why = located(q, i, " is %s, not %s", hp_probe_doc_kind_names[q->v[i].n->kind], want);
	return false;
}

/* The literal's comparison with a value: 1 equal, 0 not, -1 another type. */
static int lit_equal(const hp_dnode *lit, const hp_dnode *v)
{
	if (v->kind != lit->kind)
		return -1;
	switch (lit->kind) {
	case HP_DNODE_BOOL:
		return v->b == lit->b;
	case HP_DNODE_INT:
		return v->i == lit->i;
	default:
		return strcmp(v->s, lit->s) == 0;
	}
}

/* A filter on one value: true to keep it, false to drop, -1 an error. */
static int filter_keeps(qrun *q, uint32_t i, const hp_dnode *item, const step *st)
{
	if (item->kind != HP_DNODE_MAP) {
		wrong_kind(q, i, "a mapping");
		return -1;
	}
	const hp_dnode *v = hp_probe_doc_map_get(item, st->key);
	if (!v || v->kind == HP_DNODE_NULL)
		return 0;
	int e = lit_equal(&st->lit, v);
	if (e < 0) {
		for (uint32_t k = 0; k + 1 < item->n; k++)
			if (item->kids[k + 1] == v) {
				if (!add_sel(q, v, i, item->kids[k]->s, 0))
					return -1;
				break;
			}
		wrong_kind(q, (uint32_t)q->n - 1, hp_probe_doc_kind_names[st->lit.kind]);
		return -1;
	}
	return e;
}

/* Apply one step to entries [from, to); false on an error (q->why). */
static bool apply(qrun *q, const step *st, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const hp_dnode *n = q->v[i].n;
		uint32_t pi = (uint32_t)i;
		if (n->kind == HP_DNODE_NULL)
			continue; /* null is unset, as in Kubernetes */
		switch (st->kind) {
		case S_KEY: {
			if (n->kind != HP_DNODE_MAP)
				return wrong_kind(q, pi, "a mapping");
			for (uint32_t k = 0; k + 1 < n->n; k += 2)
				if (strcmp(n->kids[k]->s, st->key) == 0) {
					if (n->kids[k + 1]->kind != HP_DNODE_NULL &&
					    !add_sel(q, n->kids[k + 1], pi, n->kids[k]->s, 0))
						return false;
					break;
				}
			break;
		}
		case S_INDEX:
			if (n->kind != HP_DNODE_SEQ)
				return wrong_kind(q, pi, "a list");
			if (st->index < n->n && n->kids[st->index]->kind != HP_DNODE_NULL &&
			    !add_sel(q, n->kids[st->index], pi, NULL, st->index))
				return false;
			break;
		case S_ALL:
			if (n->kind != HP_DNODE_SEQ)
				return wrong_kind(q, pi, "a list");
			for (uint32_t k = 0; k < n->n; k++)
				if (n->kids[k]->kind != HP_DNODE_NULL && !add_sel(q, n->kids[k], pi, NULL, k))
					return false;
			break;
		case S_FILTER:
			if (n->kind == HP_DNODE_SEQ) {
				for (uint32_t k = 0; k < n->n; k++) {
					if (n->kids[k]->kind == HP_DNODE_NULL)
						continue;
					if (!add_sel(q, n->kids[k], pi, NULL, k))
						return false;
					uint32_t ki = (uint32_t)q->n - 1;
					int keep = filter_keeps(q, ki, n->kids[k], st);
					if (keep < 0)
						return false;
					if (!keep)
						q->n = ki; /* the entry was the last one added */
				}
			} else {
				int keep = filter_keeps(q, pi, n, st);
				if (keep < 0)
					return false;
				if (keep && !add_sel(q, n, q->v[i].parent, q->v[i].key, q->v[i].index))
					return false;
				/* the key's text is the document's: the step is not kept */
				for (uint32_t k = 0; keep && k + 1 < n->n; k += 2)
					if (strcmp(n->kids[k]->s, st->key) == 0) {
						q->v[q->n - 1].witness = n->kids[k + 1];
						q->v[q->n - 1].wkey = n->kids[k]->s;
						break;
					}
			}
			break;
		}
	}
	return true;
}

/* '@pod': the pod of a Pod or of a workload's template, as the last
 * entry. 1 when found, 0 when the workload has no template (the last
 * entry is as far as it went), -1 on an error (q->why). */
static int pod_root(qrun *q)
{
	const hp_dnode *root = q->d->root;
	if (!add_sel(q, root, NONE, NULL, 0))
		return -1;
	const hp_dnode *kind = hp_probe_doc_map_get(root, "kind");
	if (root->kind != HP_DNODE_MAP || !kind || kind->kind != HP_DNODE_STR) {
		q->why = located(q, 0, " has no kind: it is not a Pod or a workload");
		return -1;
	}
	static const char *const templated[] = {"Deployment", "StatefulSet", "DaemonSet",
	                                        "ReplicaSet", "ReplicationController",
	                                        "Job",        NULL};
	static const char *const tpl_path[] = {"spec", "template", NULL};
	static const char *const cron_path[] = {"spec", "jobTemplate", "spec", "template", NULL};
	const char *const *path;
	if (strcmp(kind->s, "Pod") == 0)
		return 1;
	else if (hp_probe_doc_word_in(kind->s, templated))
		path = tpl_path;
	else if (strcmp(kind->s, "CronJob") == 0)
		path = cron_path;
	else if (strcmp(kind->s, "PodTemplate") == 0)
		path = tpl_path + 1;
	else {
		q->why = located(q, 0, " is a %s: it has no pod", kind->s);
		return -1;
	}
	step *st = hp_xcalloc(1, sizeof *st);
	int found = 1;
	for (; *path && found == 1; path++) {
		st->kind = S_KEY;
		snprintf(st->key, sizeof st->key, "%s", *path);
		size_t from = q->n - 1;
		if (!apply(q, st, from, q->n))
			found = -1;
		else if (q->n == from + 1)
			found = 0;
	}
	free(st);
	return found;
}

static hp_value unknown(hp_type t, qrun *q)
{
	return hp_v_unknown(t, q->why ? q->why : "the query failed");
}

static void put_where(hp_buf *where, qrun *q, uint32_t i, const char *rest)
{
	if (!where)
		return;
	const sel *e = &q->v[i];
	const hp_dnode *n = e->witness ? e->witness : e->n;
	hp_buf_printf(where, "%s:%u:%u: ", q->d->file, n->line, n->col);
	write_path(where, q, i);
	if (e->witness && !(rest && *rest))
		hp_buf_printf(where, ".%s", e->wkey);
	if (rest && *rest) {
		/* the steps the document did not have, as the query wrote them */
		bool none = where->len >= 14 &&
		            memcmp(where->data + where->len - 14, "(the document)", 14) == 0;
		if (none)
			where->len -= 14;
		hp_buf_puts(where, none && *rest == '.' ? rest + 1 : rest);
	}
}

hp_value hp_probe_doc_query(const hp_doc *d, hp_doc_ask ask, const char *path, hp_pool *pool,
                      hp_buf *where)
{
	static const hp_type types[] = {HP_T_BOOL, HP_T_INT, HP_T_STR,
	                                HP_T_BOOL, HP_T_INT, HP_T_LIST};
	hp_type t = types[ask];
	if (strlen(path) > HP_DOC_MAX_QUERY)
		return hp_v_unknown(t, "the query path is too long");
	qrun q = {d, NULL, 0, 0, NULL, pool};
	const char *p = path;
	size_t from;
	hp_value out;
	if (strncmp(p, "@pod", 4) == 0 && (p[4] == '\0' || p[4] == '.' || p[4] == '[')) {
		p += 4;
		int found = pod_root(&q);
		if (found < 0) {
			out = unknown(t, &q);
			goto done;
		}
		from = q.n - 1;
		if (!found) {
			put_where(where, &q, (uint32_t)from, NULL);
			goto absent;
		}
	} else {
		add_sel(&q, d->root, NONE, NULL, 0);
		from = 0;
	}
	size_t to = q.n;
	bool first = true;
	step *st = hp_xcalloc(1, sizeof *st);
	while (*p) {
		const char *at = p;
		if (!parse_step(&p, first, st)) {
			free(st);
			hp_buf m = {0};
			hp_buf_printf(&m, "the query '%s' is not a path (at '%s')", path, at);
			const char *why = hp_pool_strndup(pool, m.data, m.len);
			hp_buf_free(&m);
			out = hp_v_unknown(t, why ? why : "the query is not a path");
			goto done;
		}
		first = false;
		if (!apply(&q, st, from, to)) {
			free(st);
			out = unknown(t, &q);
			goto done;
		}
		if (q.n == to) {
			/* nothing selected: absent, shown as far as the document went
			 * and the rest of the path as the query wrote it */
			free(st);
			put_where(where, &q, (uint32_t)from, at);
			goto absent;
		}
		from = to;
		to = q.n;
	}
	free(st);
	{
		size_t nsel = to - from;
		uint32_t f = (uint32_t)from;
		switch (ask) {
		case HP_DOC_EXISTS:
			put_where(where, &q, f, NULL);
			out = hp_v_bool(true);
			break;
		case HP_DOC_COUNT:
			put_where(where, &q, f, NULL);
			out = hp_v_int((int64_t)nsel);
			break;
		case HP_DOC_BOOL:
		case HP_DOC_INT:
		case HP_DOC_STR: {
			if (nsel > 1) {
				q.why = located(&q, f, " selects %zu values, not one", nsel);
				out = unknown(t, &q);
				break;
			}
			const hp_dnode *n = q.v[f].n;
			hp_dnode_kind want = ask == HP_DOC_BOOL ? HP_DNODE_BOOL : ask == HP_DOC_INT ? HP_DNODE_INT : HP_DNODE_STR;
			if (n->kind != want) {
				wrong_kind(&q, f, hp_probe_doc_kind_names[want]);
				out = unknown(t, &q);
				break;
			}
			put_where(where, &q, f, NULL);
			out = ask == HP_DOC_BOOL  ? hp_v_bool(n->b)
			      : ask == HP_DOC_INT ? hp_v_int(n->i)
			                          : hp_v_str(n->s, n->len);
			break;
		}
		case HP_DOC_STRS: {
			size_t base = from;
			const hp_dnode *one = q.v[f].n;
			bool items = nsel == 1 && one->kind == HP_DNODE_SEQ;
			size_t count = items ? one->n : nsel;
			if (count > HP_VALUE_MAX_LIST) {
				q.why = located(&q, f, " has more than %u items", HP_VALUE_MAX_LIST);
				out = unknown(t, &q);
				break;
			}
			hp_str *v = hp_pool_alloc(pool, (count ? count : 1) * sizeof *v);
			if (!v) {
				out = hp_v_unknown(t, "memory limit");
				break;
			}
			size_t m = 0;
			bool bad = false;
			for (size_t k = 0; k < count && !bad; k++) {
				const hp_dnode *x = items ? one->kids[k] : q.v[base + k].n;
				if (x->kind == HP_DNODE_NULL)
					continue;
				if (x->kind != HP_DNODE_STR) {
					uint32_t at = (uint32_t)(base + k);
					if (items) {
						add_sel(&q, x, f, NULL, (uint32_t)k);
						at = (uint32_t)q.n - 1;
					}
					bad = !wrong_kind(&q, at, "a string");
					break;
				}
				v[m++] = (hp_str){x->s, x->len};
			}
			if (bad) {
				out = unknown(t, &q);
				break;
			}
			put_where(where, &q, f, NULL);
			out = hp_v_list(v, (uint32_t)m);
			break;
		}
		}
		goto done;
	}
absent:
	out = ask == HP_DOC_EXISTS  ? hp_v_bool(false)
	      : ask == HP_DOC_COUNT ? hp_v_int(0)
	                            : hp_v_absent(t, NULL);
done:
	free(q.v);
	return out;
}
