/*
 * output.h: the output directory, updated in place at the cost of the
 * change, old-or-new across a crash (SPEC section 5).
 *
 *   struct output *out;
 *   if (output_begin(&out, "site", err) < 0) ...   (out is NULL)
 *   output_keep(out, paths, n)                     (pages known unchanged)
 *   output_write(out, "index.md", md, len, err);   (every other file)
 *   output_files(out, &files); output_removed(...) (the git stage)
 *   output_flush_begin(out);                       (optional: sync early)
 *   output_commit(out, err);                       (DIR becomes the site)
 *   output_free(out);                              (always)
 *
 * output_begin lists DIR's regular files once. A file written with the
 * bytes DIR already holds at that path is kept where it is; any other is
 * written at its path below a staging directory beside DIR, in the same
 * parent: ".<DIR>.mirror-stage-<pid>/site/<relpath>". Nothing in DIR
 * changes before output_commit. output_commit writes a journal beside
 * DIR, ".<DIR>.mirror-journal" (each staged file, or each directory
 * DIR lacks that is all staged, and the path it becomes, each path to
 * remove, the new marker, an end line), puts every staged byte and the
 * journal on disk (syncfs, fsync), and only then applies it: removes
 * the files the new site lacks and the directories they leave empty,
 * renames the staged files and new directories into place (a new
 * directory in one rename, however many files it holds), writes the
 * marker, syncs, and removes the journal and the staging directory. A
 * build that changes nothing writes nothing into DIR.
 *
 * Crash: a failed or killed build leaves DIR as it was until its journal
 * is complete. From then on DIR is the new site's: the next build into
 * DIR (output_lock or output_begin), before it does anything else,
 * applies a complete journal again (a file already renamed is skipped,
 * so this can run any number of times) and throws away an incomplete
 * one with its staging directory. A reader that looks at DIR between a
 * kill inside the apply step and that next build may see a mix of the
 * old site and the new one; once the next build has started, DIR is
 * exactly the old site or the new one.
 *
 * Safety: DIR must be a real directory (not a symlink) or not exist, its
 * parent must be writable, and a non-empty DIR must hold the marker file
 * ".mirror-output" that every committed build writes, so a mistyped
 * --out can never touch a directory mirror did not write. Every path in
 * DIR is opened below DIR's descriptor without following any symbolic
 * link (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or one component
 * at a time with O_NOFOLLOW); a link or another file planted where the
 * new site needs a directory is replaced, never followed. The marker is
 * not in the list of written paths; its first line is fixed text, and a
 * second line "tree <hex>" records the git tree DIR's content was
 * committed as (output_base_tree).
 *
 * Turns: builds into one DIR take turns. output_begin takes DIR's lock
 * (see output_lock) before it looks at DIR, and output_free lets it go,
 * so a second build waits for the first to finish (or fails after a
 * bounded wait, naming the lock and its holder); neither sees the other's
 * staging directory or journal.
 */
#ifndef MIRROR_OUTPUT_H
#define MIRROR_OUTPUT_H

#include <stddef.h>

#include "output/out_lock.h"
#include "util/error.h"
#include "sys/work.h"

struct output;

/*
 * DIR's turn, taken ahead of a build (output_lock) and handed to the
 * build that takes it over (output_begin_start): the caller's, zeroed
 * before its first use. Its lock is gen/output's to read.
 */
struct output_turn {
	int held;               /* 1: lk holds DIR's lock */
	struct out_lock lk;
};

/*
 * Start a build into dir: take DIR's lock, finish or throw away what a
 * killed build left (see Crash above), check DIR, remove stale staging
 * directories of dead builds, read the marker, list DIR's files and
 * make the staging directory. Returns 0 and *out, or < 0 with *out NULL:
 * -MIRROR_EINPUT when dir is a symlink, not a directory, ".", "..", "/",
 * non-empty without the marker, or its parent is missing or not
 * writable; -MIRROR_EIO on other system errors (a journal beside DIR
 * that is damaged or cannot be applied among them).
 */
int output_begin(struct output **out, const char *dir, mirror_error *err);

/*
 * output_begin on a thread of its own, so that listing a big DIR (system
 * calls in proportion to its pages) overlaps what the caller
 * does meanwhile (a build's read of the store). output_begin_start
 * never fails; with one job (MIRROR_JOBS=1) or no thread it starts
 * nothing, and output_begin_finish runs output_begin in its place.
 * When turn holds DIR's lock (output_lock's), the build begun takes it
 * over (turn then holds nothing); turn may be NULL, and must stay alive,
 * untouched, until the start ends. output_begin_finish waits for it and
 * returns what output_begin
 * returned, *out and err as it sets them; output_begin_drop waits and
 * frees what it made. Each start is ended by exactly one of the two;
 * NULL is a start that was never made (finish then fails, drop does
 * nothing). The caller touches no other output_* call on DIR between.
 */
struct output_start;
struct output_start *output_begin_start(const char *dir,
    struct output_turn *turn);
int output_begin_finish(struct output **out, struct output_start *s,
    mirror_error *err);
void output_begin_drop(struct output_start *s);

/*
 * Take DIR's lock into turn without starting a build, so a caller can
 * take its turn before it does anything else (a build's sweep, say);
 * output_begin_start for the same DIR and turn then takes it over, and
 * output_free lets it go (output_unlock when no build took it). With
 * the lock held it finishes or throws away what a killed build left, as
 * output_begin does, checks DIR (so a bad DIR is found before anything
 * is written) and removes stale
 * staging directories (so does a build that then finds nothing to
 * render). The lock is an exclusive flock(2) on ".<DIR>.mirror-lock"
 * beside DIR, created when missing and holding the holder's pid; the
 * kernel drops it when the holder dies, however it dies, so a killed
 * build never blocks the next. The holder removes the file before
 * letting go (a waiter that then gets the lock on the removed file sees
 * the name no longer leads to it and tries again), so nothing stays
 * beside DIR after a build. Waits for another holder up to
 * MIRROR_LOCK_TIMEOUT_MS from the environment (default 300000, 0: do
 * not wait), saying so once on stderr when it is a terminal. Returns 0
 * (also when turn holds a lock already), or
 * -MIRROR_EIO naming the lock file and the holder's pid when the wait
 * ran out, or output_begin's errors for a DIR it would refuse (holding
 * no lock then).
 */
int output_lock(struct output_turn *turn, const char *dir,
    mirror_error *err);

/*
 * Refuse a DIR that holds path (what names it: "store", "--repo"):
 * each build removes the files of DIR the new site lacks, so a store
 * or a repository inside DIR would be deleted by the next build that
 * changes anything. Both are resolved (realpath), so a link or a
 * relative path does not hide it. Returns 0 (also when DIR does not
 * exist yet), or -MIRROR_EUSAGE naming both.
 */
int output_refuse_inside(const char *dir, const char *path,
    const char *what, mirror_error *err);

/* Let go of the lock output_lock took into turn, if a build begun with
 * it (output_begin_start) did not take it over. Harmless when turn holds
 * nothing. */
void output_unlock(struct output_turn *turn);

/*
 * The file relpath of the new site, len bytes of data: kept as it is
 * when DIR holds a regular file with exactly these bytes there (counted
 * as reused, nothing written), else written into the staging directory.
 * relpath is '/'-separated, relative, with no empty, "." or ".."
 * component, no component starting with ".mirror" and every component at
 * most 255 bytes; anything else is refused with -MIRROR_EINPUT (a bug
 * upstream: names come from slugs), and so is a relpath written (or
 * kept) twice in one build. A relpath that is a directory of the new
 * site, or below one of its files, is -MIRROR_EIO; so are write errors,
 * naming the path. Returns 0 or < 0. Safe to call from several threads
 * at once.
 */
int output_write(struct output *out, const char *relpath, const void *data,
    size_t len, mirror_error *err);

/*
 * Keep the n files relpaths as the previous build left them, without
 * reading them: 1 when DIR held every one as a regular file when
 * output_begin listed it and none was written or kept yet in this build
 * (then all are kept: counted as reused and listed by output_paths);
 * else 0 and none is (the caller output_writes them). No system call.
 * Safe to call from several threads at once, with output_write.
 */
int output_keep(struct output *out, const char *const *relpaths, size_t n);

/*
 * Keep every file DIR held below prefix (a folder's path ending in '/')
 * that this build has neither written nor kept yet, but the n paths of
 * drop (files the new site lacks): as output_keep, all or nothing.
 * Returns how many, or -1 when one could not be kept (then none is).
 * For a family that updates its folder in place: it writes what
 * changed and keeps the rest. Safe with output_write from other
 * threads, as long as none writes below prefix meanwhile.
 */
long output_keep_rest(struct output *out, const char *prefix,
    const char *const *drop, size_t n);

/*
 * The previous build's file relpath in DIR (opened below DIR without
 * following any link, a regular file only): 1 with *data (NUL-terminated
 * after its *len bytes; the caller frees it); 0 with *data NULL when DIR
 * held no regular file there; -MIRROR_EINPUT for a relpath output_write
 * would refuse, -MIRROR_EIO when it cannot be read. Safe from several
 * threads.
 */
int output_read_prev(char **data, size_t *len, struct output *out,
    const char *relpath, mirror_error *err);

/* A file of the new site (see output_files). */
struct output_file {
	const char *path;       /* relpath */
	const char *disk;       /* where its bytes are now: the staged file
	                           (written) or DIR/relpath (kept) */
	int changed;            /* 1 written in this build, 0 kept */
};

/*
 * Every file of the new site, written or kept, sorted bytewise by path,
 * into *files (owned by out); returns the count. Valid from the end of
 * the render until output_commit or the next output_files call.
 */
size_t output_files(struct output *out, const struct output_file **files);

/*
 * The paths DIR holds as regular files that this build neither kept nor
 * wrote (the files the new site lacks), sorted bytewise; owned by out,
 * valid as output_files' answer. *n gets the count.
 */
const char *const *output_removed(struct output *out, size_t *n);

/*
 * The git tree id (hex) DIR's content was last committed as, from the
 * marker's "tree" line as output_begin found it; NULL when it has none
 * (DIR is new, or the last build into it made no commit).
 */
const char *output_base_tree(const struct output *out);

/*
 * The tree id the new site is committed as, for the marker output_commit
 * writes; NULL (the default: a build that commits nothing) or anything
 * but 40 or 64 lowercase hex digits clears it.
 */
void output_set_tree(struct output *out, const char *hex);

/*
 * Wait until every file output_write queued (the writers create theirs
 * in batches) is on disk in the stage. Returns 0, or -MIRROR_EIO
 * "DIR/PATH: cannot write: ..." naming a file that could not be
 * created, as output_write would have (the build then cannot be
 * committed). output_flush_begin, output_files and output_commit wait
 * too; a build calls it where its render ends, to report a failure
 * before anything reads the files back.
 */
int output_drain(struct output *out, mirror_error *err);

/*
 * Start putting the staged files on disk now, on a thread of its own
 * (one syncfs of the stage's file system), for a caller with work to do
 * before output_commit that leaves a core idle: the git commit reads
 * the files back while the disk takes them, and output_commit's own
 * syncfs finds little left (P100000: up to a second of the swap).
 * output_commit and output_free wait for the thread; the journal's
 * syncfs is still what makes the files durable. Once a build; nothing
 * after output_commit or without a stage.
 *
 * The same thread also runs one syncfs every 8 MiB output_write stages
 * (the asks made while one runs, one more at most), so a long render's files reach
 * the disk while it goes on (doc/performance.md, "The stage's
 * writeback").
 */
void output_flush_begin(struct output *out);

/* How many syncfs the writeback thread has run for out: exact once
 * output_commit or output_free waited for it. */
size_t output_writebacks(struct output *out);

/*
 * Make DIR the new site: write and sync the journal, apply it (see
 * above). Returns 0, or -MIRROR_EIO: with DIR as it was when the
 * journal could not be written (or an output_write failed), else with
 * the journal left for the next build to finish (a failure while
 * applying it).
 */
int output_commit(struct output *out, mirror_error *err);

/*
 * Finish: if the journal was never written, remove the staging directory
 * (DIR is exactly as it was). Then let go of DIR's lock (one output_lock
 * took and the output took over, or its own). Frees out (NULL is fine).
 */
void output_free(struct output *out);

/*
 * Paths written or kept so far, sorted bytewise, no duplicates; owned by
 * out and valid until output_free. *n gets the count.
 */
const char *const *output_paths(struct output *out, size_t *n);

/* Files written anew (staged) and files kept as DIR held them. */
size_t output_written(const struct output *out);
size_t output_reused(const struct output *out);

/* The final directory path, as given to output_begin (owned by out). */
const char *output_dir(const struct output *out);

/* Work counters (sys/work.h): the files output_write wrote (not those
 * DIR held byte for byte) and their bytes, in every build so far. */
extern struct work_count output_files_written, output_bytes_written;

#endif
