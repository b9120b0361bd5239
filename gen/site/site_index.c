/*
 * site_index.c: the site's index page.
 *
 * Every project with its fact counts and open conflicts, and the global
 * open_conflicts_count. Rows with project '' belong to no project: they
 * have no overview of their own (there is no project to describe, and
 * '' has no honest slug), so their facts are listed on the index itself,
 * where conflict pages link to them.
 */
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_index.h"
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

/* The no-project group's facts, every status, in layer order. */
static int
loose_facts(json_t **out, const struct site_model *m, mirror_error *err)
{
	struct project_facts f;
	json_t *items = json_array();
	int rc;

	rc = facts_read_project(&f, m->facts, "", err);
	for (size_t k = 0; rc == 0 && k < f.n_state; k++)
		json_array_append_new(items, item_state(m, &f.state[k]));
	for (size_t k = 0; rc == 0 && k < f.n_ent; k++)
		json_array_append_new(items, item_entity(m, &f.ent[k]));
	for (size_t k = 0; rc == 0 && k < f.n_mem; k++)
		json_array_append_new(items, item_memory(m, &f.mem[k]));
	facts_free(&f);
	*out = items;
	return rc;
}

int
index_pages(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	json_t *projects = json_array(), *loose = NULL, *data;
	long long *open, loose_open = open_counts(&open, m);
	int rc;

	for (size_t i = 0; i < m->n_projects; i++) {
		const struct fact_project *p = &m->projects[i];

		if (p->id[0] == '\0')
			continue;
		json_array_append_new(projects, json_pack("{s:s, s:s, s:s, "
		    "s:s, s:b, s:I, s:I, s:I, s:I, s:I}",
		    "id", p->id, "name", p->name, "slug", m->pslug[i],
		    "description", p->description, "listed", p->listed,
		    "state_rows", (json_int_t)p->n_state,
		    "entity_rows", (json_int_t)p->n_entities,
		    "memory_rows", (json_int_t)p->n_memories,
		    "active_rows", (json_int_t)p->n_active,
		    "open_conflicts", (json_int_t)open[i]));
	}
	rc = loose_facts(&loose, m, err);
	data = json_pack("{s:o, s:o, s:I, s:I, s:I}", "projects", projects,
	    "loose", loose, "loose_open_conflicts",
	    (json_int_t)loose_open,
	    "open_conflicts_count", (json_int_t)m->open_conflicts,
	    "conflicts_total", (json_int_t)m->conflicts.n);
	if (rc == 0)
		rc = page_write(pc, "index", "index.md", m->title, data, err);
	json_decref(data);
	free(open);
	return rc;
}
