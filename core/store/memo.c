/*
 * memo.c: a store file's print and the snapshot it vouched for, in the
 * user's cache (see memo.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/memo.h"
#include "util/hash.h"

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

/*
 * The cache's directory of memos into dir (memo.h says which), each
 * missing directory on the way made 0700 when make is set. Returns 0,
 * or -1 when there is no cache (no variable names one) or the path is
 * too long or cannot be made.
 */
static int
memo_dir(char *dir, size_t size, int make)
{
	const char *base = getenv("MIRROR_CACHE_DIR"), *sub = "";
	int n;

	if (base == NULL || base[0] == '\0') {
		/* XDG: a relative XDG_CACHE_HOME is invalid, and ignored. */
		base = getenv("XDG_CACHE_HOME");
		sub = "/mirror";
		if (base == NULL || base[0] != '/') {
			base = getenv("HOME");
			sub = "/.cache/mirror";
		}
	}
	if (base == NULL || base[0] == '\0')
		return -1;
	n = snprintf(dir, size, "%s%s/stores", base, sub);
	if (n < 0 || (size_t)n >= size)
		return -1;
	/* mkdir -p, one component at a time. */
	for (char *p = dir + 1; make; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

/* The memo file of the store at path into file. Returns 0 or -1 (no
 * cache, or the store's real path cannot be had). */
static int
memo_file(char *file, size_t size, const char *path, int make)
{
	char real[PATH_MAX], hex[17];
	size_t len;
	int n;

	if (realpath(path, real) == NULL ||
	    memo_dir(file, size, make) != 0)
		return -1;
	hash_hex(hex, hash_mix(hash_add(MIRROR_HASH_INIT, real,
	    strlen(real))));
	len = strlen(file);
	n = snprintf(file + len, size - len, "/%s", hex);
	return n < 0 || (size_t)n >= size - len ? -1 : 0;
}

int
memo_get(struct store_memo *out, const char *path, const char *print)
{
	char file[PATH_MAX], buf[MEMO_MAX + 2];
	struct stat sb;
	ssize_t got = -1;
	int fd;

	memset(out, 0, sizeof(*out));
	if (!hex16(print) || memo_file(file, sizeof(file), path, 0) != 0)
		return 0;
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	/* Shorter than the two hex fields, or longer than any memo. */
	if (got < 35 || got > MEMO_MAX)
		return 0;
	buf[got] = '\0';
	if (memo_parse(out, buf, print) != 0) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	return 1;
}

void
memo_put(const char *path, const char *print, const struct store_memo *m)
{
	char file[PATH_MAX], tmp[PATH_MAX + 32], line[MEMO_MAX + 1];
	const struct facts_clock *c = &m->clock;
	int fd, n, len, ok;

	if (!hex16(print) || !hex16(m->snapshot) ||
	    memo_file(file, sizeof(file), path, 1) != 0)
		return;
	n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", file, (long)getpid());
	len = snprintf(line, sizeof(line), "%s %s %lld %d %lld %lld\n", print,
	    m->snapshot, c->expired, c->any_conflicts != 0, c->after,
	    c->until);
	if (n < 0 || (size_t)n >= sizeof(tmp) || len < 0 ||
	    (size_t)len >= sizeof(line))
		return;
	(void)unlink(tmp);          /* a dead run's, of a reused pid */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return;
	ok = write(fd, line, (size_t)len) == len;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, file) != 0)
		(void)unlink(tmp);
}
