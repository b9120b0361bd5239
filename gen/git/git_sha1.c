/*
 * git_sha1.c: SHA-1, straight from the FIPS 180-4 description.
 */
#include <string.h>

#include "git/git_sha1.h"

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void
block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80], a, b, c, d, e, f, k, t;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	for (int i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = ROL(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = ROL(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void
mgit_sha1_init(struct mgit_sha1 *c)
{
	c->h[0] = 0x67452301;
	c->h[1] = 0xefcdab89;
	c->h[2] = 0x98badcfe;
	c->h[3] = 0x10325476;
	c->h[4] = 0xc3d2e1f0;
	c->len = 0;
	c->nbuf = 0;
}

void
mgit_sha1_update(struct mgit_sha1 *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	if (c->nbuf > 0) {
		size_t take = 64 - c->nbuf < n ? 64 - c->nbuf : n;

		memcpy(c->buf + c->nbuf, p, take);
		c->nbuf += take;
		p += take;
		n -= take;
		if (c->nbuf < 64)
			return;
		block(c->h, c->buf);
		c->nbuf = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		block(c->h, p);
	memcpy(c->buf, p, n);
	c->nbuf = n;
}

void
mgit_sha1_final(unsigned char out[20], struct mgit_sha1 *c)
{
	uint64_t bits = c->len * 8;
	unsigned char pad[72];
	size_t npad = c->nbuf < 56 ? 56 - c->nbuf : 120 - c->nbuf;

	memset(pad, 0, sizeof(pad));
	pad[0] = 0x80;
	for (int i = 0; i < 8; i++)
		pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	mgit_sha1_update(c, pad, npad + 8);
	for (int i = 0; i < 5; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}
