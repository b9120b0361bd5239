/*
 * site.c: the driver: every page family in turn (families.c), then the
 * theme's assets and the build's stamp.
 */
#include <stdlib.h>
#include <string.h>

#include "out/build_stamp.h"
#include "out/output.h"
#include "site/families.h"
#include "out/record.h"
#include "site/site.h"

/* The build's stamp, last, so it counts every other file. */
static int
write_stamp(const struct site_opts *o, size_t pages,
    const struct site_model *m, mirror_error *err)
{
	size_t n;
	char *text;
	int rc;

	(void)output_paths(o->out, &n);
	o->stamp->pages = (long long)pages;
	o->stamp->files = (long long)n + 1;
	o->stamp->open_conflicts = m->open_conflicts;
	text = stamp_text(o->stamp);
	rc = output_write(o->out, STAMP_PATH, text, strlen(text), err);
	free(text);
	return rc;
}

/* Every family's pages, in the table's order. Returns 0 or < 0. */
static int
all_families(const struct page_ctx *pc, mirror_error *err)
{
	size_t n;
	const struct page_family *f = page_families(&n);
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = f[i].pages(pc, err);
	return rc;
}

int
site_render(size_t *pages, struct site_model *m, const struct site_opts *o,
    mirror_error *err)
{
	struct site_writer w;
	const struct page_ctx pc = { m, &w };
	int rc;

	*pages = 0;
	writer_init(&w, o->tmpl, o->th, o->out, o->progress);
	/* A page is rendered again only when its inputs changed; the
	 * stamp's hash of the site-wide inputs is part of each digest. */
	rc = o->out != NULL && o->stamp != NULL ? record_open(&w.record,
	    o->out, o->stamp->inputs, o->fresh, err) : 0;
	/* Projects are read in id order, the index's "" group first. */
	if (rc == 0)
		rc = facts_reader_open(&m->facts, m->st, m->now, err);
	if (rc == 0)
		rc = all_families(&pc, err);
	if (rc == 0 && o->out != NULL)
		rc = theme_write_assets(o->th, o->out, err);
	if (rc == 0 && w.record != NULL)
		rc = record_write(w.record, o->out, err);
	if (rc == 0 && o->out != NULL && o->stamp != NULL)
		rc = write_stamp(o, w.pages, m, err);
	record_free(w.record);
	facts_reader_close(m->facts);
	m->facts = NULL;
	*pages = w.pages;
	writer_free(&w);
	return rc;
}
