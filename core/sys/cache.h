/*
 * cache.h: small files mirror keeps between runs in the user's cache,
 * each saying something true of a file outside it (a store file, a
 * branch's tip), so a later run can skip the work of learning it again.
 *
 * The cache is $MIRROR_CACHE_DIR, else $XDG_CACHE_HOME/mirror (an
 * absolute XDG_CACHE_HOME only, as XDG says), else $HOME/.cache/mirror.
 * An entry is <cache>/<kind>/<hash of its key>: directories made 0700,
 * one component at a time; the file written beside its name and renamed
 * into place (a reader sees the old entry or the new one). The part of
 * the path the user names (the variable's directory, $HOME/.cache) is
 * followed as written; below it, mirror/, <kind>/ and the entry are
 * opened and made one at a time through the directory above, never
 * through a symbolic link: a link there (XDG_CACHE_HOME/mirror -> /etc)
 * means no cache, with one warning a run. An entry that is missing,
 * unreadable, too long, or the store (sys/userfile.h) is none, and an
 * entry that is the store is never written over. Nothing here fails a
 * run: without a cache (no variable names one, a read-only disk)
 * nothing is kept.
 */
#ifndef MIRROR_CACHE_H
#define MIRROR_CACHE_H

#include <stddef.h>

#include "util/strbuf.h"

/*
 * The entry of kind for key[0..keylen) into buf, NUL-ended (so at most
 * size - 1 bytes). Returns its length, or -1 when there is none, or it
 * is longer than that.
 */
long cache_get(char *buf, size_t size, const char *kind, const void *key,
    size_t keylen);

/* Keep data[0..len) as the entry of kind for key, replacing the one
 * there (best effort). */
void cache_put(const char *kind, const void *key, size_t keylen,
    const char *data, size_t len);

/* The directory of kind's entries, made when missing, for
 * cache_put_new: its descriptor (the caller closes it), or -1 when
 * there is no cache. */
int cache_kind_open(const char *kind);

/* Keep data[0..len) as the entry for key in dfd (cache_kind_open's; -1:
 * nothing), unless an entry of len bytes is there already: for a key
 * that names its bytes, whose entry never changes (best effort). */
void cache_put_new(int dfd, const void *key, size_t keylen,
    const char *data, size_t len);

/*
 * The entry of kind for key of any length up to max bytes, appended to
 * sb (NUL-ended, as strbuf keeps it). Returns 0, or -1 when there is
 * none or it is longer (sb then holds nothing new).
 */
int cache_get_text(strbuf *sb, size_t max, const char *kind,
    const void *key, size_t keylen);

/* Remove the entry of kind for key, when there is one and it is not
 * the store (best effort). */
void cache_drop(const char *kind, const void *key, size_t keylen);

/*
 * An entry written in parts, for text too large to hold at once: made
 * beside its name and renamed into place by cache_writer_end (a reader
 * sees the old entry or the new one). NULL when there is no cache or
 * the entry is the store: then the parts go nowhere.
 */
struct cache_writer;

struct cache_writer *cache_writer_start(const char *kind, const void *key,
    size_t keylen);

/* Append data[0..len) to w's entry (w NULL: nothing). */
void cache_writer_add(struct cache_writer *w, const void *data, size_t len);

/* Put w's entry in place (keep 1) when every part was written, else
 * drop it; free w (NULL is fine). */
void cache_writer_end(struct cache_writer *w, int keep);

/* An entry mapped read-only (cache_map), so a large one is read from
 * the page cache as it is walked, not copied. */
struct cache_map {
	const char *data;
	size_t len;
};

/*
 * Map the entry of kind for key into *m: 0, or -1 when there is none,
 * it is empty or longer than max, or it is the store (m then empty).
 * cache_unmap ends it.
 */
int cache_map(struct cache_map *m, size_t max, const char *kind,
    const void *key, size_t keylen);

/* Let the pages of m before byte upto go (read again from the file
 * when touched again): a walk's memory stays that of its place. */
void cache_map_drop(const struct cache_map *m, size_t upto);

void cache_unmap(struct cache_map *m);   /* an empty m: no-op */

/* The most megabytes of a kind's entries, unless MIRROR_CACHE_MAX_MB
 * says another number. */
#define CACHE_MAX_MB 1024

/*
 * Keep each kind this run wrote to under its bound: when what was
 * written to it since it was last pruned passes an eighth of the bound
 * (a count kept in the kind's directory, so a one-fact build reads no
 * directory), its entries least recently used first (an entry read or
 * kept again is marked used) are removed until three quarters of the
 * bound are left, never one this run used or wrote, never the store,
 * never anything but an entry's regular file (no link is followed).
 * An entry removed is a miss: the work it saved is done again. Called
 * once a run, at its end (best effort).
 */
void cache_prune(void);

#endif
