/* test_arena.c: the compilation arena: zeroed, aligned, packed nodes,
 * mapped chunks, large requests, strings, and the count of bytes handed
 * out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "arena.h"

static void test_alloc_zeroed_aligned(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	for (size_t n = 1; n < 5000; n += 37) {
		unsigned char *p = hp_arena_alloc(a, n);
		assert_int_equal((uintptr_t)p % 16, 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(p[i], 0);
		memset(p, 0xaa, n);
	}
	hp_arena_free(a);
}

/* Nodes are 8-aligned and packed (no padding to 16), and an ordinary
 * request after one is still 16-aligned. */
static void test_node_alignment(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	for (size_t n = 1; n < 400; n += 7) {
		unsigned char *p = hp_arena_node(a, n);
		assert_int_equal((uintptr_t)p % 8, 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(p[i], 0);
		memset(p, 0x55, n);
		unsigned char *q = hp_arena_alloc(a, 1);
		assert_int_equal((uintptr_t)q % 16, 0);
		assert_int_equal(*q, 0);
		*q = 0x55;
	}
	unsigned char *x = hp_arena_node(a, 88), *y = hp_arena_node(a, 88);
	assert_ptr_equal(y, x + 88);
	assert_true(hp_arena_used(a) >= 176);
	hp_arena_free(a);
}

/* Chunks of 2 MiB and more are mapped on their own: filled to the last
 * byte, freed with the arena. */
static void test_huge_chunks(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	for (int i = 0; i < 40; i++) {
		unsigned char *p = hp_arena_node(a, 1024u * 1024u - 8u);
		assert_int_equal(p[0], 0);
		assert_int_equal(p[1024u * 1024u - 9u], 0);
		memset(p, i, 1024u * 1024u - 8u);
	}
	assert_true(hp_arena_used(a) >= 40u * (1024u * 1024u - 8u));
	hp_arena_free(a);
}

static void test_large_and_used(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	char *small = hp_arena_alloc(a, 10);
	char *big = hp_arena_alloc(a, 20u * 1024u * 1024u); /* beyond a chunk */
	char *after = hp_arena_alloc(a, 10);
	big[20u * 1024u * 1024u - 1] = 1;
	assert_non_null(small);
	assert_non_null(after);
	assert_true(hp_arena_used(a) >= 20u * 1024u * 1024u + 32);
	hp_arena_free(a);
}

static void test_strndup(void **state)
{
	(void)state;
	hp_arena *a = hp_arena_new();
	char *s = hp_arena_strndup(a, "hangar-policy", 6);
	assert_string_equal(s, "hangar");
	hp_arena_free(a);
	hp_arena_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alloc_zeroed_aligned),
	    cmocka_unit_test(test_node_alignment),
	    cmocka_unit_test(test_huge_chunks),
	    cmocka_unit_test(test_large_and_used),
	    cmocka_unit_test(test_strndup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
