/*
 * cache.c: entries in the user's cache (see cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cache.h"
#include "sys/termtext.h"
#include "sys/userfile.h"
#include "util/hash.h"

/*
 * The part of the cache's path the user names into base (cache.h says
 * which), and the directory below it that is mirror's own into *own
 * ("mirror", or NULL under MIRROR_CACHE_DIR). Returns 0, or -1 when
 * there is no cache (no variable names one) or the path is too long.
 */
static int
cache_base(char *base, size_t size, const char **own)
{
	const char *dir = getenv("MIRROR_CACHE_DIR"), *sub = "";
	int n;

	*own = NULL;
	if (dir == NULL || dir[0] == '\0') {
		/* XDG: a relative XDG_CACHE_HOME is invalid, and ignored. */
		dir = getenv("XDG_CACHE_HOME");
		*own = "mirror";
		if (dir == NULL || dir[0] != '/') {
			dir = getenv("HOME");
			sub = "/.cache";
		}
	}
	if (dir == NULL || dir[0] == '\0')
		return -1;
	n = snprintf(base, size, "%s%s", dir, sub);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* mkdir -p dir, one component at a time, each made 0700. Returns 0 or
 * -1. The user's part of the path: links on the way are followed. */
static int
make_base(char *dir)
{
	for (char *p = dir + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			*p = c;
			return -1;
		}
		*p = c;
		if (c == '\0')
			return 0;
	}
}

/*
 * The directory name below fd (shown as parent/name), made 0700 first
 * when make is set, opened never through a symbolic link: a link there
 * (XDG_CACHE_HOME/mirror -> /etc) is refused, with a warning once a
 * run, and the cache is not used. Returns its descriptor, or -1.
 */
static int
own_dir(int fd, const char *parent, const char *name, int make)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;
	struct stat st;
	int sub;

	if (make && mkdirat(fd, name, 0700) != 0 && errno != EEXIST)
		return -1;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC);
	if (sub < 0 && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode) && !atomic_flag_test_and_set(&warned))
		(void)termtext_printf(stderr, "mirror: warning: cache %s/%s: "
		    "a symbolic link, never followed; nothing is kept in the "
		    "cache\n", parent, name);
	return sub;
}

/*
 * The directory of kind's entries, opened (cache.h says where), each
 * missing directory on the way made 0700 when make is set, mirror's
 * own never through a symbolic link. Returns its descriptor, or -1
 * when there is no cache, or it cannot be made or opened.
 */
static int
cache_dir(const char *kind, int make)
{
	char base[PATH_MAX], shown[PATH_MAX + 8];
	const char *own;
	int fd, sub, n;

	if (cache_base(base, sizeof(base), &own) != 0 ||
	    (make && make_base(base) != 0))
		return -1;
	n = snprintf(shown, sizeof(shown), "%s%s%s", base, own != NULL ?
	    "/" : "", own != NULL ? own : "");
	if (n < 0 || (size_t)n >= sizeof(shown))
		return -1;
	fd = open(base, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (own != NULL) {
		sub = own_dir(fd, base, own, make);
		close(fd);
		if ((fd = sub) < 0)
			return -1;
	}
	sub = own_dir(fd, shown, kind, make);
	close(fd);
	return sub;
}

/* The name of the entry for key into hex. */
static void
entry_name(char hex[17], const void *key, size_t keylen)
{
	hash_hex(hex, hash_mix(hash_add(MIRROR_HASH_INIT, key, keylen)));
}

long
cache_get(char *buf, size_t size, const char *kind, const void *key,
    size_t keylen)
{
	char hex[17];
	long got;
	int fd;

	if ((fd = cache_dir(kind, 0)) < 0)
		return -1;
	entry_name(hex, key, keylen);
	/* Never the store, should it be kept here (userfile.h). */
	got = userfile_read_small_at(buf, size, fd, hex);
	close(fd);
	return got;
}

int
cache_get_text(strbuf *sb, size_t max, const char *kind, const void *key,
    size_t keylen)
{
	char hex[17];
	mirror_error ignored;
	int fd, rc;

	if ((fd = cache_dir(kind, 0)) < 0)
		return -1;
	entry_name(hex, key, keylen);
	/* userfile_readat never opens the store (userfile.h). */
	rc = userfile_readat(sb, &(struct userfile_at){ .dirfd = fd,
	    .name = hex, .what = "cache entry", .shown = hex }, max,
	    USERFILE_MISSING_OK, &ignored);
	close(fd);
	return rc == 0 ? 0 : -1;
}

/* 1 when name below fd is the store or one of its files, else 0. */
static int
is_store(int fd, const char *name)
{
	mirror_error ignored;

	return userfile_not_store(&(struct userfile_at){ .dirfd = fd,
	    .name = name, .what = "cache", .shown = name }, &ignored) < 0;
}

/* Write data[0..len) as entry hex of the directory dfd: made beside
 * its name and renamed into place (best effort). */
static void
put_at(int dfd, const char *hex, const char *data, size_t len)
{
	char tmp[64];
	int fd, n, ok;

	n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", hex, (long)getpid());
	/* An entry that is the store is never written over. */
	if (n < 0 || (size_t)n >= sizeof(tmp) || is_store(dfd, hex) ||
	    is_store(dfd, tmp))
		return;
	(void)unlinkat(dfd, tmp, 0);    /* a dead run's, of a reused pid */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd >= 0) {
		ok = write(fd, data, len) == (ssize_t)len;
		ok = close(fd) == 0 && ok;
		if (!ok || renameat(dfd, tmp, dfd, hex) != 0)
			(void)unlinkat(dfd, tmp, 0);
	}
}

void
cache_put(const char *kind, const void *key, size_t keylen,
    const char *data, size_t len)
{
	char hex[17];
	int dfd;

	if ((dfd = cache_dir(kind, 1)) < 0)
		return;
	entry_name(hex, key, keylen);
	put_at(dfd, hex, data, len);
	close(dfd);
}

int
cache_kind_open(const char *kind)
{
	return cache_dir(kind, 1);
}

void
cache_put_new(int dfd, const void *key, size_t keylen, const char *data,
    size_t len)
{
	char hex[17];
	struct stat st;

	if (dfd < 0)
		return;
	entry_name(hex, key, keylen);
	/* There already: the same key, the same bytes. Not written again
	 * (a rename over it would also have ext4 write it back at once). */
	if (fstatat(dfd, hex, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && (size_t)st.st_size == len)
		return;
	put_at(dfd, hex, data, len);
}

void
cache_drop(const char *kind, const void *key, size_t keylen)
{
	char hex[17];
	int dfd;

	if ((dfd = cache_dir(kind, 0)) < 0)
		return;
	entry_name(hex, key, keylen);
	if (!is_store(dfd, hex))
		(void)unlinkat(dfd, hex, 0);
	close(dfd);
}

/* An entry being written in parts (cache.h). */
struct cache_writer {
	int dfd, fd;
	int ok;                 /* 1 while every part was written */
	char hex[17], tmp[64];
};

struct cache_writer *
cache_writer_start(const char *kind, const void *key, size_t keylen)
{
	struct cache_writer *w;
	int dfd, n;

	if ((dfd = cache_dir(kind, 1)) < 0)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		close(dfd);
		return NULL;
	}
	w->dfd = dfd;
	w->ok = 1;
	entry_name(w->hex, key, keylen);
	n = snprintf(w->tmp, sizeof(w->tmp), "%s.%ld.%p.tmp", w->hex,
	    (long)getpid(), (void *)w);
	w->fd = -1;
	/* An entry that is the store is never written over. */
	if (n >= 0 && (size_t)n < sizeof(w->tmp) && !is_store(dfd, w->hex) &&
	    !is_store(dfd, w->tmp)) {
		(void)unlinkat(dfd, w->tmp, 0);
		w->fd = openat(dfd, w->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (w->fd < 0) {
		close(dfd);
		free(w);
		return NULL;
	}
	return w;
}

void
cache_writer_add(struct cache_writer *w, const void *data, size_t len)
{
	const char *p = data;

	while (w != NULL && w->ok && len > 0) {
		ssize_t got = write(w->fd, p, len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			w->ok = 0;
			break;
		}
		p += got;
		len -= (size_t)got;
	}
}

void
cache_writer_end(struct cache_writer *w, int keep)
{
	if (w == NULL)
		return;
	keep = close(w->fd) == 0 && keep && w->ok;
	if (!keep || renameat(w->dfd, w->tmp, w->dfd, w->hex) != 0)
		(void)unlinkat(w->dfd, w->tmp, 0);
	close(w->dfd);
	free(w);
}

int
cache_map(struct cache_map *m, size_t max, const char *kind,
    const void *key, size_t keylen)
{
	char hex[17];
	struct stat sb;
	void *p = MAP_FAILED;
	int dfd, fd;

	*m = (struct cache_map){ NULL, 0 };
	if ((dfd = cache_dir(kind, 0)) < 0)
		return -1;
	entry_name(hex, key, keylen);
	fd = is_store(dfd, hex) ? -1 : openat(dfd, hex, O_RDONLY |
	    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (unsigned long long)sb.st_size <= max)
		p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd,
		    0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	(void)madvise(p, (size_t)sb.st_size, MADV_SEQUENTIAL);
	*m = (struct cache_map){ p, (size_t)sb.st_size };
	return 0;
}

void
cache_map_drop(const struct cache_map *m, size_t upto)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n;

	if (m->data == NULL || page <= 0)
		return;
	n = (upto < m->len ? upto : m->len) / (size_t)page * (size_t)page;
	if (n > 0)
		(void)madvise((void *)(uintptr_t)m->data, n, MADV_DONTNEED);
}

void
cache_unmap(struct cache_map *m)
{
	if (m->data != NULL)
		(void)munmap((void *)(uintptr_t)m->data, m->len);
	*m = (struct cache_map){ NULL, 0 };
}
