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
 * (output/kept_rows.h), a page at a time, with a table of contents
 * under the digest of the record's "keys/" line (see "what a build
 * keeps" below). The next build, when the record says which projects
 * changed (page_units), reads those projects' rows alone from the store
 * (facts_names_open of those projects) and compares them with the
 * hashes the table keeps of their rows: when each is where it was (no
 * row more or less, no name changed), the pages of the rows that show
 * otherwise are made again from their kept rows merged with the
 * changed ones, and every other page stays as it is, its counts the
 * table's: a change costs its pages, whatever the store's size. A
 * change that moves rows (a name added, removed or renamed) walks every
 * kept page merged with the changed projects' rows, in the store's
 * order, as the store would give them. The kept text is checked as it
 * is read (its tags and hashes, each field, each row, the order, each
 * page's rows and first row); any doubt and the build reads the store
 * whole, as a first build does.
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
#include "words/fact_words.h"

/* The most facts a letter's page lists; a letter with more has more
 * pages. Part of the pages' folder digest. A fact changed makes its
 * page again (template, Markdown, HTML): 500 rows did it in a quarter
 * of 2,000's time (the A-Z's thread of a one-fact build at 100,000
 * facts: 6 to 13 ms, against 17 to 33), and a page of 500 is 70 kB. */
#define ATOZ_PAGE 500

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

/* The fields of a row a page holds (struct fact_name's, in order). */
enum { F_NAME, F_PROJECT, F_LAYER, F_ID, F_KIND, F_STATUS, F_VALUE,
	F_PROPERTIES, F_DESCRIPTION, N_FIELDS };

/* A row held until its page is complete: where each field starts in
 * the page's text ((size_t)-1: NULL), the open conflict its fact is in
 * (model_marker_of's, NULL: none) and its project's model index (-1:
 * none). */
struct held_row {
	size_t off[N_FIELDS];
	const char *marker;
	long project;
};

/* The value of row f as its project's page shows it (cut at ATOZ_VALUE
 * bytes, at a character's start, "…" after a cut). A new string. */
static json_t *
name_value(const struct fact_name *f)
{
	const char *v = f->value;
	json_t *props, *out;
	strbuf ev = { 0 };
	size_t n, len;

	if (v == NULL) {
		props = words_props_may_value(f->properties) ? json_loads(
		    f->properties, 0, NULL) : NULL;
		strbuf_init(&ev);
		words_entity_value(&ev, f->kind, props, f->description);
		json_decref(props);
		v = ev.data;
	}
	len = strlen(v);
	n = len;
	if (n > ATOZ_VALUE) {
		n = ATOZ_VALUE;
		while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
			n--;
	}
	if (n < len) {
		/* Cut: the entity's words where they are, else a copy. */
		if (ev.data == NULL)
			strbuf_init(&ev);
		if (v == ev.data)
			ev.len = n;
		else
			strbuf_add(&ev, v, n);
		strbuf_puts(&ev, "\xe2\x80\xa6");
		v = ev.data;
		n = ev.len;
	}
	out = json_stringn(v, n);
	strbuf_free(&ev);               /* none made: a no-op */
	return out;
}

/* The most strings a page's cache of short words (layers, kinds,
 * statuses) holds. */
#define WORDS_HELD 16

/* What the facts of a page share, made once a page (each a reference
 * the page's data takes): per model project its id, name, slug and
 * page, and the short words its rows repeat. Made by held_names. */
struct page_strs {
	const struct site_model *m;
	struct proj_strs {
		json_t *id, *name, *slug, *page;  /* NULL: not made yet */
		int loose;
	} *proj;
	json_t *words[WORDS_HELD];
	size_t n_words;
};

/* The string of s shared among ps's facts (a new reference). */
static json_t *
page_word(struct page_strs *ps, const char *s)
{
	json_t *v;

	for (size_t i = 0; i < ps->n_words; i++)
		if (strcmp(json_string_value(ps->words[i]), s) == 0)
			return json_incref(ps->words[i]);
	v = json_string(s);
	if (v != NULL && ps->n_words < WORDS_HELD)
		ps->words[ps->n_words++] = json_incref(v);
	return v;
}

/* The strings of project i (>= 0) of row f, from ps (made there when
 * missing). */
static const struct proj_strs *
proj_strs_of(struct page_strs *ps, long i, const struct fact_name *f)
{
	struct proj_strs *p = &ps->proj[i];
	int loose = f->project[0] == '\0';

	if (p->id != NULL && p->loose == loose && strcmp(json_string_value(
	    p->id), f->project) == 0)
		return p;
	json_decref(p->id);
	json_decref(p->name);
	json_decref(p->slug);
	json_decref(p->page);
	p->loose = loose;
	p->id = json_string(f->project);
	p->name = json_string(loose ? "(no project)" :
	    ps->m->projects[i].name);
	p->slug = !loose ? json_string(ps->m->pslug[i]) : json_null();
	p->page = item_project_page(ps->m, i);
	return p;
}

/* Drop what ps holds. */
static void
page_strs_free(struct page_strs *ps)
{
	for (size_t i = 0; i < ps->m->n_projects; i++) {
		json_decref(ps->proj[i].id);
		json_decref(ps->proj[i].name);
		json_decref(ps->proj[i].slug);
		json_decref(ps->proj[i].page);
	}
	free(ps->proj);
	for (size_t i = 0; i < ps->n_words; i++)
		json_decref(ps->words[i]);
}

/* One fact of a name (name, its string), row f held as r: where it is,
 * what it is, its value, the open conflict it is in, and whether it
 * says its own layer and kind (own). What facts share comes from ps. A
 * new object. */
static json_t *
fact_json(struct page_strs *ps, json_t *name, const struct fact_name *f,
    const struct held_row *r, int own)
{
	long i = r->project;
	int loose = f->project[0] == '\0';
	const char *c = r->marker;
	const struct proj_strs *p = i >= 0 ? proj_strs_of(ps, i, f) : NULL;
	char slug[SLUG_SIZE];
	struct jbuild b;

	jb_init(&b);
	jb_ref(&b, "name", name);
	jb_take(&b, "value", name_value(f));
	if (c != NULL)
		slug_make(slug, c);
	jb_take(&b, "conflict_slug", c != NULL ? json_string(slug) :
	    json_null());
	jb_take(&b, "conflict_page", item_conflict_page(c));
	jb_take(&b, "layer", page_word(ps, f->layer));
	jb_str(&b, "id", f->id);
	jb_take(&b, "anchor", item_anchor(f->layer, f->id));
	jb_take(&b, "kind", f->kind != NULL ? page_word(ps, f->kind) : NULL);
	jb_take(&b, "status", page_word(ps, f->status));
	jb_bool(&b, "active", strcmp(f->status, "active") == 0);
	if (p != NULL) {
		jb_ref(&b, "project", p->id);
		jb_ref(&b, "project_name", p->name);
	} else {
		jb_str(&b, "project", f->project);
		jb_str(&b, "project_name", loose ? "(no project)" : f->project);
	}
	jb_take(&b, "project_slug", p != NULL ? json_incref(p->slug) :
	    json_null());
	jb_bool(&b, "on_index", i >= 0 && loose);
	jb_bool(&b, "linked", i >= 0);
	jb_take(&b, "page", p != NULL ? json_incref(p->page) : json_null());
	jb_bool(&b, "own", own);
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

struct atoz_keep;

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
	struct atoz_keep *keep; /* every row, kept for the next build
	                           (kept_rows.h); NULL: none */
	long *done;             /* the pages this build kept or wrote
	                           (page_id), for a pass after another */
	size_t n_done, cap_done;
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

/* 1 when pg's rows [i, j) share their layer and kind (none NULL). */
static int
held_same(const struct atoz_page *pg, size_t i, size_t j)
{
	const char *t = pg->text.data;
	const struct held_row *r = pg->rows;

	for (size_t k = i; k < j; k++)
		if (r[k].off[F_LAYER] == (size_t)-1 || r[k].off[F_KIND] ==
		    (size_t)-1 || strcmp(t + r[k].off[F_LAYER], t +
		    r[i].off[F_LAYER]) != 0 || strcmp(t + r[k].off[F_KIND], t +
		    r[i].off[F_KIND]) != 0)
			return 0;
	return 1;
}

/*
 * The names of pg's rows, each with its facts, a new array: a name
 * once, continued when it went on from the last page. The layer and
 * kind are said once where a name's facts share them: the name's
 * "layer" and "kind" then, and each fact's "own" false; else those null
 * and "own" true, each fact saying its own (a name continued on the
 * next page is judged there by its facts there).
 */
static json_t *
held_names(const struct atoz_page *pg)
{
	struct page_strs ps = { .m = pg->pc->m };
	json_t *names = json_array();
	size_t i, j;

	ps.proj = xcalloc(ps.m->n_projects + 1, sizeof(*ps.proj));
	for (i = 0; i < pg->n; i = j) {
		struct fact_name f = held_name(pg, &pg->rows[i]);
		json_t *facts = json_array(), *name = json_string(f.name);
		int same;

		for (j = i + 1; j < pg->n && strcmp(pg->text.data +
		    pg->rows[j].off[F_NAME], f.name) == 0; j++)
			;
		same = held_same(pg, i, j);
		json_array_append_new(names, json_pack("{s:O, s:b, s:o, s:o, "
		    "s:o}", "name", name, "continued", i == 0 &&
		    pg->continued, "facts", facts, "layer", same ?
		    json_string(f.layer) : json_null(), "kind", same ?
		    json_string(f.kind) : json_null()));
		for (size_t k = i; k < j; k++) {
			f = held_name(pg, &pg->rows[k]);
			json_array_append_new(facts, item_must(fact_json(&ps,
			    name, &f, &pg->rows[k], !same), "keys and names: "
			    "row", f.id));
		}
		json_decref(name);
	}
	page_strs_free(&ps);
	work_add(&atoz_rows_shown, pg->n);
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

/* ---- what a build keeps for the next ----------------------------------
 *
 * The rows a build gave its letters' pages are kept in the user's cache
 * (output/kept_rows.h) a page at a time: an entry of PAGES_KIND per
 * page, under the digest of the build that wrote it ("writer"), its
 * letter and part. A table of contents (KEEP_KIND, under the record's
 * "keys/" digest) lists them: per page its letter, part, rows, whether
 * its first name goes on from the page before, its writer and its first
 * row's place in the store's order; per letter its names and facts;
 * what every page shows alike (base); and per project where its slice
 * is: the hashes of its rows (the fields that place a row, and all it
 * shows with its marker), in order, 16 bytes a row, in an entry of
 * slices. A later build reads the table, the changed projects' slices,
 * and the pages whose rows changed, alone. */

/* The cache's kinds: the tables; the pages' rows and the slices. */
#define KEEP_KIND "atoz"
#define PAGES_KIND "atoz-pages"
#define KEEP_TAG "mirror atoz names 2"
#define PAGE_TAG "mirror atoz page 2"
#define SLICE_TAG "mirror atoz slices 2"
/* The most bytes of an entry an update reads back. */
#define KEEP_MAX (1024u << 20)
/* The fields of a row of a table of contents. */
#define TOC_FIELDS 10
/* The most builds whose slices a table names: past it the next update
 * walks every page and keeps them all again. */
#define SLICE_WRITERS 16
/* Past this share of the projects changed an update costs about what
 * the whole read does. */
#define CHANGED_SHARE 8

/* A page as a table of contents lists it. */
struct toc_page {
	int b;
	size_t part, n;
	int continued;
	char writer[DIGEST_HEX + 1];    /* the build that kept its rows */
	char *first[4];                 /* its first row's name, project,
	                                   layer, id (owned) */
	int dirty;                      /* 1: made again from its rows */
	size_t r0, r1;                  /* an update's new rows on it */
};

/* Where a project's slice is. */
struct toc_project {
	char *id;                       /* owned */
	char writer[DIGEST_HEX + 1];    /* the build that kept it */
	size_t off, n;                  /* n rows at byte off */
	char hash[17];
};

/* A table of contents. */
struct atoz_toc {
	char base[DIGEST_HEX + 1];
	struct atoz_counts cnt;
	struct toc_page *pages;         /* by letter, then part */
	size_t n_pages, cap_pages;
	struct toc_project *projects;   /* by id */
	size_t n_projects, cap_projects;
	size_t first_page[N_BUCKETS];   /* each letter's first page */
};

/* Free what t holds; it is empty then. */
static void
toc_free(struct atoz_toc *t)
{
	for (size_t i = 0; i < t->n_pages; i++)
		for (int k = 0; k < 4; k++)
			free(t->pages[i].first[k]);
	for (size_t i = 0; i < t->n_projects; i++)
		free(t->projects[i].id);
	free(t->pages);
	free(t->projects);
	memset(t, 0, sizeof(*t));
}

/* What this build keeps: its table, filled as it goes, the rows of the
 * page being filled, and (a walk of every row) each project's slice. */
struct atoz_keep {
	char hex[DIGEST_HEX + 1];       /* this build's "keys/" digest */
	struct atoz_toc toc;
	struct kept_writer rows;
	int open;                       /* 1: rows is being written */
	strbuf *slices;                 /* per model project; NULL: the
	                                   update's own (changed) */
	size_t n_slices;
	strbuf changed;                 /* an update's: the changed
	                                   projects' slices, one text */
	int ok;                         /* 0: something was not kept */
};

/* A page's id in pg->done: its letter and part. */
static long
page_id(int b, size_t part)
{
	return (long)b << 24 | (long)part;
}

/* 1 when this build kept or wrote page (b, part) already. */
static int
page_done_already(const struct atoz_page *pg, int b, size_t part)
{
	for (size_t i = 0; i < pg->n_done; i++)
		if (pg->done[i] == page_id(b, part))
			return 1;
	return 0;
}

/* The cache's key of the rows of page (b, part) writer kept into sb,
 * and the tag their text starts with into tag. */
static void
page_key(strbuf *sb, strbuf *tag, const char *writer, int b, size_t part)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "atoz page\n%s\n%d\n%zu", writer, b, part);
	strbuf_reset(tag);
	strbuf_printf(tag, PAGE_TAG " %s %d %zu", writer, b, part);
}

/* The cache's key of the slices writer kept into sb. */
static void
slice_key(strbuf *sb, const char *writer)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "atoz slices\n%s", writer);
}

/* The cache's key of the table kept under the "keys/" digest hex into
 * sb; and (tag not NULL) the tag its text starts with into tag. */
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

/* Fold s (NULL apart from "") into h. Returns the new hash. */
static uint64_t
hash_field(uint64_t h, const char *s)
{
	return s == NULL ? hash_step(h, 1) : hash_step(hash_add_str(h, s), 0);
}

/* The open conflict row f's fact is in (a member's marker), or NULL. */
static const char *
row_marker(const struct site_model *m, const struct fact_name *f)
{
	return model_marker_of(m, strcmp(f->layer, "state") == 0 ?
	    LAYER_STATE : LAYER_ENTITY, f->id);
}

/* Row f's hashes into h, its open conflict marker (row_marker's): [0]
 * of what places it (name, project, layer, id), [1] of all it shows
 * (its fields and open conflict). */
static void
row_hashes(uint64_t h[2], const char *marker, const struct fact_name *f)
{
	const char *v[N_FIELDS] = { f->name, f->project, f->layer, f->id,
	    f->kind, f->status, f->value, f->properties, f->description };

	h[0] = MIRROR_HASH_INIT;
	for (int i = F_NAME; i <= F_ID; i++)
		h[0] = hash_field(h[0], v[i]);
	h[1] = h[0];
	for (int i = F_KIND; i < N_FIELDS; i++)
		h[1] = hash_field(h[1], v[i]);
	h[1] = hash_field(h[1], marker);
}

/* Start keeping the rows of pg's page (its letter and part set). */
static void
keep_page_start(struct atoz_page *pg)
{
	struct atoz_keep *k = pg->keep;
	struct cache_writer *sink;
	strbuf key, tag;

	strbuf_init(&key);
	strbuf_init(&tag);
	page_key(&key, &tag, k->hex, pg->b, pg->part);
	sink = cache_writer_start(PAGES_KIND, key.data, key.len);
	if (sink == NULL)
		k->ok = 0;
	kept_writer_begin(&k->rows, sink, tag.data);
	k->open = 1;
	strbuf_free(&key);
	strbuf_free(&tag);
}

/* End the rows of pg's page (its rows held) and list it in the table. */
static void
keep_page_end(struct atoz_page *pg)
{
	struct atoz_keep *k = pg->keep;
	struct toc_page *t;

	if (k == NULL || !k->open)
		return;
	kept_writer_end(&k->rows);
	cache_writer_end(k->rows.sink, k->ok);
	kept_writer_free(&k->rows);
	k->open = 0;
	t = &ARRAY_PUSH(k->toc.pages, k->toc.n_pages, k->toc.cap_pages);
	*t = (struct toc_page){ .b = pg->b, .part = pg->part, .n = pg->n,
	    .continued = pg->continued };
	memcpy(t->writer, k->hex, sizeof(t->writer));
	for (int i = 0; i < 4; i++)
		t->first[i] = xstrdup(pg->text.data + pg->rows[0].off[i]);
}

/* Write the page pg holds, unless the last build wrote it from the
 * same rows (then its files stay), or this build did already. Returns
 * 0 or < 0 with err set. */
static int
letter_page(struct atoz_page *pg, mirror_error *err)
{
	char slug[8], label[16], hex[DIGEST_HEX + 1];
	size_t of = letter_pages(pg->cnt->facts[pg->b]);
	size_t names = pg->cnt->names[pg->b];
	strbuf path, title, file;
	struct page_doc doc;
	int rc = 0;

	keep_page_end(pg);
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
	if (!page_done_already(pg, pg->b, pg->part) && !page_kept(pg->pc,
	    &doc)) {
		doc.data = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "label",
		    label, "slug", slug, "count_words", item_count((long long)
		    names, "name", "names"), "letters", letters_json(
		    pg->cnt->names, pg->b), "names", held_names(pg), "part",
		    part_json(slug, pg->part, of));
		rc = page_later_put(pg->later, &doc, err);
	}
	ARRAY_PUSH(pg->done, pg->n_done, pg->cap_done) = page_id(pg->b,
	    pg->part);
	held_reset(pg);
	strbuf_free(&path);
	strbuf_free(&title);
	strbuf_free(&file);
	return rc;
}

/* Copy f's fields into pg's text as row r, with its marker and
 * project, and hash them (with the open conflict the fact is in) into
 * pg->h. */
static void
hold_row(struct atoz_page *pg, struct held_row *r, const struct fact_name *f)
{
	const char *v[N_FIELDS] = { f->name, f->project, f->layer, f->id,
	    f->kind, f->status, f->value, f->properties, f->description };

	r->marker = row_marker(pg->pc->m, f);
	r->project = model_project_index(pg->pc->m, f->project);
	for (int i = 0; i < N_FIELDS; i++) {
		r->off[i] = v[i] == NULL ? (size_t)-1 : pg->text.len;
		if (v[i] != NULL)
			strbuf_add(&pg->text, v[i], strlen(v[i]) + 1);
		page_hash_str(pg->h, v[i]);
	}
	page_hash_str(pg->h, r->marker);
}

/* Add row f to the page pg fills (its letter and part set), keeping it
 * (and, a walk of every row, its hashes in its project's slice). */
static void
put_row(struct atoz_page *pg, const struct fact_name *f)
{
	struct atoz_keep *k = pg->keep;
	struct held_row *r = &pg->rows[pg->n++];

	if (k != NULL && pg->n == 1)
		keep_page_start(pg);
	hold_row(pg, r, f);
	if (k != NULL)
		kept_writer_put(&k->rows, (const char *const[]){ f->name,
		    f->project, f->layer, f->id, f->kind, f->status, f->value,
		    f->properties, f->description }, N_FIELDS);
	if (k != NULL && k->slices != NULL && f->project[0] != '\0') {
		uint64_t h[2];

		row_hashes(h, r->marker, f);
		if (r->project >= 0)
			strbuf_add(&k->slices[r->project], (const char *)h,
			    sizeof(h));
	}
	strbuf_reset(&pg->last);
	strbuf_puts(&pg->last, f->name);
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
	if (pg->n == 0) {
		pg->continued = same;
		pg->b = b;
	}
	put_row(pg, f);
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

/* ---- the order of the rows ------------------------------------------ */

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

/* The order of page p's first row (pointers into p). */
static struct row_order
order_first(const struct toc_page *p)
{
	return (struct row_order){ p->b, p->first[0], p->first[1],
	    layer_rank(p->first[2]), p->first[3] };
}

/*
 * The store's order of two rows (facts_names_open: atoz_key as bytes,
 * then project numbers as numbers (mirror_natural: "p2" before "p10"),
 * layer, id): < 0, 0 or > 0, as a and b compare.
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
	if ((c = strcmp(a->name, b->name)) != 0 || (c = item_name_cmp(
	    a->project, b->project)) != 0)
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

/* ---- the rows: the store's, or the last build's merged with the
 * changed projects' ---------------------------------------------------- */

/* A changed project's row now, its fields owned (NULL kept), and the
 * page of the last build's its place is on (an update's). */
struct new_row {
	char *f[N_FIELDS];
	int b;
	size_t page;
};

/* A page's kept rows, mapped, and a reader of them. */
struct kept_chunk {
	struct cache_map map;           /* empty: not opened */
	struct kept_cursor start, c;
	size_t seen;                    /* rows read */
};

struct work_count atoz_rows_kept;

/* Where the rows of a pass come from: the store's reader (whole), or
 * the last build's pages [p0, p1) without the changed projects' rows,
 * merged with those projects' rows[r0, r1) now (an update). */
struct name_src {
	mirror_store *st;
	struct names_reader *nr;        /* whole: the store's */
	int update;                     /* 1: an update */
	const struct atoz_toc *toc;     /* the last build's table */
	struct kept_chunk *ch;          /* per page of it */
	size_t p0, p1, pi;              /* the pages walked; the one read */
	const char **changed;           /* the changed projects, sorted */
	size_t n_changed;
	struct new_row *rows;           /* their rows now, in order */
	size_t n_rows, r0, r1, at;
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

/* The index of project id among s's changed projects, or -1. */
static long
src_changed(const struct name_src *s, const char *id)
{
	const char **at = s->n_changed == 0 ? NULL : bsearch(&id,
	    s->changed, s->n_changed, sizeof(*s->changed), array_str_cmp);

	return at != NULL ? at - s->changed : -1;
}

/* The next kept row of a project that did not change, of the pages
 * walked, into s->head: 1, 0 after the last, -1 when the text is not as
 * kept (a row of another letter, a page of other than its rows). */
static int
src_head(struct name_src *s)
{
	const char *f[N_FIELDS];
	int rc;

	for (; s->pi < s->p1; s->pi++) {
		struct kept_chunk *k = &s->ch[s->pi];
		int b = s->toc->pages[s->pi].b;

		while ((rc = kept_rows_next(&k->c, f, N_FIELDS)) == 1) {
			work_add(&atoz_rows_kept, 1);
			k->seen++;
			if (!kept_name(&s->head, f) || bucket_of(
			    s->head.name) != b)
				return -1;
			if (src_changed(s, s->head.project) < 0) {
				s->head_b = b;
				return 1;
			}
		}
		if (rc < 0 || k->seen != s->toc->pages[s->pi].n)
			return -1;
	}
	return 0;
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
	if (s->has_head == 2 && s->at == s->r1)
		return 0;
	if (s->at < s->r1)
		new_name(&nv, &s->rows[s->at]);
	if (s->at < s->r1 && s->has_head == 1) {
		struct row_order a = order_of(&nv, s->rows[s->at].b),
		    h = order_of(&s->head, s->head_b);

		take_new = order_cmp(&a, &h) < 0;
	} else
		take_new = s->at < s->r1;
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

/* Walk s's pages [p0, p1) and new rows [r0, r1) from their first. */
static void
src_walk(struct name_src *s, size_t p0, size_t p1, size_t r0, size_t r1)
{
	s->p0 = s->pi = p0;
	s->p1 = p1;
	s->r0 = s->at = r0;
	s->r1 = r1;
	for (size_t i = p0; i < p1; i++) {
		s->ch[i].c = s->ch[i].start;
		s->ch[i].seen = 0;
	}
	s->has_head = 0;
	s->given = 0;
}

/* Start s's rows again from the first. */
static void
src_rewind(struct name_src *s)
{
	src_walk(s, s->p0, s->p1, s->r0, s->r1);
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
	for (size_t i = 0; s->ch != NULL && i < s->toc->n_pages; i++)
		cache_unmap(&s->ch[i].map);
	free(s->ch);
	free(s->rows);
	free(s->changed);
	s->ch = NULL;
	s->rows = NULL;
	s->changed = NULL;
	s->n_rows = s->n_changed = 0;
	s->update = 0;
}

/* Open the kept rows of page i of s's table (once): 1, or 0 when they
 * are not as kept. */
static int
src_chunk(struct name_src *s, size_t i)
{
	const struct toc_page *p = &s->toc->pages[i];
	struct kept_chunk *k = &s->ch[i];
	strbuf key, tag;
	int ok;

	if (k->map.data != NULL)
		return 1;
	strbuf_init(&key);
	strbuf_init(&tag);
	page_key(&key, &tag, p->writer, p->b, p->part);
	ok = cache_map(&k->map, KEEP_MAX, PAGES_KIND, key.data, key.len) ==
	    0 && kept_rows_open(&k->start, k->map.data, k->map.len, tag.data,
	    NULL);
	if (!ok)
		cache_unmap(&k->map);
	strbuf_free(&key);
	strbuf_free(&tag);
	return ok;
}

/* ---- the table of contents ------------------------------------------ */

/* The number s (decimal digits, no sign) into *v: 1, or 0 when s is
 * none. */
static int
toc_num(size_t *v, const char *s)
{
	size_t n = 0;

	if (s == NULL || s[0] == '\0' || strlen(s) > 15)
		return 0;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		n = n * 10 + (size_t)(*s - '0');
	}
	*v = n;
	return 1;
}

/* 1 when s is n lowercase hex digits. */
static int
toc_hex(const char *s, size_t n)
{
	if (s == NULL || strlen(s) != n)
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* A table's row f into t: 1, or 0 when it is not one. */
static int
toc_row(struct atoz_toc *t, const char *const *f)
{
	size_t b, v[3];

	if (strcmp(f[0], "base") == 0 && toc_hex(f[1], DIGEST_HEX)) {
		memcpy(t->base, f[1], DIGEST_HEX + 1);
		return 1;
	}
	if (strcmp(f[0], "letter") == 0 && toc_num(&b, f[1]) && b <
	    N_BUCKETS && toc_num(&v[0], f[2]) && toc_num(&v[1], f[3])) {
		t->cnt.names[b] = v[0];
		t->cnt.facts[b] = v[1];
		return 1;
	}
	if (strcmp(f[0], "page") == 0 && toc_num(&b, f[1]) && b < N_BUCKETS &&
	    toc_num(&v[0], f[2]) && toc_num(&v[1], f[3]) && toc_num(&v[2],
	    f[4]) && v[2] <= 1 && toc_hex(f[5], DIGEST_HEX)) {
		struct toc_page *p = &ARRAY_PUSH(t->pages, t->n_pages,
		    t->cap_pages);

		*p = (struct toc_page){ .b = (int)b, .part = v[0], .n = v[1],
		    .continued = (int)v[2] };
		memcpy(p->writer, f[5], DIGEST_HEX + 1);
		for (int i = 0; i < 4; i++)
			p->first[i] = xstrdup(f[6 + i] != NULL ? f[6 + i] : "");
		return f[6] != NULL && f[7] != NULL && f[9] != NULL && f[8] !=
		    NULL && (strcmp(f[8], "state") == 0 || strcmp(f[8],
		    "entity") == 0);
	}
	if (strcmp(f[0], "project") == 0 && f[1] != NULL && toc_hex(f[2],
	    DIGEST_HEX) && toc_num(&v[0], f[3]) && toc_num(&v[1], f[4]) &&
	    toc_hex(f[5], 16)) {
		struct toc_project *p = &ARRAY_PUSH(t->projects, t->n_projects,
		    t->cap_projects);

		*p = (struct toc_project){ .id = xstrdup(f[1]), .off = v[0],
		    .n = v[1] };
		memcpy(p->writer, f[2], DIGEST_HEX + 1);
		memcpy(p->hash, f[5], 17);
		return 1;
	}
	return 0;
}

/* 1 when t's pages are each letter's facts, in order, a full page but
 * the last; its projects in order; and its base given. */
static int
toc_check(struct atoz_toc *t)
{
	size_t at = 0;

	for (int b = 0; b < N_BUCKETS; b++) {
		size_t of = t->cnt.facts[b] == 0 ? 0 : letter_pages(
		    t->cnt.facts[b]), left = t->cnt.facts[b];

		if ((t->cnt.names[b] == 0) != (left == 0) || t->cnt.names[b] >
		    left)
			return 0;
		t->first_page[b] = at;
		for (size_t part = 0; part < of; part++, at++) {
			const struct toc_page *p = &t->pages[at];
			size_t want = left < ATOZ_PAGE ? left : ATOZ_PAGE;

			if (at >= t->n_pages || p->b != b || p->part != part ||
			    p->n != want || (part == 0 && p->continued))
				return 0;
			left -= want;
		}
	}
	for (size_t i = 1; i < t->n_projects; i++)
		if (strcmp(t->projects[i - 1].id, t->projects[i].id) >= 0)
			return 0;
	return at == t->n_pages && t->base[0] != '\0';
}

/*
 * The table kept under the "keys/" digest hex into *t: 1, or 0 when
 * there is none or it is not as kept (t then empty). t holds nothing of
 * the entry's text.
 */
static int
toc_read(struct atoz_toc *t, const char *hex)
{
	const char *f[TOC_FIELDS];
	struct cache_map map = { 0 };
	struct kept_cursor c;
	strbuf key, tag;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	strbuf_init(&key);
	strbuf_init(&tag);
	keep_key(&key, &tag, hex);
	if (cache_map(&map, KEEP_MAX, KEEP_KIND, key.data, key.len) == 0 &&
	    kept_rows_open(&c, map.data, map.len, tag.data, NULL))
		while ((rc = kept_rows_next(&c, f, TOC_FIELDS)) == 1)
			if (f[0] == NULL || !toc_row(t, f)) {
				rc = -1;
				break;
			}
	cache_unmap(&map);
	strbuf_free(&key);
	strbuf_free(&tag);
	if (rc == 0 && toc_check(t))
		return 1;
	toc_free(t);
	return 0;
}

/* v as decimal digits into buf. Returns buf. */
static const char *
toc_str(char buf[24], size_t v)
{
	int n = snprintf(buf, 24, "%zu", v);

	return n > 0 && n < 24 ? buf : "";
}

/* A table's row of the n fields f, the rest NULL, into w. */
static void
toc_put(struct kept_writer *w, const char *const *f, size_t n)
{
	const char *row[TOC_FIELDS] = { NULL };

	memcpy(row, f, n * sizeof(*f));
	kept_writer_put(w, row, TOC_FIELDS);
}

/* Keep table t (pages and projects sorted) under the "keys/" digest
 * hex. */
static void
toc_write(const struct atoz_toc *t, const char *hex)
{
	struct kept_writer w;
	char a[24], b[24], c[24];
	strbuf key, tag;

	strbuf_init(&key);
	strbuf_init(&tag);
	keep_key(&key, &tag, hex);
	kept_writer_begin(&w, cache_writer_start(KEEP_KIND, key.data,
	    key.len), tag.data);
	toc_put(&w, (const char *const[]){ "base", t->base }, 2);
	for (int i = 0; i < N_BUCKETS; i++)
		toc_put(&w, (const char *const[]){ "letter", toc_str(a,
		    (size_t)i), toc_str(b, t->cnt.names[i]), toc_str(c,
		    t->cnt.facts[i]) }, 4);
	for (size_t i = 0; i < t->n_pages; i++) {
		const struct toc_page *p = &t->pages[i];

		toc_put(&w, (const char *const[]){ "page", toc_str(a,
		    (size_t)p->b), toc_str(b, p->part), toc_str(c, p->n),
		    p->continued ? "1" : "0", p->writer, p->first[0],
		    p->first[1], p->first[2], p->first[3] }, TOC_FIELDS);
	}
	for (size_t i = 0; i < t->n_projects; i++) {
		const struct toc_project *p = &t->projects[i];

		toc_put(&w, (const char *const[]){ "project", p->id,
		    p->writer, toc_str(a, p->off), toc_str(b, p->n), p->hash },
		    6);
	}
	kept_writer_end(&w);
	cache_writer_end(w.sink, 1);
	kept_writer_free(&w);
	strbuf_free(&key);
	strbuf_free(&tag);
}

/* ---- reading: the changed projects' rows and slices ------------------ */

/* 1 when w's names_rows (site.c, plan_names) holds the rows of each
 * of the projects ids[0..n), else 0. */
static int
names_cover(const struct site_writer *w, const char *const *ids, size_t n)
{
	if (w->names_rows == NULL)
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < w->n_names_of && strcmp(w->names_of[k], ids[i]) != 0)
			k++;
		if (k == w->n_names_of)
			return 0;
	}
	return 1;
}

/* Read the changed projects' rows now (s->changed) into s->rows: by
 * their ids where the check kept them (w), else by a scan. Returns 0 or
 * < 0 with err set. */
static int
read_changed(struct name_src *s, const struct site_writer *w,
    mirror_error *err)
{
	const struct store_key key = { atoz_key, NULL };
	struct names_reader *nr;
	struct fact_name f;
	size_t cap = 0;
	int rc;

	rc = facts_names_open(&nr, s->st, &key, &(const struct names_plan){
	    s->changed, s->n_changed, names_cover(w, s->changed,
	    s->n_changed) ? w->names_rows : NULL }, err);
	while (rc == 0 && (rc = facts_names_next(nr, &f, err)) == 1) {
		const char *v[N_FIELDS] = { f.name, f.project, f.layer, f.id,
		    f.kind, f.status, f.value, f.properties, f.description };
		struct new_row *r = &ARRAY_PUSH(s->rows, s->n_rows, cap);

		for (int k = 0; k < N_FIELDS; k++)
			r->f[k] = v[k] != NULL ? xstrdup(v[k]) : NULL;
		r->b = bucket_of(f.name);
		r->page = 0;
		rc = 0;
	}
	facts_names_close(nr);
	return rc;
}

/*
 * Open s as an update of the last build's table toc when the record
 * says which projects changed (page_units), few did and none is gone:
 * returns 1 (the changed projects' rows read); 0 when the rows must be
 * read whole (s as it was); < 0 with err set.
 */
static int
src_update(struct name_src *s, const struct atoz_toc *toc,
    const struct page_ctx *pc, mirror_error *err)
{
	struct page_unit *u = NULL;
	size_t n = 0, cap = 0;
	int ok;

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
	if (!ok) {
		src_close(s);
		return 0;
	}
	if (s->n_changed > 0)
		qsort(s->changed, s->n_changed, sizeof(*s->changed),
		    array_str_cmp);
	s->toc = toc;
	s->ch = xcalloc(toc->n_pages + 1, sizeof(*s->ch));
	s->update = 1;
	return read_changed(s, pc->w, err) < 0 ? -1 : 1;
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

/* The slices' entries an update maps, a build's each. */
struct slice_maps {
	char writer[SLICE_WRITERS][DIGEST_HEX + 1];
	struct cache_map map[SLICE_WRITERS];
	int ok[SLICE_WRITERS];
	size_t n;
};

/* The slice p names, mapped through sm: its first byte, or NULL when
 * it is not as kept. */
static const char *
slice_of(struct slice_maps *sm, const struct toc_project *p)
{
	const struct cache_map *m;
	char hex[17];
	strbuf sb;
	size_t i;

	for (i = 0; i < sm->n && strcmp(sm->writer[i], p->writer) != 0; i++)
		;
	if (i == sm->n) {
		if (i == SLICE_WRITERS)
			return NULL;
		strbuf_init(&sb);
		slice_key(&sb, p->writer);
		sm->ok[i] = cache_map(&sm->map[i], KEEP_MAX, PAGES_KIND,
		    sb.data, sb.len) == 0;
		strbuf_reset(&sb);
		strbuf_puts(&sb, SLICE_TAG "\n");
		sm->ok[i] = sm->ok[i] && sm->map[i].len >= sb.len &&
		    memcmp(sm->map[i].data, sb.data, sb.len) == 0;
		strbuf_free(&sb);
		memcpy(sm->writer[i], p->writer, DIGEST_HEX + 1);
		sm->n++;
	}
	m = &sm->map[i];
	if (!sm->ok[i] || p->off > m->len || p->n > (m->len - p->off) / 16)
		return NULL;
	hash_hex(hex, hash_words(MIRROR_HASH_INIT, m->data + p->off, p->n *
	    16));
	return strcmp(hex, p->hash) == 0 ? m->data + p->off : NULL;
}

/* toc_project's order by id, for bsearch (key: the id). */
static int
toc_project_cmp(const void *key, const void *elt)
{
	return strcmp(key, ((const struct toc_project *)elt)->id);
}

/*
 * Compare each changed project's rows now with the slice the last
 * build kept of it: a row that shows otherwise makes its page dirty.
 * Each project's slice now into now[its index]. Returns 1, or 0 when a
 * project's rows are not in the places they were (one more or less,
 * another name): they move the rows after them to other pages.
 */
static int
slices_diff(struct name_src *s, struct atoz_toc *t, struct slice_maps *sm,
    const struct site_model *m, strbuf *now)
{
	const char **old = xcalloc(s->n_changed + 1, sizeof(*old));
	size_t *n = xcalloc(s->n_changed + 1, sizeof(*n));
	size_t *cur = xcalloc(s->n_changed + 1, sizeof(*cur));
	int ok = 1;

	for (size_t c = 0; ok && c < s->n_changed; c++) {
		const struct toc_project *p = t->n_projects == 0 ? NULL :
		    bsearch(s->changed[c], t->projects, t->n_projects,
		    sizeof(*t->projects), toc_project_cmp);

		n[c] = p != NULL ? p->n : 0;
		ok = p == NULL || (old[c] = slice_of(sm, p)) != NULL;
	}
	for (size_t i = 0; ok && i < s->n_rows; i++) {
		const struct new_row *r = &s->rows[i];
		long c = src_changed(s, r->f[F_PROJECT]);
		struct fact_name v;
		uint64_t h[2];

		new_name(&v, r);
		row_hashes(h, row_marker(m, &v), &v);
		ok = c >= 0 && cur[c] < n[c] && memcmp(old[c] + 16 * cur[c],
		    &h[0], 8) == 0;
		if (ok && memcmp(old[c] + 16 * cur[c] + 8, &h[1], 8) != 0)
			t->pages[r->page].dirty = 1;
		if (ok) {
			strbuf_add(&now[c], (const char *)h, sizeof(h));
			cur[c]++;
		}
	}
	for (size_t c = 0; ok && c < s->n_changed; c++)
		ok = cur[c] == n[c];
	free(old);
	free(n);
	free(cur);
	return ok;
}

/* array_lower's order of a row (key, a struct row_order) and a page of
 * the table (a struct toc_page): the page goes before the row when its
 * first row is not after it, so array_lower gives the first page that
 * starts after the row. */
static int
row_page_cmp(const void *key, const void *page, const void *ctx)
{
	struct row_order f = order_first(page);

	(void)ctx;
	return order_cmp(&f, key) <= 0 ? 1 : -1;
}

/* The page of the last build's each new row of s has its place on, and
 * each page's new rows (toc_page's r0, r1): 1, or 0 when a row's letter
 * has no page. */
static int
rows_pages(struct name_src *s, struct atoz_toc *t)
{
	size_t r = 0;

	for (size_t i = 0; i < s->n_rows; i++) {
		struct new_row *w = &s->rows[i];
		size_t lo = t->first_page[w->b], hi = lo +
		    (t->cnt.facts[w->b] == 0 ? 0 : letter_pages(
		    t->cnt.facts[w->b]));
		struct fact_name v;
		struct row_order o;

		if (lo == hi)
			return 0;
		new_name(&v, w);
		o = order_of(&v, w->b);
		/* The last page whose first row is not after it (its
		 * letter's first page when none is): the one before the
		 * first of the pages after that starts after it. */
		w->page = lo + array_lower(&o, &t->pages[lo + 1], hi - lo - 1,
		    sizeof(t->pages[0]), row_page_cmp, NULL);
		if (i > 0 && w->page < s->rows[i - 1].page)
			return 0;
	}
	for (size_t i = 0; i < t->n_pages; i++) {
		t->pages[i].r0 = r;
		while (r < s->n_rows && s->rows[r].page == i)
			r++;
		t->pages[i].r1 = r;
	}
	return 1;
}

/* ---- the pages ------------------------------------------------------- */

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
 * their table) into hex either way ("" without a record).
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

/* Start pg over pc with the letters' counts c, as atoz_pages fills it. */
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
	/* 2: a name's projects in mirror_natural's order; the pages and
	 * the kept rows of an older build are not merged into it. */
	page_hash_str(pg->base, "atoz page 2");
	page_hash_int(pg->base, ATOZ_PAGE);
	page_hash_int(pg->base, ATOZ_VALUE);
	page_hash_str(pg->base, pc->m->title);
	page_hash_projects(pg->base, pc->m);
}

/* The keys/ path of page (b, part) into sb. */
static void
page_path(strbuf *sb, int b, size_t part)
{
	char slug[8], label[16];
	strbuf file;

	bucket_names(b, slug, label);
	strbuf_init(&file);
	part_slug(&file, slug, part);
	strbuf_reset(sb);
	strbuf_printf(sb, "keys/%s", file.data);
	strbuf_free(&file);
}

/* Keep each page of t not dirty as the last build wrote it (its digest
 * the record's); one the record or DIR lacks is made dirty. */
static void
keep_clean(struct atoz_page *pg, struct atoz_toc *t)
{
	const struct page_ctx *pc = pg->pc;
	char prev[DIGEST_HEX + 1];
	strbuf path;

	strbuf_init(&path);
	for (size_t i = 0; i < t->n_pages; i++) {
		struct toc_page *p = &t->pages[i];

		if (p->dirty)
			continue;
		page_path(&path, p->b, p->part);
		if (record_prev(prev, pc->w->record, path.data) && page_kept(pc,
		    &(struct page_doc){ .path = path.data, .html_only = 1,
		    .digest = prev }))
			ARRAY_PUSH(pg->done, pg->n_done, pg->cap_done) =
			    page_id(p->b, p->part);
		else
			p->dirty = 1;
	}
	strbuf_free(&path);
}

/* Open and walk the rows of each dirty page of t merged with the new
 * rows on it: 1 when each is as kept (its rows, its first row), else
 * 0. */
static int
dirty_check(struct name_src *s, struct atoz_toc *t)
{
	for (size_t i = 0; i < t->n_pages; i++) {
		struct toc_page *p = &t->pages[i];
		struct row_order first = order_first(p), o;
		struct fact_name f;
		size_t n = 0;
		int b, rc;

		if (!p->dirty)
			continue;
		if (!src_chunk(s, i))
			return 0;
		src_walk(s, i, i + 1, p->r0, p->r1);
		while ((rc = merge_next(s, &f, &b)) == 1) {
			o = order_of(&f, b);
			if (n++ == 0 && order_cmp(&o, &first) != 0)
				return 0;
		}
		if (rc != 0 || n != p->n)
			return 0;
	}
	return 1;
}

/* Write each dirty page of t (dirty_check made sure of their rows).
 * Returns 0 or < 0 with err set. */
static int
dirty_write(struct atoz_page *pg, struct name_src *s,
    const struct atoz_toc *t, mirror_error *err)
{
	for (size_t i = 0; i < t->n_pages; i++) {
		const struct toc_page *p = &t->pages[i];
		struct fact_name f;
		int b, rc;

		if (!p->dirty)
			continue;
		src_walk(s, i, i + 1, p->r0, p->r1);
		held_reset(pg);
		pg->b = p->b;
		pg->part = p->part;
		pg->continued = p->continued;
		while ((rc = merge_next(s, &f, &b)) == 1)
			put_row(pg, &f);
		if (rc != 0)
			return mirror_fail(err, MIRROR_EIO, "keys and names: "
			    "the kept rows changed during the build");
		if ((rc = letter_page(pg, err)) < 0)
			return rc;
	}
	return 0;
}

/* The letters' pages (pg started): from s whole, or (t not NULL) t's
 * dirty pages alone; written during the read. Returns 0 or < 0 with
 * err set. */
static int
letters_write(struct atoz_page *pg, struct name_src *s,
    const struct atoz_toc *t, mirror_error *err)
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
	rc = t != NULL ? dirty_write(pg, s, t, err) : names_pass(pg, s, err);
	lrc = page_later_finish(pg->later, &later_err);
	if (rc == 0 && lrc < 0) {
		*err = later_err;
		rc = lrc;
	}
	return rc;
}

/* ---- an update, a walk of every page, the whole read ----------------- */

/* The digest of what every page of pg shows alike, the build's own
 * inputs with it, into hex. */
static void
base_digest(char hex[DIGEST_HEX + 1], const struct atoz_page *pg)
{
	page_folder_digest(hex, pg->pc, pg->base[0], pg->base[1]);
}

/* How many builds' slices t names. */
static size_t
slice_writers(const struct atoz_toc *t)
{
	const char *w[SLICE_WRITERS + 1];
	size_t n = 0;

	for (size_t i = 0; i < t->n_projects && n <= SLICE_WRITERS; i++) {
		size_t k;

		for (k = 0; k < n && strcmp(w[k], t->projects[i].writer) != 0;
		    k++)
			;
		if (k == n)
			w[n++] = t->projects[i].writer;
	}
	return n;
}

/* How many of t's projects have slices writer kept. */
static size_t
slices_of(const struct atoz_toc *t, const char *writer)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_projects; i++)
		n += strcmp(t->projects[i].writer, writer) == 0;
	return n;
}

/* The update's table for the next build into k: t's pages not made
 * again (those made are k's already) and projects, the changed
 * projects' slices now[] in k->changed. */
static void
keep_update(struct atoz_keep *k, const struct atoz_toc *t,
    const struct name_src *s, const strbuf *now)
{
	size_t cap;

	for (size_t i = 0; i < t->n_pages; i++) {
		const struct toc_page *p = &t->pages[i];
		struct toc_page *q;

		if (p->dirty)
			continue;
		q = &ARRAY_PUSH(k->toc.pages, k->toc.n_pages, k->toc.cap_pages);
		*q = *p;
		for (int f = 0; f < 4; f++)
			q->first[f] = xstrdup(p->first[f]);
	}
	cap = k->toc.cap_projects;
	for (size_t i = 0; i < t->n_projects; i++)
		if (src_changed(s, t->projects[i].id) < 0) {
			struct toc_project *q = &ARRAY_PUSH(k->toc.projects,
			    k->toc.n_projects, cap);

			*q = t->projects[i];
			q->id = xstrdup(q->id);
		}
	strbuf_puts(&k->changed, SLICE_TAG "\n");
	for (size_t c = 0; c < s->n_changed; c++) {
		struct toc_project *q;

		if (now[c].len == 0)
			continue;
		/* Its writer: the slices' entry, when it is made. */
		q = &ARRAY_PUSH(k->toc.projects, k->toc.n_projects, cap);
		*q = (struct toc_project){ .id = xstrdup(s->changed[c]), .off =
		    k->changed.len, .n = now[c].len / 16 };
		hash_hex(q->hash, hash_words(MIRROR_HASH_INIT, now[c].data,
		    now[c].len));
		strbuf_add(&k->changed, now[c].data, now[c].len);
	}
	k->toc.cap_projects = cap;
}

/*
 * An update that makes again the pages whose rows show otherwise alone
 * (the changed projects' rows in the places they had, compared with
 * their slices), their counts *c the last build's; the others stay as
 * the last build wrote them. Returns 1 (done), 0 when it cannot be (the
 * caller walks every page; the pages kept stay kept), or < 0 with err
 * set.
 */
static int
atoz_update(struct atoz_page *pg, struct name_src *s, struct atoz_toc *t,
    struct atoz_counts *c, mirror_error *err)
{
	char base[DIGEST_HEX + 1];
	struct slice_maps sm;
	strbuf *now = xcalloc(s->n_changed + 1, sizeof(*now));
	int ok, rc = 0;

	memset(&sm, 0, sizeof(sm));
	for (size_t i = 0; i < s->n_changed; i++)
		strbuf_init(&now[i]);
	base_digest(base, pg);
	ok = strcmp(base, t->base) == 0 && slice_writers(t) <=
	    SLICE_WRITERS && rows_pages(s, t) && slices_diff(s, t, &sm,
	    pg->pc->m, now);
	for (size_t i = 0; i < sm.n; i++)
		cache_unmap(&sm.map[i]);
	if (ok) {
		*c = t->cnt;
		keep_clean(pg, t);
		ok = dirty_check(s, t);
	}
	if (ok)
		rc = index_page(pg->pc, c, err);
	if (ok && rc == 0)
		rc = letters_write(pg, s, t, err);
	if (ok && rc == 0 && pg->keep != NULL)
		keep_update(pg->keep, t, s, now);
	for (size_t i = 0; i < s->n_changed; i++)
		strbuf_free(&now[i]);
	free(now);
	return rc < 0 ? rc : ok;
}

/* Walk every page the last build kept, merged with the changed
 * projects' rows: 1 (their counts into c, s to walk them again), or 0
 * when a page's rows are not as kept. */
static int
src_all(struct name_src *s, struct atoz_counts *c)
{
	for (size_t i = 0; i < s->toc->n_pages; i++)
		if (!src_chunk(s, i))
			return 0;
	src_walk(s, 0, s->toc->n_pages, 0, s->n_rows);
	return src_count(s, c) == 0;
}

/* Start keeping into k, under this build's "keys/" digest hex, for pg. */
static void
keep_begin(struct atoz_page *pg, struct atoz_keep *k, const char *hex)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->hex, hex, DIGEST_HEX + 1);
	strbuf_init(&k->changed);
	k->ok = 1;
	pg->keep = k;
}

/* Keep each project's slice of a walk of every row: from now on, every
 * row's hashes (put_row). */
static void
keep_slices(struct atoz_keep *k, const struct site_model *m)
{
	if (k == NULL || k->slices != NULL)
		return;
	k->n_slices = m->n_projects;
	k->slices = xcalloc(k->n_slices + 1, sizeof(*k->slices));
	for (size_t i = 0; i < k->n_slices; i++)
		strbuf_init(&k->slices[i]);
}

/* The name of a slices' entry, the text head and the n texts parts
 * after it, as DIGEST_HEX digits into hex: its content's, so two
 * builds' entries are one key only when they are the same bytes. */
static void
slices_name(char hex[DIGEST_HEX + 1], const strbuf *head,
    const strbuf *parts, size_t n)
{
	uint64_t h[2] = { MIRROR_HASH_INIT, UINT64_C(0x736c69636573) };

	for (size_t i = 0; i <= n; i++) {
		const strbuf *p = i == 0 ? head : &parts[i - 1];

		h[0] = hash_words(h[0], p->data, p->len);
		h[1] = hash_words(h[1], p->data, p->len);
	}
	hash_hex(hex, h[0]);
	hash_hex(hex + 16, h[1]);
}

/* List a walk's slices (each project's) in k's table, their writer
 * to be named. */
static void
slices_list(struct atoz_keep *k, const struct site_model *m)
{
	size_t off;

	strbuf_puts(&k->changed, SLICE_TAG "\n");
	off = k->changed.len;
	for (size_t i = 0; i < k->n_slices; i++) {
		struct toc_project *q;

		if (k->slices[i].len == 0)
			continue;
		q = &ARRAY_PUSH(k->toc.projects, k->toc.n_projects,
		    k->toc.cap_projects);
		*q = (struct toc_project){ .id = xstrdup(m->projects[i].id),
		    .off = off, .n = k->slices[i].len / 16 };
		hash_hex(q->hash, hash_words(MIRROR_HASH_INIT,
		    k->slices[i].data, k->slices[i].len));
		off += k->slices[i].len;
	}
}

/* Write the slices of k (a walk's, each project's; an update's, the
 * changed projects'), named by their content, in k's table. */
static void
slices_write(struct atoz_keep *k, const struct site_model *m)
{
	struct cache_writer *w;
	char name[DIGEST_HEX + 1];
	strbuf key;
	size_t i, n = 0;

	if (k->slices != NULL)
		slices_list(k, m);
	for (i = 0; i < k->toc.n_projects; i++)
		n += k->toc.projects[i].writer[0] == '\0';
	if (n == 0)
		return;
	slices_name(name, &k->changed, k->slices, k->slices != NULL ?
	    k->n_slices : 0);
	for (i = 0; i < k->toc.n_projects; i++)
		if (k->toc.projects[i].writer[0] == '\0')
			memcpy(k->toc.projects[i].writer, name, DIGEST_HEX + 1);
	strbuf_init(&key);
	slice_key(&key, name);
	w = cache_writer_start(PAGES_KIND, key.data, key.len);
	cache_writer_add(w, k->changed.data, k->changed.len);
	for (i = 0; k->slices != NULL && i < k->n_slices; i++)
		cache_writer_add(w, k->slices[i].data, k->slices[i].len);
	cache_writer_end(w, 1);
	strbuf_free(&key);
}

/* toc_page's order: by letter, then part. */
static int
toc_page_cmp(const void *a, const void *b)
{
	const struct toc_page *x = a, *y = b;

	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->part < y->part ? -1 : x->part > y->part;
}

/* toc_project's order: by id. */
static int
toc_id_cmp(const void *a, const void *b)
{
	return strcmp(((const struct toc_project *)a)->id,
	    ((const struct toc_project *)b)->id);
}

/* 1 when t lists page p (its letter, part and writer): its entry is
 * the same. */
static int
toc_has_page(const struct atoz_toc *t, const struct toc_page *p)
{
	const struct toc_page *q = t->n_pages == 0 ? NULL : bsearch(p,
	    t->pages, t->n_pages, sizeof(*t->pages), toc_page_cmp);

	return q != NULL && strcmp(q->writer, p->writer) == 0;
}

/* Drop the entries of old (the table kept under prev) that the table
 * now does not name: its pages, its slices, the table itself. */
static void
drop_old(const struct atoz_toc *old, const char *prev,
    const struct atoz_toc *now, const char *hex)
{
	strbuf key, tag;

	strbuf_init(&key);
	strbuf_init(&tag);
	for (size_t i = 0; i < old->n_pages; i++)
		if (!toc_has_page(now, &old->pages[i])) {
			page_key(&key, &tag, old->pages[i].writer,
			    old->pages[i].b, old->pages[i].part);
			cache_drop(PAGES_KIND, key.data, key.len);
		}
	for (size_t i = 0; i < old->n_projects; i++) {
		const char *w = old->projects[i].writer;
		size_t k;

		/* Once each: the first project that names it. */
		for (k = 0; k < i && strcmp(old->projects[k].writer, w) != 0;
		    k++)
			;
		if (k < i || slices_of(now, w) > 0)
			continue;
		slice_key(&key, w);
		cache_drop(PAGES_KIND, key.data, key.len);
	}
	if (strcmp(prev, hex) != 0) {
		keep_key(&key, NULL, prev);
		cache_drop(KEEP_KIND, key.data, key.len);
	}
	strbuf_free(&key);
	strbuf_free(&tag);
}

/*
 * End what pg kept: when ok (the pages were written) its slices and
 * table, with its letters' counts c, and what the last build's table
 * old (NULL: none) named that this one does not dropped; else the pages
 * it kept dropped. Frees what it holds.
 */
static void
keep_end(struct atoz_page *pg, const struct atoz_counts *c,
    const struct atoz_toc *old, const char *prev, int ok)
{
	struct atoz_keep *k = pg->keep;
	strbuf key, tag;

	if (k == NULL)
		return;
	if (k->open) {
		cache_writer_end(k->rows.sink, 0);
		kept_writer_free(&k->rows);
	}
	/* qsort's array may not be NULL, even of no element. */
	if (k->toc.n_pages > 0)
		qsort(k->toc.pages, k->toc.n_pages, sizeof(*k->toc.pages),
		    toc_page_cmp);
	if (ok && k->ok && !k->open) {
		slices_write(k, pg->pc->m);
		if (k->toc.n_projects > 0)
			qsort(k->toc.projects, k->toc.n_projects,
			    sizeof(*k->toc.projects), toc_id_cmp);
		k->toc.cnt = *c;
		base_digest(k->toc.base, pg);
		toc_write(&k->toc, k->hex);
		if (old != NULL)
			drop_old(old, prev, &k->toc, k->hex);
	} else {
		strbuf_init(&key);
		strbuf_init(&tag);
		for (size_t i = 0; i < k->toc.n_pages; i++)
			if (strcmp(k->toc.pages[i].writer, k->hex) == 0 &&
			    (old == NULL || !toc_has_page(old,
			    &k->toc.pages[i]))) {
				page_key(&key, &tag, k->hex, k->toc.pages[i].b,
				    k->toc.pages[i].part);
				cache_drop(PAGES_KIND, key.data, key.len);
			}
		strbuf_free(&key);
		strbuf_free(&tag);
	}
	for (size_t i = 0; k->slices != NULL && i < k->n_slices; i++)
		strbuf_free(&k->slices[i]);
	free(k->slices);
	strbuf_free(&k->changed);
	toc_free(&k->toc);
	pg->keep = NULL;
}

/* The pages of s read whole or walked (src_all): the letters' counts c
 * made, keys/index, the letters' pages, every row's slice kept. Returns
 * 0 or < 0 with err set. */
static int
atoz_walk(struct atoz_page *pg, struct name_src *s,
    const struct atoz_counts *c, mirror_error *err)
{
	int rc;

	keep_slices(pg->keep, pg->pc->m);
	if ((rc = index_page(pg->pc, c, err)) < 0)
		return rc;
	return letters_write(pg, s, NULL, err);
}

/* The rows of the whole store into s, their counts into c. Returns 0
 * or < 0 with err set. */
static int
src_whole(struct name_src *s, const struct page_ctx *pc,
    struct atoz_counts *c, mirror_error *err)
{
	const struct store_key key = { atoz_key, NULL };
	int rc;

	src_close(s);
	memset(c, 0, sizeof(*c));
	rc = facts_names_count(pc->st, count_name, c, err);
	return rc < 0 ? rc : facts_names_open(&s->nr, pc->st, &key,
	    &(const struct names_plan){ NULL, 0, NULL }, err);
}

/* The pages when they are not kept whole (atoz_kept gave hex): an
 * update of the pages whose rows changed, else a walk of every page the
 * last build kept, else the whole read; kept for the next build.
 * Returns 0 or < 0 with err set. */
static int
atoz_write(const struct page_ctx *pc, const char *hex, mirror_error *err)
{
	struct atoz_counts c = { { 0 }, { 0 } };
	struct atoz_page pg;
	struct atoz_toc old;
	struct name_src s = { .st = pc->st };
	struct atoz_keep keep;
	int rc = 0, have_old = 0;

	strbuf_init(&s.last_name);
	strbuf_init(&s.last_project);
	strbuf_init(&s.last_id);
	page_start(&pg, pc, &c);
	/* Every row kept for the next build, when it has a record. */
	if (hex[0] != '\0' && pc->w->out != NULL)
		keep_begin(&pg, &keep, hex);
	s.prev[0] = '\0';
	if (pc->w->out != NULL && pc->w->record != NULL &&
	    record_prev(s.prev, pc->w->record, "keys/"))
		have_old = toc_read(&old, s.prev);
	if (have_old)
		rc = src_update(&s, &old, pc, err);
	if (rc == 1)
		rc = atoz_update(&pg, &s, &old, &c, err);
	if (rc == 0 && s.update && src_all(&s, &c))
		rc = atoz_walk(&pg, &s, &c, err) < 0 ? -1 : 1;
	if (rc == 0 && (rc = src_whole(&s, pc, &c, err)) == 0)
		rc = atoz_walk(&pg, &s, &c, err);
	rc = rc < 0 ? rc : 0;
	keep_end(&pg, &c, have_old ? &old : NULL, s.prev, rc == 0);
	src_close(&s);
	if (have_old)
		toc_free(&old);
	free(pg.rows);
	free(pg.done);
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
