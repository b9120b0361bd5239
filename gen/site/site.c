/*
 * site.c: what every page family shares: writing a page's two twins,
 * JSON files, fact items and the open-conflict markers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"
#include "out/build_stamp.h"
#include "out/output.h"
#include "render/escape.h"
#include "render/markdown.h"
#include "site/json_out.h"
#include "site/site.h"
#include "site/site_pool.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The build's stamp, last, so it counts every other file. */
static int
write_stamp(struct site *s, mirror_error *err)
{
	size_t n;
	char *text;
	int rc;

	(void)output_paths(s->out, &n);
	s->stamp->pages = (long long)s->pages;
	s->stamp->files = (long long)n + 1;
	s->stamp->open_conflicts = s->open_conflicts;
	text = stamp_text(s->stamp);
	rc = site_write(s, STAMP_PATH, text, strlen(text), err);
	free(text);
	return rc;
}

/* Pool work for projects: the facts are read here, in id order. */
static int
project_load(struct site *s, void *ctx, size_t i, void **payload,
    mirror_error *err)
{
	struct project_facts *f = xcalloc(1, sizeof(*f));

	(void)ctx;
	*payload = f;
	if (s->projects[i].id[0] == '\0')
		return 0;           /* the no-project group is on the index */
	return facts_read_project(f, s->facts, s->projects[i].id, err);
}

static int
project_render(struct site *s, void *ctx, size_t i, void *payload,
    mirror_error *err)
{
	(void)ctx;
	if (s->projects[i].id[0] == '\0')
		return 0;
	return site_project_pages(s, i, payload, err);
}

static void
project_drop(void *payload)
{
	if (payload != NULL)
		facts_free(payload);
	free(payload);
}

void
site_progress_item(struct site *s)
{
	pthread_mutex_lock(&s->lock);
	progress_item(s->progress);
	pthread_mutex_unlock(&s->lock);
}

int
site_render(struct site *s, mirror_error *err)
{
	const struct site_work projects = { s->n_projects, project_load,
	    project_render, project_drop, NULL, 1 };
	int rc;

	pthread_mutex_init(&s->lock, NULL);
	/* Projects are read in id order, the index's "" group first. */
	rc = facts_reader_open(&s->facts, s->st, s->now, err);
	if (rc == 0)
		rc = site_index(s, err);
	/* Progress per phase: how many pages a project has is known only
	 * once its facts are loaded, so that phase counts projects. */
	progress_phase(s->progress, "projects", s->n_projects, 0);
	if (rc == 0)
		rc = site_pool_run(s, &projects, err);
	/* One page per conflict, then the queue. */
	progress_phase(s->progress, "conflict pages", s->conflicts.n + 1, 1);
	if (rc == 0)
		rc = site_conflict_pages(s, err);
	if (rc == 0)
		rc = site_extras(s, err);
	if (rc == 0 && s->out != NULL)
		rc = theme_write_assets(s->th, s->out, err);
	if (rc == 0 && s->out != NULL && s->stamp != NULL)
		rc = write_stamp(s, err);
	facts_reader_close(s->facts);
	s->facts = NULL;
	pthread_mutex_destroy(&s->lock);
	return rc;
}

int
site_write(struct site *s, const char *path, const void *data, size_t len,
    mirror_error *err)
{
	if (s->out == NULL)
		return 0;
	return output_write(s->out, path, data, len, err);
}

/* "../" once per directory in path: the way back to the site root. */
static void
root_of(strbuf *sb, const char *path)
{
	for (const char *p = path; *p != '\0'; p++)
		if (*p == '/')
			strbuf_puts(sb, "../");
}

static json_t *
nav_item(const char *href, const char *label, int current)
{
	return json_pack("{s:s, s:s, s:b}", "href", href, "label", label,
	    "current", current);
}

int
site_page(struct site *s, const char *path, const char *tname,
    const char *title, json_t *data, mirror_error *err)
{
	const tmpl *t;
	strbuf md, body, html, root, file;
	json_t *page;
	const char *base;
	int rc;

	/* The same footer on every page: a one-fact change leaves every
	 * page that does not show the fact byte-identical (and out of the
	 * commit's diff). The store snapshot is named once, in
	 * api/health.json and the commit's trailer. */
	json_object_set_new(data, "site_title", json_string(s->title));
	json_object_set_new(data, "footer", json_string(SITE_FOOTER));
	rc = tmpl_set_get(&t, s->tmpl, tname, err);
	if (rc < 0)
		return rc;
	strbuf_init(&md);
	strbuf_init(&body);
	strbuf_init(&html);
	strbuf_init(&root);
	strbuf_init(&file);
	page = NULL;
	rc = tmpl_render(&md, t, data, NULL, err);
	if (rc < 0)
		goto out;
	/* The HTML twin gets the footer from the theme's layout; the .md
	 * twin gets it here, so no template can forget it. */
	rc = markdown_to_html(&body, md.data, md.len, path, err);
	if (rc < 0)
		goto out;
	while (md.len > 0 && md.data[md.len - 1] == '\n')
		md.data[--md.len] = '\0';
	strbuf_puts(&md, "\n\n---\n\n");
	escape_md(&md, s->title, strlen(s->title));
	strbuf_printf(&md, " · %s\n", SITE_FOOTER);
	strbuf_printf(&file, "%s.md", path);
	rc = site_write(s, file.data, md.data, md.len, err);
	if (rc < 0)
		goto out;
	root_of(&root, path);
	base = strrchr(file.data, '/');
	base = base != NULL ? base + 1 : file.data;
	page = json_pack("{s:s, s:s, s:s, s:s, s:[o,o], s:s}",
	    "title", title, "site_title", s->title, "root", root.data,
	    "markdown", base, "nav",
	    nav_item("index.html", "Projects", strcmp(path, "index") == 0),
	    nav_item("conflicts/index.html", "Conflicts",
	    strcmp(path, "conflicts/index") == 0),
	    "footer", SITE_FOOTER);
	if (page == NULL) {
		rc = mirror_fail(err, MIRROR_EIO, "internal: page %s", path);
		goto out;
	}
	rc = theme_render(&html, s->th, page, body.data, err);
	if (rc < 0)
		goto out;
	strbuf_reset(&file);
	strbuf_printf(&file, "%s.html", path);
	rc = site_write(s, file.data, html.data, html.len, err);
	if (rc == 0) {
		pthread_mutex_lock(&s->lock);
		s->pages++;
		progress_page(s->progress);
		pthread_mutex_unlock(&s->lock);
	}
out:
	json_decref(page);
	strbuf_free(&md);
	strbuf_free(&body);
	strbuf_free(&html);
	strbuf_free(&root);
	strbuf_free(&file);
	return rc;
}

int
site_json(struct site *s, const char *path, const json_t *v,
    mirror_error *err)
{
	char *text = json_dumps(v, MIRROR_JSON_FLAGS);
	size_t len;
	int rc;

	if (text == NULL)
		return mirror_fail(err, MIRROR_EIO, "cannot serialise %s",
		    path);
	/* The newline goes on in place: api/conflicts.json is tens of
	 * megabytes at a million facts, and a copy doubled the peak. */
	len = strlen(text);
	text = xrealloc(text, len + 2);
	text[len++] = '\n';
	text[len] = '\0';
	rc = site_write(s, path, text, len, err);
	free(text);
	return rc;
}

const char *
site_marker_of(const struct site *s, const char *kind, const char *id)
{
	const struct disputed *d = disputed_find(&s->disputed, kind, id);

	return d != NULL ? d->conflict_id : NULL;
}

long
site_project_index(const struct site *s, const char *id)
{
	size_t lo = 0, hi = s->n_projects;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->projects[mid].id, id);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

json_t *
site_date(const char *ts)
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

/* "<layer>-<slug of id>": the element id of a fact. */
static json_t *
anchor(const char *layer, const char *id)
{
	char slug[SLUG_SIZE];
	strbuf sb;
	json_t *v;

	if (strcmp(layer, "project_state") == 0)
		layer = "state";
	slug_make(slug, id);
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s-%s", layer, slug);
	v = json_string(sb.data);
	strbuf_free(&sb);
	return v;
}

json_t *
site_anchor(const char *kind, const char *id)
{
	return anchor(kind, id);
}

static json_t *
marker(const struct site *s, const char *kind, const char *id)
{
	const char *c = site_marker_of(s, kind, id);

	return c != NULL ? json_string(c) : json_null();
}

const char *
site_prop(const struct fact_entity *e, const char *key, char *buf,
    size_t size)
{
	json_t *v = json_object_get(e->properties, key);
	int n;

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		n = snprintf(buf, size, "%lld",
		    (long long)json_integer_value(v));
		return n < 0 || (size_t)n >= size ? "" : buf;
	}
	if (json_is_real(v)) {
		n = snprintf(buf, size, "%.15g", json_real_value(v));
		return n < 0 || (size_t)n >= size ? "" : buf;
	}
	return "";
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
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
	qsort(keys, k, sizeof(char *), cmp_key);
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

/* value (+ unit) of an entity's properties, else its description. */
static json_t *
entity_value(const struct fact_entity *e)
{
	char b1[64], b2[64];
	const char *v = site_prop(e, "value", b1, sizeof(b1));
	const char *u = site_prop(e, "unit", b2, sizeof(b2));
	strbuf sb;
	json_t *out;

	if (v[0] == '\0' && strcmp(e->type, "validation_claim") == 0)
		v = site_prop(e, "verdict", b1, sizeof(b1));
	if (v[0] == '\0')
		return json_string(e->description);
	strbuf_init(&sb);
	strbuf_puts(&sb, v);
	if (u[0] != '\0')
		strbuf_printf(&sb, " %s", u);
	out = json_string(sb.data);
	strbuf_free(&sb);
	return out;
}

json_t *
site_must(json_t *v, const char *what, const char *id)
{
	if (v != NULL)
		return v;
	/* Only out of memory or a bug gets here (core hands over valid
	 * UTF-8, never NULL): fail like xalloc rather than drop a fact. */
	fprintf(stderr, "mirror: internal: cannot build the page data of %s "
	    "'%s'\n", what, id);
	exit(MIRROR_EIO);
}

/* A new JSON string of s cleaned for output (valid UTF-8, no control
 * characters, capped: audit rows are not checked as facts are). */
static json_t *
clean_string(const char *s)
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
 * Who last changed fact kind/id (kind as memory_audit names it), for
 * pages and commit messages: {"actor", "action", "note", "at"}, or null
 * when the store's audit says nothing of it.
 */
static json_t *
changed_by(const struct site *s, const char *kind, const char *id)
{
	const struct fact_audit *a = audit_find(&s->audit, kind, id);

	if (a == NULL)
		return json_null();
	return site_must(json_pack("{s:o, s:o, s:o, s:o}",
	    "actor", clean_string(a->actor), "action", clean_string(a->action),
	    "note", clean_string(a->note), "at", clean_string(a->timestamp)),
	    "memory_audit row of", id);
}

json_t *
site_state_item(const struct site *s, const struct fact_state *f)
{
	return site_must(json_pack("{s:o, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:s, s:f, s:b, s:o, s:o, s:o, s:b, s:o}",
	    "anchor", anchor("state", f->id), "layer", "state", "id", f->id,
	    "label", f->key, "value", f->value, "category", f->category,
	    "status", f->status, "source", f->source,
	    "confidence", f->confidence,
	    "active", strcmp(f->status, "active") == 0,
	    "created", site_date(f->created_at),
	    "updated", site_date(f->updated_at),
	    "conflict", marker(s, "project_state", f->id),
	    "expired", 0, "changed_by", changed_by(s, "project_state", f->id)),
	    "project_state row", f->id);
}

json_t *
site_entity_item(const struct site *s, const struct fact_entity *e)
{
	char slug[SLUG_SIZE];

	slug_make(slug, e->id);
	return site_must(json_pack("{s:o, s:s, s:s, s:s, s:s, s:o, s:s, "
	    "s:s, s:o, s:O, s:f, s:b, s:o, s:o, s:o, s:s, s:s, s:n, s:b, s:o}",
	    "anchor", anchor("entity", e->id), "layer", "entity", "id", e->id,
	    "label", e->name, "type", e->type, "value", entity_value(e),
	    "description", e->description, "status", e->status,
	    "properties", props_text(e), "source_refs", e->source_refs,
	    "confidence", e->confidence,
	    "active", strcmp(e->status, "active") == 0,
	    "created", site_date(e->created_at),
	    "updated", site_date(e->updated_at),
	    "conflict", marker(s, "entity", e->id), "slug", slug,
	    "notes", "", "page", "expired", 0,
	    "changed_by", changed_by(s, "entity", e->id)), "entities row",
	    e->id);
}

json_t *
site_memory_item(const struct site *s, const struct fact_memory *m)
{
	return site_must(json_pack("{s:o, s:s, s:s, s:s, s:s, s:s, s:f, "
	    "s:I, s:O, s:o, s:b, s:b, s:o, s:o, s:o, s:o}",
	    "anchor", anchor("memory", m->id), "layer", "memory", "id", m->id,
	    "label", m->type, "value", m->content, "status", m->status,
	    "confidence", m->confidence,
	    "reference_count", (json_int_t)m->reference_count,
	    "domain_tags", m->domain_tags,
	    "valid_until", m->valid_until ? json_string(m->valid_until) :
	    json_null(),
	    "expired", m->expired,
	    "active", strcmp(m->status, "active") == 0 && !m->expired,
	    "created", site_date(m->created_at),
	    "updated", site_date(m->updated_at),
	    "conflict", marker(s, "memory", m->id),
	    "changed_by", changed_by(s, "memory", m->id)), "memories row",
	    m->id);
}
