/*
 * site_graph.c: sorted indexes over a project's entities and edges.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/slug.h"
#include "site/items.h"
#include "site/site_graph.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/jsonbuild.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* array_sort order of two indexes into the entities of the project's
 * facts f: by id. */
static int
cmp_ent(const void *a, const void *b, const void *f)
{
	const struct project_facts *pf = f;
	const struct fact_entity *x = &pf->ent[*(const size_t *)a];
	const struct fact_entity *y = &pf->ent[*(const size_t *)b];

	return strcmp(x->id, y->id);
}

/* array_sort order of two indexes into the relationships of f: by
 * source, type, target, then id. */
static int
cmp_src(const void *a, const void *b, const void *f)
{
	const struct project_facts *pf = f;
	const struct fact_rel *x = &pf->rel[*(const size_t *)a];
	const struct fact_rel *y = &pf->rel[*(const size_t *)b];
	int c = strcmp(x->source, y->source);

	if (c == 0)
		c = strcmp(x->type, y->type);
	if (c == 0)
		c = strcmp(x->target, y->target);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* array_sort order of two indexes into the relationships of f: by
 * target, type, source, then id. */
static int
cmp_tgt(const void *a, const void *b, const void *f)
{
	const struct project_facts *pf = f;
	const struct fact_rel *x = &pf->rel[*(const size_t *)a];
	const struct fact_rel *y = &pf->rel[*(const size_t *)b];
	int c = strcmp(x->target, y->target);

	if (c == 0)
		c = strcmp(x->type, y->type);
	if (c == 0)
		c = strcmp(x->source, y->source);
	return c != 0 ? c : strcmp(x->id, y->id);
}

void
graph_init(struct site_graph *g, const struct project_facts *f,
    const char *page)
{
	g->f = f;
	g->page = page;
	g->by_id = xcalloc(f->n_ent + 1, sizeof(size_t));
	g->by_source = xcalloc(f->n_rel + 1, sizeof(size_t));
	g->by_target = xcalloc(f->n_rel + 1, sizeof(size_t));
	for (size_t i = 0; i < f->n_ent; i++)
		g->by_id[i] = i;
	for (size_t i = 0; i < f->n_rel; i++)
		g->by_source[i] = g->by_target[i] = i;
	array_sort(g->by_id, f->n_ent, sizeof(size_t), cmp_ent, f);
	array_sort(g->by_source, f->n_rel, sizeof(size_t), cmp_src, f);
	array_sort(g->by_target, f->n_rel, sizeof(size_t), cmp_tgt, f);
}

void
graph_free(struct site_graph *g)
{
	free(g->by_id);
	free(g->by_source);
	free(g->by_target);
	memset(g, 0, sizeof(*g));
}

/* array_find order of an id (key) and an index into the entities of
 * f. */
static int
cmp_ent_key(const void *key, const void *e, const void *f)
{
	const struct project_facts *pf = f;

	return strcmp(*(const char *const *)key,
	    pf->ent[*(const size_t *)e].id);
}

const struct fact_entity *
graph_entity(const struct site_graph *g, const char *id)
{
	size_t at = array_find(&id, g->by_id, g->f->n_ent, sizeof(size_t),
	    cmp_ent_key, g->f);

	return at != ARRAY_NONE ? &g->f->ent[g->by_id[at]] : NULL;
}

/* What graph_each looks for: the edges of id of type, from or to it. */
struct edge_key {
	const char *id, *type;
	int outgoing;
};

/* array_lower order of an edge_key (key) and an index into the
 * relationships of f (by source or by target, as the key's way). */
static int
cmp_edge_key(const void *key, const void *e, const void *f)
{
	const struct edge_key *k = key;
	const struct fact_rel *r =
	    &((const struct project_facts *)f)->rel[*(const size_t *)e];
	int c = strcmp(k->id, k->outgoing ? r->source : r->target);

	return c != 0 ? c : strcmp(k->type, r->type);
}

size_t
graph_each(const struct site_graph *g, const char *id, const char *type,
    int outgoing, void (*fn)(const char *other, void *arg), void *arg)
{
	const size_t *ix = outgoing ? g->by_source : g->by_target;
	struct edge_key key = { id, type, outgoing };
	size_t calls = 0;

	/* From the first edge whose (end, type) is not below (id, type). */
	for (size_t lo = array_lower(&key, ix, g->f->n_rel, sizeof(*ix),
	    cmp_edge_key, g->f); lo < g->f->n_rel; lo++) {
		const struct fact_rel *r = &g->f->rel[ix[lo]];

		if (strcmp(outgoing ? r->source : r->target, id) != 0 ||
		    strcmp(r->type, type) != 0)
			break;
		fn(outgoing ? r->target : r->source, arg);
		calls++;
	}
	return calls;
}

/* ---- the links of an entity, for the pages --------------------------- */

/* The relationship types of the store contract, by family, in the order
 * pages list them, with their direction in words (out: "A part of B"
 * on A's side; in: "B has part A" on B's side). */
static const struct link_type {
	const char *type, *family, *out, *in;
} link_types[] = {
	{ "contains", "structural", "contains", "contained in" },
	{ "part_of", "structural", "part of", "has part" },
	{ "interfaces_with", "structural", "interfaces with",
	  "interfaced by" },
	{ "satisfies", "intent", "satisfies", "satisfied by" },
	{ "constrained_by", "intent", "constrained by", "constrains" },
	{ "affected_by_decision", "intent", "affected by decision",
	  "affects" },
	{ "based_on_assumption", "intent", "based on assumption",
	  "assumption of" },
	{ "supersedes", "intent", "supersedes", "superseded by" },
	{ "analyzed_by", "validation", "analyzed by", "analyzes" },
	{ "validated_by", "validation", "validated by", "validates" },
	{ "supports", "validation", "supports", "supported by" },
	{ "conflicts_with", "validation", "conflicts with",
	  "in conflict with" },
	{ "depends_on", "validation", "depends on", "needed by" },
	{ "described_by", "provenance", "described by", "describes" },
	{ "updated_by_session", "provenance", "updated by session",
	  "updated" },
	{ "evidenced_by", "provenance", "evidenced by", "evidence for" },
	{ "summarized_in", "provenance", "summarized in", "summarizes" },
	{ "uses_material", "material", "uses material", "used by" },
};
#define N_LINK_TYPES (sizeof(link_types) / sizeof(*link_types))

/* How far a supersede chain is followed. */
#define CHAIN_MAX 64

/* The rank of type in link_types, N_LINK_TYPES for one it lacks. */
static size_t
type_rank(const char *type)
{
	size_t k = 0;

	while (k < N_LINK_TYPES && strcmp(link_types[k].type, type) != 0)
		k++;
	return k;
}

/* The far end with id in g's project's facts, or NULL. */
static const struct fact_far *
graph_far(const struct site_graph *g, const char *id)
{
	size_t at = byid_sorted(g->f->far, g->f->n_far, sizeof(*g->f->far),
	    offsetof(struct fact_far, id), id);

	return at != BYID_NONE ? &g->f->far[at] : NULL;
}

const char *
graph_name(const struct site_graph *g, const char *id)
{
	const struct fact_entity *e = graph_entity(g, id);
	const struct fact_far *far = e == NULL ? graph_far(g, id) : NULL;

	return e != NULL ? e->name : far != NULL ? far->name : id;
}

/* Into *lo and *hi the edges of ix (by_source or by_target) whose
 * source (outgoing) or target is id. */
static void
edge_range(const struct site_graph *g, const char *id, int outgoing,
    size_t *lo, size_t *hi)
{
	const size_t *ix = outgoing ? g->by_source : g->by_target;
	size_t a = 0, b = g->f->n_rel;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		const struct fact_rel *r = &g->f->rel[ix[mid]];

		if (strcmp(outgoing ? r->source : r->target, id) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	for (b = a; b < g->f->n_rel; b++) {
		const struct fact_rel *r = &g->f->rel[ix[b]];

		if (strcmp(outgoing ? r->source : r->target, id) != 0)
			break;
	}
	*hi = b;
}

/* One edge of an entity as the links list it. */
struct edge_ref {
	size_t rank;            /* type_rank of its type */
	int in;                 /* 0: out (the entity is its source) */
	size_t pos;             /* in its index, so equal keys keep order */
	const struct fact_rel *r;
};

static int
cmp_edge(const void *a, const void *b)
{
	const struct edge_ref *x = a, *y = b;
	int c;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->r->type, y->r->type)) != 0)
		return c;
	if (x->in != y->in)
		return x->in - y->in;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* 0 when x and y belong to one group: one type, one direction. */
static int
cmp_edge_group(const struct edge_ref *x, const struct edge_ref *y)
{
	return x->in != y->in || strcmp(x->r->type, y->r->type) != 0;
}

/* The edges of entity id, out and in, in the links' order, into *out
 * (caller frees). Returns how many. */
static size_t
entity_edges(struct edge_ref **out, const struct site_graph *g,
    const char *id)
{
	size_t lo[2], hi[2], n = 0;

	edge_range(g, id, 1, &lo[0], &hi[0]);
	edge_range(g, id, 0, &lo[1], &hi[1]);
	*out = xcalloc(hi[0] - lo[0] + hi[1] - lo[1] + 1, sizeof(**out));
	for (int in = 0; in < 2; in++) {
		const size_t *ix = in ? g->by_target : g->by_source;

		for (size_t k = lo[in]; k < hi[in]; k++) {
			const struct fact_rel *r = &g->f->rel[ix[k]];

			(*out)[n++] = (struct edge_ref){ type_rank(r->type), in,
			    k, r };
		}
	}
	qsort(*out, n, sizeof(**out), cmp_edge);
	return n;
}

json_t *
graph_links(const struct site_graph *g, const char *id)
{
	json_t *dir[2] = { json_object(), json_object() };
	struct edge_ref *v;
	size_t n = entity_edges(&v, g, id);

	for (size_t k = 0; k < n; k++) {
		const struct fact_rel *r = v[k].r;
		json_t *list = json_object_get(dir[v[k].in], r->type);

		if (list == NULL) {
			list = json_array();
			json_object_set_new(dir[v[k].in], r->type, list);
		}
		json_array_append_new(list, json_string(v[k].in ? r->source :
		    r->target));
	}
	free(v);
	return json_pack("{s:o, s:o}", "out", dir[0], "in", dir[1]);
}

/* What the page says of an end beside its name: its project when that
 * is another, its status when not active, or that no entity has id. */
static json_t *
end_note(const char *project, const char *status, int missing)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	if (missing)
		strbuf_puts(&sb, "not in the store");
	if (project != NULL && project[0] != '\0')
		strbuf_printf(&sb, "in %s", project);
	if (status != NULL && strcmp(status, "active") != 0)
		strbuf_printf(&sb, "%s%s", sb.len > 0 ? ", " : "", status);
	v = json_string(sb.data != NULL ? sb.data : "");
	strbuf_free(&sb);
	return v;
}

/* The link from g's page to entity id's row on the overview of project
 * (a project's id, "" for the index's), url_from's; null for project
 * NULL (the entity is on g's page, or nowhere). A new string. */
static json_t *
end_link(const struct site_graph *g, const char *project, const char *id)
{
	char ps[SLUG_SIZE], es[SLUG_SIZE];
	strbuf sb;
	json_t *v;

	if (project == NULL)
		return json_null();
	/* No project: the index, url_project_page's "". */
	ps[0] = '\0';
	if (project[0] != '\0')
		slug_make(ps, project);
	slug_make(es, id);
	strbuf_init(&sb);
	url_from_to(&sb, g->page, url_project_page, ps);
	strbuf_printf(&sb, ".md#%s-%s", item_layer_name(LAYER_ENTITY), es);
	v = json_stringn(sb.data, sb.len);
	strbuf_free(&sb);
	return v;
}

/*
 * The other end id of an edge (rel: the edge's id, or NULL) as the
 * links show it: its name, where it is shown (here on the page, on the
 * overview of its project, on the index, or nowhere when no entity has
 * id), its open conflict, and "chain": null. Lean, as there is one per
 * edge and side: the template makes anchors and slugs from the ids.
 */
static json_t *
end_json(const struct site_graph *g, const struct site_model *m,
    const char *id, const char *rel)
{
	const struct fact_entity *e = graph_entity(g, id);
	const struct fact_far *far = e == NULL ? graph_far(g, id) : NULL;
	const char *project = far != NULL ? far->project : NULL;
	const char *status = e != NULL ? e->status : far != NULL ?
	    far->status : NULL;
	const char *name = e != NULL ? e->name : far != NULL ? far->name :
	    NULL;
	const char *c = model_marker_of(m, LAYER_ENTITY, id);
	int missing = e == NULL && far == NULL;
	struct jbuild b;

	jb_init(&b);
	jb_str(&b, "id", id);
	jb_str_or_null(&b, "rel", rel);
	jb_str_or_null(&b, "name", name);
	jb_str_or_null(&b, "status", status);
	jb_str_or_null(&b, "project", project);
	jb_bool(&b, "here", e != NULL);
	jb_bool(&b, "on_index", project != NULL && project[0] == '\0');
	jb_bool(&b, "missing", missing);
	jb_take(&b, "note", end_note(project, status, missing));
	jb_str_or_null(&b, "conflict", c);
	jb_take(&b, "conflict_page", item_conflict_page(c));
	jb_take(&b, "link", end_link(g, project, id));
	jb_take(&b, "chain", json_null());
	return item_must(jb_done(&b), "relationship end", id);
}

/* The first entity that supersedes id among g's edges (by its id), or
 * NULL. */
static const char *
successor(const struct site_graph *g, const char *id)
{
	size_t lo, hi;

	edge_range(g, id, 0, &lo, &hi);
	for (size_t k = lo; k < hi; k++) {
		const struct fact_rel *r = &g->f->rel[g->by_target[k]];

		if (strcmp(r->type, "supersedes") == 0)
			return r->source;
	}
	return NULL;
}

/*
 * The supersede chain from start, the entity that supersedes the one
 * whose links these are: each step the first entity that supersedes
 * the last, until one that nothing supersedes (the head), one outside
 * the project (its successors are on its own page: "leaves"), one met
 * before (a cycle, listed from where it closes) or CHAIN_MAX steps
 * ("cut"). NULL when start is the head itself.
 */
static json_t *
chain_json(const struct site_graph *g, const struct site_model *m,
    const char *start)
{
	const char *path[CHAIN_MAX + 1];
	size_t n = 0, cycle = SIZE_MAX;
	int leaves = 0, cut = 0;
	json_t *now = json_array(), *ring = json_array();

	for (const char *cur = start, *next;; cur = next) {
		path[n++] = cur;
		if (graph_entity(g, cur) == NULL) {
			leaves = 1;
			break;
		}
		if ((next = successor(g, cur)) == NULL)
			break;
		for (size_t k = 0; k < n && cycle == SIZE_MAX; k++)
			if (strcmp(path[k], next) == 0)
				cycle = k;
		if (cycle != SIZE_MAX || (cut = n == CHAIN_MAX + 1))
			break;
	}
	if (n == 1 && cycle == SIZE_MAX) {
		json_decref(now);
		json_decref(ring);
		return json_null();
	}
	if (cycle == SIZE_MAX)
		json_array_append_new(now, end_json(g, m, path[n - 1], NULL));
	for (size_t k = cycle; cycle != SIZE_MAX && k <= n; k++)
		json_array_append_new(ring, end_json(g, m, path[k < n ? k :
		    cycle], NULL));
	return item_must(json_pack("{s:o, s:o, s:I, s:b, s:b}", "now", now,
	    "cycle", ring, "steps", (json_int_t)(n - 1), "cut", cut,
	    "leaves", leaves), "supersede chain of", start);
}

/* A group of the links: one type, one direction, its ends. */
static json_t *
link_group(const struct edge_ref *v)
{
	const struct link_type *t = v->rank < N_LINK_TYPES ?
	    &link_types[v->rank] : NULL;
	json_t *words;
	strbuf sb;

	strbuf_init(&sb);
	if (t != NULL)
		strbuf_puts(&sb, v->in ? t->in : t->out);
	else
		strbuf_printf(&sb, "%s%s", v->in ? "\xe2\x86\x90 " : "",
		    v->r->type);     /* U+2190 leftwards arrow */
	words = json_string(sb.data);
	strbuf_free(&sb);
	return item_must(json_pack("{s:s, s:s, s:s, s:o, s:[]}",
	    "type", v->r->type, "family", t != NULL ? t->family : "other",
	    "direction", v->in ? "in" : "out", "words", words, "ends"),
	    "relationship", v->r->id);
}

json_t *
graph_linked(const struct site_graph *g, const struct site_model *m,
    const struct fact_entity *e)
{
	struct edge_ref *v;
	size_t n = entity_edges(&v, g, e->id);
	json_t *groups = json_array(), *group = NULL;

	for (size_t k = 0; k < n; k++) {
		const char *other = v[k].in ? v[k].r->source : v[k].r->target;
		json_t *end = end_json(g, m, other, v[k].r->id);

		if (k == 0 || cmp_edge_group(&v[k - 1], &v[k]) != 0) {
			group = link_group(&v[k]);
			json_array_append_new(groups, group);
		}
		if (v[k].in && strcmp(v[k].r->type, "supersedes") == 0)
			json_object_set_new(end, "chain", chain_json(g, m,
			    other));
		json_array_append_new(json_object_get(group, "ends"), end);
	}
	free(v);
	if (n == 0) {
		json_decref(groups);
		return NULL;
	}
	return item_must(json_pack("{s:o, s:s, s:s, s:s, s:o, s:o}",
	    "anchor", item_anchor("entity", e->id), "label", e->name[0] !=
	    '\0' ? e->name : e->id, "type", e->type, "status", e->status,
	    "note", end_note(NULL, e->status, 0), "groups", groups),
	    "entities row", e->id);
}

void
graph_entity_links(json_t *item, json_t *linked, const struct site_model *m,
    const struct site_graph *g, const struct fact_entity *e)
{
	json_t *entry = graph_linked(g, m, e);

	json_object_set_new(item, "links", graph_links(g, e->id));
	if (entry != NULL)
		json_array_append_new(linked, entry);
}
