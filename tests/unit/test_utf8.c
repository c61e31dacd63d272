/* test_utf8.c: strict UTF-8 (lib/utf8.h), at every boundary of RFC 3629. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/utf8.h"

static size_t len_of(const char *s)
{
	return hp_utf8_len((const unsigned char *)s, strlen(s));
}

static void test_valid_sequences(void **state)
{
	(void)state;
	uint32_t cp = 0;
	assert_int_equal(len_of("A"), 1);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\x7f", 1, &cp), 1);
	assert_int_equal(cp, 0x7f);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xc2\x80", 2, &cp), 2);
	assert_int_equal(cp, 0x80);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xdf\xbf", 2, &cp), 2);
	assert_int_equal(cp, 0x7ff);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xe0\xa0\x80", 3, &cp), 3);
	assert_int_equal(cp, 0x800);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xed\x9f\xbf", 3, &cp), 3);
	assert_int_equal(cp, 0xd7ff);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xee\x80\x80", 3, &cp), 3);
	assert_int_equal(cp, 0xe000);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xef\xbb\xbf", 3, &cp), 3);
	assert_int_equal(cp, 0xfeff);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xf0\x90\x80\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x10000);
	assert_int_equal(hp_utf8_seq((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &cp), 4);
	assert_int_equal(cp, 0x10ffff);
}

static void test_invalid_sequences(void **state)
{
	(void)state;
	assert_int_equal(len_of("\x80"), 0);         /* a continuation byte alone */
	assert_int_equal(len_of("\xc0\x80"), 0);     /* overlong NUL */
	assert_int_equal(len_of("\xc1\xbf"), 0);     /* overlong 0x7f */
	assert_int_equal(len_of("\xe0\x9f\xbf"), 0); /* overlong 0x7ff */
	assert_int_equal(len_of("\xed\xa0\x80"), 0); /* surrogate d800 */
	assert_int_equal(len_of("\xed\xbf\xbf"), 0); /* surrogate dfff */
	assert_int_equal(len_of("\xf0\x8f\xbf\xbf"), 0); /* overlong ffff */
	assert_int_equal(len_of("\xf4\x90\x80\x80"), 0); /* 110000 */
	assert_int_equal(len_of("\xf5\x80\x80\x80"), 0);
	assert_int_equal(len_of("\xff"), 0);
	assert_int_equal(len_of("\xc2"), 0);         /* cut off by the string's end */
	assert_int_equal(len_of("\xc2\x41"), 0);     /* not a continuation */
	assert_int_equal(len_of("\xe2\x82"), 0);
	/* the end given is honoured: the bytes past it are not read */
	assert_int_equal(hp_utf8_len((const unsigned char *)"\xe2\x82\xac", 2), 0);
	assert_int_equal(hp_utf8_len((const unsigned char *)"\xe2\x82\xac", 3), 3);
}

static void test_prefix(void **state)
{
	(void)state;
	assert_int_equal(hp_utf8_prefix("", 0), 0);
	assert_int_equal(hp_utf8_prefix("abc", 3), 3);
	assert_int_equal(hp_utf8_prefix("a\xe2\x82\xac" "b", 5), 5);
	assert_int_equal(hp_utf8_prefix("a\xe2\x82\xac\xed\xa0\x80z", 8), 4);
	assert_int_equal(hp_utf8_prefix("ab\xe2\x82", 4), 2);
	assert_int_equal(hp_utf8_prefix("\x80", 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid_sequences),
	    cmocka_unit_test(test_invalid_sequences),
	    cmocka_unit_test(test_prefix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
