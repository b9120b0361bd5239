/*
 * build.h: the build as a stage: the steps of `mirror build` (and of
 * every build `mirror serve` runs), in gen/pipeline/, one struct build
 * handed from step to step.
 *
 * The order is the contract. Its steps are numbered as in
 * doc/architecture.md ("How a build runs"), and the comments of
 * gen/pipeline/ name them by these numbers:
 *   1. options and clock: the caller's struct build_opts, the run's
 *      clock, title and base URL into the model;
 *   2. DIR's lock (a second build into DIR waits here), then with
 *      a repository every check of it that writes nothing, so a bad DIR
 *      or repository stops the build before the sweep writes;
 *   3. open and parse templates and theme, so a template that does not
 *      parse fails before anything is written; the rules; the store;
 *   4. the check, in one read: every row the pages will read is checked
 *      (unless the store's file is untouched since a run learnt its
 *      checksum, core/store/memo.h, and that is DIR's stamp's: the stamp
 *      decides); when DIR (and the branch) hold this build's stamp
 *      already, nothing is swept, rendered, written or committed;
 *   5. with user templates, a rehearsal render from the unswept store
 *      finds placeholders that name nothing;
 *   6. sweep (unless no_sweep): one write transaction of its own; what
 *      it changed is kept (core/store/undo.h), and a build that fails
 *      after it takes it back: a failed build leaves the store as it was
 *      (or says why it could not);
 *   7. the snapshot: one consistent read (store_read_begin ..
 *      store_read_end) from which every page, the snapshot checksum and
 *      the counts come;
 *   8. the stamp (gen/output/build_stamp.h): when DIR (and the branch)
 *      already hold it, nothing is rendered, written or committed;
 *   9. the model, read in that read;
 *  10. render: files DIR holds byte for byte stay, the others go into
 *      gen/output's staging directory;
 *  11. with a repository, commit the new site (gen/git/history.h: the
 *      changed files, the removed ones, the tree DIR was last committed
 *      as) before the swap, so a git failure leaves DIR as it was;
 *      DIR's marker then records the committed tree;
 *  12. swap: output_commit moves the staged files into DIR under a
 *      journal: any failure before leaves DIR as it was;
 *  13. report: what the build did stays in b->report (and the model's
 *      scalars) for the caller to print; the caller frees b with
 *      build_free.
 */
#ifndef MIRROR_BUILD_H
#define MIRROR_BUILD_H

#include <stddef.h>

#include "git/history.h"
#include "output/build_stamp.h"
#include "output/output.h"
#include "rules/rules.h"
#include "rules/violation.h"
#include "site/site.h"
#include "store/facts.h"
#include "sweep/conflict.h"
#include "sweep/sweep.h"
#include "util/error.h"

/* A rule's parameter from the config file: param.RULE.NAME = VALUE. */
struct build_param {
	const char *rule, *name, *value;
};

/* What a build is asked: filled by its caller, read only by the stage. */
struct build_opts {
	const char *store;       /* the store's path */
	const char *out;         /* DIR, the site's directory */
	const char *repo;        /* the repository to commit to, or NULL */
	const char *branch;      /* its branch */
	const char *author;      /* "Name <email>", or NULL */
	const char *sign_key;    /* SSH key that signs each commit, or NULL */
	const char *templates;   /* user templates, or NULL */
	const char *theme;       /* the theme's name or directory */
	const char *rules;       /* user rules, or NULL */
	const struct build_param *params;   /* rules' parameters */
	size_t nparams;
	const char *title;       /* the site's title */
	const char *base_url;    /* checked, no trailing '/'; NULL: relative */
	int no_sweep;            /* no sweep: the store is only read */
	int force;               /* render even when DIR holds the build */
	int counts;              /* read the conflicts by status */
	int checks;              /* read the rules' violations too */
	const struct site_progress *progress;  /* the render's, or NULL */
	void (*progress_end)(void *arg);   /* after the render, with
	                                      progress->arg, or NULL */
};

/* What a build came to (build_run); errors are negative mirror_status. */
enum build_outcome {
	BUILD_DONE = 0,          /* the site rendered into DIR (committed) */
	BUILD_UNCHANGED = 1      /* DIR (and the branch) held it already */
};

/*
 * The path a build took (b->report.path), decided by the step where the
 * build learns it (pipeline.c's build_steps[]): the check, before the
 * sweep (step 4), or the stamp, after the sweep and its read (step 8).
 * A build that renders is BUILD_PATH_RENDERED; the other two are those
 * build_run ends with BUILD_UNCHANGED.
 */
enum build_path {
	BUILD_PATH_RENDERED = 0,      /* the site rendered into DIR */
	BUILD_PATH_HELD_AFTER_SWEEP,  /* swept (unless no_sweep), then DIR
	                                 held the build: nothing rendered */
	BUILD_PATH_HELD_BEFORE_SWEEP  /* the check found DIR held the
	                                 build: nothing swept or rendered */
};

/* The phases of a build that are timed ("swap": output_commit, which
 * moves the changed files into DIR). */
enum build_phase { PH_LOCK, PH_CHECK, PH_SWEEP, PH_READ, PH_RENDER,
    PH_COMMIT, PH_SWAP, PH_N };

/* Each phase's name, for --json. */
extern const char *const build_phase_names[PH_N];

/*
 * The work a build did, counted (sys/work.h; --json's "work"): the rows
 * its phases stepped, the rules' rows, the VM steps of both, the pages it rendered, the files
 * and bytes it wrote into DIR, the bytes its pages' digests hashed, the
 * search documents and A-Z rows it took in (and the store rows the
 * A-Z read), the steps SQLite's full scans took in the reads of some
 * projects, the most bytes its search indexes held at once, the
 * fact tables its digests took from folds kept by an earlier run, and
 * whether it ended with its pages faulted in huge.
 */
struct build_work {
	unsigned long long rows[PH_N], rule_rows, pages_rendered;
	unsigned long long vm_steps[PH_N], rule_vm_steps;
	unsigned long long files_written, bytes_written, hashed_bytes;
	unsigned long long search_docs;
	unsigned long long atoz_rows;
	unsigned long long atoz_store_rows;     /* of rows.render, the A-Z's */
	unsigned long long atoz_kept_rows;      /* kept A-Z rows walked */
	unsigned long long scope_scan_steps;    /* full-scan steps of the
	                           reads of some projects (sys/work.h) */
	unsigned long long search_peak_bytes;   /* the most the search
	                           indexes held at once (search_index.h) */
	unsigned long long tables_kept;         /* fact tables the digests
	                           took from kept folds (sys/work.h) */
	int huge_pages;         /* 1: the build ended faulting its pages
	                           in huge (util/xalloc.h's xalloc_huge) */
};

/* What a build did, for its summary and --json. */
struct build_report {
	enum build_path path;     /* which way the build went */
	int swept;
	long long pages, written, reused;
	struct conflict_counts counts;   /* read when opts.counts */
	struct violation_counts checks;  /* read when opts.checks */
	struct history_result hres;
	long long start, mark, ms[PH_N];
	struct build_work work;   /* once build_run returned */
	struct build_work at;     /* the counters when it started */
};

/*
 * What the check before the sweep found changed since the last build
 * into DIR, so the sweep, and the digest after it, can do less.
 */
struct build_changes {
	const char **ids;       /* the changed projects, sorted (pointers
	                           into the model's digest, valid until the
	                           next build_snapshot) */
	size_t n;
	int scoped;             /* 1: ids is all that changed */
	int swept_before;       /* 1: that build swept (its stamp says so) */
	int digested;           /* 1: the model's digest was taken then */
	long long version;      /* the store's data_version then */
	struct rule_set rules;  /* what the sweep runs (none with
	                           no_sweep) */
	struct facts_clock clock;  /* the store's clock at the run's time, */
	int clocked;               /* when 1: read in this read, or the
	                              memo's, which holds then */
	int git_later;          /* 1: libgit2 waits until the branch's tip
	                           is not known from the memo
	                           (build_git_later) */
	int tip_by_memo;        /* 1: the memo said the tip holds the
	                           stamp (gen/git/history.h) */
	struct rules_job *early;  /* those rules started in the check,
	                             the sweep's to take */
};

/* One build: its options, the store and model, what it holds between
 * steps, its output and its report. Zeroed, then build_run. */
struct build {
	const struct build_opts *o;
	struct site_model s;        /* the store (s.st) and the model */
	struct site_opts so;        /* templates, theme, output, record */
	struct sweep_run run;
	struct store_undo *undo;    /* what the sweep changed, taken back
	                               when the build fails after it */
	struct build_changes ch;
	struct output_turn turn;    /* DIR's lock, taken first (build_lock),
	                               then b->start's to take over */
	struct output_start *start; /* DIR listed on a thread */
	struct stamp stamp;         /* this build's */
	struct stamp held;          /* DIR's, from its last build */
	int reading;                /* 1: a store read is open */
	int held_git;               /* 1: libgit2 held (history_hold) */
	struct history_hold_start *git_start; /* libgit2 begun early */
	struct build_report report;
};

/*
 * Run the build o asks into b (zeroed by the caller, which keeps o
 * alive until build_free). Returns BUILD_DONE, BUILD_UNCHANGED, or a
 * negative mirror_status with err set; b->report and b->s's scalars
 * (snapshot, open_conflicts) say what was done either way it succeeds.
 */
int build_run(struct build *b, const struct build_opts *o,
    mirror_error *err);

/* Free what b holds (and release libgit2 when b held it). */
void build_free(struct build *b);

/*
 * The rules a sweep runs into rs: the starter rules (when installed),
 * those of the directory dir (NULL: none) and the parameters params[0..n)
 * over them. Returns 0, or < 0 with err set and rs empty.
 */
int build_rules_load(struct rule_set *rs, const char *dir,
    const struct build_param *params, size_t n, mirror_error *err);

#endif
