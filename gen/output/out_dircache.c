/*
 * out_dircache.c: directories opened once and shared by the writing
 * threads (see out_dircache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/out_dircache.h"
#include "output/out_fs.h"
#include "util/xalloc.h"

/* The longest name of one component (out_path_ok's limit). */
#define NAME_MAX_LEN 255

void
out_dircache_init(struct out_dircache *c, int top)
{
	memset(c, 0, sizeof(*c));
	c->top = top;
	for (size_t k = 0; k < OUT_DIR_SLOTS; k++)
		c->s[k].fd = -1;
	pthread_mutex_init(&c->mu, NULL);
	pthread_mutex_init(&c->make_mu, NULL);
}

void
out_dircache_free(struct out_dircache *c)
{
	for (size_t k = 0; k < OUT_DIR_SLOTS; k++) {
		if (c->s[k].fd >= 0)
			close(c->s[k].fd);
		free(c->s[k].path);
		c->s[k].path = NULL;
		c->s[k].fd = -1;
	}
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->make_mu);
}

/* The slot holding dir[0..len), or -1. Under c->mu. */
static int
slot_find(const struct out_dircache *c, const char *dir, size_t len)
{
	for (int k = 0; k < OUT_DIR_SLOTS; k++)
		if (c->s[k].path != NULL && c->s[k].len == len &&
		    memcmp(c->s[k].path, dir, len) == 0)
			return k;
	return -1;
}

/* Hand out slot k's descriptor: one more user. Under c->mu. */
static int
slot_take(struct out_dircache *c, int k, int *slot)
{
	c->s[k].refs++;
	c->s[k].used = ++c->clock;
	*slot = k;
	return c->s[k].fd;
}

/* The slot to reuse: a free one, else the one used longest ago that no
 * thread is using; -1 when all are in use. Under c->mu. */
static int
slot_victim(const struct out_dircache *c)
{
	int best = -1;

	for (int k = 0; k < OUT_DIR_SLOTS; k++) {
		if (c->s[k].path == NULL)
			return k;
		if (c->s[k].refs == 0 && (best < 0 ||
		    c->s[k].used < c->s[best].used))
			best = k;
	}
	return best;
}

/*
 * Keep fd, just opened, as dir[0..len): unless another thread kept it
 * meanwhile (then fd is closed and theirs handed out). *slot gets the
 * slot, or -1 when every slot is in use (the caller then closes fd).
 * Returns the descriptor to use.
 */
static int
slot_keep(struct out_dircache *c, const char *dir, size_t len, int fd,
    int *slot)
{
	int k;

	pthread_mutex_lock(&c->mu);
	if ((k = slot_find(c, dir, len)) >= 0) {
		close(fd);
		fd = slot_take(c, k, slot);
	} else if ((k = slot_victim(c)) >= 0) {
		if (c->s[k].fd >= 0)
			close(c->s[k].fd);
		free(c->s[k].path);
		c->s[k].path = xstrndup(dir, len);
		c->s[k].len = len;
		c->s[k].fd = fd;
		c->s[k].refs = 0;
		fd = slot_take(c, k, slot);
	} else {
		*slot = -1;
	}
	pthread_mutex_unlock(&c->mu);
	return fd;
}

/* Done with fd, as dir_get handed it out with slot. */
static void
dir_put(struct out_dircache *c, int fd, int slot)
{
	if (slot < 0) {
		if (fd != c->top)
			close(fd);
		return;
	}
	pthread_mutex_lock(&c->mu);
	c->s[slot].refs--;
	pthread_mutex_unlock(&c->mu);
}

/* The directory name in at, made when missing and opened without
 * following a link. Returns the descriptor or -errno. */
static int
dir_make(int at, const char *name)
{
	int fd;

	/* Made first: a directory is met here mostly when it is new. */
	if (mkdirat(at, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

/*
 * The descriptor of the directory dir[0..len) below c's top (len 0:
 * the top), made and opened when not held; *slot as slot_keep says.
 * Release it with dir_put. Returns it or -errno.
 */
static int
dir_get(struct out_dircache *c, const char *dir, size_t len, int *slot)
{
	char name[NAME_MAX_LEN + 1];
	size_t pl = len;
	int pslot = -1, pfd, fd, k;

	*slot = -1;
	if (len == 0)
		return c->top;
	pthread_mutex_lock(&c->mu);
	k = slot_find(c, dir, len);
	fd = k >= 0 ? slot_take(c, k, slot) : -1;
	pthread_mutex_unlock(&c->mu);
	if (k >= 0)
		return fd;
	while (pl > 0 && dir[pl - 1] != '/')
		pl--;
	if (len - pl > NAME_MAX_LEN)
		return -ENAMETOOLONG;
	memcpy(name, dir + pl, len - pl);
	name[len - pl] = '\0';
	if ((pfd = dir_get(c, dir, pl > 0 ? pl - 1 : 0, &pslot)) < 0)
		return pfd;
	/* Threads that missed the same directory make it in turns, and
	 * all but the first find it kept: else many render threads make
	 * one directory at once, all but one failing with EEXIST (and as
	 * many more openat and close). */
	pthread_mutex_lock(&c->make_mu);
	pthread_mutex_lock(&c->mu);
	k = slot_find(c, dir, len);
	fd = k >= 0 ? slot_take(c, k, slot) : -1;
	pthread_mutex_unlock(&c->mu);
	if (k < 0) {
		fd = dir_make(pfd, name);
		if (fd >= 0)
			fd = slot_keep(c, dir, len, fd, slot);
	}
	pthread_mutex_unlock(&c->make_mu);
	dir_put(c, pfd, pslot);
	return fd;
}

int
out_dircache_hold(struct out_dircache *c, const char *relpath,
    const char **name, int *slot)
{
	return dir_get(c, relpath, out_split_last(name, relpath), slot);
}

void
out_dircache_release(struct out_dircache *c, int fd, int slot)
{
	dir_put(c, fd, slot);
}

int
out_dircache_create(struct out_dircache *c, const char *relpath,
    const void *data, size_t len)
{
	const char *name;
	int slot, fd = out_dircache_hold(c, relpath, &name, &slot), rc;

	if (fd < 0)
		return fd;
	rc = out_create_file(fd, name, data != NULL ? data : "", len,
	    OUT_EXCL);
	dir_put(c, fd, slot);
	return rc;
}
