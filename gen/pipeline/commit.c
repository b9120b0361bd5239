/*
 * commit.c: a build's step 11 (build.h): the new site committed to the
 * branch before DIR takes it.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/steps.h"
#include "util/xalloc.h"

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
 * the unchanged files. Returns 0 or < 0 with err set.
 */
static int
build_history_commit(struct build *b, mirror_error *err)
{
	struct output *out = b->so.out;
	struct history_request req;
	const struct output_file *files;
	struct history_file *hf;
	int rc;

	build_history_request(&req, b->o, b->s.now);
	req.n_files = output_files(out, &files);
	hf = xcalloc(req.n_files + 1, sizeof(*hf));
	for (size_t i = 0; i < req.n_files; i++) {
		hf[i].path = files[i].path;
		hf[i].disk = files[i].disk;
		hf[i].changed = files[i].changed;
	}
	req.files = hf;
	req.removed = output_removed(out, &req.n_removed);
	req.base_tree = output_base_tree(out);
	req.store_checksum = b->s.snapshot;
	if (!b->o->no_sweep) {
		req.sweep_run_id = b->run.id;
		req.conflicts_opened = b->run.conflicts_opened;
		req.conflicts_closed = b->run.conflicts_closed;
		req.members_added = b->run.members_added;
	}
	rc = history_commit(&b->report.hres, &req, err);
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
