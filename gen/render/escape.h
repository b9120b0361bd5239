/*
 * escape.h: the only way store text reaches Markdown, HTML or a URL.
 *
 * Store text is data, never markup (SPEC section 5). Every function here
 * first cleans its input (text_clean, util/text.h: valid UTF-8 without
 * controls, longer values cut at TEXT_MAX_FIELD bytes; escape_url does
 * not cap: it takes ids and slugs) and then escapes it for one output
 * context.
 *
 * Each function appends to sb (never resets it), never fails, and runs in
 * time linear in len. s need not be NUL-terminated and may hold NUL
 * bytes (they are dropped as control characters). s == NULL is empty.
 */
#ifndef MIRROR_ESCAPE_H
#define MIRROR_ESCAPE_H

#include <stddef.h>

#include "util/strbuf.h"

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

/* A relative path of s's len bytes, as escape_url does each of its
 * '/'-separated segments, the '/' between them kept: a site's path a
 * field holds ("conflicts/projects/_"). It cannot climb or leave the
 * site either: "." and ".." segments are encoded as escape_url's, and
 * a leading '/' as "%2F". */
void escape_url_path(strbuf *sb, const char *s, size_t len);

#endif
