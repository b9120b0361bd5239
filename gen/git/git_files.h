/*
 * git_files.h: the files of a site, as the commit reads them.
 *
 * A file is read with one open (that follows no symbolic link and never
 * waits on a FIFO), one fstat, its reads and one close: a symbolic link
 * or a special file is refused, never read. A site directory becomes
 * the list history_request.files would give (struct history_file),
 * checked as a tree will hold it: only regular files and directories,
 * no name git refuses.
 */
#ifndef MIRROR_GIT_FILES_H
#define MIRROR_GIT_FILES_H

#include <stddef.h>

#include <git2.h>

#include "git/site_file.h"
#include "util/error.h"

struct mgit_deflater;

/* Deeper than any site; stops a runaway recursion on a strange tree. */
#define MGIT_MAX_DEPTH 64

/*
 * Read the regular file at disk whole. Returns 0 with *data (the
 * caller frees it), *len and *mode (blob, or executable blob when the
 * owner may run it); -MIRROR_EINPUT for a symbolic link, a directory or
 * a special file; -MIRROR_EIO when it cannot be read. The message names
 * disk.
 */
int mgit_read_file(char **data, size_t *len, git_filemode_t *mode,
    const char *disk, mirror_error *err);

/* A file read and hashed as a blob ahead of its turn (mgit_ahead). */
struct mgit_read {
	const char *disk;       /* in: the file; NULL: nothing to read */
	char *data;             /* out: its bytes (the taker frees them);
	                           NULL when packed */
	unsigned char *z;       /* out, when packed: the bytes as the zlib
	                           stream of a pack entry (git_pack.h), the
	                           taker's to free; else NULL */
	size_t zlen;
	size_t len;             /* the file's bytes, packed or not */
	git_filemode_t mode;
	git_oid id;             /* its blob id */
	int rc;                 /* 0, or < 0 with err set */
	mirror_error err;
};

/* Reading threads of mgit_ahead at most. */
#define MGIT_READ_JOBS 16

/* Bytes of a reading thread's buffer kept for the next file at most. */
#define MGIT_READ_KEEP (1u << 20)

/* One reading thread's buffers, kept from one file to the next: a
 * file's bytes land in the same pages each time (a page first touched
 * costs more than the copy into it), and so does its stream; a buffer
 * grown past MGIT_READ_KEEP by a long file is freed after it. */
struct mgit_reader {
	char *buf;
	size_t cap;
	struct mgit_deflater *c;            /* made on first use */
	unsigned char *zbuf;
	size_t zcap;
};

/* How mgit_ahead reads: on how many threads, and each thread's
 * buffers, kept from one mgit_ahead to the next. Set up by
 * mgit_readers_init, released by mgit_readers_free. */
struct mgit_readers {
	int jobs;
	struct mgit_reader t[MGIT_READ_JOBS];
};

/* rd for up to jobs threads (clamped to 1..MGIT_READ_JOBS). */
void mgit_readers_init(struct mgit_readers *rd, int jobs);

/* Free what rd's threads kept. */
void mgit_readers_free(struct mgit_readers *rd);

/* Files mgit_ahead holds read and not yet given up at most. */
#define MGIT_AHEAD_SLOTS 1024

/*
 * Files read and hashed ahead of their turn, in order, while the
 * caller uses the ones before: a pool of rd->jobs - 1 threads (on
 * rd->t[1..]) claims disks[0], disks[1], ... in turn (NULL: nothing to
 * read; else read as mgit_read_file, then hashed, and compressed as a
 * pack entry's stream while its bytes are in the cache when its index
 * is below pack_below, n for every file, or mgit_ahead_take said
 * pack_all). The pool claims a file only
 * while fewer than MGIT_AHEAD_SLOTS files are claimed and less than
 * budget bytes are held (a file's stream when compressed, else its
 * bytes) and not given up (one file at least), so memory stays bounded
 * whatever the files' sizes; no thread waits for another between
 * files. disks is borrowed until mgit_ahead_stop. Returns the reader
 * (never NULL).
 */
struct mgit_ahead *mgit_ahead_start(const char *const *disks, size_t n,
    size_t budget, size_t pack_below, struct mgit_readers *rd);

/*
 * File i, read: the files before it are given up (freed; never read
 * when not claimed yet), then file i is waited for while the calling
 * thread reads the next ones itself (on rd->t[0]). i never goes back
 * and is below n. pack_all set compresses every file claimed from now.
 * Returns its slot: len, mode, id and data or z (the caller's to take,
 * setting them NULL), or rc < 0 with err naming the file. The slot
 * stays valid until the next take or mgit_ahead_stop.
 */
struct mgit_read *mgit_ahead_take(struct mgit_ahead *a, size_t i,
    int pack_all);

/* How many files a has claimed so far (read or being read). */
size_t mgit_ahead_claimed(struct mgit_ahead *a);

/* Stop the pool and free what it read and nobody took; a may be NULL. */
void mgit_ahead_stop(struct mgit_ahead *a);

/*
 * Every regular file under dir (dotfiles included) as *files[0..*n),
 * sorted by strcmp of path, each disk "dir/path"; empty directories
 * give nothing. Names are judged by repo's rules before any file of
 * their directory is listed. Returns 0 (free with mgit_files_free), or
 * -MIRROR_EINPUT (a symbolic link, a special file, a name git refuses,
 * too deep) or -MIRROR_EIO (dir unreadable, not a directory), naming
 * the path under dir; *files is then NULL.
 */
int mgit_files_of_dir(struct history_file **files, size_t *n,
    git_repository *repo, const char *dir, mirror_error *err);

/* Free a list of mgit_files_of_dir. */
void mgit_files_free(struct history_file *files, size_t n);

/*
 * Judge name as an entry of a tree of repo, with probe a tree builder
 * of repo kept for it (names are put in and taken out again). The
 * first wlen bytes of where name the name's directory in the message
 * (0: the top). Returns 0 or -MIRROR_EINPUT ("where/name: git does not
 * allow this name in a tree"), or -MIRROR_EIO.
 */
int mgit_check_name(git_treebuilder *probe, const char *where, int wlen,
    const char *name, mirror_error *err);

#endif
