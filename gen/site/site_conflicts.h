/*
 * site_conflicts.h: the page family of conflicts (see families.h): the
 * review queue, one page per conflict, and their api/ JSON.
 */
#ifndef MIRROR_SITE_CONFLICTS_H
#define MIRROR_SITE_CONFLICTS_H

#include "site/page.h"

/* Every conflict's page and JSON, then the queue. Returns 0 or < 0
 * with err set. */
int conflict_pages(const struct page_ctx *pc, mirror_error *err);

#endif
