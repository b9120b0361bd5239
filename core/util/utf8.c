#include <string.h>

#include "util/utf8.h"

size_t
utf8_decode(int32_t *cp, const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	int32_t v, min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		goto bad;
	}
	if (len < n)
		goto bad;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto bad;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		goto bad;
	*cp = v;
	return n;
bad:
	*cp = -1;
	return 1;
}

size_t
utf8_encode(unsigned char out[4], int32_t cp)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | (cp >> 6));
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | (cp >> 12));
		out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | (cp >> 18));
	out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

int
utf8_is_control(int32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
}

int
utf8_valid(const unsigned char *s, size_t n)
{
	int32_t cp;
	size_t i = 0;

	while (i < n) {
		uint64_t w;

		/* Eight ASCII bytes at a time, as most text is: the kept
		 * rows of a million facts' conflicts are 17 MB checked. */
		while (n - i >= 8) {
			memcpy(&w, s + i, 8);
			if ((w & UINT64_C(0x8080808080808080)) != 0)
				break;
			i += 8;
		}
		if (i == n)
			break;
		i += utf8_decode(&cp, s + i, n - i);
		if (cp < 0)
			return 0;
	}
	return 1;
}
