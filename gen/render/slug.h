/*
 * slug.h: file names and element ids from opaque store ids.
 *
 * A slug is 1 to SLUG_MAX characters of [a-z0-9-]: it cannot be empty,
 * ".", "..", hold a '/', start or end with '-', or be a Windows device
 * name (con, prn, aux, nul, com0-9, lpt0-9). It is a pure function of the
 * id: the same id gives the same slug in every build on every machine.
 *
 * Distinct ids give distinct slugs:
 *   - an id that is already a clean slug of itself ([a-z0-9]+ joined by
 *     single '-', at most SLUG_BASE_MAX long, not a device name) is its
 *     own slug: "p05-interferometer" -> "p05-interferometer";
 *   - any other id gets a readable base plus "--" and 8 hex digits of its
 *     FNV-1a hash (core/util/hash.h): "A b" -> "a-b--1c2d3e4f",
 *     "../../etc" -> "etc--0a1b2c3d", "" -> "x--cbf29ce4".
 * Clean slugs never hold "--" and hashed ones always do, so a clean id
 * can never take the slug of a hashed one; two hashed ids collide only if
 * base and 32-bit hash both agree.
 *
 * The base maps A-Z to a-z, a few Latin letters to ASCII (ä->a, ß->ss,
 * é->e, ...), keeps a-z 0-9, turns every other run into one '-', trims
 * '-', caps at SLUG_BASE_MAX, and is "x" when nothing is left.
 */
#ifndef MIRROR_SLUG_H
#define MIRROR_SLUG_H

#include <stddef.h>

#define SLUG_BASE_MAX 48
#define SLUG_MAX (SLUG_BASE_MAX + 2 + 8)
#define SLUG_SIZE (SLUG_MAX + 1)

/* Write the slug of id (NUL-terminated; NULL is treated as "") to out. */
void slug_make(char out[SLUG_SIZE], const char *id);

/* Same, for id of len bytes (may hold NUL bytes). */
void slug_make_n(char out[SLUG_SIZE], const char *id, size_t len);

/*
 * 1 when s[0..n) is non-empty and only a-z, 0-9 and '-': the alphabet
 * of slugs, and so of every file name part and element id mirror makes.
 */
int slug_alphabet_only(const char *s, size_t n);

/* 1 when s is a clean slug of itself (slug_make(s) == s), else 0. */
int slug_is_clean(const char *s);

#endif
