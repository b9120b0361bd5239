/*
 * chart.h: a small line or bar chart as inline SVG, for a page's HTML
 * twin.
 *
 * The chart draws in currentColor (the text colour of the page, so it
 * follows a theme's dark mode and prints black), with no script and no
 * style of its own; role="img" with a <title> and <desc> give it a name
 * and a text alternative. Coordinates are integers: the same points give
 * the same bytes on every machine.
 */
#ifndef MIRROR_CHART_H
#define MIRROR_CHART_H

#include <stddef.h>

#include "util/strbuf.h"

/* A chart as its reader knows it: id (matching [a-z0-9-]+) prefixes the
 * ids of its title and description; title and desc (its text
 * alternative) are text, escaped where they are written. */
struct chart {
	const char *id;
	const char *title;
	const char *desc;
};

/* One point: x on a linear scale (days, say), its value, and the label
 * its x gets on the axis when it is the first or the last point. */
struct chart_point {
	long long x;
	long long value;
	const char *label;
};

/*
 * Append to sb a <figure> holding the SVG step chart c of the n points p
 * (sorted by x; n may be 0: axes only), each value holding until the
 * next point.
 */
void chart_svg(strbuf *sb, const struct chart *c,
    const struct chart_point *p, size_t n);

/* One bar: its label (text) and its value. */
struct chart_bar {
	const char *label;
	long long value;
};

/*
 * Append to sb a <figure> holding the SVG chart c of the n bars b, one
 * row each in b's order, its label above a bar as long as its value (the
 * largest spans the width) with the value at its end.
 */
void chart_bars(strbuf *sb, const struct chart *c,
    const struct chart_bar *b, size_t n);

#endif
