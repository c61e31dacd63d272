/* document.c: reading a YAML or JSON document into a located, typed tree,
 * and answering path queries on it (document.h). The reader is the shared
 * event loop (lib/yaml_events.h: an explicit, bounded stack); what is a
 * document's own is here: YAML 1.1 types, keys as Kubernetes compares
 * them, no merge keys, no key given twice. */
#include "probe/document.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/readfile.h"
#include "lib/yaml_events.h"
#include "probe/document_tree.h"

const char *const hp_probe_doc_kind_names[] = {"null",     "a bool", "an int",   "a float",
                                         "a string", "a list", "a mapping"};

/* --- reading ----------------------------------------------------------------------- */

typedef struct {
	const char *file;
	hp_err *err;
	hp_pool *pool;
} reader;

static bool rfail(reader *r, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool rfail(reader *r, uint32_t line, uint32_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(r->err, "%s:%u:%u: %s", r->file, line, col, msg);
	return false;
}

bool hp_probe_doc_word_in(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

/* An integer as YAML 1.1 (and so Kubernetes) reads a plain scalar: '_'
 * ignored, an optional sign, 0x hex, 0o or a leading 0 octal, 0b binary,
 * else decimal; false when it is not one or does not fit. */
static bool yaml11_int(const char *s, int64_t *out)
{
	char buf[80];
	size_t n = 0;
	for (; *s; s++) {
		if (*s == '_')
			continue;
		if (n + 1 >= sizeof buf)
			return false;
		buf[n++] = *s;
	}
	buf[n] = '\0';
	const char *p = buf;
	bool neg = false;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	unsigned base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	if (!*p)
		return false;
	uint64_t v = 0;
	for (; *p; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return false;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* Whether a plain scalar is a YAML 1.1 float: [-+](.N|N[.N])[e[-+]N], .inf, .nan. */
static bool yaml11_float(const char *s)
{
	static const char *const special[] = {".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf",
	                                      "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
	                                      ".NaN",  ".NAN",  NULL};
	if (hp_probe_doc_word_in(s, special))
		return true;
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	size_t digits = 0;
	while ((*p >= '0' && *p <= '9') || *p == '_')
		p++, digits++;
	if (*p == '.') {
		p++;
		while ((*p >= '0' && *p <= '9') || *p == '_')
			p++, digits++;
	}
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/* Give a plain scalar its YAML 1.1 type, as Kubernetes' YAML reader does. */
static void type_plain(hp_dnode *n)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
	static const char *const trues[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
	                                    "True", "TRUE", "on",  "On",  "ON",  NULL};
	static const char *const falses[] = {"n",     "N",     "no",  "No",  "NO",  "false",
	                                     "False", "FALSE", "off", "Off", "OFF", NULL};
	if (hp_probe_doc_word_in(n->s, nulls))
		n->kind = HP_DNODE_NULL;
	else if (hp_probe_doc_word_in(n->s, trues))
		n->kind = HP_DNODE_BOOL, n->b = true;
	else if (hp_probe_doc_word_in(n->s, falses))
		n->kind = HP_DNODE_BOOL, n->b = false;
	else if (yaml11_int(n->s, &n->i))
		n->kind = HP_DNODE_INT;
	else if (yaml11_float(n->s))
		n->kind = HP_DNODE_FLOAT;
	else
		n->kind = HP_DNODE_STR;
}

/* A key's text as Kubernetes compares keys once it has turned YAML into
 * JSON: booleans and integers by their value (yes and true, 0x10 and 16
 * are the same key). */
static bool canonical_key(reader *r, hp_dnode *k)
{
	char buf[32];
	if (k->kind == HP_DNODE_BOOL)
		snprintf(buf, sizeof buf, "%s", k->b ? "true" : "false");
	else if (k->kind == HP_DNODE_INT)
		snprintf(buf, sizeof buf, "%lld", (long long)k->i);
	else if (k->kind == HP_DNODE_NULL)
		snprintf(buf, sizeof buf, "null");
	else
		return true;
	char *s = hp_pool_strndup(r->pool, buf, strlen(buf));
	if (!s)
		return rfail(r, k->line, k->col, "out of memory for the file");
	k->s = s;
	k->len = (uint32_t)strlen(s);
	return true;
}

static int key_order(const void *a, const void *b)
{
	const hp_dnode *x = *(hp_dnode *const *)a, *y = *(hp_dnode *const *)b;
	int c = strcmp(x->s, y->s);
	if (c)
		return c;
	return x->line != y->line ? (x->line < y->line ? -1 : 1)
	                          : (x->col < y->col ? -1 : x->col > y->col);
}

/* A key given twice: Kubernetes and this tool could read different values. */
static bool check_duplicates(reader *r, const hp_dnode *m)
{
	size_t nkeys = m->n / 2;
	if (nkeys < 2)
		return true;
	hp_dnode **keys = hp_xcalloc(nkeys, sizeof *keys);
	for (size_t i = 0; i < nkeys; i++)
		keys[i] = m->kids[2 * i];
	qsort(keys, nkeys, sizeof *keys, key_order);
	bool ok = true;
	for (size_t i = 1; i < nkeys && ok; i++)
		if (strcmp(keys[i]->s, keys[i - 1]->s) == 0)
			ok = rfail(r, keys[i]->line, keys[i]->col,
			           "key '%s' given twice (first at line %u, column %u)", keys[i]->s,
			           keys[i - 1]->line, keys[i - 1]->col);
	free(keys);
	return ok;
}

static hp_dnode *new_node(reader *r, hp_dnode_kind k, const hp_ymark *m, hp_err *err)
{
	hp_dnode *n = hp_pool_alloc(r->pool, sizeof *n);
	if (!n) {
		hp_yaml_fail(err, r->file, m->line, m->col, "out of memory for the file");
		return NULL;
	}
	memset(n, 0, sizeof *n);
	n->kind = (uint8_t)k;
	n->line = m->line;
	n->col = m->col;
	return n;
}

static void *on_scalar(void *ctx, const char *s, size_t len, bool plain, bool at_key,
                       const hp_ymark *m, hp_err *err)
{
	reader *r = ctx;
	if (len > HP_VALUE_MAX_STRING) {
		hp_yaml_fail(err, r->file, m->line, m->col, "a string of %zu bytes, more than %u", len,
		             HP_VALUE_MAX_STRING);
		return NULL;
	}
	hp_dnode *n = new_node(r, HP_DNODE_STR, m, err);
	if (!n)
		return NULL;
	n->s = hp_pool_strndup(r->pool, s, len);
	if (!n->s) {
		hp_yaml_fail(err, r->file, m->line, m->col, "out of memory for the file");
		return NULL;
	}
	n->len = (uint32_t)len;
	if (plain)
		type_plain(n);
	if (at_key) {
		if (plain && strcmp(s, "<<") == 0) {
			hp_yaml_fail(err, r->file, m->line, m->col, "merge keys ('<<') are not allowed");
			return NULL;
		}
		if (!canonical_key(r, n))
			return NULL;
	}
	return n;
}

static void *on_open(void *ctx, bool seq, bool at_key, const hp_ymark *m, hp_err *err)
{
	reader *r = ctx;
	if (at_key) {
		hp_yaml_fail(err, r->file, m->line, m->col, "a key must be a scalar, not %s",
		             seq ? "a list" : "a mapping");
		return NULL;
	}
	return new_node(r, seq ? HP_DNODE_SEQ : HP_DNODE_MAP, m, err);
}

static bool on_close(void *ctx, void *vn, void *const *kids, size_t nk, const hp_ymark *m,
                     hp_err *err)
{
	reader *r = ctx;
	hp_dnode *n = vn;
	n->kids = hp_pool_alloc(r->pool, (nk ? nk : 1) * sizeof *n->kids);
	if (!n->kids)
		return hp_yaml_fail(err, r->file, m->line, m->col, "out of memory for the file");
	for (size_t i = 0; i < nk; i++)
		n->kids[i] = kids[i];
	n->n = (uint32_t)nk;
	return n->kind != HP_DNODE_MAP || check_duplicates(r, n);
}

static hp_dnode *parse(reader *r, const char *text, size_t len)
{
	hp_yaml_reader yr = {.name = r->file,
	                     .max_depth = HP_DOC_MAX_DEPTH,
	                     .max_nodes = HP_DOC_MAX_NODES,
	                     .ctx = r,
	                     .scalar = on_scalar,
	                     .open = on_open,
	                     .close = on_close};
	void *root;
	if (!hp_yaml_read(&yr, text, len, &root, r->err))
		return NULL;
	if (!root)
		rfail(r, 1, 1, "the file holds no document");
	return root;
}

static bool valid_name(const char *name)
{
	size_t n = strlen(name);
	if (!n || n > HP_DOC_MAX_NAME)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

hp_doc *hp_probe_doc_load(const char *name, const char *file, const char *text, size_t len,
                    hp_err *err)
{
	if (!valid_name(name)) {
		hp_err_set(err, "document name '%s' is not 1 to %u letters, digits, '_' or '-'",
		           name, HP_DOC_MAX_NAME);
		return NULL;
	}
	if (len > HP_DOC_MAX_FILE) {
		hp_err_set(err, "%s: %zu bytes, more than the %u a document may have", file, len,
		           HP_DOC_MAX_FILE);
		return NULL;
	}
	hp_doc *d = hp_xcalloc(1, sizeof *d);
	d->name = hp_xstrdup(name);
	d->file = hp_xstrdup(file);
	/* the tree's nodes and strings; generous next to the file's own size */
	hp_pool_init(&d->pool, (size_t)HP_DOC_MAX_FILE * 16);
	reader r = {d->file, err, &d->pool};
	d->root = parse(&r, text, len);
	if (!d->root) {
		hp_probe_doc_free(d);
		return NULL;
	}
	return d;
}

hp_doc *hp_probe_doc_load_file(const char *name, const char *path, hp_err *err)
{
	uint8_t *data;
	size_t len;
	/* one byte more than allowed, so that a file past the cap is told apart */
	if (!hp_read_regular_file(path, HP_DOC_MAX_FILE, &data, &len, err))
		return NULL;
	hp_doc *d = hp_probe_doc_load(name, path, (const char *)data, len, err);
	free(data);
	return d;
}

void hp_probe_doc_free(hp_doc *d)
{
	if (!d)
		return;
	hp_pool_free(&d->pool);
	free(d->name);
	free(d->file);
	free(d);
}

const char *hp_probe_doc_name(const hp_doc *d)
{
	return d->name;
}

const hp_dnode *hp_probe_doc_map_get(const hp_dnode *m, const char *key)
{
	if (!m || m->kind != HP_DNODE_MAP)
		return NULL;
	for (uint32_t i = 0; i + 1 < m->n; i += 2)
		if (strcmp(m->kids[i]->s, key) == 0)
			return m->kids[i + 1];
	return NULL;
}

const char *hp_probe_doc_kind(const hp_doc *d)
{
	const hp_dnode *k = hp_probe_doc_map_get(d->root, "kind");
	return k && k->kind == HP_DNODE_STR ? k->s : NULL;
}

