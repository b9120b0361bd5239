/*
 * markdown.c: cmark-gfm in safe mode, plus one pass over the tree that
 * rewrites twin links and gives fact elements their ids.
 *
 * The same mechanism puts a figure the caller made (an SVG chart) where
 * its template wrote "<!-- figure:NAME -->" as an HTML block.
 *
 * Mechanism for ids and markers: cmark-gfm lets a node carry a syntax
 * extension, and the HTML renderer hands such a node to the extension's
 * html_render callback instead of rendering it itself. The pass sets our
 * own extension on exactly the list items, table rows and links it
 * recognises (the id travels as node user data); the callback writes
 * <li id=...>, <tr id=...> or the disputed <a ...> and the renderer
 * still renders their children as usual, escaped. Nothing else changes,
 * so every other raw HTML stays suppressed by safe mode. Table rows
 * belong to the table extension: the callback lets it render the row and
 * only adds the id to the "<tr" it wrote, and the pass puts the table
 * extension back before the tree is freed (it frees the row's data).
 *
 * Tables ((g) in markdown.h): a narrow screen shows each row as a card
 * of "label: value" lines. A table whose header labels are one of the
 * build's known kinds (tablekinds.h) is marked with its class, which
 * the table's own callback puts into its "<table"; the stylesheet's
 * rules for the class show the labels, written once. Any other table's
 * body cells but the first (the card's title) of a column whose header
 * cell has text get data-label="HEADER" (the header's plain text,
 * escaped as an attribute). A cell is marked like a row (its label, one
 * per column, lives in the pass's list, not in the node). A second walk
 * (sections), once the pass has paired the folds, finds the tables of a
 * section ((h) in markdown.h) as the HTML parser will nest them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm/houdini.h>
#include <cmark-gfm/render.h>
#include <cmark-gfm/syntax_extension.h>

#include "render/arena.h"
#include "render/escape.h"
#include "render/markdown.h"
#include "render/slug.h"
#include "render/tablekinds.h"
#include "util/array.h"
#include "util/xalloc.h"

#define DISPUTED_TEXT "\xe2\x9a\xa0 disputed"

/* What the pass marked, so the extension can be put back after. */
struct marked {
	struct marked_node {
		cmark_node *node;
		cmark_syntax_extension *orig;   /* its extension before */
	} *v;
	size_t n, cap;
	char **labels;          /* the cells' data-label values, owned */
	size_t nlabels, labelcap;
	const struct table_kinds *kinds;   /* NULL: none known */
	/* The elements that will hold the blocks being walked, innermost
	 * last: the document (main), each quote and list item, each fold
	 * and landmark open; each with whether a level-2 heading with an
	 * id was among its children so far ((h) in markdown.h). */
	struct scope {
		cmark_node *owner;
		int h2id;
	} *scopes;
	size_t nscopes, scopecap;
	int toc;   /* a contents landmark was a child of the document */
};

static void
free_user_data(cmark_mem *mem, void *p)
{
	(void)mem;
	free(p);
}

static void
mark(struct marked *m, cmark_syntax_extension *ext, cmark_node *node,
    char *data)
{
	struct marked_node *mn = &ARRAY_PUSH(m->v, m->n, m->cap);

	mn->node = node;
	mn->orig = cmark_node_get_syntax_extension(node);
	cmark_node_set_user_data(node, data);
	cmark_node_set_user_data_free_func(node, free_user_data);
	cmark_node_set_syntax_extension(node, ext);
}

static void
unmark(struct marked *m)
{
	free(m->scopes);
	for (size_t i = 0; i < m->n; i++)
		cmark_node_set_syntax_extension(m->v[i].node, m->v[i].orig);
	free(m->v);
	for (size_t i = 0; i < m->nlabels; i++)
		free(m->labels[i]);
	free(m->labels);
}

/* The plain text of node's inlines (text, code) into sb, a line break
 * as a space. */
static void
plain_text(strbuf *sb, cmark_node *node)
{
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *lit;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			strbuf_putc(sb, ' ');
		else if ((t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) &&
		    (lit = cmark_node_get_literal(n)) != NULL)
			strbuf_puts(sb, lit);
	}
	cmark_iter_free(it);
}

/* The plain texts of the cells of header row head but the first, into
 * *texts (*n of them, "" for a cell without text; caller frees each
 * and the array). */
static void
header_texts(char ***texts, size_t *n, cmark_node *head)
{
	size_t cap = 0;
	strbuf text;

	*texts = NULL;
	*n = 0;
	strbuf_init(&text);
	for (cmark_node *th = cmark_node_next(cmark_node_first_child(head));
	    th != NULL; th = cmark_node_next(th)) {
		strbuf_reset(&text);
		plain_text(&text, th);
		ARRAY_PUSH(*texts, *n, cap) = xstrndup(text.data != NULL ?
		    text.data : "", text.len);
	}
	strbuf_free(&text);
}

/* The data-label value of header text: escaped as an attribute value,
 * in m's list; NULL when it is empty. */
static char *
cell_label(struct marked *m, const char *text)
{
	strbuf esc;
	char *label;

	if (text[0] == '\0')
		return NULL;
	strbuf_init(&esc);
	escape_html(&esc, text, strlen(text));
	label = xstrndup(esc.data, esc.len);
	strbuf_free(&esc);
	ARRAY_PUSH(m->labels, m->nlabels, m->labelcap) = label;
	return label;
}

/* Mark each body cell of table (head its header row) with its column's
 * label from labels (ncols of them, NULL: none). */
static void
mark_cells(struct marked *m, cmark_syntax_extension *ext, cmark_node *head,
    char **labels, size_t ncols)
{
	for (cmark_node *row = cmark_node_next(head); row != NULL;
	    row = cmark_node_next(row)) {
		size_t i = 0;

		for (cmark_node *td = cmark_node_first_child(row);
		    td != NULL && i < ncols; td = cmark_node_next(td), i++) {
			struct marked_node *mn;

			if (labels[i] == NULL)
				continue;
			mn = &ARRAY_PUSH(m->v, m->n, m->cap);
			mn->node = td;
			mn->orig = cmark_node_get_syntax_extension(td);
			cmark_node_set_user_data(td, labels[i]);
			cmark_node_set_syntax_extension(td, ext);
		}
	}
}

/* Drop the alignments of table's columns (its delimiter row's ':'),
 * in place: cmark-gfm would write them as align attributes, which HTML
 * no longer has; a known kind's right-aligned columns are the
 * stylesheet's (table_kinds_css). */
static void
plain_alignments(cmark_node *table)
{
	uint8_t *a = cmark_gfm_extensions_get_table_alignments(table);
	uint16_t n = cmark_gfm_extensions_get_table_columns(table);

	if (a != NULL)
		memset(a, 0, n);
}

/*
 * A table whose header is one of the build's known kinds (m->kinds)
 * gets its class, whose rules in the stylesheet show each column's
 * label: the labels are written once, not on every row. Any other gets
 * every body cell marked with its column's label; a column whose header
 * has no text gets none, and nor does the first: on a card it is the
 * title, shown without its label (the theme's td:first-child), so a
 * label there is bytes no one sees. A table of a section (section not
 * 0: (h) in markdown.h) gets MD_SECTION_CLASS as well. A known kind's
 * table loses its alignments (plain_alignments).
 */
static void
label_cells(struct marked *m, cmark_syntax_extension *ext, cmark_node *table,
    int section)
{
	cmark_node *head = cmark_node_first_child(table);
	char **texts, **labels;
	char kind[TABLE_KINDS_CLASS_MAX];
	char cls[TABLE_KINDS_CLASS_MAX + sizeof(" " MD_SECTION_CLASS)];
	size_t nt;
	int known, n;

	if (head == NULL)
		return;
	header_texts(&texts, &nt, head);
	known = m->kinds != NULL && table_kinds_class(kind, m->kinds,
	    (const char *const *)texts, nt);
	/* cls is sized for both: it is never cut. */
	n = snprintf(cls, sizeof(cls), "%s%s%s", known ? kind : "",
	    known && section ? " " : "", section ? MD_SECTION_CLASS : "");
	if (n > 0 && (size_t)n < sizeof(cls))
		mark(m, ext, table, xstrdup(cls));
	if (known)
		plain_alignments(table);
	if (!known) {
		labels = xcalloc(nt + 1, sizeof(*labels));
		for (size_t i = 0; i < nt; i++)
			labels[i + 1] = cell_label(m, texts[i]);
		mark_cells(m, ext, head, labels, nt + 1);
		free(labels);
	}
	for (size_t i = 0; i < nt; i++)
		free(texts[i]);
	free(texts);
}

/*
 * If block (a paragraph or table cell) starts with <a id="ID"></a>,
 * remove that anchor (and one space after it) and return ID (caller
 * frees); else NULL.
 */
static char *
take_anchor(cmark_node *block)
{
	static const char pre[] = "<a id=\"", post[] = "\">";
	cmark_node *open, *close, *next;
	const char *lit;
	size_t n;
	char *id;

	if (block == NULL)
		return NULL;
	open = cmark_node_first_child(block);
	if (open == NULL || cmark_node_get_type(open) != CMARK_NODE_HTML_INLINE)
		return NULL;
	close = cmark_node_next(open);
	if (close == NULL || cmark_node_get_type(close) !=
	    CMARK_NODE_HTML_INLINE)
		return NULL;
	lit = cmark_node_get_literal(close);
	if (lit == NULL || strcmp(lit, "</a>") != 0)
		return NULL;
	lit = cmark_node_get_literal(open);
	if (lit == NULL || strncmp(lit, pre, sizeof(pre) - 1) != 0)
		return NULL;
	lit += sizeof(pre) - 1;
	n = strlen(lit);
	if (n < sizeof(post) - 1 || strcmp(lit + n - 2, post) != 0 ||
	    !slug_alphabet_only(lit, n - 2))
		return NULL;
	id = xstrndup(lit, n - 2);
	next = cmark_node_next(close);
	cmark_node_free(open);
	cmark_node_free(close);
	if (next != NULL && cmark_node_get_type(next) == CMARK_NODE_TEXT) {
		lit = cmark_node_get_literal(next);
		if (lit != NULL && lit[0] == ' ') {
			char *rest = xstrdup(lit + 1);

			cmark_node_set_literal(next, rest);
			free(rest);
		}
	}
	return id;
}

/* Length of a URL scheme ("http:" -> 4), or 0 when it has none. */
static size_t
scheme_len(const char *u)
{
	size_t i = 0;

	if (!((u[0] >= 'a' && u[0] <= 'z') || (u[0] >= 'A' && u[0] <= 'Z')))
		return 0;
	while (u[i] != '\0' && u[i] != ':' && u[i] != '/' && u[i] != '?' &&
	    u[i] != '#')
		i++;
	return u[i] == ':' ? i : 0;
}

/* Rewrite a relative X.md[#frag] link to X.html[#frag]. */
static void
twin_link(cmark_node *link)
{
	const char *u = cmark_node_get_url(link);
	size_t path;
	char *nu;

	if (u == NULL || u[0] == '/' || scheme_len(u) > 0)
		return;
	path = strcspn(u, "?#");
	if (path < 4 || memcmp(u + path - 3, ".md", 3) != 0 ||
	    u[path - 4] == '/')
		return;
	nu = xmalloc(strlen(u) + 3);
	memcpy(nu, u, path - 3);
	memcpy(nu + path - 3, ".html", 5);
	strcpy(nu + path + 2, u + path);
	cmark_node_set_url(link, nu);
	free(nu);
}

/*
 * If link is a disputed marker, return the conflict id (caller frees).
 * Checked on the .md URL, before twin_link: (../)*conflicts/ID.md.
 */
static char *
disputed_id(cmark_node *link)
{
	static const char dir[] = "conflicts/";
	cmark_node *c = cmark_node_first_child(link);
	const char *u = cmark_node_get_url(link), *lit;
	size_t n;

	if (c == NULL || cmark_node_next(c) != NULL ||
	    cmark_node_get_type(c) != CMARK_NODE_TEXT)
		return NULL;
	lit = cmark_node_get_literal(c);
	if (lit == NULL || strcmp(lit, DISPUTED_TEXT) != 0 || u == NULL)
		return NULL;
	while (strncmp(u, "../", 3) == 0)
		u += 3;
	if (strncmp(u, dir, sizeof(dir) - 1) != 0)
		return NULL;
	u += sizeof(dir) - 1;
	n = strlen(u);
	if (n < 4 || strcmp(u + n - 3, ".md") != 0 || !slug_alphabet_only(u, n - 3))
		return NULL;
	return xstrndup(u, n - 3);
}

/*
 * If block is an HTML block that is exactly "<!-- figure:NAME -->" and
 * figs has NAME, return a copy of that figure's HTML (caller frees);
 * else NULL.
 */
static char *
figure_of(cmark_node *block, const struct md_figure *figs, size_t nfigs)
{
	static const char pre[] = "<!-- figure:", post[] = " -->";
	const char *lit = cmark_node_get_literal(block);
	size_t n;

	if (lit == NULL || strncmp(lit, pre, sizeof(pre) - 1) != 0)
		return NULL;
	lit += sizeof(pre) - 1;
	n = strcspn(lit, " \n");
	if (strncmp(lit + n, post, sizeof(post) - 1) != 0 ||
	    strspn(lit + n + sizeof(post) - 1, "\n") !=
	    strlen(lit + n + sizeof(post) - 1))
		return NULL;
	for (size_t i = 0; i < nfigs; i++)
		if (strlen(figs[i].name) == n &&
		    memcmp(figs[i].name, lit, n) == 0)
			return xstrdup(figs[i].html);
	return NULL;
}

/*
 * Folds and landmarks, (e) and (f) in markdown.h: 1 when block's literal
 * is exactly "<details><summary>TEXT</summary>\n" with TEXT of the
 * allowed characters, or one of the landmark lines (its HTML, the same,
 * into *html: caller frees); -1 when it is exactly "</details>\n" or
 * "</nav>\n" (its HTML into *html); else 0.
 */
static int
fold_of(cmark_node *block, char **html)
{
	static const char pre[] = "<details><summary>",
	    post[] = "</summary>\n";
	static const char *const lines[] = {
		"<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">\n",
		"<nav class=\"toc\" aria-label=\"Contents\">\n",
	};
	const char *lit = cmark_node_get_literal(block), *t;
	size_t n;

	if (lit == NULL)
		return 0;
	if (strcmp(lit, "</details>\n") == 0 || strcmp(lit, "</nav>\n") == 0) {
		*html = xstrdup(lit);
		return -1;
	}
	for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++)
		if (strcmp(lit, lines[i]) == 0) {
			*html = xstrdup(lit);
			return 1;
		}
	if (strncmp(lit, pre, sizeof(pre) - 1) != 0)
		return 0;
	t = lit + sizeof(pre) - 1;
	n = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789 ,.'-():");
	if (n == 0 || strcmp(t + n, post) != 0)
		return 0;
	*html = xmalloc(n + sizeof("<details>\n<summary></summary>\n"));
	memcpy(*html, "<details>\n<summary>", 19);
	memcpy(*html + 19, t, n);
	memcpy(*html + 19 + n, post, sizeof(post));
	return 1;
}

/* The folds a pass has opened and not yet closed: their indexes in the
 * pass's marks, innermost last. */
struct open_folds {
	size_t *v;
	size_t n, cap;
};

/*
 * Fold block (fold_of) into m: an open one is marked and stacked in
 * folds (its index in m), a close marked when the innermost open one is
 * of its kind (a nav closes a nav, a details a details).
 */
static void
fold_mark(struct marked *m, cmark_syntax_extension *ext, cmark_node *block,
    struct open_folds *folds)
{
	char *html = NULL;
	int k = fold_of(block, &html);
	const char *top;

	if (k == 1) {
		ARRAY_PUSH(folds->v, folds->n, folds->cap) = m->n;
		mark(m, ext, block, html);
		return;
	}
	if (k == -1 && folds->n > 0) {
		top = cmark_node_get_user_data(
		    m->v[folds->v[folds->n - 1]].node);
		if ((strncmp(top, "<nav", 4) == 0) == (html[2] == 'n')) {
			folds->n--;
			mark(m, ext, block, html);
			return;
		}
	}
	free(html);
}

/* 1 when node is an extension's block (cmark-gfm numbers them after its
 * own) of type string ts ("table", "table_row"), else 0: no header
 * names their types, and asking every node's name cost a page's text
 * nodes a call each. */
static int
ext_block(cmark_node *node, const char *ts)
{
	cmark_node_type type = cmark_node_get_type(node);

	return type > CMARK_NODE_FOOTNOTE_DEFINITION &&
	    (type & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK &&
	    strcmp(cmark_node_get_type_string(node), ts) == 0;
}

/* 1 when c ends a token ((i) in markdown.h): an ASCII space, tab or
 * line end; else 0. */
static int
is_gap(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/* 1 when byte c is part of a letter or digit for (i): an ASCII letter
 * or digit, or any byte of a character beyond ASCII; else 0. */
static int
is_alnum_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Where a text stands, for (i): how its tokens are kept whole. */
enum keep_mode {
	KEEP_STRICT = 's',      /* a cell or a code block: every token */
	KEEP_TEXT = 't',        /* running text: dates, numbers, ids */
	KEEP_TEXT_NOT_FIRST = 'f'   /* as KEEP_TEXT, but the first token
	                               starts a line, which holds it */
};

/* 1 when the len bytes at s, one token, are kept whole ((i) in
 * markdown.h) in mode; else 0. */
static int
keep_whole(const char *s, size_t len, enum keep_mode mode)
{
	size_t chars = 0;
	int inner = 0, digit = 0, lower = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c & 0xc0) != 0x80)
			chars++;
		if (c == '-' && i > 0 && i + 1 < len &&
		    is_alnum_byte((unsigned char)s[i - 1]) &&
		    is_alnum_byte((unsigned char)s[i + 1]))
			inner = 1;
		digit |= c >= '0' && c <= '9';
		lower |= c >= 'a' && c <= 'z';
	}
	return chars <= MD_NOBREAK_MAX && inner &&
	    (mode == KEEP_STRICT || digit || !lower);
}

/* The bytes of s (len of them, a token) that make a calendar date
 * "YYYY-MM-DD" at its start, its day in its month (a leap year's 29
 * February too): 10, or 0 when it has none or a digit follows. */
static size_t
date_at(const char *s, size_t len)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y = 0, mo, d;

	if (len < 10 || (len > 10 && s[10] >= '0' && s[10] <= '9') ||
	    s[4] != '-' || s[7] != '-')
		return 0;
	for (size_t i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	for (size_t i = 0; i < 4; i++)
		y = y * 10 + (s[i] - '0');
	mo = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1] || (mo == 2 &&
	    d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0))))
		return 0;
	return 10;
}

/* Append token tok (len bytes) to html, kept whole: a date at its start
 * (date_at) as <time>, which says what it is in 13 bytes, the rest
 * after it; any other in a span of class MD_NOBREAK_CLASS. */
static void
kept_token(cmark_strbuf *html, const char *tok, size_t len)
{
	size_t date = date_at(tok, len);

	cmark_strbuf_puts(html, date > 0 ? "<time>" :
	    "<span class=\"" MD_NOBREAK_CLASS "\">");
	houdini_escape_html0(html, (const uint8_t *)tok,
	    (bufsize_t)(date > 0 ? date : len), 0);
	cmark_strbuf_puts(html, date > 0 ? "</time>" : "</span>");
	houdini_escape_html0(html, (const uint8_t *)tok + date,
	    (bufsize_t)(date > 0 ? len - date : 0), 0);
}

/*
 * Append the len bytes of lit to html (NULL: append nothing), escaped
 * as cmark-gfm escapes text, each token kept whole ((i) in markdown.h)
 * in mode as kept_token writes it. Returns how many tokens it kept.
 */
static size_t
kept_words(cmark_strbuf *html, const char *lit, size_t len,
    enum keep_mode mode)
{
	size_t done = 0, b = 0, e, kept = 0;

	while (b < len) {
		while (b < len && is_gap(lit[b]))
			b++;
		for (e = b; e < len && !is_gap(lit[e]); e++)
			;
		if (e > b && memchr(lit + b, '-', e - b) != NULL &&
		    (b > 0 || mode != KEEP_TEXT_NOT_FIRST) &&
		    keep_whole(lit + b, e - b, mode)) {
			kept++;
			if (html != NULL) {
				houdini_escape_html0(html, (const uint8_t *)
				    lit + done, (bufsize_t)(b - done), 0);
				kept_token(html, lit + b, e - b);
				done = e;
			}
		}
		b = e;
	}
	if (html != NULL)
		houdini_escape_html0(html, (const uint8_t *)lit + done,
		    (bufsize_t)(len - done), 0);
	return kept;
}

/* The block text node sits in (a paragraph, a heading, a cell). */
static cmark_node *
leaf_block(cmark_node *node)
{
	cmark_node *p = cmark_node_parent(node);

	while (p != NULL && (cmark_node_get_type(p) & CMARK_NODE_TYPE_MASK) !=
	    CMARK_NODE_TYPE_BLOCK)
		p = cmark_node_parent(p);
	return p;
}

/* 1 when node is the first of block's inlines (nothing comes before it
 * on the block's first line); else 0. */
static int
first_inline(cmark_node *node, cmark_node *block)
{
	for (cmark_node *n = node; n != block; n = cmark_node_parent(n))
		if (cmark_node_previous(n) != NULL)
			return 0;
	return 1;
}

/* The characters of block's text (its inlines' literals), up to
 * MD_NOBREAK_LINE + 1. */
static size_t
short_text(cmark_node *block)
{
	cmark_iter *it = cmark_iter_new(block);
	cmark_event_type ev;
	size_t chars = 0;

	while (chars <= MD_NOBREAK_LINE &&
	    (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		const char *lit = cmark_node_get_literal(cmark_iter_get_node(
		    it));

		for (; ev == CMARK_EVENT_ENTER && lit != NULL && *lit != '\0';
		    lit++)
			chars += ((unsigned char)*lit & 0xc0) != 0x80;
	}
	cmark_iter_free(it);
	return chars;
}

/* The columns of table (by its header's labels, as header_texts counts
 * them) whose cells the stylesheet keeps on one line, into *nowrap (a
 * flag a label; *n of them; caller frees). */
static void
table_nowrap(unsigned char **nowrap, size_t *n, const struct marked *m,
    cmark_node *table)
{
	char **texts;
	size_t nt;

	*nowrap = NULL;
	*n = 0;
	if (cmark_node_first_child(table) == NULL)
		return;
	header_texts(&texts, &nt, cmark_node_first_child(table));
	*nowrap = xcalloc(nt + 1, 1);
	*n = nt;
	for (size_t i = 0; i < nt; i++)
		(*nowrap)[i] = (unsigned char)table_kinds_nowrap(m->kinds,
		    (const char *const *)texts, nt, i);
	for (size_t i = 0; i < nt; i++)
		free(texts[i]);
	free(texts);
}

/* What one walk of keep_pass knows of the table it is in. */
struct keep_table {
	cmark_node *table;      /* the one nowrap describes, or NULL */
	unsigned char *nowrap;
	size_t ncols;
};

/*
 * How text node, in block, keeps its words whole ((i) in markdown.h),
 * or 0 when it keeps none there: a cell of a nowrap column (kt knows
 * the table, updated here), a block whose whole text fits the
 * narrowest line.
 */
static int
keep_mode_of(cmark_node *node, cmark_node *block, struct keep_table *kt,
    const struct marked *m)
{
	size_t col = 0;

	if (ext_block(block, "table_cell")) {
		cmark_node *t = cmark_node_parent(cmark_node_parent(block));

		if (t != kt->table) {
			free(kt->nowrap);
			table_nowrap(&kt->nowrap, &kt->ncols, m, t);
			kt->table = t;
		}
		for (cmark_node *c = cmark_node_previous(block); c != NULL;
		    c = cmark_node_previous(c))
			col++;
		return col > 0 && col <= kt->ncols && kt->nowrap[col - 1] ?
		    0 : KEEP_STRICT;
	}
	if (short_text(block) <= MD_NOBREAK_LINE)
		return 0;
	return first_inline(node, block) ? KEEP_TEXT_NOT_FIRST : KEEP_TEXT;
}

/*
 * Mark every text and code block of root that holds a token to keep
 * whole ((i) in markdown.h), its keep_mode as its user data. A code
 * span is left as it is: the theme keeps each one whole already.
 */
static void
keep_pass(cmark_node *root, cmark_syntax_extension *ext, struct marked *m)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	struct keep_table kt = { 0 };

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type type = cmark_node_get_type(node);
		const char *lit = cmark_node_get_literal(node);
		char mode[2] = { KEEP_STRICT, '\0' };

		if (ev != CMARK_EVENT_ENTER || lit == NULL ||
		    (type != CMARK_NODE_TEXT && type != CMARK_NODE_CODE_BLOCK) ||
		    strchr(lit, '-') == NULL)
			continue;
		if (type == CMARK_NODE_TEXT &&
		    (mode[0] = (char)keep_mode_of(node, leaf_block(node), &kt,
		    m)) == 0)
			continue;
		if (kept_words(NULL, lit, strlen(lit),
		    (enum keep_mode)mode[0]) > 0)
			mark(m, ext, node, xstrdup(mode));
	}
	cmark_iter_free(it);
	free(kt.nowrap);
}

static void
pass(cmark_node *root, cmark_syntax_extension *ext, struct marked *m,
    const struct md_figure *figs, size_t nfigs)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	struct open_folds folds = { NULL, 0, 0 };

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type type = cmark_node_get_type(node);
		char *id;

		/* A heading's anchor is its own child: taken on the way out,
		 * once the iterator is past the children it frees. */
		if (ev == CMARK_EVENT_EXIT && type == CMARK_NODE_HEADING &&
		    (id = take_anchor(node)) != NULL)
			mark(m, ext, node, id);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (type == CMARK_NODE_ITEM) {
			cmark_node *p = cmark_node_first_child(node);

			if (p != NULL && cmark_node_get_type(p) ==
			    CMARK_NODE_PARAGRAPH &&
			    (id = take_anchor(p)) != NULL)
				mark(m, ext, node, id);
		} else if (ext_block(node, "table_row")) {
			id = take_anchor(cmark_node_first_child(node));
			if (id != NULL)
				mark(m, ext, node, id);
		} else if (type == CMARK_NODE_LINK) {
			id = disputed_id(node);
			twin_link(node);
			if (id != NULL)
				mark(m, ext, node, id);
		} else if (type == CMARK_NODE_HTML_BLOCK) {
			if ((id = figure_of(node, figs, nfigs)) != NULL)
				mark(m, ext, node, id);
			else
				fold_mark(m, ext, node, &folds);
		}
	}
	cmark_iter_free(it);
	/* A fold never closed renders as nothing. */
	while (folds.n > 0) {
		cmark_node *n = m->v[folds.v[--folds.n]].node;

		free(cmark_node_get_user_data(n));
		cmark_node_set_user_data(n, xstrdup(""));
	}
	free(folds.v);
}

/* A new innermost scope, owned by node (a container block or a fold's
 * opening HTML block). */
static void
scope_push(struct marked *m, cmark_node *node)
{
	struct scope *sc = &ARRAY_PUSH(m->scopes, m->nscopes, m->scopecap);

	sc->owner = node;
	sc->h2id = 0;
}

/*
 * Leave the scope of owner, a container block, and the scopes of the
 * folds left open inside it (the HTML parser closes those with it); or,
 * owner NULL, at a fold's close, the innermost scope when it is a fold's
 * (one closed in another container than it opened in, which no template
 * writes, leaves the scopes as the containers made them). A contents
 * landmark left with the document as its parent sets m->toc.
 */
static void
scope_leave(struct marked *m, cmark_node *owner)
{
	static const char toc[] = "<nav class=\"toc\"";
	cmark_node *top;

	if (owner != NULL) {
		while (m->nscopes > 0 &&
		    m->scopes[--m->nscopes].owner != owner)
			;
		return;
	}
	if (m->nscopes == 0)
		return;
	top = m->scopes[m->nscopes - 1].owner;
	if (cmark_node_get_type(top) != CMARK_NODE_HTML_BLOCK)
		return;
	m->nscopes--;
	if (m->nscopes == 1 && strncmp(cmark_node_get_user_data(top), toc,
	    sizeof(toc) - 1) == 0)
		m->toc = 1;
}

/* What an HTML block the pass marked is: 1 a fold's open, -1 its close,
 * 0 anything else (a figure; a fold never closed, marked ""). */
static int
fold_kind(cmark_syntax_extension *ext, cmark_node *block)
{
	const char *html;

	if (cmark_node_get_syntax_extension(block) != ext)
		return 0;
	html = cmark_node_get_user_data(block);
	if (strcmp(html, "</details>\n") == 0 || strcmp(html, "</nav>\n") == 0)
		return -1;
	return strncmp(html, "<details>\n<summary>", 19) == 0 ||
	    strncmp(html, "<nav class=\"", 12) == 0 ? 1 : 0;
}

/*
 * Sections ((h) in markdown.h), after the pass, which paired the folds:
 * every table gets its labels (label_cells), and the class
 * MD_SECTION_CLASS when a level-2 heading with an id came before it
 * among the children of its element (the scopes: the document, a quote,
 * a list item, a fold or landmark), as "h2[id] ~ table" finds it in the
 * HTML; m->toc says whether the contents landmark is the page's child.
 */
static void
sections(cmark_node *root, cmark_syntax_extension *ext, struct marked *m)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type type = cmark_node_get_type(node);
		int k, table = 0;

		if (type == CMARK_NODE_DOCUMENT || type == CMARK_NODE_BLOCK_QUOTE ||
		    type == CMARK_NODE_ITEM ||
		    type == CMARK_NODE_FOOTNOTE_DEFINITION) {
			if (ev == CMARK_EVENT_ENTER)
				scope_push(m, node);
			else
				scope_leave(m, node);
		}
		if (ev != CMARK_EVENT_ENTER || m->nscopes == 0)
			continue;
		if (type == CMARK_NODE_HEADING &&
		    cmark_node_get_heading_level(node) == 2 &&
		    cmark_node_get_syntax_extension(node) == ext)
			m->scopes[m->nscopes - 1].h2id = 1;
		else if (type == CMARK_NODE_HTML_BLOCK &&
		    (k = fold_kind(ext, node)) != 0)
			k == 1 ? scope_push(m, node) : scope_leave(m, NULL);
		else if ((table = ext_block(node, "table")) != 0)
			label_cells(m, ext, node,
			    m->scopes[m->nscopes - 1].h2id);
		/* A leaf block's children are inlines, or a table's rows
		 * and cells (the pass took their anchors): no scope, fold
		 * or table is among them, so the walk steps over them. */
		if (table || type == CMARK_NODE_PARAGRAPH ||
		    type == CMARK_NODE_HEADING)
			cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
	}
	cmark_iter_free(it);
}

static void
cr(cmark_strbuf *html)
{
	if (html->size > 0 && html->ptr[html->size - 1] != '\n')
		cmark_strbuf_putc(html, '\n');
}

/* <li id="ID"> ... </li> */
static void
render_item(cmark_strbuf *html, const char *id, int entering)
{
	if (!entering) {
		cmark_strbuf_puts(html, "</li>\n");
		return;
	}
	cr(html);
	cmark_strbuf_puts(html, "<li id=\"");
	cmark_strbuf_puts(html, id);
	cmark_strbuf_puts(html, "\">");
}

/* <hN id="ID"> ... </hN> */
static void
render_heading(cmark_strbuf *html, cmark_node *node, const char *id,
    int entering)
{
	char tag[16];

	snprintf(tag, sizeof(tag), "h%d", cmark_node_get_heading_level(node));
	if (!entering) {
		cmark_strbuf_puts(html, "</");
		cmark_strbuf_puts(html, tag);
		cmark_strbuf_puts(html, ">\n");
		return;
	}
	cr(html);
	cmark_strbuf_putc(html, '<');
	cmark_strbuf_puts(html, tag);
	cmark_strbuf_puts(html, " id=\"");
	cmark_strbuf_puts(html, id);
	cmark_strbuf_puts(html, "\">");
}

/* The disputed marker; the URL was checked to be (../)*conflicts/ID. */
static void
render_marker(cmark_strbuf *html, cmark_node *link, const char *id,
    int entering)
{
	if (!entering) {
		cmark_strbuf_puts(html, "</a>");
		return;
	}
	cmark_strbuf_puts(html, "<a class=\"disputed\" href=\"");
	cmark_strbuf_puts(html, cmark_node_get_url(link));
	cmark_strbuf_puts(html, "\" aria-label=\"disputed: see conflict ");
	cmark_strbuf_puts(html, id);
	cmark_strbuf_puts(html, "\">");
}

/* Put attr="value" (value already fit for an attribute) into the first
 * "<tr", "<td" or "<table" (tag) that html holds from byte before on. */
static void
put_attr(cmark_strbuf *html, bufsize_t before, const char *tag,
    const char *attr, const char *value)
{
	bufsize_t tl = (bufsize_t)strlen(tag);
	size_t tn;
	char *tail;

	for (bufsize_t i = before; i + tl <= html->size; i++) {
		if (memcmp(html->ptr + i, tag, (size_t)tl) != 0)
			continue;
		tn = (size_t)(html->size - i - tl);
		tail = xmalloc(tn + 1);
		memcpy(tail, html->ptr + i + tl, tn);
		cmark_strbuf_truncate(html, i + tl);
		cmark_strbuf_putc(html, ' ');
		cmark_strbuf_puts(html, attr);
		cmark_strbuf_puts(html, "=\"");
		cmark_strbuf_puts(html, value);
		cmark_strbuf_putc(html, '"');
		cmark_strbuf_put(html, (unsigned char *)tail, (bufsize_t)tn);
		free(tail);
		return;
	}
}

/* 1 when node is a block (not NULL), else 0. */
static int
is_block(cmark_node *node)
{
	return node != NULL && (cmark_node_get_type(node) &
	    CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
}

/*
 * Let the table extension render node, a table, row or cell the pass
 * marked with value (already fit for an attribute), then put it into
 * the tag it wrote: a table's class="value" into its "<table", a row's
 * id="value" into its "<tr", a cell's data-label="value" into its "<td".
 */
static void
render_table_part(cmark_syntax_extension *table, cmark_html_renderer *r,
    cmark_node *node, const char *value, cmark_event_type ev, int options)
{
	bufsize_t before = r->html->size;
	cmark_node *first = cmark_node_first_child(node);

	table->html_render_func(table, r, node, ev, options);
	if (ev != CMARK_EVENT_ENTER)
		return;
	/* Marked, none names its type: a table holds rows, a row cells
	 * (blocks both); a cell holds inlines or nothing. */
	if (!is_block(first))
		put_attr(r->html, before, "<td", "data-label", value);
	else if (is_block(cmark_node_first_child(first)))
		put_attr(r->html, before, "<table", "class", value);
	else
		put_attr(r->html, before, "<tr", "id", value);
}

/* A code block as cmark-gfm writes it (no sourcepos; the info's first
 * word as class "language-WORD"), its words kept ((i) in markdown.h). */
static void
render_code_block(cmark_strbuf *html, cmark_node *node)
{
	const char *info = cmark_node_get_fence_info(node);
	const char *lit = cmark_node_get_literal(node);
	size_t n = 0;

	while (info != NULL && info[n] != '\0' && !is_gap(info[n]))
		n++;
	cr(html);
	if (n == 0) {
		cmark_strbuf_puts(html, "<pre><code>");
	} else {
		cmark_strbuf_puts(html, "<pre><code class=\"language-");
		houdini_escape_html0(html, (const uint8_t *)info,
		    (bufsize_t)n, 0);
		cmark_strbuf_puts(html, "\">");
	}
	kept_words(html, lit, strlen(lit), KEEP_STRICT);
	cmark_strbuf_puts(html, "</code></pre>\n");
}

/* The html_render callback for the nodes the pass marked. */
static void
render_marked(cmark_syntax_extension *ext, cmark_html_renderer *r,
    cmark_node *node, cmark_event_type ev, int options)
{
	cmark_syntax_extension *table = cmark_syntax_extension_get_private(ext);
	const char *id = cmark_node_get_user_data(node);
	int entering = ev == CMARK_EVENT_ENTER;

	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_HEADING:
		render_heading(r->html, node, id, entering);
		break;
	case CMARK_NODE_ITEM:
		render_item(r->html, id, entering);
		break;
	case CMARK_NODE_LINK:
		render_marker(r->html, node, id, entering);
		break;
	case CMARK_NODE_HTML_BLOCK:     /* a figure: its HTML, as it is */
		cr(r->html);
		cmark_strbuf_puts(r->html, id);
		break;
	case CMARK_NODE_TEXT:   /* words kept whole: (i) in markdown.h */
		kept_words(r->html, cmark_node_get_literal(node),
		    strlen(cmark_node_get_literal(node)), (enum keep_mode)id[0]);
		break;
	case CMARK_NODE_CODE_BLOCK:
		render_code_block(r->html, node);
		break;
	default:   /* a table, row or cell: all else the pass marks */
		if (table != NULL && table->html_render_func != NULL)
			render_table_part(table, r, node, id, ev, options);
		break;
	}
}

/*
 * cmark-gfm's allocations for one page go to an arena (render/arena.h):
 * its thousands of nodes, strings and buffers would each cost a malloc
 * and a free. cmark_mem's functions take no context, so
 * the arena is the thread's: made on its first page, reset after each
 * (its first chunks kept), freed when the thread ends.
 */
static _Thread_local struct arena *page_arena;
static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;

static void
arena_drop(void *p)
{
	arena_free(p);
	free(p);
}

static void
arena_key_make(void)
{
	if (pthread_key_create(&arena_key, arena_drop) != 0)
		abort();        /* only when the process is out of keys */
}

/* The thread's arena, made on first use. */
static struct arena *
thread_arena(void)
{
	(void)pthread_once(&arena_once, arena_key_make);
	if (page_arena == NULL) {
		page_arena = xmalloc(sizeof(*page_arena));
		arena_init(page_arena);
		(void)pthread_setspecific(arena_key, page_arena);
	}
	return page_arena;
}

static void *
arena_cmark_calloc(size_t nmemb, size_t size)
{
	return arena_calloc(page_arena, nmemb, size);
}

static void *
arena_cmark_realloc(void *p, size_t n)
{
	return arena_realloc(page_arena, p, n);
}

static void
arena_cmark_free(void *p)
{
	arena_block_free(page_arena, p);
}

static cmark_mem arena_mem = { arena_cmark_calloc, arena_cmark_realloc,
    arena_cmark_free };

/* Register cmark-gfm's core extensions, once per process. */
static void
register_extensions(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

/* A parser with the GFM extensions attached, or NULL naming the one
 * that is missing. */
static cmark_parser *
new_parser(int options, cmark_mem *mem, const char *name,
    mirror_error *err)
{
	/* No "autolink" nor "strikethrough": see markdown.h. */
	static const char *const exts[] = { "table", "tagfilter" };
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	cmark_parser *parser;

	/* cmark-gfm registers them behind an unlocked flag: two render
	 * workers doing it at once registered the table extension twice,
	 * and its node types no longer matched (an abort in table.c's
	 * html_render, seen in t_concurrency). */
	(void)pthread_once(&once, register_extensions);
	parser = cmark_parser_new_with_mem(options, mem);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e;

		e = cmark_find_syntax_extension(exts[i]);
		if (e == NULL) {
			cmark_parser_free(parser);
			(void)mirror_fail(err, MIRROR_EIO, "%s: cmark-gfm "
			    "lacks the %s extension", name, exts[i]);
			return NULL;
		}
		cmark_parser_attach_syntax_extension(parser, e);
	}
	return parser;
}

/* 1 when s holds a character that is more than a separator between
 * links: not whitespace, nor one of the punctuation marks of a nav line. */
static int
own_text(const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr(" \t\n|,;:()", *s) != NULL)
			continue;
		if (strncmp(s, "\xc2\xb7", 2) == 0) {      /* U+00B7 middle dot */
			s++;
			continue;
		}
		return 1;
	}
	return 0;
}

/* What para_text found in a paragraph. */
#define PARA_OWN 1       /* text outside links (own_text) */
#define PARA_LINKS 2     /* at least one link */

/*
 * The text of paragraph para into sb (spaces for line breaks, no raw
 * HTML). Returns PARA_OWN and PARA_LINKS or'ed as they hold: a line of
 * links and separators alone, such as a page's nav line, is PARA_LINKS.
 */
static int
para_text(strbuf *sb, cmark_node *para)
{
	cmark_iter *it = cmark_iter_new(para);
	cmark_event_type ev;
	int links = 0, found = 0;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *lit;

		if (t == CMARK_NODE_LINK) {
			links += ev == CMARK_EVENT_ENTER ? 1 : -1;
			found |= PARA_LINKS;
			continue;
		}
		if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) {
			strbuf_putc(sb, ' ');
			continue;
		}
		if (t != CMARK_NODE_TEXT && t != CMARK_NODE_CODE)
			continue;
		lit = cmark_node_get_literal(n);
		if (lit == NULL)
			continue;
		strbuf_puts(sb, lit);
		if (links == 0 && own_text(lit))
			found |= PARA_OWN;
	}
	cmark_iter_free(it);
	return found;
}

/*
 * How well paragraph p (top-level when top) sums a page up, its text
 * into sb: 1 a top-level paragraph without links, 2 the first paragraph
 * of a list item without links, 3 any with text outside links, 0 none.
 */
static int
para_rank(strbuf *sb, cmark_node *p, int top)
{
	int f;

	strbuf_reset(sb);
	f = para_text(sb, p);
	if (!(f & PARA_OWN))
		return 0;
	if (!(f & PARA_LINKS))
		return top ? 1 : 2;
	return 3;
}

/*
 * The best summary of doc into best (para_rank; the earliest of a rank):
 * first in the page's lead, the blocks before its first heading below
 * the title, then anywhere at the top level.
 */
static void
best_paragraph(strbuf *best, cmark_node *doc)
{
	int rank = 4, r;
	strbuf t;

	strbuf_init(&t);
	for (cmark_node *n = cmark_node_first_child(doc); n != NULL &&
	    rank > 1; n = cmark_node_next(n)) {
		cmark_node_type ty = cmark_node_get_type(n);

		if (ty == CMARK_NODE_HEADING && cmark_node_get_heading_level(n) > 1)
			break;
		if (ty == CMARK_NODE_PARAGRAPH)
			r = para_rank(&t, n, 1);
		else if (ty == CMARK_NODE_LIST && cmark_node_first_child(n) &&
		    cmark_node_get_type(cmark_node_first_child(
		    cmark_node_first_child(n))) == CMARK_NODE_PARAGRAPH)
			r = para_rank(&t, cmark_node_first_child(
			    cmark_node_first_child(n)), 0);
		else
			continue;
		if (r > 0 && r < rank) {
			rank = r;
			strbuf_reset(best);
			strbuf_add(best, t.data, t.len);
		}
	}
	for (cmark_node *n = cmark_node_first_child(doc); n != NULL &&
	    rank == 4; n = cmark_node_next(n))
		if (cmark_node_get_type(n) == CMARK_NODE_PARAGRAPH &&
		    para_rank(&t, n, 1) > 0) {
			rank = 3;
			strbuf_add(best, t.data, t.len);
		}
	strbuf_free(&t);
}

/*
 * The page's summary into sum: best_paragraph's text, whitespace
 * collapsed, cut at a word before MARKDOWN_SUMMARY_MAX bytes with "…".
 * Nothing when no paragraph has text of its own.
 */
static void
summarise(strbuf *sum, cmark_node *doc)
{
	strbuf t;
	size_t j = 0, cut = 0;

	strbuf_init(&t);
	best_paragraph(&t, doc);
	for (size_t i = 0; i < t.len; i++) {      /* collapse whitespace */
		int sp = t.data[i] == ' ' || t.data[i] == '\t' ||
		    t.data[i] == '\n';

		if (sp && (j == 0 || t.data[j - 1] == ' '))
			continue;
		t.data[j++] = sp ? ' ' : t.data[i];
	}
	while (j > 0 && t.data[j - 1] == ' ')
		j--;
	if (j > MARKDOWN_SUMMARY_MAX) {
		for (size_t i = 0; i < MARKDOWN_SUMMARY_MAX; i++)
			if (t.data[i] == ' ')
				cut = i;
		if (cut == 0)      /* one long word: at a character's start */
			for (cut = MARKDOWN_SUMMARY_MAX;
			    ((unsigned char)t.data[cut] & 0xc0) == 0x80; cut--)
				;
		strbuf_add(sum, t.data, cut);
		strbuf_puts(sum, "\xe2\x80\xa6");
	} else {
		strbuf_add(sum, t.data, j);
	}
	strbuf_free(&t);
}

int
markdown_to_html(strbuf *sb, const char *md, size_t len, const char *name,
    mirror_error *err)
{
	return markdown_render(sb, NULL, &(struct md_source){ .md = md,
	    .len = len, .name = name }, err);
}

int
markdown_render(strbuf *sb, strbuf *summary, const struct md_source *src,
    mirror_error *err)
{
	const char *name = src->name;
	const int options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
	cmark_syntax_extension *mine;
	cmark_parser *parser;
	struct marked m = { .kinds = src->kinds };
	cmark_node *doc;
	/* Every block of the parse, the tree and the HTML lives until the
	 * arena's reset below: cmark's own frees only reuse the newest.
	 * A long page (an index of 10,000 projects) is parsed with malloc
	 * instead: what cmark frees while it works would otherwise stay
	 * until the page is done. */
	cmark_mem *mem = src->len <= MARKDOWN_ARENA_MAX ? &arena_mem :
	    cmark_get_default_mem_allocator();
	struct arena *arena = thread_arena();
	char *html;
	int rc = 0;

	if (src->toc != NULL)
		*src->toc = 0;
	if ((parser = new_parser(options, mem, name, err)) == NULL) {
		rc = -MIRROR_EIO;
		goto done;
	}
	/* No lock: the parser's extensions (new_parser) add no inline
	 * special characters to cmark-gfm's process-wide table, so parses
	 * on the render's workers never change what another reads. */
	cmark_parser_feed(parser, src->md, src->len);
	doc = cmark_parser_finish(parser);
	if (doc == NULL) {
		cmark_parser_free(parser);
		rc = mirror_fail(err, MIRROR_EIO, "%s: cmark-gfm cannot "
		    "parse the page", name);
		goto done;
	}
	mine = cmark_syntax_extension_new("mirror-ids");
	cmark_syntax_extension_set_html_render_func(mine, render_marked);
	cmark_syntax_extension_set_private(mine,
	    cmark_find_syntax_extension("table"), NULL);
	if (summary != NULL)
		summarise(summary, doc);
	/* One text node a run of text: (i) sees a token whole. */
	cmark_consolidate_text_nodes(doc);
	pass(doc, mine, &m, src->figs, src->nfigs);
	keep_pass(doc, mine, &m);
	sections(doc, mine, &m);
	if (src->toc != NULL)
		*src->toc = m.toc;
	html = cmark_render_html(doc, options,
	    cmark_parser_get_syntax_extensions(parser));
	unmark(&m);
	cmark_node_free(doc);
	cmark_parser_free(parser);
	cmark_syntax_extension_free(cmark_get_default_mem_allocator(), mine);
	if (html == NULL)
		rc = mirror_fail(err, MIRROR_EIO, "%s: cmark-gfm cannot "
		    "render the page", name);
	else
		strbuf_puts(sb, html);
	mem->free(html);
done:
	arena_reset(arena);
	return rc;
}

int
markdown_table_labels(char ***labels, size_t *n, const char *md, size_t len,
    mirror_error *err)
{
	const int options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
	cmark_parser *parser;
	cmark_node *doc, *table = NULL;
	int rc = 0;

	*labels = NULL;
	*n = 0;
	parser = new_parser(options, cmark_get_default_mem_allocator(),
	    "a template's table", err);
	if (parser == NULL)
		return -MIRROR_EIO;
	cmark_parser_feed(parser, md, len);
	doc = cmark_parser_finish(parser);
	if (doc == NULL) {
		cmark_parser_free(parser);
		return mirror_fail(err, MIRROR_EIO, "cmark-gfm cannot parse "
		    "a template's table");
	}
	for (cmark_node *b = cmark_node_first_child(doc); b != NULL &&
	    table == NULL; b = cmark_node_next(b))
		if (strcmp(cmark_node_get_type_string(b), "table") == 0)
			table = b;
	if (table != NULL && cmark_node_first_child(table) != NULL) {
		header_texts(labels, n, cmark_node_first_child(table));
		rc = 1;
	}
	cmark_node_free(doc);
	cmark_parser_free(parser);
	return rc;
}
