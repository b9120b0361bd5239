/*
 * theme.h: the HTML side of a page.
 *
 * A theme is a directory themes/<name>/ holding
 *   layout.html   an HTML-mode template (template.h) that wraps a page
 *   assets/FILE   plain files copied to the site as assets/<file>
 *                 (names [A-Za-z0-9._-]+, not starting with '.'; no
 *                 subdirectories); style.css gets the build's table
 *                 rules appended (theme_write_assets)
 *
 * The layout is rendered with a JSON object that the caller builds per
 * page. Every theme may use these keys, so the caller must provide all of
 * them (null where there is nothing):
 *   title        string  the page title ("Conflict c-1a2b: ...")
 *   site_title   string  the site title (--title / config)
 *   head_title   string  the <title>: "title · site_title", or the site
 *                        title alone when the two are the same (index)
 *   description  string  the page's summary for <meta name="description">
 *                        (markdown_render), else its title
 *   root         string  relative path from the page to the site root:
 *                        "" at the root, "../../" for projects/x/index;
 *                        on the not-found page (served at any depth) the
 *                        base URL with '/', else "/"
 *   standalone   bool    true on the not-found page without a base URL:
 *                        the layout must then need no file of the site
 *                        (no stylesheet link); mirror puts the theme's
 *                        assets/style.css inline before its </head>
 *                        (theme_inline_css)
 *   markdown     string  this page's .md twin ("index.md"; on the
 *                        not-found page root + "404.md"); "" on a
 *                        page written as HTML only (the A–Z index),
 *                        which a layout then links no Markdown of
 *   nav          array   of {"href": path relative to the root,
 *                        "label": text, "current": true|false}
 *   footer       string  the store snapshot line (no clock)
 *   search       bool    true on the search page (search/index): the
 *                        layout adds the search form and its script
 *   queue        bool    true on a project's review queue
 *                        (conflicts/projects/...): its filters' script
 *   sortable     bool    true on a page of the projects list
 *                        (projects/index and on) and of the open
 *                        conflicts and checks of every project
 *                        (conflicts/index.open, checks/index.open and
 *                        on) and of every project's queue and checks
 *                        (conflicts/index.projects,
 *                        checks/index.projects and on): its table's
 *                        headings sort it (the
 *                        default theme's assets/sort.js)
 *   changes      bool    true on the recent changes (changes): their
 *                        filters by project and kind (the default
 *                        theme's assets/changes.js)
 *   toc          bool    true when the page body holds the contents
 *                        landmark (<nav class="toc">, markdown.h (f))
 *                        as a child of its own (markdown.h (h)): the
 *                        default layout writes <body class="with-toc">
 *                        and its stylesheet sets the contents beside
 *                        the page by that class, not by :has()
 * and the raw slot {{{content}}} receives the page body that
 * markdown_to_html produced. Themes: "default" (responsive, print and
 * dark mode, no JavaScript) and "plain" (for text browsers).
 */
#ifndef MIRROR_THEME_H
#define MIRROR_THEME_H

#include <jansson.h>

#include "util/error.h"
#include "util/strbuf.h"

struct output;
typedef struct theme theme;

/*
 * Open the theme called name: [a-z0-9_-]+ is looked up as
 * themes/<name> (datadir.h); a name holding '/' is taken as a directory
 * path (a user's own theme). Parses layout.html and lists the assets.
 * Returns 0 and *out (free with theme_free), or -MIRROR_EINPUT with
 * *out NULL when the theme does not exist, the layout does not parse or
 * lacks {{{content}}}, or an asset name is not allowed.
 */
int theme_open(theme **out, const char *name, mirror_error *err);

/*
 * 1 when theme_open would accept name as it is spelt: [a-z0-9_-]+ (at
 * most 64 bytes), or a path holding '/'; else 0. Whether the theme
 * exists is theme_open's business.
 */
int theme_name_ok(const char *name);

/*
 * Append the page to sb: the layout rendered with page (see above) and
 * body_html in the raw slot. Returns 0, or -MIRROR_EINPUT (a key the
 * layout needs is missing; err names layout.html:line and the key).
 */
int theme_render(strbuf *sb, const theme *th, const json_t *page,
    const char *body_html, mirror_error *err);

/* 1 when the theme has an assets/style.css, else 0. */
int theme_has_style(const theme *th);

/*
 * Write every asset to out as "assets/<file>", style.css followed by
 * style_extra (the build's own rules; NULL: none). Returns 0, or < 0
 * from reading the asset (-MIRROR_EIO) or from output_write.
 */
int theme_write_assets(const theme *th, struct output *out,
    const char *style_extra, mirror_error *err);

/*
 * Append the theme's stylesheet, assets/style.css followed by
 * style_extra (as theme_write_assets), to sb, for a page that must need
 * no file of the site: sb stays as it is when the theme has none, or
 * when the two hold "</" (which could end the <style> element they go
 * into) or a NUL byte. Returns 0, or < 0 when the file cannot be read.
 */
int theme_inline_css(strbuf *sb, const theme *th, const char *style_extra,
    mirror_error *err);

/* The theme's name as given to theme_open (owned by th). */
const char *theme_name(const theme *th);

/* The directory the theme was read from (owned by th). */
const char *theme_dir(const theme *th);

void theme_free(theme *th);

#endif
