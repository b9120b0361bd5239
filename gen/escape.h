/*
 * escape.h: the only way store text reaches output.
 *
 * Store text is data, never markup (SPEC section 5). Every function here
 * first cleans its input and then escapes it for one output context:
 *
 *   cleaning  invalid UTF-8 and noncharacters (U+FDD0-U+FDEF, U+xFFFE,
 *             U+xFFFF: not allowed in HTML or XML) become U+FFFD; ASCII
 *             control characters (0x00-0x1f, 0x7f) except tab and
 *             newline are dropped, and so are the C1 controls
 *             U+0080-U+009F; a value longer than
 *             ESCAPE_MAX_FIELD bytes is cut at a UTF-8 boundary and gets
 *             the suffix " … (N bytes more)" (N counts the input bytes
 *             cut off). escape_url does not cap: it takes ids and slugs.
 *
 * Each function appends to sb (never resets it), never fails, and runs in
 * time linear in len. s need not be NUL-terminated and may hold NUL
 * bytes (they are dropped as control characters). s == NULL is empty.
 */
#ifndef MIRROR_ESCAPE_H
#define MIRROR_ESCAPE_H

#include <stddef.h>

#include "strbuf.h"

/* Longest value, in input bytes, that escape_md/escape_html keep whole. */
#define ESCAPE_MAX_FIELD 4096

/*
 * Markdown inline text (GitHub-flavoured, as cmark-gfm parses it), for
 * both a paragraph and a table cell. Whatever s holds, the result reads
 * as plain text: it can never open a link, image, autolink (also the
 * bare www./http:/e-mail kind), table cell, heading, list, block quote,
 * code span or block, emphasis, strikethrough, footnote, raw HTML,
 * entity, hard line break or thematic break. How: every ASCII
 * punctuation character gets a backslash, and '@' also gets an
 * invisible U+2060 WORD JOINER before it (cmark-gfm finds e-mail
 * autolinks after escapes are resolved);
 * tab and newline become spaces; runs of whitespace collapse to one
 * space and leading/trailing whitespace is dropped (so the text can
 * never indent a code block or end in a hard break).
 */
void escape_md(strbuf *sb, const char *s, size_t len);

/*
 * HTML (and XML) text and double- or single-quoted attribute values:
 * & < > " ' become entities. Newlines and tabs are kept.
 */
void escape_html(strbuf *sb, const char *s, size_t len);

/*
 * One URL path segment: every byte except A-Z a-z 0-9 - . _ ~ is
 * percent-encoded (%XX, upper case), so '/', '?', '#', ':' and spaces
 * cannot change where a link points. The result is also safe as-is in
 * Markdown link destinations and HTML attributes. A segment "." or ".."
 * is encoded as "%2E" / "%2E%2E" so it cannot climb directories.
 * Cleaning applies (invalid UTF-8 becomes U+FFFD before encoding), the
 * size cap does not.
 */
void escape_url(strbuf *sb, const char *s, size_t len);

/*
 * Cleaning only (no escaping, no collapsing): for plain text outputs
 * such as a git commit message. max is the cap in input bytes
 * (0: ESCAPE_MAX_FIELD; SIZE_MAX: no cap).
 */
void escape_clean(strbuf *sb, const char *s, size_t len, size_t max);

#endif
