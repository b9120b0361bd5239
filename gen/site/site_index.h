/*
 * site_index.h: the page families of the site as a whole (see
 * families.h): its index, first, and the files around the pages, last:
 * among them the two that list the site for machines, feed.xml (the
 * latest conflicts and checks) and sitemap.xml.
 */
#ifndef MIRROR_SITE_INDEX_H
#define MIRROR_SITE_INDEX_H

#include <stddef.h>

#include "site/page.h"

/* index.md/.html, and the projects list (projects/index.md and on).
 * Returns 0 or < 0 with err set. */
int index_pages(const struct page_ctx *pc, mirror_error *err);

/*
 * Before project i's api/projects/<slug>.json is written again with
 * rows (its new content): each fact whose row the last build's file
 * shows with another value, status or name, and that no audit row of
 * the last CHANGES_DAYS days says changed (a plain UPDATE of the
 * store), recorded on pc's writer for the recent changes, old → new
 * (doc/site.md, "Recent changes"). Nothing when DIR holds no such
 * file (a first build, a rehearsal).
 */
void site_index_unaudited(const struct page_ctx *pc, size_t i,
    const json_t *rows);

/* The most projects a page of the projects list shows. */
#define PROJECTS_PAGE 300

/* The entries of the feed: a feed reader polls for what is new; the
 * review queue and api/ hold every conflict and check. */
#define FEED_ENTRIES 100

/* The days back the recent changes go (changes.md, changes.xml), and
 * how many of them the index shows. */
#define CHANGES_DAYS 30
#define RECENT_ON_INDEX 8
/* The most changes the Recent changes page lists, the newest: the first
 * build of a large store opens every conflict and check at once, and a
 * page of them all would grow with the store (at 1,000,000 facts of
 * the bench store, 40,000 entries), past what a person reads and what a
 * static host takes in one file. The queue and the Checks pages list
 * every one. */
#define CHANGES_ON_PAGE 1000

/* The URLs one sitemap file may list (the sitemaps.org protocol). */
#define SITEMAP_URLS 50000
/* The bytes one sitemap file may hold: the protocol allows 50 MB, the
 * site's budget no file over 1 MB (issue 69; at 1,000,000 facts the
 * 26,000 pages' one file was 1.9 MB). */
#define SITEMAP_BYTES (512 * 1024)

/* How much one sitemap file may list. */
struct sitemap_limits {
	size_t urls;            /* pages, at least 1 */
	size_t bytes;           /* bytes of the file; a page's line alone
	                           may pass it */
};

/*
 * feed.xml: the limit newest entries of the conflicts and the checks
 * (each dated by its closing, else its opening), newest first, ties by
 * kind (conflicts first), then id. The feed's own date is its newest
 * entry's; with none, SOURCE_DATE_EPOCH when set, else the Unix epoch:
 * never the wall clock, so a rebuild of the same store is identical.
 * Returns 0 or < 0 with err set.
 */
int site_index_feed_write(const struct page_ctx *pc, size_t limit,
    mirror_error *err);

/*
 * sitemap.xml: every HTML page written so far but 404.html, in path
 * order. While they fit in one file of lim (lim->urls pages, lim->bytes
 * bytes), it lists them (a urlset); else it is a sitemap index of
 * sitemap-1.xml, sitemap-2.xml, ..., each listing the next pages that
 * fit. In a rehearsal, which writes no pages, nothing. Returns 0 or < 0
 * with err set.
 */
int site_index_sitemap_write(const struct page_ctx *pc,
    const struct sitemap_limits *lim, mirror_error *err);

/* 404, api/health.json, .nojekyll, feed.xml and sitemap.xml, after
 * every other family (the sitemap lists what was written). Returns 0 or
 * < 0 with err set. */
int extra_pages(const struct page_ctx *pc, mirror_error *err);

#endif
