/* crc32.c: the checksum that catches a corrupted bytecode file: CRC-32 as
 * zlib and PNG compute it (polynomial 0xEDB88320, reflected), byte at a
 * time from a table built at compile time. */
#include <stddef.h>
#include <stdint.h>

#include "bytecode.h"

#define P 0xedb88320u
#define B1(c) ((c)&1 ? ((c) >> 1) ^ P : (c) >> 1)
#define B8(c) B1(B1(B1(B1(B1(B1(B1(B1((uint32_t)(c)))))))))
#define R4(n) B8(n), B8(n + 1), B8(n + 2), B8(n + 3)
#define R16(n) R4(n), R4(n + 4), R4(n + 8), R4(n + 12)
#define R64(n) R16(n), R16(n + 16), R16(n + 32), R16(n + 48)

static const uint32_t table[256] = {R64(0), R64(64), R64(128), R64(192)};

uint32_t hp_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
	crc = ~crc;
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}
