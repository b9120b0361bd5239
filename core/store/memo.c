/*
 * memo.c: a store file's print and the snapshot it vouched for, in the
 * user's cache (see memo.h).
 */
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

/* A memo's bytes: print, a space, snapshot, a newline. */
#define MEMO_LEN 34

/* 1 when s is 16 lowercase hex digits, nothing more. */
static int
hex16(const char *s)
{
	return s != NULL && strlen(s) == 16 &&
	    strspn(s, "0123456789abcdef") == 16;
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
memo_get(char snapshot[17], const char *path, const char *print)
{
	char file[PATH_MAX], buf[MEMO_LEN + 1];
	struct stat sb;
	ssize_t got = -1;
	int fd;

	snapshot[0] = '\0';
	if (!hex16(print) || memo_file(file, sizeof(file), path, 0) != 0)
		return 0;
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got != MEMO_LEN || buf[16] != ' ' || buf[MEMO_LEN - 1] != '\n')
		return 0;
	buf[16] = buf[MEMO_LEN - 1] = '\0';
	if (!hex16(buf) || !hex16(buf + 17) || strcmp(buf, print) != 0)
		return 0;
	memcpy(snapshot, buf + 17, 17);
	return 1;
}

void
memo_put(const char *path, const char *print, const char *snapshot)
{
	char file[PATH_MAX], tmp[PATH_MAX + 32], line[MEMO_LEN + 1];
	int fd, n, ok;

	if (!hex16(print) || !hex16(snapshot) ||
	    memo_file(file, sizeof(file), path, 1) != 0)
		return;
	n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", file, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return;
	(void)snprintf(line, sizeof(line), "%s %s\n", print, snapshot);
	(void)unlink(tmp);          /* a dead run's, of a reused pid */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return;
	ok = write(fd, line, MEMO_LEN) == MEMO_LEN;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, file) != 0)
		(void)unlink(tmp);
}
