#include <string.h>

#include "util/hash.h"

uint64_t
hash_add(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* The little-endian word at b: one load on a little-endian machine
 * (the compiler merges the shifts). */
static uint64_t
load_le(const unsigned char *b)
{
	return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
	    (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 |
	    (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 |
	    (uint64_t)b[7] << 56;
}

/* The little-endian word of the n (< 8) bytes at b, zero-filled. */
static uint64_t
tail_le(const unsigned char *b, size_t n)
{
	uint64_t w = 0;

	for (size_t i = n; i > 0; i--)
		w = w << 8 | b[i - 1];
	return w;
}

uint64_t
hash_words(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	h = hash_mix(h ^ (uint64_t)n);
	for (; n >= 8; n -= 8, b += 8)
		h = hash_mix(h ^ load_le(b));
	if (n > 0)
		h = hash_mix(h ^ tail_le(b, n));
	return h;
}

uint64_t
hash_steps(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (; n >= 8; n -= 8, b += 8)
		h = hash_step(h, load_le(b));
	if (n > 0) {
		unsigned char last[8] = { 0 };

		memcpy(last, b, n);
		h = hash_step(h, load_le(last));
	}
	return h;
}

uint64_t
hash_add_str(uint64_t h, const char *s)
{
	static const unsigned char sep = 0xff;   /* never in UTF-8 text */

	if (s != NULL)
		h = hash_add(h, s, strlen(s));
	return hash_add(h, &sep, 1);
}

void
hash_hex(char out[17], uint64_t h)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 15; i >= 0; i--) {
		out[i] = digits[h & 0xf];
		h >>= 4;
	}
	out[16] = '\0';
}

uint64_t
hash_nth(uint64_t base, unsigned k)
{
	char dec[16], *p = dec + sizeof(dec) - 1;

	if (k == 0)
		return hash_mix(base);
	*p = '\0';
	for (; k > 0; k /= 10)
		*--p = (char)('0' + k % 10);
	return hash_mix(hash_add_str(base, p));
}
