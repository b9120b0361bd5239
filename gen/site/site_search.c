/*
 * site_search.c: the page family of the search index (site_search.h).
 *
 * Every project's documents go in together: its conflicts, its checks,
 * its facts (the index's bytes do not depend on the order). A build
 * that has the last build's record keeps, for each project, the
 * documents it indexed in the user's cache (core/sys/cache.h), found by
 * the project's unit digest (page.h's page_units: its rows and the
 * site's inputs) and the search key (the render's key and the rules'
 * labels): a whole index all of them in one pack (search_pack.h: a file,
 * not 100,000), an update those of the projects it changed in an entry
 * each. The next build, when the record says which projects changed,
 * reads those projects' documents now, their documents then from the
 * cache (an entry of their own, else the pack), and updates the index
 * the last build wrote
 * (search_index_update): a one-fact change costs its project, not the
 * store. Whatever it cannot update (a cache entry missing, a kind's ring
 * that grows, a common word's sample that changes size, two projects'
 * records that meet) it builds whole, with the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/search_index.h"
#include "site/items.h"
#include "search/search_pack.h"
#include "site/site_conflicts.h"
#include "site/site_search.h"
#include "sys/cache.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The cache's kind of the projects' documents (core/sys/cache.h). */
#define DOCS_KIND "search"

/* The most bytes of a project's documents an update reads back. */
#define DOCS_MAX (256u << 20)

/* Where a project's documents go: the index, and (state not NULL) the
 * text kept for the next build (search_docs_put). */
struct doc_sink {
	struct search_index *x;
	strbuf *state;
};

struct work_count search_docs_added;

/* d into s. Returns 0 or < 0 with err set. */
static int
sink_add(struct doc_sink *s, const struct search_doc *d, mirror_error *err)
{
	work_add(&search_docs_added, 1);
	if (s->state != NULL)
		search_docs_put(s->state, d);
	return search_index_add(s->x, d, err);
}

/* The most bytes of a value a result shows (a memory's content). */
#define SEARCH_VALUE 160

/* search_put_fn of the site's output tree: pc is the page context. */
static int
search_put(void *arg, const char *path, const char *data, size_t len,
    mirror_error *err)
{
	return page_file(arg, path, data, len, err);
}

/* s cut to at most SEARCH_VALUE bytes at a character's start, "…"
 * after a cut, into sb; sb's text. */
static const char *
short_value(strbuf *sb, const char *s)
{
	size_t n = strlen(s);

	strbuf_reset(sb);
	if (n <= SEARCH_VALUE) {
		strbuf_add(sb, s, n);
		return sb->data;
	}
	n = SEARCH_VALUE;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	strbuf_add(sb, s, n);
	strbuf_puts(sb, "\xe2\x80\xa6");
	return sb->data;
}

/* The name of project id as results show it. */
static const char *
search_project(const struct site_model *m, const char *id)
{
	long i = model_project_index(m, id);

	if (id[0] == '\0')
		return "(no project)";
	return i >= 0 ? m->projects[i].name : id;
}

/* A fact's flags: 1 in an open conflict, 2 named by an open check. */
static int
fact_flags(const struct site_model *m, enum fact_layer layer, const char *id)
{
	return (model_marker_of(m, layer, id) != NULL ? 1 : 0) |
	    (model_check_of(m, layer_kind(layer), id, NULL) != NULL ? 2 : 0);
}

/* The URL of a fact's row (url_fact): its project's overview (the
 * index for rows of no project), into url (reset here). */
static void
fact_url(strbuf *url, const struct site_model *m, long p,
    enum fact_layer layer, const char *id)
{
	char slug[SLUG_SIZE];

	slug_make(slug, id);
	strbuf_reset(url);
	url_fact(url, m->projects[p].id[0] == '\0' ? "" : m->pslug[p], layer,
	    slug);
}

/* The facts of project p (read into f) as documents of x. Returns 0 or
 * < 0 with err set. */
static int
search_facts(struct doc_sink *x, const struct site_model *m, long p,
    const struct project_facts *f, mirror_error *err)
{
	const char *pname = search_project(m, m->projects[p].id);
	const char *pslug = m->projects[p].id[0] != '\0' ? m->pslug[p] : "";
	strbuf url, val, text;
	int rc = 0;

	strbuf_init(&url);
	strbuf_init(&val);
	strbuf_init(&text);
	for (size_t i = 0; rc == 0 && i < f->n_state; i++) {
		const struct fact_state *s = &f->state[i];
		struct search_doc d = { .title = s->key,
		    .value = short_value(&val, s->value), .project = pname,
		    .what = SEARCH_FACT, .layer = LAYER_STATE,
		    .status = s->status, .id = s->id,
		    .pslug = pslug,
		    .flags = fact_flags(m, LAYER_STATE, s->id) };

		fact_url(&url, m, p, LAYER_STATE, s->id);
		strbuf_reset(&text);
		strbuf_printf(&text, "%s %s %s", s->value, s->category,
		    s->source);
		d.url = url.data;
		d.text = text.data;
		rc = sink_add(x, &d, err);
	}
	for (size_t i = 0; rc == 0 && i < f->n_ent; i++) {
		const struct fact_entity *e = &f->ent[i];
		json_t *item = item_entity_value(e);
		const char *v = json_string_value(item);
		char *refs = json_dumps(e->source_refs, JSON_COMPACT);
		struct search_doc d = { .title = e->name,
		    .value = short_value(&val, v != NULL ? v : ""),
		    .project = pname, .what = SEARCH_FACT,
		    .layer = LAYER_ENTITY,
		    .status = e->status, .id = e->id, .pslug = pslug,
		    .flags = fact_flags(m, LAYER_ENTITY, e->id) };

		fact_url(&url, m, p, LAYER_ENTITY, e->id);
		strbuf_reset(&text);
		strbuf_printf(&text, "%s %s %s", e->type, e->description,
		    refs != NULL ? refs : "");
		d.url = url.data;
		d.text = text.data;
		rc = sink_add(x, &d, err);
		free(refs);
		json_decref(item);
	}
	for (size_t i = 0; rc == 0 && i < f->n_mem; i++) {
		const struct fact_memory *mm = &f->mem[i];
		struct search_doc d = { .title = mm->type,
		    .value = short_value(&val, mm->content),
		    .project = pname, .what = SEARCH_FACT,
		    .layer = LAYER_MEMORY,
		    .status = mm->expired ? "expired" : mm->status,
		    .id = mm->id, .pslug = pslug, .text = mm->content,
		    .flags = fact_flags(m, LAYER_MEMORY, mm->id) };

		fact_url(&url, m, p, LAYER_MEMORY, mm->id);
		d.url = url.data;
		rc = sink_add(x, &d, err);
	}
	strbuf_free(&url);
	strbuf_free(&val);
	strbuf_free(&text);
	return rc;
}

/* The URL of conflict id's page (url_conflict) into sb (initialised
 * here; the caller frees it). */
static void
search_url(strbuf *sb, const char *id)
{
	char slug[SLUG_SIZE];

	slug_make(slug, id);
	strbuf_init(sb);
	url_conflict(sb, slug);
}

/* A conflict as a document of x: titled by its name as the store gives
 * it ("lateral support material"; its value says "GF-PTFE vs PEEK", so
 * a result reads as the conflict's one form everywhere, "Name: X vs
 * Y"), its slot and every side's value; not its members' ids and
 * sources: a query of those finds the members' own documents, each
 * ⚠ disputed on a page that links the conflict, and they put a
 * conflict opened in a dozen term shards more (issue 68). Returns 0 or
 * < 0 with err set. */
static int
search_conflict(struct doc_sink *x, const struct site_model *m,
    const struct conflict *c, mirror_error *err)
{
	strbuf url, val, text, cut, title;
	int rc;

	search_url(&url, c->id);
	strbuf_init(&title);
	strbuf_init(&val);
	strbuf_init(&text);
	strbuf_init(&cut);
	strbuf_puts(&text, c->slot_key);
	for (size_t i = 0; i < c->n_members; i++) {
		const struct conflict_member *cm = &c->members[i];
		const char *v = cm->value_now != NULL ? cm->value_now :
		    cm->value_then;

		strbuf_puts(&val, i > 0 ? " vs " : "");
		strbuf_puts(&val, v != NULL ? v : "");
	}
	strbuf_puts(&text, " ");
	strbuf_add(&text, val.data, val.len);
	conflict_name_words(&title, c);
	rc = sink_add(x, &(struct search_doc){
	    .title = title.data, .value = short_value(&cut, val.data),
	    .project = search_project(m, c->project), .url = url.data,
	    .what = SEARCH_CONFLICT, .status = c->status, .id = c->id,
	    .text = text.data, .flags = strcmp(c->status, "open") == 0 },
	    err);
	strbuf_free(&cut);
	strbuf_free(&url);
	strbuf_free(&val);
	strbuf_free(&text);
	strbuf_free(&title);
	return rc;
}

/* A check as a document of x: its rule and message. Returns 0 or < 0
 * with err set. */
static int
search_check(struct doc_sink *x, const struct site_model *m,
    const struct violation *v, mirror_error *err)
{
	strbuf url, val, text;
	int rc;

	strbuf_init(&url);
	item_check_url(&url, v->project, v->id, "html");
	strbuf_init(&val);
	strbuf_init(&text);
	strbuf_printf(&text, "%s %s", v->message, v->rule_id);
	rc = sink_add(x, &(struct search_doc){
	    .title = model_rule_label(m, v->rule_id),
	    .value = short_value(&val, v->message),
	    .project = search_project(m, v->project), .url = url.data,
	    .what = SEARCH_CHECK, .status = v->status, .id = v->id,
	    .text = text.data, .flags = strcmp(v->status, "open") == 0 ? 2 :
	    0 }, err);
	strbuf_free(&url);
	strbuf_free(&val);
	strbuf_free(&text);
	return rc;
}

/* What every part of the family works from: the page context and the
 * search key. */
struct search_run {
	const struct page_ctx *pc;
	struct page_ctx own;            /* the writer search_put writes to */
	char key[17];
	struct pack_names names;        /* the packs of the units' sets */
};

/* Project p's own page as a document of x (issue 69): its name the
 * title, its description the value, its aliases words of it; none for
 * the group of rows of no project. Returns 0 or < 0 with err set. */
static int
search_project_page(struct doc_sink *x, const struct site_model *m,
    long p, mirror_error *err)
{
	const struct fact_project *fp = &m->projects[p];
	strbuf url, val, text;
	int rc;

	if (fp->id[0] == '\0')
		return 0;
	strbuf_init(&url);
	strbuf_init(&val);
	strbuf_init(&text);
	url_project(&url, m->pslug[p]);
	for (size_t i = 0; i < fp->n_aliases; i++)
		strbuf_printf(&text, "%s%s", i > 0 ? " " : "", fp->aliases[i]);
	rc = sink_add(x, &(struct search_doc){ .title = fp->name,
	    .value = short_value(&val, fp->description), .project = fp->name,
	    .url = url.data, .what = SEARCH_PROJECT, .status = "project",
	    .id = fp->id, .pslug = m->pslug[p], .text = text.data }, err);
	strbuf_free(&url);
	strbuf_free(&val);
	strbuf_free(&text);
	return rc;
}

/* The documents of project p (its facts in f) into s: its own page,
 * its conflicts, its checks, its facts. Returns 0 or < 0 with err set. */
static int
project_docs(struct doc_sink *s, const struct search_run *sr, long p,
    const struct project_facts *f, mirror_error *err)
{
	const struct site_model *m = sr->pc->m;
	const struct model_index *cf = &m->conflicts_of, *ck = &m->checks_of;
	int rc = search_project_page(s, m, p, err);

	for (size_t i = cf->start[p]; rc == 0 && i < cf->start[p + 1]; i++)
		rc = search_conflict(s, m, &m->conflicts.items[cf->ord[i]], err);
	for (size_t i = ck->start[p]; rc == 0 && i < ck->start[p + 1]; i++)
		rc = search_check(s, m, &m->violations.items[ck->ord[i]], err);
	if (rc == 0)
		rc = search_facts(s, m, p, f, err);
	return rc;
}

/* The conflicts and checks of no project of the model into s. Returns
 * 0 or < 0 with err set. */
static int
orphan_docs(struct doc_sink *s, const struct search_run *sr,
    mirror_error *err)
{
	const struct site_model *m = sr->pc->m;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < m->conflicts.n; i++)
		if (model_project_index(m, m->conflicts.items[i].project) < 0)
			rc = search_conflict(s, m, &m->conflicts.items[i], err);
	for (size_t i = 0; rc == 0 && i < m->violations.n; i++)
		if (model_project_index(m, m->violations.items[i].project) < 0)
			rc = search_check(s, m, &m->violations.items[i], err);
	return rc;
}

/* 1 when some conflict or check is of no project of the model. */
static int
has_orphans(const struct search_run *sr)
{
	const struct site_model *m = sr->pc->m;

	return m->conflicts_of.start[m->n_projects] < m->conflicts.n ||
	    m->checks_of.start[m->n_projects] < m->violations.n;
}

/* The search records' URL templates into *u, made by the site's URL
 * functions (items.h) with "{p}" for the project's slug and "{id}" for
 * the record's id, their text in sb[0..8) (initialised here; the
 * caller frees them); none for a check (its page is item_check_url's,
 * the project's slug of its id). Returns nothing. */
static void
search_urls_make(struct search_urls *u, strbuf sb[8])
{
	int n = 0;

	memset(u, 0, sizeof(*u));
	for (int own = 0; own < 2; own++)
		for (int f = LAYER_MEMORY; f <= LAYER_STATE; f++) {
			strbuf_init(&sb[n]);
			url_fact(&sb[n], own == 0 ? "{p}" : "",
			    (enum fact_layer)f, "{id}");
			u->fact[f][own] = sb[n++].data;
		}
	strbuf_init(&sb[n]);
	url_conflict(&sb[n], "{id}");
	u->conflict[0] = u->conflict[1] = sb[n++].data;
	/* A project's own page has a slug always. */
	strbuf_init(&sb[n]);
	url_project(&sb[n], "{p}");
	u->project[0] = u->project[1] = sb[n].data;
}

/* Name what x's records are written against: the search key and the
 * site's URL templates. Returns nothing. */
static void
index_name(struct search_index *x, const struct search_run *sr)
{
	struct search_urls u;
	strbuf sb[8];

	search_index_set_key(x, sr->key);
	search_urls_make(&u, sb);
	search_index_set_urls(x, &u);
	for (int i = 0; i < 8; i++)
		strbuf_free(&sb[i]);
}

/* The search key into sr->key: the render's key and every rule's label
 * (a check's title), what the records show beside the store's rows. */
static void
search_key(struct search_run *sr)
{
	const struct site_model *m = sr->pc->m;
	const struct page_record *r = sr->pc->w->record;
	uint64_t h = hash_add_str(MIRROR_HASH_INIT, r != NULL ? record_key(r) :
	    "");

	h = hash_add_str(h, "search 5");
	for (size_t i = 0; i < m->runs.n; i++) {
		h = hash_add_str(h, m->runs.items[i].rule_id);
		h = hash_add_str(h, m->runs.items[i].label);
	}
	hash_hex(sr->key, hash_mix(h));
}

/* The cache's key of unit u's documents at digest hex into sb. */
static void
docs_key(strbuf *sb, const struct search_run *sr, const char *path,
    const char *hex)
{
	strbuf_reset(sb);
	strbuf_printf(sb, "search docs\n%s\n%s\n%s", path, hex, sr->key);
}

/* Forget unit u's documents of the last build kept in an entry of
 * their own (an update's), when their digest was another. */
static void
docs_forget(const struct search_run *sr, const struct page_unit *u)
{
	strbuf key;

	if (u->prev[0] == '\0' || strcmp(u->prev, u->hex) == 0)
		return;
	strbuf_init(&key);
	docs_key(&key, sr, u->path, u->prev);
	cache_drop(DOCS_KIND, key.data, key.len);
	strbuf_free(&key);
}

/* Keep s, unit u's documents now, for the next build in an entry of
 * their own in the cache's directory dfd (cache_kind_open's, opened
 * once a run: -1 none), and forget those of the last (docs_forget).
 * The key names the documents (their unit's digest), so one kept
 * already stays. */
static void
docs_keep(const struct search_run *sr, int dfd, const struct page_unit *u,
    const strbuf *s)
{
	strbuf key;

	strbuf_init(&key);
	if (u->hex[0] != '\0') {
		docs_key(&key, sr, u->path, u->hex);
		cache_put_new(dfd, key.data, key.len, s->data, s->len);
	}
	strbuf_free(&key);
	docs_forget(sr, u);
}

/* The unit of each project of the model (NULL: none) among u[0..n). */
static const struct page_unit **
units_by_project(const struct page_unit *u, size_t n, size_t np)
{
	const struct page_unit **by = xcalloc(np + 1, sizeof(*by));

	for (size_t i = 0; i < n; i++)
		if (u[i].project >= 0 && (size_t)u[i].project < np)
			by[u[i].project] = &u[i];
	return by;
}

/* What a whole index is made with: the index, each project's unit
 * (NULL: none), the text kept of one, the pack it goes in (NULL:
 * none). */
struct whole {
	const struct search_run *sr;
	struct search_index *x;
	const struct page_unit **by;
	strbuf state;
	struct pack_writer *pack;
};

/* Project p's documents (its facts f) into w's index, and kept for the
 * next build in w's pack when it has a unit (its entry of its own of
 * the last build forgotten). Returns 0 or < 0 with err set. */
static int
whole_project(struct whole *w, size_t p, const struct project_facts *f,
    mirror_error *err)
{
	struct doc_sink s = { w->x, w->by[p] != NULL ? &w->state : NULL };
	int rc;

	strbuf_reset(&w->state);
	rc = project_docs(&s, w->sr, (long)p, f, err);
	if (rc == 0 && w->by[p] != NULL) {
		pack_add(w->pack, w->by[p]->path, w->by[p]->hex, w->state.data,
		    w->state.len);
		docs_forget(w->sr, w->by[p]);
	}
	return rc;
}

/* The documents of every project of the model but those got marks
 * (NULL: none), read in order through r. Returns 0 or < 0 with err
 * set. */
static int
whole_read(struct whole *w, struct facts_reader *r,
    const unsigned char *got, mirror_error *err)
{
	const struct site_model *m = w->sr->pc->m;
	int rc = 0;

	for (size_t p = 0; rc == 0 && p < m->n_projects; p++) {
		struct project_facts f;

		if (got != NULL && got[p])
			continue;
		memset(&f, 0, sizeof(f));
		rc = facts_read_project(&f, r, m->projects[p].id, err);
		if (rc == 0)
			rc = whole_project(w, p, &f, err);
		facts_free(&f);
	}
	return rc;
}

/* The documents of the projects the projects family hands over (fd,
 * attached), as they come, marked in got; after a failure on either
 * side the feed is left. Returns 0 or < 0 with err set. */
static int
whole_fed(struct whole *w, struct facts_feed *fd, unsigned char *got,
    mirror_error *err)
{
	struct project_facts f;
	size_t p;
	int rc = 0, t = 0;

	while (rc == 0 && (t = feed_take(fd, &p, &f)) > 0) {
		got[p] = 1;
		rc = whole_project(w, p, &f, err);
		facts_free(&f);
	}
	if (rc == 0 && t < 0)
		rc = mirror_fail(err, MIRROR_EIO, "search: the projects' "
		    "pages failed");
	if (rc < 0)
		feed_leave(fd);
	return rc;
}

/*
 * Every project's documents into w: when the family runs beside the
 * projects family (a connection of its own) and takes its feed, those
 * the projects family read, then the others (the no-project group,
 * pages kept) through a reader of them alone; else all through a wide
 * reader of the family's connection. Returns 0 or < 0 with err set.
 */
static int
whole_docs(struct whole *w, mirror_error *err)
{
	const struct page_ctx *pc = w->sr->pc;
	const struct site_model *m = pc->m;
	const char **ids = NULL;
	unsigned char *got = NULL;
	struct facts_reader *r = NULL;
	size_t k = 0;
	int rc = 0;

	if (pc->st != m->st && feed_attach(&pc->w->feed)) {
		got = xcalloc(m->n_projects + 1, 1);
		rc = whole_fed(w, &pc->w->feed, got, err);
		ids = xcalloc(m->n_projects + 1, sizeof(*ids));
		for (size_t p = 0; p < m->n_projects; p++)
			if (!got[p])
				ids[k++] = m->projects[p].id;
	}
	if (rc == 0 && (got == NULL || k > 0))
		rc = facts_reader_open(&r, pc->st, &(const struct facts_plan){
		    .now = m->now, .ids = ids, .n = k, .wide = got == NULL },
		    err);
	if (rc == 0 && (got == NULL || k > 0))
		rc = whole_read(w, r, got, err);
	facts_reader_close(r);
	free(ids);
	free(got);
	return rc;
}

/* The whole index: every project's documents (whole_docs); each
 * project's kept for the next build in one pack (search_pack.h) when
 * units (n of them) are given, the last build's pack dropped. Returns 0
 * or < 0 with err set. */
static int
search_whole(struct search_run *sr, const struct page_unit *u, size_t n,
    mirror_error *err)
{
	const struct site_model *m = sr->pc->m;
	struct whole w = { .sr = sr,
	    .x = search_index_new(search_put, &sr->own),
	    .by = units_by_project(u, n, m->n_projects) };
	int rc;

	if (n > 0)
		w.pack = pack_start(DOCS_KIND, &sr->names);
	index_name(w.x, sr);
	strbuf_init(&w.state);
	rc = whole_docs(&w, err);
	pack_end(w.pack, rc == 0);
	if (rc == 0 && n > 0)
		pack_retire(DOCS_KIND, &sr->names);
	if (rc == 0)
		rc = orphan_docs(&(struct doc_sink){ w.x, NULL }, sr, err);
	if (rc == 0)
		rc = search_index_finish(w.x, err);
	search_index_free(w.x);
	strbuf_free(&w.state);
	free(w.by);
	return rc;
}

/* search_docs_each's each: a document of the last build into old. */
static int
old_doc(void *arg, const struct search_doc *d, mirror_error *err)
{
	work_add(&search_docs_added, 1);
	return search_index_add(arg, d, err);
}

/* Unit u's documents as the last build indexed them, from the cache
 * (an entry of their own, an update's; else the pack, opened into pk
 * at the first need), into old. Returns 0, SEARCH_REBUILD (none kept,
 * or damaged: a damaged pack is dropped) or < 0. */
static int
old_docs(struct search_index *old, const struct search_run *sr,
    const struct page_unit *u, struct pack_reader *pk, mirror_error *err)
{
	strbuf key, text;
	int rc, packed = 0;

	strbuf_init(&key);
	strbuf_init(&text);
	docs_key(&key, sr, u->path, u->prev);
	rc = cache_get_text(&text, DOCS_MAX, DOCS_KIND, key.data, key.len);
	if (rc != 0 && pack_open(pk, DOCS_KIND, &sr->names) == 0) {
		rc = pack_get(&text, pk, u->path, u->prev);
		packed = 1;
	}
	if (rc == 0)
		rc = search_docs_each(text.data, text.len, old_doc, old, err);
	else
		rc = SEARCH_REBUILD;
	if (packed && rc == SEARCH_REBUILD)
		pack_drop(DOCS_KIND, pk);
	strbuf_free(&key);
	strbuf_free(&text);
	return rc;
}

/* search_prev's get and keep, on the site's output tree. */
static int
prev_get(void *arg, const char *path, char **data, size_t *len,
    mirror_error *err)
{
	const struct search_run *sr = arg;

	return page_read_prev(data, len, sr->pc, path, err);
}

static int
prev_keep(void *arg, const char *const *drop, size_t n, mirror_error *err)
{
	const struct search_run *sr = arg;

	return page_keep_rest(sr->pc, "search/", drop, n, err);
}

/* 1 when two projects of m have one name: their conflicts and checks
 * (named by project name alone) would share a place. */
static int
names_shared(const struct site_model *m)
{
	const char **name = xcalloc(m->n_projects + 1, sizeof(*name));
	int shared = 0;

	for (size_t i = 0; i < m->n_projects; i++)
		name[i] = m->projects[i].name;
	qsort(name, m->n_projects, sizeof(*name), array_str_cmp);
	for (size_t i = 1; i < m->n_projects; i++)
		shared |= strcmp(name[i - 1], name[i]) == 0;
	free(name);
	return shared;
}

/* A reader of the projects of the units that changed (u[0..n), in the
 * digest's order: by id) alone, into *r: of the check's kept facts when
 * the plan copied them all for the search (site.c, plan_search: the
 * rows the project pages show, no table scanned); else of the family's
 * connection, or NULL on the model's own connection, whose scope (a
 * scoped plan's) is the projects family's. Returns 0 or < 0 with err
 * set. */
static int
changed_reader(struct facts_reader **r, const struct search_run *sr,
    const struct page_unit *u, size_t n, mirror_error *err)
{
	const struct site_model *m = sr->pc->m;
	struct facts_kept *kept = sr->pc->w->search_kept;
	const char **ids = xcalloc(n + 1, sizeof(*ids));
	size_t k = 0;
	int rc = 0;

	*r = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(u[i].prev, u[i].hex) != 0 && u[i].project >= 0)
			ids[k++] = m->projects[u[i].project].id;
	if (kept != NULL && facts_kept_covers(kept, ids, k))
		rc = facts_reader_open(r, sr->pc->st, &(const struct
		    facts_plan){ .now = m->now, .kept = kept }, err);
	else if (sr->pc->st != m->st)
		rc = facts_reader_open(r, sr->pc->st, &(const struct
		    facts_plan){ .now = m->now, .ids = ids, .n = k }, err);
	free(ids);
	return rc;
}

/* After an update from units u[0..n) (state[i] the documents now of
 * each that changed): those kept in an entry each (docs_keep), and the
 * last build's pack, opened into pk when no read did, carried to this
 * build's set (pack_carry), so the next finds it. */
static void
update_keep(const struct search_run *sr, const struct page_unit *u,
    size_t n, const strbuf *state, struct pack_reader *pk)
{
	int dfd = cache_kind_open(DOCS_KIND);

	(void)pack_open(pk, DOCS_KIND, &sr->names);
	pack_carry(DOCS_KIND, &sr->names, pk);
	for (size_t i = 0; i < n; i++)
		if (strcmp(u[i].prev, u[i].hex) != 0)
			docs_keep(sr, dfd, &u[i], &state[i]);
	if (dfd >= 0)
		close(dfd);
}

/*
 * The index updated from the units that changed (u[0..n), whose prev
 * and hex differ): their documents now and then. Returns 0,
 * SEARCH_REBUILD (nothing written) or < 0.
 */
static int
search_update(struct search_run *sr, const struct page_unit *u, size_t n,
    mirror_error *err)
{
	const struct site_model *m = sr->pc->m;
	struct search_index *x = search_index_new_whole(search_put,
	    &sr->own);
	struct search_index *old = search_index_new_whole(search_put,
	    &sr->own);
	strbuf *state = xcalloc(n + 1, sizeof(*state));
	struct search_prev prev = { prev_get, prev_keep, sr };
	struct pack_reader pk = { 0 };
	int rc = 0;

	struct facts_reader *r = NULL;

	index_name(x, sr);
	for (size_t i = 0; i < n; i++)
		strbuf_init(&state[i]);
	rc = changed_reader(&r, sr, u, n, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct doc_sink s = { x, &state[i] };
		struct project_facts f;

		if (strcmp(u[i].prev, u[i].hex) == 0)
			continue;
		if (u[i].prev[0] != '\0')
			rc = old_docs(old, sr, &u[i], &pk, err);
		if (rc != 0 || u[i].project < 0)
			continue;
		memset(&f, 0, sizeof(f));
		if (r != NULL)
			rc = facts_read_project(&f, r,
			    m->projects[u[i].project].id, err);
		else
			rc = facts_load(&f, sr->pc->st,
			    m->projects[u[i].project].id, m->now, err);
		if (rc == 0)
			rc = project_docs(&s, sr, u[i].project, &f, err);
		facts_free(&f);
	}
	facts_reader_close(r);
	if (rc == 0)
		rc = search_index_update(x, old, &prev, err);
	if (rc == 0)
		update_keep(sr, u, n, state, &pk);
	pack_close(&pk);
	for (size_t i = 0; i < n; i++)
		strbuf_free(&state[i]);
	free(state);
	search_index_free(x);
	search_index_free(old);
	return rc;
}

/* How many of u[0..n) changed. */
static size_t
units_changed(const struct page_unit *u, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += strcmp(u[i].prev, u[i].hex) != 0;
	return c;
}

void
site_search_held_mark(void)
{
	search_held_mark();
}

unsigned long long
site_search_held_peak(void)
{
	return search_held_peak();
}

/* The packs' names (search_pack.h) of units u[0..n) under key into *pn.
 * Returns nothing. */
static void
units_names(struct pack_names *pn, const char *key, const struct page_unit *u,
    size_t n)
{
	pack_names_start(pn, key);
	for (size_t i = 0; i < n; i++)
		pack_names_add(pn, u[i].path, u[i].prev, u[i].hex);
	pack_names_finish(pn);
}

int
search_pages(const struct page_ctx *pc, mirror_error *err)
{
	struct search_run sr = { .pc = pc, .own = *pc };
	struct page_unit *u = NULL;
	size_t n = 0;
	int rc, known = 0;
	json_t *data;

	/* The page first: an update keeps the rest of search/. */
	data = json_object();
	rc = page_write(pc, "search/index", "search.md", "Search", data, err);
	json_decref(data);
	if (rc < 0)
		return rc;
	search_key(&sr);
	if (pc->w->out != NULL && pc->w->record != NULL)
		known = page_units(&u, &n, pc);
	units_names(&sr.names, sr.key, u, n);
	/* An update costs the projects that changed; past an eighth of
	 * them the whole index costs little more. */
	rc = SEARCH_REBUILD;
	if (known && !has_orphans(&sr) && !names_shared(pc->m) &&
	    units_changed(u, n) * 8 <= n + 8)
		rc = search_update(&sr, u, n, err);
	if (rc == SEARCH_REBUILD)
		rc = search_whole(&sr, u, n, err);
	page_units_free(u, n);
	return rc;
}
