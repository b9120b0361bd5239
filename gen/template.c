/*
 * template.c: parse a template into a tree once; render it many times.
 *
 * Parsing is two passes over the source. The first finds every tag
 * ({{...}} or {{{...}}}), classifies it and decides whether it stands
 * alone on its line (then the line's whitespace and newline go with it).
 * The second builds the tree: nodes live in one array and link to each
 * other by index (body, alt, next), so the tree is one allocation that
 * grows and rendering walks it without recursion into the parser.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datadir.h"
#include "escape.h"
#include "slug.h"
#include "template.h"
#include "xalloc.h"

/* Rendering recurses once per nested block: bound it. */
#define TMPL_MAX_DEPTH 64

enum kind {
	K_TEXT, K_VAR, K_RAW, K_EACH, K_IF, K_UNLESS, K_ELSE, K_CLOSE,
	K_COMMENT
};

enum pkind { P_NAME, P_DOT, P_INDEX, P_NUMBER, P_FIRST, P_LAST };
enum filter { F_NONE, F_URL, F_ID, F_SLUG };

struct node {
	enum kind kind;
	int line;
	size_t off, len;        /* K_TEXT: bytes of src */
	enum pkind pkind;       /* K_VAR, K_EACH, K_IF, K_UNLESS */
	char *name;             /* the path as written, for messages */
	char **seg;             /* P_NAME: its dot-separated segments */
	size_t nseg;
	enum filter filter;
	int body, alt, next;    /* child lists and sibling, -1 for none */
};

struct tmpl {
	char *name;
	char *src;
	size_t srclen;
	enum tmpl_mode mode;
	struct node *nodes;
	size_t n, cap;
	int root;               /* first node of the top list, or -1 */
	int has_raw;
	int max_each;           /* deepest #each nesting */
};

/* A tag found by the first pass. */
struct tag {
	enum kind kind;
	int line;
	size_t start, end;      /* the tag's bytes in src */
	size_t cut0, cut1;      /* what it removes: [start,end) or its line */
	char *body;             /* trimmed text between the braces */
	enum kind closes;       /* K_CLOSE: which block it closes */
};

static const char *
kind_word(enum kind k)
{
	switch (k) {
	case K_EACH: return "each";
	case K_IF: return "if";
	case K_UNLESS: return "unless";
	default: return "?";
	}
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && (is_blank(*s) || *s == '\n')) {
		s++;
		n--;
	}
	while (n > 0 && (is_blank(s[n - 1]) || s[n - 1] == '\n'))
		n--;
	return xstrndup(s, n);
}

/* An error naming file:line; name is shown on one line, cut at 200. */
static int
perr(const tmpl *t, int line, mirror_error *err, const char *what,
    const char *name)
{
	char shown[204];
	size_t i;

	for (i = 0; name[i] != '\0' && i < 200; i++)
		shown[i] = (unsigned char)name[i] < 0x20 ? ' ' : name[i];
	strcpy(shown + i, name[i] != '\0' ? "..." : "");
	return mirror_fail(err, MIRROR_EINPUT, "%s:%d: %s '%s'", t->name, line,
	    what, shown);
}

/* Which block keyword w is: K_EACH, K_IF, K_UNLESS, or K_TEXT if none. */
static enum kind
block_word(const char *w, size_t n)
{
	if (n == 4 && memcmp(w, "each", 4) == 0)
		return K_EACH;
	if (n == 2 && memcmp(w, "if", 2) == 0)
		return K_IF;
	if (n == 6 && memcmp(w, "unless", 6) == 0)
		return K_UNLESS;
	return K_TEXT;
}

/* The first run of n (2 or 3) '}' in s[0..len), or NULL. */
static const char *
find_close(const char *s, size_t len, size_t n)
{
	for (size_t i = 0; i + n <= len; i++) {
		if (s[i] == '}' && s[i + 1] == '}' && (n == 2 || s[i + 2] == '}'))
			return s + i;
	}
	return NULL;
}

/* Pass one: every tag with its kind, line and standalone cut. */
static int
find_tags(struct tag **out, size_t *nout, tmpl *t, mirror_error *err)
{
	struct tag *tags = NULL;
	size_t n = 0, cap = 0, i = 0, line_at = 0;
	int line = 1, rc = 0;
	const char *s = t->src;

	while (i + 1 < t->srclen) {
		struct tag g;
		const char *close;
		size_t open_len, close_len;

		if (s[i] != '{' || s[i + 1] != '{') {
			i++;
			continue;
		}
		for (; line_at < i; line_at++)
			line += s[line_at] == '\n';
		memset(&g, 0, sizeof(g));
		g.line = line;
		g.start = i;
		open_len = (i + 2 < t->srclen && s[i + 2] == '{') ? 3 : 2;
		close_len = open_len;
		if (open_len == 2 && i + 2 < t->srclen && s[i + 2] == '!') {
			g.kind = K_COMMENT;
			close_len = 2;
		}
		close = find_close(s + i + open_len, t->srclen - i - open_len,
		    close_len);
		if (close == NULL) {
			rc = perr(t, line, err, "unterminated tag", open_len ==
			    3 ? "{{{" : "{{");
			goto fail;
		}
		g.end = (size_t)(close - s) + close_len;
		g.body = trimmed(s + i + open_len, (size_t)(close - s) - i -
		    open_len);
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			tags = xreallocarray(tags, cap, sizeof(*tags));
		}
		tags[n++] = g;
		i = g.end;
	}
	*out = tags;
	*nout = n;
	return 0;
fail:
	for (size_t k = 0; k < n; k++)
		free(tags[k].body);
	free(tags);
	*out = NULL;
	*nout = 0;
	return rc;
}

/* Classify a tag's body (K_VAR stays for names, checked later). */
static int
classify(tmpl *t, struct tag *g, mirror_error *err)
{
	const char *b = g->body;
	size_t braces = (g->start + 2 < t->srclen &&
	    t->src[g->start + 2] == '{') ? 3 : 2;

	if (g->kind == K_COMMENT)
		return 0;
	if (braces == 3) {
		if (t->mode != TMPL_HTML)
			return perr(t, g->line, err, "raw slot not allowed in a "
			    "Markdown template:", b);
		if (strcmp(b, "content") != 0)
			return perr(t, g->line, err, "unknown raw slot (only "
			    "{{{content}}} exists):", b);
		g->kind = K_RAW;
		return 0;
	}
	if (b[0] == '#' || b[0] == '/') {
		size_t w = strcspn(b + 1, " \t\r\n");
		enum kind k = block_word(b + 1, w);

		if (k == K_TEXT)
			return perr(t, g->line, err, "unknown block tag", b);
		if (b[0] == '/') {
			if (b[1 + w] != '\0')
				return perr(t, g->line, err, "bad closing tag", b);
			g->kind = K_CLOSE;
			g->closes = k;
			return 0;
		}
		g->kind = k;
		/* The name follows the keyword. */
		{
			char *name = trimmed(b + 1 + w, strlen(b + 1 + w));

			free(g->body);
			g->body = name;
		}
		if (g->body[0] == '\0')
			return perr(t, g->line, err, "block tag needs a name:",
			    kind_word(k));
		return 0;
	}
	if (strcmp(b, "else") == 0) {
		g->kind = K_ELSE;
		return 0;
	}
	if (b[0] == '\0')
		return perr(t, g->line, err, "empty tag", "{{}}");
	g->kind = K_VAR;
	return 0;
}

/* Decide whether g stands alone on its line; set cut0/cut1. */
static void
standalone(const tmpl *t, struct tag *tags, size_t k)
{
	struct tag *g = &tags[k];
	const char *s = t->src;
	size_t ls = g->start, le = g->end;

	g->cut0 = g->start;
	g->cut1 = g->end;
	if (g->kind == K_VAR || g->kind == K_RAW)
		return;
	while (ls > 0 && s[ls - 1] != '\n') {
		if (!is_blank(s[ls - 1]))
			return;
		ls--;
	}
	if (k > 0 && tags[k - 1].end > ls)
		return;   /* another tag on the same line before it */
	while (le < t->srclen && s[le] != '\n') {
		if (!is_blank(s[le]))
			return;   /* text or another tag after it */
		le++;
	}
	g->cut0 = ls;
	g->cut1 = le < t->srclen ? le + 1 : le;
}

static int
new_node(tmpl *t, enum kind kind, int line)
{
	struct node *nd;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->nodes = xreallocarray(t->nodes, t->cap, sizeof(*t->nodes));
	}
	nd = &t->nodes[t->n];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->line = line;
	nd->body = nd->alt = nd->next = -1;
	return (int)t->n++;
}

/* Parse a name ("a.b", ".", "@index") into node nd; in_each gates @. */
static int
parse_name(tmpl *t, int idx, const char *name, int line, int in_each,
    mirror_error *err)
{
	struct node *nd = &t->nodes[idx];
	const char *p;

	nd->name = xstrdup(name);
	if (name[0] == '@' || strcmp(name, ".") == 0) {
		if (!in_each)
			return perr(t, line, err, "only valid inside #each:",
			    name);
		if (strcmp(name, ".") == 0)
			nd->pkind = P_DOT;
		else if (strcmp(name, "@index") == 0)
			nd->pkind = P_INDEX;
		else if (strcmp(name, "@number") == 0)
			nd->pkind = P_NUMBER;
		else if (strcmp(name, "@first") == 0)
			nd->pkind = P_FIRST;
		else if (strcmp(name, "@last") == 0)
			nd->pkind = P_LAST;
		else
			return perr(t, line, err, "unknown placeholder", name);
		return 0;
	}
	nd->pkind = P_NAME;
	p = name;
	for (;;) {
		size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

		if (w == 0 || (p[w] != '.' && p[w] != '\0'))
			return perr(t, line, err, "bad placeholder name", name);
		nd->seg = xreallocarray(nd->seg, nd->nseg + 1,
		    sizeof(*nd->seg));
		nd->seg[nd->nseg++] = xstrndup(p, w);
		if (p[w] == '\0')
			break;
		p += w + 1;
	}
	return 0;
}

static int
parse_var(tmpl *t, int idx, char *body, int line, int in_each,
    mirror_error *err)
{
	char *bar = strchr(body, '|');
	char *name;
	int rc = 0;

	if (bar != NULL) {
		char *f = trimmed(bar + 1, strlen(bar + 1));
		struct node *nd = &t->nodes[idx];

		if (strcmp(f, "url") == 0)
			nd->filter = F_URL;
		else if (strcmp(f, "id") == 0)
			nd->filter = F_ID;
		else if (strcmp(f, "slug") == 0)
			nd->filter = F_SLUG;
		else
			rc = perr(t, line, err, "unknown filter", f);
		free(f);
		if (nd->filter == F_NONE)
			return rc;
	}
	name = trimmed(body, bar != NULL ? (size_t)(bar - body) :
	    strlen(body));
	rc = parse_name(t, idx, name, line, in_each, err);
	free(name);
	return rc;
}

/* An open block while building: its node and the list being filled. */
struct open {
	int node;       /* -1 for the top level */
	int in_alt;
	int tail;       /* last node of the list being filled, or -1 */
	int is_each;
};

static void
append(tmpl *t, struct open *o, int idx)
{
	if (o->tail >= 0)
		t->nodes[o->tail].next = idx;
	else if (o->node < 0)
		t->root = idx;
	else if (o->in_alt)
		t->nodes[o->node].alt = idx;
	else
		t->nodes[o->node].body = idx;
	o->tail = idx;
}

static void
add_text(tmpl *t, struct open *o, size_t from, size_t to, int line)
{
	int idx;

	if (to <= from)
		return;
	idx = new_node(t, K_TEXT, line);
	t->nodes[idx].off = from;
	t->nodes[idx].len = to - from;
	append(t, o, idx);
}

/* Pass two: the tree. */
static int
build(tmpl *t, struct tag *tags, size_t n, mirror_error *err)
{
	struct open *stack;
	size_t depth = 1, pos = 0;
	int each_depth = 0, rc = 0;

	stack = xcalloc(n + 1, sizeof(*stack));
	stack[0].node = -1;
	stack[0].tail = -1;
	t->root = -1;
	for (size_t k = 0; k < n; k++) {
		struct tag *g = &tags[k];
		struct open *top = &stack[depth - 1];
		int idx;

		add_text(t, top, pos, g->cut0, g->line);
		pos = g->cut1;
		switch (g->kind) {
		case K_COMMENT:
			break;
		case K_RAW:
			idx = new_node(t, K_RAW, g->line);
			append(t, top, idx);
			t->has_raw = 1;
			break;
		case K_VAR:
			idx = new_node(t, K_VAR, g->line);
			append(t, top, idx);
			rc = parse_var(t, idx, g->body, g->line, each_depth > 0,
			    err);
			if (rc < 0)
				goto out;
			break;
		case K_EACH:
		case K_IF:
		case K_UNLESS:
			idx = new_node(t, g->kind, g->line);
			append(t, top, idx);
			rc = parse_name(t, idx, g->body, g->line, each_depth > 0,
			    err);
			if (rc < 0)
				goto out;
			if (g->kind == K_EACH && t->nodes[idx].pkind != P_NAME &&
			    t->nodes[idx].pkind != P_DOT) {
				rc = perr(t, g->line, err, "#each needs a list, "
				    "not", g->body);
				goto out;
			}
			if (depth > TMPL_MAX_DEPTH) {
				rc = perr(t, g->line, err, "blocks nested too deep "
				    "at", g->body);
				goto out;
			}
			stack[depth].node = idx;
			stack[depth].in_alt = 0;
			stack[depth].tail = -1;
			stack[depth].is_each = g->kind == K_EACH;
			depth++;
			if (g->kind == K_EACH) {
				each_depth++;
				if (each_depth > t->max_each)
					t->max_each = each_depth;
			}
			break;
		case K_ELSE:
			if (depth == 1 || top->in_alt) {
				rc = perr(t, g->line, err, depth == 1 ?
				    "else outside a block:" : "second else in a block:",
				    "else");
				goto out;
			}
			top->in_alt = 1;
			top->tail = -1;
			/* The else part of #each runs outside the loop. */
			if (top->is_each)
				each_depth--;
			break;
		case K_CLOSE: {
			enum kind open_kind;

			if (depth == 1) {
				rc = perr(t, g->line, err, "closing tag without "
				    "an open block:", g->body);
				goto out;
			}
			open_kind = t->nodes[top->node].kind;
			if (open_kind != g->closes) {
				rc = mirror_fail(err, MIRROR_EINPUT, "%s:%d: closes "
				    "#%s opened at line %d, not '%s'", t->name, g->line,
				    kind_word(open_kind), t->nodes[top->node].line,
				    g->body);
				goto out;
			}
			if (top->is_each && !top->in_alt)
				each_depth--;
			depth--;
			break;
		}
		case K_TEXT:
			break;
		}
	}
	add_text(t, &stack[depth - 1], pos, t->srclen, 0);
	if (depth > 1) {
		struct node *nd = &t->nodes[stack[depth - 1].node];

		rc = mirror_fail(err, MIRROR_EINPUT, "%s:%d: #%s never closed: "
		    "'%s'", t->name, nd->line, kind_word(nd->kind), nd->name);
	}
out:
	free(stack);
	return rc;
}

void
tmpl_free(tmpl *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < t->nodes[i].nseg; k++)
			free(t->nodes[i].seg[k]);
		free(t->nodes[i].seg);
		free(t->nodes[i].name);
	}
	free(t->nodes);
	free(t->src);
	free(t->name);
	free(t);
}

int
tmpl_parse(tmpl **out, const char *name, const char *text, size_t len,
    enum tmpl_mode mode, mirror_error *err)
{
	struct tag *tags = NULL;
	size_t n = 0;
	tmpl *t;
	int rc;

	*out = NULL;
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name != NULL ? name : "(template)");
	t->src = xmalloc(len + 1);
	if (len > 0)
		memcpy(t->src, text, len);
	t->src[len] = '\0';
	t->srclen = len;
	t->mode = mode;
	t->root = -1;
	rc = find_tags(&tags, &n, t, err);
	for (size_t k = 0; rc == 0 && k < n; k++)
		rc = classify(t, &tags[k], err);
	for (size_t k = 0; rc == 0 && k < n; k++)
		standalone(t, tags, k);
	if (rc == 0)
		rc = build(t, tags, n, err);
	for (size_t k = 0; k < n; k++)
		free(tags[k].body);
	free(tags);
	if (rc < 0) {
		tmpl_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int
tmpl_load(tmpl **out, const char *path, enum tmpl_mode mode,
    mirror_error *err)
{
	FILE *f;
	strbuf sb;
	char buf[8192];
	size_t got;
	int rc, bad;

	*out = NULL;
	f = fopen(path, "rb");
	if (f == NULL)
		return mirror_fail(err, MIRROR_EINPUT, "%s: cannot read "
		    "template: %s", path, strerror(errno));
	strbuf_init(&sb);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		strbuf_add(&sb, buf, got);
		if (sb.len > (size_t)16 << 20)
			break;
	}
	bad = ferror(f);
	fclose(f);
	if (bad || sb.len > (size_t)16 << 20) {
		strbuf_free(&sb);
		return mirror_fail(err, MIRROR_EINPUT, "%s: %s", path, bad ?
		    "cannot read template" : "template larger than 16 MiB");
	}
	rc = tmpl_parse(out, path, sb.data, sb.len, mode, err);
	strbuf_free(&sb);
	return rc;
}

int
tmpl_has_raw(const tmpl *t)
{
	return t->has_raw;
}

const char *
tmpl_name(const tmpl *t)
{
	return t->name;
}

/* ---- rendering ---- */

struct frame {
	const json_t *item;
	size_t index, count;
};

struct render {
	const tmpl *t;
	strbuf *sb;
	const char *raw;
	struct frame *stack;
	size_t depth;
	mirror_error *err;
	json_t *tmp;            /* a value made for @index etc. */
};

static int
rerr(struct render *r, const struct node *nd, const char *what)
{
	return perr(r->t, nd->line, r->err, what, nd->name);
}

/* Resolve nd's path to a value; specials give a fresh value in r->tmp. */
static int
lookup(const json_t **out, struct render *r, const struct node *nd)
{
	const struct frame *top = &r->stack[r->depth - 1];
	const json_t *v = NULL;

	json_decref(r->tmp);
	r->tmp = NULL;
	switch (nd->pkind) {
	case P_DOT:
		*out = top->item;
		return 0;
	case P_INDEX:
		r->tmp = json_integer((json_int_t)top->index);
		break;
	case P_NUMBER:
		r->tmp = json_integer((json_int_t)top->index + 1);
		break;
	case P_FIRST:
		r->tmp = json_boolean(top->index == 0);
		break;
	case P_LAST:
		r->tmp = json_boolean(top->index + 1 == top->count);
		break;
	case P_NAME:
		for (size_t d = r->depth; d-- > 0;) {
			if (json_is_object(r->stack[d].item)) {
				v = json_object_get(r->stack[d].item, nd->seg[0]);
				if (v != NULL)
					break;
			}
		}
		for (size_t k = 1; v != NULL && k < nd->nseg; k++)
			v = json_is_object(v) ? json_object_get(v, nd->seg[k]) :
			    NULL;
		if (v == NULL)
			return rerr(r, nd, "unknown placeholder");
		*out = v;
		return 0;
	}
	*out = r->tmp;
	return 0;
}

static int
truthy(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL:
	case JSON_FALSE:
		return 0;
	case JSON_TRUE:
		return 1;
	case JSON_INTEGER:
		return json_integer_value(v) != 0;
	case JSON_REAL:
		return json_real_value(v) != 0.0;
	case JSON_STRING:
		return json_string_length(v) > 0;
	case JSON_ARRAY:
		return json_array_size(v) > 0;
	case JSON_OBJECT:
		return json_object_size(v) > 0;
	}
	return 0;
}

static int
is_id(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

static int
put_value(struct render *r, const struct node *nd, const json_t *v)
{
	char num[64];
	const char *s;
	size_t len;
	int n;

	switch (json_typeof(v)) {
	case JSON_STRING:
		s = json_string_value(v);
		len = json_string_length(v);
		break;
	case JSON_INTEGER:
		n = snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		goto number;
	case JSON_REAL:
		n = snprintf(num, sizeof(num), "%.15g", json_real_value(v));
	number:
		if (n < 0 || (size_t)n >= sizeof(num))
			return rerr(r, nd, "number too long:");
		s = num;
		len = (size_t)n;
		break;
	case JSON_TRUE:
		s = "true";
		len = 4;
		break;
	case JSON_FALSE:
		s = "false";
		len = 5;
		break;
	case JSON_NULL:
		if (nd->filter == F_ID || nd->filter == F_SLUG)
			return rerr(r, nd, "null where an id is needed:");
		s = "";
		len = 0;
		break;
	default:
		return rerr(r, nd, json_is_array(v) ? "a list where a value "
		    "is needed:" : "an object where a value is needed:");
	}
	switch (nd->filter) {
	case F_URL:
		escape_url(r->sb, s, len);
		break;
	case F_ID:
		if (!json_is_string(v) || !is_id(s, len))
			return rerr(r, nd, "not an id ([a-z0-9-]+):");
		strbuf_add(r->sb, s, len);
		break;
	case F_SLUG: {
		char slug[SLUG_SIZE];

		slug_make_n(slug, s, len);
		strbuf_puts(r->sb, slug);
		break;
	}
	case F_NONE:
		if (r->t->mode == TMPL_HTML)
			escape_html(r->sb, s, len);
		else
			escape_md(r->sb, s, len);
		break;
	}
	return 0;
}

static int render_list(struct render *r, int idx);

static int
render_each(struct render *r, const struct node *nd)
{
	const json_t *v;
	size_t n;
	int rc;

	if ((rc = lookup(&v, r, nd)) < 0)
		return rc;
	if (!json_is_array(v) && !json_is_null(v))
		return rerr(r, nd, "#each needs a list:");
	n = json_is_array(v) ? json_array_size(v) : 0;
	if (n == 0)
		return render_list(r, nd->alt);
	for (size_t i = 0; i < n; i++) {
		r->stack[r->depth].item = json_array_get(v, i);
		r->stack[r->depth].index = i;
		r->stack[r->depth].count = n;
		r->depth++;
		rc = render_list(r, nd->body);
		r->depth--;
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
render_list(struct render *r, int idx)
{
	const tmpl *t = r->t;
	const json_t *v;
	int rc;

	for (; idx >= 0; idx = t->nodes[idx].next) {
		const struct node *nd = &t->nodes[idx];

		switch (nd->kind) {
		case K_TEXT:
			strbuf_add(r->sb, t->src + nd->off, nd->len);
			break;
		case K_RAW:
			if (r->raw == NULL)
				return rerr(r, nd, "no content for raw slot");
			strbuf_puts(r->sb, r->raw);
			break;
		case K_VAR:
			if ((rc = lookup(&v, r, nd)) < 0)
				return rc;
			if ((rc = put_value(r, nd, v)) < 0)
				return rc;
			break;
		case K_IF:
		case K_UNLESS: {
			int yes;

			if ((rc = lookup(&v, r, nd)) < 0)
				return rc;
			yes = truthy(v) == (nd->kind == K_IF);
			if ((rc = render_list(r, yes ? nd->body : nd->alt)) < 0)
				return rc;
			break;
		}
		case K_EACH:
			if ((rc = render_each(r, nd)) < 0)
				return rc;
			break;
		default:
			break;
		}
	}
	return 0;
}

int
tmpl_render(strbuf *sb, const tmpl *t, const json_t *data, const char *raw,
    mirror_error *err)
{
	struct render r;
	json_t *empty = NULL;
	int rc;

	if (data == NULL)
		data = empty = json_object();
	if (!json_is_object(data)) {
		json_decref(empty);
		return mirror_fail(err, MIRROR_EINPUT, "%s: data is not a "
		    "JSON object", t->name);
	}
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.sb = sb;
	r.raw = raw;
	r.err = err;
	r.stack = xcalloc((size_t)t->max_each + 1, sizeof(*r.stack));
	r.stack[0].item = data;
	r.depth = 1;
	rc = render_list(&r, t->root);
	json_decref(r.tmp);
	free(r.stack);
	json_decref(empty);
	return rc;
}

/* ---- template sets ---- */

struct cached {
	char *name;
	tmpl *t;
};

struct tmpl_set {
	char *user;             /* NULL: no overrides */
	char *def;
	struct cached *c;
	size_t n, cap;
};

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
tmpl_set_open(tmpl_set **out, const char *user_dir, const char *default_dir,
    mirror_error *err)
{
	tmpl_set *set;
	char *def = NULL;
	int rc;

	*out = NULL;
	if (user_dir != NULL && !is_dir(user_dir))
		return mirror_fail(err, MIRROR_EINPUT, "%s: templates "
		    "directory not found", user_dir);
	if (default_dir != NULL) {
		def = xstrdup(default_dir);
	} else if ((rc = datadir_find(&def, "templates", err)) < 0) {
		return rc;
	}
	set = xcalloc(1, sizeof(*set));
	set->user = user_dir != NULL ? xstrdup(user_dir) : NULL;
	set->def = def;
	*out = set;
	return 0;
}

/* A plain file name: no '/', not empty, not hidden. */
static int
good_name(const char *name)
{
	return name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL &&
	    strlen(name) <= 255;
}

int
tmpl_set_get(const tmpl **out, tmpl_set *set, const char *name,
    mirror_error *err)
{
	enum tmpl_mode mode;
	strbuf path;
	size_t nl;
	tmpl *t;
	int rc;

	*out = NULL;
	if (!good_name(name))
		return mirror_fail(err, MIRROR_EINPUT, "bad template name '%s'",
		    name);
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->c[i].name, name) == 0) {
			*out = set->c[i].t;
			return 0;
		}
	}
	nl = strlen(name);
	mode = nl > 3 && strcmp(name + nl - 3, ".md") == 0 ? TMPL_MARKDOWN :
	    TMPL_HTML;
	strbuf_init(&path);
	if (set->user != NULL)
		strbuf_printf(&path, "%s/%s", set->user, name);
	if (set->user == NULL || !is_file(path.data)) {
		strbuf_reset(&path);
		strbuf_printf(&path, "%s/%s", set->def, name);
		if (!is_file(path.data)) {
			rc = mirror_fail(err, MIRROR_EINPUT, "template '%s' not "
			    "found in %s%s%s", name, set->user != NULL ?
			    set->user : "", set->user != NULL ? " or " : "",
			    set->def);
			strbuf_free(&path);
			return rc;
		}
	}
	rc = tmpl_load(&t, path.data, mode, err);
	strbuf_free(&path);
	if (rc < 0)
		return rc;
	if (set->n == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		set->c = xreallocarray(set->c, set->cap, sizeof(*set->c));
	}
	set->c[set->n].name = xstrdup(name);
	set->c[set->n].t = t;
	set->n++;
	*out = t;
	return 0;
}

void
tmpl_set_free(tmpl_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++) {
		free(set->c[i].name);
		tmpl_free(set->c[i].t);
	}
	free(set->c);
	free(set->user);
	free(set->def);
	free(set);
}
