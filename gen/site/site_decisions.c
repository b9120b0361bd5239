/*
 * site_decisions.c: projects/<slug>/decisions, the decision log.
 *
 * A decision slot is a trusted-state key of category "decision", or the
 * (target, field) of a decision entity; both are normalised as SPEC 3.3
 * normalises identifiers, so state "lateral_support_material" and the
 * entity (lateral support, material) share one slot, as the sweep's
 * cross-layer key does. Each slot lists every row, superseded ones
 * included, newest first; an entry whose value returns to one the slot
 * had before the previous change (A, then B, then A) is marked as a
 * reversal.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_decisions.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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

/* Every decision row of the trusted state, as an entry. */
static void
state_entries(struct entries *es, const struct site_model *m,
    const struct project_facts *f)
{
	for (size_t k = 0; k < f->n_state; k++) {
		const struct fact_state *st = &f->state[k];
		struct entry *e;

		if (strcmp(st->category, "decision") != 0)
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

		if (strcmp(d->type, "decision") != 0)
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
 * and check where line has none. */
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
decision_page(const struct page_ctx *pc, size_t i,
    const struct project_facts *f, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct entries es = { NULL, 0, 0 };
	json_t *data, *slots;
	strbuf path, title;
	int rc;

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
