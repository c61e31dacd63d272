/* test_pool.c: the bump allocator's alignment, growth and byte limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/pool.h"

static void test_alignment_and_growth(void **state)
{
	(void)state;
	hp_pool a;
	hp_pool_init(&a, 1 << 20);
	char *p = hp_pool_alloc(&a, 3);
	int64_t *q = hp_pool_alloc(&a, sizeof *q);
	assert_non_null(p);
	assert_non_null(q);
	assert_int_equal((uintptr_t)q % _Alignof(max_align_t), 0);
	*q = 42;
	/* a request bigger than a chunk gets its own */
	char *big = hp_pool_alloc(&a, 200000);
	assert_non_null(big);
	memset(big, 1, 200000);
	assert_int_equal(*q, 42);
	hp_pool_free(&a);
	assert_int_equal(a.used, 0);
	assert_int_equal(a.limit, 1 << 20);
}

static void test_limit(void **state)
{
	(void)state;
	hp_pool a;
	hp_pool_init(&a, 1000);
	assert_non_null(hp_pool_alloc(&a, 900));
	assert_null(hp_pool_alloc(&a, 200));
	/* what still fits is still given */
	assert_non_null(hp_pool_alloc(&a, 16));
	assert_null(hp_pool_alloc(&a, SIZE_MAX));
	assert_null(hp_pool_strndup(&a, "x", SIZE_MAX));
	hp_pool_free(&a);
}

static void test_strndup(void **state)
{
	(void)state;
	hp_pool a;
	hp_pool_init(&a, 4096);
	char *s = hp_pool_strndup(&a, "hello world", 5);
	assert_string_equal(s, "hello");
	hp_pool_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alignment_and_growth),
	    cmocka_unit_test(test_limit),
	    cmocka_unit_test(test_strndup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
