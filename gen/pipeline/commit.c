/*
 * commit.c: a build's step 11 (build.h): the new site committed to the
 * branch before DIR takes it.
 */
#include <stdlib.h>
#include <string.h>

#include "output/record.h"
#include "pipeline/steps.h"
#include "util/xalloc.h"

/* Whether path is in the pages' record (RECORD_DIR), which DIR keeps
 * for the next build and the branch leaves out. Returns 1 or 0. */
static int
in_record(const char *path)
{
	size_t n = strlen(RECORD_DIR);

	return strncmp(path, RECORD_DIR, n) == 0 && path[n] == '/';
}

/* The parts of a history request that come from the options o, at the
 * run's time now, into *req. */
void
build_history_request(struct history_request *req,
    const struct build_opts *o, time_t now)
{
	memset(req, 0, sizeof(*req));
	req->repo_path = o->repo;
	req->branch = o->branch;
	req->author = o->author;
	req->sign_key = o->sign_key;
	req->have_time = 1;
	req->time = now;
}

/*
 * The commit of b's staged site, into b->report.hres: every file with
 * where its bytes are now and whether this build wrote it, the files DIR
 * held that the site lacks, and the tree DIR was last committed as, for
 * the unchanged files; but the pages' record, which DIR keeps for the
 * next build and a reader of the branch has no use for (doc/site.md,
 * "A changed store renders only what changed"). Returns 0 or < 0 with
 * err set.
 */
static int
build_history_commit(struct build *b, mirror_error *err)
{
	struct output *out = b->so.out;
	struct history_request req;
	const struct output_file *files;
	const char *const *gone;
	const char **removed;
	struct history_file *hf;
	size_t n, k = 0;
	int rc;

	build_history_request(&req, b->o, b->s.now);
	n = output_files(out, &files);
	hf = xcalloc(n + 1, sizeof(*hf));
	for (size_t i = 0; i < n; i++) {
		if (in_record(files[i].path))
			continue;
		hf[k].path = files[i].path;
		hf[k].disk = files[i].disk;
		hf[k++].changed = files[i].changed;
	}
	req.files = hf;
	req.n_files = k;
	gone = output_removed(out, &n);
	removed = xcalloc(n + 1, sizeof(*removed));
	for (size_t i = 0; i < n; i++)
		if (!in_record(gone[i]))
			removed[req.n_removed++] = gone[i];
	req.removed = removed;
	req.base_tree = output_base_tree(out);
	req.left_out = RECORD_DIR;
	req.store_checksum = b->s.snapshot;
	if (!b->o->no_sweep) {
		req.sweep_run_id = b->run.id;
		req.conflicts_opened = b->run.conflicts_opened;
		req.conflicts_closed = b->run.conflicts_closed;
		req.members_added = b->run.members_added;
	}
	rc = history_commit(&b->report.hres, &req, err);
	free(removed);
	free(hf);
	return rc;
}

/*
 * Step 11: commit the new site to the branch, before output_commit, so
 * a git failure (not a repository, a lock, a race) leaves DIR as it was.
 * The committed tree (also when the branch held it already) goes into
 * DIR's marker, and the tip's memo learns that it holds b->stamp. If
 * output_commit then fails, the next build finds the tree committed and
 * makes no second commit. Returns 0 or < 0 with err set.
 */
int
build_history(struct build *b, mirror_error *err)
{
	char *text;
	int rc;

	/* The disk takes the staged files while the commit reads them
	 * back: one core is idle there, and the swap's syncfs waits less. */
	output_flush_begin(b->so.out);
	if ((rc = build_history_commit(b, err)) < 0)
		return rc;
	output_set_tree(b->so.out, b->report.hres.tree_id);
	/* The commit holds this stamp (site.c wrote it last). */
	text = stamp_text(&b->stamp);
	tipmemo_put(b->o->repo, b->o->branch, b->report.hres.commit_id, text,
	    strlen(text));
	free(text);
	return 0;
}
