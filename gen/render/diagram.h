/*
 * diagram.h: a tree as an SVG picture (a project's system architecture:
 * systems, subsystems, components and their materials).
 *
 * A pure function of a small struct: the nodes in pre-order, each with
 * its depth, laid out as a layered tree from left to right (one column
 * per depth, a parent centred on its children, elbow lines between
 * them). The same input gives the same bytes. Every text is cleaned
 * (util/text.h), XML-escaped (store text never becomes markup) and
 * wrapped onto lines (<tspan>s) that fit the column's width, at spaces,
 * after "-" or "/", inside a word only when the word alone is wider than
 * the line: nothing is cut but a text longer than DIAGRAM_*_LINES lines,
 * whose last line then ends in "…" (the whole text, capped, is the
 * node's tooltip). Widths come from a table of glyph widths as wide as
 * DejaVu Sans Bold's, so a text fits with any common sans-serif font.
 * Each box is as tall as its lines.
 *
 * The SVG keeps its natural size (width and height as in its viewBox):
 * its texts are 13 and 12 px, and the page scrolls the picture sideways
 * on a narrow screen rather than shrink it (render it inside a keyboard
 * accessible scrolling region). Colours are currentColor and "none" as
 * presentation attributes (what all texts share, fill and the 12 px
 * size, once on the <svg>, inherited; a text of one line is one
 * <text> with its x and y, no <tspan>), which a theme's CSS overrides
 * through the classes: diagram, diagram-edge, diagram-node, diagram-<kind>,
 * diagram-disputed, and on the texts diagram-label, diagram-detail,
 * diagram-dispute. A node with an href is a link (a disputed node's
 * conflict page) and shows a last line "⚠ disputed: WHAT" (WHAT its
 * disputed field, else the line is "⚠ disputed"); links need the SVG to
 * be role="group" (an img's children are presentational to assistive
 * technology), so it is role="img" only when no node links; everything
 * but the links is aria-hidden, the title names the picture.
 */
#ifndef MIRROR_DIAGRAM_H
#define MIRROR_DIAGRAM_H

#include <stddef.h>

#include "util/strbuf.h"

/* Most lines drawn of a label, a detail and a dispute; a text longer
 * than that ends its last line with "…". */
#define DIAGRAM_LABEL_LINES 6
#define DIAGRAM_DETAIL_LINES 6
#define DIAGRAM_DISPUTE_LINES 4

struct diagram_node {
	const char *label;      /* first lines, bold: a name */
	const char *detail;     /* next lines, or NULL / "": none */
	const char *kind;       /* class suffix, [a-z0-9-]+ ("component");
	                           anything else is left out */
	const char *href;       /* NULL, or a URL the caller made from slugs
	                           (escaped all the same): the node links */
	size_t depth;           /* 0 for a root; more than one below the
	                           previous node's depth counts as one below */
	const char *disputed;   /* with href: what is disputed ("lateral
	                           support material"), or NULL / "" */
};

struct diagram {
	const char *id;         /* element id prefix, [a-z0-9-]+ */
	const char *title;      /* the picture's accessible name */
	const struct diagram_node *nodes;   /* in pre-order */
	size_t n;
};

/*
 * Append d as one <svg> element to sb. n == 0 appends nothing. Never
 * fails (memory: xalloc). Linear in the nodes and their text.
 */
void diagram_svg(strbuf *sb, const struct diagram *d);

/* The width in px of the <svg> diagram_svg writes for d (0: n == 0). */
long diagram_width(const struct diagram *d);

/* The widest diagram a phone 390 px wide shows whole (its page column,
 * 390 px less the theme's margins); a wider one scrolls sideways. */
#define DIAGRAM_PHONE_PX 358

#endif
