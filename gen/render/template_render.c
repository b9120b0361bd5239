/*
 * template_render.c: walk a parsed template with a JSON object.
 *
 * A stack of frames holds the current #each items, innermost last; a
 * name is looked up from the innermost frame outward to the root
 * object. Output goes straight into the caller's buffer, so the time is
 * linear in the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"
#include "render/slug.h"
#include "render/template_int.h"
#include "util/text.h"
#include "util/xalloc.h"


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
rerr(struct render *r, const struct tnode *nd, const char *what)
{
	return tmpl_perr(r->t, nd->line, r->err, what, nd->name);
}

/* Resolve nd's path to a value; specials give a fresh value in r->tmp. */
static int
lookup(const json_t **out, struct render *r, const struct tnode *nd)
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
		for (size_t d = r->depth; v == NULL && d-- > 0;) {
			const json_t *item = r->stack[d].item;

			if (json_is_object(item))
				v = json_object_get(item, nd->seg[0]);
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


/*
 * The |code filter in Markdown mode: s on one line, its indentation
 * (leading blanks and tabs) kept as the value gives it, the rest cleaned
 * and folded (text_line, capped as every field), with no escaping: the
 * parser allows it only inside a fenced code block, where Markdown reads
 * nothing but the closing fence. Being one line, it could close the
 * fence only if it began with a fence character after less than four
 * columns of indentation: then four spaces are its indentation (a line
 * indented four spaces closes no fence).
 */
static void
code_line(strbuf *sb, const char *s, size_t len)
{
	strbuf line;
	size_t ind = 0;

	while (ind < len && (s[ind] == ' ' || s[ind] == '\t'))
		ind++;
	strbuf_init(&line);
	text_line(&line, s + ind, len - ind, 0, 0);
	if (line.len > 0 && (line.data[0] == '`' || line.data[0] == '~') &&
	    ind < 4 && memchr(s, '\t', ind) == NULL)
		strbuf_puts(sb, "    ");
	else if (line.len > 0)
		strbuf_add(sb, s, ind);
	strbuf_add(sb, line.data, line.len);
	strbuf_free(&line);
}

/*
 * The |words filter: s as running text says a name of the store (a type,
 * a relationship): each '_' a blank ("analysis_model": "analysis
 * model"), then escaped as any value of mode html (1) or Markdown (0).
 */
static void
words_value(strbuf *sb, const char *s, size_t len, int html)
{
	strbuf w;

	strbuf_init(&w);
	for (size_t i = 0; i < len; i++)
		strbuf_putc(&w, s[i] == '_' ? ' ' : s[i]);
	if (html)
		escape_html(sb, w.data, w.len);
	else
		escape_md(sb, w.data, w.len);
	strbuf_free(&w);
}

static int
put_value(struct render *r, const struct tnode *nd, const json_t *v)
{
	char num[64];
	const char *s;
	size_t len;

	switch (json_typeof(v)) {
	case JSON_STRING:
		s = json_string_value(v);
		len = json_string_length(v);
		break;
	case JSON_INTEGER:
		len = text_int(num, json_integer_value(v));
		s = num;
		break;
	case JSON_REAL:
		if ((len = text_real(num, sizeof(num), json_real_value(v))) ==
		    0)
			return rerr(r, nd, "number too long:");
		s = num;
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
	case F_PATH:
		escape_url_path(r->sb, s, len);
		break;
	case F_ID:
		if (!json_is_string(v) || !slug_alphabet_only(s, len))
			return rerr(r, nd, "not an id ([a-z0-9-]+):");
		strbuf_add(r->sb, s, len);
		break;
	case F_SLUG: {
		char slug[SLUG_SIZE];

		slug_make_n(slug, s, len);
		strbuf_puts(r->sb, slug);
		break;
	}
	case F_CODE:
		if (r->t->mode == TMPL_HTML)
			escape_html(r->sb, s, len);
		else
			code_line(r->sb, s, len);
		break;
	case F_WORDS:
		words_value(r->sb, s, len, r->t->mode == TMPL_HTML);
		break;
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
render_each(struct render *r, const struct tnode *nd)
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
		const struct tnode *nd = &t->nodes[idx];

		switch (nd->kind) {
		case K_TEXT:
			strbuf_add(r->sb, t->src + nd->off, nd->len);
			break;
		case K_RAW:
			/* The raw slot's node has no name: say what it is. */
			if (r->raw == NULL)
				return tmpl_perr(t, nd->line, r->err,
				    "no content for raw slot", "{{{content}}}");
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
