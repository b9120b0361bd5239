/*
 * tablekinds.c: the templates' tables and their stylesheet rules.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/tablekinds.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* A header line with more variants is no known header. */
#define VARIANTS_MAX 16

struct kind {
	uint32_t hash;
	int clash;              /* another kind has the same class */
	char **labels;
	size_t n;
	unsigned char *right;   /* per label: 1 when its column's delimiter
	                           cell ends in ':' alone ("--:") */
};

struct table_kinds {
	struct kind *v;
	size_t n, cap;
	table_labels_fn *labels_of;  /* while templates are added */
};

struct table_kinds *
table_kinds_new(void)
{
	return xcalloc(1, sizeof(struct table_kinds));
}

/* The hash of n labels, as their class shows it. */
static uint32_t
labels_hash(const char *const *labels, size_t n)
{
	uint64_t h = MIRROR_HASH_INIT;

	for (size_t i = 0; i < n; i++)
		h = hash_add_str(h, labels[i]);
	return (uint32_t)(hash_mix(h) >> 32);
}

/* The end of the tag starting at s[i] ("{{"), past its "}}"; 0 when it
 * has none before len. */
static size_t
tag_end(const char *s, size_t len, size_t i)
{
	for (size_t j = i + 2; j + 1 < len; j++)
		if (s[j] == '}' && s[j + 1] == '}')
			return j + 2;
	return 0;
}

/* 1 when the tag at s[i] (ending at e) starts with word. */
static int
tag_is(const char *s, size_t i, size_t e, const char *word)
{
	size_t w = strlen(word);

	return e - i - 4 >= w && memcmp(s + i + 2, word, w) == 0;
}

/*
 * The block opened by the tag at s[open] ({{#if}} or {{#unless}}): its
 * then-branch from *then to *els_at (an {{else}} or its close), its
 * else-branch from *els to *close, *after past the close. Returns 0, or
 * -1 when it is not closed on the line.
 */
static int
block_bounds(size_t b[5], const char *s, size_t len, size_t open)
{
	size_t i = tag_end(s, len, open), e;
	int depth = 1;

	b[0] = i;                                  /* then starts */
	b[1] = b[2] = 0;                           /* else: none yet */
	for (; i + 1 < len; i = e) {
		if (s[i] != '{' || s[i + 1] != '{') {
			e = i + 1;
			continue;
		}
		if ((e = tag_end(s, len, i)) == 0)
			return -1;
		if (tag_is(s, i, e, "#if") || tag_is(s, i, e, "#unless"))
			depth++;
		else if (tag_is(s, i, e, "/if") || tag_is(s, i, e, "/unless"))
			depth--;
		else if (depth == 1 && e - i == 8 && tag_is(s, i, e, "else"))
			b[1] = i, b[2] = e;
		if (depth == 0) {
			if (b[1] == 0)
				b[1] = b[2] = i;
			b[3] = i;                  /* else ends */
			b[4] = e;                  /* after the close */
			return 0;
		}
	}
	return -1;
}

/* Expand s (len bytes) into *out; 0, or -1 as table_kinds_variants. */
static int
expand(char ***out, size_t *n, size_t *cap, const char *s, size_t len)
{
	const char *o = NULL;
	size_t i, e, b[5];
	strbuf v;
	int rc = 0;

	for (i = 0; i + 1 < len && o == NULL; i++)
		if (s[i] == '{' && s[i + 1] == '{')
			o = s + i;
	if (o == NULL) {
		if (*n >= VARIANTS_MAX)
			return -1;
		ARRAY_PUSH(*out, *n, *cap) = xstrndup(s, len);
		return 0;
	}
	i = (size_t)(o - s);
	if ((e = tag_end(s, len, i)) == 0 || !(tag_is(s, i, e, "#if ") ||
	    tag_is(s, i, e, "#unless ")) || block_bounds(b, s, len, i) < 0)
		return -1;
	strbuf_init(&v);
	for (int branch = 0; branch < 2 && rc == 0; branch++) {
		strbuf_reset(&v);
		strbuf_add(&v, s, i);
		if (branch == 0)
			strbuf_add(&v, s + b[0], b[1] - b[0]);
		else
			strbuf_add(&v, s + b[2], b[3] - b[2]);
		strbuf_add(&v, s + b[4], len - b[4]);
		rc = expand(out, n, cap, v.data != NULL ? v.data : "", v.len);
	}
	strbuf_free(&v);
	return rc;
}

static void
strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int
table_kinds_variants(char ***out, size_t *n, const char *line, size_t len)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (expand(out, n, &cap, line, len) == 0)
		return 0;
	strings_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

/* Per label of a table of n labels whose delimiter row is d: 1 when
 * the column's delimiter cell (the first cell is no label's) is right
 * aligned, "--:", else 0. A new array of n + 1. */
static unsigned char *
right_columns(const char *d, size_t n)
{
	unsigned char *right = xcalloc(n + 1, 1);
	size_t cell = 0;
	const char *s = d;

	while (*s == ' ')
		s++;
	if (*s == '|')
		s++;
	while (*s != '\0') {
		const char *e = strchr(s, '|');
		size_t len = e != NULL ? (size_t)(e - s) : strlen(s);

		while (len > 0 && s[len - 1] == ' ')
			len--;
		while (len > 0 && *s == ' ')
			s++, len--;
		if (cell > 0 && cell <= n && len > 1 && s[len - 1] == ':' &&
		    s[0] != ':')
			right[cell - 1] = 1;
		cell++;
		if (e == NULL)
			break;
		s = e + 1;
	}
	return right;
}

/* Add the kind of header h over delimiter row d, when the two make a
 * table (k->labels_of says) whose labels have text. Returns 0 or < 0. */
static int
add_pair(struct table_kinds *k, const char *h, const char *d,
    mirror_error *err)
{
	strbuf md;
	char **labels;
	size_t n, shown = 0;
	int rc;

	strbuf_init(&md);
	strbuf_printf(&md, "%s\n%s\n", h, d);
	rc = k->labels_of(&labels, &n, md.data, md.len, err);
	strbuf_free(&md);
	for (size_t i = 0; rc == 1 && i < n; i++)
		shown += labels[i][0] != '\0';
	if (rc == 1 && shown > 0) {
		ARRAY_PUSH(k->v, k->n, k->cap) = (struct kind){
		    .hash = labels_hash((const char *const *)labels, n),
		    .labels = labels, .n = n, .right = right_columns(d, n) };
		return 0;
	}
	strings_free(labels, n);
	return rc < 0 ? rc : 0;
}

/* Add the kinds of the table whose header line starts t[0..len) (a
 * newline ends it, and another line, the delimiter row, follows): that
 * header over that line, as add_pair. Returns 0, or < 0 with err set. */
static int
add_lines(struct table_kinds *k, const char *t, size_t len,
    mirror_error *err)
{
	const char *nl = memchr(t, '\n', len), *h = t, *d = nl + 1, *dn;
	size_t hl = (size_t)(nl - t), dl;
	char **hv, **dv;
	size_t nh, nd;
	int rc = 0;

	dn = memchr(d, '\n', len - hl - 1);
	dl = dn != NULL ? (size_t)(dn - d) : (size_t)(t + len - d);

	if (table_kinds_variants(&hv, &nh, h, hl) < 0)
		return 0;
	if (table_kinds_variants(&dv, &nd, d, dl) < 0) {
		strings_free(hv, nh);
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < nh; i++)
		for (size_t j = 0; rc == 0 && j < nd; j++)
			rc = add_pair(k, hv[i], dv[j], err);
	strings_free(hv, nh);
	strings_free(dv, nd);
	return rc;
}

int
table_kinds_add_template(struct table_kinds *k, const char *src,
    size_t len, table_labels_fn *labels_of, mirror_error *err)
{
	size_t at = 0;
	int rc = 0;

	k->labels_of = labels_of;
	while (rc == 0 && at < len) {
		const char *nl = memchr(src + at, '\n', len - at);
		size_t end = nl != NULL ? (size_t)(nl - src) : len;

		if (src[at] == '|' && nl != NULL && end + 1 < len)
			rc = add_lines(k, src + at, len - at, err);
		at = end + 1;
	}
	return rc;
}

/* Order of kinds: by hash, then by labels. */
static int
cmp_kind(const void *pa, const void *pb)
{
	const struct kind *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		int c = strcmp(a->labels[i], b->labels[i]);

		if (c != 0)
			return c;
	}
	return a->n < b->n ? -1 : a->n > b->n;
}

void
table_kinds_seal(struct table_kinds *k)
{
	size_t j = 0;

	if (k->n > 0)
		qsort(k->v, k->n, sizeof(*k->v), cmp_kind);
	for (size_t i = 0; i < k->n; i++) {
		if (j > 0 && cmp_kind(&k->v[j - 1], &k->v[i]) == 0) {
			strings_free(k->v[i].labels, k->v[i].n);
			free(k->v[i].right);
			continue;
		}
		k->v[j++] = k->v[i];
	}
	k->n = j;
	for (size_t i = 1; i < k->n; i++)
		if (k->v[i].hash == k->v[i - 1].hash)
			k->v[i].clash = k->v[i - 1].clash = 1;
}

int
table_kinds_scan(struct table_kinds **out, tmpl_set *ts,
    table_labels_fn *labels_of, mirror_error *err)
{
	struct table_kinds *k = table_kinds_new();
	mirror_error skip;
	char **names;
	size_t n, len;
	int rc;

	*out = NULL;
	rc = tmpl_set_names(&names, &n, ts, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const tmpl *t;
		const char *src;

		if (tmpl_set_get(&t, ts, names[i], &skip) < 0)
			continue;
		src = tmpl_source(&len, t);
		rc = table_kinds_add_template(k, src, len, labels_of,
		    err);
	}
	strings_free(names, n);
	if (rc < 0) {
		table_kinds_free(k);
		return rc;
	}
	table_kinds_seal(k);
	*out = k;
	return 0;
}

/* The class of the kind of hash h, "cols-" and eight hex digits: the
 * table's class attribute and the stylesheet's selector alike. */
static void
class_of(char cls[TABLE_KINDS_CLASS_MAX], uint32_t h)
{
	(void)snprintf(cls, TABLE_KINDS_CLASS_MAX, "cols-%08x", (unsigned)h);
}

/* array_lower order of a hash (key) and a kind. */
static int
cmp_hash_key(const void *key, const void *e, const void *ctx)
{
	uint32_t h = *(const uint32_t *)key, x = ((const struct kind *)e)->hash;

	(void)ctx;
	return (h > x) - (h < x);
}

/* The classed kind of sealed k whose labels are the n labels, or NULL
 * when there is none (or its class clashes with another's). */
static const struct kind *
kind_of(const struct table_kinds *k, const char *const *labels, size_t n)
{
	uint32_t h = labels_hash(labels, n);
	size_t lo = array_lower(&h, k->v, k->n, sizeof(*k->v), cmp_hash_key,
	    NULL);                      /* the first kind of hash h */

	if (lo == k->n || k->v[lo].hash != h || k->v[lo].clash ||
	    k->v[lo].n != n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(k->v[lo].labels[i], labels[i]) != 0)
			return NULL;
	return &k->v[lo];
}

int
table_kinds_class(char cls[TABLE_KINDS_CLASS_MAX],
    const struct table_kinds *k, const char *const *labels, size_t n)
{
	const struct kind *kd = kind_of(k, labels, n);

	if (kd == NULL)
		return 0;
	class_of(cls, kd->hash);
	return 1;
}

/* s and then ": " as a CSS string: see table_kinds_css. */
static void
css_label(strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"')
			strbuf_printf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f || c == '<')
			strbuf_printf(sb, "\\%X ", c);
		else
			strbuf_putc(sb, (char)c);
	}
	strbuf_puts(sb, ": \"");
}

/* The rules that right-align each classed kind's "--:" columns on a
 * screen wide enough for a table (a phone's card keeps its lines to
 * the left): one @media block, nothing when no column is so. */
static void
right_css(strbuf *sb, const struct table_kinds *k)
{
	char cls[TABLE_KINDS_CLASS_MAX];
	int open = 0;

	for (size_t i = 0; k != NULL && i < k->n; i++) {
		for (size_t c = 0; !k->v[i].clash && c < k->v[i].n; c++) {
			if (!k->v[i].right[c])
				continue;
			if (!open)
				strbuf_puts(sb, "\n/* The right-aligned "
				    "columns of the templates' tables "
				    "(mirror). */\n"
				    "@media (min-width: 40.0625rem) {\n");
			open = 1;
			class_of(cls, k->v[i].hash);
			strbuf_printf(sb, ".%s td:nth-child(%zu), .%s "
			    "th:nth-child(%zu) { text-align: right; }\n",
			    cls, c + 2, cls, c + 2);
		}
	}
	if (open)
		strbuf_puts(sb, "}\n");
}

/* 1 when a column of label s (right-aligned: right) holds a date or a
 * number, short and whole, which must stay on one line: a hyphen in
 * "2025-11-04" or "1e-12" is a place a browser breaks a line (issue 70,
 * item 4); 2 when it holds two dates ("Created · updated": on a phone
 * its label takes a line of its own, so that both fit the next); else
 * 0. Not a value column: a value may be a sentence, which kept on one
 * line would widen the page on a phone. */
static int
nowrap_label(const char *s, int right)
{
	static const char *const words[] = { "Updated", "updated",
	    "Detected", "Opened", "Created", "Closed", "Date", "Since",
	    "Latest change", "Confidence", "Hits" };

	if (right)
		return 1;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(s, words[i]) != NULL)
			return strstr(s, "\xc2\xb7") != NULL ? 2 : 1;
	return 0;
}

/* One rule of nowrap_css: for the columns whose nowrap_label is at
 * least min, sel after each one's selector, the whole inside head (a
 * closing "}" when head opens a block), declaring body. */
struct nowrap_rule {
	int min;
	const char *head, *sel, *body;
};

/* Append to sb rule r: one selector a column ("main table" keeping the
 * weight of the theme's rules it follows); nothing when no column is
 * so. A class and a column, no per-row bytes. */
static void
nowrap_rule(strbuf *sb, const struct table_kinds *k,
    const struct nowrap_rule *r)
{
	int min = r->min;
	const char *head = r->head, *sel = r->sel, *body = r->body;
	char cls[TABLE_KINDS_CLASS_MAX];
	int open = 0;

	for (size_t i = 0; k != NULL && i < k->n; i++) {
		for (size_t c = 0; !k->v[i].clash && c < k->v[i].n; c++) {
			if (nowrap_label(k->v[i].labels[c],
			    k->v[i].right[c]) < min)
				continue;
			class_of(cls, k->v[i].hash);
			strbuf_printf(sb, "%smain table.%s td:nth-child(%zu)%s",
			    open ? ",\n" : head, cls, c + 2, sel);
			open = 1;
		}
	}
	if (open)
		strbuf_printf(sb, " { %s }\n%s", body,
		    strchr(head, '{') != NULL ? "}\n" : "");
}

/* The rules that keep each classed kind's date and number columns on
 * one line (nowrap_label) at every width, and on a phone put the label
 * of a column of two dates on a line of its own. */
static void
nowrap_css(strbuf *sb, const struct table_kinds *k)
{
	static const struct nowrap_rule rules[] = {
		{ 1, "\n/* The date and number columns of the templates' "
		    "tables, on one line (mirror). */\n", "",
		    "white-space: nowrap;" },
		{ 2, "@media (max-width: 40rem) {\n", "::before",
		    "display: block;" },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		nowrap_rule(sb, k, &rules[i]);
}

int
table_kinds_nowrap(const struct table_kinds *k, const char *const *labels,
    size_t n, size_t col)
{
	const struct kind *kd = k != NULL ? kind_of(k, labels, n) : NULL;

	return kd != NULL && col < n &&
	    nowrap_label(kd->labels[col], kd->right[col]) > 0;
}

void
table_kinds_css(strbuf *sb, const struct table_kinds *k)
{
	char cls[TABLE_KINDS_CLASS_MAX];
	int open = 0;

	for (size_t i = 0; k != NULL && i < k->n; i++) {
		if (k->v[i].clash)
			continue;
		for (size_t c = 0; c < k->v[i].n; c++) {
			if (k->v[i].labels[c][0] == '\0')
				continue;
			if (!open)
				strbuf_puts(sb, "\n/* The column labels of "
				    "the templates' tables (mirror). */\n"
				    "@media (max-width: 40rem) {\n");
			open = 1;
			class_of(cls, k->v[i].hash);
			strbuf_printf(sb, ".%s td:nth-child(%zu)::before { "
			    "content: ", cls, c + 2);
			css_label(sb, k->v[i].labels[c]);
			strbuf_puts(sb, "; }\n");
		}
	}
	if (open)
		strbuf_puts(sb, "}\n");
	right_css(sb, k);
	nowrap_css(sb, k);
}

void
table_kinds_free(struct table_kinds *k)
{
	if (k == NULL)
		return;
	for (size_t i = 0; i < k->n; i++) {
		strings_free(k->v[i].labels, k->v[i].n);
		free(k->v[i].right);
	}
	free(k->v);
	free(k);
}
