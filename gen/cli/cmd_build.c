/*
 * cmd_build.c: mirror build --store S --out DIR [--no-sweep] [--check]
 *     [--force] [--repo GITDIR ...] [--templates DIR] [--theme NAME]
 *     [--base-url URL] [--title T] [--rules DIR] [--quiet]
 *
 * The command around the stage (gen/pipeline/build.h, where the steps
 * and their order are): the options checked and handed to build_run, the
 * progress line on a terminal, then the summary line (or --json), and
 * exit 4 under --check with open conflicts; with --check-hosting, the
 * site's size against the hosts named, exit 5 when it passes a limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "output/hosting.h"
#include "pipeline/build.h"
#include "sys/termtext.h"

/* The hosts --check-hosting names, at most one of each. */
struct hosting_ask {
	const struct hosting_limit *host[8];
	size_t n;
	struct hosting_size size;      /* DIR once built */
};

/*
 * Read --check-hosting's comma-separated host ids into *ask. Returns 0,
 * or -MIRROR_EUSAGE naming an empty item of the list (a leading,
 * doubled or trailing comma: "item 2 of 'github-pages,' is empty"), or
 * an unknown id and the known ones.
 */
static int
hosting_parse(struct hosting_ask *ask, const char *list, mirror_error *err)
{
	const char *p = list;
	unsigned item = 0;

	if (*p == '\0')
		return mirror_fail(err, MIRROR_EUSAGE, "--check-hosting: "
		    "name a host (github-pages, gitlab-pages, "
		    "cloudflare-pages-free, cloudflare-pages)");
	for (;;) {
		size_t len = strcspn(p, ","), n;
		const struct hosting_limit *all = hosting_limits(&n), *h = NULL;
		char id[64];

		item++;
		if (len == 0)
			return mirror_fail(err, MIRROR_EUSAGE, "--check-hosting: "
			    "item %u of '%.200s' is empty", item, list);
		if (len < sizeof(id)) {
			memcpy(id, p, len);
			id[len] = '\0';
			h = hosting_find(id);
		}
		if (h == NULL)
			return mirror_fail(err, MIRROR_EUSAGE, "--check-hosting: "
			    "no host '%.*s' (known: %s, %s, %s, %s)", (int)len, p,
			    all[0].id, all[1].id, all[2].id, all[3].id);
		for (size_t i = 0; i <= ask->n && i < 8; i++)
			if (i == ask->n) {
				ask->host[ask->n++] = h;
				break;
			} else if (ask->host[i] == h) {
				break;
			}
		p += len;
		if (*p == '\0')
			return 0;
		p++;                   /* the comma: an item follows it */
	}
}

/*
 * The first host of ask that the site at out does not fit, as an error:
 * "DIR does not fit Cloudflare Pages (free): 20,693 files, over its
 * 20,000". Returns 0 when it fits them all, else -MIRROR_EHOSTING.
 */
static int
hosting_verdict(const struct hosting_ask *ask, const char *out,
    mirror_error *err)
{
	strbuf why;
	int rc = 0;

	strbuf_init(&why);
	for (size_t i = 0; i < ask->n && rc == 0; i++)
		if (!hosting_fits(&ask->size, ask->host[i], &why))
			rc = mirror_fail(err, MIRROR_EHOSTING, "%s does not fit "
			    "%s: %s (--check-hosting)", out, ask->host[i]->name,
			    why.data);
	strbuf_free(&why);
	return rc;
}

/* The site's size as JSON (build --json with --check-hosting). */
static json_t *
hosting_json(const struct hosting_size *s)
{
	json_t *fits = json_array();
	size_t n;
	const struct hosting_limit *all = hosting_limits(&n);

	for (size_t i = 0; i < n; i++)
		if (hosting_fits(s, &all[i], NULL))
			json_array_append_new(fits, json_string(all[i].id));
	return json_pack("{s:I, s:I, s:I, s:I, s:s?, s:o}", "bytes",
	    (json_int_t)s->bytes, "files", (json_int_t)s->files, "folders",
	    (json_int_t)s->folders, "largest", (json_int_t)s->largest,
	    "largest_path", s->largest_path, "fits", fits);
}

/* The work a build did (build --json's "work", struct build_work). */
static json_t *
work_json(const struct build_work *w)
{
	json_t *rows = json_object(), *steps = json_object();

	for (int i = 0; i < PH_N; i++) {
		json_object_set_new(rows, build_phase_names[i],
		    json_integer((json_int_t)w->rows[i]));
		json_object_set_new(steps, build_phase_names[i],
		    json_integer((json_int_t)w->vm_steps[i]));
	}
	return json_pack("{s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
	    "s:I, s:I, s:I, s:I, s:I, s:b}",
	    "rows", rows,
	    "rule_rows", (json_int_t)w->rule_rows, "vm_steps", steps,
	    "rule_vm_steps", (json_int_t)w->rule_vm_steps, "pages_rendered",
	    (json_int_t)w->pages_rendered, "files_written",
	    (json_int_t)w->files_written, "bytes_written",
	    (json_int_t)w->bytes_written, "hashed_bytes",
	    (json_int_t)w->hashed_bytes, "search_docs",
	    (json_int_t)w->search_docs, "atoz_rows",
	    (json_int_t)w->atoz_rows, "atoz_store_rows",
	    (json_int_t)w->atoz_store_rows, "atoz_kept_rows",
	    (json_int_t)w->atoz_kept_rows, "scope_scan_steps",
	    (json_int_t)w->scope_scan_steps, "search_peak_bytes",
	    (json_int_t)w->search_peak_bytes, "tables_kept",
	    (json_int_t)w->tables_kept, "huge_pages", w->huge_pages);
}

/* The build as one JSON object (build --json); hosting, when not NULL,
 * the site's size. */
static json_t *
build_json(const struct build *b, const struct mirror_opts *o,
    const struct hosting_size *hosting)
{
	const struct build_report *r = &b->report;
	json_t *v = json_object(), *t = json_object(), *changes = json_null();

	for (int i = 0; i < PH_N; i++)
		json_object_set_new(t, build_phase_names[i], json_integer(r->ms[i]));
	json_object_set_new(t, "total", json_integer(r->mark - r->start));
	if (r->hres.committed)
		changes = json_pack("{s:I, s:I, s:I, s:I}", "pages_added",
		    (json_int_t)r->hres.pages_added, "pages_changed",
		    (json_int_t)r->hres.pages_changed, "pages_removed",
		    (json_int_t)r->hres.pages_removed, "files_changed",
		    (json_int_t)r->hres.files_changed);
	json_object_set_new(v, "store", json_string(o->store));
	json_object_set_new(v, "out", json_string(o->out));
	json_object_set_new(v, "snapshot", json_string(b->s.snapshot));
	json_object_set_new(v, "rendered", json_boolean(r->path ==
	    BUILD_PATH_RENDERED));
	json_object_set_new(v, "sweep", r->swept ? json_sweep_run(&b->run) :
	    json_null());
	json_object_set_new(v, "pages", json_integer(r->pages));
	json_object_set_new(v, "files", json_pack("{s:I, s:I}", "written",
	    (json_int_t)r->written, "reused", (json_int_t)r->reused));
	json_object_set_new(v, "conflicts", json_pack("{s:I, s:I, s:I}",
	    "open", (json_int_t)r->counts.open, "resolved",
	    (json_int_t)r->counts.resolved, "dismissed",
	    (json_int_t)r->counts.dismissed));
	json_object_set_new(v, "repo", o->repo != NULL ?
	    json_string(o->repo) : json_null());
	json_object_set_new(v, "branch", o->repo != NULL ?
	    json_string(o->branch) : json_null());
	json_object_set_new(v, "commit", r->hres.committed ?
	    json_string(r->hres.commit_id) : json_null());
	json_object_set_new(v, "changes", changes);
	json_object_set_new(v, "timings_ms", t);
	json_object_set_new(v, "work", work_json(&r->work));
	if (hosting != NULL)
		json_object_set_new(v, "hosting", hosting_json(hosting));
	return v;
}

/* The summary lines of a build (neither --json nor --quiet). */
static void
build_print(const struct build *b, const struct mirror_opts *o)
{
	const struct build_report *r = &b->report;

	(void)termtext_printf(stdout, "built %s: %lld pages, %lld files "
	    "written, %lld reused; %lld open conflicts; store snapshot %s",
	    o->out, r->pages,
	    r->written, r->reused, b->s.open_conflicts, b->s.snapshot);
	if (r->path != BUILD_PATH_RENDERED)
		printf(" (unchanged: %s)",
		    r->path == BUILD_PATH_HELD_BEFORE_SWEEP ?
		    "no sweep, nothing rendered" : "nothing rendered");
	putchar('\n');
	if (o->repo != NULL && r->hres.committed)
		(void)termtext_printf(stdout, "committed %s to %s of %s: %zu "
		    "pages changed, %zu added, %zu removed\n", r->hres.commit_id,
		    o->branch, o->repo, r->hres.pages_changed,
		    r->hres.pages_added, r->hres.pages_removed);
	else if (o->repo != NULL)
		(void)termtext_printf(stdout, "no commit: %s of %s already "
		    "holds this site\n",
		    o->branch, o->repo);
}

/*
 * Say what the build did (JSON with --json, a summary unless
 * --quiet; hosting, when not NULL, the site's size: its line or its
 * JSON), and under --check fail on open conflicts, open violations
 * of error rules and failed rules. Returns 0,
 * -MIRROR_ECONFLICTS, or < 0 when stdout cannot be written.
 */
static int
build_report_out(const struct build *b, const struct mirror_opts *o,
    const struct hosting_size *hosting, mirror_error *err)
{
	int rc = 0;

	if (o->json) {
		rc = json_out_print(build_json(b, o, hosting), err);
	} else if (!o->quiet) {
		build_print(b, o);
		if (hosting != NULL) {
			strbuf line;

			strbuf_init(&line);
			hosting_report(&line, hosting);
			(void)termtext_printf(stdout, "%s\n", line.data);
			strbuf_free(&line);
		}
	}
	if (rc == 0 && o->check && b->s.open_conflicts > 0)
		rc = mirror_fail(err, MIRROR_ECONFLICTS, "build: %lld open "
		    "conflicts (--check)", b->s.open_conflicts);
	if (rc == 0 && o->check)
		rc = cli_check_rules(&b->report.checks, "build --check", o->store, err);
	return rc;
}

/* The progress line as the site reports to it (struct site_progress). */
static void
on_phase(void *p, const char *name, size_t total, int per_page)
{
	progress_phase(p, name, total, per_page);
}

static void
on_page(void *p)
{
	progress_page(p);
}

static void
on_item(void *p)
{
	progress_item(p);
}

static void
on_end(void *p)
{
	progress_clear(p);
}

int
cmd_build(const struct mirror_opts *o, mirror_error *err)
{
	struct build b;
	struct build_opts bo;
	struct hosting_ask ask = { .n = 0 };
	struct progress prog;
	const struct site_progress hooks = { on_phase, on_page, on_item,
	    &prog };
	char *base_url = NULL;
	int rc;

	memset(&b, 0, sizeof(b));
	if ((rc = cli_build_opts(&bo, &base_url, o, err)) < 0)
		goto out;
	if (o->hosting != NULL &&
	    (rc = hosting_parse(&ask, o->hosting, err)) < 0)
		goto out;
	bo.counts = o->json || o->check;
	bo.checks = o->check;
	bo.progress = &hooks;
	bo.progress_end = on_end;
	progress_init(&prog, !o->quiet);
	rc = build_run(&b, &bo, err);
	if (rc >= 0 && ask.n > 0)
		rc = hosting_measure(&ask.size, o->out, err);
	if (rc >= 0)
		rc = build_report_out(&b, o, ask.n > 0 ? &ask.size : NULL,
		    err);
	if (rc >= 0 && ask.n > 0)
		rc = hosting_verdict(&ask, o->out, err);
out:
	hosting_size_free(&ask.size);
	build_free(&b);
	free(base_url);
	return rc;
}
