/*
 * diagram.c: a tree as an SVG picture (see diagram.h).
 *
 * Layout, in user units: column c (a depth) starts at PAD + c * (W +
 * GAP); every node is a W x H box; leaves take rows in pre-order, one
 * every H + VGAP; a parent sits centred between its first and last
 * child, which stays inside its children's rows (they are at least H
 * tall), so no two boxes overlap. A line runs from the right of each
 * parent to the left of each child, with its bend halfway across the
 * gap. All coordinates are integers: the bytes never depend on
 * floating point.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/diagram.h"
#include "render/escape.h"
#include "render/slug.h"
#include "util/text.h"
#include "util/xalloc.h"

#define PAD 2
#define W 196
#define H 42
#define GAP 28
#define VGAP 10
#define TOOLTIP_BYTES 300

/* One node's place, and its parent (SIZE_MAX for a root). */
struct place {
	size_t depth, parent;
	long top;
};

/*
 * Depths made consistent (a node at most one below the previous) and
 * each node's parent: the nearest earlier node one level up. Returns the
 * deepest depth.
 */
static size_t
depths(struct place *p, const struct diagram *d)
{
	size_t deepest = 0;
	size_t *last_at = xcalloc(d->n + 1, sizeof(*last_at));

	/* last_at[i]: the latest node at depth i, for every i up to the
	 * previous node's depth (a node is at most one below it). */
	for (size_t k = 0; k < d->n; k++) {
		size_t dep = d->nodes[k].depth;

		if (k == 0)
			dep = 0;
		else if (dep > p[k - 1].depth + 1)
			dep = p[k - 1].depth + 1;
		p[k].depth = dep;
		p[k].parent = dep > 0 ? last_at[dep - 1] : SIZE_MAX;
		last_at[dep] = k;
		if (dep > deepest)
			deepest = dep;
	}
	free(last_at);
	return deepest;
}

/*
 * Rows: a leaf (no next node deeper than it) takes the next row; then,
 * from the last node back, each parent is centred on its children. The
 * first and last child of k are the nearest later nodes whose parent is
 * k. Returns the number of rows.
 */
static long
rows(struct place *p, size_t n)
{
	long row = 0;
	long *first = xcalloc(n + 1, sizeof(*first));
	long *last = xcalloc(n + 1, sizeof(*last));

	for (size_t k = 0; k < n; k++) {
		first[k] = -1;
		if (k + 1 >= n || p[k + 1].depth <= p[k].depth)
			p[k].top = row++ * (H + VGAP);
	}
	for (size_t k = n; k-- > 0;) {
		size_t q = p[k].parent;

		if (first[k] >= 0)
			p[k].top = (first[k] + last[k]) / 2;
		if (q == SIZE_MAX)
			continue;
		/* Walking back, the first child seen is the last one. */
		if (first[q] < 0)
			last[q] = p[k].top;
		first[q] = p[k].top;
	}
	free(first);
	free(last);
	return row;
}

/* Append s, cleaned, on one line, cut at chars, XML-escaped. */
static void
text_esc(strbuf *sb, const char *s, size_t chars, size_t max)
{
	strbuf line;

	strbuf_init(&line);
	text_line(&line, s, s != NULL ? strlen(s) : 0, max, chars);
	escape_html(sb, line.data != NULL ? line.data : "", line.len);
	strbuf_free(&line);
}

static long
col_x(size_t depth)
{
	return PAD + (long)depth * (W + GAP);
}

/* The elbow line from p[k]'s parent to p[k]. */
static void
edge(strbuf *sb, const struct place *p, size_t k)
{
	const struct place *q = &p[p[k].parent];
	long x0 = col_x(q->depth) + W, y0 = PAD + q->top + H / 2;
	long x1 = col_x(p[k].depth), y1 = PAD + p[k].top + H / 2;

	strbuf_printf(sb, "<path d=\"M%ld %ldH%ldV%ldH%ld\"/>\n", x0, y0,
	    x0 + GAP / 2, y1, x1);
}

/* The <g> of a node, with its classes. */
static void
group_open(strbuf *sb, const struct diagram_node *nd, int kind, int link)
{
	strbuf_printf(sb, "<g class=\"diagram-node%s%s%s\"%s>",
	    kind ? " diagram-" : "", kind ? nd->kind : "",
	    link ? " diagram-disputed" : "", link ? "" :
	    " aria-hidden=\"true\"");
}

/* One node: its box, its label and detail, its tooltip; a link when it
 * has an href. */
static void
node(strbuf *sb, const struct diagram *d, const struct place *p, size_t k)
{
	const struct diagram_node *nd = &d->nodes[k];
	long x = col_x(p[k].depth), y = PAD + p[k].top;
	int link = nd->href != NULL && nd->href[0] != '\0';
	int kind = nd->kind != NULL && slug_alphabet_only(nd->kind,
	    strlen(nd->kind));

	if (link) {
		strbuf_puts(sb, "<a href=\"");
		escape_html(sb, nd->href, strlen(nd->href));
		strbuf_puts(sb, "\">");
	}
	/* A link's title (its child) names it; any other node's title is
	 * its box's tooltip. */
	if (!link)
		group_open(sb, nd, kind, link);
	strbuf_puts(sb, "<title>");
	if (link)
		strbuf_puts(sb, "\xe2\x9a\xa0 disputed: ");
	text_esc(sb, nd->label, 0, TOOLTIP_BYTES);
	if (nd->detail != NULL && nd->detail[0] != '\0') {
		strbuf_puts(sb, " (");
		text_esc(sb, nd->detail, 0, TOOLTIP_BYTES);
		strbuf_puts(sb, ")");
	}
	strbuf_puts(sb, link ? "; see its conflict</title>" : "</title>");
	if (link)
		group_open(sb, nd, kind, link);
	strbuf_printf(sb, "<rect x=\"%ld\" y=\"%ld\" width=\"%d\" "
	    "height=\"%d\" rx=\"6\" fill=\"none\" "
	    "stroke=\"currentColor\"%s/>", x, y, W, H,
	    link ? " stroke-width=\"2.5\"" : "");
	strbuf_printf(sb, "<text x=\"%ld\" y=\"%ld\" font-size=\"13\" "
	    "font-weight=\"600\" fill=\"currentColor\" clip-path=\"url(#%s-clip-%zu)\">",
	    x + 8, y + 17, d->id, p[k].depth);
	if (link)
		strbuf_puts(sb, "\xe2\x9a\xa0 ");
	text_esc(sb, nd->label, DIAGRAM_LABEL_CHARS - (link ? 2 : 0), 0);
	/* A line between the texts: a text browser shows them apart. */
	strbuf_puts(sb, "</text>\n");
	if (nd->detail != NULL && nd->detail[0] != '\0') {
		strbuf_printf(sb, "<text x=\"%ld\" y=\"%ld\" font-size=\"11\" "
		    "fill=\"currentColor\" clip-path=\"url(#%s-clip-%zu)\">", x + 8, y + 34,
		    d->id, p[k].depth);
		text_esc(sb, nd->detail, DIAGRAM_DETAIL_CHARS, 0);
		strbuf_puts(sb, "</text>\n");
	}
	strbuf_puts(sb, link ? "</g></a>\n" : "</g>\n");
}

/* 1 when some node links. */
static int
any_link(const struct diagram *d)
{
	for (size_t k = 0; k < d->n; k++)
		if (d->nodes[k].href != NULL && d->nodes[k].href[0] != '\0')
			return 1;
	return 0;
}

/* The <svg> start tag, its title and one clip path per column (text
 * never runs out of its box). */
static void
head(strbuf *sb, const struct diagram *d, long w, long h, size_t deepest)
{
	strbuf_printf(sb, "<svg class=\"diagram\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %ld %ld\" "
	    "width=\"%ld\" height=\"%ld\" role=\"%s\" "
	    "aria-labelledby=\"%s-title\" "
	    "font-family=\"system-ui, sans-serif\">\n", w, h, w, h,
	    any_link(d) ? "group" : "img", d->id);
	strbuf_printf(sb, "<title id=\"%s-title\">", d->id);
	text_esc(sb, d->title, 0, 0);
	strbuf_puts(sb, "</title>\n<defs>");
	for (size_t c = 0; c <= deepest; c++)
		strbuf_printf(sb, "<clipPath id=\"%s-clip-%zu\"><rect "
		    "x=\"%ld\" y=\"0\" width=\"%d\" height=\"%ld\"/>"
		    "</clipPath>", d->id, c, col_x(c), W - 6, h);
	strbuf_puts(sb, "</defs>\n");
}

void
diagram_svg(strbuf *sb, const struct diagram *d)
{
	struct place *p;
	size_t deepest;
	long n_rows, w, h;

	if (d->n == 0)
		return;
	p = xcalloc(d->n, sizeof(*p));
	deepest = depths(p, d);
	n_rows = rows(p, d->n);
	w = 2 * PAD + (long)(deepest + 1) * W + (long)deepest * GAP;
	h = 2 * PAD + n_rows * (H + VGAP) - VGAP;
	head(sb, d, w, h, deepest);
	strbuf_puts(sb, "<g class=\"diagram-edge\" fill=\"none\" "
	    "stroke=\"currentColor\" aria-hidden=\"true\">\n");
	for (size_t k = 0; k < d->n; k++)
		if (p[k].parent != SIZE_MAX)
			edge(sb, p, k);
	strbuf_puts(sb, "</g>\n");
	for (size_t k = 0; k < d->n; k++)
		node(sb, d, p, k);
	strbuf_puts(sb, "</svg>");
	free(p);
}
