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

/* A file to read and hash as a blob ahead of its turn (mgit_read_many). */
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

/* Threads of mgit_read_many at most. */
#define MGIT_READ_JOBS 16

/* Bytes of a reading thread's buffer kept for the next file at most. */
#define MGIT_READ_KEEP (1u << 20)

/* One reading thread's buffers, kept from one batch to the next: a
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

/* How mgit_read_many reads: on how many threads, whether each file is
 * compressed where it was read (pack), and each thread's buffers. Set
 * up by mgit_readers_init, released by mgit_readers_free. */
struct mgit_readers {
	int jobs;
	int pack;
	struct mgit_reader t[MGIT_READ_JOBS];
};

/* rd for up to jobs threads (clamped to 1..MGIT_READ_JOBS), files
 * given as their bytes (pack 0) until the caller sets pack. */
void mgit_readers_init(struct mgit_readers *rd, int jobs);

/* Free what rd's threads kept. */
void mgit_readers_free(struct mgit_readers *rd);

/*
 * Read (as mgit_read_file) and hash as a blob r[0], r[1], ... in turn,
 * on up to rd->jobs threads at once (the reads of many files wait on
 * the disk together), until all n are read or the files read reach
 * budget bytes: memory stays bounded whatever the files' sizes. Returns
 * how many were read, k (at least 1 when n > 0): each r[i], i < k, gets
 * its len, mode and id, and its data, or with rd->pack its z and zlen
 * (compressed on the thread that read it, while its bytes are still in
 * the cache; data NULL); or rc < 0 with err naming the file (data and z
 * NULL, len 0 and rc 0 for one without a disk); r[k..n) are untouched.
 */
size_t mgit_read_many(struct mgit_read *r, size_t n, size_t budget,
    struct mgit_readers *rd);

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
