/*
 * search_index.h: the site's search index, written as small script
 * files that work from a web server and from file:// alike (a page
 * loads them with <script> tags; each calls a registering function of
 * assets/search.js, so no fetch() is needed).
 *
 * The caller adds documents (facts, conflicts, checks) one by one in a
 * stable order; each gets the next number. The index writes:
 *
 *   search/d-<n>.js    the records of documents n*SEARCH_CHUNK to
 *                      (n+1)*SEARCH_CHUNK-1, written as they fill:
 *                      mirrorSearch.d(n, {"p": [[name, slug], ...],
 *                      "s": [status, ...]}, [[code, title, value,
 *                      project, status, id(, url)], ...]). The chunk's
 *                      projects and statuses are written once, in the
 *                      order first met, and a record names them by
 *                      index; code is 4 * layer (0 state, 1 entity,
 *                      2 memory, 3 conflict, 4 check) + flags. The url
 *                      is left out when search.js rebuilds it (a fact's
 *                      projects/<slug>/index.html#<layer>-<id>, or
 *                      index.html#... for no project, a conflict's
 *                      conflicts/<id>.html), is [page] for page#<id>,
 *                      else the URL itself. A title, value, id,
 *                      project name or status past TEXT_MAX_FIELD
 *                      (4096) bytes is cut as the pages cut a value
 *                      (util/text.h: " … (N bytes more)"); its terms
 *                      are of the whole text.
 *   search/t-<k>.js    shard k of the terms: every term in byte
 *                      order, cut into shards of about SEARCH_SHARD
 *                      bytes, each with its documents, as one string:
 *                      mirrorSearch.t(k, "<entry> <entry> ..."), an
 *                      entry "<p><rest> <postings>": p a base-36 digit,
 *                      the leading bytes (ASCII, at most 35) the term
 *                      shares with the entry before it, rest the others
 *                      (terms hold no space).
 *   search/index.js    the manifest: chunk size, document count, the
 *                      documents of each kind ("kinds": first, last + 1;
 *                      the caller adds them kind after kind) and the
 *                      first term of every shard ("first"), so a term's
 *                      shard is found by a binary search.
 *
 * Postings are the document numbers in increasing order, as base-36
 * differences joined by ","; a term of more documents than it keeps
 * (the first SEARCH_POSTINGS / 3 of each kind) has "<total>;" first. Terms are the runs
 * of ASCII letters and digits (lower-cased) and of non-ASCII bytes;
 * search.js cuts a query the same way. An id, key or name with no space
 * that is more than one term ("p06-st-spindle-max") is a term as well,
 * lower-cased, so a query of it finds its document first. Same documents in the same
 * order: the same bytes.
 */
#ifndef MIRROR_SEARCH_INDEX_H
#define MIRROR_SEARCH_INDEX_H

#include <stddef.h>

#include "util/error.h"

#define SEARCH_CHUNK 256
#define SEARCH_SHARD 24000
#define SEARCH_POSTINGS 1500

/* Write len bytes of data as the site file path (relative to the site
 * root). Returns 0 or < 0 with err set. */
typedef int (*search_put_fn)(void *arg, const char *path, const char *data,
    size_t len, mirror_error *err);

/* One document; NULL strings are "". text is indexed but not shown.
 * layer is one of state, entity, memory (a fact), conflict, check. */
struct search_doc {
	const char *title, *value, *project, *url, *layer, *status, *id;
	const char *pslug;      /* the project's slug; "" a fact of no
	                           project (its URL: index.html#...) */
	const char *text;
	int flags;              /* 1 disputed, 2 checked */
};

struct search_index;

/* A new, empty index writing through put(arg, ...). Never fails. */
struct search_index *search_index_new(search_put_fn put, void *arg);

/* Add d as the next document. Returns 0 or < 0 with err set (a chunk
 * that could not be written, a layer not of the five). */
int search_index_add(struct search_index *x, const struct search_doc *d,
    mirror_error *err);

/* Write the last chunk, the term shards and the manifest. Returns 0 or
 * < 0 with err set. */
int search_index_finish(struct search_index *x, mirror_error *err);

/* The documents, files and bytes written so far into the three out
 * params (any may be NULL). */
void search_index_stats(size_t *docs, size_t *files, size_t *bytes,
    const struct search_index *x);

void search_index_free(struct search_index *x);   /* NULL: no-op */

#endif
