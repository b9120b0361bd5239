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
hash_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
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
