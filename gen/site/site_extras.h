/*
 * site_extras.h: the page family of the files around the pages (see
 * families.h): 404, api/health.json, .nojekyll, feed.xml, sitemap.xml.
 */
#ifndef MIRROR_SITE_EXTRAS_H
#define MIRROR_SITE_EXTRAS_H

#include "site/page.h"

/* Every file above; the sitemap lists what was written before, so this
 * family comes last. Returns 0 or < 0 with err set. */
int extra_pages(const struct page_ctx *pc, mirror_error *err);

#endif
