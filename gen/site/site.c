/*
 * site.c: the driver: every page family in turn (the table families[],
 * families.h says how to add one), then the
 * theme's assets and the build's stamp. Before the families, the plan:
 * each project whose digest (core/store/digest.h) and the site's inputs
 * are those its pages were last rendered from keeps its pages whole, and
 * only the other projects' facts are read.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "output/build_stamp.h"
#include "output/output.h"
#include "site/families.h"
#include "site/items.h"
#include "output/record.h"
#include "render/markdown.h"
#include "render/tablekinds.h"
#include "store/parallel.h"
#include "sys/jobs.h"
#include "sys/pool.h"
#include "site/site.h"
#include "site/site_atoz.h"
#include "site/site_checks.h"
#include "site/site_conflicts.h"
#include "site/site_index.h"
#include "site/site_project.h"
#include "site/site_search.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The page families, in render order: extras last, since the sitemap
 * lists what was written before it. */
static const struct page_family families[] = {
	{ "projects", project_pages, 0 },
	/* Beside the others, but its recent changes wait for the projects
	 * family (page_projects_wait), which finds the facts changed with
	 * no audit row (site_index_unaudited): after it in the order, so
	 * that when it cannot start beside it runs after it. */
	{ "index", index_pages, 1 },    /* the model's loose rows */
	{ "conflicts", conflict_pages, 0 },
	{ "checks", check_pages, 0 },
	{ "atoz", atoz_pages, 1 },      /* its own sorted read of names */
	/* Its whole index takes the facts the projects family read
	 * (facts_feed.h), reading the others itself. */
	{ "search", search_pages, 1 },
	{ "extras", extra_pages, 0 },
};

const struct page_family *
page_families(size_t *n)
{
	*n = sizeof(families) / sizeof(*families);
	return families;
}

/* The build's stamp, last, so it counts every other file. */
static int
write_stamp(const struct site_opts *o, size_t pages,
    const struct site_model *m, mirror_error *err)
{
	size_t n;
	char *text;
	int rc;

	(void)output_paths(o->out, &n);
	o->stamp->pages = (long long)pages;
	o->stamp->files = (long long)n + 1;
	o->stamp->open_conflicts = m->open_conflicts;
	text = stamp_text(o->stamp);
	rc = output_write(o->out, STAMP_PATH, text, strlen(text), err);
	free(text);
	return rc;
}

/* A family run in parallel with the others (struct page_family's
 * parallel). */
struct family_parallel {
	const struct page_family *f;
	struct page_ctx pc;             /* the caller's, with its own st */
	struct store_parallel *bs;      /* NULL: not started */
};

/* Run b's family on the second connection st (a store_parallel_fn). */
static int
family_run(void *arg, mirror_store *st, mirror_error *err)
{
	struct family_parallel *b = arg;

	b->pc.st = st;
	return b->f->pages(&b->pc, err);
}

/* Wait for b's family (started or not); when it did not run on a
 * connection of its own, run it here on pc's. Returns its result: 0 or
 * < 0 with err set. */
static int
family_join(struct family_parallel *b, const struct page_ctx *pc,
    mirror_error *err)
{
	int rc;

	if (store_parallel_join(b->bs, &rc, err))
		return rc;
	return b->f->pages(pc, err);
}

/* Wait for every family of b[0..n) that runs beside (b[k].bs), or,
 * after a failure (rc < 0), drop what they did. Returns rc, or the
 * first failure among them. */
static int
join_beside(struct family_parallel *b, size_t n, const struct page_ctx *pc,
    int rc, mirror_error *err)
{
	for (size_t k = 0; k < n; k++) {
		mirror_error ignored;
		int frc;

		if (b[k].bs == NULL)
			continue;
		if (rc < 0)
			(void)store_parallel_join(b[k].bs, &frc, &ignored);
		else
			rc = family_join(&b[k], pc, err);
		b[k].bs = NULL;
	}
	return rc;
}

/* A trim (xtrim) of what a family freed, on a thread of its own. */
struct trim {
	pthread_t t;
	int on;                 /* 1: t runs, for trim_join */
};

/* trim_start's thread: the trim, then its CPU time for the profile. */
static void *
trim_main(void *arg)
{
	(void)arg;
	xtrim();
	pool_thread_done();
	return NULL;
}

/* Wait for t's trim, if one runs. */
static void
trim_join(struct trim *t)
{
	if (t->on)
		(void)pthread_join(t->t, NULL);
	t->on = 0;
}

/* Give back what the family just done freed, before the next grows
 * much: from 2 jobs on a thread beside the next family (the last trim
 * waited for first), so that the main thread starts the next family
 * at once; at one job, or when no thread starts, here. */
static void
trim_start(struct trim *t)
{
	trim_join(t);
	if (mirror_jobs() > 1 &&
	    jobs_thread_start(&t->t, "trim", trim_main, NULL) == 0) {
		t->on = 1;
		return;
	}
	xtrim();
}

/*
 * Every family's pages, in the table's order; the families marked
 * parallel start first, each on a thread and connection of its own, and
 * are waited for before the last family (the extras, whose sitemap
 * lists what was written before it), so what it sees written is the
 * same. A parallel family that did not start runs at its place in the
 * order. What a family freed is given back while the next runs
 * (trim_start). Returns 0 or < 0.
 */
static int
all_families(const struct page_ctx *pc, mirror_error *err)
{
	size_t n;
	const struct page_family *f = page_families(&n);
	struct family_parallel *b = xcalloc(n, sizeof(*b));
	struct trim trim = { .on = 0 };
	int rc = 0;

	for (size_t i = 0; i + 1 < n; i++) {    /* the last never beside */
		b[i].f = &f[i];
		b[i].pc = *pc;
		if (f[i].parallel)
			b[i].bs = store_parallel_start(pc->st, family_run,
			    &b[i]);
	}
	for (size_t i = 0; i < n; i++) {
		int beside = b[i].bs != NULL;

		if (i + 1 == n)
			rc = join_beside(b, n - 1, pc, rc, err);
		if (rc == 0 && !beside)
			rc = f[i].pages(pc, err);
		if (f[i].pages == project_pages) {  /* run, or never will */
			page_projects_done(pc->w);
			feed_close(&pc->w->feed, rc < 0);
		}
		/* What a family freed goes back while the next grows; after
		 * the last nothing of the render grows, and a commit trims
		 * before its trees (history_commit). */
		if (i + 1 < n)
			trim_start(&trim);
	}
	trim_join(&trim);
	free(b);
	return rc;
}

/*
 * For the search's update (site_search.c, changed_reader), which runs
 * beside the projects family while that family's reader moves the
 * check's kept facts out of m->kept: a copy of those of scope[0..n)
 * (the projects read again, the no-project group first) into
 * w->search_kept, taken here, before any family starts, when the check
 * kept each of them and they are few enough for an update (an eighth of
 * the projects, past which the index is made whole). So the search
 * documents come from the rows the project pages show, without a scan
 * of every table for them. Returns nothing.
 */
static void
plan_search(struct site_writer *w, const struct site_model *m,
    const char *const *scope, size_t n)
{
	if (m->kept == NULL || (n - 1) * 8 > m->n_projects + 8 ||
	    !facts_kept_covers(m->kept, scope, n))
		return;
	w->search_kept = facts_kept_copy(m->kept, scope, n);
}

/*
 * For the A-Z's update (site_atoz.c, read_changed), which runs beside
 * the projects family as the search does: the ids of the state and
 * entity rows the check kept of scope[0..n) (m->kept holds each), so
 * that it finds the changed projects' names by their ids, without a
 * scan of both tables by project. *scope, which they cover, then goes
 * into w with them, and *scope is a copy. Returns nothing.
 */
static void
plan_names(struct site_writer *w, const struct site_model *m,
    const char ***scope, size_t n)
{
	const char **copy;

	w->names_rows = facts_kept_names(m->kept, *scope, n);
	if (w->names_rows == NULL)
		return;
	copy = xcalloc(n + 1, sizeof(*copy));
	memcpy(copy, *scope, n * sizeof(*copy));
	w->names_of = *scope;
	w->n_names_of = n;
	*scope = copy;
}

/*
 * Before the families: record each project's unit, keep the pages of
 * those whose unit is unchanged (w->kept), and limit the facts reader
 * to the others and the no-project group. Returns 0 or < 0.
 */
static int
plan_projects(struct site_model *m, const struct page_ctx *pc,
    const struct site_opts *o, mirror_error *err)
{
	const struct store_digest *d = &m->digest;
	const char *key = o->stamp->render;
	const char **scope = xcalloc(d->n + 1, sizeof(*scope));
	size_t n_scope = 0, n_kept = 0;
	char hex[DIGEST_HEX + 1];
	strbuf unit, json;
	int rc = 0;

	pc->w->kept = xcalloc(m->n_projects + 1, 1);
	page_unit_hex(hex, d->loose, key);
	record_put(pc->w->record, PAGE_LOOSE_UNIT, hex);
	strbuf_init(&unit);
	strbuf_init(&json);
	scope[n_scope++] = "";
	for (size_t k = 0; k < d->n; k++) {
		const char *id = d->p[k].project;
		long i = model_project_index(m, id);

		page_unit_path(&unit, id);
		page_unit_hex(hex, d->p[k].sum, key);
		if (i < 0 || id[0] == '\0') {
			record_put(pc->w->record, unit.data, hex);
			continue;
		}
		strbuf_reset(&json);
		url_api_project(&json, m->pslug[i]);
		if (page_keep_folder(pc, unit.data, json.data, hex,
		    project_html_only)) {
			pc->w->kept[i] = 1;
			n_kept++;
		} else {
			scope[n_scope++] = id;
		}
	}
	/* Nothing kept: the whole store is read, no scope to look up.
	 * What the build's check read of the same store is not read
	 * again. */
	if (n_kept > 0) {
		int covered = m->kept != NULL && facts_kept_covers(m->kept,
		    scope, n_scope);

		plan_search(pc->w, m, scope, n_scope);
		if (covered)
			plan_names(pc->w, m, &scope, n_scope);
		rc = facts_reader_open(&m->facts, m->st, &(const struct
		    facts_plan){ .now = m->now, .ids = scope, .n = n_scope,
		    .kept = covered ? m->kept : NULL }, err);
	}
	free(scope);
	strbuf_free(&unit);
	strbuf_free(&json);
	return rc;
}

int
site_changed_projects(const char ***ids, size_t *n,
    const struct page_record *r, const struct store_digest *d)
{
	char prev[DIGEST_HEX + 1], hex[DIGEST_HEX + 1];
	size_t cap = 0;
	strbuf unit;

	*ids = NULL;
	*n = 0;
	page_unit_hex(hex, d->loose, NULL);
	if (r == NULL || !record_prev(prev, r, PAGE_LOOSE_UNIT) ||
	    memcmp(prev, hex, 16) != 0)
		return 0;
	strbuf_init(&unit);
	for (size_t k = 0; k < d->n; k++) {
		page_unit_path(&unit, d->p[k].project);
		page_unit_hex(hex, d->p[k].sum, NULL);
		if (!record_prev(prev, r, unit.data) ||
		    memcmp(prev, hex, 16) != 0)
			ARRAY_PUSH(*ids, *n, cap) = d->p[k].project;
	}
	strbuf_free(&unit);
	if (*ids == NULL)
		*ids = xcalloc(1, sizeof(**ids));
	return 1;
}

/*
 * The templates' tables into *kinds and their rules into css, when the
 * theme has a stylesheet to hold them (else *kinds NULL: every table
 * keeps its per-cell labels). Both depend on the templates and the
 * theme alone, which the stamp's hash covers: a page kept from the last
 * build finds its class in this build's stylesheet. Returns 0 or < 0.
 */
static int
kinds_open(struct table_kinds **kinds, strbuf *css, const struct site_opts *o,
    mirror_error *err)
{
	int rc;

	*kinds = NULL;
	if (!theme_has_style(o->th))
		return 0;
	if ((rc = table_kinds_scan(kinds, o->tmpl, markdown_table_labels,
	    err)) < 0)
		return rc;
	table_kinds_css(css, *kinds);
	return 0;
}

int
site_render(size_t *pages, struct site_model *m, const struct site_opts *o,
    mirror_error *err)
{
	struct site_writer w;
	const struct page_ctx pc = { m, &w, m->st };
	struct table_kinds *kinds;
	strbuf css;
	int rc;

	*pages = 0;
	/* The questions pages show, made when a page asks. */
	conflict_words_open(m);
	writer_init(&w, o->tmpl, o->th, o->out, o->progress);
	strbuf_init(&css);
	rc = kinds_open(&kinds, &css, o, err);
	w.kinds = kinds;
	w.style_extra = css.data;
	/* A page is rendered again only when its inputs changed; the
	 * stamp's hash of the site-wide inputs is part of each digest. */
	if (rc == 0 && o->out != NULL && o->stamp != NULL &&
	    o->record != NULL) {
		w.record = o->record;
		record_set_key(w.record, o->stamp->render);
		rc = plan_projects(m, &pc, o, err);
	}
	/* Projects are read in id order, the index's "" group first:
	 * here, so the index may run beside the projects. */
	if (rc == 0 && m->facts == NULL)
		rc = facts_reader_open(&m->facts, m->st, &(const struct
		    facts_plan){ .now = m->now, .wide = 1 }, err);
	if (rc == 0)
		rc = facts_read_project(&m->loose, m->facts, "", err);
	if (rc == 0)
		rc = all_families(&pc, err);
	if (rc == 0 && o->out != NULL)
		rc = theme_write_assets(o->th, o->out, css.data, err);
	if (rc == 0 && w.record != NULL)
		rc = record_write(w.record, o->out, err);
	if (rc == 0 && o->out != NULL && o->stamp != NULL)
		rc = write_stamp(o, w.pages, m, err);
	facts_reader_close(m->facts);
	m->facts = NULL;
	facts_free(&m->loose);
	memset(&m->loose, 0, sizeof(m->loose));
	conflict_words_close(m);
	*pages = w.pages;
	free(w.kept);
	facts_kept_free(w.search_kept);
	free(w.names_rows);
	free(w.names_of);
	writer_free(&w);
	table_kinds_free(kinds);
	strbuf_free(&css);
	return rc;
}
