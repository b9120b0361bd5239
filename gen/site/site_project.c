/*
 * site_project.c: projects/<slug>/index, the project overview, and
 * api/projects/<slug>.json (the same object the template sees).
 *
 * Sections in SPEC 5's order: header, trusted state by category,
 * system architecture, decisions, requirements and constraints,
 * materials, parameters/results/validation, vendors, active memories,
 * gaps; then (not in the SPEC list, so that every fact of the project
 * has an anchor to link to) other entities and the facts that are not
 * active. Each fact appears exactly once on the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_decisions.h"
#include "site/site_graph.h"
#include "site/site_project.h"
#include "site/site_subsystem.h"
#include "sys/pool.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Trusted-state categories in the SPEC's order; others follow by name. */
static const char *const category_order[] = { "decision", "requirement",
    "status", "fact", "milestone", "config", "contact" };
#define N_CATEGORIES (sizeof(category_order) / sizeof(*category_order))

enum section {
	SEC_ARCH, SEC_DECISIONS, SEC_REQS, SEC_MATERIALS, SEC_ANALYSIS,
	SEC_VENDORS, SEC_OTHER, N_SECTIONS
};

static const char *const section_key[N_SECTIONS] = { "architecture",
    "decisions", "requirements", "materials", "analysis", "vendors",
    "other_entities" };

static enum section
section_of(const char *type)
{
	static const struct { const char *type; enum section sec; } map[] = {
		{ "system", SEC_ARCH }, { "subsystem", SEC_ARCH },
		{ "component", SEC_ARCH }, { "interface", SEC_ARCH },
		{ "decision", SEC_DECISIONS },
		{ "requirement", SEC_REQS }, { "constraint", SEC_REQS },
		{ "material", SEC_MATERIALS },
		{ "parameter", SEC_ANALYSIS }, { "result", SEC_ANALYSIS },
		{ "validation_claim", SEC_ANALYSIS },
		{ "analysis_model", SEC_ANALYSIS },
		{ "vendor", SEC_VENDORS },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
		if (strcmp(map[i].type, type) == 0)
			return map[i].sec;
	return SEC_OTHER;
}

/* Collecting the names at the other ends of edges into one line. */
struct names {
	const struct site_graph *g;
	strbuf *sb;
	size_t n;
};

static void
add_name(const char *other, void *arg)
{
	struct names *nm = arg;
	const struct fact_entity *e = graph_entity(nm->g, other);

	strbuf_puts(nm->sb, nm->n++ ? ", " : "");
	strbuf_puts(nm->sb, e != NULL ? e->name : other);
}

/* Append "label: a, b" for the edges of type at e (outgoing or not). */
static size_t
edge_note(strbuf *sb, const struct site_graph *g, const char *id,
    const char *type, int outgoing, const char *label)
{
	struct names nm = { g, sb, 0 };
	size_t mark = sb->len;

	if (sb->len > 0)
		strbuf_puts(sb, "; ");
	strbuf_printf(sb, "%s: ", label);
	if (graph_each(g, id, type, outgoing, add_name, &nm) == 0) {
		sb->len = mark;
		sb->data[mark] = '\0';
	}
	return nm.n;
}

/* Append "label: value" for a string property, when present. */
static int
prop_note(strbuf *sb, const struct fact_entity *e, const char *key,
    const char *label)
{
	char buf[64];
	const char *v = item_prop(e, key, buf, sizeof(buf));

	if (v[0] == '\0')
		return 0;
	strbuf_printf(sb, "%s%s: %s", sb->len ? "; " : "", label, v);
	return 1;
}

/*
 * What the overview says about an entity beyond its value: its place in
 * the structure, its material, interfaces, what a decision affects, what
 * satisfies a requirement. *gap gets why it is a gap ("" when none).
 */
static void
entity_notes(strbuf *sb, const char **gap, const struct site_graph *g,
    const struct fact_entity *e)
{
	const char *t = e->type;

	*gap = "";
	if (strcmp(t, "subsystem") == 0 || strcmp(t, "component") == 0 ||
	    strcmp(t, "system") == 0 || strcmp(t, "interface") == 0) {
		if (edge_note(sb, g, e->id, "part_of", 1, "part of") == 0 &&
		    edge_note(sb, g, e->id, "contains", 0, "part of") == 0)
			prop_note(sb, e, strcmp(t, "component") == 0 ?
			    "subsystem" : "part_of", "part of");
		if (edge_note(sb, g, e->id, "uses_material", 1,
		    "material") == 0 && !prop_note(sb, e, "material",
		    "material") && strcmp(t, "component") == 0 &&
		    strcmp(e->status, "active") == 0)
			*gap = "component with no material";
		edge_note(sb, g, e->id, "interfaces_with", 1, "interfaces");
		edge_note(sb, g, e->id, "interfaces_with", 0, "interfaced by");
	} else if (strcmp(t, "decision") == 0) {
		prop_note(sb, e, "target", "target");
		prop_note(sb, e, "field", "field");
		edge_note(sb, g, e->id, "affected_by_decision", 0, "affects");
	} else if (strcmp(t, "requirement") == 0 ||
	    strcmp(t, "constraint") == 0) {
		prop_note(sb, e, "target", "target");
		edge_note(sb, g, e->id, "constrained_by", 0, "constrains");
		if (edge_note(sb, g, e->id, "satisfies", 0,
		    "satisfied by") == 0 && strcmp(t, "requirement") == 0 &&
		    strcmp(e->status, "active") == 0)
			*gap = "requirement nothing satisfies";
	} else if (strcmp(t, "validation_claim") == 0) {
		if (edge_note(sb, g, e->id, "supports", 0,
		    "supported by") == 0 && strcmp(e->status, "active") == 0)
			*gap = "validation claim nothing supports";
	} else if (strcmp(t, "material") == 0) {
		edge_note(sb, g, e->id, "uses_material", 0, "used by");
	} else if (strcmp(t, "result") == 0) {
		prop_note(sb, e, "model", "model");
	}
}

static json_t *
project_header(const struct site_model *m, size_t i)
{
	const struct fact_project *p = &m->projects[i];
	json_t *aliases = json_array();

	for (size_t k = 0; k < p->n_aliases; k++)
		json_array_append_new(aliases, json_string(p->aliases[k]));
	return item_must(json_pack("{s:s, s:s, s:s, s:s, s:o, s:b, s:I, "
	    "s:I, s:I}",
	    "id", p->id, "name", p->name, "slug", m->pslug[i],
	    "description", p->description, "aliases", aliases,
	    "listed", p->listed, "state_rows", (json_int_t)p->n_state,
	    "entity_rows", (json_int_t)p->n_entities,
	    "memory_rows", (json_int_t)p->n_memories), "project", p->id);
}

/* The trusted state, grouped by category in the SPEC's order. */
static json_t *
state_groups(const struct site_model *m, const struct project_facts *f,
    json_t *inactive)
{
	json_t *groups = json_array(), *rest = json_array();

	for (size_t c = 0; c <= N_CATEGORIES; c++) {
		json_t *items = json_array();
		const char *name = c < N_CATEGORIES ? category_order[c] : NULL;

		for (size_t k = 0; k < f->n_state; k++) {
			const struct fact_state *st = &f->state[k];
			int known = 0;

			for (size_t j = 0; j < N_CATEGORIES; j++)
				known |= strcmp(st->category,
				    category_order[j]) == 0;
			if (name != NULL ? strcmp(st->category, name) != 0 :
			    known)
				continue;
			if (strcmp(st->status, "active") != 0) {
				json_array_append_new(inactive,
				    item_state(m, st));
				continue;
			}
			/* Unknown categories: one group each, by name. */
			if (name == NULL) {
				size_t n = json_array_size(rest);
				json_t *last = n ? json_array_get(rest, n - 1) :
				    NULL;

				if (last == NULL || strcmp(json_string_value(
				    json_object_get(last, "category")),
				    st->category) != 0) {
					last = json_pack("{s:s, s:[]}",
					    "category", st->category, "items");
					json_array_append_new(rest, last);
				}
				json_array_append_new(json_object_get(last,
				    "items"), item_state(m, st));
				continue;
			}
			json_array_append_new(items, item_state(m, st));
		}
		if (name != NULL && json_array_size(items) > 0)
			json_array_append_new(groups, json_pack("{s:s, s:o}",
			    "category", name, "items", items));
		else
			json_decref(items);
	}
	json_array_extend(groups, rest);
	json_decref(rest);
	return groups;
}

/*
 * The architecture from the top down: systems, subsystems, components,
 * interfaces (items arrive sorted by type name). Consumes items.
 */
static json_t *
architecture(json_t *items)
{
	static const char *const order[] = { "system", "subsystem",
	    "component", "interface" };
	json_t *out = json_array(), *v;
	size_t k;

	for (size_t t = 0; t < sizeof(order) / sizeof(*order); t++)
		json_array_foreach(items, k, v)
			if (strcmp(json_string_value(json_object_get(v,
			    "type")), order[t]) == 0)
				json_array_append(out, v);
	json_decref(items);
	return out;
}

/*
 * The entities of f into data's sections (architecture first, from the
 * top down), the inactive ones onto inactive, and the gaps the
 * overview names onto gaps.
 */
static void
entity_sections(json_t *data, json_t *inactive, json_t *gaps,
    const struct site_model *m, const struct site_graph *g)
{
	const struct project_facts *f = g->f;
	json_t *sec[N_SECTIONS];
	strbuf notes;

	strbuf_init(&notes);
	for (size_t k = 0; k < N_SECTIONS; k++)
		sec[k] = json_array();
	for (size_t k = 0; k < f->n_ent; k++) {
		const struct fact_entity *e = &f->ent[k];
		json_t *item = item_entity(m, e);
		const char *gap;

		strbuf_reset(&notes);
		entity_notes(&notes, &gap, g, e);
		json_object_set_new(item, "notes", json_string(notes.data));
		if (strcmp(e->type, "subsystem") == 0)
			json_object_set(item, "page",
			    json_object_get(item, "slug"));
		if (gap[0] != '\0')
			json_array_append_new(gaps, json_pack("{s:s, s:O, s:s}",
			    "label", e->name, "anchor",
			    json_object_get(item, "anchor"), "why", gap));
		if (strcmp(e->status, "active") != 0)
			json_array_append_new(inactive, item);
		else
			json_array_append_new(sec[section_of(e->type)], item);
	}
	json_object_set_new(data, section_key[SEC_ARCH],
	    architecture(sec[SEC_ARCH]));
	for (size_t k = 1; k < N_SECTIONS; k++)
		json_object_set_new(data, section_key[k], sec[k]);
	strbuf_free(&notes);
}

/* The overview's data: every fact of the project, in SPEC 5's order. */
static json_t *
overview_json(const struct site_model *m, size_t i,
    const struct site_graph *g)
{
	const struct project_facts *f = g->f;
	json_t *data = json_object(), *inactive = json_array();
	json_t *memories = json_array(), *gaps = json_array();

	json_object_set_new(data, "project", project_header(m, i));
	json_object_set_new(data, "state_groups", state_groups(m, f,
	    inactive));
	entity_sections(data, inactive, gaps, m, g);
	for (size_t k = 0; k < f->n_mem; k++) {
		json_t *item = item_memory(m, &f->mem[k]);

		if (json_is_true(json_object_get(item, "active")))
			json_array_append_new(memories, item);
		else
			json_array_append_new(inactive, item);
	}
	json_object_set_new(data, "memories", memories);
	json_object_set_new(data, "gaps", gaps);
	json_object_set_new(data, "inactive", inactive);
	return data;
}

/* Project i's overview and its api/ JSON. Returns 0 or < 0. */
static int
overview_page(const struct page_ctx *pc, size_t i,
    const struct site_graph *g, mirror_error *err)
{
	const struct site_model *m = pc->m;
	json_t *data = overview_json(m, i, g);
	strbuf path, title;
	int rc;

	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_printf(&path, "projects/%s/index", m->pslug[i]);
	strbuf_printf(&title, "%s: overview", m->projects[i].name);
	rc = page_write(pc, path.data, "project.md", title.data, data, err);
	if (rc == 0) {
		strbuf_reset(&path);
		strbuf_printf(&path, "api/projects/%s.json", m->pslug[i]);
		rc = page_json(pc, path.data, data, err);
	}
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}

/* 1 when project i's pages were kept whole, before the render. */
static int
pc_kept(const struct page_ctx *pc, size_t i)
{
	return pc->w->kept != NULL && pc->w->kept[i];
}

/* What the pool's callbacks are handed. */
struct project_run {
	const struct page_ctx *pc;
};

/* Pool work for projects: the facts are read here, in id order. */
static int
project_load(void *arg, size_t i, void **payload, mirror_error *err)
{
	const struct site_model *m = ((struct project_run *)arg)->pc->m;
	struct project_facts *f = xcalloc(1, sizeof(*f));

	*payload = f;
	if (m->projects[i].id[0] == '\0')
		return 0;           /* the no-project group is on the index */
	if (pc_kept(((struct project_run *)arg)->pc, i))
		return 0;           /* its pages stay (site.c's plan) */
	return facts_read_project(f, m->facts, m->projects[i].id, err);
}

/* On a worker: project i's overview, decision log and subsystems. */
static int
project_render(void *arg, size_t i, void *payload, mirror_error *err)
{
	const struct page_ctx *pc = ((struct project_run *)arg)->pc;
	struct site_graph g;
	int rc;

	if (pc->m->projects[i].id[0] == '\0' || pc_kept(pc, i))
		return 0;
	graph_init(&g, payload);
	rc = overview_page(pc, i, &g, err);
	if (rc == 0)
		rc = decision_page(pc, i, payload, err);
	if (rc == 0)
		rc = subsystem_pages(pc, i, &g, err);
	graph_free(&g);
	return rc;
}

static void
project_drop(void *payload)
{
	if (payload != NULL)
		facts_free(payload);
	free(payload);
}

/* One project done, on the progress line. */
static void
project_done(void *arg)
{
	page_item(((struct project_run *)arg)->pc);
}

int
project_pages(const struct page_ctx *pc, mirror_error *err)
{
	struct project_run run = { pc };
	const struct pool_work work = { pc->m->n_projects, project_load,
	    project_render, project_drop, &run, project_done, &run };

	/* How many pages a project has is known only once its facts are
	 * loaded, so this phase counts projects. */
	page_phase(pc, "projects", pc->m->n_projects, 0);
	return pool_run(&work, err);
}
