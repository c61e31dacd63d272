/* test_intern.c: interned names compare by pointer, survive the table's
 * growth (a use-after-free once lived there), and name maps find what was
 * put. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "intern.h"

static void test_same_pointer_through_growth(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	hp_intern *t = hp_intern_new(a);
	const char *first[5000];
	char buf[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "name-%d", i);
		first[i] = hp_intern_name(t, buf, strlen(buf));
		assert_string_equal(first[i], buf);
	}
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof buf, "name-%d", i);
		assert_ptr_equal(hp_intern_name(t, buf, strlen(buf)), first[i]);
	}
	/* a prefix is another name */
	assert_ptr_not_equal(hp_intern_name(t, "name-1", 5), first[1]);
	hp_intern_free(t);
	hp_arena_free(a);
}

static void test_namemap(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	hp_intern *t = hp_intern_new(a);
	hp_namemap m;
	hp_namemap_init(&m);
	int vals[1000];
	const char *keys[1000];
	char buf[32];
	for (int i = 0; i < 1000; i++) {
		snprintf(buf, sizeof buf, "k%d", i);
		keys[i] = hp_intern_name(t, buf, strlen(buf));
		assert_null(hp_namemap_put(&m, keys[i], &vals[i]));
	}
	for (int i = 0; i < 1000; i++)
		assert_ptr_equal(hp_namemap_get(&m, keys[i]), &vals[i]);
	assert_ptr_equal(hp_namemap_put(&m, keys[3], &vals[4]), &vals[3]);
	assert_ptr_equal(hp_namemap_get(&m, keys[3]), &vals[4]);
	assert_null(hp_namemap_get(&m, hp_intern_name(t, "absent", 6)));
	hp_namemap_free(&m);
	hp_intern_free(t);
	hp_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_pointer_through_growth),
	    cmocka_unit_test(test_namemap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
