/*
 * diagram.c: a tree as an SVG picture (see diagram.h).
 *
 * Layout, in user units: column c (a depth) starts at PAD + c * (W +
 * GAP); every node is a box W wide and as tall as its lines (LINE apart,
 * FIRST from the top to the first baseline, BOTTOM below the last).
 * Going through the nodes in pre-order, a leaf takes the next place down
 * the page, VGAP below the previous subtree; a parent, once its subtree
 * is done, is centred on its first and last child; when it is taller
 * than its children's span its children move down (a shift applied to
 * the whole subtree at the end), so its box starts where its subtree
 * does and no two boxes of a column overlap. A line runs from the right
 * of each parent to the left of each child, with its bend halfway
 * across the gap. All coordinates and widths are integers: the bytes
 * never depend on floating point.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/diagram.h"
#include "render/escape.h"
#include "render/slug.h"
#include "util/text.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define PAD 2
#define W 196
#define GAP 28
#define VGAP 10
#define INSET 8                 /* text from the box's left and right */
#define LINE 16                 /* baseline to baseline */
#define FIRST 18                /* box top to the first baseline */
#define BOTTOM 8                /* last baseline to the box's bottom */
#define LABEL_PX 13
#define SMALL_PX 12
#define TEXT_BYTES 1200         /* a text's bytes read before wrapping */
#define TOOLTIP_BYTES 300
#define ELLIPSIS "\xe2\x80\xa6"
#define WARN "\xe2\x9a\xa0"

/* One node's place, its parent (SIZE_MAX for a root), its last child
 * (SIZE_MAX: a leaf), its height, and the shift of its descendants. */
struct place {
	size_t depth, parent, last;
	long top, start, h, shift;
};

/* A node's texts wrapped: lines joined by '\n' (cleaned text has no
 * newline), and their count. */
struct lines {
	strbuf text[3];         /* label, detail, dispute */
	size_t n[3];
};

/*
 * DejaVu Sans Bold's advance widths of ASCII ' ' to '~', in thousandths
 * of an em: the widest common sans-serif, so a line measured with them
 * fits in any other.
 */
static const unsigned short ascii_w[95] = {
	348, 438, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380,
	415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696,
	400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683,
	821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720,
	682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500,
	675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042,
	712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582,
	712, 365, 712, 838 };

/* The width of code point c in thousandths of an em: ASCII from the
 * table, marks and joiners none, an emoji 1.3 em, anything else 1 em
 * (a CJK ideograph's width; more than any Latin letter but Œ). */
static long
glyph_w(int32_t c)
{
	if (c >= 0x20 && c < 0x7f)
		return ascii_w[c - 0x20];
	if ((c >= 0x300 && c < 0x370) || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	if (c >= 0x1f000)
		return 1300;
	return c == 0x152 || c == 0x153 ? 1200 : 1000;
}

/* The room for text of px pixels on a line, in thousandths of an em,
 * less 4% for the rounding of a font's hinting. */
static long
room(int px)
{
	return (long)(W - 2 * INSET) * 1000 * 96 / 100 / px;
}

/* The width of s[0..len) (valid UTF-8). */
static long
width(const char *s, size_t len)
{
	long w = 0;
	int32_t c;

	for (size_t i = 0; i < len; w += glyph_w(c))
		i += utf8_decode(&c, (const unsigned char *)s + i, len - i);
	return w;
}

/*
 * The end of the line that starts at s[0] and fits in avail, into *end,
 * and where the next line starts, returned: the whole rest when it fits;
 * else up to the last space (dropped), "-" or "/" that fits; else as
 * many characters as fit, at least one.
 */
static size_t
line_end(const char *s, size_t len, long avail, size_t *end)
{
	size_t i = 0, brk = 0, next = 0;
	long w = 0;
	int32_t c;

	while (i < len) {
		size_t k = utf8_decode(&c, (const unsigned char *)s + i,
		    len - i);

		if (w + glyph_w(c) > avail && i > 0) {
			if (c == ' ') {
				*end = i;
				return i + 1;
			}
			break;
		}
		w += glyph_w(c);
		i += k;
		if (c == ' ') {
			brk = i - 1;
			next = i;
		} else if (c == '-' || c == '/') {
			brk = next = i;
		}
	}
	if (i >= len || brk == 0) {
		*end = i;
		return i;
	}
	*end = brk;
	return next;
}

/*
 * s cleaned onto one line, wrapped into lines of at most avail, appended
 * to out joined by '\n'; at most max lines, the last ending in "…" when
 * text is left over. Returns the number of lines (0 for no text).
 */
static size_t
wrap(strbuf *out, const char *s, long avail, size_t max)
{
	strbuf one;
	size_t pos = 0, n = 0, len, end, next;

	strbuf_init(&one);
	text_line(&one, s, s != NULL ? strlen(s) : 0, TEXT_BYTES, 0);
	len = one.len;
	while (pos < len && n < max) {
		const char *p = one.data + pos;

		next = pos + line_end(p, len - pos, avail, &end);
		if (n + 1 == max && next < len)
			next = pos + line_end(p, len - pos, avail -
			    width(ELLIPSIS, 3), &end);
		while (end > 0 && p[end - 1] == ' ')
			end--;
		if (n++ > 0)
			strbuf_putc(out, '\n');
		strbuf_add(out, p, end);
		if (n == max && next < len)
			strbuf_puts(out, ELLIPSIS);
		pos = next;
		while (pos < len && one.data[pos] == ' ')
			pos++;
	}
	strbuf_free(&one);
	return n;
}

/* Node nd's texts wrapped into ln; returns its box's height. */
static long
node_lines(struct lines *ln, const struct diagram_node *nd, int link)
{
	size_t total;

	for (int i = 0; i < 3; i++)
		strbuf_init(&ln->text[i]);
	ln->n[0] = wrap(&ln->text[0], nd->label, room(LABEL_PX),
	    DIAGRAM_LABEL_LINES);
	ln->n[1] = wrap(&ln->text[1], nd->detail, room(SMALL_PX),
	    DIAGRAM_DETAIL_LINES);
	ln->n[2] = 0;
	if (link) {
		strbuf what;

		strbuf_init(&what);
		strbuf_puts(&what, WARN " disputed");
		if (nd->disputed != NULL && nd->disputed[0] != '\0') {
			strbuf_puts(&what, ": ");
			strbuf_puts(&what, nd->disputed);
		}
		ln->n[2] = wrap(&ln->text[2], what.data, room(SMALL_PX),
		    DIAGRAM_DISPUTE_LINES);
		strbuf_free(&what);
	}
	total = ln->n[0] + ln->n[1] + ln->n[2];
	if (total == 0)
		total = 1;
	return FIRST + (long)(total - 1) * LINE + BOTTOM;
}

/* 1 when node nd links. */
static int
is_link(const struct diagram_node *nd)
{
	return nd->href != NULL && nd->href[0] != '\0';
}

/*
 * Depths made consistent (a node at most one below the previous) and
 * each node's parent: the nearest earlier node one level up; each
 * parent's last child. Returns the deepest depth.
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
		p[k].last = SIZE_MAX;
		p[k].parent = dep > 0 ? last_at[dep - 1] : SIZE_MAX;
		if (p[k].parent != SIZE_MAX)
			p[p[k].parent].last = k;
		last_at[dep] = k;
		if (dep > deepest)
			deepest = dep;
	}
	free(last_at);
	return deepest;
}

/*
 * Node k's subtree is done, its first free place down the page at
 * *cursor: place k (see the top of the file) and move *cursor below the
 * subtree.
 */
static void
close_node(struct place *p, size_t k, long *cursor)
{
	const struct place *a, *b;
	long mid, bottom;

	if (p[k].last == SIZE_MAX) {
		p[k].top = p[k].start;
		*cursor = p[k].start + p[k].h + VGAP;
		return;
	}
	a = &p[k + 1];
	b = &p[p[k].last];
	mid = (a->top + a->h / 2 + b->top + b->h / 2) / 2;
	p[k].top = mid - p[k].h / 2;
	bottom = *cursor - VGAP;
	if (p[k].top < p[k].start) {
		p[k].shift = p[k].start - p[k].top;
		p[k].top = p[k].start;
		bottom += p[k].shift;
	}
	if (p[k].top + p[k].h > bottom)
		bottom = p[k].top + p[k].h;
	*cursor = bottom + VGAP;
}

/*
 * Every node's top: subtrees closed in post-order (a stack of the open
 * ones), then each node moved by its ancestors' shifts. Returns the
 * height of the whole.
 */
static long
layout(struct place *p, size_t n)
{
	size_t *stack = xcalloc(n + 1, sizeof(*stack));
	long *moved = xcalloc(n + 1, sizeof(*moved));
	size_t sp = 0;
	long cursor = 0;

	for (size_t k = 0; k <= n; k++) {
		while (sp > 0 && (k == n || p[stack[sp - 1]].depth >=
		    p[k].depth))
			close_node(p, stack[--sp], &cursor);
		if (k == n)
			break;
		p[k].start = cursor;
		stack[sp++] = k;
	}
	/* Parents come before their children in pre-order. */
	for (size_t k = 0; k < n; k++) {
		size_t q = p[k].parent;

		moved[k] = q != SIZE_MAX ? moved[q] + p[q].shift : 0;
		p[k].top += moved[k];
	}
	free(stack);
	free(moved);
	return cursor - VGAP;
}

/* Append s[0..len), cleaned, on one line, capped at max bytes,
 * XML-escaped. */
static void
text_esc(strbuf *sb, const char *s, size_t max)
{
	strbuf line;

	strbuf_init(&line);
	text_line(&line, s, s != NULL ? strlen(s) : 0, max, 0);
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
	long x0 = col_x(q->depth) + W, y0 = PAD + q->top + q->h / 2;
	long x1 = col_x(p[k].depth), y1 = PAD + p[k].top + p[k].h / 2;

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

/* How each of a node's texts (struct lines) is set: its class, its
 * size in px and whether it is bold. */
static const struct text_style {
	const char *cls;
	int px;
	int bold;
} text_styles[3] = {
	{ .cls = "diagram-label", .px = LABEL_PX, .bold = 1 },
	{ .cls = "diagram-detail", .px = SMALL_PX, .bold = 0 },
	{ .cls = "diagram-dispute", .px = SMALL_PX, .bold = 1 },
};

/* The presentation attributes of text style ts that it does not
 * inherit from the <svg>, which sets fill and SMALL_PX for all. */
static void
text_attrs(strbuf *sb, const struct text_style *ts)
{
	if (ts->px != SMALL_PX)
		strbuf_printf(sb, " font-size=\"%d\"", ts->px);
	if (ts->bold)
		strbuf_puts(sb, " font-weight=\"600\"");
}

/*
 * A node's text k of ln, set as text_styles[k] says: one line at x on
 * baseline *y, or its lines as <tspan>s from *y down; *y moves below
 * them. A line between the texts: a text browser shows them apart.
 */
static void
text_block(strbuf *sb, const struct lines *ln, int k, long x, long *y)
{
	const struct text_style *ts = &text_styles[k];
	const char *s = ln->text[k].data;
	size_t n = ln->n[k];

	if (n == 0)
		return;
	strbuf_printf(sb, "<text class=\"%s\"", ts->cls);
	if (n == 1)
		strbuf_printf(sb, " x=\"%ld\" y=\"%ld\"", x, *y);
	text_attrs(sb, ts);
	strbuf_putc(sb, '>');
	if (n == 1) {
		escape_html(sb, s, strlen(s));
		strbuf_puts(sb, "</text>\n");
		*y += LINE;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *nl = strchr(s, '\n');
		size_t len = nl != NULL ? (size_t)(nl - s) : strlen(s);

		strbuf_printf(sb, "<tspan x=\"%ld\" y=\"%ld\">", x, *y);
		escape_html(sb, s, len);
		strbuf_puts(sb, "</tspan>");
		*y += LINE;
		s += len + (nl != NULL);
	}
	strbuf_puts(sb, "</text>\n");
}

/* A node's tooltip, or a link's name: its label and detail, and for a
 * link what is disputed. */
static void
tooltip(strbuf *sb, const struct diagram_node *nd, int link)
{
	strbuf_puts(sb, "<title>");
	text_esc(sb, nd->label, TOOLTIP_BYTES);
	if (nd->detail != NULL && nd->detail[0] != '\0') {
		strbuf_puts(sb, " (");
		text_esc(sb, nd->detail, TOOLTIP_BYTES);
		strbuf_puts(sb, ")");
	}
	if (link) {
		strbuf_puts(sb, ", " WARN " disputed");
		if (nd->disputed != NULL && nd->disputed[0] != '\0') {
			strbuf_puts(sb, ": ");
			text_esc(sb, nd->disputed, TOOLTIP_BYTES);
		}
		strbuf_puts(sb, "; see its conflict");
	}
	strbuf_puts(sb, "</title>");
}

/* One node: its box, its texts, its tooltip; a link when it has an
 * href. */
static void
node(strbuf *sb, const struct diagram_node *nd, const struct place *pk,
    const struct lines *ln)
{
	long x = col_x(pk->depth), y = PAD + pk->top, base = y + FIRST;
	int link = is_link(nd);
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
	tooltip(sb, nd, link);
	if (link)
		group_open(sb, nd, kind, link);
	strbuf_printf(sb, "<rect x=\"%ld\" y=\"%ld\" width=\"%d\" "
	    "height=\"%ld\" rx=\"6\" fill=\"none\" "
	    "stroke=\"currentColor\"%s/>\n", x, y, W, pk->h,
	    link ? " stroke-width=\"2.5\"" : "");
	for (int k = 0; k < 3; k++)
		text_block(sb, ln, k, x + INSET, &base);
	strbuf_puts(sb, link ? "</g></a>\n" : "</g>\n");
}

/* 1 when some node links. */
static int
any_link(const struct diagram *d)
{
	for (size_t k = 0; k < d->n; k++)
		if (is_link(&d->nodes[k]))
			return 1;
	return 0;
}

/* The <svg> start tag and its title. */
static void
head(strbuf *sb, const struct diagram *d, long w, long h)
{
	strbuf_printf(sb, "<svg class=\"diagram\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %ld %ld\" "
	    "width=\"%ld\" height=\"%ld\" role=\"%s\" "
	    "aria-labelledby=\"%s-title\" "
	    "font-family=\"system-ui, sans-serif\" font-size=\"%d\" "
	    "fill=\"currentColor\">\n", w, h, w, h,
	    any_link(d) ? "group" : "img", d->id, SMALL_PX);
	strbuf_printf(sb, "<title id=\"%s-title\">", d->id);
	text_esc(sb, d->title, 0);
	strbuf_puts(sb, "</title>\n");
}

/* The width of a picture whose deepest node is at depth deepest. */
static long
span_w(size_t deepest)
{
	return 2 * PAD + (long)(deepest + 1) * W + (long)deepest * GAP;
}

long
diagram_width(const struct diagram *d)
{
	struct place *p;
	size_t deepest;

	if (d->n == 0)
		return 0;
	p = xcalloc(d->n, sizeof(*p));
	deepest = depths(p, d);
	free(p);
	return span_w(deepest);
}

void
diagram_svg(strbuf *sb, const struct diagram *d)
{
	struct place *p;
	struct lines *ln;
	size_t deepest;
	long w, h;

	if (d->n == 0)
		return;
	p = xcalloc(d->n, sizeof(*p));
	ln = xcalloc(d->n, sizeof(*ln));
	deepest = depths(p, d);
	for (size_t k = 0; k < d->n; k++)
		p[k].h = node_lines(&ln[k], &d->nodes[k],
		    is_link(&d->nodes[k]));
	h = 2 * PAD + layout(p, d->n);
	w = span_w(deepest);
	head(sb, d, w, h);
	strbuf_puts(sb, "<g class=\"diagram-edge\" fill=\"none\" "
	    "stroke=\"currentColor\" aria-hidden=\"true\">\n");
	for (size_t k = 0; k < d->n; k++)
		if (p[k].parent != SIZE_MAX)
			edge(sb, p, k);
	strbuf_puts(sb, "</g>\n");
	for (size_t k = 0; k < d->n; k++) {
		node(sb, &d->nodes[k], &p[k], &ln[k]);
		for (int i = 0; i < 3; i++)
			strbuf_free(&ln[k].text[i]);
	}
	strbuf_puts(sb, "</svg>");
	free(ln);
	free(p);
}
