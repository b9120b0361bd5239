/*
 * chart.c: a step chart as inline SVG (see chart.h).
 */
#include <stdio.h>
#include <string.h>

#include "render/chart.h"
#include "render/escape.h"

/* The drawing area inside the 560 x 180 view box. */
enum { W = 560, H = 180, LEFT = 48, RIGHT = W - 16, TOP = 16,
	BOTTOM = H - 36 };

/* The greatest value drawn (a larger one is drawn as this): keeps the
 * integer scaling below from overflowing. */
#define CHART_MAX 1000000000000LL

/* Where x and value fall: integers, so the bytes never depend on how a
 * machine rounds. */
struct scale {
	long long x0, span, top;
};

static long long
px(const struct scale *s, long long x)
{
	if (s->span <= 0)
		return (LEFT + RIGHT) / 2;
	return LEFT + (x - s->x0) * (RIGHT - LEFT) / s->span;
}

static long long
py(const struct scale *s, long long v)
{
	if (v < 0)
		v = 0;
	if (v > s->top)
		v = s->top;
	return BOTTOM - v * (BOTTOM - TOP) / s->top;
}

/* A text element at (x, y) anchored as anchor, its text escaped. */
static void
label(strbuf *sb, long long x, long long y, const char *anchor,
    const char *text)
{
	strbuf_printf(sb, "<text x=\"%lld\" y=\"%lld\" text-anchor=\"%s\">",
	    x, y, anchor);
	escape_html(sb, text, strlen(text));
	strbuf_puts(sb, "</text>\n");
}

/* The line: each value holds until the next point's x, then steps. */
static void
line(strbuf *sb, const struct scale *s, const struct chart_point *p,
    size_t n)
{
	if (n > 1) {
		strbuf_printf(sb, "<path stroke-width=\"2\" d=\"M%lld %lld",
		    px(s, p[0].x), py(s, p[0].value));
		for (size_t i = 1; i < n; i++)
			strbuf_printf(sb, " H%lld V%lld", px(s, p[i].x),
			    py(s, p[i].value));
		strbuf_puts(sb, "\"/>\n");
	}
	strbuf_puts(sb, "</g>\n<g fill=\"currentColor\" font-size=\"12\">\n");
	for (size_t i = 0; i < n; i++)
		strbuf_printf(sb, "<circle cx=\"%lld\" cy=\"%lld\" r=\"3\"/>\n",
		    px(s, p[i].x), py(s, p[i].value));
}

void
chart_svg(strbuf *sb, const struct chart *c, const struct chart_point *p,
    size_t n)
{
	struct scale s = { 0, 0, 1 };
	char top[24];

	for (size_t i = 0; i < n; i++)
		if (p[i].value > s.top)
			s.top = p[i].value < CHART_MAX ? p[i].value : CHART_MAX;
	if (n > 0) {
		s.x0 = p[0].x;
		s.span = p[n - 1].x - p[0].x;
	}
	strbuf_printf(sb, "<figure class=\"chart\">\n<svg xmlns=\"http://www."
	    "w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-labelledby=\"%s-title %s-desc\">\n<title id=\"%s-title\">",
	    W, H, c->id, c->id, c->id);
	escape_html(sb, c->title, strlen(c->title));
	strbuf_printf(sb, "</title>\n<desc id=\"%s-desc\">", c->id);
	escape_html(sb, c->desc, strlen(c->desc));
	strbuf_printf(sb, "</desc>\n<g fill=\"none\" stroke=\"currentColor\">\n"
	    "<path stroke-opacity=\"0.4\" d=\"M%d %d V%d H%d\"/>\n", LEFT, TOP,
	    BOTTOM, RIGHT);
	line(sb, &s, p, n);
	snprintf(top, sizeof(top), "%lld", s.top);
	label(sb, LEFT - 8, BOTTOM + 4, "end", "0");
	label(sb, LEFT - 8, TOP + 4, "end", top);
	if (n > 0)
		label(sb, n > 1 ? LEFT : px(&s, p[0].x), H - 14, n > 1 ?
		    "start" : "middle", p[0].label);
	if (n > 1)
		label(sb, RIGHT, H - 14, "end", p[n - 1].label);
	strbuf_puts(sb, "</g>\n</svg>\n</figure>\n");
}

/* The bars' layout: a view box BARS_W wide, narrower than the line's so
 * that its 14-unit text stays 12 px or more on a phone (390 px), a row
 * of BAR_ROW per bar, its label above it. */
enum { BARS_W = 400, BAR_ROW = 44, BAR_TOP = 8, BAR_H = 14,
	BAR_W = BARS_W - 60 };

void
chart_bars(strbuf *sb, const struct chart *c, const struct chart_bar *b,
    size_t n)
{
	long long top = 1;
	char v[24];

	for (size_t i = 0; i < n; i++)
		if (b[i].value > top)
			top = b[i].value < CHART_MAX ? b[i].value : CHART_MAX;
	strbuf_printf(sb, "<figure class=\"chart\">\n<svg xmlns=\"http://www."
	    "w3.org/2000/svg\" viewBox=\"0 0 %d %zu\" role=\"img\" "
	    "aria-labelledby=\"%s-title %s-desc\">\n<title id=\"%s-title\">",
	    BARS_W, BAR_TOP * 2 + n * BAR_ROW, c->id, c->id, c->id);
	escape_html(sb, c->title, strlen(c->title));
	strbuf_printf(sb, "</title>\n<desc id=\"%s-desc\">", c->id);
	escape_html(sb, c->desc, strlen(c->desc));
	strbuf_puts(sb, "</desc>\n<g fill=\"currentColor\" font-size=\"14\">\n");
	for (size_t i = 0; i < n; i++) {
		long long y = BAR_TOP + (long long)i * BAR_ROW;
		long long val = b[i].value < 0 ? 0 : b[i].value > top ? top :
		    b[i].value;
		long long w = val * BAR_W / top;

		label(sb, 0, y + 14, "start", b[i].label);
		strbuf_printf(sb, "<rect x=\"0\" y=\"%lld\" width=\"%lld\" "
		    "height=\"%d\"/>\n", y + 21, w, BAR_H);
		snprintf(v, sizeof(v), "%lld", b[i].value);
		label(sb, w + 6, y + 33, "start", v);
	}
	strbuf_puts(sb, "</g>\n</svg>\n</figure>\n");
}
