/*
 * cache.c: entries in the user's cache (see cache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sys/cache.h"
#include "sys/env.h"
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

/* The run's start (mark_start's): what was used since is kept. */
static struct timespec run_start;

/* The run's start into run_start, taken once (pthread_once's). */
static void
mark_start(void)
{
	(void)clock_gettime(CLOCK_REALTIME, &run_start);
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
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const char *own;
	int fd, sub, n;

	(void)pthread_once(&once, mark_start);
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

/*
 * What this run wrote to each kind, for cache_prune: its name, the bytes
 * and the descriptor cache_kind_open last gave for it (cache_put_new's
 * writes are counted through it).
 */
#define KINDS 16
static struct grown {
	char kind[24];
	unsigned long long bytes;
	int fd;
} grown[KINDS];
static size_t n_grown;
static pthread_mutex_t grown_mu = PTHREAD_MUTEX_INITIALIZER;

/* The slot of kind (made when new; fd >= 0 noted as its descriptor)
 * under grown_mu. Returns it, or NULL when the table is full. */
static struct grown *
grown_slot(const char *kind, int fd)
{
	size_t i;

	for (i = 0; fd >= 0 && i < n_grown; i++)
		if (grown[i].fd == fd)
			grown[i].fd = -1;       /* closed since: reused */
	for (i = 0; i < n_grown; i++)
		if (strcmp(grown[i].kind, kind) == 0)
			break;
	if (i == n_grown) {
		if (i == KINDS || strlen(kind) >= sizeof(grown[i].kind))
			return NULL;
		memcpy(grown[i].kind, kind, strlen(kind) + 1);
		grown[i].fd = -1;
		n_grown++;
	}
	if (fd >= 0)
		grown[i].fd = fd;
	return &grown[i];
}

/* Count len bytes written to kind (or, kind NULL, to the kind whose
 * descriptor cache_kind_open gave as fd). Returns nothing. */
static void
grew(const char *kind, int fd, size_t len)
{
	struct grown *g = NULL;

	pthread_mutex_lock(&grown_mu);
	if (kind != NULL)
		g = grown_slot(kind, -1);
	for (size_t i = 0; kind == NULL && i < n_grown; i++)
		if (grown[i].fd == fd)
			g = &grown[i];
	if (g != NULL)
		g->bytes += len;
	pthread_mutex_unlock(&grown_mu);
}

/* The entry name below dfd marked used now (its mtime), so that
 * cache_prune keeps it longest. */
static void
touch(int dfd, const char *name)
{
	(void)utimensat(dfd, name, NULL, AT_SYMLINK_NOFOLLOW);
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
	if (got >= 0)
		touch(fd, hex);
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
	if (rc == 0)
		touch(fd, hex);
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
 * its name and renamed into place (best effort). Returns 1 when it
 * was, else 0. */
static int
put_at(int dfd, const char *hex, const char *data, size_t len)
{
	char tmp[64];
	int fd, n, ok;

	n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", hex, (long)getpid());
	/* An entry that is the store is never written over. */
	if (n < 0 || (size_t)n >= sizeof(tmp) || is_store(dfd, hex) ||
	    is_store(dfd, tmp))
		return 0;
	(void)unlinkat(dfd, tmp, 0);    /* a dead run's, of a reused pid */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	ok = write(fd, data, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	if (!ok || renameat(dfd, tmp, dfd, hex) != 0) {
		(void)unlinkat(dfd, tmp, 0);
		return 0;
	}
	return 1;
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
	if (put_at(dfd, hex, data, len))
		grew(kind, -1, len);
	close(dfd);
}

int
cache_kind_open(const char *kind)
{
	int fd = cache_dir(kind, 1);

	if (fd >= 0) {
		pthread_mutex_lock(&grown_mu);
		(void)grown_slot(kind, fd);
		pthread_mutex_unlock(&grown_mu);
	}
	return fd;
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
	    S_ISREG(st.st_mode) && (size_t)st.st_size == len) {
		touch(dfd, hex);        /* used: kept longest */
		return;
	}
	if (put_at(dfd, hex, data, len))
		grew(NULL, dfd, len);
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
	char kind[24];          /* "" when too long to count */
	size_t len;             /* the bytes written */
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
	if (strlen(kind) < sizeof(w->kind))
		memcpy(w->kind, kind, strlen(kind) + 1);
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
		w->len += (size_t)got;
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
	else if (w->kind[0] != '\0')
		grew(w->kind, -1, w->len);
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
	if (p != MAP_FAILED)
		(void)futimens(fd, NULL);       /* used: kept longest */
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

/* ---- pruning ------------------------------------------------------- */

/* The directory of the cache holding, a file per kind named as the
 * kind, the bytes written to it since it was last pruned (the kinds'
 * own directories hold their entries alone). */
#define GROWN_DIR "pruned"
/* A file being written by a run that died is pruned past this age. */
#define TMP_AGE 3600

/* An entry cache_prune may remove: its name, size and time of use. */
struct victim {
	char name[64];
	unsigned long long size;
	struct timespec used;
};

/* Order victims oldest first (then by name: the same each run). */
static int
victim_cmp(const void *a, const void *b)
{
	const struct victim *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* 1 when name is an entry (16 hex digits) or a file being written
 * (cache_writer's, put_at's: an entry's name, then ".tmp" at its end),
 * else 0: anything else in the directory is never removed. */
static int
prunable_name(const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i < 16 && name[i] != '\0'; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	if (i < 16 || n >= sizeof(((struct victim *)0)->name))
		return 0;
	return n == 16 || (n > 20 && strcmp(name + n - 4, ".tmp") == 0);
}

/* 1 when t is at or after the run's start, else 0. */
static int
this_run(const struct timespec *t)
{
	return t->tv_sec > run_start.tv_sec || (t->tv_sec ==
	    run_start.tv_sec && t->tv_nsec >= run_start.tv_nsec);
}

/*
 * The prunable files of the kind directory dfd into *out (n of them),
 * with the bytes of all of them into *total; those used or written by
 * this run, and files being written younger than TMP_AGE, are counted
 * but not listed. Regular files only, never through a link. Returns 0,
 * or -1 (nothing listed).
 */
static int
list_victims(struct victim **out, size_t *n, unsigned long long *total,
    int dfd)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	*total = 0;
	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		struct victim *v;

		if (!prunable_name(e->d_name) || fstatat(dfd, e->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		*total += (unsigned long long)st.st_size;
		if (this_run(&st.st_mtim) || (strlen(e->d_name) > 16 &&
		    st.st_mtim.tv_sec > run_start.tv_sec - TMP_AGE))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			if ((v = realloc(*out, cap * sizeof(*v))) == NULL)
				break;
			*out = v;
		}
		v = &(*out)[(*n)++];
		memcpy(v->name, e->d_name, strlen(e->d_name) + 1);
		v->size = (unsigned long long)st.st_size;
		v->used = st.st_mtim;
	}
	closedir(d);
	return 0;
}

/* The kind directory dfd's entries, oldest used first, removed until
 * what is left is at most three quarters of max bytes (when it is
 * above max): never one this run used, never the store. */
static void
prune_dir(int dfd, unsigned long long max)
{
	struct victim *v;
	unsigned long long total;
	size_t n;

	if (list_victims(&v, &n, &total, dfd) != 0)
		return;
	if (total > max) {
		qsort(v, n, sizeof(*v), victim_cmp);
		for (size_t i = 0; i < n && total > max / 4 * 3; i++)
			if (!is_store(dfd, v[i].name) &&
			    unlinkat(dfd, v[i].name, 0) == 0)
				total -= v[i].size;
	}
	free(v);
}

/*
 * Kind g's directory pruned when the bytes written to it since it was
 * last (its file in GROWN_DIR, this run's g->bytes added) are past an
 * eighth of max, or it has no such file yet (a cache kept before
 * pruning was); else its count kept. Returns nothing (best effort).
 */
static void
prune_kind(const struct grown *g, unsigned long long max)
{
	char buf[32];
	unsigned long long before = 0;
	long got;
	int dfd, cfd, n;

	if ((cfd = cache_dir(GROWN_DIR, 1)) < 0)
		return;
	got = userfile_read_small_at(buf, sizeof(buf), cfd, g->kind);
	if (got > 0)
		before = strtoull(buf, NULL, 10);
	if (got <= 0 || before + g->bytes > max / 8) {
		if ((dfd = cache_dir(g->kind, 0)) >= 0) {
			prune_dir(dfd, max);
			close(dfd);
		}
		before = 0;
	} else {
		before += g->bytes;
	}
	n = snprintf(buf, sizeof(buf), "%llu\n", before);
	if (n > 0 && (size_t)n < sizeof(buf))
		(void)put_at(cfd, g->kind, buf, (size_t)n);
	close(cfd);
}

void
cache_prune(void)
{
	unsigned long long max = (unsigned long long)env_long(
	    "MIRROR_CACHE_MAX_MB", CACHE_MAX_MB) << 20;

	pthread_mutex_lock(&grown_mu);
	for (size_t i = 0; i < n_grown; i++) {
		if (grown[i].bytes > 0)
			prune_kind(&grown[i], max);
		grown[i].bytes = 0;
		grown[i].fd = -1;
	}
	/* The next run of this process (mirror serve's) starts now. */
	(void)clock_gettime(CLOCK_REALTIME, &run_start);
	pthread_mutex_unlock(&grown_mu);
}
