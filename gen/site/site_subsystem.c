/*
 * site_subsystem.c: projects/<slug>/subsystems, every subsystem entity
 * of a project on one page, each a section: its components (part_of /
 * contains edges, or a component whose "subsystem" property names it),
 * the materials they use, the interfaces of the subsystem and its
 * components, the requirements and constraints on them, and the
 * decisions affecting them (affected_by_decision edges, or a decision
 * whose target names them).
 * Every entity appears once in a section, in the first list that claims
 * it. One page per project rather than one per subsystem keeps a large
 * site within the file counts static hosts allow.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "site/items.h"
#include "site/site_subsystem.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum list { L_COMP, L_MAT, L_IFACE, L_REQ, L_DEC, N_LISTS };
static const char *const list_key[N_LISTS] = { "components", "materials",
    "interfaces", "requirements", "decisions" };

struct sub {
	const struct site_model *m;
	const struct site_graph *g;
	char *seen;              /* per entity index: already listed */
	size_t *members;         /* the subsystem and its components */
	size_t n_members, cap_members;
	json_t *lists[N_LISTS];
	enum list want;          /* the list add_other fills */
};

static void
add(struct sub *b, const struct fact_entity *e, enum list l)
{
	size_t k = (size_t)(e - b->g->f->ent);

	if (b->seen[k])
		return;
	b->seen[k] = 1;
	json_array_append_new(b->lists[l], item_entity(b->m, e));
	if (l == L_COMP)
		ARRAY_PUSH(b->members, b->n_members, b->cap_members) = k;
}

/* graph_each callback: list the entity at the other end. */
static void
add_other(const char *other, void *arg)
{
	struct sub *b = arg;
	const struct fact_entity *e = graph_entity(b->g, other);
	enum list l = b->want;

	if (e == NULL)
		return;
	if (l == L_COMP && strcmp(e->type, "interface") == 0)
		l = L_IFACE;
	if (l == L_REQ && strcmp(e->type, "requirement") != 0 &&
	    strcmp(e->type, "constraint") != 0)
		return;
	if (l == L_DEC && strcmp(e->type, "decision") != 0)
		return;
	add(b, e, l);
}

static void
each(struct sub *b, const char *id, const char *type, int out, enum list l)
{
	b->want = l;
	graph_each(b->g, id, type, out, add_other, b);
}

static int
names(const struct fact_entity *e, const char *key, const char *name)
{
	char buf[64];

	return strcasecmp(item_prop(e, key, buf, sizeof(buf)), name) == 0;
}

json_t *
subsystem_place(const char *pslug, const char *slug)
{
	strbuf page, anchor;
	json_t *o;

	strbuf_init(&page);
	strbuf_init(&anchor);
	strbuf_printf(&page, "projects/%s/" SUBSYSTEMS_PAGE, pslug);
	strbuf_printf(&anchor, "sub-%s", slug);
	o = json_pack("{s:s, s:s}", "page", page.data, "anchor", anchor.data);
	strbuf_free(&page);
	strbuf_free(&anchor);
	return o;
}

/* Fill b's lists with what belongs to the subsystem sub: its components,
 * then what they use, interface, are constrained by and are affected
 * by. */
static void
gather(struct sub *b, const struct fact_entity *sub)
{
	const struct project_facts *f = b->g->f;

	b->seen[sub - f->ent] = 1;
	ARRAY_PUSH(b->members, b->n_members, b->cap_members) =
	    (size_t)(sub - f->ent);
	each(b, sub->id, "part_of", 0, L_COMP);
	each(b, sub->id, "contains", 1, L_COMP);
	for (size_t k = 0; k < f->n_ent; k++)
		if (strcmp(f->ent[k].type, "component") == 0 &&
		    names(&f->ent[k], "subsystem", sub->name))
			add(b, &f->ent[k], L_COMP);
	/* members grows while L_COMP items are added; none are below. */
	for (size_t k = 0; k < b->n_members; k++) {
		const char *id = f->ent[b->members[k]].id;

		each(b, id, "uses_material", 1, L_MAT);
		each(b, id, "interfaces_with", 1, L_IFACE);
		each(b, id, "interfaces_with", 0, L_IFACE);
		each(b, id, "constrained_by", 1, L_REQ);
		each(b, id, "satisfies", 1, L_REQ);
		each(b, id, "affected_by_decision", 1, L_DEC);
	}
	for (size_t k = 0; k < f->n_ent; k++) {
		const struct fact_entity *e = &f->ent[k];

		if ((strcmp(e->type, "requirement") == 0 ||
		    strcmp(e->type, "constraint") == 0) &&
		    names(e, "target", sub->name))
			add(b, e, L_REQ);
		else if (strcmp(e->type, "decision") == 0 &&
		    names(e, "target", sub->name))
			add(b, e, L_DEC);
	}
}

/* The section of subsystem sub of project i: "anchor", "subsystem" (a
 * fact item) and its lists. Returns a new reference. */
static json_t *
section(const struct site_model *m, size_t i, const struct site_graph *g,
    const struct fact_entity *sub)
{
	struct sub b = { .m = m, .g = g, .want = L_COMP };
	json_t *item = item_entity(m, sub), *place, *data;

	b.seen = xcalloc(g->f->n_ent + 1, 1);
	for (int l = 0; l < N_LISTS; l++)
		b.lists[l] = json_array();
	gather(&b, sub);
	place = subsystem_place(m->pslug[i],
	    json_string_value(json_object_get(item, "slug")));
	data = json_pack("{s:O, s:o}", "anchor", json_object_get(place,
	    "anchor"), "subsystem", item);
	for (int l = 0; l < N_LISTS; l++)
		json_object_set_new(data, list_key[l], b.lists[l]);
	json_decref(place);
	free(b.seen);
	free(b.members);
	return data;
}

int
subsystem_pages(const struct page_ctx *pc, size_t i,
    const struct site_graph *g, mirror_error *err)
{
	const struct site_model *m = pc->m;
	const struct project_facts *f = g->f;
	json_t *subs = json_array(), *data;
	strbuf path, title;
	int rc;

	for (size_t k = 0; k < f->n_ent; k++)
		if (strcmp(f->ent[k].type, "subsystem") == 0)
			json_array_append_new(subs, section(m, i, g,
			    &f->ent[k]));
	if (json_array_size(subs) == 0) {
		json_decref(subs);
		return 0;
	}
	data = json_pack("{s:{s:s, s:s, s:s}, s:o, s:o}", "project", "id",
	    m->projects[i].id, "name", m->projects[i].name, "slug",
	    m->pslug[i], "count_words", item_count((long long)
	    json_array_size(subs), "subsystem", "subsystems"),
	    "subsystems", subs);
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_printf(&path, "projects/%s/" SUBSYSTEMS_PAGE, m->pslug[i]);
	strbuf_printf(&title, "%s: subsystems", m->projects[i].name);
	/* HTML only: it regroups the overview's facts, whose change a
	 * reviewer reads there; a Markdown twin repeated it in the diff. */
	rc = page_write_figures(pc, &(struct page_doc){ .path = path.data,
	    .tname = "subsystems.md", .title = title.data, .data = data,
	    .html_only = 1 }, err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}
