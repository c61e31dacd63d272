/* json-paths.c: lists the field paths of a JSON document, or those a JSON
 * Schema declares, one per line with the JSON type found or allowed, so a
 * test can compare what the program writes with what docs/ promise.
 *
 *   json-paths doc FILE      .rules[].remedy string   (one line per value seen)
 *   json-paths schema FILE   .rules[].remedy null|string
 *   json-paths values FILE   .warnings[] some text     (every scalar, in order:
 *                            strings and booleans as they are, others by type)
 *
 * Schema mode follows properties, items, and local $ref to #/$defs/NAME;
 * types come from "type" (a string or a list) or "enum". Output is sorted and
 * unique. Exit 2 on malformed JSON. Test-only: it trusts its input's size. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
static const char *const jnames[] = {"null", "boolean", "number", "string", "array", "object"};

typedef struct jv {
	jtype t;
	const char *s;    /* J_STR; J_BOOL: "true" or "false" */
	struct jv **kids; /* J_ARR items, J_OBJ values */
	char **keys;      /* J_OBJ */
	size_t n;
} jv;

static const char *p;
static int depth;

static void die(const char *what)
{
	fprintf(stderr, "json-paths: malformed JSON: %s near '%.20s'\n", what, p);
	exit(2);
}

static void ws(void)
{
	while (*p && isspace((unsigned char)*p))
		p++;
}

static char *str(void)
{
	if (*p != '"')
		die("expected a string");
	p++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	while (*p && *p != '"') {
		char c = *p++;
		if (c == '\\') {
			c = *p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*p++))
						die("bad \\u escape");
				c = '?';
			} else if (!c || !strchr("\"\\/bfnrt", c)) {
				die("bad escape");
			}
		}
		if (n + 2 > cap)
			s = realloc(s, cap *= 2);
		s[n++] = c;
	}
	if (*p != '"')
		die("unterminated string");
	p++;
	s[n] = '\0';
	return s;
}

static jv *value(void);

static void push(jv *v, char *key, jv *kid)
{
	v->kids = realloc(v->kids, (v->n + 1) * sizeof *v->kids);
	v->keys = realloc(v->keys, (v->n + 1) * sizeof *v->keys);
	v->kids[v->n] = kid;
	v->keys[v->n++] = key;
}

static jv *value(void)
{
	if (++depth > 200)
		die("nested too deeply");
	ws();
	jv *v = calloc(1, sizeof *v);
	if (*p == '{') {
		v->t = J_OBJ;
		p++;
		ws();
		if (*p == '}')
			p++;
		else
			for (;;) {
				ws();
				char *k = str();
				ws();
				if (*p++ != ':')
					die("expected ':'");
				push(v, k, value());
				ws();
				if (*p == ',') {
					p++;
					continue;
				}
				if (*p++ != '}')
					die("expected '}'");
				break;
			}
	} else if (*p == '[') {
		v->t = J_ARR;
		p++;
		ws();
		if (*p == ']')
			p++;
		else
			for (;;) {
				push(v, NULL, value());
				ws();
				if (*p == ',') {
					p++;
					continue;
				}
				if (*p++ != ']')
					die("expected ']'");
				break;
			}
	} else if (*p == '"') {
		v->t = J_STR;
		v->s = str();
	} else if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
		v->t = J_BOOL;
		v->s = *p == 't' ? "true" : "false";
		p += *p == 't' ? 4 : 5;
	} else if (strncmp(p, "null", 4) == 0) {
		v->t = J_NULL;
		p += 4;
	} else if (*p == '-' || isdigit((unsigned char)*p)) {
		v->t = J_NUM;
		strtod(p, (char **)&p);
	} else {
		die("unexpected character");
	}
	depth--;
	return v;
}

static jv *get(const jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return o->kids[i];
	return NULL;
}

static char **lines;
static size_t nlines;

static void out(const char *path, const char *type)
{
	lines = realloc(lines, (nlines + 1) * sizeof *lines);
	size_t len = strlen(path) + strlen(type) + 2;
	lines[nlines] = malloc(len);
	snprintf(lines[nlines++], len, "%s %s", *path ? path : ".", type);
}

static void walk_doc(const jv *v, const char *path)
{
	char sub[1024];
	if (v->t == J_OBJ) {
		for (size_t i = 0; i < v->n; i++) {
			snprintf(sub, sizeof sub, "%s.%s", path, v->keys[i]);
			walk_doc(v->kids[i], sub);
		}
		if (*path)
			out(path, "object");
	} else if (v->t == J_ARR) {
		snprintf(sub, sizeof sub, "%s[]", path);
		for (size_t i = 0; i < v->n; i++)
			walk_doc(v->kids[i], sub);
		out(path, "array");
	} else {
		out(path, jnames[v->t]);
	}
}

/* values mode: every scalar with its path, in document order */
static void walk_values(const jv *v, const char *path)
{
	char sub[1024];
	if (v->t == J_OBJ) {
		for (size_t i = 0; i < v->n; i++) {
			snprintf(sub, sizeof sub, "%s.%s", path, v->keys[i]);
			walk_values(v->kids[i], sub);
		}
	} else if (v->t == J_ARR) {
		snprintf(sub, sizeof sub, "%s[]", path);
		for (size_t i = 0; i < v->n; i++)
			walk_values(v->kids[i], sub);
	} else if (v->t == J_STR || v->t == J_BOOL) {
		printf("%s %s\n", path, v->s);
	} else {
		printf("%s %s\n", path, jnames[v->t]);
	}
}

static const jv *root;

static const jv *deref(const jv *s)
{
	const jv *r = get(s, "$ref");
	if (r && r->t == J_STR && strncmp(r->s, "#/$defs/", 8) == 0)
		return get(get(root, "$defs"), r->s + 8);
	return s;
}

static void types_of(const jv *s, char *buf, size_t cap)
{
	buf[0] = '\0';
	const jv *t = get(s, "type"), *e = get(s, "enum");
	char parts[6][16];
	int np = 0;
	if (t && t->t == J_STR)
		snprintf(parts[np++], 16, "%s", t->s);
	else if (t && t->t == J_ARR)
		for (size_t i = 0; i < t->n && np < 6; i++)
			snprintf(parts[np++], 16, "%s", t->kids[i]->s);
	else if (e && e->t == J_ARR)
		for (size_t i = 0; i < e->n; i++) {
			const char *name = jnames[e->kids[i]->t];
			int seen = 0;
			for (int k = 0; k < np; k++)
				seen |= strcmp(parts[k], name) == 0;
			if (!seen && np < 6)
				snprintf(parts[np++], 16, "%s", name);
		}
	/* sorted, so "null|string" is one spelling */
	for (int i = 0; i < np; i++)
		for (int k = i + 1; k < np; k++)
			if (strcmp(parts[k], parts[i]) < 0) {
				char tmp[16];
				memcpy(tmp, parts[i], 16);
				memcpy(parts[i], parts[k], 16);
				memcpy(parts[k], tmp, 16);
			}
	for (int i = 0; i < np; i++) {
		strncat(buf, parts[i], cap - strlen(buf) - 1);
		if (i + 1 < np)
			strncat(buf, "|", cap - strlen(buf) - 1);
	}
}

static void walk_schema(const jv *s, const char *path)
{
	s = deref(s);
	char types[128], sub[1024];
	types_of(s, types, sizeof types);
	if (*path)
		out(path, types);
	const jv *props = get(s, "properties");
	for (size_t i = 0; props && i < props->n; i++) {
		snprintf(sub, sizeof sub, "%s.%s", path, props->keys[i]);
		walk_schema(props->kids[i], sub);
	}
	const jv *items = get(s, "items");
	if (items) {
		snprintf(sub, sizeof sub, "%s[]", path);
		walk_schema(items, sub);
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "doc") && strcmp(argv[1], "schema") &&
			  strcmp(argv[1], "values"))) {
		fprintf(stderr, "usage: json-paths doc|schema|values FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	static char text[1 << 22];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	p = text;
	root = value();
	ws();
	if (*p)
		die("trailing text");
	if (argv[1][0] == 'v') {
		walk_values(root, "");
		return 0;
	}
	if (argv[1][0] == 'd')
		walk_doc(root, "");
	else
		walk_schema(root, "");
	qsort(lines, nlines, sizeof *lines, cmp);
	for (size_t i = 0; i < nlines; i++)
		if (i == 0 || strcmp(lines[i], lines[i - 1]))
			puts(lines[i]);
	return 0;
}
