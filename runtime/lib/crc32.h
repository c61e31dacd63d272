/* crc32.h: the CRC-32 that guards a bytecode file (crc32.c). */
#ifndef HP_CRC32_H
#define HP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 (IEEE 802.3, reflected, as zlib computes it) of data,
 * continuing from crc (0 to start). */
uint32_t hp_crc32(uint32_t crc, const uint8_t *data, size_t len);
/* Its tables: [k][b] is the CRC of byte b followed by k zero bytes. */
extern const uint32_t hp_crc32_tables[8][256];

#endif
