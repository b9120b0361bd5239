/*
 * steps.h: the steps of gen/pipeline/, shared among its files; not for
 * the stage's callers (they see build.h). Each step reads and writes
 * the struct build it is handed; its contract is stated beside its
 * definition. "Go on" is 0; BUILD_UNCHANGED says there is nothing to
 * do; < 0 is an error with err set.
 */
#ifndef MIRROR_BUILD_STEPS_H
#define MIRROR_BUILD_STEPS_H

#include <time.h>

#include "pipeline/build.h"

/* check.c: the check (step 4), the snapshot (steps 4 and 7), the stamp
 * (step 8) */
int build_snapshot(struct site_model *s, int rowids, struct rules_job *early,
    mirror_error *err);
int build_unchanged(struct build *b, mirror_error *err);
int build_memo(struct build *b, mirror_error *err);
void build_record(struct build *b);
int build_check(struct build *b, mirror_error *err);

/* open.c: the repository (step 2), templates, theme, rules and store
 * (step 3), the check's read (step 4), the rehearsal (step 5) */
int build_git_first(struct build *b, mirror_error *err);
int build_open(struct build *b, mirror_error *err);
int build_check_store(struct build *b, mirror_error *err);
int build_rehearse_templates(struct build *b, mirror_error *err);
int build_git_then(struct build *b, mirror_error *err);

/* sweep_read.c: the sweep and the read after it (steps 6 and 7) */
int build_sweep_listing(struct build *b, mirror_error *err);
int build_snapshot_after(struct build *b, mirror_error *err);

/* commit.c: the site committed to the branch (step 11) */
void build_history_request(struct history_request *req,
    const struct build_opts *o, time_t now);
int build_history(struct build *b, mirror_error *err);

#endif
