/*
 * site_index.h: the page family of the site's index (see families.h).
 */
#ifndef MIRROR_SITE_INDEX_H
#define MIRROR_SITE_INDEX_H

#include "site/page.h"

/* index.md/.html. Returns 0 or < 0 with err set. */
int index_pages(const struct page_ctx *pc, mirror_error *err);

#endif
