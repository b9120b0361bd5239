/*
 * hash.h: a small non-cryptographic 64-bit hash (FNV-1a) for stable ids
 * and snapshot checksums. Stable across machines and runs: the same
 * bytes always give the same value, so ids derived from it never change.
 */
#ifndef MIRROR_HASH_H
#define MIRROR_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MIRROR_HASH_INIT UINT64_C(0xcbf29ce484222325)

/* splitmix64's finaliser: spreads h's bits (FNV's low bits are weak)
 * over all 64, e.g. before hashes are summed or cut short. Inline: the
 * digest calls it for every column of every row. */
static inline uint64_t
hash_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * One step of a chain of words that a hash_mix ends: h turned left by
 * 27 bits, w xored in, times an odd constant. One multiply where
 * hash_mix has two and shifts between: for a fixed w a bijection of h
 * and for a fixed h one of w, so two chains that differ in one word
 * never meet; the hash_mix at the end spreads the bits. For digests
 * compared only with each other, never for an id.
 */
static inline uint64_t
hash_step(uint64_t h, uint64_t w)
{
	return ((h << 27 | h >> 37) ^ w) * UINT64_C(0x9e3779b97f4a7c15);
}

/* Fold n bytes of p into h and return the new value. */
uint64_t hash_add(uint64_t h, const void *p, size_t n);

/* Fold a NUL-terminated string (NULL counts as empty) plus one
 * separator byte, so ("ab","c") and ("a","bc") hash differently. */
uint64_t hash_add_str(uint64_t h, const char *s);

/*
 * Fold n bytes of p into h eight at a time, as little-endian words
 * (the length first), each through hash_mix: faster than hash_add
 * on long texts, and a different value. The same on every
 * machine; for digests compared only with each other (a store's
 * snapshot, a project's rows), never for an id.
 */
uint64_t hash_words(uint64_t h, const void *p, size_t n);

/*
 * Fold n bytes of p into h as little-endian words (the last one
 * zero-filled), each through hash_step: the length is not folded (the
 * caller's chain holds it) and nothing is mixed, so the chain must end
 * in hash_mix. The same on every machine.
 */
uint64_t hash_steps(uint64_t h, const void *p, size_t n);


/*
 * The k-th candidate of an id made from base, mixed (hash_mix): base for
 * k 0, else base with k's decimal digits folded in (text, so the same on
 * every byte order). A taken id moves on to the next k.
 */
uint64_t hash_nth(uint64_t base, unsigned k);

/* Write h as 16 lowercase hex digits and a NUL into out[17]. */
void hash_hex(char out[17], uint64_t h);

#endif
