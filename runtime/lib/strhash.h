/* strhash.h: keyed hashing of byte strings (SipHash-1-3) for the runtime's
 * hash tables. The tables are filled from files the agent or the image author
 * wrote; with a secret key per table they cannot choose names that all land
 * in one bucket and turn each lookup into a scan. */
#ifndef HP_STRHASH_H
#define HP_STRHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint64_t k0, k1;
} hp_hashkey;

/* A fresh key from getrandom(); a fixed key when the kernel has none to give
 * (lookups stay correct, only collision resistance is lost). */
void hp_hashkey_init(hp_hashkey *key);

uint64_t hp_siphash(const hp_hashkey *key, const void *data, size_t len);

#endif
