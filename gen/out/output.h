/*
 * output.h: the all-or-nothing output directory (SPEC section 5).
 *
 *   struct output *out;
 *   if (output_begin(&out, "site", err) < 0) ...   (out is NULL)
 *   output_write(out, "index.md", md, len, err);   (for every file)
 *   output_commit(out, err);                       (swap it in)
 *   output_free(out);                              (always)
 *
 * output_begin creates a staging directory next to DIR, in the same
 * parent: ".<DIR>.mirror-stage-<pid>". Files are written there only.
 * output_commit makes DIR the staged tree in one atomic step
 * (renameat2 RENAME_EXCHANGE; a plain rename when DIR did not exist),
 * then removes the old tree. Until then DIR is untouched, so a failed or
 * killed build leaves DIR as it was; output_begin removes stale staging
 * directories of builds that no longer run.
 *
 * Safety: DIR must be a real directory (not a symlink) or not exist, its
 * parent must be writable, and a non-empty DIR must hold the marker file
 * ".mirror-output" that every committed tree gets, so a mistyped --out
 * can never replace a directory mirror did not write. The marker is not
 * in the list of written paths.
 *
 * Turns: builds into one DIR take turns. output_begin takes DIR's lock
 * (see output_lock) before it looks at DIR, and output_free lets it go,
 * so a second build waits for the first to finish (or fails after a
 * bounded wait, naming the lock and its holder); neither sees the other's
 * staging tree or swap.
 *
 * Reuse: when the previous DIR holds a byte-identical regular file at the
 * same path, it is hard-linked into the staging tree instead of written
 * (falling back to writing when linking fails), so a no-op rebuild writes
 * 0 files. Files are never modified in place, so sharing inodes between
 * the trees is safe.
 */
#ifndef MIRROR_OUTPUT_H
#define MIRROR_OUTPUT_H

#include <stddef.h>

#include "util/error.h"

struct output;

/*
 * Start a build into dir. Returns 0 and *out, or < 0 with *out NULL:
 * -MIRROR_EINPUT when dir is a symlink, not a directory, ".", "..", "/",
 * non-empty without the marker, or its parent is missing or not
 * writable; -MIRROR_EIO on other system errors.
 */
int output_begin(struct output **out, const char *dir, mirror_error *err);

/*
 * Take DIR's lock without starting a build, so a caller can take its
 * turn before it does anything else (a build's sweep, say); output_begin
 * for the same DIR then takes it over, and output_free (or
 * output_unlock) lets it go. With the lock held it checks DIR as
 * output_begin does (so a bad DIR is found before anything is written)
 * and removes what killed builds left beside DIR (so does a build that
 * then finds nothing to render). The lock is an exclusive flock(2) on
 * ".<DIR>.mirror-lock" beside DIR, created when missing and holding the
 * holder's pid; the kernel drops it when the holder dies, however it
 * dies, so a killed build never blocks the next. The holder removes the
 * file before letting go (a waiter that then gets the lock on the
 * removed file sees the name no longer leads to it and tries again), so
 * nothing stays beside DIR after a build. Waits for another holder up to
 * MIRROR_LOCK_TIMEOUT_MS from the environment (default 300000, 0: do
 * not wait), saying so once on stderr when it is a terminal. Returns 0
 * (also when this process already holds a lock taken this way), or
 * -MIRROR_EIO naming the lock file and the holder's pid when the wait
 * ran out, or output_begin's -MIRROR_EINPUT for a DIR it would refuse
 * (holding no lock then).
 */
int output_lock(const char *dir, mirror_error *err);

/* Let go of the lock output_lock took, if output_begin did not take it
 * over. Harmless when nothing is held. */
void output_unlock(void);

/*
 * Write len bytes of data as relpath inside the staging tree (or link
 * the identical old file). relpath is '/'-separated, relative, with no
 * empty, "." or ".." components, no component starting with ".mirror"
 * and every component at most 255 bytes; anything else is refused
 * with -MIRROR_EINPUT (a bug upstream: names come from slugs). Missing
 * directories are created one component at a time (mkdirat, then openat
 * with O_NOFOLLOW|O_DIRECTORY); the file is created with
 * O_EXCL|O_NOFOLLOW, so writing the same relpath twice is -MIRROR_EINPUT
 * too. Returns 0, or -MIRROR_EIO on write/close errors naming the path.
 */
int output_write(struct output *out, const char *relpath, const void *data,
    size_t len, mirror_error *err);

/*
 * Sync the staging tree, swap it in as DIR, remove the old tree.
 * Returns 0, or -MIRROR_EIO with DIR as it was (a failure while removing
 * the old tree after the swap is not an error: the next build cleans it).
 * After a failure, output_free still removes the staging tree.
 */
int output_commit(struct output *out, mirror_error *err);

/*
 * Finish: if output_commit did not succeed, remove the staging tree and
 * leave DIR exactly as it was. Then let go of DIR's lock (and of one
 * output_lock took). Frees out (NULL is fine).
 */
void output_free(struct output *out);

/*
 * Paths written so far (written or reused), sorted bytewise, no
 * duplicates; owned by out and valid until output_free. *n gets the
 * count.
 */
const char *const *output_paths(struct output *out, size_t *n);

/* 1 when DIR holds every one of relpaths from the previous build: they
 * stay as they are (counted as reused); else 0, nothing kept. */
int output_keep(struct output *o, const char *const *relpaths, size_t n);

/* The previous build's file relpath: 1 with *data (the caller frees
 * it), 0 when there is none, < 0 with err set. */
int output_read_prev(char **data, size_t *len, struct output *o,
    const char *relpath, mirror_error *err);

/* Files written anew and files hard-linked from the previous DIR. */
size_t output_written(const struct output *out);
size_t output_reused(const struct output *out);

/*
 * The staging directory's path (owned by out): the tree as written so
 * far, for a reader that must see it before output_commit (the git
 * history commits it before the swap, so a git failure leaves DIR as it
 * was). It has no marker file; it is gone after output_commit.
 */
const char *output_stage_dir(const struct output *out);

/* The final directory path, as given to output_begin (owned by out). */
const char *output_dir(const struct output *out);

#endif
