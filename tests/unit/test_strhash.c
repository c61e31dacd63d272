/* test_strhash.c: SipHash-1-3 against an independent implementation
 * (CPython's bytes hash with PYTHONHASHSEED=0 uses SipHash-1-3 with an
 * all-zero key), the hash index built on it, and message escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/idxtab.h"
#include "lib/strhash.h"
#include "lib/textesc.h"

static void test_siphash13_vectors(void **state)
{
	(void)state;
	hp_hashkey zero = {0, 0};
	unsigned char seq[15];
	for (int i = 0; i < 15; i++)
		seq[i] = (unsigned char)i;
	assert_true(hp_siphash(&zero, "a", 1) == 4644417185603328019ULL);
	assert_true(hp_siphash(&zero, "abcdefgh", 8) == 4574395652268504554ULL);
	assert_true(hp_siphash(&zero, "hangar-policy", 13) == 5492668210710147291ULL);
	assert_true(hp_siphash(&zero, seq, sizeof seq) == 17514137373579004394ULL);
	hp_hashkey other = {1, 0};
	assert_true(hp_siphash(&other, "a", 1) != hp_siphash(&zero, "a", 1));
}

static const char *const names[] = {"root", "daemon", "agent", "hangar", "a", ""};
static const uint32_t ids[] = {0, 1, 1000, 1001, 4294967294u, 65534};

static const char *name_of(const void *ctx, uint32_t i)
{
	return ((const char *const *)ctx)[i];
}

static uint32_t id_of(const void *ctx, uint32_t i)
{
	return ((const uint32_t *)ctx)[i];
}

static void test_idxtab(void **state)
{
	(void)state;
	hp_idxtab byname, byid;
	hp_idxtab_init(&byname, 6);
	hp_idxtab_init(&byid, 7);
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(hp_idxtab_add_name(&byname, i, name_of, names), HP_IDX_NONE);
		assert_int_equal(hp_idxtab_add_id(&byid, i, id_of, ids), HP_IDX_NONE);
	}
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(hp_idxtab_find_name(&byname, names[i], name_of, names), i);
		assert_int_equal(hp_idxtab_find_id(&byid, ids[i], id_of, ids), i);
	}
	assert_int_equal(hp_idxtab_find_name(&byname, "roo", name_of, names), HP_IDX_NONE);
	assert_int_equal(hp_idxtab_find_id(&byid, 2, id_of, ids), HP_IDX_NONE);
	/* a second entry with a known key is refused, naming the first */
	static const uint32_t dup[] = {0, 1, 1000, 1001, 4294967294u, 65534, 1000};
	assert_int_equal(hp_idxtab_add_id(&byid, 6, id_of, dup), 2);
	hp_idxtab_free(&byname);
	hp_idxtab_free(&byid);

	/* many keys whose low bits agree still spread out */
	enum { N = 4096 };
	uint32_t *many = malloc(N * sizeof *many);
	for (uint32_t i = 0; i < N; i++)
		many[i] = i << 16;
	hp_idxtab t;
	hp_idxtab_init(&t, N);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(hp_idxtab_add_id(&t, i, id_of, many), HP_IDX_NONE);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(hp_idxtab_find_id(&t, i << 16, id_of, many), i);
	hp_idxtab_free(&t);
	free(many);
}

static void test_textesc(void **state)
{
	(void)state;
	hp_esc_buf b;
	assert_string_equal(hp_escs(&b, "agent"), "agent");
	assert_string_equal(hp_escs(&b, "a\"b\\c\n\x1b\x7f\xc3\xa9"),
	                    "a\\x22b\\x5cc\\x0a\\x1b\\x7f\\xc3\\xa9");
	assert_string_equal(hp_esc(&b, "ab\0cd", 5), "ab\\x00cd");
	char longer[HP_ESC_MAX_INPUT + 10];
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	const char *s = hp_escs(&b, longer);
	assert_int_equal(strlen(s), HP_ESC_MAX_INPUT + 3);
	assert_string_equal(s + HP_ESC_MAX_INPUT, "...");
	memset(longer, '\x01', sizeof longer - 1);
	assert_int_equal(strlen(hp_escs(&b, longer)), HP_ESC_MAX_INPUT * 4 + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_siphash13_vectors),
	    cmocka_unit_test(test_idxtab),
	    cmocka_unit_test(test_textesc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
