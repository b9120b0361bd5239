/*
 * out_lock.h: DIR's lock file, ".<DIR>.mirror-lock" beside DIR (gen/output's
 * own; output_lock in output.h says what it promises).
 */
#ifndef MIRROR_OUT_LOCK_H
#define MIRROR_OUT_LOCK_H

#include "util/error.h"

struct out_place;

/* A held DIR lock, or fd -1. */
struct out_lock {
	int fd;                 /* the locked file */
	int parent_fd;          /* the directory holding it */
	char *name;             /* ".<base>.mirror-lock" */
};

/*
 * Take the lock of DIR (at, out_site.h: beside DIR in its parent),
 * waiting for another holder up to MIRROR_LOCK_TIMEOUT_MS. Returns 0
 * with *lk holding it, or -MIRROR_EIO naming the lock file (and its
 * holder, after the wait).
 */
int out_lock_take(struct out_lock *lk, const struct out_place *at,
    mirror_error *err);

/* Let go of lk, removing its file first when it is still lk's
 * (out_lock_held); lk is then empty (fd -1). Harmless on an empty one. */
void out_lock_release(struct out_lock *lk);

/* 1 when lk is (or was) the lock of the DIR whose last component is
 * base, in the directory lk->parent_fd; else 0. */
int out_lock_is_for(const struct out_lock *lk, const char *base);

/*
 * Whether lk still holds DIR's lock (dir as given): the file at the lock's
 * name is the one it locked (device and inode), not removed or replaced
 * meanwhile (by hand, a cleaner of /tmp), which lets a second build take
 * the lock and write DIR too. Returns 0, or -MIRROR_EIO naming DIR and
 * the lock file: the holder must then stop before it changes DIR.
 */
int out_lock_held(const struct out_lock *lk, const char *dir,
    mirror_error *err);

/* 1 when fd is still the file called name in dir_fd, else 0. */
int out_lock_current(int fd, int dir_fd, const char *name);

#endif
