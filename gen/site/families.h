/*
 * families.h: the page families of a site, in the order they render:
 * the one table of them is families[] in site.c.
 *
 * The driver (site.c) walks this table in order and hands each family
 * a struct page_ctx (page.h): the model, const, and the writer. A
 * family writes its pages with page.h and builds the JSON of facts with
 * items.h; it never calls back into the driver, and no family calls
 * another (a family may be made of parts, as projects are of the
 * overview and site_parts.c, called one way).
 *
 * To add a page family:
 *   1. write site_<name>.c and site_<name>.h declaring one function
 *      int <name>_pages(const struct page_ctx *pc, mirror_error *err);
 *      it returns 0 or < 0 with err set;
 *   2. include its header in site.c and add a row to families[] where its
 *      pages belong in the order (the order is part of the output: the
 *      sitemap of the extras lists what came before it, so extras stay
 *      last);
 *   3. a new template goes into templates/ and into page_templates[]
 *      of gen/pipeline/open.c, parsed before anything is written;
 *   4. a family that reads rows of its own through pc->st (not the
 *      model's reader) and that no other family feeds may be marked
 *      parallel: it runs on a core of its own from the start;
 *   5. to render on every core, hand core/sys/pool.h a struct
 *      pool_work, as site_project.c and site_conflicts.c do: whatever
 *      the workers write must depend on their own item alone, so the
 *      site stays byte-identical for any MIRROR_JOBS.
 */
#ifndef MIRROR_SITE_FAMILIES_H
#define MIRROR_SITE_FAMILIES_H

#include <stddef.h>

#include "site/page.h"

/* A family of pages: everything one kind of page needs, written from
 * the model through the page context. */
struct page_family {
	const char *name;
	/* Write every page of the family. Returns 0 or < 0 with err set. */
	int (*pages)(const struct page_ctx *pc, mirror_error *err);
	/* 1: the family may run in parallel with the others, on a thread
	 * and a store connection of its own (pc->st, same snapshot), from
	 * the start of the render; the driver waits for it before the last
	 * family. One that cannot start (one job, or no second connection
	 * sure to read the same rows) runs at its place in the order, on
	 * the model's connection. Such a family reads the store only
	 * through pc->st, and reads nothing another family writes. */
	int parallel;
};

/* The families in render order; *n gets their count. */
const struct page_family *page_families(size_t *n);

#endif
