/*
 * site_atoz.c: the A-Z index of keys and names, keys/index and
 * keys/<letter>.
 *
 * Every project_state key and entities name of the store, whatever its
 * status and project (also the rows of projects whose pages a build
 * keeps, so the pages are the same as a full build's), grouped by first
 * letter: a page per letter that has names, a name once with every fact
 * that carries it, each linking to the fact's anchor on its project's
 * overview (or on the index, for rows of no project). Letters are a to
 * z (a name starting with a Latin letter such as "Ü" goes under its
 * base letter, as slugs map it), "0-9", and "other" for the rest. The
 * pages are HTML only (struct page_doc): a finder for browsers, whose
 * facts a reviewer reads on their projects' pages, so a Markdown twin
 * would only add a changed file to nearly every commit. The name heads
 * its facts, so each says its value alone, and the layer and kind once
 * when they all share them.
 *
 * The rows come sorted from the store (facts_names_open, ordered by
 * atoz_key) and are streamed: a letter of more than ATOZ_PAGE facts
 * gets more pages, keys/<letter>-2 and on, so a build holds one page's
 * facts whatever the store's size. Two passes: the first counts the
 * names and facts of each letter (every page's letter line and page
 * line need them), the second writes the pages.
 *
 * Every row a build gives its pages is kept in the user's cache
 * (output/kept_rows.h), under the digest of the record's "keys/" line.
 * The next build, when the record says which projects changed
 * (page_units), reads those projects' rows alone from the store
 * (facts_names_open of those projects) and merges them, in the store's order,
 * into the kept rows of the others: both passes go over that merge, and
 * the store steps what changed. The kept text is checked as it is read
 * (its tag and hashes, each field, each row, the order); any doubt and
 * the build reads the store whole, as a first build does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/kept_rows.h"
#include "site/items.h"
#include "site/site_atoz.h"
#include "sys/cache.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonbuild.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The most facts a letter's page lists; a letter with more has more
 * pages. Part of the pages' folder digest. */
#define ATOZ_PAGE 2000

/* Buckets: 0 digits, 1..26 letters, 27 the rest. */
#define B_DIGITS 0
#define B_OTHER 27
#define N_BUCKETS 28

/* The bucket of a name: its first character, letters folded to a-z. */
static int
bucket_of(const char *name)
{
	unsigned char c = (unsigned char)name[0];
	char first[8], slug[SLUG_SIZE];
	size_t n = 1;

	if (c >= '0' && c <= '9')
		return B_DIGITS;
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
		return 1 + ((c | 0x20) - 'a');
	if (c < 0x80)
		return B_OTHER;
	while (n < 4 && ((unsigned char)name[n] & 0xc0) == 0x80)
		n++;
	memcpy(first, name, n);
	first[n] = '\0';
	/* A Latin letter's slug starts with its base letter; any other
	 * character's is the fallback "x--<hash>". */
	slug_make(slug, first);
	if (slug[0] >= 'a' && slug[0] <= 'z' && slug[0] != 'x' &&
	    (slug[1] == '-' || slug[1] == '\0'))
		return 1 + (slug[0] - 'a');
	return B_OTHER;
}

/* The slug (file name) and label of bucket b, into slug and label. */
static void
bucket_names(int b, char slug[8], char label[16])
{
	if (b == B_DIGITS) {
		strcpy(slug, "0-9");
		strcpy(label, "0\xe2\x80\x93" "9");
	} else if (b == B_OTHER) {
		strcpy(slug, "other");
		strcpy(label, "Other");
	} else {
		slug[0] = (char)('a' + b - 1);
		slug[1] = '\0';
		label[0] = (char)('A' + b - 1);
		label[1] = '\0';
	}
}

/* The letters' counts, from the first pass. */
struct atoz_counts {
	size_t names[N_BUCKETS];        /* distinct names */
	size_t facts[N_BUCKETS];
};

/*
 * The sort key of a name (struct store_key's make): its bucket as a
 * byte (1 + b), the name with ASCII letters folded to lower case, a NUL,
 * the name. Ordered as bytes: by bucket, folded name, then name.
 */
static void
atoz_key(strbuf *out, const char *text, size_t len, void *arg)
{
	(void)arg;
	strbuf_putc(out, (char)(1 + bucket_of(text)));
	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		strbuf_putc(out, c >= 'A' && c <= 'Z' ? (char)(c + 'a' - 'A') :
		    c);
	}
	strbuf_putc(out, '\0');
	strbuf_add(out, text, len);
}

/* The number of pages of a letter of n facts (1 for none). */
static size_t
letter_pages(size_t n)
{
	return n <= ATOZ_PAGE ? 1 : (n + ATOZ_PAGE - 1) / ATOZ_PAGE;
}

/* The file name (no extension) of page part (0 the first) of the
 * letter slug, into sb. */
static void
part_slug(strbuf *sb, const char *slug, size_t part)
{
	strbuf_reset(sb);
	if (part == 0)
		strbuf_puts(sb, slug);
	else
		strbuf_printf(sb, "%s-%zu", slug, part + 1);
}

/* The most bytes of a value a letter's page shows. */
#define ATOZ_VALUE 80

/* The value of row f as its project's page shows it (cut at ATOZ_VALUE
 * bytes, at a character's start, "…" after a cut). A new string. */
static json_t *
name_value(const struct fact_name *f)
{
	const char *v = f->value;
	json_t *ev = NULL, *out;
	size_t n;
	strbuf sb;

	if (v == NULL) {
		struct fact_entity e = { .type = xstrdup(f->kind),
		    .description = xstrdup(f->description) };

		e.properties = json_loads(f->properties, 0, NULL);
		ev = item_entity_value(&e);
		json_decref(e.properties);
		free(e.type);
		free(e.description);
		v = json_string_value(ev);
	}
	n = strlen(v);
	strbuf_init(&sb);
	if (n > ATOZ_VALUE) {
		n = ATOZ_VALUE;
		while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
			n--;
	}
	strbuf_add(&sb, v, n);
	if (n < strlen(v))
		strbuf_puts(&sb, "\xe2\x80\xa6");
	out = json_string(sb.data);
	strbuf_free(&sb);
	json_decref(ev);
	return out;
}

/* One fact of a name: where it is, what it is, its value and the open
 * conflict it is in. A new object. */
static json_t *
fact_json(const struct site_model *m, const struct fact_name *f)
{
	long i = model_project_index(m, f->project);
	int loose = f->project[0] == '\0';
	int state = strcmp(f->layer, "state") == 0;
	const char *c = model_marker_of(m, state ? LAYER_STATE : LAYER_ENTITY,
	    f->id);
	char slug[SLUG_SIZE];
	struct jbuild b;

	jb_init(&b);
	jb_str(&b, "name", f->name);
	jb_take(&b, "value", name_value(f));
	if (c != NULL)
		slug_make(slug, c);
	jb_take(&b, "conflict_slug", c != NULL ? json_string(slug) :
	    json_null());
	jb_str(&b, "layer", f->layer);
	jb_str(&b, "id", f->id);
	jb_take(&b, "anchor", item_anchor(f->layer, f->id));
	jb_str(&b, "kind", f->kind);
	jb_str(&b, "status", f->status);
	jb_bool(&b, "active", strcmp(f->status, "active") == 0);
	jb_str(&b, "project", f->project);
	jb_str(&b, "project_name", loose ? "(no project)" : i >= 0 ?
	    m->projects[i].name : f->project);
	jb_take(&b, "project_slug", i >= 0 && !loose ?
	    json_string(m->pslug[i]) : json_null());
	jb_bool(&b, "on_index", i >= 0 && loose);
	jb_bool(&b, "linked", i >= 0);
	return jb_done(&b);
}

/* The letters that have names, for every page's letter line: each
 * label, slug, count (names) and whether it is the page's own (cur). */
static json_t *
letters_json(const size_t *count, int cur)
{
	json_t *letters = json_array();
	char slug[8], label[16];

	for (int b = 0; b < N_BUCKETS; b++) {
		if (count[b] == 0)
			continue;
		bucket_names(b, slug, label);
		json_array_append_new(letters, json_pack("{s:s, s:s, s:I, s:o, "
		    "s:b}", "label", label, "slug", slug, "count",
		    (json_int_t)count[b], "count_words", item_count(
		    (long long)count[b], "name", "names"), "current",
		    b == cur));
	}
	return letters;
}

/* The fields of a row a page holds (struct fact_name's, in order). */
enum { F_NAME, F_PROJECT, F_LAYER, F_ID, F_KIND, F_STATUS, F_VALUE,
	F_PROPERTIES, F_DESCRIPTION, N_FIELDS };

/* A row held until its page is complete: where each field starts in
 * the page's text ((size_t)-1: NULL). */
struct held_row {
	size_t off[N_FIELDS];
};

/*
 * The page being filled by the second pass. Its rows are held as the
 * store gave them, with a hash of what the page shows of them, so that
 * a page the last build wrote from the same rows is kept without its
 * data being built (page_kept): a change costs the pages it is on.
 */
struct atoz_page {
	const struct page_ctx *pc;
	const struct atoz_counts *cnt;
	int b;                  /* its letter; -1 before the first row */
	size_t part;            /* its number in the letter, from 0 */
	size_t n;               /* rows held */
	struct held_row *rows;  /* rows[0..n), room for ATOZ_PAGE */
	strbuf text;            /* their fields, each ending in NUL */
	int continued;          /* 1: its first name is the last page's */
	uint64_t h[2];          /* the rows and their markers */
	uint64_t base[2];       /* what every page shows alike: the
	                           projects' names, the sizes */
	strbuf last;            /* the last row's name */
	struct page_later *later;  /* writes the pages during the read */
	struct kept_writer *keep;  /* every row, kept for the next build
	                           (kept_rows.h); NULL: none */
};

/* The page line of a letter's page: NULL (JSON null) when the letter
 * has one page, else its number, how many, the previous and next. */
static json_t *
part_json(const char *slug, size_t part, size_t of)
{
	strbuf prev, next;
	json_t *v;

	if (of <= 1)
		return json_null();
	strbuf_init(&prev);
	strbuf_init(&next);
	if (part > 0)
		part_slug(&prev, slug, part - 1);
	if (part + 1 < of)
		part_slug(&next, slug, part + 1);
	v = json_pack("{s:I, s:I, s:o, s:o}", "number", (json_int_t)part + 1,
	    "of", (json_int_t)of, "prev", part > 0 ? json_string(prev.data) :
	    json_null(), "next", part + 1 < of ? json_string(next.data) :
	    json_null());
	strbuf_free(&prev);
	strbuf_free(&next);
	return v;
}

/*
 * Say the layer and kind once where a name's facts share them: the
 * name's "layer" and "kind" then, and each fact's "own" false; else
 * those null and "own" true, each fact saying its own. For each name of
 * names (a page's: a name continued on the next page is judged there
 * by its facts there).
 */
static void
shared_kinds(json_t *names)
{
	size_t i, j;
	json_t *nm, *f;

	json_array_foreach(names, i, nm) {
		json_t *facts = json_object_get(nm, "facts");
		json_t *first = json_array_get(facts, 0);
		const char *layer = json_string_value(json_object_get(first,
		    "layer"));
		const char *kind = json_string_value(json_object_get(first,
		    "kind"));
		int same = layer != NULL && kind != NULL;

		json_array_foreach(facts, j, f)
			same = same && strcmp(layer, json_string_value(
			    json_object_get(f, "layer"))) == 0 && strcmp(kind,
			    json_string_value(json_object_get(f, "kind"))) == 0;
		json_object_set_new(nm, "layer", same ? json_string(layer) :
		    json_null());
		json_object_set_new(nm, "kind", same ? json_string(kind) :
		    json_null());
		json_array_foreach(facts, j, f)
			json_object_set_new(f, "own", json_boolean(!same));
	}
}

struct work_count atoz_rows_shown;

/* Row r of pg as a struct fact_name (pointers into pg->text, valid
 * until the page is reset). */
static struct fact_name
held_name(const struct atoz_page *pg, const struct held_row *r)
{
	const char *f[N_FIELDS];

	for (int i = 0; i < N_FIELDS; i++)
		f[i] = r->off[i] == (size_t)-1 ? NULL : pg->text.data +
		    r->off[i];
	return (struct fact_name){ .name = f[F_NAME], .project =
	    f[F_PROJECT], .layer = f[F_LAYER], .id = f[F_ID], .kind =
	    f[F_KIND], .status = f[F_STATUS], .value = f[F_VALUE],
	    .properties = f[F_PROPERTIES], .description = f[F_DESCRIPTION] };
}

/* The names of pg's rows, each with its facts, a new array: a name
 * once, continued when it went on from the last page. */
static json_t *
held_names(const struct atoz_page *pg)
{
	json_t *names = json_array(), *facts = NULL;
	const char *last = NULL;

	for (size_t i = 0; i < pg->n; i++) {
		struct fact_name f = held_name(pg, &pg->rows[i]);

		if (last == NULL || strcmp(last, f.name) != 0) {
			facts = json_array();
			json_array_append_new(names, json_pack("{s:s, s:b, "
			    "s:o}", "name", f.name, "continued", last == NULL &&
			    pg->continued, "facts", facts));
		}
		last = f.name;
		json_array_append_new(facts, item_must(fact_json(pg->pc->m, &f),
		    "keys and names: row", f.id));
	}
	work_add(&atoz_rows_shown, pg->n);
	shared_kinds(names);
	return names;
}

/* The digest of the page pg holds (letter, part of of) into hex: its
 * rows' hash, the letters' counts every page's letter line shows, and
 * what all pages share. */
static void
held_digest(char hex[DIGEST_HEX + 1], const struct atoz_page *pg,
    size_t of)
{
	uint64_t h[2] = { pg->h[0] ^ pg->base[0], pg->h[1] ^ pg->base[1] };

	page_hash_int(h, pg->b);
	page_hash_int(h, (long long)pg->part);
	page_hash_int(h, (long long)of);
	page_hash_int(h, pg->continued);
	for (int b = 0; b < N_BUCKETS; b++)
		page_hash_int(h, (long long)pg->cnt->names[b]);
	page_folder_digest(hex, pg->pc, h[0], h[1]);
}

/* Forget pg's rows: the next page starts empty. */
static void
held_reset(struct atoz_page *pg)
{
	pg->n = 0;
	strbuf_reset(&pg->text);
	pg->h[0] = MIRROR_HASH_INIT;
	pg->h[1] = 0;
}

/* Write the page pg holds, unless the last build wrote it from the
 * same rows (then its files stay). Returns 0 or < 0 with err set. */
static int
letter_page(struct atoz_page *pg, mirror_error *err)
{
	char slug[8], label[16], hex[DIGEST_HEX + 1];
	size_t of = letter_pages(pg->cnt->facts[pg->b]);
	size_t names = pg->cnt->names[pg->b];
	strbuf path, title, file;
	struct page_doc doc;
	int rc = 0;

	bucket_names(pg->b, slug, label);
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_init(&file);
	part_slug(&file, slug, pg->part);
	strbuf_printf(&path, "keys/%s", file.data);
	strbuf_printf(&title, "Keys and names: %s", label);
	if (of > 1)
		strbuf_printf(&title, ", page %zu of %zu", pg->part + 1, of);
	held_digest(hex, pg, of);
	doc = (struct page_doc){ .path = path.data, .tname =
	    "atoz_letter.md", .title = title.data, .html_only = 1,
	    .digest = hex };
	if (!page_kept(pg->pc, &doc)) {
		doc.data = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "label",
		    label, "slug", slug, "count_words", item_count((long long)
		    names, "name", "names"), "letters", letters_json(
		    pg->cnt->names, pg->b), "names", held_names(pg), "part",
		    part_json(slug, pg->part, of));
		rc = page_later_put(pg->later, &doc, err);
	}
	held_reset(pg);
	strbuf_free(&path);
	strbuf_free(&title);
	strbuf_free(&file);
	return rc;
}

/* Copy f's fields into pg's text as row r, and hash them (with the open
 * conflict the fact is in) into pg->h. */
static void
hold_row(struct atoz_page *pg, struct held_row *r, const struct fact_name *f)
{
	const char *v[N_FIELDS] = { f->name, f->project, f->layer, f->id,
	    f->kind, f->status, f->value, f->properties, f->description };
	int state = strcmp(f->layer, "state") == 0;

	for (int i = 0; i < N_FIELDS; i++) {
		r->off[i] = v[i] == NULL ? (size_t)-1 : pg->text.len;
		if (v[i] != NULL)
			strbuf_add(&pg->text, v[i], strlen(v[i]) + 1);
		page_hash_str(pg->h, v[i]);
	}
	page_hash_str(pg->h, model_marker_of(pg->pc->m, state ? LAYER_STATE :
	    LAYER_ENTITY, f->id));
}

/*
 * Add row f (of letter b) to the page pg fills, writing the page before
 * it when f starts a new letter or the page is full. Returns 0 or < 0
 * with err set.
 */
static int
add_row(struct atoz_page *pg, const struct fact_name *f, int b,
    mirror_error *err)
{
	int same = pg->b == b && strcmp(pg->last.data, f->name) == 0;
	int rc = 0;

	if (pg->n > 0 && (pg->b != b || pg->n == ATOZ_PAGE)) {
		rc = letter_page(pg, err);
		pg->part = pg->b == b ? pg->part + 1 : 0;
	}
	if (rc < 0)
		return rc;
	/* A name goes on; on a new page it says it is continued. */
	if (pg->n == 0)
		pg->continued = same;
	hold_row(pg, &pg->rows[pg->n++], f);
	if (pg->keep != NULL)
		kept_writer_put(pg->keep, (const char *const[]){ f->name,
		    f->project, f->layer, f->id, f->kind, f->status, f->value,
		    f->properties, f->description }, N_FIELDS);
	pg->b = b;
	strbuf_reset(&pg->last);
	strbuf_puts(&pg->last, f->name);
	return 0;
}

/* facts_names_count's work: a name of rows facts into its letter's
 * counts (struct atoz_counts). */
static void
count_name(void *arg, const char *name, long long rows)
{
	struct atoz_counts *c = arg;
	int b = bucket_of(name);

	c->names[b]++;
	c->facts[b] += (size_t)rows;
}

/* ---- the rows: the store's, or the last build's merged with the
 * changed projects' ---------------------------------------------------- */

/* The cache's kind of the kept rows (core/sys/cache.h), the tag their
 * text starts with (the "keys/" digest they were written under
 * follows), and the most bytes of them an update reads back. */
#define KEEP_KIND "atoz"
#define KEEP_TAG "mirror atoz names 1"
#define KEEP_MAX (1024u << 20)

/* Past this share of the projects changed an update costs about what
 * the whole read does. */
#define CHANGED_SHARE 8

/* A changed project's row now, its fields owned (NULL kept). */
struct new_row {
	char *f[N_FIELDS];
	int b;
};

/* Where the rows of a pass come from: the store's reader (whole), or
 * the last build's rows (their kept text) without the changed projects'
 * merged with those projects' rows now (an update). */
struct name_src {
	mirror_store *st;
	struct names_reader *nr;        /* whole: the store's */
	int update;                     /* 1: an update */
	struct cache_map map;           /* the kept text */
	struct kept_cursor start, c;    /* its first row; the next */
	const char **changed;           /* the changed projects, sorted */
	size_t n_changed;
	struct new_row *rows;           /* their rows now, in order */
	size_t n_rows, at;
	struct fact_name head;          /* the next kept row to give */
	int has_head, head_b;           /* head: 0 to read, 1 held, 2 no
	                                   more; its letter */
	char prev[DIGEST_HEX + 1];      /* the last build's "keys/"
	                                   digest; "": none */
	int given;                      /* 1: a row was given */
	int starts;                     /* 1: the last row given is its
	                                   name's first */
	int last_b, last_l;             /* the last given row's order */
	strbuf last_name, last_project, last_id;
};

/* The layer's place in the store's order: an entity (2) first. */
static int
layer_rank(const char *layer)
{
	return strcmp(layer, "entity") == 0 ? 2 : 3;
}

/* ASCII letters folded to lower case, as atoz_key folds them. */
static unsigned char
fold(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c);
}

/* Where a row stands in the store's order (facts_names_open). */
struct row_order {
	int b;                  /* its letter */
	const char *name, *project;
	int l;                  /* layer_rank */
	const char *id;
};

/* The order of row v of letter b (pointers into v). */
static struct row_order
order_of(const struct fact_name *v, int b)
{
	return (struct row_order){ b, v->name, v->project,
	    layer_rank(v->layer), v->id };
}

/*
 * The store's order of two rows (facts_names_open: atoz_key as bytes,
 * then project, layer, id): < 0, 0 or > 0, as a and b compare.
 */
static int
order_cmp(const struct row_order *a, const struct row_order *b)
{
	const char *x = a->name, *y = b->name;
	int c;

	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	for (;; x++, y++) {
		unsigned char u = fold(*x), v = fold(*y);

		if (u != v)
			return u < v ? -1 : 1;
		if (u == 0)
			break;
	}
	if ((c = strcmp(a->name, b->name)) != 0 || (c = strcmp(a->project,
	    b->project)) != 0)
		return c;
	if (a->l != b->l)
		return a->l < b->l ? -1 : 1;
	return strcmp(a->id, b->id);
}

/* The fields f (kept_rows_next's) as the row *v: 1 when they are a
 * state or entity row as the store gives them, else 0. */
static int
kept_name(struct fact_name *v, const char *const *f)
{
	int state = f[F_LAYER] != NULL && strcmp(f[F_LAYER], "state") == 0;
	int entity = f[F_LAYER] != NULL && strcmp(f[F_LAYER], "entity") == 0;

	for (int i = F_NAME; i <= F_STATUS; i++)
		if (f[i] == NULL)
			return 0;
	if (state ? f[F_VALUE] == NULL || f[F_PROPERTIES] != NULL ||
	    f[F_DESCRIPTION] == NULL || f[F_DESCRIPTION][0] != '\0' :
	    !entity || f[F_VALUE] != NULL || f[F_PROPERTIES] == NULL ||
	    f[F_DESCRIPTION] == NULL)
		return 0;
	*v = (struct fact_name){ .name = f[F_NAME], .project = f[F_PROJECT],
	    .layer = state ? "state" : "entity", .id = f[F_ID], .kind =
	    f[F_KIND], .status = f[F_STATUS], .value = f[F_VALUE],
	    .properties = f[F_PROPERTIES], .description = f[F_DESCRIPTION] };
	return 1;
}

/* 1 when project id is one of s's changed projects. */
static int
src_changed(const struct name_src *s, const char *id)
{
	return bsearch(&id, s->changed, s->n_changed, sizeof(*s->changed),
	    array_str_cmp) != NULL;
}

/* The next kept row of a project that did not change into s->head:
 * 1, 0 after the last, -1 when the text is not as kept. */
static int
src_head(struct name_src *s)
{
	const char *f[N_FIELDS];
	int rc;

	while ((rc = kept_rows_next(&s->c, f, N_FIELDS)) == 1) {
		if (!kept_name(&s->head, f))
			return -1;
		if (!src_changed(s, s->head.project)) {
			s->head_b = bucket_of(s->head.name);
			return 1;
		}
	}
	return rc;
}

/* new row r as a struct fact_name into *v. */
static void
new_name(struct fact_name *v, const struct new_row *r)
{
	*v = (struct fact_name){ .name = r->f[F_NAME], .project =
	    r->f[F_PROJECT], .layer = r->f[F_LAYER], .id = r->f[F_ID], .kind =
	    r->f[F_KIND], .status = r->f[F_STATUS], .value = r->f[F_VALUE],
	    .properties = r->f[F_PROPERTIES], .description =
	    r->f[F_DESCRIPTION] };
}

/* What a merge gives when the kept rows are not what they must be: the
 * caller reads the store whole instead. */
#define SRC_DOUBT 2

/* Note *v (of letter b) as the last row s gave, after checking that it
 * comes after the one before: 1, or SRC_DOUBT when it does not. */
static int
src_given(struct name_src *s, const struct fact_name *v, int b)
{
	struct row_order now = order_of(v, b), last = { s->last_b,
	    s->last_name.data, s->last_project.data, s->last_l,
	    s->last_id.data };

	if (s->given && order_cmp(&last, &now) >= 0)
		return SRC_DOUBT;
	s->starts = !s->given || strcmp(s->last_name.data, v->name) != 0;
	s->given = 1;
	s->last_b = b;
	s->last_l = now.l;
	strbuf_reset(&s->last_name);
	strbuf_puts(&s->last_name, v->name);
	strbuf_reset(&s->last_project);
	strbuf_puts(&s->last_project, v->project);
	strbuf_reset(&s->last_id);
	strbuf_puts(&s->last_id, v->id);
	return 1;
}

/*
 * The next row of an update into *v (valid until the source is closed)
 * and its letter *b: the kept rows of the projects that did not change
 * and the changed projects' rows now, in the store's order. Returns 1,
 * 0 after the last, or SRC_DOUBT (the kept text is not as kept, or its
 * rows are not in order).
 */
static int
merge_next(struct name_src *s, struct fact_name *v, int *b)
{
	struct fact_name nv;
	int rc, take_new;

	if (s->has_head == 0) {
		if ((rc = src_head(s)) < 0)
			return SRC_DOUBT;
		s->has_head = rc == 1 ? 1 : 2;
	}
	if (s->has_head == 2 && s->at == s->n_rows)
		return 0;
	if (s->at < s->n_rows)
		new_name(&nv, &s->rows[s->at]);
	if (s->at < s->n_rows && s->has_head == 1) {
		struct row_order a = order_of(&nv, s->rows[s->at].b),
		    h = order_of(&s->head, s->head_b);

		take_new = order_cmp(&a, &h) < 0;
	} else
		take_new = s->at < s->n_rows;
	if (take_new) {
		*v = nv;
		*b = s->rows[s->at++].b;
	} else {
		*v = s->head;
		*b = s->head_b;
		s->has_head = 0;
	}
	return src_given(s, v, *b);
}

/* The next row of s into *v and *b: 1, 0 after the last, SRC_DOUBT (an
 * update's kept rows in doubt), or < 0 with err set. */
static int
src_next(struct name_src *s, struct fact_name *v, int *b,
    mirror_error *err)
{
	int rc;

	if (s->update)
		return merge_next(s, v, b);
	rc = facts_names_next(s->nr, v, err);
	if (rc == 1)
		*b = bucket_of(v->name);
	return rc;
}

/* Start s's rows again from the first. */
static void
src_rewind(struct name_src *s)
{
	s->c = s->start;
	s->at = 0;
	s->has_head = 0;
	s->given = 0;
}

/* Free what s holds; it may be opened again. */
static void
src_close(struct name_src *s)
{
	facts_names_close(s->nr);
	s->nr = NULL;
	for (size_t i = 0; i < s->n_rows; i++)
		for (int k = 0; k < N_FIELDS; k++)
			free(s->rows[i].f[k]);
	free(s->rows);
	free(s->changed);
	s->rows = NULL;
	s->changed = NULL;
	s->n_rows = s->n_changed = 0;
	s->update = 0;
	cache_unmap(&s->map);
}

/* The cache's key of the rows kept under the "keys/" digest hex into
 * sb; and (tag not NULL) the tag their text starts with into tag. */
static void
keep_key(strbuf *sb, strbuf *tag, const char *hex)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "atoz names\n%s", hex);
	if (tag != NULL) {
		strbuf_reset(tag);
		strbuf_printf(tag, KEEP_TAG " %s", hex);
	}
}

/* Read the changed projects' rows now (s->changed) into s->rows.
 * Returns 0 or < 0 with err set. */
static int
read_changed(struct name_src *s, mirror_error *err)
{
	const struct store_key key = { atoz_key, NULL };
	struct names_reader *nr;
	struct fact_name f;
	size_t cap = 0;
	int rc;

	rc = facts_names_open(&nr, s->st, &key, s->changed, s->n_changed,
	    err);
	while (rc == 0 && (rc = facts_names_next(nr, &f, err)) == 1) {
		const char *v[N_FIELDS] = { f.name, f.project, f.layer, f.id,
		    f.kind, f.status, f.value, f.properties, f.description };
		struct new_row *r = &ARRAY_PUSH(s->rows, s->n_rows, cap);

		for (int k = 0; k < N_FIELDS; k++)
			r->f[k] = v[k] != NULL ? xstrdup(v[k]) : NULL;
		r->b = bucket_of(f.name);
		rc = 0;
	}
	facts_names_close(nr);
	return rc;
}

/*
 * Open s as an update when the record says which projects changed
 * (page_units), few did, none is gone, and the cache holds the rows the
 * last build kept under the "keys/" digest it recorded (into s->prev):
 * returns 1 (the changed projects' rows read); 0 when the rows must be
 * read whole (s as it was); < 0 with err set.
 */
static int
src_update(struct name_src *s, const struct page_ctx *pc,
    mirror_error *err)
{
	struct page_unit *u = NULL;
	size_t n = 0, cap = 0;
	strbuf key, tag;
	int ok;

	if (pc->w->out == NULL || pc->w->record == NULL ||
	    !record_prev(s->prev, pc->w->record, "keys/"))
		return 0;
	ok = page_units(&u, &n, pc);
	for (size_t i = 0; ok && i < n; i++) {
		if (strcmp(u[i].prev, u[i].hex) == 0)
			continue;
		ok = u[i].project >= 0;
		if (ok)
			ARRAY_PUSH(s->changed, s->n_changed, cap) =
			    pc->m->projects[u[i].project].id;
	}
	ok = ok && s->n_changed * CHANGED_SHARE <= n + CHANGED_SHARE;
	page_units_free(u, n);
	strbuf_init(&key);
	strbuf_init(&tag);
	keep_key(&key, &tag, s->prev);
	ok = ok && cache_map(&s->map, KEEP_MAX, KEEP_KIND, key.data,
	    key.len) == 0 && kept_rows_open(&s->start, s->map.data,
	    s->map.len, tag.data, &s->map);
	strbuf_free(&key);
	strbuf_free(&tag);
	if (!ok) {
		src_close(s);
		return 0;
	}
	qsort(s->changed, s->n_changed, sizeof(*s->changed), array_str_cmp);
	s->update = 1;
	src_rewind(s);
	return read_changed(s, err) < 0 ? -1 : 1;
}

/* The letters' counts of an update's rows into c (zeroed first), s
 * then rewound: 0, or SRC_DOUBT (the caller reads the store whole). */
static int
src_count(struct name_src *s, struct atoz_counts *c)
{
	struct fact_name f;
	int b, rc;

	memset(c, 0, sizeof(*c));
	while ((rc = merge_next(s, &f, &b)) == 1) {
		c->names[b] += s->starts;
		c->facts[b]++;
	}
	src_rewind(s);
	return rc;
}

/*
 * The pass over the sorted names of s that writes the letters' pages
 * into pg (its counts made before: the rows of a name come one after
 * another, so its distinct names are the names a page lists). Returns
 * 0 or < 0 with err set.
 */
static int
names_pass(struct atoz_page *pg, struct name_src *s, mirror_error *err)
{
	struct fact_name f;
	int rc, b;

	while ((rc = src_next(s, &f, &b, err)) == 1)
		if ((rc = add_row(pg, &f, b, err)) < 0)
			break;
	/* The rows were checked by the count's pass: the same again. */
	if (rc == SRC_DOUBT)
		rc = mirror_fail(err, MIRROR_EIO, "keys and names: the kept "
		    "rows changed during the build");
	if (rc == 0 && pg->n > 0)
		rc = letter_page(pg, err);
	return rc;
}

/* The index page, keys/index, from the counts. Returns 0 or < 0. */
static int
index_page(const struct page_ctx *pc, const struct atoz_counts *c,
    mirror_error *err)
{
	size_t names = 0, facts = 0;
	json_t *data;
	int rc;

	for (int b = 0; b < N_BUCKETS; b++) {
		names += c->names[b];
		facts += c->facts[b];
	}
	data = json_pack("{s:o, s:o, s:I}", "letters", letters_json(
	    c->names, -1), "count_words", item_count((long long)names, "name",
	    "names"), "facts", (json_int_t)facts);
	rc = page_write_figures(pc, &(struct page_doc){ .path = "keys/index",
	    .tname = "atoz.md", .title = "Keys and names A\xe2\x80\x93Z",
	    .data = data, .html_only = 1 }, err);
	json_decref(data);
	return rc;
}

/* 1: every page below keys/ is HTML only. */
static int
every_page(const char *path, size_t len)
{
	(void)path;
	(void)len;
	return 1;
}

/*
 * 1 when the A-Z pages were kept as the last build wrote them: what
 * they show (every state and entity row's names columns and every
 * project's id, name and aliases: the digest pass's names, digest.h)
 * is what it was, and DIR holds their files (page_keep_folder); else 0,
 * and the caller writes them. A change elsewhere costs no read at all.
 * Their digest (the record's "keys/" line, under which the cache keeps
 * their rows) into hex either way ("" without a record).
 */
static int
atoz_kept(const struct page_ctx *pc, char hex[DIGEST_HEX + 1])
{
	const struct disputed_list *d = &pc->m->disputed;
	/* "html": the pages are HTML only, so a folder an older build kept
	 * with Markdown twins (and links to them) is never kept as it is. */
	uint64_t h = hash_add(MIRROR_HASH_INIT, "atoz html", 9);

	/* Its markers: the members of open conflicts. */
	for (size_t i = 0; i < d->n; i++) {
		h = hash_add_str(h, d->items[i].kind);
		h = hash_add_str(h, d->items[i].id);
		h = hash_add_str(h, d->items[i].conflict_id);
	}
	h = hash_step(h, ATOZ_PAGE);
	page_folder_digest(hex, pc, pc->m->digest.names, h);
	return hex[0] != '\0' && page_keep_folder(pc, "keys/", NULL, hex,
	    every_page);
}

/* Start pg, whose rows come from s, over pc, as atoz_pages fills it. */
static void
page_start(struct atoz_page *pg, const struct page_ctx *pc,
    const struct atoz_counts *c)
{
	*pg = (struct atoz_page){ .pc = pc, .cnt = c, .b = -1,
	    .base = { MIRROR_HASH_INIT, 0 } };
	strbuf_init(&pg->last);
	strbuf_init(&pg->text);
	pg->rows = xcalloc(ATOZ_PAGE, sizeof(*pg->rows));
	held_reset(pg);
	/* What every page shows alike; a change of the code that makes
	 * them changes the tag. */
	page_hash_str(pg->base, "atoz page 1");
	page_hash_int(pg->base, ATOZ_PAGE);
	page_hash_int(pg->base, ATOZ_VALUE);
	page_hash_str(pg->base, pc->m->title);
	page_hash_projects(pg->base, pc->m);
}

/*
 * The rows of s and their letters' counts into c: the last build's
 * merged with the changed projects' when it can (src_update), else the
 * store's whole. Returns 0 or < 0 with err set.
 */
static int
src_open(struct name_src *s, const struct page_ctx *pc,
    struct atoz_counts *c, mirror_error *err)
{
	const struct store_key key = { atoz_key, NULL };
	int rc = src_update(s, pc, err);

	if (rc == 1 && src_count(s, c) == 0)
		return 0;
	if (rc < 0)
		return rc;
	/* Nothing kept, or not as kept: the whole read. */
	src_close(s);
	memset(c, 0, sizeof(*c));
	rc = facts_names_count(pc->st, count_name, c, err);
	return rc < 0 ? rc : facts_names_open(&s->nr, pc->st, &key, NULL, 0,
	    err);
}

/* Start keeping every row pg is given for the next build, under the
 * "keys/" digest hex, into w: 1, or 0 when there is no cache. */
static int
keep_start(struct atoz_page *pg, struct kept_writer *w, const char *hex)
{
	strbuf key, tag;
	struct cache_writer *sink;

	strbuf_init(&key);
	strbuf_init(&tag);
	keep_key(&key, &tag, hex);
	sink = cache_writer_start(KEEP_KIND, key.data, key.len);
	if (sink != NULL) {
		kept_writer_begin(w, sink, tag.data);
		pg->keep = w;
	}
	strbuf_free(&key);
	strbuf_free(&tag);
	return sink != NULL;
}

/* End what pg kept: in place when ok (the pages were written), and the
 * rows kept under prev forgotten; else dropped. */
static void
keep_end(struct atoz_page *pg, const char *hex, const char *prev, int ok)
{
	struct kept_writer *w = pg->keep;
	strbuf key;

	if (w == NULL)
		return;
	if (ok)
		kept_writer_end(w);
	cache_writer_end(w->sink, ok);
	kept_writer_free(w);
	pg->keep = NULL;
	strbuf_init(&key);
	if (ok && prev[0] != '\0' && strcmp(prev, hex) != 0) {
		keep_key(&key, NULL, prev);
		cache_drop(KEEP_KIND, key.data, key.len);
	}
	strbuf_free(&key);
}

/* The letters' pages from s (pg started), written during the read.
 * Returns 0 or < 0 with err set. */
static int
letters_write(struct atoz_page *pg, struct name_src *s, mirror_error *err)
{
	const struct page_ctx *pc = pg->pc;
	mirror_error later_err;
	int rc, lrc;

	/* The pages are written during the read, but when the family runs
	 * in parallel with the others (families.h) on two cores: the
	 * cores are theirs, and a queue of pages in flight would add its
	 * memory to theirs. From three jobs on, a core of its own halves
	 * the longest thread beside the pools. */
	pg->later = page_later_start(pc, pc->st == pc->m->st ||
	    mirror_jobs() > 2);
	rc = names_pass(pg, s, err);
	lrc = page_later_finish(pg->later, &later_err);
	if (rc == 0 && lrc < 0) {
		*err = later_err;
		rc = lrc;
	}
	return rc;
}

/* The pages when they are not kept whole (atoz_kept gave hex): their
 * rows merged or read whole (src_open), kept for the next build. Returns
 * 0 or < 0 with err set. */
static int
atoz_write(const struct page_ctx *pc, const char *hex, mirror_error *err)
{
	struct atoz_counts c;
	struct atoz_page pg;
	struct name_src s = { .st = pc->st };
	struct kept_writer keep;
	int rc;

	strbuf_init(&s.last_name);
	strbuf_init(&s.last_project);
	strbuf_init(&s.last_id);
	rc = src_open(&s, pc, &c, err);
	if (rc == 0)
		rc = index_page(pc, &c, err);
	page_start(&pg, pc, &c);
	/* Every row kept for the next build, when it has a record. */
	if (rc == 0 && hex[0] != '\0' && pc->w->out != NULL)
		(void)keep_start(&pg, &keep, hex);
	if (rc == 0)
		rc = letters_write(&pg, &s, err);
	keep_end(&pg, hex, s.prev, rc == 0);
	src_close(&s);
	free(pg.rows);
	strbuf_free(&pg.text);
	strbuf_free(&pg.last);
	strbuf_free(&s.last_name);
	strbuf_free(&s.last_project);
	strbuf_free(&s.last_id);
	return rc;
}

struct work_count atoz_rows_read;

int
atoz_pages(const struct page_ctx *pc, mirror_error *err)
{
	char hex[DIGEST_HEX + 1];
	struct work_count mine;
	struct work_count *was;
	int rc;

	/* Its pages stay when what they show is what they showed. */
	if (atoz_kept(pc, hex))
		return 0;
	/* The rows this thread steps are the family's: counted apart, and
	 * then where they were counted. */
	atomic_init(&mine.n, 0);
	was = work_rows_into(&mine);
	rc = atoz_write(pc, hex, err);
	(void)work_rows_into(was);
	work_add(was, work_get(&mine));
	work_add(&atoz_rows_read, work_get(&mine));
	return rc;
}
