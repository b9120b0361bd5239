/*
 * cmd_build.c: mirror build --store S --out DIR [--no-sweep] [--check]
 *     [--force] [--repo GITDIR ...] [--templates DIR] [--theme NAME]
 *     [--base-url URL] [--title T] [--rules DIR] [--quiet]
 *
 * The command around the stage (gen/build/build.h, where the steps and
 * their order are): the options checked and handed to build_run, the
 * progress line on a terminal, then the summary line (or --json), and
 * exit 4 under --check with open conflicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "sys/termtext.h"

/* The build as one JSON object (build --json). */
static json_t *
build_json(const struct build *b, const struct mirror_opts *o)
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
	json_object_set_new(v, "rendered", json_boolean(!r->unchanged));
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
	if (r->unchanged)
		printf(" (unchanged: %s)", r->unchanged == 2 ?
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
 * --quiet), and under --check fail on open conflicts, open violations
 * of error rules and failed rules. Returns 0,
 * -MIRROR_ECONFLICTS, or < 0 when stdout cannot be written.
 */
static int
build_report_out(const struct build *b, const struct mirror_opts *o,
    mirror_error *err)
{
	int rc = 0;

	if (o->json)
		rc = json_out_print(build_json(b, o), err);
	else if (!o->quiet)
		build_print(b, o);
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
	progress_end(p);
}

int
cmd_build(const struct mirror_opts *o, mirror_error *err)
{
	struct build b;
	struct build_opts bo;
	struct progress prog;
	const struct site_progress hooks = { on_phase, on_page, on_item,
	    &prog };
	char *base_url = NULL;
	int rc;

	memset(&b, 0, sizeof(b));
	if ((rc = cli_build_opts(&bo, &base_url, o, err)) < 0)
		goto out;
	bo.counts = o->json || o->check;
	bo.checks = o->check;
	bo.progress = &hooks;
	bo.progress_end = on_end;
	progress_init(&prog, !o->quiet);
	rc = build_run(&b, &bo, err);
	if (rc >= 0)
		rc = build_report_out(&b, o, err);
out:
	build_free(&b);
	free(base_url);
	return rc;
}
