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

#endif
