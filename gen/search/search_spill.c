/*
 * search_spill.c: the search index's temporary file (search_spill.h).
 */
#define _GNU_SOURCE             /* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/search_spill.h"
#include "util/xalloc.h"

/* Open s's file: made in $TMPDIR (else /tmp) and unlinked at once,
 * closed on exec (a template's or the pager's child must not hold a
 * build's records). Returns 0 or < 0 with err set. */
static int
spill_open(struct spill *s, mirror_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int n;

	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	n = snprintf(path, sizeof(path), "%s/mirror-search-XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return mirror_fail(err, MIRROR_EIO, "search index: temporary "
		    "directory name too long: %s", dir);
	s->fd = mkostemp(path, O_CLOEXEC);
	if (s->fd < 0)
		return mirror_fail(err, MIRROR_EIO, "search index: cannot "
		    "make a temporary file in %s: %s", dir, strerror(errno));
	(void)unlink(path);
	s->size = 0;
	return 0;
}

int
spill_write(struct spill *s, const void *p, size_t n, uint64_t *off,
    mirror_error *err)
{
	const char *c = p;
	size_t done = 0;

	if (s->fd < 0 && spill_open(s, err) < 0)
		return -1;
	*off = s->size;
	while (done < n) {
		ssize_t w = pwrite(s->fd, c + done, n - done,
		    (off_t)(s->size + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return mirror_fail(err, MIRROR_EIO, "search index: "
			    "cannot write its temporary file: %s",
			    w < 0 ? strerror(errno) : "no room");
		done += (size_t)w;
	}
	s->size += n;
	return 0;
}

int
spill_read(const struct spill *s, uint64_t off, void *p, size_t n,
    mirror_error *err)
{
	char *c = p;
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(s->fd, c + done, n - done,
		    (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return mirror_fail(err, MIRROR_EIO, "search index: "
			    "cannot read its temporary file: %s",
			    r < 0 ? strerror(errno) : "short");
		done += (size_t)r;
	}
	return 0;
}

void
spill_close(struct spill *s)
{
	if (s->fd >= 0)
		(void)close(s->fd);
	s->fd = -1;
	s->size = 0;
}

void
spill_reader_init(struct spill_reader *r, const struct spill *s,
    uint64_t off, uint64_t end, size_t cap)
{
	if (cap > end - off)
		cap = end - off > 0 ? (size_t)(end - off) : 1;
	*r = (struct spill_reader){ .s = s, .off = off, .end = end,
	    .buf = xmalloc(cap), .cap = cap };
}

int
spill_reader_get(struct spill_reader *r, void *p, size_t n,
    mirror_error *err)
{
	char *c = p;

	if (r->pos == r->len && r->off == r->end)
		return 0;
	while (n > 0) {
		size_t k = r->len - r->pos;

		if (k == 0) {
			uint64_t left = r->end - r->off;

			if (left == 0)
				return mirror_fail(err, MIRROR_EIO, "search "
				    "index: its temporary file ends short");
			k = left < r->cap ? (size_t)left : r->cap;
			if (spill_read(r->s, r->off, r->buf, k, err) < 0)
				return -1;
			r->off += k;
			r->pos = 0;
			r->len = k;
		}
		k = k < n ? k : n;
		memcpy(c, r->buf + r->pos, k);
		r->pos += k;
		c += k;
		n -= k;
	}
	return 1;
}

void
spill_reader_free(struct spill_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}
