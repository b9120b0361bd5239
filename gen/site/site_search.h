/*
 * site_search.h: the page family of the search index (see families.h):
 * every fact, conflict and check of the store as a document of
 * gen/search/'s index, and the search page.
 */
#ifndef MIRROR_SITE_SEARCH_H
#define MIRROR_SITE_SEARCH_H

#include "site/page.h"
#include "sys/work.h"

/* Documents the family handed the search index: a whole index's every
 * one, an update's those of the projects that changed, now and before
 * (sys/work.h; --json's work.search_docs). */
extern struct work_count search_docs_added;

/* The search indexes' peak of bytes held (search/search_index.h's
 * search_held_peak) since site_search_held_mark: build --json's
 * work.search_peak_bytes. */
void site_search_held_mark(void);
unsigned long long site_search_held_peak(void);

/* search/: the index (search/search_index.h) and its page,
 * search/index. Returns 0 or < 0 with err set. */
int search_pages(const struct page_ctx *pc, mirror_error *err);

#endif
