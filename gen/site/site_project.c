/*
 * site_project.c: projects/<slug>/index, the project overview, and
 * api/projects/<slug>.json (the project and its facts, a row each).
 *
 * Sections in SPEC 5's order: header, trusted state by category,
 * system architecture, decisions, requirements and constraints,
 * materials, parameters/results/validation, vendors, active memories,
 * gaps (the project's open violations of the rules); then (not in the
 * SPEC list, so that every fact of the project has an anchor to link to) other entities and the facts that are not
 * active. Each fact appears exactly once on the page.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/diagram.h"
#include "render/markdown.h"
#include "site/items.h"
#include "site/site_conflicts.h"
#include "site/site_parts.h"
#include "site/site_graph.h"
#include "site/site_index.h"
#include "site/site_project.h"
#include "sys/pool.h"
#include "util/array.h"
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

	strbuf_puts(nm->sb, nm->n++ ? ", " : "");
	strbuf_puts(nm->sb, graph_name(nm->g, other));
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
 * satisfies a requirement. (What is missing is the rules' to say: the
 * overview's Gaps are the project's open violations.)
 */
static void
entity_notes(strbuf *sb, const struct site_graph *g,
    const struct fact_entity *e)
{
	const char *t = e->type;

	if (strcmp(t, "subsystem") == 0 || strcmp(t, "component") == 0 ||
	    strcmp(t, "system") == 0 || strcmp(t, "interface") == 0) {
		if (edge_note(sb, g, e->id, "part_of", 1, "part of") == 0 &&
		    edge_note(sb, g, e->id, "contains", 0, "part of") == 0)
			prop_note(sb, e, strcmp(t, "component") == 0 ?
			    "subsystem" : "part_of", "part of");
		if (edge_note(sb, g, e->id, "uses_material", 1,
		    "material") == 0)
			prop_note(sb, e, "material", "material");
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
		edge_note(sb, g, e->id, "satisfies", 0, "satisfied by");
	} else if (strcmp(t, "validation_claim") == 0) {
		edge_note(sb, g, e->id, "supports", 0, "supported by");
	} else if (strcmp(t, "material") == 0) {
		edge_note(sb, g, e->id, "uses_material", 0, "used by");
	} else if (strcmp(t, "result") == 0) {
		prop_note(sb, e, "model", "model");
	}
}

/* An entity's source_refs as one line: the strings of an array joined
 * by ", ", a string as it is, anything else as compact JSON. */
static json_t *
sources_text(const json_t *refs)
{
	strbuf sb;
	json_t *v, *out;
	size_t k;

	if (json_is_string(refs))
		return json_string(json_string_value(refs));
	strbuf_init(&sb);
	if (json_is_array(refs)) {
		json_array_foreach(refs, k, v) {
			char *text = json_is_string(v) ? NULL : json_dumps(v,
			    JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);

			strbuf_puts(&sb, k > 0 ? ", " : "");
			strbuf_puts(&sb, text != NULL ? text :
			    json_is_string(v) ? json_string_value(v) : "?");
			free(text);
		}
	} else if (refs != NULL && !json_is_null(refs)) {
		char *text = json_dumps(refs, JSON_COMPACT | JSON_ENCODE_ANY |
		    JSON_SORT_KEYS);

		strbuf_puts(&sb, text != NULL ? text : "?");
		free(text);
	}
	out = json_string(sb.data != NULL ? sb.data : "");
	strbuf_free(&sb);
	return out;
}

/*
 * The open conflicts of project i, in the review queue's order: each
 * id, slug, question (the conflict page's), slot and sides (in words,
 * without the project) and statement (conflict_statement_json), for
 * "Disputed here".
 */
static json_t *
open_conflicts(const struct site_model *m, size_t i)
{
	json_t *out = json_array();

	for (size_t k = m->open_of.start[i]; k < m->open_of.start[i + 1];
	    k++) {
		const struct conflict *c = &m->conflicts.items[
		    m->open_of.ord[k]];
		char slug[SLUG_SIZE];

		json_t *o = conflict_said_json(m, c);

		slug_make(slug, c->id);
		json_object_set_new(o, "id", json_string(c->id));
		json_object_set_new(o, "slug", json_string(slug));
		json_object_set_new(o, "page", item_conflict_page(c->id));
		json_object_set_new(o, "question", json_string(
		    conflict_question(m, c, 0)));
		/* Said in the one form of a conflict (doc/site.md,
		 * "Conflicts in words"). */
		json_object_set_new(o, "statement",
		    conflict_statement_json(c, 1));
		json_array_append_new(out, o);
	}
	return out;
}

/* What the "Not active" table says of a fact: its kind in words
 * ("trusted state: decision", "component", "memory") and its
 * status, "expired" for an expired memory that is otherwise active. */
static void
inactive_words(json_t *item)
{
	const char *layer = json_string_value(json_object_get(item, "layer"));
	const char *status = json_string_value(json_object_get(item,
	    "status"));
	int expired = json_is_true(json_object_get(item, "expired"));
	strbuf sb;

	strbuf_init(&sb);
	if (strcmp(layer, "state") == 0)
		strbuf_printf(&sb, "trusted state: %s", json_string_value(
		    json_object_get(item, "category")));
	else if (strcmp(layer, "entity") == 0)
		strbuf_puts(&sb, json_string_value(json_object_get(item,
		    "type")));
	else
		strbuf_puts(&sb, "memory");    /* its label is its type */
	json_object_set_new(item, "kind", json_string(sb.data));
	strbuf_reset(&sb);
	if (expired && strcmp(status, "active") == 0)
		strbuf_puts(&sb, "expired");
	else
		strbuf_printf(&sb, "%s%s", status, expired ? ", expired" : "");
	json_object_set_new(item, "status_words", json_string(sb.data));
	strbuf_free(&sb);
}

static json_t *
project_header(const struct site_model *m, size_t i)
{
	const struct fact_project *p = &m->projects[i];
	json_t *aliases = json_array();

	for (size_t k = 0; k < p->n_aliases; k++)
		json_array_append_new(aliases, json_string(p->aliases[k]));
	json_t *o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:o, s:b, "
	    "s:I, s:I, s:I}",
	    "id", p->id, "name", p->name, "slug", m->pslug[i],
	    "description", p->description, "aliases", aliases,
	    "listed", p->listed, "state_rows", (json_int_t)p->n_state,
	    "entity_rows", (json_int_t)p->n_entities,
	    "memory_rows", (json_int_t)p->n_memories), "project", p->id);
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%lld trusted state fact%s, %lld entit%s, "
	    "%lld memor%s", (long long)p->n_state, p->n_state == 1 ? "" :
	    "s", (long long)p->n_entities, p->n_entities == 1 ? "y" : "ies",
	    (long long)p->n_memories, p->n_memories == 1 ? "y" : "ies");
	json_object_set_new(o, "rows", json_string(sb.data));
	strbuf_free(&sb);
	return o;
}

/* The trusted state, grouped by category in the SPEC's order. */
static json_t *
state_groups(const struct site_model *m, const struct project_facts *f,
    json_t *inactive)
{
	json_t *groups = json_array(), *rest = json_array();
	/* Each row's place in category_order (N_CATEGORIES: none), found
	 * once: the groups below walk the rows once a category. */
	unsigned char *cat = xmalloc(f->n_state + 1);

	for (size_t k = 0; k < f->n_state; k++) {
		cat[k] = N_CATEGORIES;
		for (size_t j = 0; j < N_CATEGORIES; j++)
			if (strcmp(f->state[k].category, category_order[j]) ==
			    0) {
				cat[k] = (unsigned char)j;
				break;
			}
	}
	for (size_t c = 0; c <= N_CATEGORIES; c++) {
		json_t *items = json_array();
		const char *name = c < N_CATEGORIES ? category_order[c] : NULL;

		for (size_t k = 0; k < f->n_state; k++) {
			const struct fact_state *st = &f->state[k];

			if (cat[k] != c)
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
	free(cat);
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

/* The picture's limits: deeper nodes are drawn one level up, and the
 * nodes after the first DIAGRAM_NODES (in pre-order) are left out. */
#define DIAGRAM_DEPTH 5
#define DIAGRAM_NODES 200

/* A node's key (its entity's id or name) for lookups. */
struct node_key {
	const char *key;
	size_t k;
};

/* The tree of a project's systems, subsystems and components. */
struct tree {
	const struct site_model *m;
	const struct site_graph *g;
	json_t *items;            /* the architecture items, in order */
	size_t n;                 /* the first n of them are tree nodes */
	const struct fact_entity **ent;   /* per node */
	struct node_key *by_id, *by_name; /* sorted */
	size_t *parent;           /* per node, SIZE_MAX for a root */
	size_t self;              /* the node parent_edge asks about */
	size_t found;             /* what parent_edge found */
	const char *conflict;     /* what other_conflict found */
};

static int
cmp_id(const void *a, const void *b)
{
	const struct node_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : (x->k > y->k) - (x->k < y->k);
}

static int
cmp_name(const void *a, const void *b)
{
	const struct node_key *x = a, *y = b;
	int c = strcasecmp(x->key, y->key);

	return c != 0 ? c : (x->k > y->k) - (x->k < y->k);
}

/* array_lower order of an entity id or name (key) and a node_key:
 * strcmp, or strcasecmp when *by_name. */
static int
cmp_node_key(const void *key, const void *e, const void *by_name)
{
	const char *k = *(const char *const *)key;
	const struct node_key *x = e;

	return *(const int *)by_name ? strcasecmp(k, x->key) :
	    strcmp(k, x->key);
}

/* The first node (in node order) whose entity id (by_name: name, any
 * case) is key, or SIZE_MAX. */
static size_t
tree_find(const struct tree *t, const char *key, int by_name)
{
	const struct node_key *v = by_name ? t->by_name : t->by_id;
	size_t lo = array_lower(&key, v, t->n, sizeof(*v), cmp_node_key,
	    &by_name);

	if (lo < t->n && (by_name ? strcasecmp(v[lo].key, key) :
	    strcmp(v[lo].key, key)) == 0)
		return v[lo].k;
	return SIZE_MAX;
}

/* graph_each callback: the first other end that is a node. */
static void
parent_edge(const char *other, void *arg)
{
	struct tree *t = arg;
	size_t k = tree_find(t, other, 0);

	if (t->found == SIZE_MAX && k != SIZE_MAX && k != t->self)
		t->found = k;
}

/* Node k's parent: a part_of edge, a contains edge, else the node a
 * component's "subsystem" (or any node's "part_of") property names. */
static size_t
parent_of(struct tree *t, size_t k)
{
	const struct fact_entity *e = t->ent[k];
	char buf[64];
	const char *name;
	size_t q;

	t->self = k;
	t->found = SIZE_MAX;
	graph_each(t->g, e->id, "part_of", 1, parent_edge, t);
	if (t->found == SIZE_MAX)
		graph_each(t->g, e->id, "contains", 0, parent_edge, t);
	if (t->found != SIZE_MAX)
		return t->found;
	name = item_prop(e, "subsystem", buf, sizeof(buf));
	if (name[0] == '\0' || strcmp(e->type, "component") != 0)
		name = item_prop(e, "part_of", buf, sizeof(buf));
	q = name[0] != '\0' ? tree_find(t, name, 1) : SIZE_MAX;
	return q != k ? q : SIZE_MAX;
}

/* Parents for every node, any circle cut where it closes (that node
 * becomes a root), so the result is a forest. */
static void
tree_parents(struct tree *t)
{
	unsigned char *state = xcalloc(t->n + 1, 1);

	for (size_t k = 0; k < t->n; k++)
		t->parent[k] = parent_of(t, k);
	for (size_t k = 0; k < t->n; k++) {
		size_t j = k;

		while (j != SIZE_MAX && state[j] == 0) {
			state[j] = 1;
			j = t->parent[j];
		}
		if (j != SIZE_MAX && state[j] == 1)
			t->parent[j] = SIZE_MAX;
		for (j = k; j != SIZE_MAX && state[j] == 1; j = t->parent[j])
			state[j] = 2;
	}
	free(state);
}

/* A node's second line into sb: its materials, else "no material"
 * for a component, else its type. */
static void
node_detail(strbuf *sb, const struct tree *t, const struct fact_entity *e)
{
	struct names nm = { t->g, sb, 0 };
	char buf[64];
	const char *v;

	strbuf_reset(sb);
	if (graph_each(t->g, e->id, "uses_material", 1, add_name, &nm) > 0)
		return;
	v = item_prop(e, "material", buf, sizeof(buf));
	strbuf_puts(sb, v[0] != '\0' ? v : strcmp(e->type, "component") ==
	    0 ? "no material" : e->type);
}

/* graph_each callback: the first open conflict among the other ends. */
static void
other_conflict(const char *other, void *arg)
{
	struct tree *t = arg;
	const char *c = model_marker_of(t->m, LAYER_ENTITY, other);

	if (t->conflict == NULL)
		t->conflict = c;
}

/* The open conflict a node shows: its own, a material's, else that of
 * a decision affecting it; or NULL. */
static const char *
node_conflict(struct tree *t, const struct fact_entity *e)
{
	t->conflict = model_marker_of(t->m, LAYER_ENTITY, e->id);
	if (t->conflict == NULL)
		graph_each(t->g, e->id, "uses_material", 1, other_conflict, t);
	if (t->conflict == NULL)
		graph_each(t->g, e->id, "affected_by_decision", 1,
		    other_conflict, t);
	return t->conflict;
}

/* What conflict id disputes, in words: its slot's description less
 * " of PROJECT" at its end ("lateral support material"); null when m
 * has no such conflict. */
static json_t *
dispute_words(const struct site_model *m, const char *id)
{
	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];
		size_t len, plen;

		if (strcmp(c->id, id) != 0 || c->description == NULL)
			continue;
		len = strlen(c->description);
		plen = strlen(c->project);
		if (plen > 0 && len > plen + 4 && memcmp(c->description +
		    len - plen - 4, " of ", 4) == 0 && strcmp(c->description +
		    len - plen, c->project) == 0)
			len -= plen + 4;
		return json_stringn(c->description, len);
	}
	return json_null();
}

/* The diagram's node for tree node k at depth. */
static json_t *
diagram_node(struct tree *t, size_t k, size_t depth, strbuf *sb)
{
	const struct fact_entity *e = t->ent[k];
	const char *c = node_conflict(t, e);
	char slug[SLUG_SIZE];

	node_detail(sb, t, e);
	if (c != NULL)
		slug_make(slug, c);
	return item_must(json_pack("{s:O, s:s, s:s, s:I, s:s, s:o, s:o}",
	    "anchor", json_object_get(json_array_get(t->items, k), "anchor"),
	    "label", e->name, "kind", e->type,
	    "depth", (json_int_t)(depth < DIAGRAM_DEPTH ? depth :
	    DIAGRAM_DEPTH), "detail", sb->data != NULL ? sb->data : "",
	    "conflict_slug", c != NULL ? json_string(slug) : json_null(),
	    "disputed", c != NULL ? dispute_words(t->m, c) : json_null()),
	    "diagram node", e->id);
}

/*
 * Walk the forest in pre-order (roots and children in node order):
 * the diagram's nodes onto diagram (the first DIAGRAM_NODES), and
 * each node's item onto ordered.
 */
static void
tree_walk(struct tree *t, json_t *diagram, json_t *ordered)
{
	size_t *first = xcalloc(t->n + 1, sizeof(size_t));
	size_t *next = xcalloc(t->n + 1, sizeof(size_t));
	size_t *stack = xcalloc(t->n + 1, sizeof(size_t));
	size_t *depth = xcalloc(t->n + 1, sizeof(size_t));
	size_t sp = 0;
	strbuf sb;

	strbuf_init(&sb);
	for (size_t k = 0; k <= t->n; k++)
		first[k] = SIZE_MAX;
	/* Children lists in node order: built backwards. Roots hang
	 * below the virtual node t->n. */
	for (size_t k = t->n; k-- > 0;) {
		size_t q = t->parent[k] != SIZE_MAX ? t->parent[k] : t->n;

		next[k] = first[q];
		first[q] = k;
	}
	for (size_t k = first[t->n]; k != SIZE_MAX; k = next[k])
		stack[sp++] = k;
	/* The stack holds roots reversed: push in reverse order. */
	for (size_t a = 0, b = sp; b > a + 1; a++, b--) {
		size_t x = stack[a];

		stack[a] = stack[b - 1];
		stack[b - 1] = x;
	}
	while (sp > 0) {
		size_t k = stack[--sp], top = sp;

		json_array_append(ordered, json_array_get(t->items, k));
		if (json_array_size(diagram) < DIAGRAM_NODES)
			json_array_append_new(diagram, diagram_node(t, k,
			    depth[k], &sb));
		for (size_t c = first[k]; c != SIZE_MAX; c = next[c]) {
			depth[c] = depth[k] + 1;
			stack[sp++] = c;
		}
		for (size_t a = top, b = sp; b > a + 1; a++, b--) {
			size_t x = stack[a];

			stack[a] = stack[b - 1];
			stack[b - 1] = x;
		}
	}
	strbuf_free(&sb);
	free(first);
	free(next);
	free(stack);
	free(depth);
}

/*
 * The architecture items (consumed) in the tree's pre-order, interfaces
 * last; data gets "diagram" (the picture's nodes, pre-order, with depth)
 * and "diagram_more" (how many nodes the picture leaves out).
 */
static json_t *
architecture_tree(json_t *data, json_t *items, const struct site_model *m,
    const struct site_graph *g)
{
	struct tree t = { .m = m, .g = g };
	json_t *ordered = json_array(), *diagram = json_array();
	size_t total;

	t.items = architecture(items);
	total = json_array_size(t.items);
	t.ent = xcalloc(total + 1, sizeof(*t.ent));
	for (t.n = 0; t.n < total; t.n++) {
		json_t *v = json_array_get(t.items, t.n);

		if (strcmp(json_string_value(json_object_get(v, "type")),
		    "interface") == 0)
			break;
		t.ent[t.n] = graph_entity(g, json_string_value(
		    json_object_get(v, "id")));
	}
	t.by_id = xcalloc(t.n + 1, sizeof(*t.by_id));
	t.by_name = xcalloc(t.n + 1, sizeof(*t.by_name));
	t.parent = xcalloc(t.n + 1, sizeof(size_t));
	for (size_t k = 0; k < t.n; k++) {
		t.by_id[k] = (struct node_key){ t.ent[k]->id, k };
		t.by_name[k] = (struct node_key){ t.ent[k]->name, k };
	}
	qsort(t.by_id, t.n, sizeof(*t.by_id), cmp_id);
	qsort(t.by_name, t.n, sizeof(*t.by_name), cmp_name);
	tree_parents(&t);
	tree_walk(&t, diagram, ordered);
	for (size_t k = t.n; k < total; k++)
		json_array_append(ordered, json_array_get(t.items, k));
	json_object_set_new(data, "diagram", diagram);
	json_object_set_new(data, "diagram_more", json_integer(
	    (json_int_t)(t.n - json_array_size(diagram))));
	json_decref(t.items);
	free(t.ent);
	free(t.by_id);
	free(t.by_name);
	free(t.parent);
	return ordered;
}

/*
 * The entities of f into data's sections (architecture first, from the
 * top down), the inactive ones onto inactive, and their links into
 * data's "linked".
 */
static void
entity_sections(json_t *data, json_t *inactive,
    const struct site_model *m, const char *pslug,
    const struct site_graph *g)
{
	const struct project_facts *f = g->f;
	json_t *sec[N_SECTIONS], *linked = json_array();
	strbuf notes;

	strbuf_init(&notes);
	for (size_t k = 0; k < N_SECTIONS; k++)
		sec[k] = json_array();
	for (size_t k = 0; k < f->n_ent; k++) {
		const struct fact_entity *e = &f->ent[k];
		json_t *item = item_entity(m, e);

		strbuf_reset(&notes);
		entity_notes(&notes, g, e);
		json_object_set_new(item, "notes", json_string(notes.data));
		json_object_set_new(item, "source", sources_text(
		    e->source_refs));
		graph_entity_links(item, linked, m, g, e);
		if (strcmp(e->type, "subsystem") == 0)
			json_object_set_new(item, "page", subsystem_place(
			    pslug, json_string_value(json_object_get(item,
			    "slug"))));
		if (strcmp(e->status, "active") != 0)
			json_array_append_new(inactive, item);
		else
			json_array_append_new(sec[section_of(e->type)], item);
	}
	json_object_set_new(data, section_key[SEC_ARCH],
	    architecture_tree(data, sec[SEC_ARCH], m, g));
	for (size_t k = 1; k < N_SECTIONS; k++)
		json_object_set_new(data, section_key[k], sec[k]);
	json_object_set_new(data, "linked", linked);
	strbuf_free(&notes);
}

/*
 * What each table of data's says in its columns: every trusted state
 * group and the tables in confidence_shown get whether their Confidence
 * column says something (some row's confidence is not 1), and every
 * table's rows the dates of its Updated column (the time where two rows
 * share a day).
 */
static void
table_columns(json_t *data)
{
	static const char *const tables[] = { "decisions", "requirements",
	    "materials", "analysis", "vendors", "other_entities",
	    "memories" };
	json_t *shown = json_object(), *g;
	size_t k;

	json_array_foreach(json_object_get(data, "state_groups"), k, g) {
		json_t *items = json_object_get(g, "items");

		json_object_set_new(g, "confidence_shown",
		    item_table_confidence(items));
		item_table_dates(items, ITEM_UPDATED);
	}
	for (k = 0; k < sizeof(tables) / sizeof(*tables); k++) {
		json_t *items = json_object_get(data, tables[k]);

		json_object_set_new(shown, tables[k],
		    item_table_confidence(items));
		item_table_dates(items, ITEM_UPDATED);
	}
	item_table_dates(json_object_get(data, "inactive"), ITEM_UPDATED);
	json_object_set_new(data, "confidence_shown", shown);
}

/* The overview's data: every fact of the project, in SPEC 5's order. */
static json_t *
overview_json(const struct site_model *m, size_t i,
    const struct site_graph *g)
{
	const struct project_facts *f = g->f;
	json_t *data = json_object(), *inactive = json_array();
	json_t *memories = json_array(), *gaps;
	json_t *disputed, *item;
	size_t k;

	json_object_set_new(data, "project", project_header(m, i));
	json_object_set_new(data, "decision_log",
	    json_boolean(decision_log_exists(f)));
	json_object_set_new(data, "json", item_url(url_api_project, m->pslug[i]));
	json_object_set_new(data, "checks_page", item_url(url_checks_page,
	    m->pslug[i]));
	json_object_set_new(data, "state_groups", state_groups(m, f,
	    inactive));
	entity_sections(data, inactive, m, m->pslug[i], g);
	for (k = 0; k < f->n_mem; k++) {
		item = item_memory(m, &f->mem[k]);
		if (json_is_true(json_object_get(item, "active")))
			json_array_append_new(memories, item);
		else
			json_array_append_new(inactive, item);
	}
	json_array_foreach(inactive, k, item)
		inactive_words(item);
	disputed = open_conflicts(m, i);
	json_object_set_new(data, "disputed_words", item_count((long long)
	    json_array_size(disputed), "open conflict", "open conflicts"));
	json_object_set_new(data, "disputed", disputed);
	/* The Gaps: what the rules find open in this project. */
	gaps = item_open_checks(m, i);
	json_object_set_new(data, "gaps_words", item_count((long long)
	    json_array_size(gaps), "open check", "open checks"));
	json_object_set_new(data, "memories", memories);
	json_object_set_new(data, "gaps", gaps);
	json_object_set_new(data, "inactive_count", item_count((long long)
	    json_array_size(inactive), "fact not active", "facts not active"));
	json_object_set_new(data, "linked_count", item_count((long long)
	    json_array_size(json_object_get(data, "linked")),
	    "entity with links", "entities with links"));
	json_object_set_new(data, "inactive", inactive);
	table_columns(data);
	return data;
}

/* Append "n noun" to sb, the noun in the right number; n == 0 adds
 * nothing. Returns 1 when it added. */
static int
put_count(strbuf *sb, size_t n, const char *one, const char *many,
    int comma)
{
	if (n == 0)
		return 0;
	strbuf_printf(sb, "%s%zu %s", comma ? ", " : "", n, n == 1 ? one :
	    many);
	return 1;
}

/* The diagram's accessible name, from its nodes: "System architecture
 * of NAME: 1 system, 7 subsystems, 14 components; 2 disputed". */
static void
figure_title(strbuf *sb, const json_t *data, const json_t *nodes)
{
	static const char *const kinds[][2] = { { "system", "systems" },
	    { "subsystem", "subsystems" }, { "component", "components" } };
	size_t count[3] = { 0 }, disputed = 0, k;
	const json_t *v;
	int any = 0;

	json_array_foreach(nodes, k, v) {
		const char *kind = json_string_value(json_object_get(v,
		    "kind"));

		for (size_t j = 0; j < 3; j++)
			count[j] += kind != NULL && strcmp(kind,
			    kinds[j][0]) == 0;
		disputed += !json_is_null(json_object_get(v,
		    "conflict_slug"));
	}
	strbuf_printf(sb, "System architecture of %s: ", json_string_value(
	    json_object_get(json_object_get(data, "project"), "name")));
	for (size_t j = 0; j < 3; j++)
		any |= put_count(sb, count[j], kinds[j][0], kinds[j][1], any);
	if (disputed > 0)
		strbuf_printf(sb, "; %zu disputed", disputed);
}

/*
 * The HTML twin's picture of the architecture (the figure "diagram" of
 * render/markdown.h), from data's "diagram" alone: an SVG in a figure
 * with its caption; nothing when the project has no systems, subsystems
 * or components.
 */
static void
overview_figure(strbuf *sb, const json_t *data)
{
	const json_t *nodes = json_object_get(data, "diagram"), *v;
	size_t n = json_array_size(nodes), k;
	struct diagram_node *dn;
	json_int_t more = json_integer_value(json_object_get(data,
	    "diagram_more"));
	char **href;
	strbuf title;
	struct diagram dg;

	if (n == 0)
		return;
	dn = xcalloc(n, sizeof(*dn));
	href = xcalloc(n, sizeof(*href));
	json_array_foreach(nodes, k, v) {
		const char *slug = json_string_value(json_object_get(v,
		    "conflict_slug"));

		if (slug != NULL) {
			strbuf h;

			strbuf_init(&h);
			strbuf_puts(&h, "../../");
			url_conflict(&h, slug);
			href[k] = strbuf_detach(&h);
		}
		dn[k] = (struct diagram_node){ json_string_value(
		    json_object_get(v, "label")), json_string_value(
		    json_object_get(v, "detail")), json_string_value(
		    json_object_get(v, "kind")), href[k],
		    (size_t)json_integer_value(json_object_get(v, "depth")),
		    json_string_value(json_object_get(v, "disputed")) };
	}
	strbuf_init(&title);
	figure_title(&title, data, nodes);
	/* At its natural size (13 and 12 px text), in a region that
	 * scrolls sideways on a phone: focusable, so a keyboard scrolls
	 * it too, and named. */
	strbuf_puts(sb, "<figure class=\"diagram-figure\">\n<div "
	    "class=\"diagram-scroll\" tabindex=\"0\" role=\"region\" "
	    "aria-label=\"Architecture diagram, scrolls sideways\">\n");
	dg = (struct diagram){ "architecture-diagram", title.data, dn, n };
	diagram_svg(sb, &dg);
	strbuf_puts(sb, "\n</div>\n<figcaption>");
	/* Wider than a phone: it says so, where a cut picture leaves off. */
	if (diagram_width(&dg) > DIAGRAM_PHONE_PX)
		strbuf_puts(sb, "On a narrow screen the diagram scrolls "
		    "sideways. ");
	strbuf_puts(sb, "Each component shows its materials. "
	    "\xe2\x9a\xa0 marks a node in an open conflict (its own, its "
	    "material's or that of a decision on it) and links to the "
	    "conflict.");
	if (more > 0)
		strbuf_printf(sb, " %lld more are left out of the picture.",
		    (long long)more);
	strbuf_puts(sb, " The list below holds the same.</figcaption>\n"
	    "</figure>");
	for (k = 0; k < n; k++)
		free(href[k]);
	free(href);
	free(dn);
	strbuf_free(&title);
}

/* A row of the API file and what it is sorted by. */
struct api_row {
	const char *layer, *id;
	json_t *o;
};

/* qsort order of API rows: by layer, then id (strcmp). */
static int
cmp_api_row(const void *a, const void *b)
{
	const struct api_row *x = a, *y = b;
	int c = strcmp(x->layer, y->layer);

	return c != 0 ? c : strcmp(x->id, y->id);
}

/*
 * The mirror's findings on project i into its API header: the ids of
 * its open conflicts ("open_conflicts") and open checks ("open_checks"),
 * each list by id (the overview's data lists both too).
 */
static void
api_project_findings(json_t *head, const struct site_model *m, size_t i)
{
	const struct model_index *ix[2] = { &m->open_of, &m->checks_of };
	static const char *const key[2] = { "open_conflicts", "open_checks" };

	for (int w = 0; w < 2; w++) {
		size_t lo = ix[w]->start[i], hi = ix[w]->start[i + 1], n = 0;
		const char **ids = xcalloc(hi - lo + 1, sizeof(*ids));
		json_t *a = json_array();

		for (size_t k = lo; k < hi; k++) {
			const struct violation *v;

			if (w == 0) {
				ids[n++] = m->conflicts.items[ix[w]->ord[k]].id;
				continue;
			}
			v = &m->violations.items[ix[w]->ord[k]];
			if (strcmp(v->status, "open") == 0)
				ids[n++] = v->id;
		}
		qsort(ids, n, sizeof(*ids), array_str_cmp);
		for (size_t k = 0; k < n; k++)
			json_array_append_new(a, json_string(ids[k]));
		json_object_set_new(head, key[w], a);
		free(ids);
	}
}

/*
 * api/projects/<slug>.json: the project's header, less its words, with
 * its open conflicts and checks, "columns", the names of each layer's
 * values, once, and "facts", every row of f as item_api_* makes it (an
 * array, its layer first), by layer then id, so that one fact changed
 * is one line changed. Every field is one the overview's data holds too (the
 * file's digest is the page's). A new object.
 */
static json_t *
api_json(const struct site_model *m, size_t i, const struct project_facts *f)
{
	size_t n = f->n_state + f->n_ent + f->n_mem + f->n_rel, k = 0;
	struct api_row *rows = xcalloc(n + 1, sizeof(*rows));
	json_t *head = project_header(m, i), *facts = json_array();

	json_object_del(head, "rows");
	api_project_findings(head, m, i);
	for (size_t j = 0; j < f->n_state; j++)
		rows[k++] = (struct api_row){ .layer = "state",
		    .id = f->state[j].id, .o = item_api_state(m, &f->state[j]) };
	for (size_t j = 0; j < f->n_ent; j++)
		rows[k++] = (struct api_row){ .layer = "entity",
		    .id = f->ent[j].id, .o = item_api_entity(m, &f->ent[j]) };
	for (size_t j = 0; j < f->n_mem; j++)
		rows[k++] = (struct api_row){ .layer = "memory",
		    .id = f->mem[j].id, .o = item_api_memory(m, &f->mem[j]) };
	for (size_t j = 0; j < f->n_rel; j++)
		rows[k++] = (struct api_row){ .layer = "relationship",
		    .id = f->rel[j].id, .o = item_api_rel(&f->rel[j]) };
	qsort(rows, n, sizeof(*rows), cmp_api_row);
	for (k = 0; k < n; k++)
		json_array_append_new(facts, rows[k].o);
	free(rows);
	return item_must(json_pack("{s:o, s:o, s:o}", "project", head,
	    "columns", item_api_columns(), "facts", facts), "project",
	    m->projects[i].id);
}

/* Project i's overview and its api/ JSON. Returns 0 or < 0. */
static int
overview_page(const struct page_ctx *pc, size_t i,
    const struct site_graph *g, mirror_error *err)
{
	const struct site_model *m = pc->m;
	json_t *data = overview_json(m, i, g), *rows = api_json(m, i, g->f);
	strbuf path, api, title, fig;
	int rc;

	strbuf_init(&path);
	strbuf_init(&api);
	strbuf_init(&title);
	strbuf_init(&fig);
	strbuf_printf(&path, "projects/%s/index", m->pslug[i]);
	strbuf_printf(&api, "api/projects/%s.json", m->pslug[i]);
	strbuf_printf(&title, "%s: overview", m->projects[i].name);
	overview_figure(&fig, data);
	site_index_unaudited(pc, i, rows);      /* before the file is new */
	rc = page_write_rows(pc, &(struct page_doc){ .path = path.data,
	    .tname = "project.md", .title = title.data, .data = data,
	    .figs = &(struct md_figure){ .name = "diagram",
	    .html = fig.data }, .nfigs = 1 }, api.data, rows, err);
	json_decref(data);
	json_decref(rows);
	strbuf_free(&path);
	strbuf_free(&api);
	strbuf_free(&title);
	strbuf_free(&fig);
	return rc;
}

/* 1 when project i's pages were kept whole, before the render. */
static int
pc_kept(const struct page_ctx *pc, size_t i)
{
	return pc->w->kept != NULL && pc->w->kept[i];
}

/* What the pool's callbacks are handed: the projects whose pages are
 * made, by their index in the model, in id order. */
struct project_run {
	const struct page_ctx *pc;
	const size_t *made;
};

/* Pool work for projects: the facts are read here, in id order. */
static int
project_load(void *arg, size_t k, void **payload, mirror_error *err)
{
	const struct project_run *run = arg;
	const struct site_model *m = run->pc->m;
	struct project_facts *f = xcalloc(1, sizeof(*f));

	*payload = f;
	return facts_read_project(f, m->facts, m->projects[run->made[k]].id,
	    err);
}

/* On a worker: the overview, decision log and subsystems of the kth
 * project made. */
static int
project_render(void *arg, size_t k, void *payload, mirror_error *err)
{
	const struct project_run *run = arg;
	const struct page_ctx *pc = run->pc;
	size_t i = run->made[k];
	struct site_graph g;
	strbuf page;
	int rc;

	strbuf_init(&page);
	url_project_page(&page, pc->m->pslug[i]);
	graph_init(&g, payload, page.data);
	rc = overview_page(pc, i, &g, err);
	if (rc == 0)
		rc = decision_page(pc, i, payload, err);
	if (rc == 0)
		rc = subsystem_pages(pc, i, &g, err);
	graph_free(&g);
	strbuf_free(&page);
	/* The pages done with them, its facts go to a whole search index
	 * when one takes them (else project_drop frees them). */
	if (rc == 0)
		(void)feed_put(&pc->w->feed, i, payload);
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
project_html_only(const char *path, size_t len)
{
	static const char *const names[] = { DECISIONS_PAGE,
	    SUBSYSTEMS_PAGE };
	size_t start = len, n;

	while (start > 0 && path[start - 1] != '/')
		start--;
	n = len - start;

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (n == strlen(names[k]) && memcmp(path + start, names[k], n) == 0)
			return 1;
	return 0;
}

int
project_pages(const struct page_ctx *pc, mirror_error *err)
{
	size_t n = pc->m->n_projects, k = 0;
	size_t *made = xcalloc(n + 1, sizeof(*made));
	struct project_run run = { pc, made };
	int rc;

	/* How many pages a project has is known only once its facts are
	 * loaded, so this phase counts projects. */
	page_phase(pc, "projects", n, 0);
	/* The pool gets the projects whose pages are made alone: the
	 * no-project group is on the index, and the pages of those the
	 * plan kept (site.c) stay. Handed to it, each kept one went
	 * through its queue to a worker, on cores the families beside
	 * keep busy (a one-fact build at 100,000 facts: 500 items for one
	 * project's pages; its render's median 33 -> 30 ms). */
	for (size_t i = 0; i < n; i++)
		if (pc->m->projects[i].id[0] != '\0' && !pc_kept(pc, i))
			made[k++] = i;
		else
			page_item(pc);
	rc = pool_run(&(const struct pool_work){ k, project_load,
	    project_render, project_drop, &run, project_done, &run }, err);
	free(made);
	return rc;
}
