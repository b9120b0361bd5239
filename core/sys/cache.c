/*
 * cache.c: entries in the user's cache (see cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cache.h"
#include "sys/userfile.h"
#include "util/hash.h"

/*
 * The directory of kind's entries into dir (cache.h says where), each
 * missing directory on the way made 0700 when make is set. Returns 0,
 * or -1 when there is no cache (no variable names one) or the path is
 * too long or cannot be made.
 */
static int
cache_dir(char *dir, size_t size, const char *kind, int make)
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
	n = snprintf(dir, size, "%s%s/%s", base, sub, kind);
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

/* The entry of kind for key into file. Returns 0 or -1 (no cache). */
static int
cache_file(char *file, size_t size, const char *kind, const void *key,
    size_t keylen, int make)
{
	char hex[17];
	size_t len;
	int n;

	if (cache_dir(file, size, kind, make) != 0)
		return -1;
	hash_hex(hex, hash_mix(hash_add(MIRROR_HASH_INIT, key, keylen)));
	len = strlen(file);
	n = snprintf(file + len, size - len, "/%s", hex);
	return n < 0 || (size_t)n >= size - len ? -1 : 0;
}

long
cache_get(char *buf, size_t size, const char *kind, const void *key,
    size_t keylen)
{
	char file[PATH_MAX];

	if (cache_file(file, sizeof(file), kind, key, keylen, 0) != 0)
		return -1;
	return userfile_read_small(buf, size, file);
}

/* 1 when path is the store or one of its files (userfile.h), else 0. */
static int
is_store(const char *path)
{
	mirror_error ignored;

	return userfile_not_store(&(struct userfile_at){ .dirfd = AT_FDCWD,
	    .name = path, .what = "cache", .shown = path }, &ignored) < 0;
}

void
cache_put(const char *kind, const void *key, size_t keylen,
    const char *data, size_t len)
{
	char file[PATH_MAX], tmp[PATH_MAX + 32];
	int fd, n, ok;

	if (cache_file(file, sizeof(file), kind, key, keylen, 1) != 0)
		return;
	n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", file, (long)getpid());
	/* An entry that is the store is never written over. */
	if (n < 0 || (size_t)n >= sizeof(tmp) || is_store(file) ||
	    is_store(tmp))
		return;
	(void)unlink(tmp);          /* a dead run's, of a reused pid */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return;
	ok = write(fd, data, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, file) != 0)
		(void)unlink(tmp);
}
