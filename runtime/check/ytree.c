/* ytree.c: YAML to a bounded tree with the shared event loop
 * (lib/yaml_events.h), its nodes and their places kept (ytree.h). */
#include "check/ytree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/readfile.h"
#include "lib/yaml_events.h"

struct hp_ytree {
	char *name;
	char *text;
	size_t len;
	hp_ynode *root;
	hp_ynode **all; /* every node, for freeing */
	size_t nall, cap;
};

bool hp_yfail(const hp_ytree *t, const hp_ynode *n, hp_err *err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(err, "%s:%u:%u: %s", t->name, n ? n->line : 1, n ? n->col : 1, msg);
	return false;
}

static hp_ynode *new_node(hp_ytree *t, hp_ykind k, const hp_ymark *m)
{
	hp_ynode *n = hp_xcalloc(1, sizeof *n);
	t->all = hp_xgrow(t->all, &t->cap, t->nall + 1, sizeof *t->all);
	t->all[t->nall++] = n;
	n->kind = k;
	n->line = m->line;
	n->col = m->col;
	return n;
}

static void *on_scalar(void *ctx, const char *s, size_t len, bool plain, bool at_key,
                       const hp_ymark *m, hp_err *err)
{
	(void)at_key;
	(void)err;
	hp_ynode *n = new_node(ctx, HP_Y_SCALAR, m);
	n->s = hp_xstrndup(s, len);
	n->plain = plain;
	n->end_line = m->end_line;
	n->end_col = m->end_col;
	return n;
}

static void *on_open(void *ctx, bool seq, bool at_key, const hp_ymark *m, hp_err *err)
{
	(void)at_key;
	(void)err;
	return new_node(ctx, seq ? HP_Y_SEQ : HP_Y_MAP, m);
}

static bool on_close(void *ctx, void *vn, void *const *kids, size_t nk, const hp_ymark *m,
                     hp_err *err)
{
	(void)ctx;
	(void)err;
	hp_ynode *n = vn;
	n->kids = hp_xcalloc(nk ? nk : 1, sizeof *n->kids);
	for (size_t i = 0; i < nk; i++)
		n->kids[i] = kids[i];
	n->n = (uint32_t)nk;
	n->end_line = m->end_line;
	n->end_col = m->end_col;
	return true;
}

static bool build(hp_ytree *t, hp_err *err)
{
	hp_yaml_reader yr = {.name = t->name,
	                     .max_depth = HP_YTREE_MAX_DEPTH,
	                     .max_nodes = HP_YTREE_MAX_NODES,
	                     .ctx = t,
	                     .scalar = on_scalar,
	                     .open = on_open,
	                     .close = on_close};
	void *root;
	bool ok = hp_yaml_read(&yr, t->text, t->len, &root, err);
	t->root = root;
	return ok;
}

hp_ytree *hp_ytree_parse(const char *name, const char *text, size_t len, hp_err *err)
{
	hp_ytree *t = hp_xcalloc(1, sizeof *t);
	t->name = hp_xstrdup(name);
	t->text = hp_xmalloc(len + 1);
	memcpy(t->text, text, len);
	t->text[len] = '\0';
	t->len = len;
	if (!build(t, err)) {
		hp_ytree_free(t);
		return NULL;
	}
	return t;
}

hp_ytree *hp_ytree_load_file(const char *path, hp_err *err)
{
	uint8_t *data;
	size_t len;
	if (!hp_read_regular_file(path, HP_YTREE_MAX_FILE, &data, &len, err))
		return NULL;
	hp_ytree *t = hp_ytree_parse(path, (const char *)data, len, err);
	free(data);
	return t;
}

void hp_ytree_free(hp_ytree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nall; i++) {
		hp_ynode *n = t->all[i];
		free(n->kids); /* set only once the collection is closed */
		free(n->s);
		free(n);
	}
	free(t->all);
	free(t->text);
	free(t->name);
	free(t);
}

const hp_ynode *hp_ytree_root(const hp_ytree *t)
{
	return t->root;
}

const char *hp_ytree_text(const hp_ytree *t, size_t *len)
{
	*len = t->len;
	return t->text;
}

const char *hp_ytree_name(const hp_ytree *t)
{
	return t->name;
}

size_t hp_ytree_offset(const hp_ytree *t, uint32_t line, uint32_t col)
{
	size_t i = 0;
	for (uint32_t l = 1; l < line && i < t->len; i++) {
		if (t->text[i] == '\n' || (t->text[i] == '\r' && (i + 1 >= t->len || t->text[i + 1] != '\n')))
			l++;
	}
	for (uint32_t c = 1; c < col && i < t->len; c++) {
		i++;
		while (i < t->len && ((unsigned char)t->text[i] & 0xc0) == 0x80)
			i++; /* a UTF-8 continuation byte: the same character */
	}
	return i;
}

const hp_ynode *hp_ymap_get(const hp_ynode *m, const char *key)
{
	if (!m || m->kind != HP_Y_MAP)
		return NULL;
	for (uint32_t i = 0; i + 1 < m->n; i += 2)
		if (m->kids[i]->kind == HP_Y_SCALAR && strcmp(m->kids[i]->s, key) == 0)
			return m->kids[i + 1];
	return NULL;
}

const char *hp_ykind_name(const hp_ynode *n)
{
	return n->kind == HP_Y_SCALAR ? "a scalar" : n->kind == HP_Y_SEQ ? "a list" : "a mapping";
}

bool hp_ymap_check_keys(const hp_ytree *t, const hp_ynode *m, const char *const *keys,
                        hp_err *err)
{
	for (uint32_t i = 0; i + 1 < m->n; i += 2) {
		const hp_ynode *k = m->kids[i];
		if (k->kind != HP_Y_SCALAR)
			return hp_yfail(t, k, err, "a key must be a word, not %s", hp_ykind_name(k));
		bool known = false;
		for (const char *const *p = keys; *p; p++)
			known |= strcmp(*p, k->s) == 0;
		if (!known) {
			char list[300] = "";
			size_t off = 0;
			for (const char *const *p = keys; *p && off < sizeof list; p++)
				off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
				                        p == keys ? "" : p[1] ? ", " : " and ", *p);
			return hp_yfail(t, k, err, "unknown key '%s' (the keys are %s)", k->s, list);
		}
		for (uint32_t j = 0; j < i; j += 2)
			if (strcmp(m->kids[j]->s, k->s) == 0)
				return hp_yfail(t, k, err, "key '%s' given twice (first at line %u)",
				                k->s, m->kids[j]->line);
	}
	return true;
}
