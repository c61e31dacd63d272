/* test_crc32.c: the bytecode checksum: known values, every table entry
 * recomputed from the bitwise definition, and agreement with a bitwise
 * CRC on every length and alignment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/bytecode.h"

static uint32_t bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

static void test_known_values(void **state)
{
	(void)state;
	assert_int_equal(hp_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926u);
	assert_int_equal(hp_crc32(0, (const uint8_t *)"", 0), 0);
	/* continuing equals computing at once */
	uint32_t c = hp_crc32(0, (const uint8_t *)"12345", 5);
	assert_int_equal(hp_crc32(c, (const uint8_t *)"6789", 4), 0xcbf43926u);
}

static void test_tables(void **state)
{
	(void)state;
	for (unsigned b = 0; b < 256; b++) {
		uint8_t bytes[8] = {(uint8_t)b};
		for (unsigned k = 0; k < 8; k++) {
			/* the CRC register after byte b and k zero bytes, without the
			 * final inversion and from a zero register */
			uint32_t crc = 0;
			for (unsigned i = 0; i <= k; i++) {
				crc ^= bytes[i];
				for (int s = 0; s < 8; s++)
					crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
			}
			assert_int_equal(hp_crc32_tables[k][b], crc);
		}
	}
}

static void test_against_bitwise(void **state)
{
	(void)state;
	uint8_t buf[300];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n + off <= sizeof buf; n += 7)
			assert_int_equal(hp_crc32(0, buf + off, n), bitwise(0, buf + off, n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known_values),
	    cmocka_unit_test(test_tables),
	    cmocka_unit_test(test_against_bitwise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
