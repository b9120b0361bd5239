/*
 * search_pack.h: the projects' search documents a whole index kept
 * for the next build, in one entry of the user's cache (a pack), not
 * one a project (site_search.c).
 *
 * A whole index writes every project's documents into one pack, named
 * by the search key and the set of the projects' digests (their units'
 * path and digest, summed: the order they come in is not part of it),
 * and a small index of each project's place at its end. The next build
 * works out the name from the digests its record gives (the last
 * build's) and finds the pack there. An update keeps the projects it
 * changed in entries of their own (site_search.c) and leaves under the
 * name of the new set an alias, the pack's name, so the build after it
 * finds the same pack; the old alias goes. A whole index drops the last
 * build's pack (or alias, and the pack it names) once its own is kept.
 *
 * Entries are untrusted: a pack of another key, cut, of an index that
 * points outside it, or whose project's place holds another path or
 * digest is none; its reader then rebuilds the index whole.
 */
#ifndef MIRROR_SEARCH_PACK_H
#define MIRROR_SEARCH_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "sys/cache.h"
#include "util/strbuf.h"

/* The packs' names of a build (16 hex digits each): the last build's
 * set (prev, "" when the units know none) and this build's (now); the
 * sums they are made of while units are added. */
struct pack_names {
	char key[17];           /* the search key */
	char prev[17], now[17];
	uint64_t sum_prev, sum_now;
	size_t n_prev, n_now;
};

/* Start the names of a set of units under the search key key. */
void pack_names_start(struct pack_names *pn, const char *key);

/* Add a unit: its page's path, its digest in the last build (prev, ""
 * when it had none) and now (hex, "" when it has none). The order units
 * come in is not part of the names. */
void pack_names_add(struct pack_names *pn, const char *path,
    const char *prev, const char *hex);

/* Make pn->prev and pn->now from the units added. */
void pack_names_finish(struct pack_names *pn);

/* A pack being written (NULL: nothing kept). */
struct pack_writer;

/* The pack of pn->now in the cache's kind, to be written; NULL when
 * there is no cache or a sound pack of that name is there already (its
 * set's documents: kept as it is, marked used). */
struct pack_writer *pack_start(const char *kind, const struct pack_names *pn);

/* Project path's documents data[0..len) at digest hex into w (NULL:
 * nothing). */
void pack_add(struct pack_writer *w, const char *path, const char *hex,
    const char *data, size_t len);

/* The pack put in place with its index (keep 1), else dropped; w
 * freed (NULL is fine). */
void pack_end(struct pack_writer *w, int keep);

/* The last build's pack, as an update reads it. */
struct pack_reader {
	int tried;                      /* pack_open was called */
	char name[17];                  /* the pack's own name, "" none */
	struct cache_map m;
	size_t index, count;            /* the index's place, its entries */
};

/*
 * The pack of pn->prev (an alias followed once) opened into *r, once:
 * later calls return the first's answer. Returns 0, or -1 when there is
 * none or it is not sound.
 */
int pack_open(struct pack_reader *r, const char *kind,
    const struct pack_names *pn);

/* Project path's documents at digest hex in r, appended to sb. Returns
 * 0, or -1 when r holds none (sb then holds nothing new). */
int pack_get(strbuf *sb, const struct pack_reader *r, const char *path,
    const char *hex);

/* After an update from pn->prev to pn->now: the alias of pn->now to
 * r's pack written, that of pn->prev dropped (nothing without a pack).
 * Returns nothing (best effort). */
void pack_carry(const char *kind, const struct pack_names *pn,
    const struct pack_reader *r);

/* After a whole index: the pack or alias of pn->prev dropped (and the
 * pack an alias names), unless it is pn->now's. Best effort. */
void pack_retire(const char *kind, const struct pack_names *pn);

/* Drop r's pack (found damaged) and close r. */
void pack_drop(const char *kind, struct pack_reader *r);

void pack_close(struct pack_reader *r);  /* unmapped; r stays tried */

#endif
