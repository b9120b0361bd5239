/*
 * page.c: writing a page's two twins, JSON files and progress (see
 * page.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "render/escape.h"
#include "render/markdown.h"
#include "site/page.h"
#include "sys/jobs.h"
#include "sys/pool.h"
#include "output/record.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "words/date_words.h"

struct work_count page_rendered;

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
	pthread_cond_init(&w->projects_cond, NULL);
	feed_init(&w->feed);
}

void
page_projects_done(struct site_writer *w)
{
	pthread_mutex_lock(&w->lock);
	w->projects_done = 1;
	pthread_cond_broadcast(&w->projects_cond);
	pthread_mutex_unlock(&w->lock);
}

void
page_projects_wait(struct site_writer *w)
{
	pthread_mutex_lock(&w->lock);
	while (!w->projects_done)
		pthread_cond_wait(&w->projects_cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void
writer_free(struct site_writer *w)
{
	json_decref(w->unaudited);
	feed_free(&w->feed);
	pthread_cond_destroy(&w->projects_cond);
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
page_read_prev(char **data, size_t *len, const struct page_ctx *pc,
    const char *path, mirror_error *err)
{
	*data = NULL;
	*len = 0;
	if (pc->w->out == NULL)
		return 0;
	return output_read_prev(data, len, pc->w->out, path, err);
}

int
page_keep_rest(const struct page_ctx *pc, const char *prefix,
    const char *const *drop, size_t n, mirror_error *err)
{
	if (pc->w->out == NULL ||
	    output_keep_rest(pc->w->out, prefix, drop, n) >= 0)
		return 0;
	return mirror_fail(err, MIRROR_EIO, "internal: the last build's "
	    "files below %s could not be kept", prefix);
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

/* 1 when a page's data member named key (n bytes) holds a date of what
 * the page shows: "*_at" (the store's timestamps) or a date made of one
 * (latest, date, detected, created, updated, resolved, closed). Every
 * member of every page's data comes here: by length, each compare of a
 * size the compiler knows. */
static int
dated_key(const char *key, size_t n)
{
	if (n > 3 && key[n - 3] == '_' && key[n - 2] == 'a' &&
	    key[n - 1] == 't')
		return 1;
	switch (n) {
	case 4:
		return memcmp(key, "date", 4) == 0;
	case 6:
		return memcmp(key, "latest", 6) == 0 ||
		    memcmp(key, "closed", 6) == 0;
	case 7:
		return memcmp(key, "created", 7) == 0 ||
		    memcmp(key, "updated", 7) == 0;
	case 8:
		return memcmp(key, "detected", 8) == 0 ||
		    memcmp(key, "resolved", 8) == 0;
	default:
		return 0;
	}
}

/* Into newest, the greatest date of v and what it holds: the string
 * values of its members of a dated_key that start with a date. */
static void
newest_date(char newest[11], json_t *v)
{
	const char *key, *t;
	json_t *x;
	size_t i, n;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			newest_date(newest, x);
		return;
	}
	json_object_keylen_foreach(v, key, n, x) {
		if (json_is_object(x) || json_is_array(x)) {
			newest_date(newest, x);
			continue;
		}
		if (!json_is_string(x) || !dated_key(key, n))
			continue;
		t = json_string_value(x);
		if (date_words_valid(t) && strncmp(t, newest, 10) > 0) {
			memcpy(newest, t, 10);
			newest[10] = '\0';
		}
	}
}

/*
 * The footer of a page whose data is data, into sb: "Updated 28 Nov
 * 2026 · " when the data dates what it shows (the newest of its
 * timestamps: a page changes date only when what it shows does, so an
 * unchanged page keeps its bytes), then SITE_FOOTER.
 */
static void
page_footer(strbuf *sb, json_t *data)
{
	char newest[11] = "", words[DATE_WORDS_SIZE];

	newest_date(newest, data);
	if (date_words(words, newest) == 0)
		strbuf_printf(sb, "Updated %s · ", words);
	strbuf_puts(sb, SITE_FOOTER);
}

/*
 * The .md twin: the rendered Markdown md with footer, which the HTML
 * twin gets from the theme's layout instead (so no template can forget
 * it), as file. Returns 0 or < 0 with err set.
 */
static int
write_md(const struct page_ctx *pc, const char *file, strbuf *md,
    const char *footer, mirror_error *err)
{
	const char *title = pc->m->title;

	while (md->len > 0 && md->data[md->len - 1] == '\n')
		md->data[--md->len] = '\0';
	strbuf_puts(md, "\n\n---\n\n");
	escape_md(md, title, strlen(title));
	strbuf_printf(md, " · %s\n", footer);
	return page_file(pc, file, md->data, md->len, err);
}

/*
 * The way from a page at path back to the site root, into root: "../"
 * per directory; for the not-found page, which a web server sends for a
 * missing URL at any depth, the base URL with a '/' when there is one,
 * else "/" (the server's root). Returns 1 for the not-found page without
 * a base URL, whose layout then needs no file of the site (standalone).
 */
static int
page_root(strbuf *root, const struct site_model *m, const char *path)
{
	size_t n;

	if (strcmp(path, SITE_NOT_FOUND) != 0) {
		root_of(root, path);
		return 0;
	}
	if (m->base_url == NULL || m->base_url[0] == '\0') {
		strbuf_putc(root, '/');
		return 1;
	}
	n = strlen(m->base_url);
	while (n > 0 && m->base_url[n - 1] == '/')
		n--;
	strbuf_add(root, m->base_url, n);
	strbuf_putc(root, '/');
	return 0;
}

/*
 * The text of the page's <title>: its own title and the site's, or the
 * site's alone when they are the same (the index).
 */
static void
head_title(strbuf *sb, const char *title, const char *site_title)
{
	strbuf_puts(sb, title);
	if (site_title[0] != '\0' && strcmp(title, site_title) != 0)
		strbuf_printf(sb, " \xc2\xb7 %s", site_title);
}

/*
 * Into html, a page that needs no file of the site (the not-found page
 * without a base URL, served at any depth, where no relative link finds
 * the stylesheet): the theme's stylesheet inline, with the colour
 * schemes it styles, before the first </head>. Nothing when the theme
 * has none to inline or the layout no </head>. Returns 0 or < 0.
 */
static int
inline_style(strbuf *html, const struct site_writer *w, mirror_error *err)
{
	const char *end = html->data != NULL ? strstr(html->data,
	    "</head>") : NULL;
	strbuf out, css;
	int rc;

	if (end == NULL)
		return 0;
	strbuf_init(&css);
	rc = theme_inline_css(&css, w->th, w->style_extra, err);
	if (rc < 0 || css.len == 0) {
		strbuf_free(&css);
		return rc;
	}
	strbuf_init(&out);
	strbuf_add(&out, html->data, (size_t)(end - html->data));
	strbuf_puts(&out, "<meta name=\"color-scheme\" content=\"light "
	    "dark\">\n<style>");
	strbuf_add(&out, css.data, css.len);
	strbuf_puts(&out, "</style>\n");
	strbuf_puts(&out, end);
	strbuf_free(html);
	*html = out;
	strbuf_free(&css);
	return 0;
}

/* What write_html puts in the layout: body, the Markdown as HTML;
 * mdfile, the .md twin's path, which the layout links to (NULL: an
 * HTML-only page, which links none); desc, the page's summary for its
 * description; toc, 1 when body holds the contents landmark as a child
 * of its own (markdown.h (h)), else 0. */
struct html_twin {
	const char *body, *mdfile, *desc, *footer;
	int toc;
};

/* 1 when the page at path is a list that sorts in the browser: the
 * projects list (projects/index, index.page-2, ...; not a project's
 * folder projects/index/), the lists across projects,
 * conflicts/index.open and checks/index.open, and of every project's
 * queue and checks, conflicts/index.projects and checks/index.projects,
 * and their pages. */
static int
page_sortable(const char *path)
{
	static const char *const lists[] = { "projects/index",
	    "conflicts/index.open", "checks/index.open",
	    "conflicts/index.projects", "checks/index.projects" };

	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++) {
		size_t n = strlen(lists[i]);

		if (strncmp(path, lists[i], n) == 0 && (path[n] == '\0' ||
		    path[n] == '.'))
			return 1;
	}
	return 0;
}

/*
 * The .html twin of doc: tw's body in the theme's layout, as
 * doc->path.html. Returns 0 or < 0 with err set.
 */
static int
write_html(const struct page_ctx *pc, const struct page_doc *doc,
    const struct html_twin *tw, mirror_error *err)
{
	const char *path = doc->path, *title = doc->title;
	const char *mdfile = tw->mdfile, *desc = tw->desc;
	const char *base = mdfile != NULL ? strrchr(mdfile, '/') : NULL;
	strbuf html, root, file, head;
	json_t *page;
	int rc, alone;

	strbuf_init(&html);
	strbuf_init(&root);
	strbuf_init(&file);
	strbuf_init(&head);
	alone = page_root(&root, pc->m, path);
	head_title(&head, title, pc->m->title);
	/* The not-found page links its twin from the root as well. */
	if (mdfile != NULL)
		strbuf_printf(&file, "%s%s", strcmp(path, SITE_NOT_FOUND) ==
		    0 ? root.data : "", base != NULL ? base + 1 : mdfile);
	page = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s, s:[o,o,o,o,o], "
	    "s:s, s:b, s:b, s:b, s:b, s:b}", "title", title, "site_title",
	    pc->m->title,
	    "head_title", head.data, "description", desc[0] != '\0' ? desc :
	    title, "root", root.data, "standalone", alone,
	    "markdown", file.len > 0 ? file.data : "", "nav",
	    nav_item("index.html", "Projects", strcmp(path, "index") == 0),
	    nav_item("conflicts/index.html", "Conflicts",
	    strcmp(path, "conflicts/index") == 0),
	    nav_item("checks/index.html", "Checks",
	    strcmp(path, "checks/index") == 0),
	    nav_item("keys/index.html", "A\xe2\x80\x93Z",
	    strncmp(path, "keys/", 5) == 0),
	    nav_item("search/index.html", "Search",
	    strcmp(path, "search/index") == 0),
	    "footer", tw->footer, "search",
	    strcmp(path, "search/index") == 0, "queue",
	    /* A project's queue (conflicts/projects/...) gets its filters. */
	    strncmp(path, "conflicts/projects/", 19) == 0, "sortable",
	    page_sortable(path), "changes",
	    /* The recent changes filter by project and kind. */
	    strcmp(path, "changes") == 0, "toc", tw->toc);
	strbuf_reset(&file);
	strbuf_free(&head);
	if (page == NULL)
		rc = mirror_fail(err, MIRROR_EIO, "internal: page %s", path);
	else
		rc = theme_render(&html, pc->w->th, page, tw->body, err);
	if (rc == 0 && alone)
		rc = inline_style(&html, pc->w, err);
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
 * The digest of data for unit (a page's path, or a JSON file's) with
 * template tname and title into hex: 1 when made, for kept_as; 0 with
 * hex "" when the writer keeps no record or writes nothing.
 */
static int
page_digest(char hex[DIGEST_HEX + 1], const struct page_ctx *pc,
    const char *unit, const char *tname, const char *title,
    const json_t *data)
{
	hex[0] = '\0';
	if (pc->w->record == NULL || pc->w->out == NULL)
		return 0;
	record_digest(hex, pc->w->record, unit, tname, title, data);
	return 1;
}

/*
 * The digest hex of unit recorded; 1 when the record held it already
 * and the output directory still holds all n files, which then stay as
 * the last build wrote them; 0 when they are to be written.
 */
static int
kept_as(const struct page_ctx *pc, const char *unit, const char *hex,
    const char *const *files, size_t n)
{
	record_put(pc->w->record, unit, hex);
	return record_same(pc->w->record, unit, hex) &&
	    output_keep(pc->w->out, files, n);
}

/* The files of the lines page_keep_lines gathers. */
struct kept_files {
	strbuf names;           /* each file's path and NUL, one by one */
	size_t n;               /* pages (two files each, or one) */
	int (*html_only)(const char *path, size_t len); /* 1: a page is
	                           its .html alone; NULL: none is */
};

/* A recorded line below a folder: one under api/ is that file (JSON),
 * any other a page, both of its twins (its .html alone when the folder
 * is HTML only). */
static void
gather_line(void *arg, const char *path, size_t len, const char *hex)
{
	struct kept_files *kf = arg;

	(void)hex;
	if (len > 4 && memcmp(path, "api/", 4) == 0) {
		strbuf_add(&kf->names, path, len);
		strbuf_add(&kf->names, "", 1);
		return;
	}
	if (kf->html_only == NULL || !kf->html_only(path, len)) {
		strbuf_add(&kf->names, path, len);
		strbuf_add(&kf->names, ".md", 4);
	}
	strbuf_add(&kf->names, path, len);
	strbuf_add(&kf->names, ".html", 6);
	kf->n++;
}

void
page_folder_digest(char hex[DIGEST_HEX + 1], const struct page_ctx *pc,
    uint64_t h1, uint64_t h2)
{
	const char *key = pc->w->record != NULL ?
	    record_key(pc->w->record) : "";
	char a[17], b[17];

	hex[0] = '\0';
	if (strlen(key) != 16)
		return;
	hash_hex(a, h1 ^ hash_add(MIRROR_HASH_INIT, key, 16));
	hash_hex(b, h2);
	memcpy(hex, a, 16);
	memcpy(hex + 16, b, 16);
	hex[DIGEST_HEX] = '\0';
}

void
page_hash_str(uint64_t h[2], const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	/* A tag first, so NULL (a gone row's field) is not "". */
	h[0] = hash_add_str(hash_add(h[0], s != NULL ? "s" : "n", 1), s);
	h[1] = hash_words(h[1] ^ (s != NULL), s != NULL ? s : "", n);
}

void
page_hash_strs(uint64_t h[2], const char *const *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		page_hash_str(h, s[i]);
}

void
page_hash_int(uint64_t h[2], long long v)
{
	char num[TEXT_INT_SIZE];

	(void)text_int(num, v);
	page_hash_str(h, num);
}

/* 1 when line names a folder ("checks/"), 0 for one file's line. */
static int
is_folder(const char *line)
{
	size_t len = strlen(line);

	return len > 0 && line[len - 1] == '/';
}

void
page_hash_projects(uint64_t h[2], const struct site_model *m)
{
	page_hash_int(h, (long long)m->n_projects);
	for (size_t i = 0; i < m->n_projects; i++) {
		page_hash_str(h, m->projects[i].id);
		page_hash_str(h, m->projects[i].name);
	}
}

/* page_keep_family with the unit's digest given as hex, a page HTML
 * alone when html_only (NULL: none) says so. */
static int
keep_lines(const struct page_ctx *pc, const char *unit,
    const char *unit_hex, const char *const *lines, size_t n_lines,
    int (*html_only)(const char *path, size_t len))
{
	struct page_record *rec = pc->w->record;
	struct kept_files kf = { .n = 0, .html_only = html_only };
	char prev[DIGEST_HEX + 1];
	const char **files = NULL;
	size_t nf = 0, cap = 0;
	int kept = 0;

	if (rec == NULL || pc->w->out == NULL || unit_hex[0] == '\0')
		return 0;
	record_put(rec, unit, unit_hex);
	if (!record_prev(prev, rec, unit) || strcmp(prev, unit_hex) != 0)
		return 0;
	strbuf_init(&kf.names);
	for (size_t k = 0; k < n_lines; k++)
		if (is_folder(lines[k]))
			record_prev_under(rec, lines[k], gather_line, &kf);
		else if (!record_prev(prev, rec, lines[k]))
			goto done;    /* a file the last build did not record */
	for (size_t off = 0; off < kf.names.len; off += strlen(files[nf -
	    1]) + 1)
		ARRAY_PUSH(files, nf, cap) = kf.names.data + off;
	for (size_t k = 0; k < n_lines; k++)
		if (!is_folder(lines[k]))
			ARRAY_PUSH(files, nf, cap) = lines[k];
	if (kf.n == 0 || !output_keep(pc->w->out, files, nf))
		goto done;
	/* A kept page's inputs are the previous build's: its digests
	 * stay, a folder's as one run of lines. */
	for (size_t k = 0; k < n_lines; k++)
		if (is_folder(lines[k]))
			record_keep_under(rec, lines[k]);
		else if (record_prev(prev, rec, lines[k]))
			record_put(rec, lines[k], prev);
	pthread_mutex_lock(&pc->w->lock);
	pc->w->pages += kf.n;
	pthread_mutex_unlock(&pc->w->lock);
	kept = 1;
done:
	free(files);
	strbuf_free(&kf.names);
	return kept;
}

int
page_keep_folder(const struct page_ctx *pc, const char *folder,
    const char *json, const char *unit_hex,
    int (*html_only)(const char *path, size_t len))
{
	const char *lines[2] = { folder, json };

	return keep_lines(pc, folder, unit_hex, lines, json != NULL ? 2 : 1,
	    html_only);
}

int
page_keep_family(const struct page_ctx *pc, const char *unit,
    const uint64_t h[2], const char *const *lines, size_t n_lines)
{
	char hex[DIGEST_HEX + 1];

	page_folder_digest(hex, pc, h[0], h[1]);
	return keep_lines(pc, unit, hex, lines, n_lines, NULL);
}

int
page_kept(const struct page_ctx *pc, const struct page_doc *doc)
{
	strbuf file, html;
	int kept;

	if (doc->digest == NULL || doc->digest[0] == '\0' ||
	    pc->w->record == NULL || pc->w->out == NULL)
		return 0;
	strbuf_init(&file);
	strbuf_init(&html);
	strbuf_printf(&file, "%s.md", doc->path);
	strbuf_printf(&html, "%s.html", doc->path);
	kept = kept_as(pc, doc->path, doc->digest, doc->html_only ?
	    (const char *[]){ html.data } : (const char *[]){ file.data,
	    html.data }, doc->html_only ? 1 : 2);
	if (kept)
		page_done(pc);
	strbuf_free(&file);
	strbuf_free(&html);
	return kept;
}

int
page_write(const struct page_ctx *pc, const char *path, const char *tname,
    const char *title, json_t *data, mirror_error *err)
{
	return page_write_figures(pc, &(struct page_doc){ .path = path,
	    .tname = tname, .title = title, .data = data }, err);
}

/* page_write_figures, the page's digest into hex ("" when there is no
 * record). */
static int
write_twins(char hex[DIGEST_HEX + 1], const struct page_ctx *pc,
    const struct page_doc *doc, mirror_error *err)
{
	const char *path = doc->path;
	json_t *data = doc->data;
	const tmpl *t;
	strbuf md, body, file, html, desc, tname, footer;
	int rc, kept, toc = 0;

	/* The same footer on every page: a one-fact change leaves every
	 * page that does not show the fact byte-identical (and out of the
	 * commit's diff). The store snapshot is named once, in
	 * api/health.json and the commit's trailer. */
	json_object_set_new(data, "site_title", json_string(pc->m->title));
	json_object_set_new(data, "footer", json_string(SITE_FOOTER));
	strbuf_init(&file);
	strbuf_init(&html);
	strbuf_init(&tname);
	strbuf_printf(&file, "%s.md", path);
	strbuf_printf(&html, "%s.html", path);
	/* An HTML-only page is its .html alone, the first file here; its
	 * digest says so (its template's name as "html:NAME"), so a page
	 * that had both twins, whose HTML links its Markdown, is rendered
	 * again. */
	if (doc->html_only)
		strbuf_printf(&tname, "html:%s", doc->tname);
	if (doc->digest != NULL) {
		/* A family's digest is page_folder_digest's: DIGEST_HEX
		 * digits, or "" without a record. */
		kept = pc->w->record != NULL && pc->w->out != NULL &&
		    strlen(doc->digest) == DIGEST_HEX;
		memcpy(hex, kept ? doc->digest : "", kept ? DIGEST_HEX + 1 : 1);
	} else {
		kept = page_digest(hex, pc, path, doc->html_only ?
		    tname.data : doc->tname, doc->title, data);
	}
	kept = kept && kept_as(pc, path, hex, doc->html_only ?
	    (const char *[]){ html.data } : (const char *[]){ file.data,
	    html.data }, doc->html_only ? 1 : 2);
	strbuf_free(&html);
	strbuf_free(&tname);
	if (kept) {
		page_done(pc);
		strbuf_free(&file);
		return 0;
	}
	rc = tmpl_set_get(&t, pc->w->tmpl, doc->tname, err);
	if (rc < 0) {
		strbuf_free(&file);
		return rc;
	}
	strbuf_init(&md);
	strbuf_init(&body);
	strbuf_init(&desc);
	strbuf_init(&footer);
	work_add(&page_rendered, 1);
	page_footer(&footer, data);
	rc = tmpl_render(&md, t, data, NULL, err);
	if (rc == 0)
		rc = markdown_render(&body, &desc, &(struct md_source){
		    .md = md.data, .len = md.len, .name = path,
		    .figs = doc->figs, .nfigs = doc->nfigs,
		    .kinds = pc->w->kinds, .toc = &toc }, err);
	if (rc == 0 && !doc->html_only)
		rc = write_md(pc, file.data, &md, footer.data, err);
	if (rc == 0)
		rc = write_html(pc, doc, &(struct html_twin){ .body =
		    body.data, .mdfile = doc->html_only ? NULL : file.data,
		    .desc = desc.data, .footer = footer.data, .toc = toc },
		    err);
	if (rc == 0)
		page_done(pc);
	strbuf_free(&md);
	strbuf_free(&body);
	strbuf_free(&desc);
	strbuf_free(&footer);
	strbuf_free(&file);
	return rc;
}

int
page_write_figures(const struct page_ctx *pc, const struct page_doc *doc,
    mirror_error *err)
{
	char hex[DIGEST_HEX + 1];

	return write_twins(hex, pc, doc, err);
}

/* A page queued for page_later's thread. */
struct later_job {
	char *path;
	const char *tname;
	char *title;
	json_t *data;
	int html_only;
	char *digest;                     /* NULL: the data's */
};

struct page_later {
	const struct page_ctx *pc;
	pthread_t tid;
	int started;                      /* 1: tid writes the queue */
	pthread_mutex_t mu;
	pthread_cond_t more, room;        /* a job came; a slot freed */
	struct later_job q[PAGE_LATER_DEPTH];
	size_t head, n;                   /* the oldest job, how many */
	int closing;                      /* 1: no more jobs come */
	int rc;                           /* the first failure, 0 */
	mirror_error err;
};

static void
job_free(struct later_job *j)
{
	free(j->path);
	free(j->title);
	free(j->digest);
	json_decref(j->data);
}

/* Write the queue's pages until it is closed and empty (the thread's
 * start); after a failure, only drop them. Returns NULL. */
static void *
later_run(void *arg)
{
	struct page_later *pl = arg;

	pthread_mutex_lock(&pl->mu);
	for (;;) {
		struct later_job j;
		mirror_error e;
		int failed, rc = 0;

		while (pl->n == 0 && !pl->closing)
			pthread_cond_wait(&pl->more, &pl->mu);
		if (pl->n == 0)
			break;
		j = pl->q[pl->head];
		pl->head = (pl->head + 1) % PAGE_LATER_DEPTH;
		pl->n--;
		failed = pl->rc < 0;
		pthread_cond_signal(&pl->room);
		pthread_mutex_unlock(&pl->mu);
		if (!failed)
			rc = page_write_figures(pl->pc, &(struct page_doc){
			    .path = j.path, .tname = j.tname, .title = j.title,
			    .data = j.data, .html_only = j.html_only,
			    .digest = j.digest }, &e);
		job_free(&j);
		pthread_mutex_lock(&pl->mu);
		if (rc < 0 && pl->rc == 0) {
			pl->rc = rc;
			pl->err = e;
			pthread_cond_broadcast(&pl->room);
		}
	}
	pthread_mutex_unlock(&pl->mu);
	pool_thread_done();
	return NULL;
}

struct page_later *
page_later_start(const struct page_ctx *pc, int own_thread)
{
	struct page_later *pl = xcalloc(1, sizeof(*pl));

	pl->pc = pc;
	pthread_mutex_init(&pl->mu, NULL);
	pthread_cond_init(&pl->more, NULL);
	pthread_cond_init(&pl->room, NULL);
	/* One job (MIRROR_JOBS=1): one thread, the pages written here. */
	pl->started = own_thread && mirror_jobs() > 1 &&
	    jobs_thread_start(&pl->tid, "page-later", later_run, pl) == 0;
	return pl;
}

int
page_later_put(struct page_later *pl, const struct page_doc *doc,
    mirror_error *err)
{
	json_t *data = doc->data;
	int rc;

	if (!pl->started) {
		rc = page_write_figures(pl->pc, doc, err);
		json_decref(data);
		return rc;
	}
	pthread_mutex_lock(&pl->mu);
	while (pl->n == PAGE_LATER_DEPTH && pl->rc == 0)
		pthread_cond_wait(&pl->room, &pl->mu);
	if ((rc = pl->rc) < 0) {
		*err = pl->err;
		pthread_mutex_unlock(&pl->mu);
		json_decref(data);
		return rc;
	}
	pl->q[(pl->head + pl->n) % PAGE_LATER_DEPTH] = (struct later_job){
	    .path = xstrdup(doc->path), .tname = doc->tname,
	    .title = xstrdup(doc->title), .data = data,
	    .html_only = doc->html_only, .digest = doc->digest != NULL ?
	    xstrdup(doc->digest) : NULL };
	pl->n++;
	pthread_cond_signal(&pl->more);
	pthread_mutex_unlock(&pl->mu);
	return 0;
}

int
page_later_finish(struct page_later *pl, mirror_error *err)
{
	int rc;

	if (pl->started) {
		pthread_mutex_lock(&pl->mu);
		pl->closing = 1;
		pthread_cond_signal(&pl->more);
		pthread_mutex_unlock(&pl->mu);
		pthread_join(pl->tid, NULL);
	}
	if ((rc = pl->rc) < 0)
		*err = pl->err;
	pthread_cond_destroy(&pl->room);
	pthread_cond_destroy(&pl->more);
	pthread_mutex_destroy(&pl->mu);
	free(pl);
	return rc;
}

/* v as the JSON file path (page_json's text; with rows, each object
 * below the top on a line: json_write_rows). Returns 0 or < 0 with err set. */
static int
json_file(const struct page_ctx *pc, const char *path, const json_t *v,
    int rows, mirror_error *err)
{
	strbuf text;
	int rc;

	/* Straight into one buffer (api/conflicts.json grows with every
	 * conflict), and the newline with it. */
	strbuf_init(&text);
	if ((rows ? json_write_rows(&text, v) : json_write_capped(&text, v,
	    0)) != 0) {
		strbuf_free(&text);
		return mirror_fail(err, MIRROR_EIO, "cannot serialise %s",
		    path);
	}
	strbuf_putc(&text, '\n');
	rc = page_file(pc, path, text.data, text.len, err);
	strbuf_free(&text);
	return rc;
}

/* page_json, in rows when rows. Returns 0 or < 0 with err set. */
static int
json_page(const struct page_ctx *pc, const char *path, const json_t *v,
    int rows, mirror_error *err)
{
	char hex[DIGEST_HEX + 1];

	if (page_digest(hex, pc, path, "json", NULL, v) &&
	    kept_as(pc, path, hex, &path, 1))
		return 0;
	return json_file(pc, path, v, rows, err);
}

/* 1 when hex is a family's digest (page_folder_digest's) that this
 * writer records and writes by. */
static int
family_digest(const struct page_ctx *pc, const char *hex)
{
	return hex != NULL && strlen(hex) == DIGEST_HEX &&
	    pc->w->record != NULL && pc->w->out != NULL;
}

int
page_json_kept(const struct page_ctx *pc, const char *path,
    const char *digest)
{
	if (!family_digest(pc, digest) || !record_same(pc->w->record, path,
	    digest) || !output_keep(pc->w->out, &path, 1))
		return 0;
	record_put(pc->w->record, path, digest);
	return 1;
}

int
page_json_rows_as(const struct page_ctx *pc, const char *path,
    const char *digest, const json_t *v, mirror_error *err)
{
	if (!family_digest(pc, digest))
		return json_page(pc, path, v, 1, err);
	record_put(pc->w->record, path, digest);
	return json_file(pc, path, v, 1, err);
}

int
page_json(const struct page_ctx *pc, const char *path, const json_t *v,
    mirror_error *err)
{
	return json_page(pc, path, v, 0, err);
}

int
page_json_rows(const struct page_ctx *pc, const char *path,
    const json_t *v, mirror_error *err)
{
	return json_page(pc, path, v, 1, err);
}

/* page_write_json, the JSON in rows when rows. Returns 0 or < 0. */
static int
write_twin_json(const struct page_ctx *pc, const struct page_doc *doc,
    const char *json_path, const json_t *v, int rows, mirror_error *err)
{
	char hex[DIGEST_HEX + 1], from[DIGEST_HEX + 1];
	int rc;

	rc = write_twins(from, pc, doc, err);
	if (rc < 0)
		return rc;
	if (from[0] != '\0') {
		record_digest_from(hex, pc->w->record, json_path, from);
		if (kept_as(pc, json_path, hex, &json_path, 1))
			return 0;
	}
	return json_file(pc, json_path, v, rows, err);
}

int
page_write_json(const struct page_ctx *pc, const struct page_doc *doc,
    const char *json_path, const json_t *v, mirror_error *err)
{
	return write_twin_json(pc, doc, json_path, v, 0, err);
}

int
page_write_rows(const struct page_ctx *pc, const struct page_doc *doc,
    const char *json_path, const json_t *v, mirror_error *err)
{
	return write_twin_json(pc, doc, json_path, v, 1, err);
}


/* ---- units ---------------------------------------------------------------- */

void
page_unit_path(strbuf *sb, const char *id)
{
	char slug[SLUG_SIZE];

	slug_make(slug, id);
	strbuf_reset(sb);
	strbuf_printf(sb, "projects/%s/", slug);
}

void
page_unit_hex(char hex[DIGEST_HEX + 1], uint64_t digest, const char *key)
{
	char h[17];

	hash_hex(h, digest);
	memcpy(hex, h, 16);
	memset(hex + 16, '0', DIGEST_HEX - 16);
	if (key != NULL && strlen(key) == 16)
		memcpy(hex + 16, key, 16);
	hex[DIGEST_HEX] = '\0';
}

/* What units_gone looks at: this build's units (sorted by path) and
 * where the gone ones go. */
struct units_seen {
	struct page_unit **u;
	size_t *n, cap, now;
	const char **paths;     /* this build's, sorted */
};

/* record_prev_under's each: a unit line ("projects/<slug>/", no other
 * '/') this build lacks, onto the gone units. */
static void
units_gone(void *arg, const char *path, size_t len, const char *hex)
{
	struct units_seen *s = arg;
	char *p = xstrndup(path, len);
	const char *slash = strchr(p + strlen(PAGE_LOOSE_UNIT), '/');
	struct page_unit *g;

	if (slash == NULL || slash[1] != '\0' || bsearch(&p, s->paths, s->now,
	    sizeof(*s->paths), array_str_cmp) != NULL) {
		free(p);
		return;
	}
	g = &ARRAY_PUSH(*s->u, *s->n, s->cap);
	memset(g, 0, sizeof(*g));
	g->path = p;
	memcpy(g->prev, hex, DIGEST_HEX);
	g->project = -1;
}

int
page_units(struct page_unit **u, size_t *n, const struct page_ctx *pc)
{
	const struct store_digest *d = &pc->m->digest;
	const struct page_record *r = pc->w->record;
	const char *key = r != NULL ? record_key(r) : NULL;
	struct units_seen s = { .u = u, .n = n };
	char hex[DIGEST_HEX + 1], prev[DIGEST_HEX + 1];
	int known = r != NULL && record_has_lines(r);
	strbuf path;

	*u = xcalloc(d->n + 1, sizeof(**u));
	*n = 0;
	s.cap = d->n + 1;
	strbuf_init(&path);
	page_unit_hex(hex, d->loose, key);
	known = known && record_prev(prev, r, PAGE_LOOSE_UNIT) &&
	    strcmp(prev, hex) == 0;
	for (size_t k = 0; k < d->n; k++) {
		struct page_unit *e = &(*u)[(*n)++];

		page_unit_path(&path, d->p[k].project);
		e->path = xstrdup(path.data);
		page_unit_hex(e->hex, d->p[k].sum, key);
		if (r == NULL || !record_prev(e->prev, r, e->path))
			e->prev[0] = '\0';
		e->project = model_project_index(pc->m, d->p[k].project);
		known = known && e->project >= 0;
	}
	/* And no project of the model's is without a unit. */
	known = known && *n == pc->m->n_projects;
	s.now = *n;
	s.paths = xcalloc(*n + 1, sizeof(*s.paths));
	for (size_t i = 0; i < *n; i++)
		s.paths[i] = (*u)[i].path;
	qsort(s.paths, *n, sizeof(*s.paths), array_str_cmp);
	if (known)
		(void)record_prev_under(r, PAGE_LOOSE_UNIT, units_gone, &s);
	free(s.paths);
	strbuf_free(&path);
	return known;
}

void
page_units_free(struct page_unit *u, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(u[i].path);
	free(u);
}

/* ---- lists shown a page at a time ---------------------------------- */

size_t
page_list_pages(const struct page_list *l)
{
	if (l->cut != NULL)
		return l->n_cut + 1;
	return l->n > 0 ? (l->n + l->per_page - 1) / l->per_page : 1;
}

void
page_list_cut(struct page_list *l,
    const char *(*key)(size_t i, const void *arg), const void *arg)
{
	size_t least = l->per_page / 4 > 0 ? l->per_page / 4 : 1;
	/* One row in every half page is a cut mark: a page holds about
	 * three quarters of per_page rows, at most per_page. */
	uint64_t mark = l->per_page / 2 > 0 ? l->per_page / 2 : 1;

	l->cut = xcalloc(l->n / least + 1, sizeof(*l->cut));
	l->n_cut = 0;
	for (size_t i = 0, start = 0; i + 1 < l->n; i++) {
		size_t len = i + 1 - start;
		int marked = hash_mix(hash_add_str(MIRROR_HASH_INIT,
		    key(i, arg))) % mark == 0;

		if (len >= l->per_page || (len >= least && marked)) {
			l->cut[l->n_cut++] = i + 1;
			start = i + 1;
		}
	}
}

void
page_list_uncut(struct page_list *l)
{
	free(l->cut);
	l->cut = NULL;
	l->n_cut = 0;
}

void
page_list_file(strbuf *sb, const char *base, size_t k)
{
	strbuf_puts(sb, base);
	if (k > 0)
		strbuf_printf(sb, ".page-%zu", k + 1);
}

json_t *
page_list_link(const struct page_list *l, size_t k)
{
	strbuf f;
	json_t *s;

	if (k >= page_list_pages(l))
		return json_null();
	strbuf_init(&f);
	page_list_file(&f, l->base, k);
	strbuf_puts(&f, ".md");
	s = json_string(f.data);
	strbuf_free(&f);
	return s;
}

json_t *
page_list_links(const struct page_list *l, size_t k)
{
	size_t pages = page_list_pages(l);
	json_t *out = json_array();

	for (size_t i = 0; pages > 1 && i < pages; i++)
		json_array_append_new(out, json_pack("{s:I, s:o, s:b}", "n",
		    (json_int_t)(i + 1), "file", page_list_link(l, i),
		    "current", i == k));
	return out;
}

void
page_list_span(size_t *from, size_t *to, const struct page_list *l,
    size_t k)
{
	if (l->cut != NULL) {
		*from = k == 0 ? 0 : k <= l->n_cut ? l->cut[k - 1] : l->n;
		*to = k < l->n_cut ? l->cut[k] : l->n;
		return;
	}
	*from = k * l->per_page;
	*to = *from + l->per_page < l->n ? *from + l->per_page : l->n;
	if (*from > *to)
		*from = *to;
}

void
page_list_hash(uint64_t h[2], const struct page_list *l, size_t k)
{
	size_t from, to;

	page_hash_int(h, (long long)k);
	page_hash_int(h, (long long)page_list_pages(l));
	if (l->cut != NULL)
		return;
	page_list_span(&from, &to, l, k);
	page_hash_int(h, (long long)from);
	page_hash_int(h, (long long)to);
}

int
page_list_kept(const struct page_ctx *pc, const struct page_list_doc *d)
{
	strbuf path;
	int kept;

	strbuf_init(&path);
	strbuf_puts(&path, d->folder);
	page_list_file(&path, d->l->base, d->k);
	kept = page_kept(pc, &(const struct page_doc){ .path = path.data,
	    .digest = d->digest, .html_only = d->html_only });
	strbuf_free(&path);
	return kept;
}

int
page_list_write(const struct page_ctx *pc, const struct page_list_doc *d,
    mirror_error *err)
{
	const struct page_list *l = d->l;
	size_t k = d->k, from, to;
	strbuf path, title, words;
	int paged, rc;

	page_list_span(&from, &to, l, k);
	strbuf_init(&path);
	strbuf_init(&title);
	strbuf_init(&words);
	strbuf_puts(&path, d->folder);
	page_list_file(&path, l->base, k);
	strbuf_puts(&title, d->title);
	if ((paged = page_list_words(&words, l, k)))
		strbuf_printf(&title, ", %s", words.data);
	/* A list cut by its rows has no row numbers: they would move with
	 * every row added or removed before the page. */
	if (l->cut == NULL) {
		json_object_set_new(d->data, "first", json_integer(
		    (json_int_t)(to > from ? from + 1 : 0)));
		json_object_set_new(d->data, "last", json_integer(
		    (json_int_t)to));
	}
	json_object_set_new(d->data, "page_words", paged ?
	    json_string(words.data) : json_null());
	json_object_set_new(d->data, "pages", page_list_links(l, k));
	json_object_set_new(d->data, "prev", k > 0 ? page_list_link(l,
	    k - 1) : json_null());
	json_object_set_new(d->data, "next", page_list_link(l, k + 1));
	rc = page_write_figures(pc, &(const struct page_doc){ .path =
	    path.data, .tname = d->tname, .title = title.data, .data =
	    d->data, .digest = d->digest, .html_only = d->html_only }, err);
	json_decref(d->data);
	strbuf_free(&path);
	strbuf_free(&title);
	strbuf_free(&words);
	return rc;
}

int
page_list_words(strbuf *sb, const struct page_list *l, size_t k)
{
	size_t pages = page_list_pages(l);

	if (pages < 2)
		return 0;
	strbuf_printf(sb, "page %zu of %zu", k + 1, pages);
	return 1;
}
