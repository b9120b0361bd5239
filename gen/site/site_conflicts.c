/*
 * site_conflicts.c: the review queue conflicts/index, one page per
 * conflict conflicts/<slug>, api/conflicts/projects/<project slug>.json
 * (a project's conflicts, compact, one a line) and api/conflicts.json
 * (the counts and each project's file).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "site/site_conflicts.h"
#include "sys/clock.h"
#include "sys/pool.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "words/conflict_words.h"

/* The second hash of the family's digest starts here (any value other
 * than the first's); change it when the digest's fields change. */
#define CONFLICTS_HASH_SEED UINT64_C(0x636f6e666c0002)

/* The same of a conflict's page digest and of a project's queue pages
 * and file of conflicts (conflicts_hash, run_digest). */
#define CONFLICT_PAGE_SEED UINT64_C(0x636f6e66700001)
#define QUEUE_RUN_SEED UINT64_C(0x636f6e66710001)
#define QUEUE_LIST_SEED UINT64_C(0x636f6e666c0001)

/*
 * A shell word for a command line the reviewer copies: bare when it is
 * plainly safe, else single-quoted with ' written as '\''.
 */
static void
shell_word(strbuf *sb, const char *w)
{
	int plain = w[0] != '\0' && w[0] != '-';

	for (const char *p = w; *p != '\0' && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-_.:/@+,", *p) != NULL;
	if (plain) {
		strbuf_puts(sb, w);
		return;
	}
	strbuf_putc(sb, '\'');
	for (const char *p = w; *p != '\0'; p++) {
		if (*p == '\'')
			strbuf_puts(sb, "'\\''");
		else
			strbuf_putc(sb, *p);
	}
	strbuf_putc(sb, '\'');
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/*
 * A member's sources (an item_sources array, borrowed) as one line of
 * text, "a; b"; null when there are none. Returns a new JSON value.
 */
static json_t *
sources_line(const json_t *list)
{
	json_t *v;
	size_t i;
	strbuf sb;

	if (json_array_size(list) == 0)
		return json_null();
	strbuf_init(&sb);
	json_array_foreach(list, i, v) {
		if (i > 0)
			strbuf_puts(&sb, "; ");
		strbuf_puts(&sb, json_string_value(v));
	}
	v = json_string(sb.data);
	strbuf_free(&sb);
	return v;
}

/*
 * The slot key as the sweep stored it, a JSON array of strings, as that
 * array (a new value); a key that is not such an array (written by
 * another tool) becomes the one-element array of its text.
 */
static json_t *
slot_key_array(const char *key)
{
	json_t *v = json_loads(key, JSON_REJECT_DUPLICATES, NULL), *x;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if (!json_is_string(x))
				break;
		if (i == json_array_size(v))
			return v;
	}
	json_decref(v);
	return json_pack("[s]", key);
}

/* The layer's name in a sentence, singular or plural. */
static const char *
layer_words(enum fact_layer layer, size_t n)
{
	if (layer == LAYER_STATE)
		return n == 1 ? "trusted state fact" : "trusted state facts";
	if (layer == LAYER_ENTITY)
		return n == 1 ? "engineering record" : "engineering records";
	return n == 1 ? "memory" : "memories";
}

/*
 * What kind of disagreement c is, in words, into sb: which layers its
 * members come from, and fav (what the trust order favours, "" for
 * nothing) when they span several layers.
 */
static void
kind_words(strbuf *sb, const struct conflict *c, const char *fav)
{
	static const enum fact_layer order[] = { LAYER_STATE, LAYER_ENTITY,
	    LAYER_MEMORY };
	size_t count[3] = { 0, 0, 0 }, layers = 0, top = 3;

	for (size_t k = 0; k < c->n_members; k++)
		for (size_t l = 0; l < 3; l++)
			if (c->members[k].layer == order[l])
				count[l]++;
	for (size_t l = 0; l < 3; l++)
		if (count[l] > 0) {
			layers++;
			if (top == 3)
				top = l;
		}
	if (layers <= 1) {
		strbuf_printf(sb, "Within one layer: %zu %s disagree, all of "
		    "the same trust.", top < 3 ? count[top] : c->n_members,
		    top < 3 ? layer_words(order[top], count[top]) : "facts");
		return;
	}
	strbuf_puts(sb, "Across layers: ");
	for (size_t l = 0, said = 0; l < 3; l++) {
		if (count[l] == 0)
			continue;
		if (said++ > 0)
			strbuf_puts(sb, said == layers ? " and " : ", ");
		strbuf_printf(sb, "%zu %s", count[l], layer_words(order[l],
		    count[l]));
	}
	strbuf_puts(sb, " disagree");
	if (fav != NULL && fav[0] != '\0')
		strbuf_printf(sb, "; %s", fav);
	strbuf_putc(sb, '.');
}

/* Where the member's fact is rendered: its project's overview, or the
 * site index for the no-project group ("page", item_project_page); both
 * null when the row is gone. */
static void
member_place(json_t *o, const struct site_model *m,
    const struct conflict_member *cm)
{
	long i = cm->project != NULL ? model_project_index(m, cm->project) :
	    -1;

	json_object_set_new(o, "on_index", json_boolean(i >= 0 &&
	    cm->project[0] == '\0'));
	json_object_set_new(o, "project_slug", i >= 0 &&
	    cm->project[0] != '\0' ? json_string(m->pslug[i]) : json_null());
	json_object_set_new(o, "linked", json_boolean(i >= 0));
	json_object_set_new(o, "page", item_project_page(m, i));
}

/* The JSON object of member cm, or NULL when json_pack fails. */
static json_t *
member_json(const struct site_model *m, const struct conflict_member *cm)
{
	json_t *sources = item_sources(cm->source), *origin;
	strbuf sb;
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:i, s:s, s:o, "
	    "s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:b}",
	    "kind", layer_kind(cm->layer), "layer", item_layer_name(cm->layer),
	    "id", cm->id,
	    "anchor", item_anchor(item_layer_name(cm->layer), cm->id),
	    "trust", cm->trust,
	    "value_then", cm->value_then,
	    "value_now", str_or_null(cm->value_now),
	    "status_now", str_or_null(cm->status_now),
	    "conflicts_with", str_or_null(cm->conflicts_with),
	    "favoured", cm->favoured,
	    "type", str_or_null(cm->layer_type),
	    "source", sources_line(sources),
	    "created", item_date(cm->created_at),
	    "updated", item_date(cm->updated_at),
	    "label", str_or_null(cm->label),
	    "gone", cm->status_now == NULL);

	if (o == NULL) {
		json_decref(sources);
		return NULL;
	}
	member_place(o, m, cm);
	origin = sources_line(sources);
	strbuf_init(&sb);
	words_origin(&sb, cm->layer, json_string_value(origin));
	json_object_set_new(o, "origin", json_string(sb.data));
	strbuf_free(&sb);
	json_decref(origin);
	json_object_set_new(o, "sources", sources);
	return o;
}

/* The member's value as it is now, else as it was when detected. */
static const char *
member_value(const struct conflict_member *cm)
{
	return cm->value_now != NULL ? cm->value_now : cm->value_then;
}

/* The slot of c as the store wrote it: the words of its first member
 * (trust order) that has some, else the slot in words without " of
 * <project>" (the queue groups by project). A new JSON string. */
static json_t *
queue_slot(const struct conflict *c)
{
	size_t n = strlen(c->description), p = strlen(c->project);

	for (size_t k = 0; k < c->n_members; k++)
		if (c->members[k].slot_words != NULL)
			return json_string(c->members[k].slot_words);
	if (p > 0 && n > p + 4 && strcmp(c->description + n - p,
	    c->project) == 0 && memcmp(c->description + n - p - 4, " of ",
	    4) == 0)
		n -= p + 4;
	return json_stringn(c->description, n);
}

/* The slot of c as a person says it, without the project ("Spindle
 * max speed"). A new JSON string. */
static json_t *
queue_slot_said(const struct conflict *c)
{
	json_t *slot = queue_slot(c), *out;
	strbuf sb;

	strbuf_init(&sb);
	words_slot(&sb, json_string_value(slot), NULL);
	out = json_string(sb.data);
	strbuf_free(&sb);
	json_decref(slot);
	return out;
}

/* The display name of c's project, or NULL for no project. */
static const char *
project_name(const struct site_model *m, const char *project)
{
	long pi;

	if (project == NULL || project[0] == '\0')
		return NULL;
	pi = model_project_index(m, project);
	return pi >= 0 ? m->projects[pi].name : project;
}

/* How conflict_sides says each side's value. */
enum sides_mode {
	SIDES_NOW,     /* the value now (as found once the row is gone) */
	SIDES_FOUND,   /* the value when detected, and the fact's date */
	SIDES_SINCE    /* the same, and the value now where it differs */
};

/* The sides of c as mode says them, with each member's origin (its
 * sources as one line) and date, kept in src[2k] and src[2k+1], which
 * the caller frees with the array. Returns a new array of
 * c->n_members sides. */
static struct words_side *
conflict_sides(char ***src, const struct conflict *c, enum sides_mode mode)
{
	struct words_side *v = xcalloc(c->n_members + 1, sizeof(*v));

	*src = xcalloc(2 * c->n_members + 2, sizeof(**src));
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *cm = &c->members[k];
		json_t *list = item_sources(cm->source);
		json_t *line = sources_line(list);

		if (json_is_string(line))
			(*src)[2 * k] = xstrdup(json_string_value(line));
		json_decref(line);
		json_decref(list);
		v[k] = (struct words_side){ cm->layer, mode == SIDES_NOW ?
		    member_value(cm) : cm->value_then, (*src)[2 * k], NULL,
		    NULL };
		if (mode != SIDES_NOW && cm->created_at != NULL &&
		    strlen(cm->created_at) >= 10) {
			(*src)[2 * k + 1] = xstrndup(cm->created_at, 10);
			v[k].date = (*src)[2 * k + 1];
		}
		if (mode == SIDES_SINCE && cm->value_now != NULL &&
		    strcmp(cm->value_now, cm->value_then) != 0)
			v[k].now = cm->value_now;
	}
	return v;
}

static void
sides_free(struct words_side *v, char **src, size_t n)
{
	for (size_t k = 0; k < 2 * n; k++)
		free(src[k]);
	free(src);
	free(v);
}

void
conflict_slot_words(strbuf *sb, const struct site_model *m,
    const struct conflict *c)
{
	json_t *slot = queue_slot(c);

	words_slot(sb, json_string_value(slot), project_name(m, c->project));
	json_decref(slot);
}

/*
 * c in words, each into its strbuf (any may be NULL): the slot with its
 * project (slot), every side now (sides) and what the trust order
 * favours ("" when it favours nothing: fav).
 */
static void
conflict_said(const struct site_model *m, const struct conflict *c,
    strbuf *slot, strbuf *sides, strbuf *fav)
{
	char **src;
	struct words_side *v = conflict_sides(&src, c, SIDES_NOW);

	if (slot != NULL)
		conflict_slot_words(slot, m, c);
	if (sides != NULL)
		words_sides(sides, v, c->n_members);
	for (size_t k = 0; fav != NULL && k < c->n_members; k++)
		if (c->members[k].favoured) {
			words_favours(fav, &v[k]);
			break;
		}
	sides_free(v, src, c->n_members);
}

/* c's statement in plain text (words_statement) into sb, its sides as
 * mode says them; brief: the values alone. */
static void
statement_text(strbuf *sb, const struct conflict *c, enum sides_mode mode,
    int brief)
{
	char **src;
	struct words_side *v = conflict_sides(&src, c, mode);
	json_t *name = queue_slot_said(c);

	words_statement(sb, json_string_value(name), v, c->n_members, brief);
	json_decref(name);
	sides_free(v, src, c->n_members);
}

void
conflict_name_words(strbuf *sb, const struct conflict *c)
{
	json_t *name = queue_slot_said(c);

	strbuf_puts(sb, json_string_value(name));
	json_decref(name);
}

void
conflict_brief_words(strbuf *sb, const struct conflict *c)
{
	statement_text(sb, c, SIDES_FOUND, 1);
}

/* The member a resolution of c kept: the one still active while some
 * other went superseded. Returns its index, or -1 for none (open,
 * dismissed, closed by the sweep, resolved without a winner). */
static long
kept_member(const struct conflict *c)
{
	long kept = -1;
	size_t active = 0, gone = 0;

	if (strcmp(c->status, "resolved") != 0)
		return -1;
	for (size_t k = 0; k < c->n_members; k++) {
		const char *st = c->members[k].status_now;

		if (st != NULL && strcmp(st, "active") == 0) {
			active++;
			kept = (long)k;
		} else if (st != NULL && strcmp(st, "superseded") == 0) {
			gone++;
		}
	}
	return active == 1 && gone > 0 ? kept : -1;
}

/* Side s as a template's object: value ("(empty)" for none), from
 * (words_from) and now (null when not said). */
static json_t *
side_json(const struct words_side *s)
{
	strbuf from;
	json_t *o;

	strbuf_init(&from);
	words_from(&from, s);
	o = json_pack("{s:s, s:s, s:o, s:b}", "value", s->value[0] != '\0' ?
	    s->value : "(empty)", "from", from.data, "now", s->now == NULL ?
	    json_null() : json_string(s->now[0] != '\0' ? s->now :
	    "(empty)"), "kept", 0);
	strbuf_free(&from);
	return o;
}

json_t *
conflict_statement_json(const struct conflict *c, int since)
{
	char **src;
	struct words_side *v = conflict_sides(&src, c, since ? SIDES_SINCE :
	    SIDES_FOUND);
	json_t *sides = json_array(), *seen = json_object();
	long kept = kept_member(c);
	strbuf key;

	strbuf_init(&key);
	for (size_t k = 0; k < c->n_members; k++) {
		json_t *o = side_json(&v[k]), *prev;

		strbuf_reset(&key);
		strbuf_printf(&key, "%s\n%s\n%s", json_string_value(
		    json_object_get(o, "value")), json_string_value(
		    json_object_get(o, "from")), v[k].now != NULL ? v[k].now :
		    "\n");
		/* Each wording once; the kept mark on the one said. */
		prev = json_object_get(seen, key.data);
		if (prev == NULL) {
			json_object_set(seen, key.data, o);
			json_array_append(sides, o);
			prev = o;
		}
		if ((long)k == kept)
			json_object_set_new(prev, "kept", json_true());
		json_decref(o);
	}
	strbuf_free(&key);
	json_decref(seen);
	sides_free(v, src, c->n_members);
	return item_must(json_pack("{s:o, s:o}", "name", queue_slot_said(c),
	    "sides", sides), "conflict", c->id);
}

json_t *
conflict_said_json(const struct site_model *m, const struct conflict *c)
{
	strbuf sides;
	json_t *o;

	strbuf_init(&sides);
	conflict_said(m, c, NULL, &sides, NULL);
	o = json_pack("{s:o, s:s}", "slot", queue_slot_said(c), "sides",
	    sides.data);
	strbuf_free(&sides);
	return item_must(o, "conflict", c->id);
}

/* Each conflict's words, made when first asked: text[2i] is conflict
 * i's question, text[2i + 1] its question_then, NULL until then. */
struct conflict_words {
	pthread_mutex_t lock;
	char **text;
	size_t n;
};

void
conflict_words_open(struct site_model *m)
{
	struct conflict_words *w = xcalloc(1, sizeof(*w));

	pthread_mutex_init(&w->lock, NULL);
	w->n = m->conflicts.n;
	w->text = xcalloc(2 * w->n + 1, sizeof(*w->text));
	m->words = w;
}

void
conflict_words_close(struct site_model *m)
{
	struct conflict_words *w = m->words;

	if (w == NULL)
		return;
	for (size_t k = 0; k < 2 * w->n; k++)
		free(w->text[k]);
	free(w->text);
	pthread_mutex_destroy(&w->lock);
	free(w);
	m->words = NULL;
}

/* The slot of text made so far, read under w's lock. */
static char *
words_made(struct conflict_words *w, size_t k)
{
	char *t;

	pthread_mutex_lock(&w->lock);
	t = w->text[k];
	pthread_mutex_unlock(&w->lock);
	return t;
}

const char *
conflict_question(const struct site_model *m, const struct conflict *c,
    int then)
{
	struct conflict_words *w = m->words;
	size_t i = (size_t)(c - m->conflicts.items), k = 2 * i + (then != 0);
	char *t;
	strbuf q;

	if (w == NULL || i >= w->n)
		abort();        /* not open, or not one of m's conflicts */
	if ((t = words_made(w, k)) != NULL)
		return t;
	/* Made outside the lock: two threads may both make it; the
	 * first one kept wins, and the words are the same. */
	strbuf_init(&q);
	statement_text(&q, c, then ? SIDES_FOUND : SIDES_SINCE, 0);
	t = strbuf_detach(&q);
	pthread_mutex_lock(&w->lock);
	if (w->text[k] == NULL)
		w->text[k] = t;
	else {
		free(t);
		t = w->text[k];
	}
	pthread_mutex_unlock(&w->lock);
	return t;
}

/* The command line that resolves c for its member k, and what it keeps. */
static json_t *
winner_json(const struct conflict *c, size_t k)
{
	const struct conflict_member *cm = &c->members[k];
	strbuf cmd, word;
	json_t *o;

	strbuf_init(&cmd);
	strbuf_init(&word);
	strbuf_puts(&cmd, "mirror conflicts resolve ");
	shell_word(&cmd, c->id);
	strbuf_puts(&cmd, " --notes 'WHY' --winner ");
	/* Two members of different layers may share an id: then the
	 * winner is named kind:id, as conflict_resolve accepts. */
	for (size_t j = 0; j < c->n_members; j++)
		if (j != k && strcmp(c->members[j].id, cm->id) == 0) {
			strbuf_printf(&word, "%s:", layer_kind(cm->layer));
			break;
		}
	strbuf_puts(&word, cm->id);
	shell_word(&cmd, word.data);
	strbuf_reset(&word);
	strbuf_printf(&word, "keep the %s %s: %s", layer_words(cm->layer, 1),
	    cm->id, member_value(cm));
	o = json_pack("{s:s, s:s, s:s, s:s}", "id", cm->id, "layer",
	    item_layer_name(cm->layer), "command", cmd.data, "keeps",
	    word.data);
	strbuf_free(&cmd);
	strbuf_free(&word);
	return o;
}

/* The earlier conflicts of the same slot, with their page slugs. */
static json_t *
earlier_json(const struct conflict *c)
{
	char slug[SLUG_SIZE];
	json_t *earlier = json_array();

	for (size_t k = 0; k < c->n_earlier; k++) {
		slug_make(slug, c->earlier[k]);
		json_array_append_new(earlier, json_pack("{s:s, s:s}", "id",
		    c->earlier[k], "slug", slug));
	}
	return earlier;
}

/*
 * The fields of c itself, with its members, winners and the member the
 * trust order favours (fav, NULL for none); consumes members and
 * winners. NULL when json_pack fails.
 */
static json_t *
conflict_head(const struct site_model *m, const struct conflict *c,
    const struct conflict_member *fav, json_t *members, json_t *winners)
{
	char slug[SLUG_SIZE];
	long pi = model_project_index(m, c->project);
	strbuf sb;
	json_t *o;

	strbuf_init(&sb);
	if (fav != NULL)
		strbuf_printf(&sb, "%s %s: %s", item_layer_name(fav->layer),
		    fav->id,
		    member_value(fav));
	slug_make(slug, c->id);
	o = json_pack("{s:s, s:s, s:s, s:b, s:s, s:o, s:s, s:s, s:o, s:o, "
	    "s:s, s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:o, s:o}",
	    "id", c->id, "slug", slug, "status", c->status,
	    "open", strcmp(c->status, "open") == 0,
	    "slot_kind", c->slot_kind, "slot_key", slot_key_array(c->slot_key),
	    "project", c->project,
	    "project_name", c->project[0] == '\0' ? "(no project)" :
	    pi >= 0 ? m->projects[pi].name : c->project,
	    "project_slug", pi >= 0 && c->project[0] != '\0' ?
	    json_string(m->pslug[pi]) : json_null(),
	    "detected", item_date(c->detected_at),
	    "detected_at", c->detected_at,
	    "description", c->description, "question", conflict_question(m, c, 0),
	    "resolved_at", str_or_null(c->resolved_at),
	    "resolution", c->resolution, "resolved_by", c->resolved_by,
	    "favoured", fav != NULL ? json_string(sb.data) : json_null(),
	    "members", members, "earlier", earlier_json(c),
	    "winners", winners);
	json_object_set_new(o, "overview_page", item_overview_page(pi >= 0 &&
	    c->project[0] != '\0' ? m->pslug[pi] : NULL));
	strbuf_free(&sb);
	return o;
}

/*
 * How closed conflict c ended, for its page's first line: "Resolved by
 * alice on 2026-11-02", "Dismissed by bob on …", "Closed by the sweep
 * on …" (when: its resolved_shown; NULL: no date said). A new string;
 * null for an open conflict.
 */
static json_t *
ended_words(const struct conflict *c, const char *when)
{
	int sweep = strcmp(c->resolved_by, "sweep") == 0;
	strbuf sb;
	json_t *v;

	if (strcmp(c->status, "open") == 0)
		return json_null();
	strbuf_init(&sb);
	if (sweep)
		strbuf_puts(&sb, "Closed by the sweep");
	else
		strbuf_printf(&sb, "%s by %s", strcmp(c->status, "dismissed") ==
		    0 ? "Dismissed" : strcmp(c->status, "resolved") == 0 ?
		    "Resolved" : c->status, c->resolved_by[0] != '\0' ?
		    c->resolved_by : "someone unnamed");
	if (when != NULL && when[0] != '\0')
		strbuf_printf(&sb, " on %s", when);
	v = json_string(sb.data);
	strbuf_free(&sb);
	return v;
}

/*
 * What conflict object o's page shows of c beyond its fields: whether
 * the members' values then and now differ on some row (values_differ;
 * else the table has one Value column), and its dates as the page says
 * them: detected_shown, resolved_shown and each member's created_shown
 * and updated_shown, with the time where two of them share a day.
 */
static void
conflict_shown(json_t *o, const struct conflict *c)
{
	json_t *members = json_object_get(o, "members");
	struct item_when *w = xcalloc(2 * c->n_members + 3, sizeof(*w));
	size_t n = 0;
	int differ = 0;

	w[n++] = (struct item_when){ c->detected_at, o, "detected_shown" };
	w[n++] = (struct item_when){ c->resolved_at, o, "resolved_shown" };
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *cm = &c->members[k];
		json_t *v = json_array_get(members, k);

		differ |= cm->value_now == NULL ||
		    strcmp(cm->value_then, cm->value_now) != 0;
		w[n++] = (struct item_when){ cm->created_at, v,
		    "created_shown" };
		w[n++] = (struct item_when){ cm->updated_at, v,
		    "updated_shown" };
	}
	item_when_set(w, n);
	free(w);
	json_object_set_new(o, "values_differ", json_boolean(differ));
	json_object_set_new(o, "ended_words", ended_words(c,
	    json_string_value(json_object_get(o, "resolved_shown"))));
}

/* Member k of c as the page's lead names it: a new object of value
 * (now) and from (its origin); null for k < 0. */
static json_t *
lead_side(const struct conflict *c, long k, json_t *members)
{
	if (k < 0)
		return json_null();
	return json_pack("{s:s, s:O}", "value", member_value(&c->members[k]),
	    "from", json_object_get(json_array_get(members, (size_t)k),
	    "origin"));
}

/*
 * The words of c into its object o: slot_words (without the project),
 * slot_title (with it), sides_words, favours_words (null when the trust
 * order favours nothing), kind_words, statement (its sides as found,
 * conflict_statement_json), title ("NAME: X vs Y — Project"), favours
 * and kept (the member the trust order would keep and the one a
 * resolution kept, each value and from, or null), and each member's
 * conflicts_with_words (the side it contradicts, in words, or null),
 * kept and now (its value now where it differs from the one found).
 */
static void
conflict_words_json(json_t *o, const struct site_model *m,
    const struct conflict *c)
{
	json_t *members = json_object_get(o, "members");
	strbuf slot, sides, fav, sb;
	long kept = kept_member(c), favk = -1;
	const char *pn = project_name(m, c->project);

	strbuf_init(&slot);
	strbuf_init(&sides);
	strbuf_init(&fav);
	strbuf_init(&sb);
	conflict_said(m, c, &slot, &sides, &fav);
	json_object_set_new(o, "slot_words", queue_slot_said(c));
	json_object_set_new(o, "slot_title", json_string(slot.data));
	json_object_set_new(o, "sides_words", json_string(sides.data));
	json_object_set_new(o, "favours_words", fav.len > 0 ?
	    json_string(fav.data) : json_null());
	kind_words(&sb, c, "");
	json_object_set_new(o, "kind_words", json_string(sb.data));
	json_object_set_new(o, "statement", conflict_statement_json(c, 1));
	strbuf_reset(&sb);
	conflict_brief_words(&sb, c);
	if (pn != NULL)
		strbuf_printf(&sb, " \xe2\x80\x94 %s", pn);
	json_object_set_new(o, "title", json_string(sb.data));
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *cm = &c->members[k];
		json_t *mk = json_array_get(members, k), *w = json_null();

		if (cm->favoured && favk < 0)
			favk = (long)k;
		json_object_set_new(mk, "kept", json_boolean((long)k == kept));
		json_object_set_new(mk, "now", cm->value_now != NULL &&
		    strcmp(cm->value_now, cm->value_then) != 0 ?
		    json_string(cm->value_now) : json_null());
		for (size_t j = 0; cm->conflicts_with != NULL &&
		    j < c->n_members; j++)
			if (j != k && strcmp(c->members[j].id,
			    cm->conflicts_with) == 0) {
				json_t *mj = json_array_get(members, j);

				strbuf_reset(&sb);
				strbuf_printf(&sb, "%s (%s)", member_value(
				    &c->members[j]), json_string_value(
				    json_object_get(mj, "origin")));
				json_decref(w);
				w = json_string(sb.data);
				break;
			}
		json_object_set_new(mk, "conflicts_with_words", w);
	}
	json_object_set_new(o, "favours", lead_side(c, favk, members));
	json_object_set_new(o, "kept", lead_side(c, kept, members));
	strbuf_free(&slot);
	strbuf_free(&sides);
	strbuf_free(&fav);
	strbuf_free(&sb);
}

/* Set key of o to a new string: prefix, c's id as a shell word, suffix. */
static void
set_command(json_t *o, const char *key, const char *prefix,
    const struct conflict *c, const char *suffix)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, prefix);
	shell_word(&sb, c->id);
	strbuf_puts(&sb, suffix);
	json_object_set_new(o, key, json_string(sb.data));
	strbuf_free(&sb);
}

/* The slug of project's file api/conflicts/projects/<slug>.json, for
 * every project the same way, known or not, and none. A new string. */
static json_t *
list_slug(const char *project)
{
	char slug[SLUG_SIZE];

	slug_make(slug, project);
	return json_string(slug);
}

/* The path of project's file of conflicts from the site's root,
 * url_api_conflicts of list_slug's slug. A new string. */
static json_t *
conflicts_json_path(const char *project)
{
	char slug[SLUG_SIZE];

	slug_make(slug, project);
	return item_url(url_api_conflicts, slug);
}

/* The JSON object of one conflict, for its page, the queue and api/.
 * Returns 0 with *out set, or < 0 with err set. */
static int
conflict_json(json_t **out, const struct site_model *m,
    const struct conflict *c, mirror_error *err)
{
	json_t *o, *members = json_array(), *winners = json_array();
	const struct conflict_member *fav = NULL;

	*out = NULL;
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *cm = &c->members[k];
		json_t *v = member_json(m, cm);

		if (v == NULL) {
			json_decref(members);
			json_decref(winners);
			return mirror_fail(err, MIRROR_EIO, "internal: "
			    "conflict %s member %s", c->id, cm->id);
		}
		json_array_append_new(members, v);
		if (cm->favoured && fav == NULL)
			fav = cm;
		json_array_append_new(winners, winner_json(c, k));
	}
	o = conflict_head(m, c, fav, members, winners);
	if (o == NULL)
		return mirror_fail(err, MIRROR_EIO, "internal: conflict %s",
		    c->id);
	json_object_set_new(o, "json_slug", list_slug(c->project));
	json_object_set_new(o, "json", conflicts_json_path(c->project));
	conflict_shown(o, c);
	conflict_words_json(o, m, c);
	set_command(o, "resolve_command", "mirror conflicts resolve ", c,
	    " --notes 'WHY'");
	set_command(o, "dismiss_command", "mirror conflicts dismiss ", c,
	    " --reason 'WHY'");
	*out = o;
	return 0;
}

/* The members keys of src into dst, in keys' order: those src has,
 * but "slug" where it is the id already (a reader takes the id). */
static void
copy_keys(json_t *dst, const json_t *src, const char *const *keys,
    size_t n)
{
	for (size_t k = 0; k < n; k++) {
		json_t *v = json_object_get(src, keys[k]);

		if (v == NULL || (strcmp(keys[k], "slug") == 0 && json_equal(v,
		    json_object_get(src, "id"))))
			continue;
		json_object_set(dst, keys[k], v);
	}
}

/* Where the member v (its page object) is shown, into m as checks
 * name a violation's place: "page", its project's overview, the index
 * (no project) or null (not shown: the row is gone or its project
 * unknown), as member_place made it, and "anchor" there. */
static void
member_page(json_t *m, const json_t *v)
{
	json_object_set(m, "page", json_object_get(v, "page"));
	json_object_set(m, "anchor", json_object_get(v, "anchor"));
}

/*
 * A conflict's line of its project's file api/conflicts/projects/
 * <slug>.json, from o, the conflict's page data:
 * "conflict", its own fields and the ids of earlier conflicts on its
 * slot, and "members", each side as the store and the sweep hold it;
 * each on a line of the file. None of the page's words but slot_words,
 * which commit messages quote. A new object.
 */
static json_t *
conflict_api(const json_t *o)
{
	static const char *const head[] = { "id", "slug", "status",
	    "slot_kind", "slot_key", "project", "project_slug", "slot_words",
	    "description", "detected_at", "resolved_at", "resolved_by",
	    "resolution" };
	static const char *const side[] = { "kind", "layer", "id", "slug",
	    "label", "type", "value_then", "value_now", "status_now",
	    "source", "trust", "favoured", "conflicts_with",
	    "project_slug" };
	json_t *head_o = json_object(), *members = json_array();
	json_t *earlier = json_array(), *v;
	size_t k;

	copy_keys(head_o, o, head, sizeof(head) / sizeof(*head));
	json_array_foreach(json_object_get(o, "earlier"), k, v)
		json_array_append(earlier, json_object_get(v, "id"));
	json_object_set_new(head_o, "earlier", earlier);
	json_array_foreach(json_object_get(o, "members"), k, v) {
		json_t *m = json_object();

		copy_keys(m, v, side, sizeof(side) / sizeof(*side));
		member_page(m, v);
		json_array_append_new(members, m);
	}
	return item_must(json_pack("{s:o, s:o}", "conflict", head_o,
	    "members", members), "conflict", json_string_value(
	    json_object_get(o, "id")));
}

/* The pool's work: one conflict's page, its line of its project's file
 * kept in rows (by index in the model) for the queue's work. */
struct conflict_run {
	const struct page_ctx *pc;
	json_t **rows;
	const uint64_t (*ch)[2];  /* each conflict's digest (conflicts_hash) */
	const unsigned char *need_row;  /* 1: its project's file is made
	                           again, which takes its line (rows[k]) */
	/* The list of open conflicts across projects (open_list): its
	 * pages are the pool's first items, beside the conflicts' pages. */
	const struct conflict **open;
	struct page_list open_l;
	size_t open_pages;
};

/* Pool work (nothing to load): the k-th conflict, its page and, when
 * its project's file is made again, its line of it (rows[k]). A page
 * whose digest (made from the conflict's rows, cr->ch[k]) is the last
 * build's is kept without its data being built. */
static int
conflict_render(void *arg, size_t k, void *payload, mirror_error *err)
{
	struct conflict_run *cr = arg;
	const struct page_ctx *pc = cr->pc;
	const struct conflict *c = &pc->m->conflicts.items[k];
	char hex[DIGEST_HEX + 1], slug[SLUG_SIZE];
	json_t *o;
	strbuf path, title;
	int rc = 0, kept;

	(void)payload;
	page_folder_digest(hex, pc, cr->ch[k][0], cr->ch[k][1]);
	slug_make(slug, c->id);
	strbuf_init(&path);
	strbuf_printf(&path, "conflicts/%s", slug);
	kept = page_kept(pc, &(const struct page_doc){ .path = path.data,
	    .digest = hex });
	if (!kept || cr->need_row[k])
		rc = conflict_json(&o, pc->m, c, err);
	if (rc < 0 || (kept && !cr->need_row[k])) {
		strbuf_free(&path);
		return rc;
	}
	if (cr->need_row[k])
		cr->rows[k] = conflict_api(o);
	strbuf_init(&title);
	/* With its id: conflicts of one slot (an earlier one closed, a
	 * later one open) get distinct titles. */
	strbuf_printf(&title, "%s (%s)", json_string_value(
	    json_object_get(o, "title")), c->id);
	if (!kept) {
		json_t *data = json_pack("{s:O}", "conflict", o);

		rc = page_write_figures(pc, &(const struct page_doc){ .path =
		    path.data, .tname = "conflict.md", .title = title.data,
		    .data = data, .digest = hex }, err);
		json_decref(data);
	}
	json_decref(o);
	strbuf_free(&path);
	strbuf_free(&title);
	return rc;
}

/* One entry of the queue (see templates/README.md). */
static json_t *
queue_entry(const struct site_model *m, const struct conflict *c)
{
	char slug[SLUG_SIZE];
	strbuf sides, fav;
	json_t *o;

	strbuf_init(&sides);
	strbuf_init(&fav);
	conflict_said(m, c, NULL, &sides, &fav);
	slug_make(slug, c->id);
	/* The detection date, not an age: a page that says "open for 3
	 * days" changes every day (issue 59). */
	o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:I, s:o, s:o, "
	    "s:o, s:o}", "id", c->id, "slug", slug, "status", c->status,
	    "question", conflict_question(m, c, 0), "slot", queue_slot_said(c),
	    "sides", sides.data, "favours", fav.data,
	    "members", (json_int_t)c->n_members, "members_words",
	    item_count((long long)c->n_members, "member", "members"),
	    "detected", item_date(c->detected_at),
	    "closed", item_date(c->resolved_at),
	    "kind", json_string(c->slot_kind));
	strbuf_free(&sides);
	strbuf_free(&fav);
	if (o != NULL)
		json_object_set_new(o, "statement",
		    conflict_statement_json(c, 1));
	return item_must(o, "conflict", c->id);
}

/* The most entries one queue page holds (issue 57: ~300). */
#define QUEUE_PAGE 300

/* The list of the open conflicts of every project: its first page,
 * conflicts/index.open (no slug has a dot, so no conflict's page and
 * no project's queue is one of its pages), and the most rows a page
 * holds. */
#define OPEN_LIST "index.open"
#define OPEN_PAGE 300

/* The rank of a status and of a slot kind in the queue's order. */
static int
status_rank(const char *status)
{
	static const char *const order[] = { "open", "resolved",
	    "dismissed" };

	for (int i = 0; i < 3; i++)
		if (strcmp(status, order[i]) == 0)
			return i;
	return 3;
}

static int
kind_rank(const char *kind)
{
	static const char *const order[] = { "cross_layer", "entity_slot",
	    "memory_slot" };

	for (int i = 0; i < 3; i++)
		if (kind != NULL && strcmp(kind, order[i]) == 0)
			return i;
	return 3;
}

/* A slot kind in words: "across layers", "between memories", ... */
static const char *
kind_said(const char *kind)
{
	static const char *const kd[] = { "across layers",
	    "between engineering records", "between memories",
	    "other slots" };

	return kd[kind_rank(kind)];
}

/* The heading of the group of status and kind, in words. */
static void
group_heading(strbuf *sb, const char *status, const char *kind)
{
	static const char *const st[] = { "Open", "Resolved", "Dismissed",
	    "Other" };

	strbuf_printf(sb, "%s, %s", st[status_rank(status)],
	    kind_said(kind));
}

/* qsort order of the queue: by project, then status, kind, oldest
 * first, then id. */
static int
cmp_queue(const void *a, const void *b)
{
	const struct conflict *x = *(const struct conflict *const *)a,
	    *y = *(const struct conflict *const *)b;
	int c = strcmp(x->project, y->project);

	if (c == 0)
		c = status_rank(x->status) - status_rank(y->status);
	if (c == 0)
		c = kind_rank(x->slot_kind) - kind_rank(y->slot_kind);
	if (c == 0)
		c = strcmp(x->detected_at, y->detected_at);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* The name of project's queue pages under conflicts/projects/: its
 * slug, or "_" (no slug is) for the conflicts of no project. */
static void
queue_dir(strbuf *sb, const struct site_model *m, const char *project)
{
	long pi = model_project_index(m, project);

	char slug[SLUG_SIZE];

	if (project[0] == '\0')
		strbuf_puts(sb, "_");
	else if (pi >= 0)
		strbuf_puts(sb, m->pslug[pi]);
	else {
		/* A project the store no longer has: its id's slug, as it
		 * had when it was there. */
		slug_make(slug, project);
		strbuf_puts(sb, slug);
	}
}

/* One project's run of the queue: v[0..n), in cmp_queue order. */
struct queue_run {
	const struct conflict *const *v;
	size_t n;
	const char *name;        /* the project's display name */
	const char *slug;        /* its overview's slug, or NULL */
	strbuf dir;              /* queue_dir */
	strbuf json;             /* its file api/conflicts/projects/... */
	uint64_t h[2];           /* its digest (run_digest) */
	char json_hex[DIGEST_HEX + 1];  /* its file's digest */
	int json_kept;           /* 1: its file is the last build's */
};

/* How many of r's conflicts have status, and of those kind (any kind
 * when kind is NULL). */
static size_t
run_count(const struct queue_run *r, const char *status, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += strcmp(r->v[i]->status, status) == 0 && (kind == NULL ||
		    kind_rank(r->v[i]->slot_kind) == kind_rank(kind));
	return n;
}

/* The sections of entries v[from..to) of r: one per status and kind
 * met, each with its heading and its total in r. A new array. */
static json_t *
queue_sections(const struct site_model *m, const struct queue_run *r,
    size_t from, size_t to)
{
	json_t *out = json_array(), *entries = NULL;
	strbuf h;

	strbuf_init(&h);
	for (size_t i = from; i < to; i++) {
		const struct conflict *c = r->v[i];

		if (i == from || status_rank(c->status) !=
		    status_rank(r->v[i - 1]->status) || kind_rank(
		    c->slot_kind) != kind_rank(r->v[i - 1]->slot_kind)) {
			size_t n = run_count(r, c->status, c->slot_kind);

			strbuf_reset(&h);
			group_heading(&h, c->status, c->slot_kind);
			entries = json_array();
			json_array_append_new(out, item_must(json_pack(
			    "{s:s, s:s, s:o, s:o}", "heading", h.data,
			    "status", c->status, "count_words", item_count(
			    (long long)n, "conflict", "conflicts"),
			    "conflicts", entries), "queue", c->id));
		}
		json_array_append_new(entries, queue_entry(m, c));
	}
	strbuf_free(&h);
	return out;
}

/* Page k of r's queue (page_list_file of its url_queue_page), kept
 * without its data being built when its digest (r's, and k) is the
 * last build's. Returns 0 or < 0 with err set. */
static int
queue_project_page(const struct page_ctx *pc, const struct queue_run *r,
    size_t k, mirror_error *err)
{
	const struct page_list l = { .base = r->dir.data, .n = r->n,
	    .per_page = QUEUE_PAGE };
	size_t from = k * QUEUE_PAGE, to = from + QUEUE_PAGE < r->n ?
	    from + QUEUE_PAGE : r->n;
	strbuf queue, path, title, words;
	json_t *data;
	int rc;
	uint64_t h[2] = { r->h[0], r->h[1] };
	char hex[DIGEST_HEX + 1];

	/* The file of page k, from the page the links to the queue go to. */
	strbuf_init(&queue);
	strbuf_init(&path);
	url_queue_page(&queue, r->dir.data);
	page_list_file(&path, queue.data, k);
	strbuf_free(&queue);
	page_hash_str(h, "page");
	page_hash_int(h, (long long)k);
	page_folder_digest(hex, pc, h[0], h[1]);
	if (page_kept(pc, &(const struct page_doc){ .path = path.data,
	    .digest = hex })) {
		strbuf_free(&path);
		return 0;
	}
	strbuf_init(&title);
	strbuf_init(&words);
	strbuf_printf(&title, "Conflicts: %s", r->name);
	if (page_list_words(&words, &l, k))
		strbuf_printf(&title, ", %s", words.data);
	data = item_must(json_pack("{s:{s:s, s:o}, s:s, s:o, s:o, s:o, s:o, "
	    "s:o, s:o}", "project", "name", r->name, "slug", r->slug !=
	    NULL ? json_string(r->slug) : json_null(), "page_words",
	    words.data, "pages", page_list_links(&l, k),
	    "sections", queue_sections(pc->m, r, from, to), "open_words",
	    item_count((long long)run_count(r, "open", NULL),
	    "open conflict", "open conflicts"), "resolved_words", item_count((long long)
	    run_count(r, "resolved", NULL), "resolved", "resolved"),
	    "dismissed_words", item_count((long long)run_count(r,
	    "dismissed", NULL), "dismissed", "dismissed"), "entries",
	    json_integer((json_int_t)(to - from))), "page", path.data);
	json_object_set_new(json_object_get(data, "project"), "overview_page",
	    item_overview_page(r->slug));
	rc = page_write_figures(pc, &(const struct page_doc){ .path =
	    path.data, .tname = "conflicts_project.md", .title = title.data,
	    .data = data, .digest = hex }, err);
	json_decref(data);
	strbuf_free(&path);
	strbuf_free(&title);
	strbuf_free(&words);
	return rc;
}

/* The link to the queue of folder dir from the queue's lists, which
 * are all in conflicts/ (url_from of url_queue_page). A new string. */
static json_t *
queue_link(const char *dir)
{
	return item_url_from("conflicts/index", url_queue_page, dir);
}

/* r's line on the queue's front page: its name, folder and counts. */
static json_t *
queue_front_entry(const struct queue_run *r)
{
	static const char *const kinds[] = { "cross_layer", "entity_slot",
	    "memory_slot" };
	static const char *const words[] = { "across layers",
	    "between engineering records", "between memories" };
	size_t open = run_count(r, "open", NULL), res = run_count(r,
	    "resolved", NULL), dis = run_count(r, "dismissed", NULL);
	const char *oldest = NULL;
	strbuf kw;
	json_t *o;

	strbuf_init(&kw);
	for (size_t i = 0; i < 3; i++) {
		size_t n = run_count(r, "open", kinds[i]);

		if (n > 0)
			strbuf_printf(&kw, "%s%zu %s", kw.len ? ", " : "", n,
			    words[i]);
	}
	/* Open ones come first, each kind oldest first. */
	for (size_t i = 0; i < r->n && i < open; i++)
		if (oldest == NULL || strcmp(r->v[i]->detected_at, oldest) < 0)
			oldest = r->v[i]->detected_at;
	o = item_must(json_pack("{s:s, s:s, s:I, s:o, s:s, s:o, s:I, s:I, "
	    "s:I, s:I, s:I}", "name", r->name, "dir", r->dir.data, "open",
	    (json_int_t)open, "open_words", item_count((long long)open,
	    "open conflict", "open conflicts"), "kinds_words", kw.data,
	    "oldest", item_date(oldest), "resolved", (json_int_t)res,
	    "dismissed", (json_int_t)dis, "cross", (json_int_t)run_count(r,
	    "open", kinds[0]), "records", (json_int_t)run_count(r, "open",
	    kinds[1]), "memories", (json_int_t)run_count(r, "open",
	    kinds[2])), "queue", r->dir.data);
	json_object_set_new(o, "queue_link", queue_link(r->dir.data));
	strbuf_free(&kw);
	return o;
}

/* qsort order of the list of projects' queues: by name (numeric-aware,
 * item_name_cmp), then by folder, the no-project group ("_") last; not
 * by their open count, so a line does not move when it changes. */
static int
cmp_front(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int nx = strcmp(json_string_value(json_object_get(x, "dir")), "_")
	    == 0, ny = strcmp(json_string_value(json_object_get(y, "dir")),
	    "_") == 0;
	int c;

	if (nx != ny)
		return nx - ny;
	c = item_name_cmp(json_string_value(json_object_get(x, "name")),
	    json_string_value(json_object_get(y, "name")));
	return c != 0 ? c : strcmp(json_string_value(json_object_get(x,
	    "dir")), json_string_value(json_object_get(y, "dir")));
}

/* The most projects the front page names (the most open conflicts
 * first); the list of every project's queue, conflicts/index.projects
 * and on, and the most rows a page of it holds. */
#define FRONT_WORST 20
#define FRONT_LIST "index.projects"
#define FRONT_PAGE 300

static int front_list_page(const struct page_ctx *pc, const json_t *front,
    const struct page_list *l, size_t k, mirror_error *err);

/* The queue's pages as pool work: the pages of the list of projects'
 * queues first (front_l), then one project's run an item. */
struct queue_work {
	const struct page_ctx *pc;
	const struct conflict **v;  /* the conflicts in cmp_queue order */
	struct queue_run *runs;
	size_t nr;
	json_t **rows;           /* each conflict's line, by model index,
	                            taken by its project's item */
	json_t *front;           /* each run's front-page line, cmp_front */
	struct page_list front_l;
	size_t front_pages;
	json_t **index;          /* each run's entry of api/conflicts.json */
};

/* array_sort: indexes into the model's conflicts (ctx) by conflict id. */
static int
by_row_id(const void *a, const void *b, const void *ctx)
{
	const struct conflict *items = ctx;

	return strcmp(items[*(const size_t *)a].id,
	    items[*(const size_t *)b].id);
}

/*
 * r's file api/conflicts/projects/<slug>.json (r->json): its counts and
 * its conflicts' lines by id, so that a conflict opened or decided
 * changes its own line alone, unless it was kept (r->json_kept: its
 * lines were not made); and r's entry of api/conflicts.json into
 * *entry. Returns 0 or < 0 with err set.
 */
static int
queue_list_json(json_t **entry, const struct queue_work *qw,
    const struct queue_run *r, mirror_error *err)
{
	const struct conflict *items = qw->pc->m->conflicts.items;
	size_t *byid;
	json_t *list, *o;
	const char *project = r->v[0]->project;
	int rc;

	*entry = item_must(json_pack("{s:s, s:s, s:o, s:I, s:I, s:I, s:I, "
	    "s:s}", "project", project, "project_name", r->name,
	    "project_slug", r->slug != NULL ? json_string(r->slug) :
	    json_null(), "open", (json_int_t)run_count(r, "open", NULL),
	    "resolved", (json_int_t)run_count(r, "resolved", NULL),
	    "dismissed", (json_int_t)run_count(r, "dismissed", NULL),
	    "total", (json_int_t)r->n, "json", r->json.data), "conflicts of",
	    project);
	if (r->json_kept)
		return 0;
	byid = xcalloc(r->n + 1, sizeof(*byid));
	list = json_array();
	for (size_t k = 0; k < r->n; k++)
		byid[k] = (size_t)(r->v[k] - items);
	array_sort(byid, r->n, sizeof(*byid), by_row_id, items);
	/* Each line is its project's alone: taken, freed with o here. */
	for (size_t k = 0; k < r->n; k++) {
		json_array_append_new(list, qw->rows[byid[k]]);
		qw->rows[byid[k]] = NULL;
	}
	free(byid);
	/* Its counts but the total: a conflict opened changes a line fewer
	 * of the file, which lists them anyway. */
	o = json_deep_copy(*entry);
	json_object_del(o, "json");
	json_object_del(o, "total");
	json_object_set_new(o, "conflicts", list);
	rc = page_json_rows_as(qw->pc, r->json.data, r->json_hex, o, err);
	json_decref(o);
	return rc;
}

/* Run k's queue pages and file of conflicts. Returns 0 or < 0 with err
 * set. */
static int
queue_run_pages(void *arg, size_t k, void *payload, mirror_error *err)
{
	const struct queue_work *qw = arg;
	const struct queue_run *r = &qw->runs[k];
	size_t pages = page_list_pages(&(const struct page_list){ .n =
	    r->n, .per_page = QUEUE_PAGE });
	int rc = 0;

	(void)payload;
	for (size_t i = 0; i < pages && rc == 0; i++)
		rc = queue_project_page(qw->pc, r, i, err);
	if (rc == 0)
		rc = queue_list_json(&qw->index[k], qw, r, err);
	return rc;
}

/* Pool work (nothing to load): item i is page i of the list of projects'
 * queues while i < qw->front_pages, then run i - qw->front_pages
 * (queue_run_pages). Returns 0 or < 0 with err set. */
static int
queue_item(void *arg, size_t i, void *payload, mirror_error *err)
{
	const struct queue_work *qw = arg;

	if (i < qw->front_pages)
		return front_list_page(qw->pc, qw->front, &qw->front_l, i,
		    err);
	return queue_run_pages(arg, i - qw->front_pages, payload, err);
}

/* The front page's list of projects: each of runs[0..nr)'s line
 * (queue_front_entry) in cmp_front order. Returns it, new. */
static json_t *
queue_front_list(const struct queue_run *runs, size_t nr)
{
	json_t **v = xcalloc(nr + 1, sizeof(*v)), *front = json_array();

	for (size_t i = 0; i < nr; i++)
		v[i] = queue_front_entry(&runs[i]);
	qsort(v, nr, sizeof(*v), cmp_front);
	for (size_t i = 0; i < nr; i++)
		json_array_append_new(front, v[i]);
	free(v);
	return front;
}

/* Group v's n conflicts (cmp_queue order) by project into runs (the
 * caller frees each dir and the array); their number into *nr. */
static struct queue_run *
queue_runs(size_t *nr, const struct site_model *m,
    const struct conflict **v, size_t n)
{
	struct queue_run *runs = xcalloc(n + 1, sizeof(*runs));

	*nr = 0;
	for (size_t i = 0, j; i < n; i = j) {
		struct queue_run *r = &runs[(*nr)++];
		long pi = model_project_index(m, v[i]->project);

		r->v = v + i;
		strbuf_init(&r->dir);
		strbuf_init(&r->json);
		for (j = i; j < n && strcmp(v[j]->project, v[i]->project) == 0;
		    j++)
			r->n++;
		r->name = v[i]->project[0] == '\0' ? "(no project)" : pi >= 0 ?
		    m->projects[pi].name : v[i]->project;
		r->slug = pi >= 0 && v[i]->project[0] != '\0' ? m->pslug[pi] :
		    NULL;
		queue_dir(&r->dir, m, v[i]->project);
	}
	return runs;
}

/*
 * r's digest into r->h, from what its queue pages and file show: its
 * project, name, slug and folder, and each of its conflicts' digest
 * (ch, by model index; items the model's conflicts); its file's path
 * into r->json and its digest into r->json_hex.
 */
static void
run_digest(struct queue_run *r, const struct page_ctx *pc,
    const uint64_t (*ch)[2])
{
	const struct conflict *items = pc->m->conflicts.items;
	uint64_t h[2];
	char slug[SLUG_SIZE];

	r->h[0] = MIRROR_HASH_INIT;
	r->h[1] = QUEUE_RUN_SEED;
	page_hash_str(r->h, r->v[0]->project);
	page_hash_str(r->h, r->name);
	page_hash_str(r->h, r->slug);
	page_hash_str(r->h, r->dir.data);
	page_hash_int(r->h, (long long)r->n);
	for (size_t i = 0; i < r->n; i++) {
		const uint64_t *c = ch[r->v[i] - items];

		page_hash_int(r->h, (long long)c[0]);
		page_hash_int(r->h, (long long)c[1]);
	}
	slug_make(slug, r->v[0]->project);
	url_api_conflicts(&r->json, slug);
	h[0] = r->h[0];
	h[1] = r->h[1];
	page_hash_str(h, "json");
	page_folder_digest(r->json_hex, pc, h[0], h[1]);
}

/*
 * The queue's plan into qw, for pc's model: its conflicts in cmp_queue
 * order, grouped by project into runs, each with its digest (from ch,
 * each conflict's) and its file of conflicts kept when that is the last
 * build's; need_row[i] (by model index) set to 1 for the conflicts
 * whose file is made again, whose lines it needs; and the list of
 * every project's queue (qw->front, cmp_front order). queue_free frees
 * it.
 */
static void
queue_plan(struct queue_work *qw, const struct page_ctx *pc,
    const uint64_t (*ch)[2], unsigned char *need_row)
{
	const struct site_model *m = pc->m;
	size_t n = m->conflicts.n;

	*qw = (struct queue_work){ .pc = pc };
	qw->v = xcalloc(n + 1, sizeof(*qw->v));
	for (size_t i = 0; i < n; i++)
		qw->v[i] = &m->conflicts.items[i];
	qsort(qw->v, n, sizeof(*qw->v), cmp_queue);
	qw->runs = queue_runs(&qw->nr, m, qw->v, n);
	for (size_t k = 0; k < qw->nr; k++) {
		struct queue_run *r = &qw->runs[k];

		run_digest(r, pc, ch);
		r->json_kept = page_json_kept(pc, r->json.data, r->json_hex);
		for (size_t i = 0; i < r->n && !r->json_kept; i++)
			need_row[r->v[i] - m->conflicts.items] = 1;
	}
	qw->front = queue_front_list(qw->runs, qw->nr);
	qw->front_l = (struct page_list){ .base = FRONT_LIST, .n = qw->nr,
	    .per_page = FRONT_PAGE };
	qw->front_pages = page_list_pages(&qw->front_l);
}

/* Free what queue_plan made in qw. */
static void
queue_free(struct queue_work *qw)
{
	for (size_t i = 0; i < qw->nr; i++) {
		strbuf_free(&qw->runs[i].dir);
		strbuf_free(&qw->runs[i].json);
	}
	free(qw->runs);
	free(qw->v);
	json_decref(qw->front);
}

/*
 * Every project's queue pages (at most QUEUE_PAGE entries each) and
 * file of conflicts (from qw->rows, each conflict's line by model
 * index, taken and freed: NULL after), one project a pool item, and the
 * list of every project's queue (conflicts/index.projects and on), its
 * pages the pool's first items, as qw (queue_plan) says; into *index
 * the projects' entries of api/conflicts.json (by project id). Returns
 * 0 or < 0 with err set.
 */
static int
queue_project_pages(json_t **index, struct queue_work *qw,
    mirror_error *err)
{
	int rc;

	qw->index = xcalloc(qw->nr + 1, sizeof(*qw->index));
	rc = pool_run(&(const struct pool_work){ .n = qw->front_pages +
	    qw->nr, .run = queue_item, .arg = qw }, err);
	/* After a failure some entries are missing: the caller writes no
	 * api/conflicts.json then, but every entry made is freed. */
	*index = json_array();
	for (size_t i = 0; i < qw->nr; i++)
		if (qw->index[i] != NULL)
			json_array_append_new(*index, qw->index[i]);
	free(qw->index);
	qw->index = NULL;
	return rc;
}

/* ---- the open conflicts across projects ---------------------------- */

/* The display name of project for the list: its name, "(no project)"
 * for none. */
static const char *
open_project_name(const struct site_model *m, const char *project)
{
	const char *name = project_name(m, project);

	return name != NULL ? name : "(no project)";
}

/*
 * array_sort order of the list across projects, given the model (ctx,
 * for the projects' names): oldest first (detected_at),
 * then by project name, then by slot in words (both numeric-aware),
 * then id. A conflict opened
 * later is detected later, so it goes to the list's end: it rewrites
 * the last page alone (and every page when it starts a new one, whose
 * link they all carry).
 */
static int
cmp_open(const void *a, const void *b, const void *ctx)
{
	const struct site_model *m = ctx;
	const struct conflict *x = *(const struct conflict *const *)a,
	    *y = *(const struct conflict *const *)b;
	int c = strcmp(x->detected_at, y->detected_at);

	if (c == 0)
		c = item_name_cmp(open_project_name(m, x->project),
		    open_project_name(m, y->project));
	if (c == 0)
		c = item_name_cmp(x->description, y->description);
	return c != 0 ? c : strcmp(x->id, y->id);
}

/* The values of c's sides now, "X vs Y", into sb. */
static void
open_values(strbuf *sb, const struct conflict *c)
{
	for (size_t k = 0; k < c->n_members; k++)
		strbuf_printf(sb, "%s%s", k > 0 ? " vs " : "",
		    member_value(&c->members[k]));
}

/* c's row of the list: what its columns show and nothing else, so a
 * page's digest changes only when they do. */
static json_t *
open_row(const struct site_model *m, const struct conflict *c)
{
	char slug[SLUG_SIZE];
	strbuf dir, values;
	json_t *o;

	strbuf_init(&dir);
	strbuf_init(&values);
	queue_dir(&dir, m, c->project);
	open_values(&values, c);
	slug_make(slug, c->id);
	o = item_must(json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:o}",
	    "project", open_project_name(m, c->project), "dir", dir.data,
	    "slot", queue_slot_said(c), "slug", slug, "values", values.data,
	    "kind", kind_said(c->slot_kind), "detected",
	    item_date(c->detected_at)), "conflict", c->id);
	json_object_set_new(o, "queue_link", queue_link(dir.data));
	strbuf_free(&dir);
	strbuf_free(&values);
	return o;
}

/* Fold into h what c's row of the list shows (open_row): its
 * project's name and folder, its slot and slug, its sides' values, its
 * kind and date. */
static void
open_row_hash(uint64_t h[2], const struct site_model *m,
    const struct conflict *c)
{
	strbuf dir;

	strbuf_init(&dir);
	queue_dir(&dir, m, c->project);
	page_hash_str(h, open_project_name(m, c->project));
	page_hash_str(h, dir.data);
	strbuf_free(&dir);
	page_hash_str(h, c->id);
	page_hash_str(h, c->project);
	page_hash_str(h, c->description);
	page_hash_str(h, c->slot_kind);
	page_hash_str(h, c->detected_at);
	page_hash_int(h, (long long)c->n_members);
	for (size_t k = 0; k < c->n_members; k++) {
		page_hash_str(h, c->members[k].slot_words);
		page_hash_str(h, member_value(&c->members[k]));
	}
}

/* Page k of the list across projects, v[0..l->n) in cmp_open order,
 * kept without its rows being built when its digest (open_row_hash of
 * each) is the last build's. Returns 0 or < 0 with err set. */
static int
open_page(const struct page_ctx *pc, const struct conflict *const *v,
    const struct page_list *l, size_t k, mirror_error *err)
{
	uint64_t h[2] = { MIRROR_HASH_INIT, QUEUE_LIST_SEED };
	char hex[DIGEST_HEX + 1];
	struct page_list_doc d = { .l = l, .k = k, .folder = "conflicts/",
	    .tname = "conflicts_open.md", .title =
	    "Open conflicts of every project", .digest = hex };
	json_t *rows;
	size_t from, to;

	page_list_span(&from, &to, l, k);
	page_hash_str(h, "open");
	page_list_hash(h, l, k);
	for (size_t i = from; i < to; i++)
		open_row_hash(h, pc->m, v[i]);
	page_folder_digest(hex, pc, h[0], h[1]);
	if (page_list_kept(pc, &d))
		return 0;
	rows = json_array();
	for (size_t i = from; i < to; i++)
		json_array_append_new(rows, open_row(pc->m, v[i]));
	d.data = json_pack("{s:o}", "conflicts", rows);
	return page_list_write(pc, &d, err);
}

/* page_list_cut's name of row i of the list: its conflict's id. */
static const char *
open_key(size_t i, const void *arg)
{
	return ((const struct conflict *const *)arg)[i]->id;
}

/*
 * The open conflicts of every project in one list, conflicts/index.open
 * and on (page_list_file), at most OPEN_PAGE a page and cut by the
 * conflicts' ids (page_list_cut), oldest first (cmp_open): into
 * cr->open, cr->open_l (page_list_uncut frees its cuts) and
 * cr->open_pages, its number of pages, which the pool writes
 * (conflict_item). Returns nothing.
 */
static void
open_list(struct conflict_run *cr)
{
	const struct site_model *m = cr->pc->m;

	cr->open = xcalloc(m->conflicts.n + 1, sizeof(*cr->open));
	cr->open_l = (struct page_list){ .base = OPEN_LIST,
	    .per_page = OPEN_PAGE };
	for (size_t i = 0; i < m->conflicts.n; i++)
		if (strcmp(m->conflicts.items[i].status, "open") == 0)
			cr->open[cr->open_l.n++] = &m->conflicts.items[i];
	array_sort(cr->open, cr->open_l.n, sizeof(*cr->open), cmp_open, m);
	page_list_cut(&cr->open_l, open_key, cr->open);
	cr->open_pages = page_list_pages(&cr->open_l);
}

/* Pool work (nothing to load): item i is page i of the open list
 * (open_list) while i < cr->open_pages, the largest pages first, then
 * conflict i - cr->open_pages (conflict_render). Returns 0 or < 0 with
 * err set. */
static int
conflict_item(void *arg, size_t i, void *payload, mirror_error *err)
{
	struct conflict_run *cr = arg;

	if (i < cr->open_pages)
		return open_page(cr->pc, cr->open, &cr->open_l, i, err);
	return conflict_render(arg, i - cr->open_pages, payload, err);
}

/* ---- the projects' queues: the worst on the front page, all paged -- */

/* qsort order of the front page's worst projects: most open conflicts
 * first, then as cmp_front. */
static int
cmp_worst(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)
	    a, "open")), y = json_integer_value(json_object_get(
	    *(json_t *const *)b, "open"));

	return x != y ? (x > y ? -1 : 1) : cmp_front(a, b);
}

/* Into data: "worst", the lines of front (cmp_front order) with open
 * conflicts, most first (cmp_worst), at most FRONT_WORST; "worst_words",
 * what they are in words. */
static void
front_worst(json_t *data, const json_t *front)
{
	size_t n = json_array_size(front), bad = 0;
	json_t **v = xcalloc(n + 1, sizeof(*v)), *out = json_array();

	for (size_t i = 0; i < n; i++)
		if (json_integer_value(json_object_get(json_array_get(front,
		    i), "open")) > 0)
			v[bad++] = json_array_get(front, i);
	qsort(v, bad, sizeof(*v), cmp_worst);
	for (size_t i = 0; i < bad && i < FRONT_WORST; i++)
		json_array_append(out, v[i]);
	json_object_set_new(data, "worst", out);
	json_object_set_new(data, "worst_words", item_worst_words(
	    FRONT_WORST, bad, "conflicts", "most first"));
	free(v);
}

/* Fold into h the line o, an object of strings, integers and nulls
 * (a project's line of the queue's lists), key by key. */
static void
line_hash(uint64_t h[2], json_t *o)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		page_hash_str(h, key);
		if (json_is_integer(v))
			page_hash_int(h, (long long)json_integer_value(v));
		else
			page_hash_str(h, json_string_value(v));
	}
}

/* Page k of the list of every project's queue: the lines l->n of front
 * (cmp_front order) FRONT_PAGE a page, kept without being made when
 * its digest (line_hash of its lines) is the last build's. Returns 0
 * or < 0 with err set. */
static int
front_list_page(const struct page_ctx *pc, const json_t *front,
    const struct page_list *l, size_t k, mirror_error *err)
{
	uint64_t h[2] = { MIRROR_HASH_INIT, QUEUE_LIST_SEED };
	char hex[DIGEST_HEX + 1];
	struct page_list_doc d = { .l = l, .k = k, .folder = "conflicts/",
	    .tname = "conflicts_projects.md", .title =
	    "Review queue by project", .digest = hex };
	json_t *rows;
	size_t from, to;

	page_list_span(&from, &to, l, k);
	page_hash_str(h, "projects");
	page_hash_int(h, (long long)l->n);   /* its count_words */
	page_list_hash(h, l, k);
	for (size_t i = from; i < to; i++)
		line_hash(h, json_array_get(front, i));
	page_folder_digest(hex, pc, h[0], h[1]);
	if (page_list_kept(pc, &d))
		return 0;
	rows = json_array();
	for (size_t i = from; i < to; i++)
		json_array_append(rows, json_array_get(front, i));
	d.data = json_pack("{s:o, s:o}", "projects", rows, "count_words",
	    item_count((long long)l->n, "project", "projects"));
	return page_list_write(pc, &d, err);
}

/* How many of m's conflicts have status. */
static size_t
status_count(const struct site_model *m, const char *status)
{
	size_t n = 0;

	for (size_t i = 0; i < m->conflicts.n; i++)
		n += strcmp(m->conflicts.items[i].status, status) == 0;
	return n;
}

/* api/conflicts.json: the counts and projects, each project's entry
 * (queue_list_json; consumed) on one line, no conflict. Returns 0 or
 * < 0 with err set. */
static int
conflicts_index_json(const struct page_ctx *pc, json_t *projects,
    mirror_error *err)
{
	const struct site_model *m = pc->m;
	json_t *o = item_must(json_pack("{s:I, s:I, s:I, s:I, s:o}", "open",
	    (json_int_t)m->open_conflicts, "resolved", (json_int_t)
	    status_count(m, "resolved"), "dismissed", (json_int_t)
	    status_count(m, "dismissed"), "total", (json_int_t)
	    m->conflicts.n, "projects", projects), "page",
	    "api/conflicts.json");
	uint64_t h[2] = { MIRROR_HASH_INIT, QUEUE_LIST_SEED };
	char hex[DIGEST_HEX + 1];
	json_t *v;
	size_t k;
	int rc = 0;

	/* Its digest from its counts and lines, not its text. */
	page_hash_str(h, "json");
	page_hash_int(h, (long long)m->open_conflicts);
	page_hash_int(h, (long long)m->conflicts.n);
	page_hash_int(h, (long long)status_count(m, "resolved"));
	page_hash_int(h, (long long)status_count(m, "dismissed"));
	json_array_foreach(projects, k, v)
		line_hash(h, v);
	page_folder_digest(hex, pc, h[0], h[1]);
	if (!page_json_kept(pc, "api/conflicts.json", hex))
		rc = page_json_rows_as(pc, "api/conflicts.json", hex, o, err);
	json_decref(o);
	return rc;
}

/* The queue's pages and the list of projects' queues, the projects'
 * files of conflicts (from qw->rows, each conflict's line by model
 * index, taken: NULL after) and api/conflicts.json, as qw (queue_plan)
 * says; pages is the number of pages of the open list (open_list),
 * which the pool wrote. Returns 0 or < 0 with err set. */
static int
queue_pages(const struct page_ctx *pc, struct queue_work *qw,
    size_t pages, mirror_error *err)
{
	json_t *data, *front = qw->front, *index;
	size_t list_pages;
	int rc;

	rc = queue_project_pages(&index, qw, err);
	list_pages = page_list_pages(&(const struct page_list){
	    .base = FRONT_LIST, .n = json_array_size(front),
	    .per_page = FRONT_PAGE });
	if (rc == 0)
		rc = conflicts_index_json(pc, json_incref(index), err);
	json_decref(index);
	/* No site-wide totals: the index has them (doc/site.md, "What the
	 * commit of a conflict opened holds"), so a conflict opened or
	 * closed in a project outside the worst leaves this page be. */
	data = item_must(json_pack("{s:I, s:I, s:I}",
	    "list_count", (json_int_t)json_array_size(front), "list_pages",
	    (json_int_t)(list_pages > 1 ? list_pages : 0),
	    "open_pages", (json_int_t)(pages > 1 ? pages : 0)), "page",
	    "conflicts/index");
	json_object_set_new(data, "list_words", item_count((long long)
	    json_array_size(front), "project", "projects"));
	front_worst(data, front);
	if (rc == 0)
		rc = page_write(pc, "conflicts/index", "conflicts.md",
		    "Conflicts: the review queue", data, err);
	json_decref(data);
	return rc;
}

/* Fold conflict c into h: its fields, its members (their values and
 * rows now) and the ids of the earlier conflicts of its slot. */
static void
conflict_hash(uint64_t h[2], const struct conflict *c)
{
	const char *const f[] = { c->id, c->detected_at, c->slot_kind,
	    c->slot_key, c->project, c->status, c->resolved_at,
	    c->resolution, c->resolved_by, c->description };

	page_hash_strs(h, f, sizeof(f) / sizeof(*f));
	page_hash_int(h, (long long)c->n_members);
	for (size_t k = 0; k < c->n_members; k++) {
		const struct conflict_member *cm = &c->members[k];
		const char *const g[] = { layer_kind(cm->layer), cm->id,
		    cm->value_then, cm->value_now, cm->status_now,
		    cm->conflicts_with, cm->layer_type, cm->source,
		    cm->created_at, cm->updated_at, cm->label,
		    cm->project, cm->slot_words };

		page_hash_strs(h, g, sizeof(g) / sizeof(*g));
		page_hash_int(h, cm->trust);
		page_hash_int(h, cm->favoured);
	}
	page_hash_int(h, (long long)c->n_earlier);
	for (size_t k = 0; k < c->n_earlier; k++)
		page_hash_str(h, c->earlier[k]);
}

/*
 * Fold into h everything the family's files show: each conflict with
 * its members (their values and rows now) and earlier ids, the open
 * count and the projects (the queue gives dates, not ages: the run's
 * day is not an input), each conflict as its digest; and into ch[i]
 * conflict i's own digest, what
 * its page shows: the projects (how it names and links them) and the
 * conflict (conflict_hash). A field the family comes to show must be
 * folded in conflict_hash (t_incremental's trials compare every build
 * with a --force one).
 */
static void
conflicts_hash(uint64_t h[2], uint64_t (*ch)[2], const struct site_model *m)
{
	uint64_t base[2] = { MIRROR_HASH_INIT, CONFLICT_PAGE_SEED };

	page_hash_projects(h, m);
	page_hash_projects(base, m);
	page_hash_int(h, m->open_conflicts);
	page_hash_int(h, (long long)m->conflicts.n);
	/* Each conflict hashed once: the family folds its digest. */
	for (size_t i = 0; i < m->conflicts.n; i++) {
		ch[i][0] = base[0];
		ch[i][1] = base[1];
		conflict_hash(ch[i], &m->conflicts.items[i]);
		page_hash_int(h, (long long)ch[i][0]);
		page_hash_int(h, (long long)ch[i][1]);
	}
}

/* 1 when the family's files were kept as the last build wrote them
 * (what they show is what it was, and DIR holds them); else 0, and the
 * caller writes them, each conflict's digest in ch (conflicts_hash).
 * A change no conflict sees renders no conflict. */
static int
conflicts_kept(const struct page_ctx *pc, uint64_t (*ch)[2])
{
	static const char *const lines[] = { "conflicts/",
	    "api/conflicts/", "api/conflicts.json" };
	uint64_t h[2] = { MIRROR_HASH_INIT, CONFLICTS_HASH_SEED };

	conflicts_hash(h, ch, pc->m);
	return page_keep_family(pc, "conflicts/", h, lines,
	    sizeof(lines) / sizeof(*lines));
}

int
conflict_pages(const struct page_ctx *pc, mirror_error *err)
{
	size_t n = pc->m->conflicts.n;
	uint64_t (*ch)[2] = xcalloc(n + 1, sizeof(*ch));
	unsigned char *need_row = xcalloc(n + 1, 1);
	struct conflict_run cr = { .pc = pc, .rows = xcalloc(n + 1,
	    sizeof(*cr.rows)), .ch = (const uint64_t (*)[2])ch,
	    .need_row = need_row };
	struct pool_work work = { n, NULL, conflict_item, NULL, &cr, NULL,
	    NULL };
	struct queue_work qw;
	int rc = 0;

	if (!conflicts_kept(pc, ch)) {
		/* The queue's plan first (which projects' files are made
		 * again, so which lines), then one page per conflict and
		 * the list of open ones in the pool, then the queue and
		 * the projects' files of conflicts. */
		page_phase(pc, "conflict pages", n + 1, 1);
		queue_plan(&qw, pc, cr.ch, need_row);
		qw.rows = cr.rows;
		open_list(&cr);
		work.n += cr.open_pages;
		rc = pool_run(&work, err);
		if (rc == 0)
			rc = queue_pages(pc, &qw, cr.open_pages, err);
		queue_free(&qw);
		page_list_uncut(&cr.open_l);
		free(cr.open);
	}
	for (size_t i = 0; i < n; i++)  /* what the queue did not take */
		json_decref(cr.rows[i]);
	free(cr.rows);
	free(need_row);
	free(ch);
	return rc;
}
