/* test_xalloc.c: the allocating helpers: copies, growth by doubling, a
 * path joined with one slash whatever its directory ends with, and printf
 * into a fresh allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

static void test_path_join(void **state)
{
	(void)state;
	const struct {
		const char *dir, *name, *want;
	} cases[] = {
	    {"/usr/bin", "ls", "/usr/bin/ls"},
	    {"/usr/bin/", "ls", "/usr/bin/ls"},
	    {"/", "etc", "/etc"},
	    {"", "etc", "/etc"},
	    {"rel", "x", "rel/x"},
	    {"/a", "", "/a/"},
	    {"/a", "../b", "/a/../b"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *p = hp_xpath_join(cases[i].dir, cases[i].name);
		assert_string_equal(p, cases[i].want);
		free(p);
	}
}

static void test_copies_and_growth(void **state)
{
	(void)state;
	char *s = hp_xstrndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = hp_xasprintf("%s=%d", "n", 42);
	assert_string_equal(s, "n=42");
	free(s);
	int *v = NULL;
	size_t cap = 0;
	v = hp_xgrow(v, &cap, 1, sizeof *v);
	assert_true(cap >= 1);
	size_t first = cap;
	v = hp_xgrow(v, &cap, first + 1, sizeof *v);
	assert_true(cap >= 2 * first && cap >= first + 1);
	v[cap - 1] = 7; /* the whole capacity is usable */
	assert_int_equal(v[cap - 1], 7);
	free(v);
	hp_err e;
	hp_err_set(&e, "%s: %d", "x", 1);
	assert_string_equal(e.msg, "x: 1");
	hp_err_set(NULL, "ignored");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_path_join),
	    cmocka_unit_test(test_copies_and_growth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
