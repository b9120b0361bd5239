/*
 * partcache.h: bytes kept in the user's cache (sys/cache.h) between
 * runs under a key that must match: one entry per store and unit,
 * holding the key that says when its bytes still hold, and the bytes.
 * core/store/facts.c keeps the fact tables' folds so (digest.h's
 * digest_part_save; doc/performance.md, "Kept folds"): a build whose
 * key is the one kept adds the bytes to its digest instead of reading
 * the tables.
 */
#ifndef MIRROR_PARTCACHE_H
#define MIRROR_PARTCACHE_H

#include <stddef.h>

#include "util/strbuf.h"

/*
 * The bytes kept for unit of the store at path under key (a text with
 * no newline) into entry, *at the offset where they start. Returns 0,
 * or -1 when none are kept, or kept under another key.
 */
int partcache_get(strbuf *entry, size_t *at, const char *path,
    const char *unit, const char *key);

/* Keep data[0..len) for unit of the store at path under key, in place
 * of what was kept (best effort: nothing fails a run). */
void partcache_put(const char *path, const char *unit, const char *key,
    const void *data, size_t len);

#endif
