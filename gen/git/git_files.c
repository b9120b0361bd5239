/*
 * git_files.c: read a site's file safely; list a site directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/git_files.h"
#include "git/git_pack.h"
#include "git/git_repo.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Read fd (st its fstat) whole into *buf (*cap its size, grown as
 * needed; the caller frees it) and *len: room for st_size + 1 bytes is
 * made first, so a file as long as fstat says takes one read. Returns
 * 0, or -1 with errno set.
 */
static int
read_fd(char **buf, size_t *cap, size_t *len, int fd, const struct stat *st)
{
	size_t n = 0;
	ssize_t r;

	if (*cap < (size_t)st->st_size + 1) {
		free(*buf);        /* nothing in it to keep */
		*cap = (size_t)st->st_size + 1;
		*buf = xmalloc(*cap);
	}
	for (;;) {
		ARRAY_RESERVE(*buf, *cap, n + 1);    /* doubles when full */
		r = read(fd, *buf + n, *cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
		/* Short of the room, and exactly the size: the end. */
		if (n < *cap && n == (size_t)st->st_size)
			break;
	}
	*len = n;
	return 0;
}

/*
 * mgit_read_file into *buf (*cap its size; grown, never shrunk, and
 * kept on failure for the caller to free). Returns as mgit_read_file.
 */
static int
read_file_into(char **buf, size_t *cap, size_t *len, git_filemode_t *mode,
    const char *disk, mirror_error *err)
{
	struct stat st;
	int fd, rc = 0;

	*len = 0;
	*mode = GIT_FILEMODE_BLOB;
	fd = open(disk, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return mirror_fail(err, MIRROR_EINPUT, "%s: a symbolic link; "
		    "only regular files and directories can be committed",
		    disk);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", disk,
		    strerror(errno));
	if (fstat(fd, &st) != 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", disk,
		    strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = mirror_fail(err, MIRROR_EINPUT, "%s: %s; only regular "
		    "files and directories can be committed", disk,
		    S_ISDIR(st.st_mode) ? "a directory" : "a special file");
	else if (read_fd(buf, cap, len, fd, &st) < 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", disk,
		    strerror(errno));
	else if (st.st_mode & S_IXUSR)
		*mode = GIT_FILEMODE_BLOB_EXECUTABLE;
	close(fd);
	return rc;
}

int
mgit_read_file(char **data, size_t *len, git_filemode_t *mode,
    const char *disk, mirror_error *err)
{
	size_t cap = 0;
	int rc;

	*data = NULL;
	rc = read_file_into(data, &cap, len, mode, disk, err);
	if (rc < 0) {
		free(*data);
		*data = NULL;
		*len = 0;
	}
	return rc;
}

void
mgit_readers_init(struct mgit_readers *rd, int jobs)
{
	memset(rd, 0, sizeof(*rd));
	rd->jobs = jobs < 1 ? 1 : jobs > MGIT_READ_JOBS ? MGIT_READ_JOBS :
	    jobs;
}

void
mgit_readers_free(struct mgit_readers *rd)
{
	for (int t = 0; t < MGIT_READ_JOBS; t++) {
		free(rd->t[t].buf);
		free(rd->t[t].zbuf);
		mgit_deflater_free(rd->t[t].c);
	}
	memset(rd, 0, sizeof(*rd));
}

/* What the threads of mgit_read_many share: the files, the next one to
 * claim, the bytes read so far and where to stop. */
struct read_batch {
	struct mgit_read *r;
	size_t n, next, bytes, budget;
	pthread_mutex_t mu;
};

/* A thread of mgit_read_many: the batch, and its own buffers. */
struct read_thread {
	struct read_batch *b;
	struct mgit_reader *rd;
	int pack;
};

/* len bytes of data (at rd's buffer) as a pack entry's stream into
 * r->z, r->zlen. Returns 0 or < 0 with r->err set. */
static int
pack_one(struct mgit_read *r, struct mgit_reader *rd, const char *data)
{
	if (rd->c == NULL)
		rd->c = mgit_deflater_new();
	if (mgit_pack_compress(&rd->zbuf, &rd->zcap, &r->zlen, rd->c, data,
	    r->len) < 0)
		return mirror_fail(&r->err, MIRROR_EIO, "%s: cannot compress",
		    r->disk);
	r->z = xmalloc(r->zlen + 1);
	memcpy(r->z, rd->zbuf, r->zlen);
	return 0;
}

/* Free rd's buffers once a file made them larger than MGIT_READ_KEEP:
 * a site's few long lists (80 MB at a million facts) are not held
 * through the rest of the commit, whose trees make its peak. */
static void
reader_trim(struct mgit_reader *rd)
{
	if (rd->cap > MGIT_READ_KEEP) {
		free(rd->buf);
		rd->buf = NULL;
		rd->cap = 0;
	}
	if (rd->zcap > MGIT_READ_KEEP) {
		free(rd->zbuf);
		rd->zbuf = NULL;
		rd->zcap = 0;
	}
}

/* Read and hash file r: its data, len, mode and id (or, with pack, its
 * z and zlen instead of data), or rc < 0 with err naming it; nothing
 * when it has no disk. */
static void
read_one(struct mgit_read *r, struct read_thread *th)
{
	char *buf = NULL, **into = th->pack ? &th->rd->buf : &buf;
	size_t cap = 0, *capp = th->pack ? &th->rd->cap : &cap;

	r->data = NULL;
	r->z = NULL;
	r->zlen = 0;
	r->len = 0;
	r->rc = 0;
	if (r->disk == NULL)
		return;
	r->rc = read_file_into(into, capp, &r->len, &r->mode, r->disk,
	    &r->err);
	if (r->rc == 0 && git_odb_hash(&r->id, *into, r->len,
	    GIT_OBJECT_BLOB) < 0)
		r->rc = mgit_fail(&r->err, MIRROR_EIO, "%s: cannot hash",
		    r->disk);
	if (r->rc == 0 && th->pack)
		r->rc = pack_one(r, th->rd, *into);
	else if (r->rc == 0)
		r->data = buf;
	if (r->rc < 0) {
		free(buf);
		r->len = 0;
	}
	reader_trim(th->rd);
}

/* Claim the batch's next file and read it, until the files or the
 * budget run out (a thread's start, given its struct read_thread).
 * Returns NULL. */
static void *
read_claims(void *arg)
{
	struct read_thread *th = arg;
	struct read_batch *b = th->b;

	for (;;) {
		struct mgit_read *r = NULL;

		pthread_mutex_lock(&b->mu);
		if (b->next < b->n && b->bytes < b->budget)
			r = &b->r[b->next++];
		pthread_mutex_unlock(&b->mu);
		if (r == NULL)
			return NULL;
		read_one(r, th);
		pthread_mutex_lock(&b->mu);
		b->bytes += r->len;
		pthread_mutex_unlock(&b->mu);
	}
}

size_t
mgit_read_many(struct mgit_read *r, size_t n, size_t budget,
    struct mgit_readers *rd)
{
	struct read_batch b = { r, n, 0, 0, budget > 0 ? budget : 1,
	    PTHREAD_MUTEX_INITIALIZER };
	struct read_thread th[MGIT_READ_JOBS];
	pthread_t tid[MGIT_READ_JOBS];
	int started[MGIT_READ_JOBS], jobs = rd->jobs;

	if (jobs > (int)n)
		jobs = (int)n;
	if (jobs < 1)
		jobs = 1;
	for (int t = 0; t < jobs; t++)
		th[t] = (struct read_thread){ &b, &rd->t[t], rd->pack };
	for (int t = 1; t < jobs; t++)
		started[t] = pthread_create(&tid[t], NULL, read_claims,
		    &th[t]) == 0;
	read_claims(&th[0]);            /* this thread's claims */
	for (int t = 1; t < jobs; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&b.mu);
	return b.next;
}

int
mgit_check_name(git_treebuilder *probe, const char *where, int wlen,
    const char *name, mirror_error *err)
{
	git_oid any;

	/* A gitlink is the one entry whose object need not exist, so only
	 * the name is judged. */
	memset(&any, 0x01, sizeof(any));
	if (git_treebuilder_insert(NULL, probe, name, &any,
	    GIT_FILEMODE_COMMIT) < 0)
		return mgit_fail(err, MIRROR_EINPUT, "%.*s%s%s: git does not "
		    "allow this name in a tree", wlen, where, wlen > 0 ? "/" :
		    "", name);
	if (git_treebuilder_remove(probe, name) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot build a tree");
	return 0;
}

struct walk {
	git_treebuilder *probe;
	struct history_file *files;
	size_t n, cap;
	strbuf disk;            /* the directory being read, then names */
	size_t top;             /* length of dir and its '/' in disk */
	mirror_error *err;
};

/* One name of a directory and its d_type (DT_UNKNOWN: ask lstat). */
struct dent {
	char *name;
	unsigned char type;
};

/* qsort: entries by name, as strcmp. */
static int
cmp_dents(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name,
	    ((const struct dent *)b)->name);
}

/* qsort: files by path, as strcmp. */
static int
cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct history_file *)a)->path,
	    ((const struct history_file *)b)->path);
}

/*
 * The names in directory w->disk but . and .., sorted (so that reading
 * and every message are deterministic), into *ents[0..*n) (the caller
 * frees each name and the array, also on failure). Returns 0, or
 * -MIRROR_EIO naming the directory.
 */
static int
list_dir(struct dent **ents, size_t *n, struct walk *w)
{
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;
	DIR *d;

	*ents = NULL;
	*n = 0;
	if ((d = opendir(w->disk.data)) == NULL)
		return mirror_fail(w->err, MIRROR_EIO, "%s: %s", w->disk.data,
		    strerror(errno));
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		struct dent *e;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		e = &ARRAY_PUSH(*ents, *n, cap);
		e->name = xstrdup(de->d_name);
		e->type = de->d_type;
		errno = 0;
	}
	if (errno != 0)
		rc = mirror_fail(w->err, MIRROR_EIO, "%s: %s", w->disk.data,
		    strerror(errno));
	closedir(d);
	if (rc == 0 && *n > 1)
		qsort(*ents, *n, sizeof(**ents), cmp_dents);
	return rc;
}

/*
 * The entry e of directory w->disk, its path now in w->disk: a
 * directory (walked), a regular file (listed) or a refusal. Returns 0
 * or < 0 with w->err set.
 */
static int walk_dir(struct walk *w, int depth);

static int
walk_entry(struct walk *w, const struct dent *e, int depth)
{
	unsigned char type = e->type;
	struct history_file *f;
	struct stat st;

	if (type == DT_UNKNOWN) {
		if (lstat(w->disk.data, &st) != 0)
			return mirror_fail(w->err, MIRROR_EIO, "%s: %s",
			    w->disk.data, strerror(errno));
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ?
		    DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
	}
	if (type == DT_DIR)
		return walk_dir(w, depth + 1);
	if (type != DT_REG)
		return mirror_fail(w->err, MIRROR_EINPUT, "%s: %s; only "
		    "regular files and directories can be committed",
		    w->disk.data, type == DT_LNK ? "a symbolic link" :
		    "a special file");
	f = &ARRAY_PUSH(w->files, w->n, w->cap);
	f->disk = xstrdup(w->disk.data);
	f->path = f->disk + w->top;
	f->changed = 1;
	return 0;
}

/* List directory w->disk, recursively. Returns 0 or < 0. */
static int
walk_dir(struct walk *w, int depth)
{
	struct dent *ents = NULL;
	size_t n = 0, base = w->disk.len;
	int rc;

	if (depth > MGIT_MAX_DEPTH)
		return mirror_fail(w->err, MIRROR_EINPUT, "%s: directories "
		    "nested deeper than %d levels", w->disk.data,
		    MGIT_MAX_DEPTH);
	rc = list_dir(&ents, &n, w);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = mgit_check_name(w->probe, w->disk.data, (int)base,
		    ents[i].name, w->err);
	for (size_t i = 0; i < n && rc == 0; i++) {
		strbuf_putc(&w->disk, '/');
		strbuf_puts(&w->disk, ents[i].name);
		rc = walk_entry(w, &ents[i], depth);
		w->disk.len = base;
		w->disk.data[base] = '\0';
	}
	for (size_t i = 0; i < n; i++)
		free(ents[i].name);
	free(ents);
	return rc;
}

void
mgit_files_free(struct history_file *files, size_t n)
{
	/* path points into disk. */
	for (size_t i = 0; i < n; i++)
		free((char *)(uintptr_t)files[i].disk);
	free(files);
}

int
mgit_files_of_dir(struct history_file **files, size_t *n,
    git_repository *repo, const char *dir, mirror_error *err)
{
	struct walk w;
	struct stat st;
	int rc = 0;

	*files = NULL;
	*n = 0;
	memset(&w, 0, sizeof(w));
	w.err = err;
	if (stat(dir, &st) != 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mirror_fail(err, MIRROR_EIO, "%s: not a directory",
		    dir);
	if (git_treebuilder_new(&w.probe, repo, NULL) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot build a tree");
	strbuf_init(&w.disk);
	strbuf_puts(&w.disk, dir);
	/* "site/" and "site" name the same files; keep messages tidy. */
	while (w.disk.len > 1 && w.disk.data[w.disk.len - 1] == '/')
		w.disk.data[--w.disk.len] = '\0';
	w.top = w.disk.len + 1;
	rc = walk_dir(&w, 0);
	git_treebuilder_free(w.probe);
	strbuf_free(&w.disk);
	if (rc < 0) {
		mgit_files_free(w.files, w.n);
		return rc;
	}
	if (w.n > 1)
		qsort(w.files, w.n, sizeof(*w.files), cmp_files);
	*files = w.files;
	*n = w.n;
	return 0;
}
