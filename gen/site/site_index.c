/*
 * site_index.c: the site's index page, a dashboard.
 *
 * The open conflicts in words as the headline; the projects to look at
 * first (the most open conflicts and open error checks, a bounded
 * number) as a table, and the list of every project, paged, by name
 * and by open conflicts (projects/index and on); the
 * open conflicts over time from sweep_runs, as a
 * sentence and, in the HTML twin, an SVG chart made from that same data.
 * Rows with project '' belong to no project: they have no overview of
 * their own (there is no project to describe, and '' has no honest
 * slug), so their facts are listed on the index itself, where conflict
 * pages link to them.
 *
 * And the files around the pages, written last (extra_pages): 404,
 * api/health.json, .nojekyll, the feed and the sitemap: rebuilt by every
 * build that renders, the two are bounded, the feed by its entries,
 * each sitemap file by the protocol's 50,000 URLs and by 512 KiB (a
 * large site has more pages than that).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/chart.h"
#include "render/escape.h"
#include "render/slug.h"
#include "site/items.h"
#include "site/site_conflicts.h"
#include "site/site_graph.h"
#include "site/site_index.h"
#include "sweep/health.h"
#include "sweep/open_trend.h"
#include "sys/clock.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The open conflicts of each project, in one pass over the conflicts:
 * *counts (the caller frees it) has one count per m->projects entry,
 * and the return value is the count of the no-project group "".
 */
static long long
open_counts(long long **counts, const struct site_model *m)
{
	long long loose = 0;

	*counts = xcalloc(m->n_projects ? m->n_projects : 1,
	    sizeof(**counts));
	for (size_t i = 0; i < m->conflicts.n; i++) {
		const char *project = m->conflicts.items[i].project;
		long k;

		if (strcmp(m->conflicts.items[i].status, "open") != 0)
			continue;
		if (project[0] == '\0')
			loose++;
		else if ((k = model_project_index(m, project)) >= 0)
			(*counts)[k]++;
	}
	return loose;
}

/* Item of the no-project group onto *now when it is current (active,
 * and a memory not expired: its "active"), else onto *old. */
static void
loose_put(json_t *now, json_t *old, json_t *item)
{
	json_array_append_new(json_is_true(json_object_get(item, "active")) ?
	    now : old, item);
}

/* The no-project group's facts (the model's, read before the
 * families), in layer order: the current ones returned, the others
 * (candidates, superseded, invalid, graduated, expired) into *old, kept
 * for their anchors; and the links of its entities as the overviews
 * list them (*linked). */
static json_t *
loose_facts(json_t **linked, json_t **old, const struct site_model *m)
{
	const struct project_facts *f = &m->loose;
	struct site_graph g;
	json_t *items = json_array();

	*linked = json_array();
	*old = json_array();
	graph_init(&g, f, "index");
	for (size_t k = 0; k < f->n_state; k++)
		loose_put(items, *old, item_state(m, &f->state[k]));
	for (size_t k = 0; k < f->n_ent; k++) {
		json_t *item = item_entity(m, &f->ent[k]);

		graph_entity_links(item, *linked, m, &g, &f->ent[k]);
		loose_put(items, *old, item);
	}
	for (size_t k = 0; k < f->n_mem; k++)
		loose_put(items, *old, item_memory(m, &f->mem[k]));
	graph_free(&g);
	return items;
}

/* The date ("YYYY-MM-DD") of t, seconds since 1970, into buf. */
static void
date_of(char buf[MIRROR_TS_LEN], long long t)
{
	mirror_format_ts(buf, (time_t)t);
	buf[10] = '\0';
}

/*
 * The newest change of the store's facts (the model's facts_latest) as
 * a JSON string of its full timestamp, or null when no row has one: the
 * date the site shows the store as of, from the data (never the clock:
 * the same store gives the same site).
 */
static json_t *
facts_updated_at(const struct site_model *m)
{
	char ts[MIRROR_TS_LEN];

	if (m->facts_latest < 0)
		return json_null();
	mirror_format_ts(ts, (time_t)m->facts_latest);
	return json_string(ts);
}

/* Row x's field key as a number. */
static long long
row_int(const json_t *x, const char *key)
{
	return (long long)json_integer_value(json_object_get(x, key));
}

/* A project as the lists order it: what they sort by, with its
 * index in the model (project_row makes its row of the table). Held
 * for every project, so small: the rows' JSON is made for the
 * projects a page shows (at 100,000 projects the JSON of every row
 * was most of the build's memory). */
struct proj_row {
	size_t i;                       /* the model's project */
	const char *name, *id;
	long long open, errors, checks; /* open conflicts, open error
	                                   checks, open checks */
};

/* qsort order of project rows: by name, numeric-aware (item_name_cmp), then
 * by id (ids are unique); not by a count, so a row does not move when
 * a count changes. */
static int
cmp_row(const void *a, const void *b)
{
	const struct proj_row *x = a, *y = b;
	int c = item_name_cmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->id, y->id);
}

/* How bad project row x is: its open conflicts and open error checks. */
static long long
row_score(const struct proj_row *x)
{
	return x->open + x->errors;
}

/* qsort order (of pointers to rows) of the worst projects first: by
 * row_score, descending, then as cmp_row. */
static int
cmp_worst(const void *a, const void *b)
{
	const struct proj_row *x = *(const struct proj_row *const *)a;
	const struct proj_row *y = *(const struct proj_row *const *)b;
	long long sx = row_score(x), sy = row_score(y);

	return sx != sy ? (sx > sy ? -1 : 1) : cmp_row(x, y);
}

/* qsort order (of pointers to rows) of the list by open conflicts: most
 * first, then most open checks, then as cmp_row. */
static int
cmp_conflicts(const void *a, const void *b)
{
	const struct proj_row *x = *(const struct proj_row *const *)a;
	const struct proj_row *y = *(const struct proj_row *const *)b;
	long long d = y->open - x->open;

	if (d == 0)
		d = y->checks - x->checks;
	return d != 0 ? (d > 0 ? 1 : -1) : cmp_row(x, y);
}

/* How many of project i's violations are open (checks_of lists the
 * open ones first); *errors gets how many of those are errors. */
static long long
open_checks_of(long long *errors, const struct site_model *m, size_t i)
{
	const struct model_index *ix = &m->checks_of;
	long long n = 0;

	*errors = 0;
	for (size_t k = ix->start[i]; k < ix->start[i + 1]; k++) {
		const struct violation *v = &m->violations.items[ix->ord[k]];

		if (strcmp(v->status, "open") != 0)
			break;
		*errors += strcmp(v->severity, "error") == 0;
		n++;
	}
	return n;
}

/* Index's words of project i's open conflicts into row: "disputed",
 * the first three in the queue's order (slug, question and statement),
 * and
 * "disputed_more", how many more (0 for none). */
static void
disputed_words(json_t *row, const struct site_model *m, size_t i)
{
	json_t *out = json_array();
	size_t n = m->open_of.start[i + 1] - m->open_of.start[i];

	for (size_t k = 0; k < n && k < 3; k++) {
		const struct conflict *c = &m->conflicts.items[
		    m->open_of.ord[m->open_of.start[i] + k]];
		char slug[SLUG_SIZE];

		slug_make(slug, c->id);
		json_array_append_new(out, item_must(json_pack("{s:s, s:o, "
		    "s:s, s:o}", "slug", slug, "page", item_conflict_page(
		    c->id), "question", conflict_question(m, c, 0), "statement",
		    conflict_statement_json(c, 1)), "conflict", c->id));
	}
	json_object_set_new(row, "disputed", out);
	json_object_set_new(row, "disputed_more", json_integer(
	    (json_int_t)(n > 3 ? n - 3 : 0)));
}

/* The project's row of the table (see templates/README.md). */
static json_t *
project_row(const struct site_model *m, size_t i, long long open)
{
	const struct fact_project *p = &m->projects[i];
	char date[MIRROR_TS_LEN];
	long long errors, checks = open_checks_of(&errors, m, i);
	json_t *row;

	if (p->latest >= 0)
		date_of(date, p->latest);
	row = item_must(json_pack("{s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:I, "
	    "s:I, s:I, s:o, s:o, s:I, s:o}",
	    "id", p->id, "name", p->name, "slug", m->pslug[i],
	    "description", p->description, "listed", p->listed,
	    "state_rows", (json_int_t)p->n_state,
	    "entity_rows", (json_int_t)p->n_entities,
	    "memory_rows", (json_int_t)p->n_memories,
	    "active_rows", (json_int_t)p->n_active,
	    "open_conflicts", (json_int_t)open,
	    "open_words", item_count(open, "open conflict", "open conflicts"),
	    "latest", p->latest >= 0 ? json_string(date) : json_null(),
	    "open_checks", (json_int_t)checks,
	    "checks_words", item_count(checks, "open check", "open checks")),
	    "project", p->id);
	json_object_set_new(row, "open_errors", json_integer(
	    (json_int_t)errors));
	json_object_set_new(row, "page", item_project_page(m, (long)i));
	json_object_set_new(row, "checks_page", item_url(url_checks_page,
	    m->pslug[i]));
	disputed_words(row, m, i);
	return row;
}

/* Every project but the no-project group, in reading order (cmp_row),
 * a new array of *n; *with_open counts those with an open conflict. */
static struct proj_row *
project_rows(size_t *n, const struct site_model *m, const long long *open,
    long long *with_open)
{
	struct proj_row *v = xcalloc(m->n_projects + 1, sizeof(*v));

	*n = 0;
	*with_open = 0;
	for (size_t i = 0; i < m->n_projects; i++) {
		struct proj_row *r = &v[*n];

		if (m->projects[i].id[0] == '\0')
			continue;
		r->i = i;
		r->name = m->projects[i].name;
		r->id = m->projects[i].id;
		r->open = open[i];
		r->checks = open_checks_of(&r->errors, m, i);
		*with_open += open[i] > 0;
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), cmp_row);
	return v;
}

/* The most projects the index's "Where to look first" names. */
#define WORST_MAX 12

/* Into data: "worst", the rows (project_row) of those of rows[0..n)
 * (project_rows) with an open conflict or an open error check, worst
 * first (cmp_worst), at most WORST_MAX; "worst_words", what they are
 * in words; "worst_more", how many such projects are not among them. */
static void
worst_rows(json_t *data, const struct site_model *m,
    const struct proj_row *rows, size_t n)
{
	size_t bad = 0;
	const struct proj_row **v = xcalloc(n + 1, sizeof(*v));
	json_t *out = json_array();
	strbuf sb;

	for (size_t i = 0; i < n; i++)
		if (row_score(&rows[i]) > 0)
			v[bad++] = &rows[i];
	if (bad > 1)
		qsort(v, bad, sizeof(*v), cmp_worst);
	for (size_t i = 0; i < bad && i < WORST_MAX; i++)
		json_array_append_new(out, project_row(m, v[i]->i,
		    v[i]->open));
	strbuf_init(&sb);
	if (bad > WORST_MAX)
		strbuf_printf(&sb, "The %d of the %zu projects with open "
		    "conflicts or open error checks that have the most of "
		    "them together, worst first.", WORST_MAX, bad);
	else if (bad > 1)
		strbuf_printf(&sb, "The %zu projects with open conflicts or "
		    "open error checks, worst first.", bad);
	else
		strbuf_puts(&sb, "The one project with open conflicts or "
		    "open error checks.");
	json_object_set_new(data, "worst", out);
	json_object_set_new(data, "worst_words", json_string(sb.data));
	json_object_set_new(data, "worst_more", json_integer((json_int_t)(
	    bad > WORST_MAX ? bad - WORST_MAX : 0)));
	strbuf_free(&sb);
	free((void *)v);
}

/* Project row r as the list shows it: what its columns show and
 * nothing else (project_row's fields of the same names), so a page's
 * digest changes only when they do. A new object. */
static json_t *
list_row(const struct site_model *m, const struct proj_row *r)
{
	const struct fact_project *p = &m->projects[r->i];
	char date[MIRROR_TS_LEN];
	strbuf link;
	json_t *o;

	if (p->latest >= 0)
		date_of(date, p->latest);
	/* Its overview from the list's pages, all in projects/. */
	strbuf_init(&link);
	url_from_to(&link, "projects/index", url_project_page,
	    m->pslug[r->i]);
	o = item_must(json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:I, "
	    "s:I, s:I}", "name", p->name, "slug", m->pslug[r->i],
	    "overview_link", link.data, "open_conflicts",
	    (json_int_t)r->open, "open_errors", (json_int_t)r->errors,
	    "open_checks", (json_int_t)r->checks, "latest", p->latest >= 0 ?
	    json_string(date) : json_null(), "state_rows",
	    (json_int_t)p->n_state, "entity_rows", (json_int_t)p->n_entities,
	    "memory_rows", (json_int_t)p->n_memories), "project", p->id);
	strbuf_free(&link);
	return o;
}

/* One order of the projects list: its rows and what it is called. */
struct list_order {
	const struct proj_row *const *v;  /* every row, in the order */
	struct page_list l;     /* its pages: base "index",
	                           "index.conflicts" */
	const char *words;      /* "by name" */
	const char *other;      /* the other order's first page */
	const char *other_words;
	int html_only;          /* 1: its pages are HTML alone (by open
	                           conflicts: it reorders the rows a
	                           reviewer reads on the list by name) */
};

/*
 * Page k of the projects list in order o: at most PROJECTS_PAGE rows,
 * with links to the previous and next pages, every page and the other
 * order. Returns 0 or < 0 with err set.
 */
static int
list_page(const struct page_ctx *pc, const struct list_order *o, size_t k,
    mirror_error *err)
{
	json_t *rows = json_array();
	size_t from, to;
	strbuf title;
	int rc;

	page_list_span(&from, &to, &o->l, k);
	for (size_t i = from; i < to; i++)
		json_array_append_new(rows, list_row(pc->m, o->v[i]));
	strbuf_init(&title);
	strbuf_printf(&title, "Projects %s", o->words);
	rc = page_list_write(pc, &(struct page_list_doc){ .l = &o->l, .k = k,
	    .folder = "projects/", .tname = "projects.md", .title = title.data,
	    .html_only = o->html_only, .data = json_pack("{s:o, s:s, s:s, "
	    "s:s, s:o}", "projects", rows, "order_words", o->words, "other",
	    o->other, "other_words", o->other_words, "count_words",
	    item_count((long long)o->l.n, "project", "projects")) }, err);
	strbuf_free(&title);
	return rc;
}

/*
 * The projects list, projects/index and on (page_list_file): every row
 * of rows[0..n) (project_rows, by name) PROJECTS_PAGE a page, by name
 * and by open conflicts (cmp_conflicts). *pages gets the pages of one
 * order (1 with no project: the links to it still lead somewhere).
 * Returns 0 or < 0 with err set.
 */
static int
list_pages(size_t *pages, const struct page_ctx *pc,
    const struct proj_row *rows, size_t n, mirror_error *err)
{
	const struct proj_row **by_name = xcalloc(n + 1, sizeof(*by_name));
	const struct proj_row **by_open = xcalloc(n + 1, sizeof(*by_open));
	const struct list_order o[2] = {
		{ by_name, { .base = "index", .n = n, .per_page =
		    PROJECTS_PAGE }, "by name",
		    "index.conflicts.html", "By open conflicts", 0 },
		{ by_open, { .base = "index.conflicts", .n = n,
		    .per_page = PROJECTS_PAGE },
		    "by open conflicts", "index.md", "By name", 1 } };
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		by_name[i] = by_open[i] = &rows[i];
	if (n > 1)
		qsort(by_open, n, sizeof(*by_open), cmp_conflicts);
	*pages = page_list_pages(&o[0].l);
	for (size_t j = 0; j < 2 && rc == 0; j++)
		for (size_t k = 0; k < *pages && rc == 0; k++)
			rc = list_page(pc, &o[j], k, err);
	free((void *)by_name);
	free((void *)by_open);
	return rc;
}

/*
 * The open conflicts over time (core/sweep/open_trend.h) into *out, a list
 * of {date, open}; when the store holds conflicts and the count now is
 * not the last sweep's (a build without the sweep after a review), the
 * count now closes it, dated by the run's clock. Returns 0 or < 0 with
 * err set.
 */
static int
history_json(json_t **out, const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct sweep_point *p;
	char date[MIRROR_TS_LEN];
	size_t n;
	int rc;

	*out = json_array();
	if ((rc = sweep_open_trend(&p, &n, pc->st, err)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		date_of(date, p[i].day * 86400);
		json_array_append_new(*out, json_pack("{s:s, s:I}", "date",
		    date, "open", (json_int_t)p[i].open));
	}
	if (m->conflicts.n > 0 && (n == 0 ||
	    p[n - 1].open != m->open_conflicts)) {
		long long today = (long long)m->now / 86400;

		date_of(date, (n > 0 && p[n - 1].day > today ?
		    p[n - 1].day : today) * 86400);
		json_array_append_new(*out, json_pack("{s:s, s:I}", "date",
		    date, "open", (json_int_t)m->open_conflicts));
	}
	free(p);
	return 0;
}

/* The history in words, the chart's text alternative. */
static json_t *
history_words(const json_t *history)
{
	size_t i, n = json_array_size(history);
	json_t *v, *s;
	strbuf sb;

	strbuf_init(&sb);
	if (n == 0)
		strbuf_puts(&sb, "No sweep has recorded a count yet.");
	else
		strbuf_puts(&sb, "Open conflicts after each day's sweeps: ");
	json_array_foreach(history, i, v)
		strbuf_printf(&sb, "%s%lld from %s%s", i > 0 ? ", " : "",
		    (long long)json_integer_value(json_object_get(v, "open")),
		    json_string_value(json_object_get(v, "date")),
		    i + 1 == n ? "." : "");
	s = json_string(sb.data);
	strbuf_free(&sb);
	return s;
}

/*
 * Until two days of sweeps make a line, the chart is the open conflicts
 * of the worst projects (worst_rows: the index's "Where to look first",
 * in its order), as bars: their words into data's "history_words" (the
 * chart's text alternative) and "bars" true. Returns 1 when it did.
 */
static int
bars_words(json_t *data, long long loose_open)
{
	const json_t *rows = json_object_get(data, "worst"), *v;
	size_t n = json_array_size(rows), i;
	long long more = row_int(data, "worst_more");
	strbuf sb;

	json_object_set_new(data, "bars", json_false());
	if (json_array_size(json_object_get(data, "history")) > 1 ||
	    (n == 0 && loose_open == 0))
		return 0;
	strbuf_init(&sb);
	strbuf_puts(&sb, "Open conflicts by project, worst first: ");
	json_array_foreach(rows, i, v)
		strbuf_printf(&sb, "%s%s %lld", i > 0 ? ", " : "",
		    json_string_value(json_object_get(v, "name")),
		    row_int(v, "open_conflicts"));
	if (more > 0)
		strbuf_printf(&sb, "; %lld more %s", more, more == 1 ?
		    "project" : "projects");
	if (loose_open > 0)
		strbuf_printf(&sb, "%sfacts of no project %lld", n > 0 ? "; " :
		    "", loose_open);
	strbuf_putc(&sb, '.');
	json_object_set_new(data, "history_words", json_string(sb.data));
	json_object_set_new(data, "bars", json_true());
	strbuf_free(&sb);
	return 1;
}

/* The bars of data's projects (bars_words), made from data alone. */
static void
bars_chart(strbuf *sb, const json_t *data)
{
	const json_t *rows = json_object_get(data, "worst"), *v;
	const struct chart c = { "open-history", "Open conflicts by project",
		json_string_value(json_object_get(data, "history_words")) };
	struct chart_bar b[WORST_MAX + 1];
	size_t n = 0, i;

	json_array_foreach(rows, i, v) {
		if (n == WORST_MAX)
			break;
		b[n].label = json_string_value(json_object_get(v, "name"));
		b[n++].value = json_integer_value(json_object_get(v,
		    "open_conflicts"));
	}
	if (json_integer_value(json_object_get(data,
	    "loose_open_conflicts")) > 0) {
		b[n].label = "Facts of no project";
		b[n++].value = json_integer_value(json_object_get(data,
		    "loose_open_conflicts"));
	}
	chart_bars(sb, &c, b, n);
}

/* The chart of data's history, made from data alone (page.h). */
static void
history_chart(strbuf *sb, const json_t *data)
{
	const json_t *h = json_object_get(data, "history");
	const struct chart c = { "open-history", "Open conflicts over time",
		json_string_value(json_object_get(data, "history_words")) };
	size_t n = json_array_size(h), i;
	struct chart_point *p;
	json_t *v;

	if (json_is_true(json_object_get(data, "bars"))) {
		bars_chart(sb, data);
		return;
	}
	p = xcalloc(n + 1, sizeof(*p));

	json_array_foreach(h, i, v) {
		const char *date = json_string_value(json_object_get(v,
		    "date"));
		time_t t = 0;

		(void)mirror_parse_ts(&t, date);
		p[i].x = (long long)t / 86400;
		p[i].value = json_integer_value(json_object_get(v, "open"));
		p[i].label = date;
	}
	chart_svg(sb, &c, p, n);
	free(p);
}

/* The headline and the line below it, in words, into data. */
static void
headline(json_t *data, const struct site_model *m, long long with_open,
    size_t n_projects, long long loose_open)
{
	strbuf sb;

	json_object_set_new(data, "headline", m->open_conflicts == 0 ?
	    json_string("No open conflicts") : item_count(m->open_conflicts,
	    "open conflict", "open conflicts"));
	strbuf_init(&sb);
	if (m->open_conflicts > 0)
		strbuf_printf(&sb, "In %lld of %zu %s%s; ", with_open,
		    n_projects, n_projects == 1 ? "project" : "projects",
		    loose_open > 0 ? ", and among facts of no project" : "");
	strbuf_printf(&sb, "%zu %s recorded in all.", m->conflicts.n,
	    m->conflicts.n == 1 ? "conflict" : "conflicts");
	json_object_set_new(data, "summary", json_string(sb.data));
	strbuf_free(&sb);
}

/* The rules' open violations and failed rules in words, into data. */
static void
checks_words(json_t *data, const struct site_model *m)
{
	const struct violation_counts *c = &m->health.checks;
	strbuf sb;

	strbuf_init(&sb);
	if (c->open_error + c->open_warn == 0)
		strbuf_puts(&sb, "none open");
	else
		strbuf_printf(&sb, "%lld open (%lld %s, %lld %s)",
		    c->open_error + c->open_warn, c->open_error,
		    c->open_error == 1 ? "error" : "errors", c->open_warn,
		    c->open_warn == 1 ? "warning" : "warnings");
	if (c->rules_failed > 0)
		strbuf_printf(&sb, "; %lld %s failed", c->rules_failed,
		    c->rules_failed == 1 ? "rule" : "rules");
	json_object_set_new(data, "checks_words", json_string(sb.data));
	json_object_set_new(data, "open_checks_count", json_integer(
	    (json_int_t)(c->open_error + c->open_warn)));
	strbuf_free(&sb);
}

/* changes.md/.html and changes.xml, and the index's recent changes
 * (below, after the feed it shares code with). */
static int changes_pages(const struct page_ctx *pc, json_t *index,
    mirror_error *err);

/* Into data: the n projects of the list (project_rows) in words and
 * the pages of their list (list_pages). */
static void
projects_words(json_t *data, size_t n, size_t pages)
{
	json_object_set_new(data, "projects_count", json_integer(
	    (json_int_t)n));
	json_object_set_new(data, "projects_words", item_count((long long)n,
	    "project", "projects"));
	json_object_set_new(data, "list_pages", json_integer((json_int_t)(
	    pages > 1 ? pages : 0)));
}

int
index_pages(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct proj_row *projects;
	json_t *loose = NULL, *linked = NULL, *history = NULL, *old = NULL;
	json_t *data, *newest;
	long long *open, loose_open = open_counts(&open, m), with_open;
	struct md_figure fig = { "open-history", NULL };
	size_t pages, n_projects;
	strbuf svg;
	int rc;

	projects = project_rows(&n_projects, m, open, &with_open);
	loose = loose_facts(&linked, &old, m);
	rc = history_json(&history, pc, err);
	data = item_must(json_pack("{s:o, s:o, s:I, s:o, s:I, s:I, s:o}",
	    "loose", loose, "loose_linked", linked, "loose_open_conflicts",
	    (json_int_t)loose_open, "loose_open_words", item_count(loose_open,
	    "open conflict", "open conflicts"),
	    "open_conflicts_count", (json_int_t)m->open_conflicts,
	    "conflicts_total", (json_int_t)m->conflicts.n,
	    "history", history != NULL ? history : json_array()), "page",
	    "index");
	/* Its date, "Updated ..." (page.c), is the store's newest change:
	 * the date alone, so the page changes with it at most once a day. */
	newest = facts_updated_at(m);
	json_object_set_new(data, "facts_updated_at", item_date(
	    json_string_value(newest)));
	json_decref(newest);
	json_object_set_new(data, "loose_any", json_boolean(
	    json_array_size(loose) + json_array_size(old) > 0));
	json_object_set_new(data, "loose_old_words", item_count((long long)
	    json_array_size(old), "fact", "facts"));
	json_object_set_new(data, "loose_old", old);
	headline(data, m, with_open, n_projects, loose_open);
	checks_words(data, m);
	worst_rows(data, m, projects, n_projects);
	if (rc == 0)
		rc = list_pages(&pages, pc, projects, n_projects, err);
	if (rc == 0)
		projects_words(data, n_projects, pages);
	free(projects);
	page_projects_wait(pc->w);      /* what it found changed: w->unaudited */
	if (rc == 0)
		rc = changes_pages(pc, data, err);
	if (!bars_words(data, loose_open))
		json_object_set_new(data, "history_words",
		    history_words(json_object_get(data, "history")));
	strbuf_init(&svg);
	history_chart(&svg, data);
	fig.html = svg.data;
	if (rc == 0)
		rc = page_write_figures(pc, &(struct page_doc){
		    .path = "index", .tname = "index.md",
		    .title = m->title, .data = data, .figs = &fig,
		    .nfigs = 1 }, err);
	strbuf_free(&svg);
	json_decref(data);
	free(open);
	return rc;
}

/* ---- the feed and the sitemap -------------------------------------- */

/*
 * XML text: escaped as HTML, then without U+FFFE and U+FFFF, the two
 * characters valid UTF-8 can hold that XML 1.0 forbids (escape_html has
 * already dropped the control characters).
 */
static void
xml(strbuf *sb, const char *s)
{
	size_t start = sb->len, j = start;

	escape_html(sb, s, strlen(s));
	for (size_t i = start; i < sb->len; i++) {
		if (i + 2 < sb->len && (unsigned char)sb->data[i] == 0xef &&
		    (unsigned char)sb->data[i + 1] == 0xbf &&
		    ((unsigned char)sb->data[i + 2] & 0xfe) == 0xbe) {
			i += 2;
			continue;
		}
		sb->data[j++] = sb->data[i];
	}
	sb->len = j;
	sb->data[j] = '\0';
}

/* 'YYYY-MM-DD HH:MM:SS' as RFC 3339 ('YYYY-MM-DDTHH:MM:SSZ'). */
static void
rfc3339(strbuf *sb, const char *ts)
{
	char buf[MIRROR_TS_LEN];
	time_t t;

	if (ts == NULL || mirror_parse_ts(&t, ts) < 0)
		t = 0;
	mirror_format_ts(buf, t);
	buf[10] = 'T';
	strbuf_printf(sb, "%sZ", buf);
}

/* base_url without trailing '/', or "" for relative links. */
static void
url_base(strbuf *sb, const struct site_model *m)
{
	size_t n;

	if (m->base_url == NULL || m->base_url[0] == '\0')
		return;
	n = strlen(m->base_url);
	while (n > 0 && m->base_url[n - 1] == '/')
		n--;
	escape_html(sb, m->base_url, n);
	strbuf_putc(sb, '/');
}

/* One entry of the feed: a conflict or a check, and its date. */
struct feed_item {
	const char *t;                  /* 'YYYY-MM-DD HH:MM:SS' */
	const char *id;
	const struct conflict *c;       /* one of c and v */
	const struct violation *v;
};

/* Newest first, then conflicts before checks, then by id. */
static int
newest_first(const void *a, const void *b)
{
	const struct feed_item *x = a, *y = b;
	int d = strcmp(y->t, x->t);

	if (d == 0)
		d = (x->v != NULL) - (y->v != NULL);
	return d != 0 ? d : strcmp(x->id, y->id);
}

/*
 * Every conflict and check of m as a feed item, newest first, into *out
 * (the caller frees it). Returns how many.
 */
static size_t
feed_items(struct feed_item **out, const struct site_model *m)
{
	size_t n = 0;
	struct feed_item *it = xcalloc(m->conflicts.n + m->violations.n + 1,
	    sizeof(*it));

	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];

		it[n].t = c->resolved_at ? c->resolved_at : c->detected_at;
		it[n].id = c->id;
		it[n++].c = c;
	}
	for (size_t i = 0; i < m->violations.n; i++) {
		const struct violation *v = &m->violations.items[i];

		it[n].t = v->closed_at ? v->closed_at : v->detected_at;
		it[n].id = v->id;
		it[n++].v = v;
	}
	if (n > 1)
		qsort(it, n, sizeof(*it), newest_first);
	*out = it;
	return n;
}

/* An Atom entry of a feed, but its title and summary: its id
 * (urn:mirror:KIND:ID), its date t and its link (href: a path in the
 * site made of slugs, "conflicts/<slug>.html"). */
struct atom_entry {
	const char *kind;
	const char *id;
	const char *t;                  /* 'YYYY-MM-DD HH:MM:SS' */
	const char *href;
};

/* The middle of entry e, after its title's text: the title's end, its
 * id, date and link, up to the summary's text. */
static void
feed_entry(strbuf *sb, const struct site_model *m, const struct atom_entry *e)
{
	strbuf_printf(sb, "</title>\n    <id>urn:mirror:%s:", e->kind);
	escape_url(sb, e->id, strlen(e->id));
	strbuf_puts(sb, "</id>\n    <updated>");
	rfc3339(sb, e->t);
	strbuf_puts(sb, "</updated>\n    <link href=\"");
	url_base(sb, m);
	strbuf_printf(sb, "%s\"/>\n    <summary>", e->href);
}

/* The page of conflict id (url_conflict) into a strbuf the caller
 * frees. */
static void
page_href(strbuf *sb, const char *id)
{
	char slug[SLUG_SIZE];

	slug_make(slug, id);
	strbuf_init(sb);
	url_conflict(sb, slug);
}

/* The feed's entry of item it: a conflict, or a check opened or, when
 * it is closed, passing again. */
static void
feed_item(strbuf *sb, const struct site_model *m, const struct feed_item *it)
{
	const struct conflict *c = it->c;
	const struct violation *v = it->v;
	struct atom_entry e = { c != NULL ? "conflict" : "check", it->id,
		it->t, NULL };
	strbuf text, href;

	strbuf_init(&text);
	strbuf_puts(sb, "  <entry>\n    <title>");
	if (c != NULL) {
		conflict_slot_words(&text, m, c);
		xml(sb, c->status);
		strbuf_puts(sb, ": ");
		xml(sb, text.data);
		page_href(&href, c->id);
		e.href = href.data;
		feed_entry(sb, m, &e);
		xml(sb, conflict_question(m, c, 1));
	} else {
		strbuf_printf(sb, "check %s: ", strcmp(v->status, "open") ==
		    0 ? "failing" : "passing again");
		xml(sb, model_rule_label(m, v->rule_id));
		strbuf_puts(sb, ": ");
		xml(sb, v->message);
		strbuf_init(&href);
		item_check_url(&href, v->project, v->id, "html");
		e.href = href.data;
		feed_entry(sb, m, &e);
		xml(sb, v->severity);
		strbuf_puts(sb, ": ");
		xml(sb, v->message);
	}
	strbuf_puts(sb, "</summary>\n  </entry>\n");
	strbuf_free(&href);
	strbuf_free(&text);
}

/* An Atom feed of the site: what it lists ("conflicts"), its file
 * ("feed.xml"), its newest entry's date (NULL: none) and the page it
 * is the feed of (alternate: a path in the site). */
struct atom_feed {
	const char *what;
	const char *file;
	const char *newest;
	const char *alternate;
};

/*
 * The head of feed f into sb, up to its first entry: its title (the
 * site's, then ": " and what), its id (the feed's URL with a base URL,
 * else urn:mirror:<site slug>:<what>), its date (newest, else
 * SOURCE_DATE_EPOCH when set, else the epoch), and its links: the page
 * alternate and itself (file).
 */
static void
feed_head(strbuf *sb, const struct site_model *m, const struct atom_feed *f)
{
	char slug[SLUG_SIZE];

	strbuf_puts(sb, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>");
	xml(sb, m->title);
	strbuf_printf(sb, ": %s</title>\n  <id>", f->what);
	if (m->base_url != NULL && m->base_url[0] != '\0') {
		url_base(sb, m);
		strbuf_puts(sb, f->file);
	} else {
		slug_make(slug, m->title);
		strbuf_printf(sb, "urn:mirror:%s:%s", slug, f->what);
	}
	strbuf_puts(sb, "</id>\n  <updated>");
	if (f->newest != NULL) {
		rfc3339(sb, f->newest);
	} else {
		char ts[MIRROR_TS_LEN];

		mirror_format_ts(ts, getenv("SOURCE_DATE_EPOCH") ? m->now : 0);
		rfc3339(sb, ts);
	}
	strbuf_puts(sb, "</updated>\n  <author><name>mirror</name></author>\n"
	    "  <link rel=\"alternate\" type=\"text/html\" href=\"");
	url_base(sb, m);
	/* Without a base URL, relative: an IRI reference, resolved
	 * against the feed's own address (RFC 4287, 4.2.7.1). */
	strbuf_printf(sb, "%s\"/>\n  <link rel=\"self\" "
	    "type=\"application/atom+xml\" href=\"", f->alternate);
	url_base(sb, m);
	strbuf_printf(sb, "%s\"/>\n", f->file);
}

int
site_index_feed_write(const struct page_ctx *pc, size_t limit,
    mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct feed_item *it;
	size_t n = feed_items(&it, m);
	const struct atom_feed f = { "conflicts", "feed.xml", n > 0 ?
		it[0].t : NULL, "conflicts/index.html" };
	strbuf sb;
	int rc;

	strbuf_init(&sb);
	feed_head(&sb, m, &f);
	for (size_t i = 0; i < n && i < limit; i++)
		feed_item(&sb, m, &it[i]);
	strbuf_puts(&sb, "</feed>\n");
	free(it);
	rc = page_file(pc, "feed.xml", sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}

/* ---- recent changes -------------------------------------------------- */

/* The store's first build: its sweep and what it opened, said as one
 * change rather than one a conflict and a check opened. */
struct first_build {
	struct sweep_first run;         /* run.id NULL: none */
	long long conflicts, checks;    /* the openings it stands for */
};

/* One change of the last CHANGES_DAYS days: a conflict or a check that
 * opened or closed at t, a fact the store's audit says was changed at t
 * (its latest change), or the store's first build. */
struct change {
	const char *t;                  /* 'YYYY-MM-DD HH:MM:SS' */
	const struct conflict *c;       /* one of c, v, a and f */
	const struct violation *v;
	const struct fact_audit *a;
	const struct first_build *f;
	int closed;                     /* 1: resolved, dismissed, passing */
	const char *fields;             /* a fact changed with no audit row:
	                                   what changed, old → new; else
	                                   NULL */
};

/* The facts changed with no audit row (UNAUDITED_JSON's entries) as
 * audit rows of action "changed", and what each changed. */
struct unaudited {
	struct fact_audit *a;
	const char **fields;
	size_t n;
};

/* The id of what changed: the conflict's, the check's or the fact's,
 * or the first build's sweep. */
static const char *
change_id(const struct change *ch)
{
	return ch->c ? ch->c->id : ch->v ? ch->v->id : ch->a ? ch->a->id :
	    ch->f->run.id;
}

/* Newest first, then the first build, conflicts, checks, facts,
 * closings before openings, then by id. */
static int
change_order(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	int d = strcmp(y->t, x->t);

	if (d == 0)
		d = ((x->v != NULL) + 2 * (x->a != NULL) - (x->f != NULL)) -
		    ((y->v != NULL) + 2 * (y->a != NULL) - (y->f != NULL));
	if (d == 0)
		d = y->closed - x->closed;
	return d != 0 ? d : strcmp(change_id(x), change_id(y));
}

/* Add ch to it (n so far) when its time is at or after since. */
static void
change_add(struct change *it, size_t *n, const char *since,
    struct change ch)
{
	if (ch.t == NULL || strcmp(ch.t, since) < 0)
		return;
	it[(*n)++] = ch;
}

/* 1 when conflict c was opened by first's sweep (its detected_at is
 * the sweep's started_at and it is not a later row: sweep_first_run),
 * else 0. */
static int
first_opened_conflict(const struct first_build *f, const struct conflict *c)
{
	return f->run.id != NULL && c->seq <= f->run.conflicts_last &&
	    c->detected_at != NULL &&
	    strcmp(c->detected_at, f->run.started_at) == 0;
}

/* 1 when violation v was opened by first's sweep, else 0. */
static int
first_opened_check(const struct first_build *f, const struct violation *v)
{
	return f->run.id != NULL && v->opened_run != NULL &&
	    strcmp(v->opened_run, f->run.id) == 0;
}

/*
 * Every opening and closing of a conflict or a check of m, and every
 * fact's latest audited change, at or after m->now less CHANGES_DAYS
 * days, newest first (change_order), into *out (the caller frees it);
 * the openings of the store's first sweep (f) are one change, f, which
 * counts them. Returns how many.
 */
static size_t
changes_of(struct change **out, const struct site_model *m,
    struct first_build *f, const struct unaudited *un)
{
	size_t n = 0;
	char since[MIRROR_TS_LEN];
	struct change *it = xcalloc(2 * (m->conflicts.n + m->violations.n) +
	    m->audit.n + un->n + 2, sizeof(*it));

	mirror_format_ts(since, m->now - (time_t)CHANGES_DAYS * 86400);
	if (f->run.id != NULL)
		change_add(it, &n, since, (struct change){
		    .t = f->run.started_at, .f = f });
	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];

		if (first_opened_conflict(f, c))
			f->conflicts++;
		else
			change_add(it, &n, since, (struct change){
			    .t = c->detected_at, .c = c });
		change_add(it, &n, since, (struct change){ .t = c->resolved_at,
		    .c = c, .closed = 1 });
	}
	for (size_t i = 0; i < m->violations.n; i++) {
		const struct violation *v = &m->violations.items[i];

		if (first_opened_check(f, v))
			f->checks++;
		else
			change_add(it, &n, since, (struct change){
			    .t = v->detected_at, .v = v });
		change_add(it, &n, since, (struct change){ .t = v->closed_at,
		    .v = v, .closed = 1 });
	}
	/* A review's own rows (conflict_resolved, conflict_dismissed) say
	 * what the conflict's entry already says. */
	for (size_t i = 0; i < m->audit.n; i++)
		if (strncmp(m->audit.items[i].action, "conflict_", 9) != 0)
			change_add(it, &n, since, (struct change){
			    .t = m->audit.items[i].timestamp,
			    .a = &m->audit.items[i] });
	for (size_t i = 0; i < un->n; i++)
		change_add(it, &n, since, (struct change){
		    .t = un->a[i].timestamp, .a = &un->a[i],
		    .fields = un->fields[i] });
	if (n > 1)
		qsort(it, n, sizeof(*it), change_order);
	*out = it;
	return n;
}

/* A layer as people say it: "trusted state", "engineering record",
 * "memory", by memory_audit's entity_kind. */
static const char *
kind_said(const char *kind)
{
	switch (layer_of_kind(kind)) {
	case LAYER_STATE:
		return "trusted state";
	case LAYER_ENTITY:
		return "engineering record";
	}
	return "memory";
}

/* What a change did, in words into sb: "conflict opened", "check
 * passing again", "memory superseded" (a fact: its layer and the
 * audit's action, cleaned)... */
static void
change_what(strbuf *sb, const struct change *ch)
{
	json_t *action;

	if (ch->f != NULL) {
		strbuf_puts(sb, "first build");
	} else if (ch->a != NULL) {
		size_t at = sb->len;

		action = item_clean(ch->a->action);
		strbuf_printf(sb, "%s %s", kind_said(ch->a->kind),
		    json_string_value(action));
		for (size_t i = at; i < sb->len; i++)
			if (sb->data[i] == '_')
				sb->data[i] = ' ';
		json_decref(action);
	} else if (ch->v != NULL) {
		strbuf_puts(sb, ch->closed ? "check passing again" :
		    "check opened");
	} else if (!ch->closed) {
		strbuf_puts(sb, "conflict opened");
	} else {
		strbuf_puts(sb, strcmp(ch->c->status, "dismissed") == 0 ?
		    "conflict dismissed" : "conflict resolved");
	}
}

/* JSON value v as a fact field's words: a string as it is, null and a
 * missing field as "none", anything else as compact JSON. */
static void
field_said(strbuf *sb, const json_t *v)
{
	char *text;

	if (v == NULL || json_is_null(v)) {
		strbuf_puts(sb, "none");
	} else if (json_is_string(v)) {
		strbuf_puts(sb, json_string_value(v));
	} else if ((text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY |
	    JSON_SORT_KEYS | JSON_REAL_PRECISION(15))) != NULL) {
		strbuf_puts(sb, text);
		free(text);
	}
}

/* 1 for a field of a fact people read (its value, status, name...);
 * 0 for the rest, which name other rows by id ("superseded_by",
 * "graduated_to_entity_id") or say how the store keeps them. */
static int
said_field(const char *key, size_t len)
{
	static const char *const said[] = { "category", "confidence",
	    "content", "description", "entity_type", "key", "memory_type",
	    "name", "source", "status", "valid_from", "valid_until", "value" };

	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		if (strlen(said[i]) == len && memcmp(said[i], key, len) == 0)
			return 1;
	return 0;
}

/*
 * The fields an audited change set, old to new, into sb: "status:
 * active → superseded; value: 6 W → 7.5 W", by field name, at most 6,
 * those said_field names alone: ids are no running text. Nothing when
 * either side is not a JSON object.
 */
static void
change_fields(strbuf *sb, const struct fact_audit *a)
{
	json_t *before = json_loads(a->before, 0, NULL);
	json_t *after = json_loads(a->after, 0, NULL);
	const char **keys = NULL;
	size_t n = 0;
	int said = 0;

	if (json_is_object(before) && json_is_object(after)) {
		const char *key;
		json_t *v;

		keys = xcalloc(json_object_size(after) + 1, sizeof(*keys));
		json_object_foreach(after, key, v)
			keys[n++] = key;
		qsort(keys, n, sizeof(*keys), array_str_cmp);
	}
	for (size_t i = 0; i < n && said < 6; i++) {
		const json_t *was = json_object_get(before, keys[i]);
		const json_t *now = json_object_get(after, keys[i]);
		size_t len = strlen(keys[i]);

		if ((was != NULL && json_equal(was, now)) ||
		    !said_field(keys[i], len))
			continue;
		strbuf_printf(sb, "%s%s: ", said++ ? "; " : "", keys[i]);
		field_said(sb, was);
		strbuf_puts(sb, " → ");
		field_said(sb, now);
	}
	free(keys);
	json_decref(before);
	json_decref(after);
}

/* ---- facts changed with no audit row ------------------------------ */

/* The last build's findings of facts changed with no audit row, which
 * later builds keep showing until they are CHANGES_DAYS old. */
#define UNAUDITED_JSON "api/changes-unaudited.json"

/* memory_audit's entity_kind of an API row's layer; NULL for a
 * relationship (people read it on its entities). */
static const char *
audit_kind(const char *layer)
{
	int l = item_layer_of(layer);

	return l != 0 ? layer_kind((enum fact_layer)l) : NULL;
}

/* One fact's API row (api/projects/<slug>.json's "facts": layer, id,
 * then its fields) and the columns its layer's fields are named by (the
 * file's "columns" of that layer). */
struct api_row {
	const json_t *r;
	const json_t *cols;
};

/* Column col of row; NULL when there is none. */
static json_t *
row_col(const struct api_row *row, const char *col)
{
	size_t k;
	json_t *c;

	json_array_foreach(row->cols, k, c)
		if (strcmp(json_string_value(c), col) == 0)
			return json_array_get(row->r, k + 1);
	return NULL;
}

/* One field's change, "name: was → now", into sb after *said others
 * (at most 6 in all). */
static void
field_change(strbuf *sb, int *said, const char *name, const json_t *was,
    const json_t *now)
{
	if (*said >= 6 || json_equal(was, now) || (was == NULL && now == NULL))
		return;
	strbuf_printf(sb, "%s%s: ", (*said)++ ? "; " : "", name);
	field_said(sb, was);
	strbuf_puts(sb, " → ");
	field_said(sb, now);
}

/*
 * What changed between API rows was and now of one fact of layer, said
 * into sb: its fields people read ("value: 7.5 mm → 9 mm"), an entity's
 * properties each by its key. Returns how many.
 */
static int
row_changes(strbuf *sb, const char *layer, const struct api_row *was,
    const struct api_row *now)
{
	static const char *const seen[][6] = {
	    { "key", "value", "category", "status", "source", NULL },
	    { "name", "type", "description", "status", NULL },
	    { "type", "content", "status", "valid_until", NULL } };
	const char *const *cols = seen[strcmp(layer, "state") == 0 ? 0 :
	    strcmp(layer, "entity") == 0 ? 1 : 2];
	json_t *op, *np, *v;
	const char *key;
	int said = 0;

	for (size_t k = 0; cols[k] != NULL; k++)
		field_change(sb, &said, cols[k], row_col(was, cols[k]),
		    row_col(now, cols[k]));
	op = row_col(was, "properties");
	np = row_col(now, "properties");
	if (json_is_object(op) && json_is_object(np)) {
		json_object_foreach(np, key, v)
			field_change(sb, &said, key, json_object_get(op, key), v);
		json_object_foreach(op, key, v)
			if (json_object_get(np, key) == NULL)
				field_change(sb, &said, key, v, NULL);
	}
	return said;
}

/* 1 when API row r is of (layer, id), comparing as the rows are sorted
 * (site_project.c: by layer, then id): < 0, 0 or > 0. */
static int
row_cmp(const json_t *r, const json_t *q)
{
	int c = strcmp(json_string_value(json_array_get(r, 0)),
	    json_string_value(json_array_get(q, 0)));

	return c != 0 ? c : strcmp(json_string_value(json_array_get(r, 1)),
	    json_string_value(json_array_get(q, 1)));
}

/* The entry of fact row now (layer kind) of project i that changed
 * (fields) with no audit row in the window: a new object. */
static json_t *
unaudited_entry(const struct site_model *m, size_t i, const char *kind,
    const struct api_row *now, const char *fields)
{
	static const char *const label[] = { "key", "name", "content" };
	char t[MIRROR_TS_LEN];
	const json_t *l = row_col(now, label[strcmp(kind, "project_"
	    "state") == 0 ? 0 : strcmp(kind, "entity") == 0 ? 1 : 2]);
	const char *id = json_string_value(json_array_get(now->r, 1));

	mirror_format_ts(t, m->now);
	return item_must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "t", t,
	    "kind", kind, "id", id, "project", m->projects[i].id, "label",
	    json_is_string(l) ? json_string_value(l) : "", "fields", fields),
	    "fact", id);
}

/*
 * The facts of project i whose rows differ from the last build's
 * (old, its api/projects/<slug>.json) in a field people read, with no
 * audit row of the last CHANGES_DAYS days to say so: their entries
 * (unaudited_entry) appended to out.
 */
static void
unaudited_diff(json_t *out, const struct site_model *m, size_t i,
    const json_t *old, const json_t *rows)
{
	const json_t *of = json_object_get(old, "facts"), *nf =
	    json_object_get(rows, "facts");
	const json_t *oc = json_object_get(old, "columns"), *nc =
	    json_object_get(rows, "columns");
	char since[MIRROR_TS_LEN];
	size_t a = 0, b = 0;
	strbuf sb;

	mirror_format_ts(since, m->now - (time_t)CHANGES_DAYS * 86400);
	strbuf_init(&sb);
	while (a < json_array_size(of) && b < json_array_size(nf)) {
		const json_t *x = json_array_get(of, a), *y = json_array_get(nf,
		    b);
		const char *layer, *kind;
		const struct fact_audit *au;
		struct api_row was, now;
		int c;

		if (!json_is_array(x) || !json_is_string(json_array_get(x, 0)) ||
		    !json_is_string(json_array_get(x, 1))) {
			a++;
			continue;
		}
		if ((c = row_cmp(x, y)) != 0) {
			a += c < 0;
			b += c > 0;
			continue;
		}
		a++, b++;
		layer = json_string_value(json_array_get(y, 0));
		if ((kind = audit_kind(layer)) == NULL)
			continue;
		au = audit_find(&m->audit, kind, json_string_value(
		    json_array_get(y, 1)));
		was = (struct api_row){ x, json_object_get(oc, layer) };
		now = (struct api_row){ y, json_object_get(nc, layer) };
		strbuf_reset(&sb);
		if ((au == NULL || strcmp(au->timestamp, since) < 0) &&
		    row_changes(&sb, layer, &was, &now) > 0)
			json_array_append_new(out, unaudited_entry(m, i, kind,
			    &now, sb.data));
	}
	strbuf_free(&sb);
}

void
site_index_unaudited(const struct page_ctx *pc, size_t i,
    const json_t *rows)
{
	char *data = NULL;
	size_t len = 0;
	json_t *old, *found = json_array();
	strbuf path;
	mirror_error err = { 0 };

	strbuf_init(&path);
	url_api_project(&path, pc->m->pslug[i]);
	/* A file the last build left that cannot be read says nothing:
	 * the build goes on, as after a build into an empty DIR. */
	if (page_read_prev(&data, &len, pc, path.data, &err) > 0) {
		/* The file as it will be written (page_json_rows): when it is
		 * the same, nothing changed, and nothing is parsed (a --force
		 * build writes every project's again). */
		strbuf_reset(&path);
		if (json_write_rows(&path, rows) == 0)
			strbuf_putc(&path, '\n');
		if ((path.len != len || memcmp(path.data, data, len) != 0) &&
		    (old = json_loadb(data, len, 0, NULL)) != NULL) {
			unaudited_diff(found, pc->m, i, old, rows);
			json_decref(old);
		}
	}
	if (json_array_size(found) > 0) {
		pthread_mutex_lock(&pc->w->lock);
		if (pc->w->unaudited == NULL)
			pc->w->unaudited = json_array();
		json_array_extend(pc->w->unaudited, found);
		pthread_mutex_unlock(&pc->w->lock);
	}
	json_decref(found);
	free(data);
	strbuf_free(&path);
}

/* qsort order of unaudited entries: by kind, then id, then time. */
static int
cmp_unaudited(const void *a, const void *b)
{
	static const char *const keys[] = { "kind", "id", "t" };
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int c = 0;

	for (size_t k = 0; k < 3 && c == 0; k++)
		c = strcmp(json_string_value(json_object_get(x, keys[k])),
		    json_string_value(json_object_get(y, keys[k])));
	return c;
}

/* bsearch order of unaudited entries: by kind, then id (the same
 * fact). */
static int
cmp_same_fact(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int c = strcmp(json_string_value(json_object_get(x, "kind")),
	    json_string_value(json_object_get(y, "kind")));

	return c != 0 ? c : strcmp(json_string_value(json_object_get(x,
	    "id")), json_string_value(json_object_get(y, "id")));
}

/* 1 when entry e has every field, each a string, else 0. */
static int
unaudited_ok(const json_t *e)
{
	static const char *const keys[] = { "t", "kind", "id", "project",
	    "label", "fields" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (!json_is_string(json_object_get(e, keys[k])))
			return 0;
	return 1;
}

/*
 * The facts changed with no audit row to list, into *v and *n (the
 * caller frees v and decrefs each): those pc's writer found in this
 * build, then the last build's (UNAUDITED_JSON) of the last
 * CHANGES_DAYS days of facts not found again, by kind and id; written
 * back to UNAUDITED_JSON when there are some. Returns 0 or < 0 with
 * err set.
 */
static int
unaudited_list(json_t ***v, size_t *n, const struct page_ctx *pc,
    mirror_error *err)
{
	json_t *now = pc->w->unaudited, *e, *prev = NULL, *list;
	char since[MIRROR_TS_LEN], *data = NULL;
	size_t len = 0, k, found = json_array_size(now);
	int rc;

	mirror_format_ts(since, pc->m->now - (time_t)CHANGES_DAYS * 86400);
	rc = page_read_prev(&data, &len, pc, UNAUDITED_JSON, err);
	if (rc > 0)
		prev = json_loadb(data, len, 0, NULL);
	free(data);
	*v = xcalloc(found + json_array_size(json_object_get(prev,
	    "changes")) + 1, sizeof(**v));
	*n = 0;
	json_array_foreach(now, k, e)
		(*v)[(*n)++] = json_incref(e);
	qsort(*v, *n, sizeof(**v), cmp_unaudited);
	json_array_foreach(json_object_get(prev, "changes"), k, e) {
		json_t *const *hit;

		if (!unaudited_ok(e) || strcmp(json_string_value(
		    json_object_get(e, "t")), since) < 0)
			continue;
		hit = found > 0 ? bsearch(&e, *v, found, sizeof(**v),
		    cmp_same_fact) : NULL;
		if (hit == NULL)
			(*v)[(*n)++] = json_incref(e);
	}
	json_decref(prev);
	qsort(*v, *n, sizeof(**v), cmp_unaudited);
	if (rc < 0 || *n == 0)
		return rc < 0 ? rc : 0;
	list = json_array();
	for (k = 0; k < *n; k++)
		json_array_append(list, (*v)[k]);
	prev = json_pack("{s:o}", "changes", list);
	rc = page_json_rows(pc, UNAUDITED_JSON, prev, err);
	json_decref(prev);
	return rc;
}

/* The entries v[0..n) (unaudited_list) as audit rows into *u: their
 * strings are v's. */
static void
unaudited_rows(struct unaudited *u, json_t *const *v, size_t n)
{
	u->a = xcalloc(n + 1, sizeof(*u->a));
	u->fields = xcalloc(n + 1, sizeof(*u->fields));
	u->n = n;
	for (size_t k = 0; k < n; k++) {
		struct fact_audit *a = &u->a[k];

		a->kind = xstrdup(json_string_value(json_object_get(v[k],
		    "kind")));
		a->id = xstrdup(json_string_value(json_object_get(v[k], "id")));
		a->action = xstrdup("changed");
		a->actor = xstrdup("");
		a->note = xstrdup("");
		a->timestamp = xstrdup(json_string_value(json_object_get(v[k],
		    "t")));
		a->before = xstrdup("");
		a->after = xstrdup("");
		a->label = xstrdup(json_string_value(json_object_get(v[k],
		    "label")));
		a->project = xstrdup(json_string_value(json_object_get(v[k],
		    "project")));
		u->fields[k] = json_string_value(json_object_get(v[k],
		    "fields"));
	}
}

/* Free what unaudited_rows made. */
static void
unaudited_free(struct unaudited *u)
{
	for (size_t k = 0; k < u->n; k++) {
		struct fact_audit *a = &u->a[k];
		char *f[] = { a->kind, a->id, a->action, a->actor, a->note,
		    a->timestamp, a->before, a->after, a->label, a->project };

		for (size_t j = 0; j < sizeof(f) / sizeof(*f); j++)
			free(f[j]);
	}
	free(u->a);
	free(u->fields);
}

/* An audit note as said: without the "conflict <id>: " a review puts
 * before the reviewer's words (the conflict's own entry names it). */
static const char *
note_said(const char *note)
{
	size_t n = 0;

	if (strncmp(note, "conflict c", 10) != 0)
		return note;
	for (n = 10; (note[n] >= '0' && note[n] <= '9') ||
	    (note[n] >= 'a' && note[n] <= 'f'); n++)
		;
	return strncmp(note + n, ": ", 2) == 0 ? note + n + 2 : note;
}

/* The index of the project whose id or alias is p in m, or -1. */
static long
project_of(const struct site_model *m, const char *p)
{
	long k = model_project_index(m, p);

	for (size_t i = 0; k < 0 && p[0] != '\0' && i < m->n_projects; i++)
		for (size_t j = 0; j < m->projects[i].n_aliases; j++)
			if (strcmp(m->projects[i].aliases[j], p) == 0)
				return (long)i;
	return k;
}

/* The fact change's fields on o: title (the fact's label now), page
 * (its project's overview, else the index), anchor, linked (0 when the
 * row is gone: nothing to link), project and its overview_page, fields
 * (what it set, old → new), by (actor) and why (note). */
static void
fact_change_json(json_t *o, const struct site_model *m,
    const struct fact_audit *a)
{
	long k = project_of(m, a->project);
	const char *ps = k >= 0 && m->projects[k].id[0] != '\0' ?
	    m->pslug[k] : NULL;
	strbuf sb;

	strbuf_init(&sb);
	json_object_set_new(o, "title", item_clean(a->label[0] != '\0' ?
	    a->label : "a row no longer in the store"));
	json_object_set_new(o, "page", item_url(url_project_page,
	    ps != NULL ? ps : ""));
	json_object_set_new(o, "anchor", item_anchor(a->kind, a->id));
	json_object_set_new(o, "linked", json_boolean(a->label[0] != '\0'));
	json_object_set_new(o, "project", ps != NULL ?
	    json_string(m->projects[k].name) : json_null());
	json_object_set_new(o, "overview_page", item_overview_page(ps));
	change_fields(&sb, a);
	json_object_set_new(o, "fields", sb.len > 0 ? item_clean(sb.data) :
	    json_null());
	json_object_set_new(o, "by", a->actor[0] != '\0' ?
	    item_clean(a->actor) : json_null());
	json_object_set_new(o, "why", a->note[0] != '\0' ?
	    item_clean(note_said(a->note)) : json_null());
	strbuf_free(&sb);
}

/* A conflict's or check's change on o: title (the conflict's statement
 * of its sides as found, which no later build rewrites, or the check's
 * rule and message), statement (the same for the template to mark up;
 * null for a check), page and anchor (the check's place on its
 * project's Checks page, item_check_place's), project and its
 * overview_page, and by and why of a closed conflict. */
static void
page_change_json(json_t *o, const struct site_model *m,
    const struct change *ch)
{
	const char *project = ch->c ? ch->c->project : ch->v->project;
	long k = model_project_index(m, project);
	strbuf title;

	strbuf_init(&title);
	if (ch->c != NULL)
		strbuf_puts(&title, conflict_question(m, ch->c, 1));
	else
		strbuf_printf(&title, "%s: %s", model_rule_label(m,
		    ch->v->rule_id), ch->v->message);
	json_object_set_new(o, "title", json_string(title.data));
	/* The sides as found alone: an entry keeps its moment's words. */
	json_object_set_new(o, "statement", ch->c != NULL ?
	    conflict_statement_json(ch->c, 0) : json_null());
	if (ch->c != NULL) {
		json_object_set_new(o, "page", item_conflict_page(ch->c->id));
		json_object_set_new(o, "anchor", json_null());
	} else {
		item_check_place(o, ch->v->project, ch->v->id);
	}
	json_object_set_new(o, "linked", json_true());
	json_object_set_new(o, "fields", json_null());
	json_object_set_new(o, "project", k >= 0 && project[0] != '\0' ?
	    json_string(m->projects[k].name) : json_null());
	json_object_set_new(o, "overview_page", item_overview_page(k >= 0 &&
	    project[0] != '\0' ? m->pslug[k] : NULL));
	json_object_set_new(o, "by", ch->c && ch->closed &&
	    ch->c->resolved_by != NULL && ch->c->resolved_by[0] != '\0' ?
	    json_string(ch->c->resolved_by) : json_null());
	json_object_set_new(o, "why", ch->c && ch->closed &&
	    ch->c->resolution != NULL && ch->c->resolution[0] != '\0' ?
	    json_string(ch->c->resolution) : json_null());
	strbuf_free(&title);
}

/* The first build's change on o: what it opened and read, in words
 * (conflicts_words, checks_words, facts_words, and together as title),
 * the counts, and the review queue as its page. */
static void
first_change_json(json_t *o, const struct first_build *f)
{
	strbuf sb;

	strbuf_init(&sb);
	json_object_set_new(o, "first", json_true());
	json_object_set_new(o, "conflicts", json_integer(
	    (json_int_t)f->conflicts));
	json_object_set_new(o, "checks", json_integer((json_int_t)f->checks));
	strbuf_printf(&sb, "%lld %s opened", f->conflicts, f->conflicts == 1 ?
	    "conflict" : "conflicts");
	json_object_set_new(o, "conflicts_words", json_string(sb.data));
	strbuf_reset(&sb);
	strbuf_printf(&sb, "%lld %s opened", f->checks, f->checks == 1 ?
	    "check" : "checks");
	json_object_set_new(o, "checks_words", json_string(sb.data));
	json_object_set_new(o, "facts_words", item_count(
	    f->run.facts_scanned, "active fact", "active facts"));
	strbuf_reset(&sb);
	strbuf_printf(&sb, "%s, %s, %s", json_string_value(json_object_get(o,
	    "conflicts_words")), json_string_value(json_object_get(o,
	    "checks_words")), json_string_value(json_object_get(o,
	    "facts_words")));
	json_object_set_new(o, "title", json_string(sb.data));
	json_object_set_new(o, "page", json_string("conflicts/index"));
	json_object_set_new(o, "anchor", json_null());
	json_object_set_new(o, "linked", json_true());
	json_object_set_new(o, "fields", json_null());
	json_object_set_new(o, "project", json_null());
	json_object_set_new(o, "overview_page", json_null());
	json_object_set_new(o, "by", json_null());
	json_object_set_new(o, "why", json_null());
	strbuf_free(&sb);
}

/* Change c's page (its page, anchor and linked) from the site's root
 * with extension ext, url_root_link's: with the anchor of a row still
 * in the store. Appended to sb. */
static void
change_link(strbuf *sb, const json_t *c, const char *ext)
{
	const json_t *anchor = json_object_get(c, "anchor");

	url_root_link(sb, json_string_value(json_object_get(c, "page")), ext,
	    json_is_string(anchor) && json_is_true(json_object_get(c,
	    "linked")) ? json_string_value(anchor) : NULL);
}

/* Set key on o to the folder of page, a path from the site's root ("."
 * for a page at the root), or null for page NULL; and file_key, when
 * neither it nor page is NULL, to page's file after that folder. */
static void
change_folder(json_t *o, const char *key, const char *page,
    const char *file_key)
{
	const char *cut = page != NULL ? strrchr(page, '/') : NULL;

	json_object_set_new(o, key, page == NULL ? json_null() : cut == NULL ?
	    json_string(".") : json_stringn(page, (size_t)(cut - page)));
	if (file_key != NULL && page != NULL)
		json_object_set_new(o, file_key, json_string(cut != NULL ?
		    cut + 1 : page));
}

/* Change c's link for a template, "link" (change_link's to the .md,
 * null when not linked), and the older names of its pages templates
 * may still spell a link from: "dir" and "slug" (its page's folder and
 * file) and "pdir" (its overview_page's folder, or null). */
static void
change_links(json_t *c)
{
	strbuf sb;

	strbuf_init(&sb);
	change_link(&sb, c, "md");
	json_object_set_new(c, "link", json_is_true(json_object_get(c,
	    "linked")) ? json_stringn(sb.data, sb.len) : json_null());
	change_folder(c, "dir", json_string_value(json_object_get(c, "page")),
	    "slug");
	change_folder(c, "pdir", json_string_value(json_object_get(c,
	    "overview_page")), NULL);
	strbuf_free(&sb);
}

/* The change as the template sees it (see templates/README.md). */
static json_t *
change_json(const struct site_model *m, const struct change *ch)
{
	char date[MIRROR_TS_LEN];
	strbuf what;
	json_t *o;

	strbuf_init(&what);
	change_what(&what, ch);
	snprintf(date, sizeof(date), "%.10s", ch->t);
	/* An audit row's time is the store's text, unchecked: cleaned. */
	o = item_must(json_pack("{s:o, s:o, s:s, s:b, s:n}", "date",
	    item_clean(date), "time", item_clean(ch->t), "what", what.data,
	    "first", 0, "statement"), "change", change_id(ch));
	if (ch->f != NULL)
		first_change_json(o, ch->f);
	else if (ch->a != NULL) {
		fact_change_json(o, m, ch->a);
		if (ch->fields != NULL)
			json_object_set_new(o, "fields",
			    item_clean(ch->fields));
	} else {
		page_change_json(o, m, ch);
	}
	change_links(o);
	strbuf_free(&what);
	return o;
}

/* The changes (changes_of) as days, newest first: [{date, items}]. */
static json_t *
changes_days(const struct site_model *m, const struct change *it, size_t n)
{
	json_t *days = json_array(), *day = NULL;

	for (size_t i = 0; i < n; i++) {
		json_t *c = change_json(m, &it[i]);
		const char *date = json_string_value(json_object_get(c,
		    "date"));

		if (day == NULL || strcmp(json_string_value(json_object_get(
		    day, "date")), date) != 0) {
			day = json_pack("{s:s, s:[]}", "date", date, "items");
			json_array_append_new(days, day);
		}
		json_array_append_new(json_object_get(day, "items"), c);
	}
	return days;
}

/* The summary of change c (change_json): what, in which project, by
 * whom, what it set and why. */
static void
change_summary(strbuf *sb, const json_t *c)
{
	static const char *const parts[][2] = { { "project", " in " },
	    { "by", " by " }, { "fields", ": " }, { "why", ": " } };

	xml(sb, json_string_value(json_object_get(c, "what")));
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		const json_t *v = json_object_get(c, parts[k][0]);

		if (json_is_string(v)) {
			strbuf_puts(sb, parts[k][1]);
			xml(sb, json_string_value(v));
		}
	}
}

/* changes.xml: the changes (changes_of) as Atom, newest first, at most
 * FEED_ENTRIES. Returns 0 or < 0 with err set. */
static int
changes_feed(const struct page_ctx *pc, const struct change *it, size_t n,
    mirror_error *err)
{
	const struct site_model *m = pc->m;
	const struct atom_feed f = { "changes", "changes.xml", n > 0 ?
		it[0].t : NULL, "changes.html" };
	struct atom_entry e;
	strbuf sb, href;
	int rc;

	strbuf_init(&sb);
	feed_head(&sb, m, &f);
	for (size_t i = 0; i < n && i < FEED_ENTRIES; i++) {
		json_t *c = change_json(m, &it[i]);

		strbuf_puts(&sb, "  <entry>\n    <title>");
		xml(&sb, json_string_value(json_object_get(c, "what")));
		strbuf_puts(&sb, ": ");
		xml(&sb, json_string_value(json_object_get(c, "title")));
		/* The entry's id: the conflict's, check's or fact's, and
		 * which change; its link: that conflict's, check's or
		 * fact's place. */
		strbuf_init(&href);
		change_link(&href, c, "html");
		e = (struct atom_entry){ it[i].f ? "first" : it[i].a ?
			"fact" : it[i].closed ? "closed" : "opened",
			change_id(&it[i]), it[i].t, href.data };
		feed_entry(&sb, m, &e);
		strbuf_free(&href);
		change_summary(&sb, c);
		strbuf_puts(&sb, "</summary>\n  </entry>\n");
		json_decref(c);
	}
	strbuf_puts(&sb, "</feed>\n");
	rc = page_file(pc, "changes.xml", sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}

/*
 * changes.md/.html and changes.xml, and into index's data "recent" (the
 * newest RECENT_ON_INDEX changes) and "recent_more". Returns 0 or < 0
 * with err set.
 */
static int
changes_pages(const struct page_ctx *pc, json_t *index, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct first_build first = { { NULL, NULL, 0, 0 }, 0, 0 };
	struct unaudited u;
	struct change *it;
	size_t n, shown, un = 0;
	json_t *data, **uv = NULL;
	int rc;

	if ((rc = sweep_first_run(&first.run, pc->st, &m->conflicts,
	    err)) < 0)
		return rc;
	if ((rc = unaudited_list(&uv, &un, pc, err)) < 0) {
		for (size_t k = 0; k < un; k++)
			json_decref(uv[k]);
		free(uv);
		sweep_first_free(&first.run);
		return rc;
	}
	unaudited_rows(&u, uv, un);
	n = changes_of(&it, m, &first, &u);
	shown = n < CHANGES_ON_PAGE ? n : CHANGES_ON_PAGE;
	data = item_must(json_pack("{s:o, s:I, s:o, s:I, s:o}",
	    "days", changes_days(m, it, shown), "days_back",
	    (json_int_t)CHANGES_DAYS, "count_words", item_count((long long)n,
	    "change", "changes"), "more", (json_int_t)(n - shown),
	    "shown_words", item_count((long long)shown, "change", "changes")),
	    "page", "changes");
	json_object_set_new(index, "recent", changes_days(m, it, n <
	    RECENT_ON_INDEX ? n : RECENT_ON_INDEX));
	json_object_set_new(index, "recent_more", json_integer((json_int_t)(
	    n > RECENT_ON_INDEX ? n - RECENT_ON_INDEX : 0)));
	json_object_set_new(index, "recent_words", json_incref(
	    json_object_get(data, "count_words")));
	rc = page_write(pc, "changes", "changes.md", "Recent changes", data,
	    err);
	if (rc == 0)
		rc = changes_feed(pc, it, n, err);
	json_decref(data);
	free(it);
	unaudited_free(&u);
	for (size_t k = 0; k < un; k++)
		json_decref(uv[k]);
	free(uv);
	sweep_first_free(&first.run);
	return rc;
}

/* Whether path is a page the sitemap lists: HTML, not 404.html. */
static int
listed(const char *path)
{
	size_t len = strlen(path);

	return len >= 5 && strcmp(path + len - 5, ".html") == 0 &&
	    strcmp(path, "404.html") != 0;
}

/* The line of the sitemap that lists path, into sb. */
static void
url_line(strbuf *sb, const struct site_model *m, const char *path)
{
	strbuf_puts(sb, "  <url><loc>");
	url_base(sb, m);
	xml(sb, path);
	strbuf_puts(sb, "</loc></url>\n");
}

#define URLSET_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
	"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
#define URLSET_TAIL "</urlset>\n"

/*
 * The parts of a sitemap, text[0..parts), as sitemap-1.xml ...
 * sitemap-PARTS.xml, the empty ones left out (a urlset lists at least
 * one URL), then sitemap.xml, the sitemap index of them. Returns 0 or
 * < 0 with err set.
 */
static int
sitemap_parts(const struct page_ctx *pc, const strbuf *text, size_t parts,
    mirror_error *err)
{
	const size_t empty = strlen(URLSET_HEAD URLSET_TAIL);
	strbuf index;
	int rc = 0;

	strbuf_init(&index);
	strbuf_puts(&index, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<sitemapindex xmlns="
	    "\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (size_t k = 0; k < parts && rc == 0; k++) {
		char name[48];
		int len = snprintf(name, sizeof(name), "sitemap-%zu.xml",
		    k + 1);

		if (text[k].len <= empty)
			continue;
		if (len < 0 || (size_t)len >= sizeof(name)) {
			rc = mirror_fail(err, MIRROR_EIO, "sitemap: part "
			    "%zu: name too long", k + 1);
			break;
		}
		rc = page_file(pc, name, text[k].data, text[k].len, err);
		strbuf_puts(&index, "  <sitemap><loc>");
		url_base(&index, pc->m);
		strbuf_printf(&index, "%s</loc></sitemap>\n", name);
	}
	strbuf_puts(&index, "</sitemapindex>\n");
	if (rc == 0)
		rc = page_file(pc, "sitemap.xml", index.data, index.len, err);
	strbuf_free(&index);
	return rc;
}

/* The most bits of a sitemap's parts (2^SITEMAP_BITS_MAX files). */
#define SITEMAP_BITS_MAX 16

/* The hash of a page's path that names its part (sitemap_part). */
static uint64_t
sitemap_hash(const char *path)
{
	return hash_mix(hash_add_str(MIRROR_HASH_INIT, path));
}

/* The part of 2^bits that lists the page whose path hashes to h
 * (sitemap_hash): its low bits, so a page keeps its part while the
 * count of parts stays. */
static size_t
sitemap_part(uint64_t h, unsigned bits)
{
	return (size_t)(h & ((UINT64_C(1) << bits) - 1));
}

/*
 * The fewest bits b such that, with each listed page i of n in part
 * sitemap_part(h[i], b), no part lists more than lim->urls pages or
 * holds more than lim->bytes (each page's line, of len[i] bytes, 0 for
 * a page not listed, and the urlset around them); a part of one page
 * may pass the bytes. SITEMAP_BITS_MAX when none fits. Returns b.
 */
static unsigned
sitemap_bits(const uint64_t *h, const size_t *len, size_t n,
    const struct sitemap_limits *lim)
{
	const size_t frame = strlen(URLSET_HEAD URLSET_TAIL);

	for (unsigned b = 0; b < SITEMAP_BITS_MAX; b++) {
		size_t parts = (size_t)1 << b, *urls, *bytes;
		int fits = 1;

		urls = xcalloc(parts, sizeof(*urls));
		bytes = xcalloc(parts, sizeof(*bytes));
		for (size_t i = 0; i < n && fits; i++) {
			size_t k;

			if (len[i] == 0)
				continue;       /* not listed */
			k = sitemap_part(h[i], b);
			urls[k]++;
			bytes[k] += len[i];
			fits = urls[k] <= lim->urls && (urls[k] == 1 ||
			    frame + bytes[k] <= lim->bytes);
		}
		free(urls);
		free(bytes);
		if (fits)
			return b;
	}
	return SITEMAP_BITS_MAX;
}

/*
 * The sitemap's files as texts, into *out (*parts of them, each a
 * urlset, some perhaps empty): the listed pages of paths[0, n), each
 * in the part its path's hash gives among the fewest parts that keep
 * within lim (sitemap_bits), in path order within a part. So a page
 * added or removed changes one part, not every one after it, while the
 * count of parts stays (it doubles past the limits). Returns the
 * texts, the caller's to free.
 */
static strbuf *
sitemap_texts(size_t *parts, const struct site_model *m,
    const char *const *paths, size_t n, const struct sitemap_limits *lim)
{
	size_t *len = xcalloc(n + 1, sizeof(*len));
	uint64_t *h = xcalloc(n + 1, sizeof(*h));
	strbuf *text, lines;
	unsigned bits;

	/* Each listed page's line and hash, once, the lines one after
	 * another in lines. */
	strbuf_init(&lines);
	for (size_t i = 0; i < n; i++) {
		size_t at = lines.len;

		if (!listed(paths[i]))
			continue;
		url_line(&lines, m, paths[i]);
		len[i] = lines.len - at;
		h[i] = sitemap_hash(paths[i]);
	}
	bits = sitemap_bits(h, len, n, lim);
	*parts = (size_t)1 << bits;
	text = xcalloc(*parts, sizeof(*text));
	for (size_t k = 0; k < *parts; k++) {
		strbuf_init(&text[k]);
		strbuf_puts(&text[k], URLSET_HEAD);
	}
	for (size_t i = 0, at = 0; i < n; at += len[i], i++)
		if (len[i] > 0)
			strbuf_add(&text[sitemap_part(h[i], bits)],
			    lines.data + at, len[i]);
	for (size_t k = 0; k < *parts; k++)
		strbuf_puts(&text[k], URLSET_TAIL);
	strbuf_free(&lines);
	free(len);
	free(h);
	return text;
}

int
site_index_sitemap_write(const struct page_ctx *pc,
    const struct sitemap_limits *lim, mirror_error *err)
{
	const char *const *paths;
	size_t n, parts;
	strbuf *text;
	int rc = 0;

	if (!page_paths(&paths, &n, pc))
		return 0;       /* a rehearsal writes no files to list */
	/* All texts are made before the first is written, which adds to
	 * paths. */
	text = sitemap_texts(&parts, pc->m, paths, n, lim);
	if (parts == 1)
		rc = page_file(pc, "sitemap.xml", text[0].data, text[0].len,
		    err);
	else
		rc = sitemap_parts(pc, text, parts, err);
	for (size_t k = 0; k < parts; k++)
		strbuf_free(&text[k]);
	free(text);
	return rc;
}

/* ---- the files around the pages ------------------------------------ */

static int
health(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	const struct health *h = &m->health;
	json_t *o, *layers;
	json_int_t listed = 0;
	int rc;

	layers = json_object();
	for (int i = 0; i < 3; i++) {
		json_t *bs = json_object();

		for (size_t j = 0; j < h->layers[i].n_status; j++)
			json_object_set_new(bs, h->layers[i].by_status[j].status,
			    json_integer(h->layers[i].by_status[j].n));
		json_object_set_new(layers, h->layers[i].name, json_pack(
		    "{s:i, s:I, s:o}", "trust", h->layers[i].trust, "total",
		    (json_int_t)h->layers[i].total, "by_status", bs));
	}
	/* No sweep_runs: each build's sweep adds one, and an unchanged
	 * store must give an unchanged site. */
	/* The projects the index lists: every project with a projects
	 * row or with rows of its own, not only the projects rows. */
	for (size_t i = 0; i < m->n_projects; i++)
		listed += m->projects[i].id[0] != '\0';
	o = json_pack("{s:s, s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:o}",
	    "snapshot", m->snapshot, "facts_updated_at", facts_updated_at(m),
	    "projects", listed,
	    "layers", layers,
	    "relationships", (json_int_t)h->relationships,
	    "expired_memories", (json_int_t)h->expired_memories,
	    "open_conflicts_count", (json_int_t)h->open_conflicts_count,
	    "resolved_conflicts", (json_int_t)h->resolved_conflicts,
	    "dismissed_conflicts", (json_int_t)h->dismissed_conflicts,
	    "checks", health_checks_json(&h->checks));
	rc = page_json_rows(pc, "api/health.json", o, err);
	json_decref(o);
	return rc;
}

/* The site's .gitattributes: the HTML twins of the Markdown pages (and
 * the pages that are HTML only: the A–Z pages, a finder for browsers
 * whose facts a reviewer reads on their projects' pages, each
 * project's decision log and subsystems page, which regroup its
 * overview's facts, and the projects by open conflicts, which reorder
 * the list by name) and the search index's shards are generated (the
 * pages' digests, api/pages/, stay out of the commit), so git hosts fold them and git
 * diff shows a reviewer the Markdown and JSON alone (issue 59). The
 * shards number the documents: one page more renumbers every posting
 * after it, a rewrite no reviewer reads. */
static const char gitattributes[] =
    "# Written by mirror. Each .html page is the twin of its .md page\n"
    "# (keys/, the A-Z finder, each project's decisions and subsystems\n"
    "# pages and the projects by open conflicts, projects/\n"
    "# index.conflicts*, are HTML only), search/*.js is the search\n"
    "# index, changes.xml is the feed of changes.md, feed.xml that of\n"
    "# the conflict and check pages, sitemap*.xml lists the pages, and\n"
    "# api/changes-unaudited.json is what the build keeps of changes\n"
    "# no audit row recorded: generated, so a diff shows the Markdown\n"
    "# and JSON a reviewer reads.\n"
    "*.html linguist-generated -diff\n"
    "search/*.js linguist-generated -diff\n"
    "changes.xml linguist-generated -diff\n"
    "feed.xml linguist-generated -diff\n"
    "sitemap*.xml linguist-generated -diff\n"
    "api/changes-unaudited.json linguist-generated -diff\n";

int
extra_pages(const struct page_ctx *pc, mirror_error *err)
{
	json_t *data = json_object();
	int rc;

	rc = page_write(pc, "404", "404.md", "Page not found", data, err);
	json_decref(data);
	if (rc == 0)
		rc = health(pc, err);
	if (rc == 0)
		rc = page_file(pc, ".nojekyll", "", 0, err);
	if (rc == 0)
		rc = page_file(pc, ".gitattributes", gitattributes,
		    sizeof(gitattributes) - 1, err);
	if (rc == 0)
		rc = site_index_feed_write(pc, FEED_ENTRIES, err);
	if (rc == 0)
		rc = site_index_sitemap_write(pc, &(const struct sitemap_limits){
		    SITEMAP_URLS, SITEMAP_BYTES }, err);
	return rc;
}
