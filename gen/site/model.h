/*
 * model.h: what a build's site shows, read once and then only read.
 *
 * The caller sets the first six fields (the store, inside one
 * consistent read, the run's clock, the snapshot checksum and digest of
 * that read, the title and base URL), site_model_read fills the rest, and
 * site_render opens the facts reader for the length of a render. Page
 * families see the model as const: every page's bytes come from it and
 * from the page's own facts, never from another page.
 */
#ifndef MIRROR_SITE_MODEL_H
#define MIRROR_SITE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "render/slug.h"
#include "rules/violation.h"
#include "store/audit.h"
#include "store/digest.h"
#include "store/facts.h"
#include "store/store.h"
#include "store/undo.h"
#include "sweep/conflict.h"
#include "sweep/health.h"

/*
 * Entries of one of the model's lists by project, so that a project's
 * page reads its own instead of the whole list: project i's are
 * ord[start[i]] to ord[start[i + 1] - 1], indexes into the list in the
 * list's order. An entry of no project of the model is in none.
 */
struct model_index {
	size_t *start;                /* n_projects + 1 entries */
	size_t *ord;
};

struct site_model {
	mirror_store *st;             /* inside one consistent read */
	time_t now;                   /* the run's clock (core/sys/clock.h) */
	char snapshot[17];            /* store checksum, hex */
	struct store_digest digest;   /* the snapshot and each project's
	                                 digest (core/store/digest.h), set
	                                 with snapshot; site_model_free
	                                 frees it */
	int digest_whole;             /* 1: the digest reads every table,
	                                 taking no fold kept by an earlier
	                                 run (a --force build) */
	const char *title;            /* site title */
	const char *base_url;         /* NULL or "" when relative */

	struct fact_project *projects;  /* sorted by id; "" group first */
	size_t n_projects;
	char (*pslug)[SLUG_SIZE];     /* slug of projects[i] */
	long long facts_latest;       /* the greatest latest of projects:
	                                 the store's newest fact change
	                                 (seconds), -1 when none has one */
	struct disputed_list disputed;  /* members of open conflicts */
	struct conflict_list conflicts; /* all, in review-queue order */
	struct audit_list audit;        /* who last changed each fact */
	long long open_conflicts;
	struct flagged_list flagged;    /* facts of open violations */
	struct violation_list violations; /* all, open first (violation.h) */
	struct rule_run_list runs;      /* the latest run of each rule */
	struct health health;           /* the store's counts, for
	                                   api/health.json; its checks are
	                                   the violations by status */
	struct model_index open_of;     /* the open conflicts of each
	                                   project */
	struct model_index checks_of;   /* the violations of each project,
	                                   open first */
	struct model_index conflicts_of; /* every conflict of each project,
	                                   in the list's order */

	struct facts_reader *facts;   /* open during site_render: projects
	                                 are read in id order, on the thread
	                                 that runs the families */
	struct project_facts loose;   /* during site_render: the rows of no
	                                 project, the reader's first group,
	                                 read before the families (the
	                                 index's, which runs beside them) */
	/* Set by a build whose sweep wrote (no other connection since),
	 * before site_model_read; swept NULL: none. The findings sum
	 * (store/facts.h, facts_findings_sum) of the read before the sweep
	 * and the sweep's changes (store/undo.h): the lists the read of
	 * the store as it was kept are brought up to date by them. */
	uint64_t findings_before;
	const struct store_undo *swept;
	struct conflict_words *words; /* during site_render: each
	                                 conflict's question in words,
	                                 made when a page first asks
	                                 (site_conflicts.h) */
	struct facts_kept *kept;      /* NULL, or the projects the build's
	                                 check read in a read of the same
	                                 store (no other connection wrote
	                                 since): site_render takes them
	                                 instead of reading them again;
	                                 site_model_free frees them */
};

/*
 * Fill m's projects, slugs, audit, disputed members, conflicts, open
 * count, violations, their flagged facts, the rules' latest runs and
 * the three indexes by project from m->st (inside the caller's read).
 * Returns 0 or < 0 with err set; site_model_free releases what was
 * read, also after a failure.
 * It leaves the caller's six fields and open_conflicts as they are,
 * and may be called again (a build frees the model before its commit).
 */
int site_model_read(struct site_model *m, mirror_error *err);
void site_model_free(struct site_model *m);

/*
 * 1 when a read of the store st at path kept its conflicts and
 * violations (the user's cache) under the findings sum of digest d:
 * those tables hold the rows that read took, and checked, then, so a
 * check of them now finds what it found (the kept text is verified by
 * its hashes, not trusted); else 0.
 */
int site_findings_known(mirror_store *st, const struct store_digest *d);

/* The index in m->projects of canonical project id, or -1. */
long model_project_index(const struct site_model *m, const char *id);

/* The open conflict that fact (layer, id) belongs to, or NULL. */
const char *model_marker_of(const struct site_model *m, enum fact_layer layer,
    const char *id);

/*
 * The first open violation (smallest id) naming fact (layer, id), or
 * NULL; *n (may be NULL) gets how many open violations name it. layer is
 * a violation_facts layer: project_state, entity, memory, relationship.
 */
const struct flagged *model_check_of(const struct site_model *m,
    const char *layer, const char *id, size_t *n);

/* The marker's words for rule_id: its latest run's label, else the id. */
const char *model_rule_label(const struct site_model *m,
    const char *rule_id);

#endif
