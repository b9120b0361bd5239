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

/* The slots of the sorted entries, each with its entries (whose items
 * it takes over). */
static json_t *
slots_json(const struct entry *ent, size_t n)
{
	json_t *slots = json_array(), *cur = NULL;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k == 0 || strcmp(ent[k].slot, ent[k - 1].slot) != 0) {
			cur = slot_json(&ent[k]);
			json_array_append_new(slots, cur);
		}
		json_object_set_new(ent[k].item, "reversal",
		    json_boolean(reverses(ent, n, k)));
		json_array_append_new(json_object_get(cur, "entries"),
		    ent[k].item);
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
	strbuf_printf(&path, "projects/%s/decisions", m->pslug[i]);
	strbuf_printf(&title, "%s: decision log", m->projects[i].name);
	rc = page_write(pc, path.data, "decisions.md", title.data, data, err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}
