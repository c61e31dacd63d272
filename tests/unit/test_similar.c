/* test_similar.c: the edit distance behind "did you mean": known
 * distances, the swap of two neighbours as one edit, long words, and which
 * candidates are close enough to suggest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/similar.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(hp_similar_distance("", ""), 0);
	assert_int_equal(hp_similar_distance("check", "check"), 0);
	assert_int_equal(hp_similar_distance("chekc", "check"), 1); /* swap */
	assert_int_equal(hp_similar_distance("chec", "check"), 1);
	assert_int_equal(hp_similar_distance("kitten", "sitting"), 3);
	assert_int_equal(hp_similar_distance("", "abc"), 3);
	assert_int_equal(hp_similar_distance("abc", ""), 3);
	assert_int_equal(hp_similar_distance("ca", "abc"), 3); /* OSA, not Damerau */
	char big[HP_SIMILAR_MAX + 2];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	assert_int_equal(hp_similar_distance(big, "a"), HP_SIMILAR_FAR);
	big[HP_SIMILAR_MAX] = 0;
	assert_int_equal(hp_similar_distance(big, big), 0);
}

static void test_pick(void **state)
{
	(void)state;
	const char *const cmds[] = {"help", "compile", "lint", "fmt", "explain", "check"};
	size_t n = sizeof cmds / sizeof cmds[0];
	assert_string_equal(hp_similar_pick("chekc", cmds, n), "check");
	assert_string_equal(hp_similar_pick("lnit", cmds, n), "lint");
	assert_string_equal(hp_similar_pick("compiel", cmds, n), "compile");
	assert_null(hp_similar_pick("zzzzzz", cmds, n));
	assert_null(hp_similar_pick("test", cmds, n));
	assert_null(hp_similar_pick("", cmds, n));
	/* one letter is not a hint for everything one edit away */
	const char *const modes[] = {"auto", "ask", "deny-risky", "governed"};
	assert_string_equal(hp_similar_pick("ak", modes, 4), "ask");
	assert_null(hp_similar_pick("x", modes, 4));
	/* a tie goes to the first listed */
	const char *const ab[] = {"ab", "ba"};
	assert_string_equal(hp_similar_pick("aa", ab, 2), "ab");
	assert_null(hp_similar_pick("a", NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_distance),
	    cmocka_unit_test(test_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
