/*
 * build_stamp.h: what decides a build's output, written into the site as
 * api/build.json, so an unchanged store skips the render.
 *
 * The stamp is a small JSON object: mirror's version, the store snapshot
 * checksum, and one hash over every other input (the template and theme
 * files, title, base URL, the number of expired memories,
 * SOURCE_DATE_EPOCH when it dates the feed of a store without
 * conflicts, and the run's day when it dates the age of conflicts),
 * plus the page and file counts and open
 * conflicts of the build that wrote it. Two builds whose keys (version,
 * snapshot, inputs) agree write byte-identical sites, so when DIR (and,
 * with --repo, the branch's tip) already holds a stamp with the same
 * keys, the build has nothing to do; unless it sweeps and the stamp's
 * build did not ("swept": false, --no-sweep): the store may hold
 * conflicts no sweep has recorded yet.
 */
#ifndef MIRROR_BUILD_STAMP_H
#define MIRROR_BUILD_STAMP_H

#include <stddef.h>
#include <time.h>

#include "util/error.h"

/* The path of the stamp inside the site. */
#define STAMP_PATH "api/build.json"

struct stamp_inputs {
	const char *snapshot;           /* store checksum, hex */
	const char *title;
	const char *base_url;           /* NULL or "" when relative */
	const char *user_templates;     /* --templates DIR, or NULL */
	const char *default_templates;  /* the bundled templates */
	const char *theme_dir;
	const char *rules;              /* digest of the rules a sweep runs
	                                   (hex), or NULL when none */
	long long expired;              /* facts_clock_read at the run's */
	int any_conflicts;              /* now */
	long long day;                  /* the run's UTC day (now / 86400):
	                                   with conflicts, the review queue
	                                   shows their age by it */
};

/* A stamp's keys, and what the build that wrote it counted. */
struct stamp {
	char inputs[17];                /* hash of the inputs, hex */
	char render[17];                /* of those that render the data
	                                   (version, title, base URL,
	                                   templates, theme: not the clock),
	                                   the key of every page's digest
	                                   (output/record.h); not in the file */
	char snapshot[17];
	long long pages, files, open_conflicts;
	int swept;                      /* 1: the build swept the store
	                                   first; a sweeping build never
	                                   counts a --no-sweep build's site
	                                   as its own */
};

/*
 * Fill out->inputs and out->snapshot from in (reading every template and
 * theme file). Returns 0, or -MIRROR_EIO naming a file that cannot be
 * read.
 */
int stamp_make(struct stamp *out, const struct stamp_inputs *in,
    mirror_error *err);

/*
 * The stamp as JSON text on one line (with a final newline); the caller
 * must free it. Never fails (out of memory exits, like xalloc).
 */
char *stamp_text(const struct stamp *s);

/*
 * 1 when the site in dir holds a stamp whose keys equal want's, with
 * *held filled from it; 0 when it does not (no such file, another
 * version, a symlink anywhere on the way, unparsable: a full build
 * then decides). Never fails.
 */
int stamp_in_dir(struct stamp *held, const char *dir,
    const struct stamp *want);

/*
 * 1 when the site in dir holds a stamp of this mirror version, whatever
 * its keys, with *held filled from it; else 0. Never fails.
 */
int stamp_load_dir(struct stamp *held, const char *dir);

/*
 * 1 when text (len bytes, as a stamp file holds it: the caller reads
 * the branch tip's through gen/git) is a stamp of this mirror version
 * whose keys equal want's; else 0. Never fails.
 */
int stamp_in_text(const char *text, size_t len, const struct stamp *want);

#endif
