/* test_frame.c: the framed record encoding round-trips, and every kind of
 * damage is refused with a message that says where. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "lib/frame.h"

static void build(hp_frame_writer *w)
{
	hp_frame_begin(w);
	hp_frame_add_u64(w, 1, 0x0102030405060708ull);
	hp_frame_add_str(w, 2, "hello");
	hp_frame_add(w, 3, "", 0);
	hp_frame_end(w);
}

static void test_round_trip(void **state)
{
	(void)state;
	hp_frame_writer w;
	build(&w);
	assert_int_equal(w.b.len, 16 + 8 + 8 + 8 + 5 + 8);
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_frame_decode(w.b.data, w.b.len, 16, &f, &e), HP_TRUE);
	assert_int_equal(f.n, 3);
	uint64_t v;
	assert_int_equal(hp_frame_rec_u64(&f.rec[0], &v), 0);
	assert_true(v == 0x0102030405060708ull);
	char *s;
	assert_int_equal(hp_frame_rec_str(hp_frame_find(&f, 2), &s), 0);
	assert_string_equal(s, "hello");
	free(s);
	assert_int_equal(hp_frame_rec_u64(&f.rec[1], &v), -1);
	assert_int_equal(f.rec[2].len, 0);
	assert_null(hp_frame_find(&f, 9));
	hp_frame_free(&f);
	hp_frame_writer_free(&w);
}

static void expect_bad(const unsigned char *b, size_t len, size_t max, const char *msg)
{
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_frame_decode(b, len, max, &f, &e), HP_UNKNOWN);
	assert_string_equal(e.msg, msg);
	assert_null(f.buf);
}

static void test_damage_refused(void **state)
{
	(void)state;
	hp_frame_writer w;
	build(&w);
	unsigned char *b = malloc(w.b.len + 8);
	size_t n = w.b.len;
	memcpy(b, w.b.data, n);
	expect_bad(b, 10, 16, "frame: 10 bytes, shorter than the header");
	expect_bad(b, n - 1, 16, "frame: body length 37, but 36 bytes follow the header");
	b[0] = 'X';
	expect_bad(b, n, 16, "frame: bad magic");
	b[0] = 'H';
	b[4] = 2;
	expect_bad(b, n, 16, "frame: version 2, expected 1");
	b[4] = 1;
	b[7] = 0x80;
	expect_bad(b, n, 16, "frame: unknown flags 0x8000");
	b[7] = 0;
	expect_bad(b, n, 2, "frame: 3 records, more than 2 or than the body can hold");
	b[8] = 2; /* says 2 records: one record's bytes are left over */
	expect_bad(b, n, 16, "frame: 8 bytes after the last record");
	b[8] = 4;
	expect_bad(b, n, 16, "frame: record 4: header past the end of the body");
	b[8] = 3;
	b[16 + 8 + 8 + 4] = 200; /* the string record's length */
	expect_bad(b, n, 16, "frame: record 2: length 200 past the end of the body");
	b[16 + 8 + 8 + 4] = 5;
	b[16 + 2] = 1;
	expect_bad(b, n, 16, "frame: record 1: reserved bits set");
	b[16 + 2] = 0;
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_frame_decode(b, n, 16, &f, &e), HP_TRUE);
	hp_frame_free(&f);
	free(b);
	hp_frame_writer_free(&w);
}

static void test_string_with_nul_refused(void **state)
{
	(void)state;
	hp_frame_writer w;
	hp_frame_begin(&w);
	hp_frame_add(&w, 1, "a\0b", 3);
	hp_frame_end(&w);
	hp_frame f;
	hp_err e;
	assert_int_equal(hp_frame_decode(w.b.data, w.b.len, 4, &f, &e), HP_TRUE);
	char *s = NULL;
	assert_int_equal(hp_frame_rec_str(&f.rec[0], &s), -1);
	assert_null(s);
	hp_frame_free(&f);
	hp_frame_writer_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_damage_refused),
	    cmocka_unit_test(test_string_with_nul_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
