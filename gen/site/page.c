/*
 * page.c: writing a page's two twins, JSON files and progress (see
 * page.h).
 */
#include <stdlib.h>
#include <string.h>

#include "out/output.h"
#include "render/escape.h"
#include "render/markdown.h"
#include "site/page.h"
#include "out/record.h"
#include "util/jsonfmt.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void
writer_init(struct site_writer *w, tmpl_set *ts, theme *th,
    struct output *out, const struct site_progress *progress)
{
	memset(w, 0, sizeof(*w));
	w->tmpl = ts;
	w->th = th;
	w->out = out;
	w->progress = progress;
	pthread_mutex_init(&w->lock, NULL);
}

void
writer_free(struct site_writer *w)
{
	pthread_mutex_destroy(&w->lock);
}

int
page_file(const struct page_ctx *pc, const char *path, const void *data,
    size_t len, mirror_error *err)
{
	if (pc->w->out == NULL)
		return 0;
	return output_write(pc->w->out, path, data, len, err);
}

int
page_paths(const char *const **paths, size_t *n, const struct page_ctx *pc)
{
	*paths = NULL;
	*n = 0;
	if (pc->w->out == NULL)
		return 0;
	*paths = output_paths(pc->w->out, n);
	return 1;
}

void
page_phase(const struct page_ctx *pc, const char *name, size_t total,
    int per_page)
{
	const struct site_progress *p = pc->w->progress;

	if (p == NULL || p->phase == NULL)
		return;
	pthread_mutex_lock(&pc->w->lock);
	p->phase(p->arg, name, total, per_page);
	pthread_mutex_unlock(&pc->w->lock);
}

void
page_item(const struct page_ctx *pc)
{
	const struct site_progress *p = pc->w->progress;

	if (p == NULL || p->item == NULL)
		return;
	pthread_mutex_lock(&pc->w->lock);
	p->item(p->arg);
	pthread_mutex_unlock(&pc->w->lock);
}

/* One more page written: counted, and shown on the progress line. */
static void
page_done(const struct page_ctx *pc)
{
	const struct site_progress *p = pc->w->progress;

	pthread_mutex_lock(&pc->w->lock);
	pc->w->pages++;
	if (p != NULL && p->page != NULL)
		p->page(p->arg);
	pthread_mutex_unlock(&pc->w->lock);
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

/*
 * The .md twin: the rendered Markdown md with the footer, which the
 * HTML twin gets from the theme's layout instead (so no template can
 * forget it), as file. Returns 0 or < 0 with err set.
 */
static int
write_md(const struct page_ctx *pc, const char *file, strbuf *md,
    mirror_error *err)
{
	const char *title = pc->m->title;

	while (md->len > 0 && md->data[md->len - 1] == '\n')
		md->data[--md->len] = '\0';
	strbuf_puts(md, "\n\n---\n\n");
	escape_md(md, title, strlen(title));
	strbuf_printf(md, " · %s\n", SITE_FOOTER);
	return page_file(pc, file, md->data, md->len, err);
}

/*
 * The .html twin: body, the Markdown as HTML, in the theme's layout,
 * as path.html; mdfile is the .md twin's path, which the layout links
 * to. Returns 0 or < 0 with err set.
 */
static int
write_html(const struct page_ctx *pc, const char *path, const char *mdfile,
    const char *title, const char *body, mirror_error *err)
{
	const char *base = strrchr(mdfile, '/');
	strbuf html, root, file;
	json_t *page;
	int rc;

	strbuf_init(&html);
	strbuf_init(&root);
	strbuf_init(&file);
	root_of(&root, path);
	page = json_pack("{s:s, s:s, s:s, s:s, s:[o,o], s:s}",
	    "title", title, "site_title", pc->m->title, "root", root.data,
	    "markdown", base != NULL ? base + 1 : mdfile, "nav",
	    nav_item("index.html", "Projects", strcmp(path, "index") == 0),
	    nav_item("conflicts/index.html", "Conflicts",
	    strcmp(path, "conflicts/index") == 0),
	    "footer", SITE_FOOTER);
	if (page == NULL)
		rc = mirror_fail(err, MIRROR_EIO, "internal: page %s", path);
	else
		rc = theme_render(&html, pc->w->th, page, body, err);
	strbuf_printf(&file, "%s.html", path);
	if (rc == 0)
		rc = page_file(pc, file.data, html.data, html.len, err);
	json_decref(page);
	strbuf_free(&html);
	strbuf_free(&root);
	strbuf_free(&file);
	return rc;
}

/*
 * 1 when the writer's record holds data's digest for unit (a page's path,
 * or a JSON file's) and the output directory still holds all n files,
 * which then stay as they are; 0 when they are to be written. The new
 * digest goes into the record either way.
 */
static int
page_kept(const struct page_ctx *pc, const char *unit, const char *tname,
    const char *title, const json_t *data, const char *const *files,
    size_t n)
{
	struct page_record *rec = pc->w->record;
	char hex[DIGEST_HEX + 1];

	if (rec == NULL || pc->w->out == NULL)
		return 0;
	record_digest(hex, rec, unit, tname, title, data);
	record_put(rec, unit, hex);
	return record_same(rec, unit, hex) &&
	    output_keep(pc->w->out, files, n);
}

int
page_write(const struct page_ctx *pc, const char *path, const char *tname,
    const char *title, json_t *data, mirror_error *err)
{
	const tmpl *t;
	strbuf md, body, file, html;
	int rc, kept;

	/* The same footer on every page: a one-fact change leaves every
	 * page that does not show the fact byte-identical (and out of the
	 * commit's diff). The store snapshot is named once, in
	 * api/health.json and the commit's trailer. */
	json_object_set_new(data, "site_title", json_string(pc->m->title));
	json_object_set_new(data, "footer", json_string(SITE_FOOTER));
	strbuf_init(&file);
	strbuf_init(&html);
	strbuf_printf(&file, "%s.md", path);
	strbuf_printf(&html, "%s.html", path);
	kept = page_kept(pc, path, tname, title, data, (const char *[]){
	    file.data, html.data }, 2);
	strbuf_free(&html);
	if (kept) {
		page_done(pc);
		strbuf_free(&file);
		return 0;
	}
	rc = tmpl_set_get(&t, pc->w->tmpl, tname, err);
	if (rc < 0) {
		strbuf_free(&file);
		return rc;
	}
	strbuf_init(&md);
	strbuf_init(&body);
	rc = tmpl_render(&md, t, data, NULL, err);
	if (rc == 0)
		rc = markdown_to_html(&body, md.data, md.len, path, err);
	if (rc == 0)
		rc = write_md(pc, file.data, &md, err);
	if (rc == 0)
		rc = write_html(pc, path, file.data, title, body.data, err);
	if (rc == 0)
		page_done(pc);
	strbuf_free(&md);
	strbuf_free(&body);
	strbuf_free(&file);
	return rc;
}

/* json_dump_callback's sink: append to the strbuf arg. Returns 0. */
static int
dump_to(const char *buf, size_t size, void *arg)
{
	strbuf_add(arg, buf, size);
	return 0;
}

int
page_json(const struct page_ctx *pc, const char *path, const json_t *v,
    mirror_error *err)
{
	strbuf text;
	int rc;

	if (page_kept(pc, path, "json", NULL, v, &path, 1))
		return 0;
	/* Straight into one buffer: json_dumps copied its whole text once
	 * more (api/conflicts.json is tens of megabytes at a million
	 * facts), and the newline a third time. */
	strbuf_init(&text);
	if (json_dump_callback(v, dump_to, &text, MIRROR_JSON_FLAGS) != 0) {
		strbuf_free(&text);
		return mirror_fail(err, MIRROR_EIO, "cannot serialise %s",
		    path);
	}
	strbuf_putc(&text, '\n');
	rc = page_file(pc, path, text.data, text.len, err);
	strbuf_free(&text);
	return rc;
}
