/*
 * families.c: the one table of page families.
 *
 * The driver (site.c) walks this table in order and hands each family
 * a struct page_ctx (page.h): the model, const, and the writer. A
 * family writes its pages with page.h and builds the JSON of facts with
 * items.h; it never calls back into the driver, and no family calls
 * another (a family may be made of parts, as projects are of the
 * overview, site_decisions.c and site_subsystem.c, called one way).
 *
 * To add a page family:
 *   1. write site_<name>.c and site_<name>.h declaring one function
 *      int <name>_pages(const struct page_ctx *pc, mirror_error *err);
 *      it returns 0 or < 0 with err set;
 *   2. include its header here and add a row to families[] where its
 *      pages belong in the order (the order is part of the output: the
 *      sitemap of the extras lists what came before it, so extras stay
 *      last);
 *   3. a new template goes into templates/ and into the list of
 *      templates cmd_build parses before anything is written;
 *   4. to render on every core, hand core/sys/pool.h a struct
 *      pool_work, as site_project.c and site_conflicts.c do: whatever
 *      the workers write must depend on their own item alone, so the
 *      site stays byte-identical for any MIRROR_JOBS.
 */
#include "site/families.h"
#include "site/site_conflicts.h"
#include "site/site_extras.h"
#include "site/site_index.h"
#include "site/site_project.h"

static const struct page_family families[] = {
	{ "index", index_pages },
	{ "projects", project_pages },
	{ "conflicts", conflict_pages },
	{ "extras", extra_pages },
};

const struct page_family *
page_families(size_t *n)
{
	*n = sizeof(families) / sizeof(*families);
	return families;
}
