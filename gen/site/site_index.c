/*
 * site_index.c: the site's index page, a dashboard.
 *
 * The open conflicts in words as the headline; every project as a table
 * row (its row counts, open conflicts and latest change), most open
 * conflicts first; the open conflicts over time from sweep_runs, as a
 * sentence and, in the HTML twin, an SVG chart made from that same data.
 * Rows with project '' belong to no project: they have no overview of
 * their own (there is no project to describe, and '' has no honest
 * slug), so their facts are listed on the index itself, where conflict
 * pages link to them.
 */
#include <stdlib.h>
#include <string.h>

#include "render/chart.h"
#include "site/items.h"
#include "site/site_graph.h"
#include "site/site_index.h"
#include "sweep/history.h"
#include "sys/clock.h"
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

/* The no-project group's facts, every status, in layer order, and the
 * links of its entities as the overviews list them (*linked). */
static int
loose_facts(json_t **out, json_t **linked, const struct site_model *m,
    mirror_error *err)
{
	struct project_facts f;
	struct site_graph g;
	json_t *items = json_array();
	int rc;

	*linked = json_array();
	rc = facts_read_project(&f, m->facts, "", err);
	graph_init(&g, &f);
	for (size_t k = 0; rc == 0 && k < f.n_state; k++)
		json_array_append_new(items, item_state(m, &f.state[k]));
	for (size_t k = 0; rc == 0 && k < f.n_ent; k++) {
		json_t *item = item_entity(m, &f.ent[k]);

		graph_entity_links(item, *linked, m, &g, &f.ent[k]);
		json_array_append_new(items, item);
	}
	for (size_t k = 0; rc == 0 && k < f.n_mem; k++)
		json_array_append_new(items, item_memory(m, &f.mem[k]));
	graph_free(&g);
	facts_free(&f);
	*out = items;
	return rc;
}

/* The date ("YYYY-MM-DD") of t, seconds since 1970, into buf. */
static void
date_of(char buf[MIRROR_TS_LEN], long long t)
{
	mirror_format_ts(buf, (time_t)t);
	buf[10] = '\0';
}

/* qsort order of project rows: most open conflicts first, then by
 * name, then by id (ids are unique). */
static int
cmp_row(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t ox = json_integer_value(json_object_get(x,
	    "open_conflicts")), oy = json_integer_value(json_object_get(y,
	    "open_conflicts"));
	int c;

	if (ox != oy)
		return ox > oy ? -1 : 1;
	c = strcmp(json_string_value(json_object_get(x, "name")),
	    json_string_value(json_object_get(y, "name")));
	return c != 0 ? c : strcmp(json_string_value(json_object_get(x, "id")),
	    json_string_value(json_object_get(y, "id")));
}

/* The project's row of the table (see templates/README.md). */
static json_t *
project_row(const struct site_model *m, size_t i, long long open)
{
	const struct fact_project *p = &m->projects[i];
	char date[MIRROR_TS_LEN];

	if (p->latest >= 0)
		date_of(date, p->latest);
	return item_must(json_pack("{s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:I, "
	    "s:I, s:I, s:o}",
	    "id", p->id, "name", p->name, "slug", m->pslug[i],
	    "description", p->description, "listed", p->listed,
	    "state_rows", (json_int_t)p->n_state,
	    "entity_rows", (json_int_t)p->n_entities,
	    "memory_rows", (json_int_t)p->n_memories,
	    "active_rows", (json_int_t)p->n_active,
	    "open_conflicts", (json_int_t)open,
	    "latest", p->latest >= 0 ? json_string(date) : json_null()),
	    "project", p->id);
}

/* Every project but the no-project group, in reading order (cmp_row);
 * *with_open counts those with an open conflict. */
static json_t *
project_rows(const struct site_model *m, const long long *open,
    long long *with_open)
{
	json_t **v = xcalloc(m->n_projects + 1, sizeof(*v)), *out;
	size_t n = 0;

	*with_open = 0;
	for (size_t i = 0; i < m->n_projects; i++) {
		if (m->projects[i].id[0] == '\0')
			continue;
		v[n++] = project_row(m, i, open[i]);
		*with_open += open[i] > 0;
	}
	qsort(v, n, sizeof(*v), cmp_row);
	out = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(out, v[i]);
	free(v);
	return out;
}

/*
 * The open conflicts over time (core/sweep/history.h) into *out, a list
 * of {date, open}; when the store holds conflicts and the count now is
 * not the last sweep's (a build without the sweep after a review), the
 * count now closes it, dated by the run's clock. Returns 0 or < 0 with
 * err set.
 */
static int
history_json(json_t **out, const struct site_model *m, mirror_error *err)
{
	struct sweep_point *p;
	char date[MIRROR_TS_LEN];
	size_t n;
	int rc;

	*out = json_array();
	if ((rc = sweep_history(&p, &n, m->st, err)) < 0)
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

/* The chart of data's history, made from data alone (page.h). */
static void
history_chart(strbuf *sb, const json_t *data)
{
	const json_t *h = json_object_get(data, "history");
	size_t n = json_array_size(h), i;
	struct chart_point *p = xcalloc(n + 1, sizeof(*p));
	json_t *v;

	json_array_foreach(h, i, v) {
		const char *date = json_string_value(json_object_get(v,
		    "date"));
		time_t t = 0;

		(void)mirror_parse_ts(&t, date);
		p[i].x = (long long)t / 86400;
		p[i].value = json_integer_value(json_object_get(v, "open"));
		p[i].label = date;
	}
	chart_svg(sb, "open-history", p, n, "Open conflicts over time",
	    json_string_value(json_object_get(data, "history_words")));
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
		    loose_open > 0 ? ", and in rows of no project" : "");
	strbuf_printf(&sb, "%zu %s recorded in all.", m->conflicts.n,
	    m->conflicts.n == 1 ? "conflict" : "conflicts");
	json_object_set_new(data, "summary", json_string(sb.data));
	strbuf_free(&sb);
}

int
index_pages(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	json_t *projects, *loose = NULL, *linked = NULL, *history = NULL;
	json_t *data;
	long long *open, loose_open = open_counts(&open, m), with_open;
	struct md_figure fig = { "open-history", NULL };
	strbuf svg;
	int rc;

	projects = project_rows(m, open, &with_open);
	rc = loose_facts(&loose, &linked, m, err);
	if (rc == 0)
		rc = history_json(&history, m, err);
	data = item_must(json_pack("{s:o, s:o, s:o, s:I, s:o, s:I, s:I, "
	    "s:o}", "projects", projects, "loose", loose, "loose_linked",
	    linked, "loose_open_conflicts",
	    (json_int_t)loose_open, "loose_open_words", item_count(loose_open,
	    "open conflict", "open conflicts"),
	    "open_conflicts_count", (json_int_t)m->open_conflicts,
	    "conflicts_total", (json_int_t)m->conflicts.n,
	    "history", history != NULL ? history : json_array()), "page",
	    "index");
	headline(data, m, with_open, json_array_size(projects), loose_open);
	json_object_set_new(data, "history_words",
	    history_words(json_object_get(data, "history")));
	strbuf_init(&svg);
	history_chart(&svg, data);
	fig.html = svg.data;
	if (rc == 0)
		rc = page_write_figures(pc, "index", "index.md", m->title,
		    data, &fig, 1, err);
	strbuf_free(&svg);
	json_decref(data);
	free(open);
	return rc;
}
