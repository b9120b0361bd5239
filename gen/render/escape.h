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

#include "util/strbuf.h"

/* Longest value, in input bytes, that escape_md/escape_html keep whole. */
#define ESCAPE_MAX_FIELD 4096

/*
 * Markdown inline text (GitHub-flavoured, as cmark-gfm 0.29 parses it
 * with the site's extensions), for a paragraph, a list item, a table
 * cell, bold, italics, link text or a heading alike. Whatever s holds,
 * the result reads as plain text: it can never open or close a link,
 * image, autolink (also the bare www./http(s)://ftp:// kind), table
 * cell, heading, list, block quote, code span or block, emphasis,
 * strikethrough, footnote, raw HTML, entity, hard line break or
 * thematic break, nor join the template's own markup around it; and
 * parsed, it gives back exactly the cleaned value, with whitespace
 * collapsed: tab and newline become spaces, runs of spaces one space,
 * and whitespace (also Unicode whitespace) at either end goes, so the
 * text can never indent a code block or end in a hard break.
 *
 * Escaping is minimal, by backslash only, and only where a character
 * could form Markdown where it stands, so the .md twin shows a value as
 * stored ("GF-PTFE (rev B), 4.8 kg at 2026-11-01 00:00:00" stays
 * byte for byte) and git log -S finds it:
 *   always      ` [ ] |
 *   where       * _ ~ in a run that could open or close emphasis or
 *               strikethrough (CommonMark's flanking rules; '_' inside
 *               a word never can; tildes in runs of 3 to 99 cannot);
 *               < before a letter, '/', '!', '?' or an e-mail autolink's
 *               local part; & before an entity's name or number;
 *               \ before punctuation; the '.' of "www." at a word's
 *               start and the ':' of "://" (extended autolinks)
 *   at the start (the value may begin a line)
 *               # + - = > : and "12." / "12)" that would begin a heading,
 *               list item, block quote, thematic break, setext underline
 *               or table delimiter row
 *   at the end  ! \ & < and trailing "#"s after a space (the template
 *               text after a value could complete an image, escape, entity
 *               or tag, or a heading would drop them)
 *   at either edge, * _ ~ runs count as flanking (the template's text
 *   there is unknown). Nothing else: - . : ( ) , / ' " @ % + and the
 *   rest of running text stay as they are.
 *
 * An e-mail address stays text in the site's HTML because the site runs
 * cmark-gfm without the autolink extension (markdown.h): that extension
 * finds addresses in text after escapes and entities are resolved, so
 * only changing the text could stop it. A git host that renders the .md
 * with it shows an address as a mailto: link to exactly its own text.
 * Runs in one pass with bounded look-around: linear in len.
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

/*
 * s cleaned as escape_clean does (max: its byte cap) and folded onto one
 * line: every run of spaces, tabs, newlines, U+2028 and U+2029 becomes
 * one space, and none leads or trails. With chars > 0, at most chars
 * characters are kept, then "…". No escaping: for a commit message, or
 * a line of a fenced code block.
 */
void escape_line(strbuf *sb, const char *s, size_t len, size_t max,
    size_t chars);

#endif
