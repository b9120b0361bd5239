/*
 * items.c: the JSON of fact items (see items.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/items.h"
#include "util/array.h"
#include "util/jsonbuild.h"
#include "util/strbuf.h"
#include "sys/termtext.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "words/fact_words.h"

json_t *
item_date(const char *ts)
{
	size_t n;

	if (ts == NULL)
		return json_null();
	/* A store timestamp's date; anything else is cut at a character
	 * boundary, never inside a UTF-8 sequence. */
	n = strnlen(ts, 10);
	while (n > 0 && ts[n] != '\0' && ((unsigned char)ts[n] & 0xc0) == 0x80)
		n--;
	return json_stringn(ts, n);
}

/* 1 when store timestamp ts has a time of day, "YYYY-MM-DD HH:MM..."
 * (or a T between), whose "HH:MM" starts at ts + 11. */
static int
has_time(const char *ts)
{
	static const char shape[] = "dddd-dd-dd?dd:dd";

	for (size_t k = 0; k < sizeof(shape) - 1; k++) {
		char c = ts[k];

		if (c == '\0')
			return 0;
		if (shape[k] == 'd' ? c < '0' || c > '9' : shape[k] == '?' ?
		    c != ' ' && c != 'T' : c != shape[k])
			return 0;
	}
	return 1;
}

json_t *
item_when(const char *ts, int with_time)
{
	char buf[17];

	if (ts == NULL || !with_time || !has_time(ts))
		return item_date(ts);
	memcpy(buf, ts, 16);
	buf[10] = ' ';
	buf[16] = '\0';
	return json_string(buf);
}

static int
cmp_when(const void *a, const void *b)
{
	/* By date and minute: each event's words depend only on its
	 * day's, so ties may fall in any order. */
	return strncmp(((const struct item_when *)a)->ts,
	    ((const struct item_when *)b)->ts, 16);
}

void
item_when_set(struct item_when *w, size_t n)
{
	size_t k = 0;

	/* Only timestamps with a time of day sort: the rest show their
	 * date (or nothing) whatever the others say. */
	for (size_t j = 0; j < n; j++) {
		if (w[j].ts != NULL && has_time(w[j].ts)) {
			struct item_when t = w[k];

			w[k++] = w[j];
			w[j] = t;
		} else {
			json_object_set_new(w[j].obj, w[j].key,
			    item_when(w[j].ts, 0));
		}
	}
	qsort(w, k, sizeof(*w), cmp_when);
	for (size_t a = 0, b; a < k; a = b) {
		int timed;

		/* One day's events: [a, b). Its times tell them apart when
		 * they are not all the same minute. */
		for (b = a + 1; b < k && strncmp(w[a].ts, w[b].ts, 10) == 0;
		    b++)
			;
		timed = strncmp(w[a].ts + 11, w[b - 1].ts + 11, 5) != 0;
		for (size_t j = a; j < b; j++)
			json_object_set_new(w[j].obj, w[j].key,
			    item_when(w[j].ts, timed));
	}
}

void
item_table_dates(json_t *items, int which)
{
	size_t n = json_array_size(items) * 2, k = 0, i;
	struct item_when *w = xcalloc(n + 1, sizeof(*w));
	json_t *v;

	json_array_foreach(items, i, v) {
		if (which & ITEM_UPDATED)
			w[k++] = (struct item_when){ json_string_value(
			    json_object_get(v, "updated_at")), v,
			    "updated_shown" };
		if (which & ITEM_CREATED)
			w[k++] = (struct item_when){ json_string_value(
			    json_object_get(v, "created_at")), v,
			    "created_shown" };
	}
	item_when_set(w, k);
	free(w);
}

json_t *
item_table_confidence(const json_t *items)
{
	const json_t *v;
	size_t i;

	json_array_foreach(items, i, v) {
		const json_t *c = json_object_get(v, "confidence");

		if (json_is_number(c) && json_number_value(c) != 1.0)
			return json_true();
	}
	return json_false();
}

const char *
item_layer_name(enum fact_layer layer)
{
	switch (layer) {
	case LAYER_STATE:
		return "state";
	case LAYER_ENTITY:
		return "entity";
	case LAYER_MEMORY:
		return "memory";
	}
	return "unknown";
}

int
item_layer_of(const char *name)
{
	static const enum fact_layer all[] = { LAYER_STATE, LAYER_ENTITY,
	    LAYER_MEMORY };

	for (size_t i = 0; name != NULL && i < 3; i++)
		if (strcmp(name, item_layer_name(all[i])) == 0)
			return (int)all[i];
	return 0;
}

/* "<layer>-<slug of id>", the layer named as in an anchor. */
json_t *
item_anchor(const char *layer, const char *id)
{
	char slug[SLUG_SIZE];
	strbuf sb;
	json_t *v;

	if (layer_of_kind(layer) == LAYER_STATE)
		layer = item_layer_name(LAYER_STATE);
	slug_make(slug, id);
	strbuf_init(&sb);
	strbuf_puts(&sb, layer);
	strbuf_putc(&sb, '-');
	strbuf_puts(&sb, slug);
	v = json_stringn(sb.data, sb.len);
	strbuf_free(&sb);
	return v;
}

void
url_project_page(strbuf *sb, const char *pslug)
{
	if (pslug[0] == '\0')
		strbuf_puts(sb, "index");
	else
		strbuf_printf(sb, "projects/%s/index", pslug);
}

void
url_project(strbuf *sb, const char *pslug)
{
	url_project_page(sb, pslug);
	strbuf_puts(sb, ".html");
}

json_t *
item_url(void (*url)(strbuf *, const char *), const char *arg)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	url(&sb, arg);
	v = json_stringn(sb.data, sb.len);
	strbuf_free(&sb);
	return v;
}

json_t *
item_overview_page(const char *pslug)
{
	if (pslug == NULL || pslug[0] == '\0')
		return json_null();
	return item_url(url_project_page, pslug);
}

void
url_from(strbuf *sb, const char *from, const char *to)
{
	size_t shared = 0;

	/* The folders both paths start with, each up to its '/'. */
	for (size_t k = 0; from[k] != '\0' && from[k] == to[k]; k++)
		if (from[k] == '/')
			shared = k + 1;
	for (const char *p = from + shared; *p != '\0'; p++)
		if (*p == '/')
			strbuf_puts(sb, "../");
	strbuf_puts(sb, to + shared);
}

void
url_from_to(strbuf *sb, const char *from,
    void (*url)(strbuf *, const char *), const char *arg)
{
	strbuf to;

	strbuf_init(&to);
	url(&to, arg);
	url_from(sb, from, to.data);
	strbuf_free(&to);
}

json_t *
item_url_from(const char *from, void (*url)(strbuf *, const char *),
    const char *arg)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	url_from_to(&sb, from, url, arg);
	v = json_stringn(sb.data, sb.len);
	strbuf_free(&sb);
	return v;
}

void
url_root_link(strbuf *sb, const char *page, const char *ext,
    const char *anchor)
{
	strbuf_printf(sb, "%s%s.%s", strchr(page, '/') == NULL ? "./" : "",
	    page, ext);
	if (anchor != NULL)
		strbuf_printf(sb, "#%s", anchor);
}

void
url_fact(strbuf *sb, const char *pslug, enum fact_layer layer,
    const char *slug)
{
	url_project(sb, pslug);
	strbuf_printf(sb, "#%s-%s", item_layer_name(layer), slug);
}

void
url_conflict_page(strbuf *sb, const char *slug)
{
	strbuf_printf(sb, "conflicts/%s", slug);
}

void
url_conflict(strbuf *sb, const char *slug)
{
	url_conflict_page(sb, slug);
	strbuf_puts(sb, ".html");
}

void
url_api_project(strbuf *sb, const char *pslug)
{
	strbuf_printf(sb, "api/projects/%s.json", pslug);
}

void
url_api_conflicts(strbuf *sb, const char *slug)
{
	strbuf_printf(sb, "api/conflicts/projects/%s.json", slug);
}

void
url_api_checks(strbuf *sb, const char *slug)
{
	strbuf_printf(sb, "api/checks/%s.json", slug);
}

json_t *
item_project_page(const struct site_model *m, long i)
{
	strbuf sb;
	json_t *v;

	if (i < 0)
		return json_null();
	strbuf_init(&sb);
	url_project_page(&sb, m->projects[i].id[0] == '\0' ? "" :
	    m->pslug[i]);
	v = json_stringn(sb.data, sb.len);
	strbuf_free(&sb);
	return v;
}

json_t *
item_conflict_page(const char *id)
{
	char slug[SLUG_SIZE];

	if (id == NULL)
		return json_null();
	slug_make(slug, id);
	return item_url(url_conflict_page, slug);
}

void
url_queue_page(strbuf *sb, const char *dir)
{
	strbuf_printf(sb, "conflicts/projects/%s", dir);
}

void
url_checks_page(strbuf *sb, const char *slug)
{
	strbuf_printf(sb, "checks/projects/%s", slug);
}

void
item_check_url(strbuf *sb, const char *project, const char *id,
    const char *ext)
{
	char ps[SLUG_SIZE], cs[SLUG_SIZE];

	slug_make(ps, project);
	url_checks_page(sb, ps);
	if (ext == NULL)
		return;
	slug_make(cs, id);
	strbuf_printf(sb, ".%s#%s", ext, cs);
}

void
item_rule_page(strbuf *sb, const char *rule_id)
{
	char rs[SLUG_SIZE];

	slug_make(rs, rule_id);
	strbuf_printf(sb, "checks/rules/%s", rs);
}

void
item_check_place(json_t *o, const char *project, const char *id)
{
	char cs[SLUG_SIZE];
	strbuf page;

	strbuf_init(&page);
	item_check_url(&page, project, id, NULL);
	slug_make(cs, id);
	json_object_set_new(o, "page", json_string(page.data));
	json_object_set_new(o, "anchor", json_string(cs));
	strbuf_free(&page);
}

json_t *
item_check(const struct site_model *m, const char *layer, const char *id)
{
	size_t n;
	const struct flagged *f = model_check_of(m, layer, id, &n);
	struct jbuild b;
	json_t *o;

	if (f == NULL)
		return json_null();
	jb_init(&b);
	jb_str(&b, "id", f->violation_id);
	jb_str(&b, "rule", f->rule_id);
	jb_str(&b, "label", model_rule_label(m, f->rule_id));
	jb_int(&b, "count", (json_int_t)n);
	o = item_must(jb_done(&b), "violation", f->violation_id);
	item_check_place(o, f->project, f->violation_id);
	return o;
}

const char *
item_prop(const struct fact_entity *e, const char *key, char *buf,
    size_t size)
{
	return words_prop(e->properties, key, buf, size);
}

/*
 * The properties of e as "key: value; key: value" in key order (jansson
 * keeps insertion order, which is the store's, not ours).
 */
static json_t *
props_text(const struct fact_entity *e)
{
	size_t n = json_object_size(e->properties), k = 0;
	const char **keys = xcalloc(n + 1, sizeof(char *));
	const char *key;
	json_t *v, *out;
	strbuf sb;

	json_object_foreach(e->properties, key, v)
		keys[k++] = key;
	qsort(keys, k, sizeof(char *), array_str_cmp);
	strbuf_init(&sb);
	for (size_t i = 0; i < k; i++) {
		char *text;

		v = json_object_get(e->properties, keys[i]);
		if (i > 0)
			strbuf_puts(&sb, "; ");
		strbuf_printf(&sb, "%s: ", keys[i]);
		if (json_is_string(v)) {
			strbuf_puts(&sb, json_string_value(v));
		} else {
			text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY |
			    JSON_SORT_KEYS);
			strbuf_puts(&sb, text != NULL ? text : "?");
			free(text);
		}
	}
	free(keys);
	out = json_string(sb.data);
	strbuf_free(&sb);
	return out;
}

json_t *
item_entity_value(const struct fact_entity *e)
{
	strbuf sb;
	json_t *out;

	strbuf_init(&sb);
	words_entity_value(&sb, e->type, e->properties, e->description);
	out = json_string(sb.data != NULL ? sb.data : "");
	strbuf_free(&sb);
	return out;
}

json_t *
item_must(json_t *v, const char *what, const char *id)
{
	if (v != NULL)
		return v;
	/* Only out of memory or a bug gets here (core hands over valid
	 * UTF-8, never NULL): fail like xalloc rather than drop a fact. */
	(void)termtext_printf(stderr, "mirror: internal: cannot build the "
	    "page data of %s '%s'\n", what, id);
	exit(MIRROR_EIO);
}

json_t *
item_clean(const char *s)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	text_clean(&sb, s, strlen(s), 0, 0);
	v = json_string(sb.data != NULL ? sb.data : "");
	strbuf_free(&sb);
	return v;
}

/*
 * Who last changed fact layer/id, for pages and commit messages:
 * {"actor", "action", "note", "at"}, or null when the store's audit says
 * nothing of it.
 */
static json_t *
changed_by(const struct site_model *m, enum fact_layer layer,
    const char *id)
{
	const struct fact_audit *a = audit_find(&m->audit, layer_kind(layer),
	    id);
	struct jbuild b;

	if (a == NULL)
		return json_null();
	jb_init(&b);
	jb_take(&b, "actor", item_clean(a->actor));
	jb_take(&b, "action", item_clean(a->action));
	jb_take(&b, "note", item_clean(a->note));
	jb_take(&b, "at", item_clean(a->timestamp));
	return item_must(jb_done(&b), "memory_audit row of", id);
}

/* The keys every fact item starts with: anchor, layer, id, label. */
static void
fact_head(struct jbuild *b, const char *layer, const char *id,
    const char *label)
{
	jb_take(b, "anchor", item_anchor(layer, id));
	jb_str(b, "layer", layer);
	jb_str(b, "id", id);
	jb_str(b, "label", label);
}

/* A fact item's dates and the open conflict it belongs to (kind as
 * conflict members name its table): its id and its page
 * (item_conflict_page). */
static void
fact_dates(struct jbuild *b, const struct site_model *m, enum fact_layer layer,
    const char *id, const char *created, const char *updated)
{
	const char *c = model_marker_of(m, layer, id);

	jb_take(b, "created", item_date(created));
	jb_take(b, "updated", item_date(updated));
	jb_str_or_null(b, "created_at", created);
	jb_str_or_null(b, "updated_at", updated);
	/* The dates a page shows; a table adds the time where two of its
	 * rows share a day (item_table_dates). */
	jb_take(b, "created_shown", item_date(created));
	jb_take(b, "updated_shown", item_date(updated));
	jb_str_or_null(b, "conflict", c);
	jb_take(b, "conflict_page", item_conflict_page(c));
}

/* The keys every fact item ends with: who last changed it, its check. */
static void
fact_tail(struct jbuild *b, const struct site_model *m, enum fact_layer layer,
    const char *id)
{
	jb_take(b, "changed_by", changed_by(m, layer, id));
	jb_take(b, "check", item_check(m, layer_kind(layer), id));
}

json_t *
item_state(const struct site_model *m, const struct fact_state *f)
{
	struct jbuild b;

	jb_init(&b);
	fact_head(&b, "state", f->id, f->key);
	jb_str(&b, "value", f->value);
	jb_str(&b, "category", f->category);
	jb_str(&b, "status", f->status);
	jb_str(&b, "source", f->source);
	jb_real(&b, "confidence", f->confidence);
	jb_bool(&b, "active", strcmp(f->status, "active") == 0);
	fact_dates(&b, m, LAYER_STATE, f->id, f->created_at, f->updated_at);
	jb_bool(&b, "expired", 0);
	fact_tail(&b, m, LAYER_STATE, f->id);
	return item_must(jb_done(&b), "project_state row", f->id);
}

json_t *
item_entity(const struct site_model *m, const struct fact_entity *e)
{
	char slug[SLUG_SIZE];
	struct jbuild b;

	slug_make(slug, e->id);
	jb_init(&b);
	fact_head(&b, "entity", e->id, e->name);
	jb_str(&b, "type", e->type);
	jb_take(&b, "value", item_entity_value(e));
	jb_str(&b, "description", e->description);
	jb_str(&b, "status", e->status);
	jb_ref(&b, "properties", e->properties);
	jb_take(&b, "properties_text", props_text(e));
	jb_ref(&b, "source_refs", e->source_refs);
	jb_real(&b, "confidence", e->confidence);
	jb_bool(&b, "active", strcmp(e->status, "active") == 0);
	fact_dates(&b, m, LAYER_ENTITY, e->id, e->created_at, e->updated_at);
	jb_str(&b, "slug", slug);
	jb_str(&b, "notes", "");
	jb_take(&b, "page", json_null());
	jb_bool(&b, "expired", 0);
	fact_tail(&b, m, LAYER_ENTITY, e->id);
	return item_must(jb_done(&b), "entities row", e->id);
}

json_t *
item_memory(const struct site_model *m, const struct fact_memory *f)
{
	struct jbuild b;

	jb_init(&b);
	fact_head(&b, "memory", f->id, f->type);
	jb_str(&b, "value", f->content);
	jb_str(&b, "status", f->status);
	jb_real(&b, "confidence", f->confidence);
	jb_int(&b, "reference_count", (json_int_t)f->reference_count);
	jb_ref(&b, "domain_tags", f->domain_tags);
	jb_str_or_null(&b, "valid_until", f->valid_until);
	jb_bool(&b, "expired", f->expired);
	jb_bool(&b, "active", strcmp(f->status, "active") == 0 &&
	    !f->expired);
	fact_dates(&b, m, LAYER_MEMORY, f->id, f->created_at, f->updated_at);
	fact_tail(&b, m, LAYER_MEMORY, f->id);
	return item_must(jb_done(&b), "memories row", f->id);
}

json_t *
item_count(long long n, const char *one, const char *many)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%lld %s", n, n == 1 ? one : many);
	v = json_string(sb.data);
	strbuf_free(&sb);
	return v;
}

json_t *
item_worst_words(size_t shown, size_t with, const char *what,
    const char *order)
{
	strbuf sb;
	json_t *v;

	strbuf_init(&sb);
	if (with > shown)
		strbuf_printf(&sb, "The %zu of the %zu projects with open %s "
		    "that have the most, %s.", shown, with, what, order);
	else if (with > 1)
		strbuf_printf(&sb, "The %zu projects with open %s, %s.", with,
		    what, order);
	else if (with == 1)
		strbuf_printf(&sb, "The one project with open %s.", what);
	v = json_string(sb.len > 0 ? sb.data : "");
	strbuf_free(&sb);
	return v;
}

json_t *
item_violation(const struct site_model *m, const struct violation *v)
{
	const struct violation_fact *f = NULL;
	json_t *o;

	/* The first fact shown on the violation's project's page. */
	for (size_t k = 0; k < v->n_facts && f == NULL; k++)
		if (v->fact[k].project != NULL && strcmp(v->fact[k].layer,
		    "relationship") != 0 && strcmp(v->fact[k].project,
		    v->project) == 0)
			f = &v->fact[k];
	o = item_must(json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, "
	    "s:s, s:b, s:o, s:o, s:I, s:o, s:o}", "id", v->id,
	    "rule", v->rule_id, "label", model_rule_label(m, v->rule_id),
	    "severity", v->severity, "error", strcmp(v->severity,
	    "error") == 0, "message", v->message, "status", v->status,
	    "open", strcmp(v->status, "open") == 0,
	    "detected", item_date(v->detected_at),
	    "closed", item_date(v->closed_at), "facts",
	    (json_int_t)v->n_facts, "fact_label", f != NULL ?
	    json_string(f->label) : json_null(), "fact_anchor", f != NULL ?
	    item_anchor(f->layer, f->id) : json_null()), "violation", v->id);
	item_check_place(o, v->project, v->id);
	return o;
}

json_t *
item_open_checks(const struct site_model *m, size_t project)
{
	const struct model_index *ix = &m->checks_of;
	json_t *out = json_array();

	/* Each project's violations are in the list's order: open first. */
	for (size_t k = ix->start[project]; k < ix->start[project + 1];
	    k++) {
		const struct violation *v = &m->violations.items[ix->ord[k]];

		if (strcmp(v->status, "open") != 0)
			break;
		json_array_append_new(out, item_violation(m, v));
	}
	return out;
}

json_t *
item_sources(const char *source)
{
	json_t *out = json_array(), *parsed, *v;
	size_t i;

	if (source == NULL || source[0] == '\0')
		return out;
	parsed = source[0] == '[' ? json_loads(source, JSON_REJECT_DUPLICATES,
	    NULL) : NULL;
	if (!json_is_array(parsed)) {
		json_decref(parsed);
		json_array_append_new(out, json_string(source));
		return out;
	}
	json_array_foreach(parsed, i, v)
		if (json_is_string(v) && json_string_length(v) > 0)
			json_array_append(out, v);
	json_decref(parsed);
	return out;
}

/*
 * The values of an API row of each layer, as api/projects/<slug>.json
 * names them once: the layer, the store's fields under their column
 * names ("slug" after the id: its anchor's slug when the id is not
 * one), then the mirror's findings. The file lists them without
 * "layer", by layer name as its facts are sorted.
 */
static const char *const api_cols_entity[] = { "layer", "id", "slug",
	"name", "type", "description", "properties", "status", "source_refs",
	"confidence", "created_at", "updated_at", "conflict", "checks",
	"changed_by", NULL };
static const char *const api_cols_memory[] = { "layer", "id", "slug",
	"type", "content", "status", "confidence", "reference_count",
	"domain_tags", "valid_until", "created_at", "updated_at", "conflict",
	"checks", "changed_by", NULL };
static const char *const api_cols_rel[] = { "layer", "id", "type",
	"source", "target", NULL };
static const char *const api_cols_state[] = { "layer", "id", "slug",
	"key", "value", "category", "status", "source", "confidence",
	"created_at", "updated_at", "conflict", "checks", "changed_by", NULL };

json_t *
item_api_columns(void)
{
	static const struct {
		const char *layer;
		const char *const *cols;
	} by[] = { { "entity", api_cols_entity }, { "memory", api_cols_memory },
		{ "relationship", api_cols_rel }, { "state", api_cols_state } };
	json_t *o = json_object();

	for (size_t l = 0; l < sizeof(by) / sizeof(by[0]); l++) {
		json_t *a = json_array();

		for (size_t k = 1; by[l].cols[k] != NULL; k++)
			json_array_append_new(a, json_string(by[l].cols[k]));
		json_object_set_new(o, by[l].layer, a);
	}
	return o;
}

/*
 * The mirror's findings on fact (kind, id), kind as conflict members
 * name its table, onto an API row: "conflict", the open conflict it
 * belongs to; "checks", the ids of the open violations naming it;
 * "changed_by", its latest memory_audit row. Each null when there is
 * none.
 */
static void
api_findings(struct jbuild *b, const struct site_model *m,
    enum fact_layer layer, const char *id)
{
	size_t n;
	const struct flagged *f = model_check_of(m, layer_kind(layer), id, &n);
	json_t *ids = f != NULL ? json_array() : json_null();

	jb_str_or_null(b, "conflict", model_marker_of(m, layer, id));
	for (size_t k = 0; f != NULL && k < n; k++)
		json_array_append_new(ids, json_string(f[k].violation_id));
	jb_take(b, "checks", ids);
	jb_take(b, "changed_by", changed_by(m, layer, id));
}

/*
 * An API row's layer and "id", and its "slug": null when the id is one
 * already, else a slug_make of it, with a hash: the fact's anchor on
 * its project's overview is "<layer>-<slug>", its slug or else its id.
 */
static void
api_head(struct jbuild *b, const char *const *cols, const char *layer,
    const char *id)
{
	char slug[SLUG_SIZE];
	int clean = slug_is_clean(id);

	jb_init_row(b, cols);
	jb_str(b, "layer", layer);
	jb_str(b, "id", id);
	if (!clean)
		slug_make(slug, id);
	jb_str_or_null(b, "slug", clean ? NULL : slug);
}

json_t *
item_api_state(const struct site_model *m, const struct fact_state *f)
{
	struct jbuild b;

	api_head(&b, api_cols_state, "state", f->id);
	jb_str(&b, "key", f->key);
	jb_str(&b, "value", f->value);
	jb_str(&b, "category", f->category);
	jb_str(&b, "status", f->status);
	jb_str(&b, "source", f->source);
	jb_real(&b, "confidence", f->confidence);
	jb_str(&b, "created_at", f->created_at);
	jb_str(&b, "updated_at", f->updated_at);
	api_findings(&b, m, LAYER_STATE, f->id);
	return item_must(jb_done(&b), "project_state row", f->id);
}

json_t *
item_api_entity(const struct site_model *m, const struct fact_entity *e)
{
	struct jbuild b;

	api_head(&b, api_cols_entity, "entity", e->id);
	jb_str(&b, "name", e->name);
	jb_str(&b, "type", e->type);
	jb_str(&b, "description", e->description);
	jb_ref(&b, "properties", e->properties);
	jb_str(&b, "status", e->status);
	jb_ref(&b, "source_refs", e->source_refs);
	jb_real(&b, "confidence", e->confidence);
	jb_str(&b, "created_at", e->created_at);
	jb_str(&b, "updated_at", e->updated_at);
	api_findings(&b, m, LAYER_ENTITY, e->id);
	return item_must(jb_done(&b), "entities row", e->id);
}

json_t *
item_api_memory(const struct site_model *m, const struct fact_memory *f)
{
	struct jbuild b;

	api_head(&b, api_cols_memory, "memory", f->id);
	jb_str(&b, "type", f->type);
	jb_str(&b, "content", f->content);
	jb_str(&b, "status", f->status);
	jb_real(&b, "confidence", f->confidence);
	jb_int(&b, "reference_count", (json_int_t)f->reference_count);
	jb_ref(&b, "domain_tags", f->domain_tags);
	jb_str_or_null(&b, "valid_until", f->valid_until);
	jb_str(&b, "created_at", f->created_at);
	jb_str(&b, "updated_at", f->updated_at);
	api_findings(&b, m, LAYER_MEMORY, f->id);
	return item_must(jb_done(&b), "memories row", f->id);
}

json_t *
item_api_rel(const struct fact_rel *r)
{
	struct jbuild b;

	jb_init_row(&b, api_cols_rel);
	jb_str(&b, "layer", "relationship");
	jb_str(&b, "id", r->id);
	jb_str(&b, "type", r->type);
	jb_str(&b, "source", r->source);
	jb_str(&b, "target", r->target);
	return item_must(jb_done(&b), "relationships row", r->id);
}

int
item_name_cmp(const char *a, const char *b)
{
	return text_natural_cmp(a, strlen(a), b, strlen(b));
}
