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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_atoz.h"
#include "sys/jobs.h"
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

/*
 * The pass over the sorted names that writes the letters' pages into pg
 * (its counts made by facts_names_count: the rows of a name come one
 * after another, so its distinct names are the names a page lists).
 * Returns 0 or < 0 with err set.
 */
static int
names_pass(struct atoz_page *pg, const struct page_ctx *pc,
    mirror_error *err)
{
	const struct store_key key = { atoz_key, NULL };
	struct names_reader *nr;
	struct fact_name f;
	int rc;

	rc = facts_names_open(&nr, pc->st, &key, err);
	while (rc == 0 && (rc = facts_names_next(nr, &f, err)) == 1)
		rc = add_row(pg, &f, bucket_of(f.name), err);
	if (rc == 0 && pg->n > 0)
		rc = letter_page(pg, err);
	facts_names_close(nr);
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
 */
static int
atoz_kept(const struct page_ctx *pc)
{
	char hex[DIGEST_HEX + 1];

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

int
atoz_pages(const struct page_ctx *pc, mirror_error *err)
{
	struct atoz_counts c;
	struct atoz_page pg = { .pc = pc, .cnt = &c, .b = -1,
	    .base = { MIRROR_HASH_INIT, 0 } };
	int rc;

	/* Its pages stay when what they show is what they showed. */
	if (atoz_kept(pc))
		return 0;
	memset(&c, 0, sizeof(c));
	rc = facts_names_count(pc->st, count_name, &c, err);
	if (rc == 0)
		rc = index_page(pc, &c, err);
	strbuf_init(&pg.last);
	strbuf_init(&pg.text);
	pg.rows = xcalloc(ATOZ_PAGE, sizeof(*pg.rows));
	held_reset(&pg);
	/* What every page shows alike; a change of the code that makes
	 * them changes the tag. */
	page_hash_str(pg.base, "atoz page 1");
	page_hash_int(pg.base, ATOZ_PAGE);
	page_hash_int(pg.base, ATOZ_VALUE);
	page_hash_str(pg.base, pc->m->title);
	page_hash_projects(pg.base, pc->m);
	if (rc == 0) {
		mirror_error later_err;
		int lrc;

		/* The pages are written during the second pass's read, but
		 * when the family runs in parallel with the others
		 * (families.h) on two cores: the cores are theirs, and a
		 * queue of pages in flight would add its memory to theirs.
		 * From three jobs on, a core of its own halves the longest
		 * thread beside the pools. */
		pg.later = page_later_start(pc, pc->st == pc->m->st ||
		    mirror_jobs() > 2);
		rc = names_pass(&pg, pc, err);
		lrc = page_later_finish(pg.later, &later_err);
		if (rc == 0 && lrc < 0) {
			*err = later_err;
			rc = lrc;
		}
	}
	free(pg.rows);
	strbuf_free(&pg.text);
	strbuf_free(&pg.last);
	return rc;
}
