/*
 * out_journal.h: the journal that makes an update of DIR old-or-new
 * (gen/output's own; output.h says what it promises).
 *
 * ".<DIR>.mirror-journal" beside DIR lists, in text, the staging
 * directory, the marker's new tree line, every path to remove and every
 * staged file to rename into place, and ends with a line "end":
 *
 *	mirror-journal 2
 *	stage .site.mirror-stage-4242
 *	tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904	(or "tree -")
 *	del projects/p3/index.md
 *	put projects/p4/index.md
 *	putdir projects/p5
 *	end
 *
 * (a '%' or a newline in a path is written %25, %0A). The staging
 * directory holds the staged files at their paths below its "site"
 * directory: "put P" renames site/P into DIR as P; "putdir D" renames
 * the directory site/D, all of it new (DIR had nothing at D), in one
 * step. (A journal "mirror-journal 1", of an older build, names flat
 * staged files instead: "put 17 P" renames the stage's file "17".) The
 * journal is written into the staging directory and synced with
 * everything staged, then renamed beside DIR and the parent synced: a
 * journal there is whole. Applying it removes, renames and writes the
 * marker; each step can be done again (a staged file or directory
 * already renamed is skipped), so a build killed in the middle is
 * finished by the next one.
 */
#ifndef MIRROR_OUT_JOURNAL_H
#define MIRROR_OUT_JOURNAL_H

#include <stddef.h>

#include "util/error.h"

struct out_place;

/* The staging directory's tree of staged files, and its kinds of put. */
#define OUT_STAGED_SITE "site"
#define OUT_PUT_FILE (-1L)      /* site/<path> is a file */
#define OUT_PUT_DIR (-2L)       /* site/<path> is a new directory */

/* A staged file or directory that becomes path in DIR: n is
 * OUT_PUT_FILE, OUT_PUT_DIR, or (journal 1) the stage's file "<n>". */
struct out_put {
	long n;
	const char *path;
};

struct out_journal {
	const char *stage;      /* the staging directory's name beside DIR */
	const char *tree;       /* the new marker's tree id, or NULL */
	struct out_put *puts;   /* sorted by path */
	size_t n_puts, puts_cap;
	const char **dels;      /* paths to remove, sorted */
	size_t n_dels, dels_cap;
	char *text;             /* a read journal's text, its strings'
	                           storage; NULL when the caller's */
	int version;            /* a read journal's: 1 or 2 */
};

void out_journal_init(struct out_journal *j);

/* Free what j holds (its arrays and text, not the caller's strings). */
void out_journal_free(struct out_journal *j);

/*
 * Write j as the journal of DIR (at, out_site.h): into the staging
 * directory stage_fd, fsynced, the stage synced (syncfs: every staged
 * file), then renamed beside DIR and the parent fsynced. Returns 0, or
 * -MIRROR_EIO naming DIR with nothing beside it.
 */
int out_journal_write(const struct out_place *at, int stage_fd,
    const struct out_journal *j, mirror_error *err);

/*
 * Apply the journal j that is in place beside DIR: make DIR when it is
 * missing, remove the dels (and the directories they leave empty),
 * rename the puts in (each directory made once, one component at a
 * time, never through a link), write the marker, sync, then remove the
 * journal and the staging directory. Returns 0, or -MIRROR_EIO naming
 * what failed (the journal stays: the next build finishes the work).
 */
int out_journal_apply(const struct out_place *at,
    const struct out_journal *j, mirror_error *err);

/*
 * What a killed build left: DIR's journal, if any, applied when it is
 * whole (1), or removed with its staging directory when it is not
 * (0; DIR was never touched then); 0 when there is none. Call with
 * DIR's lock held. Returns 1, 0, or < 0: -MIRROR_EIO when the journal is
 * not mirror's (a link, unreadable, damaged) or cannot be applied.
 */
int out_journal_recover(const struct out_place *at, mirror_error *err);

#ifdef MIRROR_TEST_HOOKS
/* A test hook (the unit tests' build alone, doc/development.md): when
 * set, called with 0 once the journal is in place and with 1, 2, ...
 * after each step of applying it (a removal, a rename, the marker), so
 * a test can kill the build there. */
extern void (*out_journal_test_step)(size_t step);
#endif

#endif
