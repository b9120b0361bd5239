/*
 * utf8.h: strict UTF-8 decoding shared by escape.c and slug.c.
 */
#ifndef MIRROR_UTF8_H
#define MIRROR_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode one code point of s[0..len) (len > 0) into *cp and return the
 * bytes it took (1-4). Overlong forms, surrogates, values above
 * U+10FFFF and truncated sequences give *cp = -1 and return 1, so the
 * caller replaces one bad byte and resynchronises.
 */
size_t utf8_decode(int32_t *cp, const unsigned char *s, size_t len);

/* Append the UTF-8 encoding of cp (a valid scalar value) to out[4];
 * returns the byte count. */
size_t utf8_encode(unsigned char out[4], int32_t cp);

/* 1 when cp is a control character, C0 (below U+0020), DEL or C1
 * (U+0080 to U+009F), also for utf8_decode's -1 of a byte that is not
 * UTF-8 (below zero); else 0. Tab and newline count: callers that keep
 * them say so. */
int utf8_is_control(int32_t cp);

/* 1 when s[0..n) is valid UTF-8 as utf8_decode reads it (a NUL byte
 * is valid), else 0. */
int utf8_valid(const unsigned char *s, size_t n);

#endif
