/* test_yaml_events.c: the shared YAML event loop, through a reader that
 * prints the tree it is given: the callbacks in document order, keys told
 * apart, places, what every reader is spared, and a reader's own refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/yaml_events.h"

/* A node is its printed form: "s" for a scalar, "[...]" or "{...}" for a
 * collection; a key is marked with "k:". Every node is kept to be freed. */
typedef struct {
	hp_buf *made[256];
	size_t n;
	const char *refuse; /* a scalar with this text is refused */
	hp_ymark last;      /* the place of the last node closed or read */
} tree;

static hp_buf *node(tree *t)
{
	hp_buf *b = calloc(1, sizeof *b);
	assert_true(t->n < 256);
	t->made[t->n++] = b;
	return b;
}

static void *on_scalar(void *ctx, const char *s, size_t len, bool plain, bool at_key,
                       const hp_ymark *m, hp_err *err)
{
	tree *t = ctx;
	if (t->refuse && strcmp(s, t->refuse) == 0) {
		hp_yaml_fail(err, "t.yaml", m->line, m->col, "'%s' is refused", s);
		return NULL;
	}
	assert_int_equal(strlen(s), len);
	hp_buf *b = node(t);
	hp_buf_printf(b, "%s%s%s", at_key ? "k:" : "", plain ? "" : "'", s);
	t->last = *m;
	return b;
}

static void *on_open(void *ctx, bool seq, bool at_key, const hp_ymark *m, hp_err *err)
{
	(void)m;
	(void)err;
	hp_buf *b = node(ctx);
	hp_buf_printf(b, "%s%c", at_key ? "k:" : "", seq ? '[' : '{');
	return b;
}

static bool on_close(void *ctx, void *vn, void *const *kids, size_t n, const hp_ymark *m,
                     hp_err *err)
{
	tree *t = ctx;
	(void)err;
	hp_buf *b = vn;
	bool seq = b->data[b->len - 1] == '[';
	for (size_t i = 0; i < n; i++) {
		const hp_buf *k = kids[i];
		hp_buf_printf(b, "%s%s", i ? " " : "", k->data);
	}
	hp_buf_putc(b, seq ? ']' : '}');
	t->last = *m;
	return true;
}

static void tree_free(tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		hp_buf_free(t->made[i]);
		free(t->made[i]);
	}
	t->n = 0;
}

/* The printed tree of text, or the error; "" for no document. */
static const char *read_text(const char *text, unsigned depth, uint32_t nodes, const char *refuse,
                             hp_ymark *last)
{
	static char out[sizeof ((hp_err *)0)->msg + 64];
	tree t = {.refuse = refuse};
	hp_yaml_reader r = {.name = "t.yaml",
	                    .max_depth = depth,
	                    .max_nodes = nodes,
	                    .ctx = &t,
	                    .scalar = on_scalar,
	                    .open = on_open,
	                    .close = on_close};
	void *root = (void *)&t; /* set by the call, whatever it returns */
	hp_err err;
	err.msg[0] = '\0';
	bool ok = hp_yaml_read(&r, text, strlen(text), &root, &err);
	if (ok)
		snprintf(out, sizeof out, "%s", root ? ((hp_buf *)root)->data : "");
	else
		snprintf(out, sizeof out, "error %s", err.msg);
	assert_true(ok || root == NULL);
	if (last)
		*last = t.last;
	tree_free(&t);
	return out;
}

static const char *rd(const char *text)
{
	return read_text(text, 8, 100, NULL, NULL);
}

static void test_tree_in_order(void **state)
{
	(void)state;
	assert_string_equal(rd("a: 1\nb: [x, 'y', {c: d}]\n"), "{k:a 1 k:b [x 'y {k:c d}]}");
	assert_string_equal(rd("[]"), "[]");
	assert_string_equal(rd("{}"), "{}");
	assert_string_equal(rd("plain"), "plain");
	/* a collection as a key is the reader's to judge */
	assert_string_equal(rd("? [a]\n: 1\n"), "{k:[a] 1}");
	assert_string_equal(rd(""), "");
	assert_string_equal(rd("# only a comment\n"), "");
}

static void test_places(void **state)
{
	(void)state;
	hp_ymark m;
	read_text("a:\n  - bb\n", 8, 100, NULL, &m);
	/* the mapping's end, read last */
	assert_int_equal(m.end_line, 3);
	read_text("[abc]", 8, 100, NULL, &m);
	assert_int_equal(m.line, 1);
	assert_int_equal(m.col, 5);
	assert_int_equal(m.end_col, 6);
}

static void test_refused_for_every_reader(void **state)
{
	(void)state;
	assert_string_equal(rd("a: 1\n---\nb: 2\n"),
	                    "error t.yaml:2:1: more than one YAML document in the file");
	assert_string_equal(rd("a: &x 1\n"), "error t.yaml:1:4: anchors are not allowed");
	assert_string_equal(rd("a: &x [1]\n"), "error t.yaml:1:4: anchors are not allowed");
	assert_string_equal(rd("a: &x {b: 1}\n"), "error t.yaml:1:4: anchors are not allowed");
	assert_string_equal(rd("a: !!int 1\n"),
	                    "error t.yaml:1:4: tags are not allowed ('tag:yaml.org,2002:int')");
	assert_string_equal(rd("a: !x [1]\n"), "error t.yaml:1:4: tags are not allowed ('!x')");
	assert_string_equal(rd("a: *x\n"),
	                    "error t.yaml:1:4: aliases are not allowed (a file is read without "
	                    "expansion)");
	assert_string_equal(rd("a: \"x\\0y\"\n"), "error t.yaml:1:4: a NUL character in a string");
	assert_string_equal(rd("a: [1, 2\n"),
	                    "error t.yaml:2:1: did not find expected ',' or ']' while parsing a "
	                    "flow sequence");
}

static void test_bounds(void **state)
{
	(void)state;
	/* depth: the collection past it is refused where it opens */
	assert_string_equal(read_text("[[[x]]]", 3, 100, NULL, NULL), "[[[x]]]");
	assert_string_equal(read_text("[[[[x]]]]", 3, 100, NULL, NULL),
	                    "error t.yaml:1:4: collections nested more than 3 deep");
	/* a deep file is refused without recursion, at the first level past */
	size_t n = 100000;
	char *deep = malloc(2 * n + 1);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	assert_string_equal(read_text(deep, 8, 100, NULL, NULL),
	                    "error t.yaml:1:9: collections nested more than 8 deep");
	free(deep);
	/* nodes: scalars and collections alike */
	assert_string_equal(read_text("[a, b, c]", 8, 4, NULL, NULL), "[a b c]");
	assert_string_equal(read_text("[a, b, c, d]", 8, 4, NULL, NULL),
	                    "error t.yaml:1:11: more than 4 values in one file");
}

static void test_reader_refusal(void **state)
{
	(void)state;
	assert_string_equal(read_text("a: [1, bad, 3]\n", 8, 100, "bad", NULL),
	                    "error t.yaml:1:8: 'bad' is refused");
	/* nothing of a refused file is handed back */
	assert_string_equal(read_text("bad", 8, 100, "bad", NULL), "error t.yaml:1:1: 'bad' is refused");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree_in_order),
	    cmocka_unit_test(test_places),
	    cmocka_unit_test(test_refused_for_every_reader),
	    cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_reader_refusal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
