/*
 * site.h: rendering the whole Human Mirror site (SPEC section 5).
 *
 * The caller holds the model (model.h: the store inside one consistent
 * read and what every page shows) and what pages are written with
 * (struct site_opts); site_render walks the page families (families.h)
 * and hands each the model, read-only, and a writer. Each family builds
 * one JSON object per page, which is both what the Markdown template is
 * rendered with and, for the api/ JSON files, what is written.
 */
#ifndef MIRROR_SITE_H
#define MIRROR_SITE_H

#include <stddef.h>

#include "render/template.h"
#include "render/theme.h"
#include "site/model.h"
#include "site/page.h"

struct output;
struct page_record;
struct stamp;

/* What a render writes with: the caller's, borrowed for the render. */
struct site_opts {
	tmpl_set *tmpl;
	theme *th;
	struct output *out;           /* NULL: a rehearsal, render only */
	struct stamp *stamp;          /* written last as api/build.json;
	                                 NULL: none (a rehearsal) */
	struct page_record *record;   /* the previous build's record
	                                 (output/record.h: record_load, empty
	                                 with --force), which the render
	                                 fills with this build's; NULL: every
	                                 page is rendered and none recorded */
	const struct site_progress *progress;  /* NULL: no progress */
};

/*
 * Render the whole site from m into o->out (with o->out NULL: render
 * every page and discard it, which finds every template error the data
 * reaches); *pages gets the number of pages (twins) written. m's facts
 * reader is open during the render, and m is only read. Returns 0 or
 * < 0 with err set; on failure the caller drops the staging tree.
 */
int site_render(size_t *pages, struct site_model *m,
    const struct site_opts *o, mirror_error *err);

/*
 * The canonical projects of d whose digest differs from the one the
 * record r (of the last build into DIR) holds, into *ids (pointers into
 * d, sorted; the caller frees the array alone) and *n: 1 then, also
 * with none changed. 0 (*ids NULL) when r cannot tell: no record, or
 * the rows of no project changed; then every project counts as changed.
 */
int site_changed_projects(const char ***ids, size_t *n,
    const struct page_record *r, const struct store_digest *d);

#endif
