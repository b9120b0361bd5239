/*
 * memo.c: a store file's print and what it vouched for, in the user's
 * cache (core/sys/cache.h; see memo.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/memo.h"
#include "sys/cache.h"

/* The longest memo: two hex fields, four numbers, their separators. */
#define MEMO_MAX (16 + 1 + 16 + 4 * 21 + 1)

/* 1 when s is 16 lowercase hex digits, nothing more. */
static int
hex16(const char *s)
{
	return s != NULL && strlen(s) == 16 &&
	    strspn(s, "0123456789abcdef") == 16;
}

/* The next space-ended field of *p as a decimal in *out (as "%lld"
 * wrote it), *p moved past it. Returns 0 or -1. */
static int
memo_number(long long *out, char **p, char end)
{
	char *q;

	if (!isdigit((unsigned char)**p) && **p != '-')
		return -1;
	errno = 0;
	*out = strtoll(*p, &q, 10);
	if (errno != 0 || q == *p || *q != end)
		return -1;
	*p = q + 1;
	return 0;
}

/* Read the memo line in buf (NUL-ended, its newline included) into *m.
 * Returns 0, or -1 when it is not a memo. */
static int
memo_parse(struct store_memo *m, char *buf, const char *print)
{
	long long any;
	char *p = buf + 34;

	if (buf[16] != ' ' || buf[33] != ' ')
		return -1;
	buf[16] = buf[33] = '\0';
	if (!hex16(buf) || !hex16(buf + 17) || strcmp(buf, print) != 0 ||
	    memo_number(&m->clock.expired, &p, ' ') != 0 ||
	    memo_number(&any, &p, ' ') != 0 ||
	    memo_number(&m->clock.after, &p, ' ') != 0 ||
	    memo_number(&m->clock.until, &p, '\n') != 0 || *p != '\0' ||
	    m->clock.expired < 0 || (any != 0 && any != 1) ||
	    m->clock.after >= m->clock.until)
		return -1;
	m->clock.any_conflicts = (int)any;
	memcpy(m->snapshot, buf + 17, 17);
	return 0;
}

int
memo_get(struct store_memo *out, const char *path, const char *print)
{
	char real[PATH_MAX], buf[MEMO_MAX + 2];
	long got;

	memset(out, 0, sizeof(*out));
	if (!hex16(print) || realpath(path, real) == NULL)
		return 0;
	got = cache_get(buf, sizeof(buf), "stores", real, strlen(real));
	/* Shorter than the two hex fields, or longer than any memo. */
	if (got < 35 || got > MEMO_MAX || memo_parse(out, buf, print) != 0) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	return 1;
}

void
memo_put(const char *path, const char *print, const struct store_memo *m)
{
	char real[PATH_MAX], line[MEMO_MAX + 1];
	const struct facts_clock *c = &m->clock;
	int len;

	if (!hex16(print) || !hex16(m->snapshot) ||
	    realpath(path, real) == NULL)
		return;
	len = snprintf(line, sizeof(line), "%s %s %lld %d %lld %lld\n", print,
	    m->snapshot, c->expired, c->any_conflicts != 0, c->after,
	    c->until);
	if (len > 0 && (size_t)len < sizeof(line))
		cache_put("stores", real, strlen(real), line, (size_t)len);
}
