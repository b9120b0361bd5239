/*
 * out_ring.c: new files created in batches through io_uring (see
 * out_ring.h).
 */
#define _GNU_SOURCE   /* O_NOFOLLOW */

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "output/out_ring.h"
#include "sys/env.h"
#include "util/array.h"
#include "util/xalloc.h"

/* Files a submission takes, and the bytes that submit a batch early:
 * each half copies its files' bytes into a buffer of its own, reused
 * (a copy each, allocated and freed, had the allocator return pages to
 * the kernel over and over). */
#define RING_BATCH 32
#define RING_BYTES (512u << 10)
/* A bigger file is written at once. */
#define RING_FILE_MAX (RING_BYTES / 4)
/* Two halves: one being filled while the kernel works on the other. */
#define RING_FILES (2 * RING_BATCH)
/* Each file's requests, by the low bits of their user_data. */
enum { OP_OPEN, OP_WRITE, OP_CLOSE, OP_N };

/* A queued file. */
struct ring_file {
	char *path;             /* relpath, for the error; NULL: free */
	const char *name;       /* its last component, in path */
	char *data;             /* the bytes to write (a copy, in buf) */
	size_t len;
	int dirfd, slot;        /* its directory, held (out_dircache_hold) */
	int res[OP_N];          /* the requests' results */
	int left;               /* requests not complete yet */
};

struct out_ring {
	struct io_uring ring;
	struct out_rings *rs;
	pthread_mutex_t mu;
	struct ring_file f[RING_FILES]; /* f[i] opens into direct slot i */
	int half;                       /* the half being filled */
	int n[2];                       /* files queued in each half */
	int busy[2];                    /* files submitted, not complete */
	unsigned cqes[2];               /* their requests not complete */
	size_t bytes;                   /* queued in the half being filled */
	char *buf[2];                   /* each half's copies of the bytes */
	int dead;                       /* abandoned: takes no more files */
	int gone;                       /* rs let go of it: exited */
	int idle;                       /* no thread's: one may take it */
	int refs;                       /* rs and the thread it is for */
	struct out_late late;           /* the first failure, unreported */
};

/* 1 once io_uring was found unusable: every output goes one by one. */
static int ring_unusable;
static unsigned long rings_made;
/* The calling thread's ring (which holds a reference to it), and the
 * out_rings it is for; NULL: the thread writes one by one. */
static _Thread_local struct {
	unsigned long id;
	struct out_ring *r;
} mine;
/* Its destructor completes the ring's files as the thread exits: the
 * kernel cancels what an exiting thread submitted. */
static pthread_key_t mine_key;
static pthread_once_t mine_once = PTHREAD_ONCE_INIT;

/* Keep the failure rc of path as r's first, unless it has one. */
static void
late_keep(struct out_ring *r, int rc, const char *path)
{
	if (r->late.rc < 0)
		return;
	r->late.rc = rc;
	r->late.path = xstrdup(path);
}

/* Hand r's first failure over to *late (when that holds none). */
static void
late_take(struct out_late *late, struct out_ring *r)
{
	if (r->late.rc == 0 || late->rc < 0)
		return;
	*late = r->late;
	r->late.rc = 0;
	r->late.path = NULL;
}

/* Write the bytes of f the ring's write left over, from off on, through
 * a descriptor of its own. Returns 0 or -errno. */
static int
finish_short(const struct ring_file *f, size_t off)
{
	int fd = openat(f->dirfd, f->name, O_WRONLY | O_NOFOLLOW |
	    O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	while (off < f->len && e == 0) {
		ssize_t n = pwrite(fd, f->data + off, f->len - off,
		    (off_t)off);

		if (n < 0 && errno != EINTR)
			e = -errno;
		else if (n == 0)
			e = -EIO;
		else if (n > 0)
			off += (size_t)n;
	}
	if (close(fd) < 0 && e == 0)
		e = -errno;
	return e;
}

/* f's requests are complete: check them, release its directory and
 * free it. */
static void
file_done(struct out_ring *r, struct ring_file *f)
{
	int rc = 0;

	if (f->res[OP_OPEN] < 0)
		rc = f->res[OP_OPEN];
	else if (f->res[OP_WRITE] < 0)
		rc = f->res[OP_WRITE];
	else if (f->res[OP_CLOSE] < 0)
		rc = f->res[OP_CLOSE];
	else if ((size_t)f->res[OP_WRITE] < f->len)
		rc = finish_short(f, (size_t)f->res[OP_WRITE]);
	if (rc < 0)
		late_keep(r, rc, f->path);
	out_dircache_release(r->rs->dirc, f->dirfd, f->slot);
	free(f->path);
	f->path = f->data = NULL;
}

/* Take the completion cqe: a request of a file of r. */
static void
reap(struct out_ring *r, const struct io_uring_cqe *cqe)
{
	unsigned long long ud = io_uring_cqe_get_data64(cqe);
	size_t i = (size_t)(ud / OP_N);
	struct ring_file *f;

	if (i >= RING_FILES || r->f[i].path == NULL || r->f[i].left == 0)
		return;    /* not ours: nothing else is queued on r */
	f = &r->f[i];
	f->res[ud % OP_N] = cqe->res;
	r->cqes[i / RING_BATCH]--;
	if (--f->left == 0) {
		file_done(r, f);
		r->busy[i / RING_BATCH]--;
	}
}

/* Wait until no file of r's half h is in the kernel's hands. Returns 0
 * or -errno when waiting failed (the ring is then unusable). */
static int
wait_half(struct out_ring *r, int h)
{
	struct io_uring_cqe *cqe;
	int rc;

	while (r->busy[h] > 0) {
		/* All of them in one wait, not one wait each. */
		rc = io_uring_wait_cqe_nr(&r->ring, &cqe, r->cqes[h]);
		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return rc;
		do {
			reap(r, cqe);
			io_uring_cqe_seen(&r->ring, cqe);
		} while (io_uring_peek_cqe(&r->ring, &cqe) == 0);
	}
	return 0;
}

/* Give the half being filled to the kernel (once the other half is
 * complete: it is filled next). Returns 0 or -errno. */
static int
submit_half(struct out_ring *r)
{
	int h = r->half, rc = wait_half(r, !h);

	if (rc < 0 || r->n[h] == 0)
		return rc;
	r->busy[h] = r->n[h];
	r->cqes[h] = (unsigned)(r->n[h] * OP_N);
	/* SUBMIT_ALL: a request that fails takes its CQE, the rest go on;
	 * a signal may still cut a submission short. */
	do
		rc = io_uring_submit(&r->ring);
	while (rc == -EINTR || (rc >= 0 && io_uring_sq_ready(&r->ring) > 0));
	if (rc < 0)
		return rc;
	r->n[!h] = 0;
	r->half = !h;
	r->bytes = 0;
	return 0;
}

/* Queue f, in direct slot i, on r: open, write and close, linked. The
 * close is hard-linked to the write: a failed or short write still
 * frees the slot. */
static void
prep_file(struct out_ring *r, const struct ring_file *f, unsigned i)
{
	struct io_uring_sqe *open = io_uring_get_sqe(&r->ring);
	struct io_uring_sqe *wr = io_uring_get_sqe(&r->ring);
	struct io_uring_sqe *cl = io_uring_get_sqe(&r->ring);

	if (open == NULL || wr == NULL || cl == NULL)
		abort();        /* ring_add made room for them */
	/* No O_CLOEXEC: the kernel refuses it for a direct descriptor,
	 * which no exec could inherit anyway. */
	io_uring_prep_openat_direct(open, f->dirfd, f->name, O_WRONLY |
	    O_CREAT | O_EXCL | O_NOFOLLOW, 0644, i);
	io_uring_sqe_set_data64(open, (unsigned long long)i * OP_N + OP_OPEN);
	open->flags |= IOSQE_IO_LINK;
	io_uring_prep_write(wr, (int)i, f->data, (unsigned)f->len, 0);
	io_uring_sqe_set_data64(wr, (unsigned long long)i * OP_N + OP_WRITE);
	wr->flags |= IOSQE_FIXED_FILE | IOSQE_IO_HARDLINK;
	io_uring_prep_close_direct(cl, i);
	io_uring_sqe_set_data64(cl, (unsigned long long)i * OP_N + OP_CLOSE);
}

/* Give up on r's queued files, which the kernel may still hold: -EIO
 * for the first, and their bytes and directories are left as they are
 * (the ring's teardown waits for what it holds). Under r->mu. */
static void
ring_abandon(struct out_ring *r)
{
	for (size_t i = 0; i < RING_FILES; i++) {
		if (r->f[i].path != NULL)
			late_keep(r, -EIO, r->f[i].path);
		r->f[i].path = NULL;
	}
	r->n[0] = r->n[1] = r->busy[0] = r->busy[1] = 0;
	r->cqes[0] = r->cqes[1] = 0;
	r->dead = 1;
}

/* A file's directory as out_dircache_hold holds it, and the file's
 * name in it (the last component of its relpath). */
struct held_dir {
	int fd, slot;
	const char *name;
};

/*
 * Queue relpath on r, its directory held as d, submitting the half
 * being filled first when it is full. Returns 0, or -errno when r
 * cannot take it (the caller then creates it at once and still holds
 * d).
 */
static int
ring_add(struct out_ring *r, const char *relpath, const struct held_dir *d,
    const void *data, size_t len)
{
	struct ring_file *f;
	int rc = 0;
	unsigned i;

	if (r->dead)
		return -EIO;
	if (r->n[r->half] == RING_BATCH || r->bytes + len > RING_BYTES)
		rc = submit_half(r);
	if (rc == 0 && io_uring_sq_space_left(&r->ring) < OP_N)
		rc = -EBUSY;    /* sized for both halves: never */
	if (rc < 0) {
		ring_abandon(r);
		return rc;
	}
	i = (unsigned)(r->half * RING_BATCH + r->n[r->half]);
	f = &r->f[i];
	f->path = xstrdup(relpath);
	f->name = f->path + (d->name - relpath);
	if (r->buf[r->half] == NULL)
		r->buf[r->half] = xmalloc(RING_BYTES);
	f->data = r->buf[r->half] + r->bytes;
	memcpy(f->data, data, len);
	f->len = len;
	f->dirfd = d->fd;
	f->slot = d->slot;
	f->left = OP_N;
	memset(f->res, 0, sizeof(f->res));
	prep_file(r, f, i);
	r->n[r->half]++;
	r->bytes += len;
	return 0;
}

/* Submit r's queued files and wait for all. Returns 0 or -errno (then
 * r's files are abandoned: r is not to be used again). */
static int
ring_flush(struct out_ring *r)
{
	int rc = r->dead ? 0 : submit_half(r);

	if (rc == 0)
		rc = wait_half(r, 0);
	if (rc == 0)
		rc = wait_half(r, 1);
	if (rc < 0)
		ring_abandon(r);
	return rc;
}

/* Whether the kernel has every request a batch uses. */
static int
ring_probed(struct io_uring *ring)
{
	struct io_uring_probe *p = io_uring_get_probe_ring(ring);
	int ok = p != NULL && io_uring_opcode_supported(p, IORING_OP_OPENAT) &&
	    io_uring_opcode_supported(p, IORING_OP_WRITE) &&
	    io_uring_opcode_supported(p, IORING_OP_CLOSE);

	if (p != NULL)
		io_uring_free_probe(p);
	return ok;
}

/* A new ring for rs, or NULL when io_uring cannot be used. */
static struct out_ring *
ring_new(struct out_rings *rs)
{
	struct out_ring *r = xcalloc(1, sizeof(*r));
	struct io_uring_params p = {
		.flags = IORING_SETUP_SUBMIT_ALL |
		    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	};

	/* Sparse direct descriptors and these flags came with the kernel
	 * (5.19) that has openat and close on them (5.15). */
	if (io_uring_queue_init_params(RING_FILES * OP_N, &r->ring, &p) < 0) {
		free(r);
		return NULL;
	}
	if (!ring_probed(&r->ring) ||
	    io_uring_register_files_sparse(&r->ring, RING_FILES) < 0) {
		io_uring_queue_exit(&r->ring);
		free(r);
		return NULL;
	}
	/* One kernel worker (issue 68): a batch's files mostly share a
	 * directory (api/projects/), and more workers only took turns at
	 * its lock, spinning (9% of a 10,000-project build's samples). */
	(void)io_uring_register_iowq_max_workers(&r->ring,
	    (unsigned[2]){ 1, 1 });
	r->rs = rs;
	r->refs = 2;
	pthread_mutex_init(&r->mu, NULL);
	return r;
}

/* Drop a reference to r (under r->mu, which this releases): freed with
 * the last. */
static void
ring_unref(struct out_ring *r)
{
	int last = --r->refs == 0;

	pthread_mutex_unlock(&r->mu);
	if (!last)
		return;
	free(r->late.path);
	if (!r->dead) {         /* else the kernel may still read them */
		free(r->buf[0]);
		free(r->buf[1]);
	}
	pthread_mutex_destroy(&r->mu);
	free(r);
}

/* The thread that queued on r is done with it (it exits, or writes for
 * another output now): its files complete while it still can. */
static void
ring_leave(void *arg)
{
	struct out_ring *r = arg;

	pthread_mutex_lock(&r->mu);
	if (!r->gone) {
		(void)ring_flush(r);
		r->idle = 1;
	}
	ring_unref(r);
}

/* pthread_once's: the key whose destructor is ring_leave. */
static void
mine_key_make(void)
{
	if (pthread_key_create(&mine_key, ring_leave) != 0)
		__atomic_store_n(&ring_unusable, 1, __ATOMIC_RELAXED);
}

void
out_rings_init(struct out_rings *rs, struct out_dircache *dirc)
{
	memset(rs, 0, sizeof(*rs));
	rs->dirc = dirc;
	rs->id = __atomic_add_fetch(&rings_made, 1, __ATOMIC_RELAXED);
	rs->off = env_long("MIRROR_IO_URING", 1) == 0 ||
	    __atomic_load_n(&ring_unusable, __ATOMIC_RELAXED);
	pthread_mutex_init(&rs->mu, NULL);
}

/* A ring of rs that its thread left, taken for the calling thread (a
 * ring costs system calls to set up); NULL when there is none. */
static struct out_ring *
ring_idle(struct out_rings *rs)
{
	struct out_ring *r = NULL;

	pthread_mutex_lock(&rs->mu);
	for (size_t k = 0; r == NULL && k < rs->n; k++) {
		pthread_mutex_lock(&rs->r[k]->mu);
		if (rs->r[k]->idle && !rs->r[k]->dead) {
			r = rs->r[k];
			r->idle = 0;
			r->refs++;
		}
		pthread_mutex_unlock(&rs->r[k]->mu);
	}
	pthread_mutex_unlock(&rs->mu);
	return r;
}

/* The calling thread's ring for rs, taken or made on its first file;
 * NULL when files go one by one. */
static struct out_ring *
ring_mine(struct out_rings *rs)
{
	struct out_ring *r;

	if (rs->off)
		return NULL;
	if (mine.id == rs->id)
		return mine.r;
	(void)pthread_once(&mine_once, mine_key_make);
	if (mine.r != NULL) {
		(void)pthread_setspecific(mine_key, NULL);
		ring_leave(mine.r);
		mine.r = NULL;
	}
	mine.id = rs->id;
	if (__atomic_load_n(&ring_unusable, __ATOMIC_RELAXED))
		return NULL;
	if ((r = ring_idle(rs)) == NULL && (r = ring_new(rs)) != NULL) {
		pthread_mutex_lock(&rs->mu);
		ARRAY_PUSH(rs->r, rs->n, rs->cap) = r;
		pthread_mutex_unlock(&rs->mu);
	}
	if (r == NULL) {
		__atomic_store_n(&ring_unusable, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (pthread_setspecific(mine_key, r) != 0) {
		ring_leave(r);
		return NULL;
	}
	mine.r = r;
	return r;
}

int
out_rings_create(struct out_late *late, struct out_rings *rs,
    const char *relpath, const void *data, size_t len)
{
	struct out_ring *r = len <= RING_FILE_MAX ? ring_mine(rs) : NULL;
	struct held_dir d;
	int rc;

	late->rc = 0;
	late->path = NULL;
	if (r == NULL)
		return out_dircache_create(rs->dirc, relpath, data, len);
	if ((d.fd = out_dircache_hold(rs->dirc, relpath, &d.name,
	    &d.slot)) < 0)
		return d.fd;
	pthread_mutex_lock(&r->mu);
	rc = ring_add(r, relpath, &d, data, len);
	late_take(late, r);
	pthread_mutex_unlock(&r->mu);
	if (rc < 0) {
		/* The ring failed: this one at once, no more on it. */
		rc = out_create_file(d.fd, d.name, data, len, OUT_EXCL);
		out_dircache_release(rs->dirc, d.fd, d.slot);
	}
	return rc;
}

int
out_rings_drain(struct out_late *late, struct out_rings *rs)
{
	late->rc = 0;
	late->path = NULL;
	pthread_mutex_lock(&rs->mu);
	for (size_t k = 0; k < rs->n; k++) {
		struct out_ring *r = rs->r[k];

		pthread_mutex_lock(&r->mu);
		if (!r->gone)
			(void)ring_flush(r);
		late_take(late, r);
		pthread_mutex_unlock(&r->mu);
	}
	pthread_mutex_unlock(&rs->mu);
	return late->rc;
}

void
out_rings_free(struct out_rings *rs)
{
	struct out_late late;

	(void)out_rings_drain(&late, rs);
	free(late.path);
	for (size_t k = 0; k < rs->n; k++) {
		struct out_ring *r = rs->r[k];

		pthread_mutex_lock(&r->mu);
		io_uring_queue_exit(&r->ring);
		r->gone = 1;
		ring_unref(r);
	}
	free(rs->r);
	pthread_mutex_destroy(&rs->mu);
	memset(rs, 0, sizeof(*rs));
}
