/*
 * hosting.h: whether a built site fits where it is published.
 *
 * Static hosts refuse sites past their limits, and say so only at
 * deploy time: GitHub Pages publishes at most 1 GB (and git refuses a
 * pushed file over 100 MB), GitLab Pages 1 GB in at most 200,000 files
 * and folders, Cloudflare Pages 20,000 files on its free plan and
 * 100,000 on paid ones, none over 25 MiB. hosting_measure walks an
 * output directory once; hosting_fits says, for one host, whether the
 * site fits and which limit it passes. doc/publishing.md has the table.
 */
#ifndef MIRROR_OUT_HOSTING_H
#define MIRROR_OUT_HOSTING_H

#include <stdint.h>

#include "util/error.h"
#include "util/strbuf.h"

/* What a site holds: every regular file and folder below its root. */
struct hosting_size {
	uint64_t bytes;         /* the files' sizes, summed */
	uint64_t files;         /* regular files */
	uint64_t folders;       /* folders below the root */
	uint64_t largest;       /* bytes of the largest file */
	char *largest_path;     /* its path inside the site ('/'-separated;
	                           NULL when there is no file); owned,
	                           hosting_size_free frees it */
};

/* One host's limits; 0 is "no limit". */
struct hosting_limit {
	const char *id;         /* what --check-hosting names */
	const char *name;       /* in words */
	uint64_t max_bytes;     /* the whole site */
	uint64_t max_files;     /* files alone */
	uint64_t max_entries;   /* files and folders together */
	uint64_t max_file;      /* one file */
};

/* The hosts mirror knows, in the order the report names them; n is
 * set to their count. */
const struct hosting_limit *hosting_limits(size_t *n);

/* The host whose id is id, or NULL. */
const struct hosting_limit *hosting_find(const char *id);

/*
 * Walk the directory dir (never following a symbolic link; a link
 * counts as a file of its own size) and fill *out. Returns 0, or
 * -MIRROR_EIO with err naming the path that could not be read; *out is
 * then partial and must still be freed.
 */
int hosting_measure(struct hosting_size *out, const char *dir,
    mirror_error *err);

void hosting_size_free(struct hosting_size *s);

/*
 * 1 when s fits host h; else 0, with why (when not NULL) appended the
 * first limit it passes in words ("20,693 files, over its 20,000").
 */
int hosting_fits(const struct hosting_size *s, const struct hosting_limit *h,
    strbuf *why);

/*
 * Append the report line of s to out: "hosting: 20.2 MB in 2,107 files
 * and 45 folders, largest 1.2 MB (api/checks.json); fits GitHub Pages,
 * ..." naming every known host it fits ("fits none of ..." when none).
 */
void hosting_report(strbuf *out, const struct hosting_size *s);

#endif
