/*
 * site.h: rendering the whole Human Mirror site (SPEC section 5).
 *
 * One struct site carries a build: the store (inside one consistent
 * read), the templates, the theme, the output staging tree and what every
 * page needs (snapshot checksum, project slugs, open-conflict markers).
 * Each page family lives in its own file (site_index.c, site_project.c,
 * ...) and builds one JSON object per page, which is both what the
 * Markdown template is rendered with and, for the api/ JSON files, what is
 * written. Pages are written as X.md and X.html (site_page).
 */
#ifndef MIRROR_SITE_H
#define MIRROR_SITE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "conflict.h"
#include "facts.h"
#include "slug.h"
#include "store.h"
#include "template.h"
#include "theme.h"

struct output;
struct progress;
struct stamp;

struct site {
	mirror_store *st;
	time_t now;                   /* the run's clock (core/clock.h) */
	char snapshot[17];            /* store checksum, hex */
	const char *title;            /* site title */
	const char *base_url;         /* NULL or "" when relative */
	tmpl_set *tmpl;
	theme *th;
	struct output *out;           /* NULL: a rehearsal, render only */
	struct fact_project *projects;  /* sorted by id; "" group first */
	size_t n_projects;
	char (*pslug)[SLUG_SIZE];     /* slug of projects[i] */
	struct disputed_list disputed;  /* members of open conflicts */
	struct conflict_list conflicts; /* all, in review-queue order */
	long long open_conflicts;
	struct facts_reader *facts;   /* open during site_render */
	struct stamp *stamp;          /* written last as api/build.json;
	                                 NULL: none (a rehearsal) */
	size_t pages;                 /* pages (twins) rendered */
	struct progress *progress;    /* NULL: no progress line */
	pthread_mutex_t lock;         /* pages and progress, while
	                                 site_render's workers run */
};

/*
 * Render the whole site into s->out (with s->out NULL: render every page
 * and discard it, which finds every template error the data reaches).
 * Returns 0 or < 0 with err set; on failure the caller drops the staging
 * tree.
 */
int site_render(struct site *s, mirror_error *err);

/*
 * Write one page: the template tmpl (a file name in the template set)
 * rendered with data as path.md, and that Markdown through cmark-gfm
 * wrapped in the theme's layout as path.html. path has no extension
 * ("projects/p05/index"). Adds the keys every template may use to data
 * (site_title, snapshot, footer). Returns 0 or < 0.
 */
int site_page(struct site *s, const char *path, const char *tmpl,
    const char *title, json_t *data, mirror_error *err);

/*
 * Write len bytes as path in the output tree; with s->out NULL (a
 * rehearsal) write nothing. Returns 0 or < 0 from output_write.
 */
int site_write(struct site *s, const char *path, const void *data,
    size_t len, mirror_error *err);

/* Write v (not consumed) as path, in the stable JSON format. */
int site_json(struct site *s, const char *path, const json_t *v,
    mirror_error *err);

/* The open conflict that fact (kind, id) belongs to, or NULL. */
const char *site_marker_of(const struct site *s, const char *kind,
    const char *id);

/* The index in s->projects of canonical project id, or -1. */
long site_project_index(const struct site *s, const char *id);

/* The JSON string of a store timestamp's date part ("2024-01-31"). */
json_t *site_date(const char *ts);

/*
 * v, or when v is NULL (json_pack failed: out of memory) one line naming
 * what and id on stderr and exit 3, like xalloc: a page must never lose
 * a fact silently.
 */
json_t *site_must(json_t *v, const char *what, const char *id);

/* Fact items: one JSON object per rendered fact (see templates/README). */
json_t *site_state_item(const struct site *s, const struct fact_state *f);
json_t *site_entity_item(const struct site *s, const struct fact_entity *e);
json_t *site_memory_item(const struct site *s, const struct fact_memory *m);

/* A string property of e ("" when absent or not a string/number). */
const char *site_prop(const struct fact_entity *e, const char *key,
    char *buf, size_t size);

/* Page families. Each returns 0 or < 0 with err set. */
int site_index(struct site *s, mirror_error *err);
int site_conflict_pages(struct site *s, mirror_error *err);
int site_extras(struct site *s, mirror_error *err);  /* 404, sitemap,
                                                       feed, health */

/* One project's pages from its facts (f stays the caller's). */
int site_project_pages(struct site *s, size_t i, const struct project_facts *f,
    mirror_error *err);

/* The project's pages, called by site_project_pages. */
int site_decisions(struct site *s, size_t i, const struct project_facts *f,
    mirror_error *err);
int site_subsystems(struct site *s, size_t i, const struct project_facts *f,
    mirror_error *err);

/* One item of progress, under s->lock. */
void site_progress_item(struct site *s);

/* Load s->disputed, s->conflicts and s->open_conflicts from the store;
 * site_conflicts_free releases them (also after a failure). */
int site_conflicts_load(struct site *s, mirror_error *err);
void site_conflicts_free(struct site *s);

/* The element id of a fact: "state-<slug>", "entity-...", "memory-...",
 * for a conflict member kind ("project_state", "entity", "memory"). */
json_t *site_anchor(const char *kind, const char *id);

#endif
