/*
 * template.c: parse a template into a tree, once (template_render.c
 * renders it, template_set.c finds and caches template files).
 *
 * Parsing is two passes over the source. The first finds every tag
 * ({{...}} or {{{...}}}), classifies it and decides whether it stands
 * alone on its line (then the line's whitespace and newline go with it).
 * The second builds the tree: nodes live in one array and link to each
 * other by index (body, alt, next), so the tree is one allocation that
 * grows and rendering walks it without recursion into the parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/template_int.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/xalloc.h"

/* A tag found by the first pass. */
struct tag {
	enum tkind kind;
	int line;
	size_t start, end;      /* the tag's bytes in src */
	size_t cut0, cut1;      /* what it removes: [start,end) or its line */
	char *body;             /* trimmed text between the braces */
	enum tkind closes;       /* K_CLOSE: which block it closes */
};

static const char *
kind_word(enum tkind k)
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

int
tmpl_perr(const tmpl *t, int line, mirror_error *err, const char *what,
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
static enum tkind
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
		if (s[i] == '}' && s[i + 1] == '}' &&
		    (n == 2 || s[i + 2] == '}'))
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
			rc = tmpl_perr(t, line, err, "unterminated tag",
			    open_len == 3 ? "{{{" : "{{");
			goto fail;
		}
		g.end = (size_t)(close - s) + close_len;
		g.body = trimmed(s + i + open_len, (size_t)(close - s) - i -
		    open_len);
		ARRAY_PUSH(tags, n, cap) = g;
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
			return tmpl_perr(t, g->line, err, "raw slot not "
			    "allowed in a Markdown template:", b);
		if (strcmp(b, "content") != 0)
			return tmpl_perr(t, g->line, err, "unknown raw slot "
			    "(only {{{content}}} exists):", b);
		g->kind = K_RAW;
		return 0;
	}
	if (b[0] == '#' || b[0] == '/') {
		size_t w = strcspn(b + 1, " \t\r\n");
		enum tkind k = block_word(b + 1, w);

		if (k == K_TEXT)
			return tmpl_perr(t, g->line, err, "unknown block tag",
			    b);
		if (b[0] == '/') {
			if (b[1 + w] != '\0')
				return tmpl_perr(t, g->line, err,
				    "bad closing tag", b);
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
			return tmpl_perr(t, g->line, err, "block tag needs a "
			    "name:", kind_word(k));
		return 0;
	}
	if (strcmp(b, "else") == 0) {
		g->kind = K_ELSE;
		return 0;
	}
	if (b[0] == '\0')
		return tmpl_perr(t, g->line, err, "empty tag", "{{}}");
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
new_node(tmpl *t, enum tkind kind, int line)
{
	struct tnode *nd = &ARRAY_PUSH(t->nodes, t->n, t->cap);

	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->line = line;
	nd->body = nd->alt = nd->next = -1;
	return (int)(t->n - 1);
}

/* Parse a name ("a.b", ".", "@index") into node idx (errors name its
 * line); in_each gates @. Returns 0 or -MIRROR_EINPUT. */
static int
parse_name(tmpl *t, int idx, const char *name, int in_each,
    mirror_error *err)
{
	struct tnode *nd = &t->nodes[idx];
	int line = nd->line;
	const char *p;
	size_t cap = 0;

	nd->name = xstrdup(name);
	if (name[0] == '@' || strcmp(name, ".") == 0) {
		if (!in_each)
			return tmpl_perr(t, line, err, "only valid inside "
			    "#each:", name);
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
			return tmpl_perr(t, line, err, "unknown placeholder",
			    name);
		return 0;
	}
	nd->pkind = P_NAME;
	p = name;
	for (;;) {
		size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

		if (w == 0 || (p[w] != '.' && p[w] != '\0'))
			return tmpl_perr(t, line, err, "bad placeholder name",
			    name);
		ARRAY_PUSH(nd->seg, nd->nseg, cap) = xstrndup(p, w);
		if (p[w] == '\0')
			break;
		p += w + 1;
	}
	return 0;
}

/* Parse a placeholder's body ("name" or "name | filter") into node idx
 * (errors name its line). Returns 0 or -MIRROR_EINPUT. */
static int
parse_var(tmpl *t, int idx, char *body, int in_each, mirror_error *err)
{
	int line = t->nodes[idx].line;
	char *bar = strchr(body, '|');
	char *name;
	int rc = 0;

	if (bar != NULL) {
		char *f = trimmed(bar + 1, strlen(bar + 1));
		struct tnode *nd = &t->nodes[idx];

		if (strcmp(f, "url") == 0)
			nd->filter = F_URL;
		else if (strcmp(f, "path") == 0)
			nd->filter = F_PATH;
		else if (strcmp(f, "id") == 0)
			nd->filter = F_ID;
		else if (strcmp(f, "slug") == 0)
			nd->filter = F_SLUG;
		else if (strcmp(f, "code") == 0)
			nd->filter = F_CODE;
		else if (strcmp(f, "words") == 0)
			nd->filter = F_WORDS;
		else
			rc = tmpl_perr(t, line, err, "unknown filter", f);
		free(f);
		if (nd->filter == F_NONE)
			return rc;
	}
	name = trimmed(body, bar != NULL ? (size_t)(bar - body) :
	    strlen(body));
	rc = parse_name(t, idx, name, in_each, err);
	free(name);
	return rc;
}

/*
 * Where fenced code blocks are in a Markdown template's own text, read
 * line by line as the tags are met (offsets only grow, so a template is
 * scanned once). A fence is up to three spaces, then three or more '`'
 * or '~'; it closes on a line of the same character, at least as many,
 * and nothing but blanks after them (CommonMark 4.5).
 */
struct fence_scan {
	size_t pos;        /* start of the next line to read */
	int open;          /* inside a fenced block */
	char ch;           /* its fence character */
	size_t len;        /* its fence length */
};

/* Read the fence of the line at s[0..n): its character and length, and
 * whether only blanks follow it. Returns 0 when the line is no fence. */
static size_t
fence_of(const char *s, size_t n, char *ch, int *bare)
{
	size_t i = 0, k;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	if (i == n || (s[i] != '`' && s[i] != '~'))
		return 0;
	*ch = s[i];
	for (k = i; k < n && s[k] == *ch; k++)
		;
	if (k - i < 3)
		return 0;
	*bare = 1;
	for (size_t j = k; j < n; j++) {
		if (!is_blank(s[j]) && s[j] != '\r')
			*bare = 0;
		/* An info string of a backtick fence holds no backtick. */
		if (*ch == '`' && s[j] == '`')
			return 0;
	}
	return k - i;
}

/* 1 when offset off (on a later line than every line read so far) lies
 * inside a fenced code block of t's text, else 0. */
static int
in_fence(const tmpl *t, struct fence_scan *fs, size_t off)
{
	for (;;) {
		const char *nl = memchr(t->src + fs->pos, '\n', off - fs->pos);
		size_t n;
		char ch = 0;
		int bare = 0;

		if (nl == NULL)
			return fs->open;
		n = (size_t)(nl - (t->src + fs->pos));
		n = fence_of(t->src + fs->pos, n, &ch, &bare);
		if (!fs->open && n > 0) {
			fs->open = 1;
			fs->ch = ch;
			fs->len = n;
		} else if (fs->open && n >= fs->len && ch == fs->ch && bare) {
			fs->open = 0;
		}
		fs->pos = (size_t)(nl - t->src) + 1;
	}
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

/* The state of pass two: the open blocks, innermost last. */
struct builder {
	struct open *stack;
	size_t depth;           /* stack[0] is the top level */
	int each_depth;         /* #each bodies we are inside */
};

static int
open_block(tmpl *t, struct builder *b, const struct tag *g,
    mirror_error *err)
{
	struct open *o;
	int idx;

	idx = new_node(t, g->kind, g->line);
	append(t, &b->stack[b->depth - 1], idx);
	if (parse_name(t, idx, g->body, b->each_depth > 0, err) < 0)
		return -MIRROR_EINPUT;
	if (g->kind == K_EACH && t->nodes[idx].pkind != P_NAME &&
	    t->nodes[idx].pkind != P_DOT)
		return tmpl_perr(t, g->line, err, "#each needs a list, not",
		    g->body);
	if (b->depth > TMPL_MAX_DEPTH)
		return tmpl_perr(t, g->line, err, "blocks nested too deep at",
		    g->body);
	o = &b->stack[b->depth++];
	o->node = idx;
	o->in_alt = 0;
	o->tail = -1;
	o->is_each = g->kind == K_EACH;
	if (o->is_each && ++b->each_depth > t->max_each)
		t->max_each = b->each_depth;
	return 0;
}

static int
else_block(tmpl *t, struct builder *b, const struct tag *g,
    mirror_error *err)
{
	struct open *top = &b->stack[b->depth - 1];

	if (b->depth == 1)
		return tmpl_perr(t, g->line, err, "else outside a block:",
		    "else");
	if (top->in_alt)
		return tmpl_perr(t, g->line, err, "second else in a block:",
		    "else");
	top->in_alt = 1;
	top->tail = -1;
	/* The else part of #each runs outside the loop. */
	if (top->is_each)
		b->each_depth--;
	return 0;
}

static int
close_block(tmpl *t, struct builder *b, const struct tag *g,
    mirror_error *err)
{
	struct open *top = &b->stack[b->depth - 1];
	const struct tnode *nd;

	if (b->depth == 1)
		return tmpl_perr(t, g->line, err, "closing tag without an open "
		    "block:", g->body);
	nd = &t->nodes[top->node];
	if (nd->kind != g->closes)
		return mirror_fail(err, MIRROR_EINPUT, "%s:%d: closes #%s "
		    "opened at line %d, not '%s'", t->name, g->line,
		    kind_word(nd->kind), nd->line, g->body);
	if (top->is_each && !top->in_alt)
		b->each_depth--;
	b->depth--;
	return 0;
}

/* Pass two: the tree, with the text between the tags' cuts. */
static int
tree_build(tmpl *t, struct tag *tags, size_t n, mirror_error *err)
{
	struct builder b;
	struct fence_scan fs = { 0, 0, 0, 0 };
	size_t pos = 0;
	int rc = 0;

	b.stack = xcalloc(n + 1, sizeof(*b.stack));
	b.stack[0].node = -1;
	b.stack[0].tail = -1;
	b.depth = 1;
	b.each_depth = 0;
	t->root = -1;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct tag *g = &tags[k];
		struct open *top = &b.stack[b.depth - 1];
		int idx;

		add_text(t, top, pos, g->cut0, g->line);
		pos = g->cut1;
		switch (g->kind) {
		case K_RAW:
			idx = new_node(t, K_RAW, g->line);
			append(t, top, idx);
			t->has_raw = 1;
			break;
		case K_VAR:
			idx = new_node(t, K_VAR, g->line);
			append(t, top, idx);
			rc = parse_var(t, idx, g->body, b.each_depth > 0,
			    err);
			/* Verbatim text is safe only where Markdown reads
			 * none: inside a fenced code block. */
			if (rc == 0 && t->nodes[idx].filter == F_CODE &&
			    t->mode == TMPL_MARKDOWN &&
			    !in_fence(t, &fs, g->start))
				rc = tmpl_perr(t, g->line, err, "|code outside "
				    "a fenced code block:", g->body);
			break;
		case K_EACH:
		case K_IF:
		case K_UNLESS:
			rc = open_block(t, &b, g, err);
			break;
		case K_ELSE:
			rc = else_block(t, &b, g, err);
			break;
		case K_CLOSE:
			rc = close_block(t, &b, g, err);
			break;
		case K_COMMENT:
		case K_TEXT:
			break;
		}
	}
	if (rc == 0)
		add_text(t, &b.stack[b.depth - 1], pos, t->srclen, 0);
	if (rc == 0 && b.depth > 1) {
		const struct tnode *nd = &t->nodes[b.stack[b.depth - 1].node];

		rc = mirror_fail(err, MIRROR_EINPUT, "%s:%d: #%s never closed: "
		    "'%s'", t->name, nd->line, kind_word(nd->kind), nd->name);
	}
	free(b.stack);
	return rc < 0 ? -MIRROR_EINPUT : 0;
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
		rc = tree_build(t, tags, n, err);
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
tmpl_load_user(tmpl **out, const char *path, const char *what,
    enum tmpl_mode mode, int flags, mirror_error *err)
{
	strbuf sb;
	int rc;

	*out = NULL;
	strbuf_init(&sb);
	rc = userfile_read(&sb, path, what, (size_t)16 << 20, flags, err);
	if (rc == 0)
		rc = tmpl_parse(out, path, sb.data, sb.len, mode, err);
	strbuf_free(&sb);
	return rc;
}

int
tmpl_load(tmpl **out, const char *path, enum tmpl_mode mode,
    mirror_error *err)
{
	return tmpl_load_user(out, path, "templates", mode, 0, err);
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

const char *
tmpl_source(size_t *len, const tmpl *t)
{
	*len = t->srclen;
	return t->src;
}
