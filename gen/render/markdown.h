/*
 * markdown.h: Markdown -> HTML with cmark-gfm, plus the mirror's links,
 * fact ids and disputed markers.
 *
 * cmark-gfm runs with the table and tagfilter extensions and WITHOUT
 * CMARK_OPT_UNSAFE: raw HTML and javascript:, vbscript:, file: and data:
 * (except images) URLs are suppressed. The autolink extension stays off:
 * it finds e-mail addresses in text after escapes and entities are
 * resolved, so no escaping can keep an address in store text from
 * becoming a link (escape.h); bare "www." and "http://" are text too,
 * and a template writes <https://...> or [text](url).
 * Strikethrough is not parsed either: "~~x~~" stays text. cmark-gfm
 * 0.29 keeps its inline special characters in one process-wide table,
 * and every parse with that extension adds its '~' when it starts on
 * inlines and takes it out when done, so parses on several threads
 * would have to take turns (they did, under a mutex: issue 60). No
 * template writes "~~", and escape_md still escapes a store's '~' for
 * the .md twin, which git hosts render with GFM. The table extension
 * adds no special character and tagfilter only renders, so any thread
 * may parse and render at once with no lock (the extensions are
 * registered once). One pass over the tree, between parsing and
 * rendering, adds what safe mode cannot:
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
 *      starts with one: <h2 id="ID"> (a table of contents links it).
 *      Store text can never produce this anchor because escape_md
 *      escapes '<'. All other raw HTML stays
 *      suppressed.
 *
 *  (c) Disputed markers. A link whose text is exactly "⚠ disputed" and
 *      whose URL is relative with a last path segment "<ID>.md"
 *      (ID matching [a-z0-9-]+), in a directory named "conflicts",
 *      renders as
 *        <a class="disputed" href="../conflicts/ID.html"
 *           aria-label="disputed: see conflict ID">⚠ disputed</a>
 *
 *  (d) Figures. An HTML block that is exactly "<!-- figure:NAME -->"
 *      (a line of its own in the template), when the caller passes a
 *      figure named NAME, renders as that figure's HTML, as it is (the
 *      caller made it, from data it escaped: an SVG chart); with no such
 *      figure it stays suppressed like any raw HTML. The .md twin keeps
 *      the comment, which Markdown readers do not show.
 *
 *  (e) Folds. An HTML block that is exactly
 *      "<details><summary>TEXT</summary>" (a line of its own, TEXT of
 *      letters, digits, blanks and , . ' - ( ) : alone) renders as
 *      "<details>\n<summary>TEXT</summary>", and one that is exactly
 *      "</details>" closes the innermost open fold; the Markdown between
 *      them (blank lines around it) renders as usual. A close with no
 *      open fold, and an open one never closed, stay suppressed like any
 *      raw HTML, so the HTML is always balanced. Store text can make
 *      neither, because escape_md escapes '<'.
 *
 *  (f) Landmarks. An HTML block that is exactly
 *      '<nav class="crumbs" aria-label="Breadcrumbs">' or
 *      '<nav class="toc" aria-label="Contents">' (a line of its own)
 *      renders as itself and opens a nav that "</nav>" closes, as folds
 *      do (a close ends only an open of its own kind); the Markdown
 *      between them renders as usual.
 *
 *  (g) Table labels. A narrow screen shows each row of a table as a
 *      card of "label: value" lines; a column's label is its header
 *      cell's plain text (markup reduced to its text, a line break a
 *      space), and the first column, the card's title, has none. A
 *      table whose labels are one of the build's known kinds
 *      (tablekinds.h: the tables the templates write) renders as
 *      <table class="cols-XXXXXXXX">, and the stylesheet's rules for
 *      that class show the labels; any other table gives every body
 *      cell but the first of a column whose header has text
 *      data-label="LABEL" (escaped as an attribute), which the theme
 *      shows instead.
 *
 *  (h) Sections. A table that comes after a level-2 heading with an id
 *      ((b)) among the children of one element (the page, a fold or
 *      landmark of (e) and (f), a list item, a quote) renders with
 *      the class MD_SECTION_CLASS as well (class="cols-XXXXXXXX
 *      in-section", or class="in-section"): the tables a stylesheet
 *      would find with "h2[id] ~ table", a selector whose cost grows
 *      with the page (the stylesheet uses the class instead; issue 69).
 *      markdown_render also says whether a contents landmark ((f),
 *      '<nav class="toc" ...>') is a child of the page itself, for the
 *      layout to style the page around it (gen/render/theme.h, toc).
 *
 *  (i) Words kept whole. A browser may break a line after any '-': in
 *      a date (2025-11-04), an id (p04-st-power), a value (GF-PTFE,
 *      1e-12) or an option (--check). A token (a run of characters
 *      between spaces) of at most MD_NOBREAK_MAX characters renders
 *      inside <span class="MD_NOBREAK_CLASS"> (a date, YYYY-MM-DD and
 *      a day of its month, inside <time>), which the theme keeps on
 *      one line where it fits, when it holds a '-' between two letters
 *      or digits and either
 *      stands in a code block, a heading or a table cell, or holds a
 *      digit or no lower-case letter (a sentence's "well-kept" may
 *      wrap). Not where no line can break inside it: in a code span,
 *      which the theme keeps whole as it is; in a cell of a column the
 *      stylesheet keeps on one line (table_kinds_nowrap); in a
 *      paragraph or heading of at most MD_NOBREAK_LINE characters; as
 *      the first token of a paragraph or heading, which starts a line.
 *      Those are the bulk of a big site's dates. The text is unchanged
 *      (copied and searched as it reads); a longer token wraps as
 *      before.
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

/* A figure for (d): its name (matching [a-z0-9-]+) and its HTML. */
struct md_figure {
	const char *name;
	const char *html;
};

/* The class (h) adds to a table of a section. */
#define MD_SECTION_CLASS "in-section"

/* The span of a word kept whole ((i)) and its longest token, in
 * characters. */
#define MD_NOBREAK_CLASS "nobreak"
#define MD_NOBREAK_MAX 40

/* The characters a line holds at the narrowest width the theme lays
 * out (a phone's 390 px, in a nested list): a block of no more text
 * than this is one line, which (i) leaves as it is. */
#define MD_NOBREAK_LINE 28

/* The longest summary markdown_render writes, in bytes before its "…". */
#define MARKDOWN_SUMMARY_MAX 160

/* The longest Markdown, in bytes, whose parse allocates from the
 * thread's arena (render/arena.h); a longer page's parse uses malloc. */
#define MARKDOWN_ARENA_MAX ((size_t)256 * 1024)

struct table_kinds;

/*
 * A page's Markdown for markdown_render: len bytes of md, the page's
 * name (its path, only in error messages), the nfigs figures figs
 * (see (d) above; none: NULL and 0) and the build's known tables
 * (see (g) above; NULL: none); toc, when not NULL, is where
 * markdown_render puts 1 when the page holds a contents landmark as a
 * child of the page itself ((h) above), else 0.
 */
struct md_source {
	const char *md;
	size_t len;
	const char *name;
	const struct md_figure *figs;
	size_t nfigs;
	const struct table_kinds *kinds;
	int *toc;
};

/*
 * markdown_to_html of src with its figures, and when summary is not
 * NULL, the page's summary appended to it as plain text
 * (not escaped), for a <meta name="description">: from the page's lead
 * (what comes before its first heading below the title), the first
 * top-level paragraph without links, else the first list item's
 * paragraph without links, else the first paragraph with text outside
 * links (so a nav line of links and separators is never it); else the
 * first such top-level paragraph anywhere. Whitespace collapsed, cut at
 * a word before MARKDOWN_SUMMARY_MAX bytes and ended with "…"; nothing
 * when no paragraph qualifies. Returns as markdown_to_html.
 */
int markdown_render(strbuf *sb, strbuf *summary,
    const struct md_source *src, mirror_error *err);

/*
 * The labels of the first table in len bytes of Markdown md, as (g)
 * reads them: the plain text of each header cell but the first ("" for
 * one without text) into *labels (*n of them; caller frees each and the
 * array). Returns 1, 0 when md holds no table (*labels NULL), or
 * -MIRROR_EIO when cmark-gfm fails.
 */
int markdown_table_labels(char ***labels, size_t *n, const char *md,
    size_t len, mirror_error *err);

#endif
