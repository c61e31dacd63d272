/* ytree.c: YAML to a bounded tree with libyaml's event parser (ytree.h). */
#include "check/ytree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lib/readfile.h"

struct hp_ytree {
	char *name;
	char *text;
	size_t len;
	hp_ynode *root;
	hp_ynode **all; /* every node, for freeing */
	size_t nall, cap;
};

static bool mfail(const hp_ytree *t, yaml_mark_t m, hp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool mfail(const hp_ytree *t, yaml_mark_t m, hp_err *err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(err, "%s:%zu:%zu: %s", t->name, m.line + 1, m.column + 1, msg);
	return false;
}

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

static hp_ynode *new_node(hp_ytree *t, hp_ykind k, yaml_mark_t m, hp_err *err)
{
	if (t->nall >= HP_YTREE_MAX_NODES) {
		mfail(t, m, err, "more than %u values in one file", HP_YTREE_MAX_NODES);
		return NULL;
	}
	hp_ynode *n = hp_xcalloc(1, sizeof *n);
	t->all = hp_xgrow(t->all, &t->cap, t->nall + 1, sizeof *t->all);
	t->all[t->nall++] = n;
	n->kind = k;
	n->line = (uint32_t)m.line + 1;
	n->col = (uint32_t)m.column + 1;
	return n;
}

typedef struct {
	hp_ynode *n;
	hp_ynode **kids;
	size_t nk, cap;
} frame;

static bool build(hp_ytree *t, hp_err *err)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return hp_yfail(t, NULL, err, "cannot start the YAML parser");
	yaml_parser_set_input_string(&p, (const unsigned char *)t->text, t->len);
	frame stack[HP_YTREE_MAX_DEPTH + 1];
	size_t depth = 0;
	unsigned docs = 0;
	bool ok = true, done = false;
	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			ok = mfail(t, p.problem_mark, err, "%s%s%s",
			           p.problem ? p.problem : "malformed YAML", p.context ? " " : "",
			           p.context ? p.context : "");
			break;
		}
		hp_ynode *made = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ok = mfail(t, ev.start_mark, err, "more than one YAML document");
			break;
		case YAML_ALIAS_EVENT:
			ok = mfail(t, ev.start_mark, err, "aliases are not allowed");
			break;
		case YAML_SCALAR_EVENT:
			if (ev.data.scalar.anchor || ev.data.scalar.tag) {
				ok = mfail(t, ev.start_mark, err, "anchors and tags are not allowed");
				break;
			}
			if (memchr(ev.data.scalar.value, 0, ev.data.scalar.length)) {
				ok = mfail(t, ev.start_mark, err, "a NUL character in a string");
				break;
			}
			if (!(made = new_node(t, HP_Y_SCALAR, ev.start_mark, err))) {
				ok = false;
				break;
			}
			made->s = hp_xstrndup((const char *)ev.data.scalar.value,
			                      ev.data.scalar.length);
			made->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			made->end_line = (uint32_t)ev.end_mark.line + 1;
			made->end_col = (uint32_t)ev.end_mark.column + 1;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			bool seq = ev.type == YAML_SEQUENCE_START_EVENT;
			if (seq ? (ev.data.sequence_start.anchor || ev.data.sequence_start.tag)
			        : (ev.data.mapping_start.anchor || ev.data.mapping_start.tag)) {
				ok = mfail(t, ev.start_mark, err, "anchors and tags are not allowed");
				break;
			}
			if (depth >= HP_YTREE_MAX_DEPTH) {
				ok = mfail(t, ev.start_mark, err,
				           "collections nested more than %u deep", HP_YTREE_MAX_DEPTH);
				break;
			}
			hp_ynode *n = new_node(t, seq ? HP_Y_SEQ : HP_Y_MAP, ev.start_mark, err);
			if (!n) {
				ok = false;
				break;
			}
			stack[depth++] = (frame){n, NULL, 0, 0};
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			frame *f = &stack[--depth];
			made = f->n;
			made->kids = f->kids;
			made->n = (uint32_t)f->nk;
			made->end_line = (uint32_t)ev.end_mark.line + 1;
			made->end_col = (uint32_t)ev.end_mark.column + 1;
			break;
		}
		case YAML_NO_EVENT:
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
		default:
			break;
		}
		if (ok && made) {
			if (depth) {
				frame *f = &stack[depth - 1];
				f->kids = hp_xgrow(f->kids, &f->cap, f->nk + 1, sizeof *f->kids);
				f->kids[f->nk++] = made;
			} else {
				t->root = made;
			}
		}
		yaml_event_delete(&ev);
	}
	/* collections still open own their kids' array until now */
	while (depth)
		free(stack[--depth].kids);
	yaml_parser_delete(&p);
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
