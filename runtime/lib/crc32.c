/* crc32.c: the checksum that catches a corrupted bytecode file: CRC-32 as
 * zlib and PNG compute it (polynomial 0xEDB88320, reflected), eight bytes
 * a step ("slicing by 8"), so that checking a file costs little next to
 * verifying it.
 *
 * Table k maps a byte to the CRC of that byte followed by k zero bytes.
 * CRC is linear, so an entry is the XOR of the entries of the byte's set
 * bits: each table is written as its 8 single-bit entries (Kk below), and
 * the compiler expands the rest. test_crc32.c recomputes every entry from
 * the bitwise definition. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/crc32.h"

#define K0(n)                                                                                     \
	(((n)&1u ? 0x77073096u : 0) ^ ((n)&2u ? 0xee0e612cu : 0) ^ ((n)&4u ? 0x076dc419u : 0) ^   \
	 ((n)&8u ? 0x0edb8832u : 0) ^ ((n)&16u ? 0x1db71064u : 0) ^ ((n)&32u ? 0x3b6e20c8u : 0) ^ \
	 ((n)&64u ? 0x76dc4190u : 0) ^ ((n)&128u ? 0xedb88320u : 0))
#define K1(n)                                                                                     \
	(((n)&1u ? 0x191b3141u : 0) ^ ((n)&2u ? 0x32366282u : 0) ^ ((n)&4u ? 0x646cc504u : 0) ^   \
	 ((n)&8u ? 0xc8d98a08u : 0) ^ ((n)&16u ? 0x4ac21251u : 0) ^ ((n)&32u ? 0x958424a2u : 0) ^ \
	 ((n)&64u ? 0xf0794f05u : 0) ^ ((n)&128u ? 0x3b83984bu : 0))
#define K2(n)                                                                                     \
	(((n)&1u ? 0x01c26a37u : 0) ^ ((n)&2u ? 0x0384d46eu : 0) ^ ((n)&4u ? 0x0709a8dcu : 0) ^   \
	 ((n)&8u ? 0x0e1351b8u : 0) ^ ((n)&16u ? 0x1c26a370u : 0) ^ ((n)&32u ? 0x384d46e0u : 0) ^ \
	 ((n)&64u ? 0x709a8dc0u : 0) ^ ((n)&128u ? 0xe1351b80u : 0))
#define K3(n)                                                                                     \
	(((n)&1u ? 0xb8bc6765u : 0) ^ ((n)&2u ? 0xaa09c88bu : 0) ^ ((n)&4u ? 0x8f629757u : 0) ^   \
	 ((n)&8u ? 0xc5b428efu : 0) ^ ((n)&16u ? 0x5019579fu : 0) ^ ((n)&32u ? 0xa032af3eu : 0) ^ \
	 ((n)&64u ? 0x9b14583du : 0) ^ ((n)&128u ? 0xed59b63bu : 0))
#define K4(n)                                                                                     \
	(((n)&1u ? 0x3d6029b0u : 0) ^ ((n)&2u ? 0x7ac05360u : 0) ^ ((n)&4u ? 0xf580a6c0u : 0) ^   \
	 ((n)&8u ? 0x30704bc1u : 0) ^ ((n)&16u ? 0x60e09782u : 0) ^ ((n)&32u ? 0xc1c12f04u : 0) ^ \
	 ((n)&64u ? 0x58f35849u : 0) ^ ((n)&128u ? 0xb1e6b092u : 0))
#define K5(n)                                                                                     \
	(((n)&1u ? 0xcb5cd3a5u : 0) ^ ((n)&2u ? 0x4dc8a10bu : 0) ^ ((n)&4u ? 0x9b914216u : 0) ^   \
	 ((n)&8u ? 0xec53826du : 0) ^ ((n)&16u ? 0x03d6029bu : 0) ^ ((n)&32u ? 0x07ac0536u : 0) ^ \
	 ((n)&64u ? 0x0f580a6cu : 0) ^ ((n)&128u ? 0x1eb014d8u : 0))
#define K6(n)                                                                                     \
	(((n)&1u ? 0xa6770bb4u : 0) ^ ((n)&2u ? 0x979f1129u : 0) ^ ((n)&4u ? 0xf44f2413u : 0) ^   \
	 ((n)&8u ? 0x33ef4e67u : 0) ^ ((n)&16u ? 0x67de9cceu : 0) ^ ((n)&32u ? 0xcfbd399cu : 0) ^ \
	 ((n)&64u ? 0x440b7579u : 0) ^ ((n)&128u ? 0x8816eaf2u : 0))
#define K7(n)                                                                                     \
	(((n)&1u ? 0xccaa009eu : 0) ^ ((n)&2u ? 0x4225077du : 0) ^ ((n)&4u ? 0x844a0efau : 0) ^   \
	 ((n)&8u ? 0xd3e51bb5u : 0) ^ ((n)&16u ? 0x7cbb312bu : 0) ^ ((n)&32u ? 0xf9766256u : 0) ^ \
	 ((n)&64u ? 0x299dc2edu : 0) ^ ((n)&128u ? 0x533b85dau : 0))

#define R4(K, n) K(n), K(n + 1), K(n + 2), K(n + 3)
#define R16(K, n) R4(K, n), R4(K, n + 4), R4(K, n + 8), R4(K, n + 12)
#define R64(K, n) R16(K, n), R16(K, n + 16), R16(K, n + 32), R16(K, n + 48)
#define R256(K)                                                     \
	{                                                           \
		R64(K, 0u), R64(K, 64u), R64(K, 128u), R64(K, 192u) \
	}

const uint32_t hp_crc32_tables[8][256] = {R256(K0), R256(K1), R256(K2), R256(K3),
                                          R256(K4), R256(K5), R256(K6), R256(K7)};

uint32_t hp_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
	const uint32_t(*t)[256] = hp_crc32_tables;
	crc = ~crc;
	while (len >= 8) {
		uint32_t a = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		             (uint32_t)p[3] << 24;
		a ^= crc;
		crc = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^ t[5][(a >> 16) & 0xff] ^
		      t[4][a >> 24] ^ t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
