/*
 * site_extras.c: the files around the pages: 404, api/health.json,
 * .nojekyll, the Atom feed of conflicts (feed.xml) and sitemap.xml.
 *
 * The feed's times come from the data (detected_at, resolved_at); with
 * no conflicts, from SOURCE_DATE_EPOCH when set, else the Unix epoch:
 * never the wall clock, so a rebuild of the same store is identical.
 */
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"
#include "site/site_extras.h"
#include "sweep/health.h"
#include "sys/clock.h"
#include "util/strbuf.h"

/*
 * XML text: escaped as HTML, then without U+FFFE and U+FFFF, the two
 * characters valid UTF-8 can hold that XML 1.0 forbids (escape_html has
 * already dropped the control characters).
 */
static void
xml(strbuf *sb, const char *s)
{
	size_t start = sb->len, j = start;

	escape_html(sb, s, strlen(s));
	for (size_t i = start; i < sb->len; i++) {
		if (i + 2 < sb->len && (unsigned char)sb->data[i] == 0xef &&
		    (unsigned char)sb->data[i + 1] == 0xbf &&
		    ((unsigned char)sb->data[i + 2] & 0xfe) == 0xbe) {
			i += 2;
			continue;
		}
		sb->data[j++] = sb->data[i];
	}
	sb->len = j;
	sb->data[j] = '\0';
}

/* 'YYYY-MM-DD HH:MM:SS' as RFC 3339 ('YYYY-MM-DDTHH:MM:SSZ'). */
static void
rfc3339(strbuf *sb, const char *ts)
{
	char buf[MIRROR_TS_LEN];
	time_t t;

	if (ts == NULL || mirror_parse_ts(&t, ts) < 0)
		t = 0;
	mirror_format_ts(buf, t);
	buf[10] = 'T';
	strbuf_printf(sb, "%sZ", buf);
}

/* base_url without trailing '/', or "" for relative links. */
static void
url_base(strbuf *sb, const struct site_model *m)
{
	size_t n;

	if (m->base_url == NULL || m->base_url[0] == '\0')
		return;
	n = strlen(m->base_url);
	while (n > 0 && m->base_url[n - 1] == '/')
		n--;
	escape_html(sb, m->base_url, n);
	strbuf_putc(sb, '/');
}

static int
feed(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	const char *newest = NULL;
	char slug[SLUG_SIZE];
	strbuf sb;
	int rc;

	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];
		const char *t = c->resolved_at ? c->resolved_at :
		    c->detected_at;

		if (newest == NULL || strcmp(t, newest) > 0)
			newest = t;
	}
	strbuf_init(&sb);
	strbuf_puts(&sb, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	    "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>");
	xml(&sb, m->title);
	strbuf_puts(&sb, ": conflicts</title>\n  <id>");
	if (m->base_url != NULL && m->base_url[0] != '\0') {
		url_base(&sb, m);
		strbuf_puts(&sb, "feed.xml");
	} else {
		slug_make(slug, m->title);
		strbuf_printf(&sb, "urn:mirror:%s:conflicts", slug);
	}
	strbuf_puts(&sb, "</id>\n  <updated>");
	if (newest != NULL) {
		rfc3339(&sb, newest);
	} else {
		char ts[MIRROR_TS_LEN];

		mirror_format_ts(ts, getenv("SOURCE_DATE_EPOCH") ? m->now : 0);
		rfc3339(&sb, ts);
	}
	strbuf_puts(&sb, "</updated>\n  <author><name>mirror</name></author>\n"
	    "  <link rel=\"alternate\" type=\"text/html\" href=\"");
	url_base(&sb, m);
	/* Without a base URL, relative: an IRI reference, resolved
	 * against the feed's own address (RFC 4287, 4.2.7.1). */
	strbuf_puts(&sb, "conflicts/index.html\"/>\n  <link rel=\"self\" "
	    "type=\"application/atom+xml\" href=\"");
	url_base(&sb, m);
	strbuf_puts(&sb, "feed.xml\"/>\n");
	for (size_t i = 0; i < m->conflicts.n; i++) {
		const struct conflict *c = &m->conflicts.items[i];

		slug_make(slug, c->id);
		strbuf_puts(&sb, "  <entry>\n    <title>");
		xml(&sb, c->status);
		strbuf_puts(&sb, ": ");
		xml(&sb, c->description);
		strbuf_puts(&sb, "</title>\n    <id>urn:mirror:conflict:");
		escape_url(&sb, c->id, strlen(c->id));
		strbuf_puts(&sb, "</id>\n    <updated>");
		rfc3339(&sb, c->resolved_at ? c->resolved_at : c->detected_at);
		strbuf_puts(&sb, "</updated>\n    <link href=\"");
		url_base(&sb, m);
		strbuf_printf(&sb, "conflicts/%s.html\"/>\n    <summary>",
		    slug);
		xml(&sb, c->question);
		strbuf_puts(&sb, "</summary>\n  </entry>\n");
	}
	strbuf_puts(&sb, "</feed>\n");
	rc = page_file(pc, "feed.xml", sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}

/* Every HTML page but 404.html, in path order. */
static int
sitemap(const struct page_ctx *pc, mirror_error *err)
{
	const char *const *paths;
	size_t n;
	strbuf sb;
	int rc;

	if (!page_paths(&paths, &n, pc))
		return 0;       /* a rehearsal writes no files to list */
	strbuf_init(&sb);
	strbuf_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(paths[i]);

		if (len < 5 || strcmp(paths[i] + len - 5, ".html") != 0 ||
		    strcmp(paths[i], "404.html") == 0)
			continue;
		strbuf_puts(&sb, "  <url><loc>");
		url_base(&sb, pc->m);
		xml(&sb, paths[i]);
		strbuf_puts(&sb, "</loc></url>\n");
	}
	strbuf_puts(&sb, "</urlset>\n");
	rc = page_file(pc, "sitemap.xml", sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}

static int
health(const struct page_ctx *pc, mirror_error *err)
{
	const struct site_model *m = pc->m;
	struct health h;
	json_t *o, *layers;
	json_int_t listed = 0;
	int rc;

	rc = health_read(&h, m->st, m->now, err);
	if (rc < 0) {
		health_free(&h);
		return rc;
	}
	layers = json_object();
	for (int i = 0; i < 3; i++) {
		json_t *bs = json_object();

		for (size_t j = 0; j < h.layers[i].n_status; j++)
			json_object_set_new(bs, h.layers[i].by_status[j].status,
			    json_integer(h.layers[i].by_status[j].n));
		json_object_set_new(layers, h.layers[i].name, json_pack(
		    "{s:i, s:I, s:o}", "trust", h.layers[i].trust, "total",
		    (json_int_t)h.layers[i].total, "by_status", bs));
	}
	/* No sweep_runs: each build's sweep adds one, and an unchanged
	 * store must give an unchanged site. */
	/* The projects the index lists: every project with a projects
	 * row or with rows of its own, not only the projects rows. */
	for (size_t i = 0; i < m->n_projects; i++)
		listed += m->projects[i].id[0] != '\0';
	o = json_pack("{s:s, s:I, s:o, s:I, s:I, s:I, s:I, s:I}",
	    "snapshot", m->snapshot, "projects", listed,
	    "layers", layers,
	    "relationships", (json_int_t)h.relationships,
	    "expired_memories", (json_int_t)h.expired_memories,
	    "open_conflicts_count", (json_int_t)h.open_conflicts_count,
	    "resolved_conflicts", (json_int_t)h.resolved_conflicts,
	    "dismissed_conflicts", (json_int_t)h.dismissed_conflicts);
	health_free(&h);
	rc = page_json(pc, "api/health.json", o, err);
	json_decref(o);
	return rc;
}

int
extra_pages(const struct page_ctx *pc, mirror_error *err)
{
	json_t *data = json_object();
	int rc;

	rc = page_write(pc, "404", "404.md", "Page not found", data, err);
	json_decref(data);
	if (rc == 0)
		rc = health(pc, err);
	if (rc == 0)
		rc = page_file(pc, ".nojekyll", "", 0, err);
	if (rc == 0)
		rc = feed(pc, err);
	if (rc == 0)
		rc = sitemap(pc, err);
	return rc;
}
