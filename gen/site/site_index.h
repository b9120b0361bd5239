/*
 * site_index.h: the page families of the site as a whole (see
 * families.h): its index, first, and the files around the pages, last.
 */
#ifndef MIRROR_SITE_INDEX_H
#define MIRROR_SITE_INDEX_H

#include "site/page.h"

/* index.md/.html. Returns 0 or < 0 with err set. */
int index_pages(const struct page_ctx *pc, mirror_error *err);

/* 404, api/health.json, .nojekyll, feed.xml and sitemap.xml, after
 * every other family (the sitemap lists what was written). Returns 0 or
 * < 0 with err set. */
int extra_pages(const struct page_ctx *pc, mirror_error *err);

#endif
