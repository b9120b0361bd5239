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
#include "sys/jobs.h"
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
 * Read file r (r->disk) as mgit_read_file into *buf (*cap its size;
 * grown, never shrunk, and kept on failure for the caller to free):
 * r->len and r->mode. Returns as mgit_read_file, with r->err set.
 */
static int
read_file_into(char **buf, size_t *cap, struct mgit_read *r)
{
	const char *disk = r->disk;
	mirror_error *err = &r->err;
	struct stat st;
	int fd, rc = 0;

	r->len = 0;
	r->mode = GIT_FILEMODE_BLOB;
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
	else if (read_fd(buf, cap, &r->len, fd, &st) < 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", disk,
		    strerror(errno));
	else if (st.st_mode & S_IXUSR)
		r->mode = GIT_FILEMODE_BLOB_EXECUTABLE;
	close(fd);
	return rc;
}

int
mgit_read_file(char **data, size_t *len, git_filemode_t *mode,
    const char *disk, mirror_error *err)
{
	struct mgit_read r = { .disk = disk };
	size_t cap = 0;
	int rc;

	*data = NULL;
	rc = read_file_into(data, &cap, &r);
	*len = r.len;
	*mode = r.mode;
	if (rc < 0) {
		free(*data);
		*data = NULL;
		*len = 0;
		if (err != NULL)
			*err = r.err;
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
 * a site's few long lists (tens of megabytes) are not held
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
read_one(struct mgit_read *r, struct mgit_reader *rd, int pack)
{
	char *buf = NULL, **into = pack ? &rd->buf : &buf;
	size_t cap = 0, *capp = pack ? &rd->cap : &cap;

	r->data = NULL;
	r->z = NULL;
	r->zlen = 0;
	r->len = 0;
	r->rc = 0;
	if (r->disk == NULL)
		return;
	r->rc = read_file_into(into, capp, r);
	if (r->rc == 0 && git_odb_hash(&r->id, *into, r->len,
	    GIT_OBJECT_BLOB) < 0)
		r->rc = mgit_fail(&r->err, MIRROR_EIO, "%s: cannot hash",
		    r->disk);
	if (r->rc == 0 && pack)
		r->rc = pack_one(r, rd, *into);
	else if (r->rc == 0)
		r->data = buf;
	if (r->rc < 0) {
		free(buf);
		r->len = 0;
	}
	reader_trim(rd);
}

/* A slot of mgit_ahead's ring: a file, how far it is read, and the
 * bytes it holds in memory (its stream when compressed, far smaller
 * than a long list; else its data). */
struct ahead_slot {
	struct mgit_read r;
	int state;                      /* AHEAD_* */
	size_t held;
};

/* What mgit_ahead_* share: the files, the ring of slots file i is read
 * into (slot_of), the first file not given up (taken), the next to
 * claim, the bytes held of the files read and not given up, and the
 * pool's threads; all under mu. */
struct mgit_ahead {
	const char *const *disks;
	size_t n, taken, next, bytes, budget, pack_below;
	int pack_all, stop, nthreads;
	struct ahead_slot *slot;        /* MGIT_AHEAD_SLOTS of them */
	struct mgit_readers *rd;
	pthread_mutex_t mu;
	pthread_cond_t room;            /* the pool waits for a claim */
	pthread_cond_t ready;           /* the taker waits for a file */
	pthread_t tid[MGIT_READ_JOBS];
	struct ahead_thread {
		struct mgit_ahead *a;
		struct mgit_reader *rd;
	} th[MGIT_READ_JOBS];
};

enum { AHEAD_FREE, AHEAD_READING, AHEAD_READ };

/* File i's slot. */
static struct ahead_slot *
slot_of(struct mgit_ahead *a, size_t i)
{
	return &a->slot[i % MGIT_AHEAD_SLOTS];
}

/* Whether the next file may be claimed now (mu held). */
static int
ahead_can_claim(const struct mgit_ahead *a)
{
	return !a->stop && a->next < a->n &&
	    a->next - a->taken < MGIT_AHEAD_SLOTS && a->bytes < a->budget;
}

/* Claim the next file, read it on rd's buffers with mu let go, and
 * mark it read (mu held on entry and on return). */
static void
ahead_read_next(struct mgit_ahead *a, struct mgit_reader *rd)
{
	size_t i = a->next++;
	struct ahead_slot *s = slot_of(a, i);
	int pack = a->pack_all || i < a->pack_below;

	s->r.disk = a->disks[i];
	s->state = AHEAD_READING;
	pthread_mutex_unlock(&a->mu);
	read_one(&s->r, rd, pack);
	pthread_mutex_lock(&a->mu);
	s->held = s->r.z != NULL ? s->r.zlen : s->r.len;
	a->bytes += s->held;
	s->state = AHEAD_READ;
	pthread_cond_broadcast(&a->ready);
}

/* A thread of the pool: claim and read until stopped. Returns NULL. */
static void *
ahead_run(void *arg)
{
	struct ahead_thread *th = arg;
	struct mgit_ahead *a = th->a;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->stop && !ahead_can_claim(a))
			pthread_cond_wait(&a->room, &a->mu);
		if (a->stop)
			break;
		ahead_read_next(a, th->rd);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

struct mgit_ahead *
mgit_ahead_start(const char *const *disks, size_t n, size_t budget,
    size_t pack_below, struct mgit_readers *rd)
{
	struct mgit_ahead *a = xcalloc(1, sizeof(*a));
	int want = rd->jobs - 1;

	a->disks = disks;
	a->n = n;
	a->budget = budget > 0 ? budget : 1;
	a->pack_below = pack_below;
	a->rd = rd;
	a->slot = xcalloc(MGIT_AHEAD_SLOTS, sizeof(*a->slot));
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->room, NULL);
	pthread_cond_init(&a->ready, NULL);
	if (n > 0 && (size_t)want > n - 1)
		want = (int)(n - 1);
	/* The taker reads on rd->t[0]; a thread that cannot start leaves
	 * its share to the others and the taker. */
	for (int t = 1; t <= want; t++) {
		struct ahead_thread *th = &a->th[a->nthreads];

		th->a = a;
		th->rd = &rd->t[t];
		if (jobs_thread_start(&a->tid[a->nthreads], "git-ahead",
		    ahead_run, th) == 0)
			a->nthreads++;
	}
	return a;
}

/* Free what slot i (given up) holds; mu held. */
static void
ahead_release(struct mgit_ahead *a, size_t i)
{
	struct ahead_slot *s = slot_of(a, i);

	free(s->r.data);
	free(s->r.z);
	a->bytes -= s->held;
	memset(s, 0, sizeof(*s));       /* AHEAD_FREE, nothing held */
}

struct mgit_read *
mgit_ahead_take(struct mgit_ahead *a, size_t i, int pack_all)
{
	struct mgit_read *r;

	pthread_mutex_lock(&a->mu);
	a->pack_all = pack_all;
	/* Give up the files before i: read ones are freed, one still
	 * being read is waited for, unclaimed ones are never read. */
	while (a->taken < i) {
		if (a->taken >= a->next) {
			a->taken = a->next = i;
			break;
		}
		if (slot_of(a, a->taken)->state == AHEAD_READING) {
			pthread_cond_wait(&a->ready, &a->mu);
			continue;
		}
		ahead_release(a, a->taken++);
	}
	pthread_cond_broadcast(&a->room);
	/* Wait for file i, reading the next ones meanwhile. */
	while (i >= a->next || slot_of(a, i)->state != AHEAD_READ) {
		if (ahead_can_claim(a))
			ahead_read_next(a, &a->rd->t[0]);
		else
			pthread_cond_wait(&a->ready, &a->mu);
	}
	r = &slot_of(a, i)->r;
	pthread_mutex_unlock(&a->mu);
	return r;
}

size_t
mgit_ahead_claimed(struct mgit_ahead *a)
{
	size_t n;

	pthread_mutex_lock(&a->mu);
	n = a->next;
	pthread_mutex_unlock(&a->mu);
	return n;
}

void
mgit_ahead_stop(struct mgit_ahead *a)
{
	if (a == NULL)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->mu);
	for (int t = 0; t < a->nthreads; t++)
		pthread_join(a->tid[t], NULL);
	for (size_t i = a->taken; i < a->next; i++)
		ahead_release(a, i);
	pthread_cond_destroy(&a->ready);
	pthread_cond_destroy(&a->room);
	pthread_mutex_destroy(&a->mu);
	free(a->slot);
	free(a);
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
