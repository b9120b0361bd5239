/*
 * diagram.h: a tree as an SVG picture (a project's system architecture:
 * systems, subsystems, components and their materials).
 *
 * A pure function of a small struct: the nodes in pre-order, each with
 * its depth, laid out as a layered tree from left to right (one column
 * per depth, every leaf on a row of its own, a parent centred on its
 * children, elbow lines between them). The same input gives the same
 * bytes. Every label is cleaned (util/text.h), cut to a length that fits
 * its box ("…" marks the cut; the whole label, capped, is the node's
 * tooltip) and XML-escaped, so store text can never become markup.
 *
 * The SVG scales: a viewBox, with width and height as its natural size,
 * so CSS (max-width: 100%) shrinks it on a phone. Colours are
 * currentColor and "none" as presentation attributes, which a theme's CSS
 * overrides through the classes: diagram, diagram-edge, diagram-node,
 * diagram-<kind>, diagram-disputed. A node with an href is a link
 * (a disputed node's conflict page) with a "⚠" before its label; links
 * need the SVG to be role="group" (an img's children are presentational
 * to assistive technology), so it is role="img" only when no node links;
 * everything but the links is aria-hidden, the title names the picture.
 */
#ifndef MIRROR_DIAGRAM_H
#define MIRROR_DIAGRAM_H

#include <stddef.h>

#include "util/strbuf.h"

/* Longest label and detail drawn, in characters; a longer one is cut
 * there and "…" follows (a linked label counts its "⚠ "). */
#define DIAGRAM_LABEL_CHARS 24
#define DIAGRAM_DETAIL_CHARS 30

struct diagram_node {
	const char *label;      /* first line, bold: a name */
	const char *detail;     /* second line, or NULL / "": none */
	const char *kind;       /* class suffix, [a-z0-9-]+ ("component");
	                           anything else is left out */
	const char *href;       /* NULL, or a URL the caller made from slugs
	                           (escaped all the same): the node links */
	size_t depth;           /* 0 for a root; more than one below the
	                           previous node's depth counts as one below */
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

#endif
