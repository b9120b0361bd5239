/*
 * text.h: store text made safe to show as plain text; numbers as text.
 *
 * Store text is data (SPEC section 5): before it reaches any output it
 * is cleaned. Cleaning makes valid UTF-8 free of controls:
 *
 *   invalid UTF-8 and noncharacters (U+FDD0-U+FDEF, U+xFFFE, U+xFFFF:
 *   not allowed in HTML or XML) become U+FFFD; ASCII control
 *   characters (0x00-0x1f, 0x7f) except tab and newline are dropped,
 *   and so are the C1 controls U+0080-U+009F and the bidirectional
 *   embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069);
 *   a value longer than its cap is cut at a UTF-8 boundary and gets
 *   the suffix " … (N bytes more)" (N counts the input bytes cut off).
 *
 * Cleaning escapes nothing: render/escape.h cleans and then escapes for
 * Markdown, HTML or a URL; the plain text outputs (a git commit
 * message, a line of a fenced code block) take the text as cleaned
 * here. Each function appends to sb (never resets it), never fails, and
 * runs in time linear in len. s need not be NUL-terminated and may hold
 * NUL bytes (they are dropped as control characters). s == NULL is
 * empty.
 */
#ifndef MIRROR_TEXT_H
#define MIRROR_TEXT_H

#include <stddef.h>

#include "util/strbuf.h"

/* Longest value, in input bytes, that a field keeps whole. */
#define TEXT_MAX_FIELD 4096

/* text_clean flags. */
#define TEXT_SPACES 1u          /* tab and newline become spaces */

/*
 * Clean s into sb. max is the cap in input bytes (0: TEXT_MAX_FIELD;
 * SIZE_MAX: no cap). Tab and newline are kept, or become spaces with
 * TEXT_SPACES in flags.
 */
void text_clean(strbuf *sb, const char *s, size_t len, size_t max,
    unsigned flags);

/*
 * Where text_clean cuts s of len bytes under a cap of max bytes (0:
 * TEXT_MAX_FIELD): len when it fits, else max backed off to the start
 * of a UTF-8 character (at most 3 bytes). What follows the cut is
 * marked " … (N bytes more)", N = len - the cut.
 */
size_t text_cut(const char *s, size_t len, size_t max);

/*
 * s cleaned as text_clean does (max: its byte cap) and folded onto one
 * line: every run of spaces, tabs, newlines, U+2028 and U+2029 becomes
 * one space, and none leads or trails. With chars > 0, at most chars
 * characters are kept, then "…".
 */
void text_line(strbuf *sb, const char *s, size_t len, size_t max,
    size_t chars);

/*
 * Numbers as decimal text, without printf (about 1,700 instructions a
 * call: every number of a JSON file, a page and a page's digest went
 * through it, 2% of a render).
 */

/* Room for any long long in decimal ("-9223372036854775808"), and NUL. */
#define TEXT_INT_SIZE 24

/* v as printf's "%lld" writes it, NUL-terminated, into buf. Returns its
 * length. */
size_t text_int(char buf[TEXT_INT_SIZE], long long v);

/*
 * When v is a whole number of at most 15 digits (|v| < 10^15), and not
 * -0: its digits, as printf's "%.15g" and "%.17g" write it, NUL-
 * terminated, into buf, and their length. Else 0, buf untouched: the
 * caller formats v (a fraction, an exponent, -0, NaN, infinity).
 */
size_t text_whole(char buf[TEXT_INT_SIZE], double v);

/*
 * v as printf's "%.15g" writes it, NUL-terminated, into buf (size
 * bytes): a whole number by text_whole, anything else by printf.
 * Returns its length, or 0 when it does not fit (buf then undefined).
 */
size_t text_real(char *buf, size_t size, double v);

/*
 * Numeric-aware order of a (na bytes) and b (nb bytes): runs of digits
 * compare as the numbers they write ("p2" before "p10", "Project 2"
 * before "Project 10"), everything else byte by byte, a text before
 * any longer one it begins; texts equal so ("p07", "p7") fall back to
 * their bytes, so the order is total. Returns < 0, 0 or > 0. The one
 * order of the projects list and of the A-Z's projects (SQL collation
 * mirror_natural, core/store/store.c).
 */
int text_natural_cmp(const char *a, size_t na, const char *b, size_t nb);

#endif
