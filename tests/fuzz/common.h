/*
 * common.h: helpers shared by the libFuzzer harnesses (tests/fuzz/).
 *
 * The checks here are written independently of the code under test (a
 * UTF-8 validator of its own rather than core/util/utf8.c), so a harness never
 * trusts the module it is fuzzing to judge its own output.
 */
#ifndef MIRROR_FUZZ_COMMON_H
#define MIRROR_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stop the run with a message: libFuzzer records the input as a crash. */
#define FUZZ_CHECK(cond, ...) do {                                      \
	if (!(cond)) {                                                  \
		fprintf(stderr, "fuzz check failed: %s (%s:%d): ",      \
		    #cond, __FILE__, __LINE__);                         \
		fprintf(stderr, __VA_ARGS__);                           \
		fputc('\n', stderr);                                    \
		abort();                                                \
	}                                                               \
} while (0)

/*
 * 1 when s[0..n) is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), else 0.
 */
static inline int
fuzz_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t k;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1, cp = c & 0x1fu;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, cp = c & 0x0fu;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, cp = c & 0x07u;
		else
			return 0;
		if (n - i <= k)
			return 0;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + j] & 0x3fu);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += k + 1;
	}
	return 1;
}

/* A NUL-terminated copy of data[0..n) (the caller frees it). */
static inline char *
fuzz_strndup(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	if (n > 0)
		memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

/*
 * Split off the next field of *data: the bytes up to the first sep (or
 * to the end) as a new NUL-terminated string; *data and *n move past it
 * and the separator.
 */
static inline char *
fuzz_field(const uint8_t **data, size_t *n, int sep)
{
	const uint8_t *end = memchr(*data, sep, *n);
	size_t len = end != NULL ? (size_t)(end - *data) : *n;
	char *f = fuzz_strndup(*data, len);

	*data += len;
	*n -= len;
	if (end != NULL) {
		(*data)++;
		(*n)--;
	}
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
