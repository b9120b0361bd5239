/*
 * markdown.h: Markdown -> HTML with cmark-gfm, plus the mirror's links,
 * fact ids and disputed markers.
 *
 * cmark-gfm runs with the table, strikethrough and tagfilter extensions
 * and WITHOUT CMARK_OPT_UNSAFE: raw HTML and javascript:, vbscript:,
 * file: and data: (except images) URLs are suppressed. The autolink
 * extension stays off: it finds e-mail addresses in text after escapes
 * and entities are resolved, so no escaping can keep an address in
 * store text from becoming a link (escape.h); bare "www." and "http://"
 * are text too, and a template writes <https://...> or [text](url). One
 * pass over the tree, between parsing and rendering, adds what safe mode
 * cannot:
 *
 *  (a) Twin links. A relative link (no scheme, not starting with '/')
 *      whose path ends in ".md", optionally followed by "#fragment",
 *      points to ".html" instead: "../conflicts/c1.md#m2" ->
 *      "../conflicts/c1.html#m2". Other links are untouched.
 *
 *  (b) Fact ids. A list item whose first paragraph starts with exactly
 *      the inline HTML <a id="ID"></a> (ID matching [a-z0-9-]+, as the
 *      templates write with {{x|id}}) renders as <li id="ID">; the anchor
 *      itself is dropped from the HTML (GitHub still shows it in the .md
 *      twin). The same holds for a table row whose first cell starts
 *      with such an anchor: <tr id="ID">, and for a heading whose text
 *      starts with one: <h2 id="ID"> (a table of contents links it). Store text can never produce
 *      this anchor because escape_md escapes '<'. All other raw HTML stays
 *      suppressed.
 *
 *  (c) Disputed markers. A link whose text is exactly "⚠ disputed" and
 *      whose URL is relative with a last path segment "<ID>.md"
 *      (ID matching [a-z0-9-]+), in a directory named "conflicts",
 *      renders as
 *        <a class="disputed" href="../conflicts/ID.html"
 *           aria-label="disputed: see conflict ID">⚠ disputed</a>
 *
 *  (d) The figure. An HTML block that is exactly MARKDOWN_FIGURE on a
 *      line of its own (a template's placeholder: store text cannot
 *      make one) renders as the caller's figure, HTML that gen/render
 *      made from the page's data (markdown_to_html_figure), or as
 *      nothing. So a picture reaches the HTML twin while the .md twin
 *      shows an HTML comment, invisible on a git host.
 *
 * Output is deterministic and the whole call is linear in practice for
 * text that came through escape_md (see the timing test).
 */
#ifndef MIRROR_MARKDOWN_H
#define MIRROR_MARKDOWN_H

#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

/*
 * Render len bytes of Markdown md as an HTML fragment appended to sb.
 * name (a page path) only appears in error messages. Returns 0, or
 * -MIRROR_EIO when cmark-gfm fails (out of memory, missing extension).
 */
int markdown_to_html(strbuf *sb, const char *md, size_t len,
    const char *name, mirror_error *err);

/* The placeholder line of (d). */
#define MARKDOWN_FIGURE "<!-- the HTML page shows a diagram here -->"

/*
 * markdown_to_html, with figure (NULL: none) in place of the
 * placeholder; figure is trusted HTML (never store text unescaped).
 * Returns as markdown_to_html.
 */
int markdown_to_html_figure(strbuf *sb, const char *md, size_t len,
    const char *name, const char *figure, mirror_error *err);

#endif
