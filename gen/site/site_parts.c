/*
 * site_parts.c: the project family's pages beside the overview
 * (site_project.c calls them), each HTML only: the decision log and the
 * subsystems page.
 *
 * projects/<slug>/decisions, the decision log. A decision slot is a
 * trusted-state key of category "decision", or the (target, field) of a
 * decision entity; both are normalised as SPEC 3.3 normalises
 * identifiers, so state "lateral_support_material" and the entity
 * (lateral support, material) share one slot, as the sweep's
 * cross-layer key does. Each slot lists every row, superseded ones
 * included, newest first; an entry whose value returns to one the slot
 * had before the previous change (A, then B, then A) is marked as a
 * reversal.
 *
 * projects/<slug>/subsystems, every subsystem entity of a project on
 * one page, each a section: its components (part_of / contains edges,
 * or a component whose "subsystem" property names it), the materials
 * they use, the interfaces of the subsystem and its components, the
 * requirements and constraints on them, and the decisions affecting
 * them (affected_by_decision edges, or a decision whose target names
 * them). Every entity appears once in a section, in the first list that
 * claims it. One page per project rather than one per subsystem keeps a
 * large site within the file counts static hosts allow.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "site/items.h"
#include "site/site_parts.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the decision log ---------------------------------------------------- */

struct entry {
	char *slot;         /* normalised identifier */
	const char *layer;  /* "state" or "entity" */
	const char *date;   /* created_at */
	const char *id;
	char *norm;         /* normalised value, for reversals */
	json_t *item;
};

/* SPEC 3.3 identifiers: lower case, runs of other characters one '_'. */
static char *
norm_ident(const char *s)
{
	strbuf sb;
	int sep = 0;

	strbuf_init(&sb);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)tolower((unsigned char)*s);

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (sep && sb.len > 0)
				strbuf_putc(&sb, '_');
			sep = 0;
			strbuf_putc(&sb, (char)c);
		} else {
			sep = 1;
		}
	}
	return strbuf_detach(&sb);
}

/* Values: ASCII case folded, whitespace collapsed, trailing '.' cut. */
static char *
norm_value(const char *s)
{
	strbuf sb;
	int space = 0;

	strbuf_init(&sb);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (isspace(c)) {
			space = 1;
			continue;
		}
		if (space && sb.len > 0)
			strbuf_putc(&sb, ' ');
		space = 0;
		strbuf_putc(&sb, (char)tolower(c));
	}
	if (sb.len > 0 && sb.data[sb.len - 1] == '.')
		sb.data[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

/* Slot, then newest first (created_at, then id, both descending). */
static int
cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->slot, y->slot);

	if (c == 0)
		c = strcmp(y->date, x->date);
	if (c == 0)
		c = strcmp(y->id, x->id);
	return c;
}

/* The next entry after `after` in k's slot and layer, or n. */
static size_t
next_in_layer(const struct entry *ent, size_t n, size_t k, size_t after)
{
	for (size_t j = after + 1;
	    j < n && strcmp(ent[j].slot, ent[k].slot) == 0; j++)
		if (strcmp(ent[j].layer, ent[k].layer) == 0)
			return j;
	return n;
}

/* The entries of a log, in a growing array. */
struct entries {
	struct entry *v;
	size_t n, cap;
};

/* 1 when st is a decision of the trusted state; else 0. */
static int
is_decision_state(const struct fact_state *st)
{
	return strcmp(st->category, "decision") == 0;
}

/* 1 when e is a decision entity; else 0. */
static int
is_decision_entity(const struct fact_entity *e)
{
	return strcmp(e->type, "decision") == 0;
}

/* Every decision row of the trusted state, as an entry. */
static void
state_entries(struct entries *es, const struct site_model *m,
    const struct project_facts *f)
{
	for (size_t k = 0; k < f->n_state; k++) {
		const struct fact_state *st = &f->state[k];
		struct entry *e;

		if (!is_decision_state(st))
			continue;
		e = &ARRAY_PUSH(es->v, es->n, es->cap);
		e->slot = norm_ident(st->key);
		e->layer = "state";
		e->date = st->created_at;
		e->id = st->id;
		e->norm = norm_value(st->value);
		e->item = item_state(m, st);
	}
}

/* Every decision entity, as an entry: its slot is (target, field), or
 * its name when it has neither. */
static void
entity_entries(struct entries *es, const struct site_model *m,
    const struct project_facts *f)
{
	strbuf words;

	strbuf_init(&words);
	for (size_t k = 0; k < f->n_ent; k++) {
		const struct fact_entity *d = &f->ent[k];
		char b1[64], b2[64];
		const char *tg, *fd;
		struct entry *e;

		if (!is_decision_entity(d))
			continue;
		tg = item_prop(d, "target", b1, sizeof(b1));
		fd = item_prop(d, "field", b2, sizeof(b2));
		strbuf_reset(&words);
		if (tg[0] != '\0' || fd[0] != '\0')
			strbuf_printf(&words, "%s %s", tg, fd);
		else
			strbuf_puts(&words, d->name);
		e = &ARRAY_PUSH(es->v, es->n, es->cap);
		e->slot = norm_ident(words.data);
		e->layer = "entity";
		e->date = d->created_at;
		e->id = d->id;
		e->item = item_entity(m, d);
		e->norm = norm_value(json_string_value(json_object_get(
		    e->item, "value")));
	}
	strbuf_free(&words);
}

/* A new slot object for ent's slot, its identifier in words. */
static json_t *
slot_json(const struct entry *ent)
{
	char *spaced = xstrdup(ent->slot);
	json_t *slot;

	for (char *c = spaced; *c != '\0'; c++)
		if (*c == '_')
			*c = ' ';
	slot = json_pack("{s:s, s:s, s:[]}", "slot", ent->slot, "label",
	    spaced, "entries");
	free(spaced);
	return slot;
}

/*
 * Whether entry k reverses its slot: older entries of the slot follow k
 * (newest first); each layer's rows are one history, so compare within
 * the layer: k reverses when it differs from the layer's previous value
 * and equals an older one.
 */
static int
reverses(const struct entry *ent, size_t n, size_t k)
{
	size_t pred = next_in_layer(ent, n, k, k);

	if (pred == n || strcmp(ent[pred].norm, ent[k].norm) == 0)
		return 0;
	for (size_t j = next_in_layer(ent, n, k, pred); j < n;
	    j = next_in_layer(ent, n, k, j))
		if (strcmp(ent[j].norm, ent[k].norm) == 0)
			return 1;
	return 0;
}

/* The words of a decision's source: a state row's source, an entity's
 * source_refs joined by "; ", "" for none. A new string. */
static char *
source_words(const json_t *item)
{
	const json_t *refs = json_object_get(item, "source_refs"), *v;
	const char *one = json_string_value(json_object_get(item, "source"));
	size_t i;
	strbuf sb;

	strbuf_init(&sb);
	if (one != NULL)
		strbuf_puts(&sb, one);
	json_array_foreach(refs, i, v)
		if (json_is_string(v))
			strbuf_printf(&sb, "%s%s", sb.len ? "; " : "",
			    json_string_value(v));
	return strbuf_detach(&sb);
}

/* The layer of an entry in words. */
static const char *
layer_said(const char *layer)
{
	return strcmp(layer, "state") == 0 ? "trusted state" :
	    "engineering record";
}

/*
 * Set the words of a line of the log on item: anchors (its rows'),
 * layers_words, source_words, rationale (an entity's rationale
 * property, else its description; "" for none) and actor (who last
 * changed it, from the audit; "" when unknown).
 */
static void
line_words(json_t *item, const struct entry *e)
{
	const json_t *props = json_object_get(item, "properties");
	const char *why = json_string_value(json_object_get(props,
	    "rationale"));
	const json_t *by = json_object_get(item, "changed_by");
	const char *actor = json_string_value(json_object_get(by, "actor"));
	char *src = source_words(item);

	if (why == NULL)
		why = json_string_value(json_object_get(item, "description"));
	json_object_set_new(item, "anchors", json_pack("[O]",
	    json_object_get(item, "anchor")));
	json_object_set_new(item, "also", json_array());
	json_object_set_new(item, "layers_words",
	    json_string(layer_said(e->layer)));
	json_object_set_new(item, "source_words", json_string(src));
	json_object_set_new(item, "rationale", json_string(why != NULL ?
	    why : ""));
	json_object_set_new(item, "actor", json_string(actor != NULL ?
	    actor : ""));
	free(src);
}

/*
 * Whether entry k agrees with the line of entry p (the line before it
 * in its slot): the same value, status and day from another layer, so
 * the log says them on one line.
 */
static int
agrees(const struct entry *ent, size_t p, size_t k, const json_t *line)
{
	const json_t *a = json_object_get(ent[k].item, "status");

	return strcmp(ent[p].slot, ent[k].slot) == 0 &&
	    strcmp(ent[p].norm, ent[k].norm) == 0 &&
	    strcmp(ent[p].layer, ent[k].layer) != 0 &&
	    strncmp(ent[p].date, ent[k].date, 10) == 0 &&
	    json_equal(a, json_object_get(line, "status")) &&
	    json_array_size(json_object_get(line, "anchors")) == 1;
}

/* Fold entry k into line, the line of the agreeing entry before it:
 * its anchor, its layer, its source, and its rationale, actor, conflict
 * (and its conflict_page) and check where line has none. */
static void
fold_into(json_t *line, const struct entry *e)
{
	static const char *const keys[] = { "rationale", "actor" };
	static const char *const refs[] = { "conflict", "check" };
	char *src = source_words(e->item);
	const char *had = json_string_value(json_object_get(line,
	    "source_words"));
	strbuf sb;

	strbuf_init(&sb);
	json_array_append(json_object_get(line, "anchors"),
	    json_object_get(e->item, "anchor"));
	/* Its own anchor on a line of its own under the line: a list
	 * item's first anchor is the one the HTML keeps (markdown.h (b)). */
	json_array_append_new(json_object_get(line, "also"), json_pack(
	    "{s:O, s:s}", "anchor", json_object_get(e->item, "anchor"),
	    "layer", layer_said(e->layer)));
	strbuf_printf(&sb, "%s and %s", json_string_value(json_object_get(
	    line, "layers_words")), layer_said(e->layer));
	json_object_set_new(line, "layers_words", json_string(sb.data));
	strbuf_reset(&sb);
	strbuf_puts(&sb, had != NULL ? had : "");
	if (src[0] != '\0' && (had == NULL || strcmp(had, src) != 0))
		strbuf_printf(&sb, "%s%s", sb.len ? "; " : "", src);
	json_object_set_new(line, "source_words", json_string(sb.data));
	line_words(e->item, e);
	for (size_t i = 0; i < 2; i++) {
		const char *v = json_string_value(json_object_get(line,
		    keys[i]));

		if (v == NULL || v[0] == '\0')
			json_object_set(line, keys[i], json_object_get(
			    e->item, keys[i]));
		if (json_is_null(json_object_get(line, refs[i])))
			json_object_set(line, refs[i], json_object_get(
			    e->item, refs[i]));
	}
	/* The conflict's page goes with its id (both null or both set). */
	if (json_is_null(json_object_get(line, "conflict_page")))
		json_object_set(line, "conflict_page", json_object_get(e->item,
		    "conflict_page"));
	strbuf_free(&sb);
	free(src);
}

/* The slots of the sorted entries, each with its lines (whose items it
 * takes over): an entry that agrees with the one before it joins its
 * line. */
static json_t *
slots_json(const struct entry *ent, size_t n)
{
	json_t *slots = json_array(), *cur = NULL, *line = NULL;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k == 0 || strcmp(ent[k].slot, ent[k - 1].slot) != 0) {
			cur = slot_json(&ent[k]);
			json_array_append_new(slots, cur);
		} else if (agrees(ent, k - 1, k, line)) {
			fold_into(line, &ent[k]);
			if (reverses(ent, n, k))
				json_object_set_new(line, "reversal",
				    json_true());
			json_decref(ent[k].item);
			continue;
		}
		line = ent[k].item;
		line_words(line, &ent[k]);
		json_object_set_new(line, "reversal",
		    json_boolean(reverses(ent, n, k)));
		json_array_append_new(json_object_get(cur, "entries"), line);
	}
	/* Each slot's entries are one list of dates. */
	json_array_foreach(slots, k, cur)
		item_table_dates(json_object_get(cur, "entries"), ITEM_CREATED);
	return slots;
}

int
decision_log_exists(const struct project_facts *f)
{
	for (size_t k = 0; k < f->n_state; k++)
		if (is_decision_state(&f->state[k]))
			return 1;
	for (size_t k = 0; k < f->n_ent; k++)
		if (is_decision_entity(&f->ent[k]))
			return 1;
	return 0;
}

int
decision_page(const struct page_ctx *pc, size_t i,
    const struct project_facts *f, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct entries es = { NULL, 0, 0 };
	json_t *data, *slots;
	strbuf path, title;
	int rc;

	/* An empty log is a page of nothing: none, and no link to it. */
	if (!decision_log_exists(f))
		return 0;
	state_entries(&es, m, f);
	entity_entries(&es, m, f);
	if (es.n > 0)
		qsort(es.v, es.n, sizeof(*es.v), cmp_entry);
	slots = slots_json(es.v, es.n);
	for (size_t k = 0; k < es.n; k++) {
		free(es.v[k].slot);
		free(es.v[k].norm);
	}
	free(es.v);
	data = json_pack("{s:{s:s, s:s, s:s}, s:o}", "project", "id",
	    m->projects[i].id, "name", m->projects[i].name, "slug",
	    m->pslug[i], "slots", slots);
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_printf(&path, "projects/%s/" DECISIONS_PAGE, m->pslug[i]);
	strbuf_printf(&title, "%s: decision log", m->projects[i].name);
	/* HTML only: it regroups the overview's decisions, whose change a
	 * reviewer reads there; a Markdown twin repeated it in the diff. */
	rc = page_write_figures(pc, &(struct page_doc){ .path = path.data,
	    .tname = "decisions.md", .title = title.data, .data = data,
	    .html_only = 1 }, err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}

/* ---- the subsystems page ------------------------------------------------- */

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
	data = json_pack("{s:{s:s, s:s, s:s}, s:o, s:o, s:b}", "project",
	    "id", m->projects[i].id, "name", m->projects[i].name, "slug",
	    m->pslug[i], "count_words", item_count((long long)
	    json_array_size(subs), "subsystem", "subsystems"),
	    "subsystems", subs, "decision_log", decision_log_exists(f));
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
