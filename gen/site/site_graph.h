/*
 * site_graph.h: lookups over one project's entities and relationships
 * (by id, edges by source or target), so pages that walk the graph stay
 * O(n log n) in the size of the project.
 */
#ifndef MIRROR_SITE_GRAPH_H
#define MIRROR_SITE_GRAPH_H

#include <stddef.h>

#include <jansson.h>

#include "site/model.h"
#include "store/facts.h"

struct site_graph {
	const struct project_facts *f;
	const char *page;    /* the page that shows the links, from the
	                        site's root without extension */
	size_t *by_id;       /* entity indexes sorted by id */
	size_t *by_source;   /* relationship indexes sorted by source, type */
	size_t *by_target;   /* relationship indexes sorted by target, type */
};

/* Build the indexes over f (which must outlive g), whose links page
 * shows (url_project_page's path, which must outlive g too). Never
 * fails. */
void graph_init(struct site_graph *g, const struct project_facts *f,
    const char *page);
void graph_free(struct site_graph *g);

/* The entity with id, or NULL (an edge into another project). */
const struct fact_entity *graph_entity(const struct site_graph *g,
    const char *id);

/* The name of entity id: of the project's, else of a far end (another
 * project's, or none), else id itself (no entity has it). */
const char *graph_name(const struct site_graph *g, const char *id);

/*
 * Call fn(other_entity_id, arg) for every relationship of type whose
 * source (outgoing) or target (!outgoing) is id, in the order of the
 * other end's id. Returns the number of calls.
 */
size_t graph_each(const struct site_graph *g, const char *id,
    const char *type, int outgoing,
    void (*fn)(const char *other, void *arg), void *arg);

/*
 * The relationships of entity id in and out, by type, as ids: {"out":
 * {TYPE: [target id, ...]}, "in": {TYPE: [source id, ...]}} (each
 * list in the order of the other end's id). A new reference.
 */
json_t *graph_links(const struct site_graph *g, const char *id);

/*
 * The links of e as the overview lists them, or NULL when e has none:
 * {"anchor", "label", "type", "status", "groups"}, each group one type
 * and one direction ({"type", "family", "direction", "words", "ends"}),
 * families in the store contract's order (structural, intent,
 * validation, provenance, material), unknown types after them by name,
 * out before in. Each end names the entity at the other end and where
 * it is shown, its open conflict in m, and on a "superseded by" end
 * the supersede chain from it (site.md, "Links"). A new reference.
 */
json_t *graph_linked(const struct site_graph *g, const struct site_model *m,
    const struct fact_entity *e);

/*
 * The relationships of entity e, shown as item (its fact item): as ids
 * on item ("links", graph_links), and as graph_linked's entry appended
 * to linked when it has any.
 */
void graph_entity_links(json_t *item, json_t *linked,
    const struct site_model *m, const struct site_graph *g,
    const struct fact_entity *e);

#endif
