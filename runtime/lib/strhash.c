/* strhash.c: SipHash-1-3 (Aumasson and Bernstein's SipHash with one
 * compression and three finalization rounds) and its key. */
#include "lib/strhash.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

void hp_hashkey_init(hp_hashkey *key)
{
	unsigned char b[16];
	ssize_t n;
	do
		n = getrandom(b, sizeof b, GRND_NONBLOCK);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof b) {
		key->k0 = 0x0706050403020100ULL;
		key->k1 = 0x0f0e0d0c0b0a0908ULL;
		return;
	}
	memcpy(&key->k0, b, 8);
	memcpy(&key->k1, b + 8, 8);
}

static uint64_t rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

#define SIPROUND                   \
	do {                       \
		v0 += v1;          \
		v1 = rotl(v1, 13); \
		v1 ^= v0;          \
		v0 = rotl(v0, 32); \
		v2 += v3;          \
		v3 = rotl(v3, 16); \
		v3 ^= v2;          \
		v0 += v3;          \
		v3 = rotl(v3, 21); \
		v3 ^= v0;          \
		v2 += v1;          \
		v1 = rotl(v1, 17); \
		v1 ^= v2;          \
		v2 = rotl(v2, 32); \
	} while (0)

uint64_t hp_siphash(const hp_hashkey *key, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t v0 = key->k0 ^ 0x736f6d6570736575ULL;
	uint64_t v1 = key->k1 ^ 0x646f72616e646f6dULL;
	uint64_t v2 = key->k0 ^ 0x6c7967656e657261ULL;
	uint64_t v3 = key->k1 ^ 0x7465646279746573ULL;
	size_t full = len & ~(size_t)7;
	for (size_t i = 0; i < full; i += 8) {
		uint64_t m = load_le64(p + i);
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	uint64_t b = (uint64_t)len << 56;
	for (size_t i = 0; i < (len & 7); i++)
		b |= (uint64_t)p[full + i] << (8 * i);
	v3 ^= b;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}
