/*
 * partcache.c: folds kept in the user's cache (see partcache.h).
 */
#include <string.h>

#include "sys/partcache.h"
#include "sys/cache.h"

/* The cache's kind for the folds. */
#define PART_KIND "digest-part"

/* The most bytes an entry may hold: a part of a store of ten million
 * facts. */
#define PART_MAX ((size_t)1 << 30)

/* The cache's key of unit of the store at path into sb. */
static void
entry_key(strbuf *sb, const char *path, const char *unit)
{
	strbuf_puts(sb, path);
	strbuf_putc(sb, '\0');
	strbuf_puts(sb, unit);
}

int
partcache_get(strbuf *entry, size_t *at, const char *path, const char *unit,
    const char *key)
{
	size_t klen = strlen(key);
	strbuf name;
	int rc;

	strbuf_init(&name);
	entry_key(&name, path, unit);
	strbuf_reset(entry);
	rc = cache_get_text(entry, PART_MAX, PART_KIND, name.data, name.len);
	strbuf_free(&name);
	if (rc < 0 || entry->len <= klen || memcmp(entry->data, key,
	    klen) != 0 || entry->data[klen] != '\n')
		return -1;
	*at = klen + 1;
	return 0;
}

void
partcache_put(const char *path, const char *unit, const char *key,
    const void *data, size_t len)
{
	struct cache_writer *w;
	strbuf name;

	strbuf_init(&name);
	entry_key(&name, path, unit);
	w = cache_writer_start(PART_KIND, name.data, name.len);
	strbuf_free(&name);
	cache_writer_add(w, key, strlen(key));
	cache_writer_add(w, "\n", 1);
	cache_writer_add(w, data, len);
	cache_writer_end(w, 1);
}
