/*
 * slug.c: opaque store ids -> safe, distinct file names and element ids.
 */
#include <stdint.h>
#include <string.h>

#include "render/slug.h"
#include "util/hash.h"
#include "util/utf8.h"

/* ASCII for U+00C0..U+00FF; "" means "not a letter: a separator". */
static const char *const latin1[64] = {
	"a", "a", "a", "a", "a", "a", "ae", "c",     /* C0 */
	"e", "e", "e", "e", "i", "i", "i", "i",      /* C8 */
	"d", "n", "o", "o", "o", "o", "o", "",       /* D0, D7 is x */
	"o", "u", "u", "u", "u", "y", "th", "ss",    /* D8 */
	"a", "a", "a", "a", "a", "a", "ae", "c",     /* E0 */
	"e", "e", "e", "e", "i", "i", "i", "i",      /* E8 */
	"d", "n", "o", "o", "o", "o", "o", "",       /* F0, F7 is / */
	"o", "u", "u", "u", "u", "y", "th", "y",     /* F8 */
};

static int
is_device(const char *s, size_t n)
{
	static const char *const dev[] = { "con", "prn", "aux", "nul" };

	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		if (n == 3 && memcmp(s, dev[i], 3) == 0)
			return 1;
	return n == 4 && (memcmp(s, "com", 3) == 0 ||
	    memcmp(s, "lpt", 3) == 0) && s[3] >= '0' && s[3] <= '9';
}

/* 1 when s[0..n) is [a-z0-9]+ joined by single '-' and short enough. */
static int
clean_n(const char *s, size_t n)
{
	if (n == 0 || n > SLUG_BASE_MAX || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '-') {
			if (s[i - 1] == '-')
				return 0;
		} else if ((c < 'a' || c > 'z') && (c < '0' || c > '9')) {
			return 0;
		}
	}
	return !is_device(s, n);
}

int
slug_alphabet_only(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

int
slug_is_clean(const char *s)
{
	return s != NULL && clean_n(s, strlen(s));
}

/* Append piece to out[*n], separated by '-' when sep is pending. */
static int
put(char *out, size_t *n, int *sep, const char *piece, size_t len)
{
	size_t need = len + (*sep && *n > 0 ? 1 : 0);

	if (*n + need > SLUG_BASE_MAX)
		return 0;
	if (*sep && *n > 0)
		out[(*n)++] = '-';
	memcpy(out + *n, piece, len);
	*n += len;
	*sep = 0;
	return 1;
}

void
slug_make_n(char out[SLUG_SIZE], const char *id, size_t len)
{
	const unsigned char *u = (const unsigned char *)id;
	char hex[17];
	size_t i = 0, n = 0;
	int sep = 0;

	if (id == NULL)
		len = 0;
	if (clean_n(id, len)) {
		memcpy(out, id, len);
		out[len] = '\0';
		return;
	}
	while (i < len) {
		int32_t cp;
		size_t k = utf8_decode(&cp, u + i, len - i);
		char c[1];
		const char *piece = NULL;
		size_t plen = 0;

		i += k;
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
			c[0] = (char)cp;
			piece = c;
			plen = 1;
		} else if (cp >= 'A' && cp <= 'Z') {
			c[0] = (char)(cp - 'A' + 'a');
			piece = c;
			plen = 1;
		} else if (cp >= 0xc0 && cp <= 0xff && latin1[cp - 0xc0][0]) {
			piece = latin1[cp - 0xc0];
			plen = strlen(piece);
		}
		if (piece == NULL) {
			sep = 1;
			continue;
		}
		if (!put(out, &n, &sep, piece, plen))
			break;
	}
	if (n == 0)
		out[n++] = 'x';
	hash_hex(hex, hash_add(MIRROR_HASH_INIT, id == NULL ? "" : id, len));
	out[n++] = '-';
	out[n++] = '-';
	memcpy(out + n, hex, 8);
	out[n + 8] = '\0';
}

void
slug_make(char out[SLUG_SIZE], const char *id)
{
	slug_make_n(out, id, id == NULL ? 0 : strlen(id));
}
