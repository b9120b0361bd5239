/*
 * output.c: the output directory updated in place under a journal (see
 * output.h). out_site.c reads DIR as a build finds it, out_lock.c takes
 * its lock, out_journal.c writes, applies and recovers the journal,
 * out_fs.c holds the safe file operations they share.
 */
#define _GNU_SOURCE   /* syncfs */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/out_dircache.h"
#include "output/out_fs.h"
#include "output/out_journal.h"
#include "output/out_lock.h"
#include "output/out_ring.h"
#include "output/out_site.h"
#include "output/output.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct work_count output_files_written, output_bytes_written;

/* A file of the new site: */
#define STAGED 0L       /* written into the stage's site tree */
#define KEPT (-1L)      /* DIR's file, kept */
#define PENDING (-2L)   /* claimed, being written */

/*
 * The stage's writeback: a thread of its own that runs syncfs on the
 * stage's file system when asked, every WRITEBACK_EVERY bytes staged and
 * by output_flush_begin. The disk then writes a long render's files
 * while the render goes on, and the journal's syncfs, which must wait
 * for every one of them, finds little left (doc/performance.md, "The
 * stage's writeback"). When a file is durable is still the journal's
 * syncfs's to say.
 */
#define WRITEBACK_EVERY ((size_t)8 << 20)

struct writeback {
	pthread_mutex_t mu;     /* started, asked, stop */
	pthread_cond_t cv;      /* an ask, or stop */
	pthread_t tid;
	int started, asked, stop;
	int flush_asked;        /* output_flush_begin asked */
	size_t staged;          /* bytes staged (atomic) */
	size_t done;            /* the syncfs run */
};

struct output {
	struct out_place at;    /* DIR (at.dir as given) in its parent */
	char *top;              /* dir without trailing slashes */
	char *stage;            /* name of the staging dir in the parent */
	char *stage_path;       /* parent/stage */
	int stage_fd;
	int site_fd;            /* the stage's tree of staged files */
	struct out_dircache dirc; /* its directories, opened once */
	int dirc_open;          /* dirc and rings are set up */
	struct out_rings rings; /* the writers' batches of new files */
	int dir_fd;             /* DIR, or -1 when it does not exist */
	int journaled;          /* the journal is in place: DIR is the
	                           new site's (the next build finishes it) */
	int committed;
	int failed;             /* a write failed: nothing to commit */
	struct out_lock lock;   /* DIR's lock, held until output_free */
	struct out_listing old; /* DIR as found; old.files' value 1: in
	                           the new site, 2: being kept
	                           (output_keep) */
	struct out_set files;   /* the new site; value: STAGED, KEPT or
	                           PENDING */
	struct out_set dirs;    /* the new site's directories */
	struct out_set moved;   /* the journal's new directories, moved
	                           in whole */
	const char **paths;     /* output_paths: into files.v */
	size_t n_paths, paths_cap;
	int sorted;
	size_t written, reused;
	char *old_marker;       /* the marker's text as found, or NULL */
	char *base_tree, *new_tree;
	struct output_file *list;       /* output_files */
	char **disk;                    /* its disk paths */
	size_t n_list;
	const char **removed;           /* output_removed */
	size_t n_removed;
	pthread_mutex_t mu;     /* the sets, lists and counts: the pool's
	                           workers write pages at once */
	struct writeback wb;    /* the stage's syncfs, early */
};

/* The writeback's thread: a syncfs of the stage's file system each time
 * it is asked, until told to stop with nothing asked. Its failures are
 * the journal's syncfs to report. */
static void *
writeback_main(void *arg)
{
	struct output *o = arg;
	struct writeback *wb = &o->wb;

	pthread_mutex_lock(&wb->mu);
	while (wb->asked || !wb->stop) {
		if (!wb->asked) {
			pthread_cond_wait(&wb->cv, &wb->mu);
			continue;
		}
		wb->asked = 0;
		pthread_mutex_unlock(&wb->mu);
		(void)syncfs(o->stage_fd);
		pthread_mutex_lock(&wb->mu);
		wb->done++;
	}
	pthread_mutex_unlock(&wb->mu);
	return NULL;
}

/* Ask o's writeback for one more syncfs, its thread started at the first
 * ask (none when it cannot be: the journal's syncfs does it all). */
static void
writeback_ask(struct output *o)
{
	struct writeback *wb = &o->wb;

	pthread_mutex_lock(&wb->mu);
	if (!wb->started && !wb->stop)
		wb->started = jobs_thread_start(&wb->tid, "writeback",
		    writeback_main, o) == 0;
	wb->asked = wb->started && !wb->stop;
	pthread_cond_signal(&wb->cv);
	pthread_mutex_unlock(&wb->mu);
}

/* len more bytes staged: every WRITEBACK_EVERY of them ask for a
 * syncfs, so the disk takes a long render's files while it goes on. */
static void
writeback_staged(struct output *o, size_t len)
{
	size_t was = __atomic_fetch_add(&o->wb.staged, len, __ATOMIC_RELAXED);

	if (was / WRITEBACK_EVERY != (was + len) / WRITEBACK_EVERY)
		writeback_ask(o);
}

void
output_flush_begin(struct output *o)
{
	if (o->stage_fd < 0 || o->journaled || o->committed ||
	    o->wb.flush_asked)
		return;
	o->wb.flush_asked = 1;
	/* A failed file is output_commit's to report (o->failed). */
	(void)output_drain(o, NULL);
	writeback_ask(o);
}

size_t
output_writebacks(struct output *o)
{
	size_t n;

	pthread_mutex_lock(&o->wb.mu);
	n = o->wb.done;
	pthread_mutex_unlock(&o->wb.mu);
	return n;
}

/* Stop o's writeback: wait for the syncfs asked (none is asked after). */
static void
writeback_end(struct output *o)
{
	struct writeback *wb = &o->wb;
	int started;

	pthread_mutex_lock(&wb->mu);
	wb->stop = 1;
	started = wb->started;
	wb->started = 0;
	pthread_cond_signal(&wb->cv);
	pthread_mutex_unlock(&wb->mu);
	if (started)
		(void)pthread_join(wb->tid, NULL);
}

/*
 * With DIR's lock held: finish or throw away a killed build's journal,
 * then open DIR (*dir_fd, -1 when it does not exist) and check it is
 * mirror's. Returns 0, or < 0 with *dir_fd -1.
 */
static int
site_prepare(int *dir_fd, const struct out_place *at, mirror_error *err)
{
	int rc;

	if ((rc = out_site_open(dir_fd, at, err)) < 0)
		return rc;
	rc = out_journal_recover(at, err);
	if (rc == 1 && *dir_fd < 0)     /* the journal made DIR */
		rc = out_site_open(dir_fd, at, err);
	if (rc >= 0 && *dir_fd >= 0)
		rc = out_site_ours(*dir_fd, at->dir, err);
	if (rc < 0 && *dir_fd >= 0) {
		close(*dir_fd);
		*dir_fd = -1;
	}
	return rc < 0 ? rc : 0;
}

int
output_refuse_inside(const char *dir, const char *path, const char *what,
    mirror_error *err)
{
	char *rdir, *rpath;
	size_t n;
	int inside;

	if (path == NULL || (rdir = realpath(dir, NULL)) == NULL)
		return 0;
	if ((rpath = realpath(path, NULL)) == NULL) {
		free(rdir);
		return 0;
	}
	n = strlen(rdir);
	inside = strcmp(rdir, "/") == 0 || strcmp(rdir, rpath) == 0 ||
	    (strncmp(rdir, rpath, n) == 0 && rpath[n] == '/');
	free(rdir);
	free(rpath);
	if (!inside)
		return 0;
	return mirror_fail(err, MIRROR_EUSAGE, "%s %s is inside --out %s, "
	    "whose files each build replaces; keep it outside DIR", what,
	    path, dir);
}

int
output_lock(struct output_turn *turn, const char *dir, mirror_error *err)
{
	struct out_place at;
	int dir_fd, rc;

	if (turn->held)
		return 0;
	if ((rc = out_open_parent(&at, dir, err)) < 0)
		return rc;
	rc = out_lock_take(&turn->lk, &at, err);
	if (rc == 0 && (rc = site_prepare(&dir_fd, &at, err)) < 0)
		out_lock_release(&turn->lk);
	turn->held = rc == 0;
	if (rc == 0) {
		if (dir_fd >= 0)
			close(dir_fd);
		/* A build that finds nothing to do still tidies up after
		 * killed ones. */
		out_clean_stale(at.parent_fd, at.base);
	}
	out_place_free(&at);
	return rc;
}

void
output_unlock(struct output_turn *turn)
{
	if (turn->held)
		out_lock_release(&turn->lk);
	turn->held = 0;
}

/*
 * Hold DIR's lock in o: take over the one output_lock took into turn
 * (NULL: none) for the same directory, else take it now. A lock taken
 * ahead whose file is gone or replaced is lost: another build may hold
 * DIR's lock now, and o stops before it looks at DIR. Returns 0 or < 0.
 */
static int
lock_own(struct output *o, struct output_turn *turn, mirror_error *err)
{
	struct stat a, b;

	if (turn != NULL && turn->held &&
	    fstat(turn->lk.parent_fd, &a) == 0 &&
	    fstat(o->at.parent_fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino && out_lock_is_for(&turn->lk, o->at.base)) {
		int rc = out_lock_held(&turn->lk, o->at.dir, err);

		if (rc < 0)
			return rc;
		o->lock = turn->lk;
		turn->lk = (struct out_lock){ -1, -1, NULL };
		turn->held = 0;
		return 0;
	}
	return out_lock_take(&o->lock, &o->at, err);
}

/* Make o's staging directory beside DIR, and its tree of staged files.
 * Returns 0 or -MIRROR_EIO. */
static int
make_stage(struct output *o, mirror_error *err)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_putc(&sb, '.');
	out_side_name(&sb, o->at.base);
	strbuf_printf(&sb, ".mirror-stage-%ld", (long)getpid());
	o->stage = strbuf_detach(&sb);
	if (mkdirat(o->at.parent_fd, o->stage, 0755) < 0 ||
	    (o->stage_fd = openat(o->at.parent_fd, o->stage, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    mkdirat(o->stage_fd, OUT_STAGED_SITE, 0755) < 0 ||
	    (o->site_fd = openat(o->stage_fd, OUT_STAGED_SITE, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		int rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot create the "
		    "staging directory: %s", o->at.parent, o->stage,
		    strerror(errno));

		(void)out_remove_tree(o->at.parent_fd, o->stage);
		free(o->stage);
		o->stage = NULL;    /* nothing of ours: output_free keeps off */
		return rc;
	}
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/%s", o->at.parent, o->stage);
	o->stage_path = strbuf_detach(&sb);
	out_dircache_init(&o->dirc, o->site_fd);
	out_rings_init(&o->rings, &o->dirc);
	o->dirc_open = 1;
	return 0;
}

/* Wait for the writers' batches, then close the stage's directories
 * the writers kept open. */
static void
dirc_close(struct output *o)
{
	if (o->dirc_open) {
		out_rings_free(&o->rings);
		out_dircache_free(&o->dirc);
	}
	o->dirc_open = 0;
}

/* A new struct output for DIR at (out_open_parent's, which it takes
 * over), holding nothing yet. */
static struct output *
output_new(const struct out_place *at)
{
	struct output *o = xcalloc(1, sizeof(*o));
	size_t len = strlen(at->dir);

	pthread_mutex_init(&o->mu, NULL);
	pthread_mutex_init(&o->wb.mu, NULL);
	pthread_cond_init(&o->wb.cv, NULL);
	o->stage_fd = o->site_fd = o->dir_fd = -1;
	o->lock.fd = o->lock.parent_fd = -1;
	o->at = *at;
	while (len > 1 && at->dir[len - 1] == '/')
		len--;
	o->top = xstrndup(at->dir, len);
	out_set_init(&o->old.files);
	out_set_init(&o->old.junk);
	out_set_init(&o->old.dirs);
	out_set_init(&o->files);
	out_set_init(&o->dirs);
	out_set_init(&o->moved);
	return o;
}

/* output_begin, taking over turn's lock (NULL: none) as lock_own
 * says. */
static int
begin_turn(struct output **out, const char *dir, struct output_turn *turn,
    mirror_error *err)
{
	struct out_place at;
	struct output *o;
	int rc;

	*out = NULL;
	if ((rc = out_open_parent(&at, dir, err)) < 0)
		return rc;
	o = output_new(&at);
	/* Before DIR is looked at: another build may be updating it. */
	if ((rc = lock_own(o, turn, err)) < 0 ||
	    (rc = site_prepare(&o->dir_fd, &o->at, err)) < 0)
		goto fail;
	out_clean_stale(o->at.parent_fd, o->at.base);
	if (out_marker_read(&o->old_marker, o->dir_fd))
		o->base_tree = out_marker_tree(o->old_marker);
	if ((rc = out_site_list(&o->old, o->dir_fd, dir, err)) < 0 ||
	    (rc = make_stage(o, err)) < 0)
		goto fail;
	/* The new site is mostly the old one's files again. */
	out_set_reserve(&o->files, o->old.files.n);
	out_set_reserve(&o->dirs, o->old.dirs.n);
	*out = o;
	return 0;
fail:
	output_free(o);
	return rc;
}

int
output_begin(struct output **out, const char *dir, mirror_error *err)
{
	return begin_turn(out, dir, NULL, err);
}

/* output_begin's call, made on a thread (output_begin_start). */
struct output_start {
	pthread_t tid;
	int started;            /* 1: tid runs start_run */
	char *dir;
	struct output_turn *turn;  /* the caller's, or NULL */
	struct output *out;
	int rc;
	mirror_error err;
};

/* Run s's output_begin (a thread's start). Returns NULL. */
static void *
start_run(void *arg)
{
	struct output_start *s = arg;

	s->rc = begin_turn(&s->out, s->dir, s->turn, &s->err);
	return NULL;
}

struct output_start *
output_begin_start(const char *dir, struct output_turn *turn)
{
	struct output_start *s = xcalloc(1, sizeof(*s));

	s->dir = xstrdup(dir);
	s->turn = turn;
	s->started = mirror_jobs() > 1 &&
	    jobs_thread_start(&s->tid, "out-begin", start_run, s) == 0;
	return s;
}

/* Wait for s's output_begin, or run it here when no thread did. */
static void
start_wait(struct output_start *s)
{
	if (s->started)
		pthread_join(s->tid, NULL);
	else
		start_run(s);
	s->started = 0;
}

int
output_begin_finish(struct output **out, struct output_start *s,
    mirror_error *err)
{
	int rc;

	*out = NULL;
	if (s == NULL)
		return mirror_fail(err, MIRROR_EIO, "output: no build was "
		    "started");
	start_wait(s);
	rc = s->rc;
	if (rc < 0)
		*err = s->err;
	else
		*out = s->out;
	free(s->dir);
	free(s);
	return rc;
}

void
output_begin_drop(struct output_start *s)
{
	if (s == NULL)
		return;
	if (s->started) {
		pthread_join(s->tid, NULL);
		output_free(s->out);
	}
	free(s->dir);
	free(s);
}

/*
 * Whether relpath (len bytes) can join the new site: 0, or -EEXIST when
 * it is in it already, -EISDIR when it is one of its directories,
 * -ENOTDIR when a directory of it is one of its files. Its directories
 * in relpath's first from bytes are known to be none of the files (a
 * sibling's check said so). Under o->mu.
 */
static int
claim_check_from(const struct output *o, const char *relpath, size_t len,
    size_t from)
{
	if (out_set_find(&o->files, relpath, len) >= 0)
		return -EEXIST;
	if (out_set_find(&o->dirs, relpath, len) >= 0)
		return -EISDIR;
	for (const char *s = relpath + from; (s = strchr(s, '/')) != NULL;
	    s++)
		if (out_set_find(&o->files, relpath, (size_t)(s - relpath)) >= 0)
			return -ENOTDIR;
	return 0;
}

/* claim_check_from with nothing known. */
static int
claim_check(const struct output *o, const char *relpath, size_t len)
{
	return claim_check_from(o, relpath, len, 0);
}

/*
 * Add relpath (claim_check said 0) to the new site with value val, its
 * directories in relpath's first from bytes known to be listed already,
 * p its index in DIR's list (-2: not looked up yet, -1: not there);
 * returns its index in o->files. Under o->mu.
 */
static size_t
claim_add_from(struct output *o, const char *relpath, size_t len, long val,
    size_t from, long p)
{
	for (const char *s = relpath + from; (s = strchr(s, '/')) != NULL;
	    s++)
		if (out_set_find(&o->dirs, relpath, (size_t)(s - relpath)) < 0)
			(void)out_set_add(&o->dirs, relpath,
			    (size_t)(s - relpath), 0);
	if (p == -2)
		p = out_set_find(&o->old.files, relpath, len);
	if (p >= 0)
		o->old.files.val[p] = 1;
	return out_set_add(&o->files, relpath, len, val);
}

/* claim_add_from with nothing known. */
static size_t
claim_add(struct output *o, const char *relpath, size_t len, long val)
{
	return claim_add_from(o, relpath, len, val, 0, -2);
}

/* How many leading bytes of path (its directories, up to its last '/')
 * it shares with prev's (NULL: none), else 0. */
static size_t
same_dirs(const char *path, const char *prev)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash != NULL ? (size_t)(slash - path) + 1 : 0;

	return prev != NULL && n > 0 && strncmp(path, prev, n) == 0 &&
	    strchr(prev + n, '/') == NULL ? n : 0;
}

/* File idx of the new site is done: val (its staged number or KEPT),
 * counted and listed; or, when rc < 0, left out (output_write fails). */
static void
claim_done(struct output *o, size_t idx, long val, int rc)
{
	pthread_mutex_lock(&o->mu);
	if (rc == 0) {
		o->files.val[idx] = val;
		if (val == KEPT)
			o->reused++;
		else
			o->written++;
		ARRAY_PUSH(o->paths, o->n_paths, o->paths_cap) = o->files.v[idx];
		o->sorted = 0;
	}
	pthread_mutex_unlock(&o->mu);
}

/*
 * 1 when DIR holds a regular file at relpath (in its list) with exactly
 * data[0..len); else 0.
 */
static int
same_as_prev(const struct output *o, const char *relpath, const void *data,
    size_t len)
{
	int fd, same;

	if (out_set_find(&o->old.files, relpath, strlen(relpath)) < 0)
		return 0;
	/* O_NONBLOCK: a FIFO planted there must not hang us. */
	fd = out_open_beneath(o->dir_fd, relpath, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	same = out_same_content(fd, data, len);
	close(fd);
	return same;
}

/* Mark o's build failed (a file of it is missing): it cannot be
 * committed. Returns rc. */
static int
write_failed(struct output *o, int rc)
{
	pthread_mutex_lock(&o->mu);
	o->failed = 1;
	pthread_mutex_unlock(&o->mu);
	return rc;
}

/* Report late, a file of an earlier batch that failed (rc < 0): the
 * build cannot be committed. Returns late->rc as mirror_fail does. */
static int
late_failed(struct output *o, struct out_late *late, mirror_error *err)
{
	int rc = write_failed(o, mirror_fail(err, MIRROR_EIO, "%s/%s: "
	    "cannot write: %s", o->at.dir, late->path, strerror(-late->rc)));

	free(late->path);
	late->path = NULL;
	return rc;
}

int
output_drain(struct output *o, mirror_error *err)
{
	struct out_late late;

	if (!o->dirc_open || out_rings_drain(&late, &o->rings) == 0)
		return 0;
	return late_failed(o, &late, err);
}

/* output_write of data[0..len) (data not NULL). */
static int
write_file(struct output *o, const char *relpath, const void *data,
    size_t len, mirror_error *err)
{
	struct out_late late = { .rc = 0 };
	size_t idx = 0;
	int rc;

	if (o->journaled || o->committed)
		return mirror_fail(err, MIRROR_EIO, "%s: output already "
		    "committed", relpath);
	if (!out_path_ok(relpath))
		return write_failed(o, mirror_fail(err, MIRROR_EINPUT, "'%s': "
		    "not a safe relative output path", relpath != NULL ?
		    relpath : ""));
	pthread_mutex_lock(&o->mu);
	rc = claim_check(o, relpath, strlen(relpath));
	if (rc == 0)
		idx = claim_add(o, relpath, strlen(relpath), PENDING);
	pthread_mutex_unlock(&o->mu);
	if (rc == -EEXIST)
		return write_failed(o, mirror_fail(err, MIRROR_EINPUT, "%s: "
		    "written twice in one build", relpath));
	if (rc == 0 && same_as_prev(o, relpath, data, len)) {
		claim_done(o, idx, KEPT, 0);
		return 0;
	}
	if (rc == 0) {
		rc = out_rings_create(&late, &o->rings, relpath, data, len);
		claim_done(o, idx, STAGED, rc);
		if (rc == 0) {
			work_add(&output_files_written, 1);
			work_add(&output_bytes_written, len);
			writeback_staged(o, len);
		}
	}
	if (late.rc < 0) {
		if (rc < 0)     /* the earlier file is the one to name */
			(void)write_failed(o, rc);
		return late_failed(o, &late, err);
	}
	if (rc < 0)
		return write_failed(o, mirror_fail(err, MIRROR_EIO, "%s/%s: "
		    "cannot write: %s", o->at.dir, relpath, strerror(-rc)));
	return 0;
}

int
output_write(struct output *o, const char *relpath, const void *data,
    size_t len, mirror_error *err)
{
	return write_file(o, relpath, data != NULL ? data : "", len, err);
}

int
output_keep(struct output *o, const char *const *relpaths, size_t n)
{
	long *at = n > 0 ? xreallocarray(NULL, n, sizeof(*at)) : NULL;
	size_t i, k, marked;
	long p = -1;
	int ok = !o->journaled && !o->committed;

	pthread_mutex_lock(&o->mu);
	/* All or nothing: each is marked 2 while the rest are looked at.
	 * A family's files share their directories: those are checked
	 * once (same_dirs), and each file's place in DIR's list is found
	 * once (at). */
	for (i = 0; ok && i < n; i++) {
		const char *r = relpaths[i];

		ok = r != NULL && (p = out_set_find(&o->old.files, r,
		    strlen(r))) >= 0 && o->old.files.val[p] == 0 &&
		    claim_check_from(o, r, strlen(r), same_dirs(r, i > 0 ?
		    relpaths[i - 1] : NULL)) == 0;
		if (ok) {
			o->old.files.val[p] = 2;
			at[i] = p;
		}
	}
	marked = ok || i == 0 ? i : i - 1;     /* not the one that failed */
	for (k = 0; k < marked; k++) {
		const char *r = relpaths[k];

		o->old.files.val[at[k]] = 0;
		if (ok) {
			size_t idx = claim_add_from(o, r, strlen(r), KEPT,
			    same_dirs(r, k > 0 ? relpaths[k - 1] : NULL),
			    at[k]);

			ARRAY_PUSH(o->paths, o->n_paths, o->paths_cap) =
			    o->files.v[idx];
			o->reused++;
			o->sorted = 0;
		}
	}
	pthread_mutex_unlock(&o->mu);
	free(at);
	return ok;
}

/* 1 when path is one of drop[0..n). */
static int
in_list(const char *path, const char *const *drop, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(drop[i], path) == 0)
			return 1;
	return 0;
}

long
output_keep_rest(struct output *o, const char *prefix,
    const char *const *drop, size_t n)
{
	size_t pl = strlen(prefix), nk = 0, cap = 0;
	const char **keep = NULL;
	long rc;

	/* DIR's list is not changed after output_begin; the values are
	 * the lock's. */
	pthread_mutex_lock(&o->mu);
	for (size_t i = 0; i < o->old.files.n; i++)
		if (o->old.files.val[i] == 0 && strncmp(o->old.files.v[i],
		    prefix, pl) == 0 && !in_list(o->old.files.v[i], drop, n))
			ARRAY_PUSH(keep, nk, cap) = o->old.files.v[i];
	pthread_mutex_unlock(&o->mu);
	rc = output_keep(o, keep, nk) ? (long)nk : -1;
	free(keep);
	return rc;
}

int
output_read_prev(char **data, size_t *len, struct output *o,
    const char *relpath, mirror_error *err)
{
	int fd, rc;

	*data = NULL;
	*len = 0;
	if (!out_path_ok(relpath))
		return mirror_fail(err, MIRROR_EINPUT, "'%s': not a safe "
		    "relative output path", relpath != NULL ? relpath : "");
	/* The list is not changed after output_begin: no lock. */
	if (out_set_find(&o->old.files, relpath, strlen(relpath)) < 0)
		return 0;
	fd = out_open_beneath(o->dir_fd, relpath, O_RDONLY | O_NONBLOCK);
	if (fd == -ENOENT || fd == -ENOTDIR || fd == -ELOOP)
		return 0;       /* gone, or no longer a file, since */
	rc = fd < 0 ? fd : out_read_fd(data, len, fd);
	if (fd >= 0)
		close(fd);
	if (rc == -EINVAL)
		return 0;       /* not a regular file */
	if (rc < 0)
		return mirror_fail(err, MIRROR_EIO, "%s/%s: cannot read: %s",
		    o->at.dir, relpath, strerror(-rc));
	return 1;
}

/* Drop the list output_files made. */
static void
lists_free(struct output *o)
{
	for (size_t i = 0; i < o->n_list; i++)
		free(o->disk[i]);
	free(o->disk);
	free(o->list);
	o->disk = NULL;
	o->list = NULL;
	o->n_list = 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir (dl bytes), "/" and rel joined in one allocation (the caller
 * frees it). */
static char *
join_path(const char *dir, size_t dl, const char *rel)
{
	size_t rl = strlen(rel);
	char *p = xmalloc(dl + 1 + rl + 1);

	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, rel, rl + 1);
	return p;
}

/* Sort o->paths once (output_paths and output_files). Under o->mu. */
static void
sort_paths(struct output *o)
{
	if (!o->sorted) {
		if (o->n_paths > 1)
			qsort(o->paths, o->n_paths, sizeof(*o->paths), cmp_str);
		o->sorted = 1;
	}
}

/* Where the files of the new site are: DIR's and the stage's site. */
struct file_roots {
	const char *top, *staged;
	size_t tl, sl;
};

/* Put file i of o->files as entry n of the list. Under o->mu. */
static void
list_put(struct output *o, size_t n, size_t i, const struct file_roots *fr)
{
	long v = o->files.val[i];

	o->list[n].path = o->files.v[i];
	o->list[n].changed = v != KEPT;
	o->list[n].disk = o->disk[n] = v == KEPT ?
	    join_path(fr->top, fr->tl, o->files.v[i]) :
	    join_path(fr->staged, fr->sl, o->files.v[i]);
}

size_t
output_files(struct output *o, const struct output_file **files)
{
	struct file_roots fr;
	char *staged = join_path(o->stage_path, strlen(o->stage_path),
	    OUT_STAGED_SITE);

	/* The list names staged files: all of them on disk. A failed one
	 * is output_commit's to report (o->failed). */
	(void)output_drain(o, NULL);
	fr.top = o->top;
	fr.tl = strlen(o->top);
	fr.staged = staged;
	fr.sl = strlen(staged);
	pthread_mutex_lock(&o->mu);
	lists_free(o);
	o->list = xcalloc(o->n_paths + 1, sizeof(*o->list));
	o->disk = xcalloc(o->n_paths + 1, sizeof(*o->disk));
	/* The files done are exactly the paths (claim_done and output_keep
	 * list each as its value is set), sorted once for the stamp and the
	 * sitemap: walked in that order, each found by its path, the list
	 * needs no sort of its own (at 1M facts 200,000 paths, a tenth of a
	 * second). */
	sort_paths(o);
	for (size_t k = 0; k < o->n_paths; k++) {
		long i = out_set_find(&o->files, o->paths[k],
		    strlen(o->paths[k]));

		if (i < 0 || o->files.val[i] == PENDING)
			abort();    /* a path listed that is not done */
		list_put(o, k, (size_t)i, &fr);
	}
	o->n_list = o->n_paths;
	pthread_mutex_unlock(&o->mu);
	free(staged);
	*files = o->list;
	return o->n_list;
}

static int
cmp_put(const void *a, const void *b)
{
	return strcmp(((const struct out_put *)a)->path,
	    ((const struct out_put *)b)->path);
}

/* The paths of set whose value is 0 and that the new site lacks, sorted,
 * appended to *v (count *n, capacity *cap). Under o->mu. */
static void
unclaimed(const char ***v, size_t *n, size_t *cap, const struct output *o,
    const struct out_set *set)
{
	size_t from = *n;

	for (size_t i = 0; i < set->n; i++)
		if (set->val[i] == 0 && out_set_find(&o->files, set->v[i],
		    strlen(set->v[i])) < 0)
			ARRAY_PUSH(*v, *n, *cap) = set->v[i];
	if (*n - from > 1)
		qsort(*v + from, *n - from, sizeof(**v), cmp_str);
}

const char *const *
output_removed(struct output *o, size_t *n)
{
	size_t cap = 0;

	pthread_mutex_lock(&o->mu);
	free(o->removed);
	o->removed = NULL;
	o->n_removed = 0;
	unclaimed(&o->removed, &o->n_removed, &cap, o, &o->old.files);
	pthread_mutex_unlock(&o->mu);
	*n = o->n_removed;
	return o->removed;
}

const char *
output_base_tree(const struct output *o)
{
	return o->base_tree;
}

void
output_set_tree(struct output *o, const char *hex)
{
	free(o->new_tree);
	o->new_tree = out_tree_ok(hex) ? xstrdup(hex) : NULL;
}

/* 1 when DIR had nothing at d[0..len) (a directory of the new site):
 * all of it is new, staged, and can be moved in whole. */
static int
dir_new(const struct output *o, const char *d, size_t len)
{
	return out_set_find(&o->old.dirs, d, len) < 0 &&
	    out_set_find(&o->old.files, d, len) < 0 &&
	    out_set_find(&o->old.junk, d, len) < 0;
}

/* The length of the topmost directory above path that dir_new says is
 * new, or 0 when none is. */
static size_t
new_top(const struct output *o, const char *path)
{
	for (const char *s = path; (s = strchr(s, '/')) != NULL; s++)
		if (dir_new(o, path, (size_t)(s - path)))
			return (size_t)(s - path);
	return 0;
}

/* Add the put of o's staged file path to j: the file itself, or the
 * new directory above it (once, named in o->moved). Under o->mu. */
static void
journal_put(struct out_journal *j, struct output *o, const char *path)
{
	size_t top = new_top(o, path), at;
	long n = OUT_PUT_FILE;

	if (top > 0) {
		if (out_set_find(&o->moved, path, top) >= 0)
			return;
		at = out_set_add(&o->moved, path, top, 0);
		path = o->moved.v[at];
		n = OUT_PUT_DIR;
	}
	ARRAY_RESERVE(j->puts, j->puts_cap, j->n_puts + 1);
	j->puts[j->n_puts].n = n;
	j->puts[j->n_puts++].path = path;
}

/* The journal of o's build into *j: its staged files and new
 * directories, sorted by path, and what DIR holds that the new site
 * lacks (files, and the links or FIFOs in its way), sorted. Its strings
 * are o's. Under o->mu. */
static void
journal_of(struct out_journal *j, struct output *o)
{
	out_journal_init(j);
	j->stage = o->stage;
	j->tree = o->new_tree;
	out_set_free(&o->moved);
	out_set_init(&o->moved);
	for (size_t i = 0; i < o->files.n; i++)
		if (o->files.val[i] == STAGED)
			journal_put(j, o, o->files.v[i]);
	if (j->n_puts > 1)
		qsort(j->puts, j->n_puts, sizeof(*j->puts), cmp_put);
	unclaimed(&j->dels, &j->n_dels, &j->dels_cap, o, &o->old.files);
	unclaimed(&j->dels, &j->n_dels, &j->dels_cap, o, &o->old.junk);
	if (j->n_dels > 1)
		qsort(j->dels, j->n_dels, sizeof(*j->dels), cmp_str);
}

int
output_commit(struct output *o, mirror_error *err)
{
	struct out_journal j;
	char *marker;
	int rc = 0;

	if (o->committed)
		return 0;
	if (!o->failed && (rc = output_drain(o, err)) < 0)
		return rc;
	if (o->failed || o->journaled)
		return mirror_fail(err, MIRROR_EIO, "%s: a file of this build "
		    "was not written; nothing to commit", o->at.dir);
	dirc_close(o);
	writeback_end(o);
	pthread_mutex_lock(&o->mu);
	journal_of(&j, o);
	pthread_mutex_unlock(&o->mu);
	marker = out_marker_text(o->new_tree);
	/* A build that changes nothing leaves DIR alone; one that lost
	 * its lock meanwhile leaves it to the build that holds it now. */
	if (o->dir_fd < 0 || j.n_puts > 0 || j.n_dels > 0 ||
	    o->old_marker == NULL || strcmp(o->old_marker, marker) != 0) {
		rc = out_lock_held(&o->lock, o->at.dir, err);
		if (rc == 0)
			rc = out_journal_write(&o->at, o->stage_fd, &j, err);
		if (rc == 0) {
			o->journaled = 1;
			rc = out_journal_apply(&o->at, &j, err);
		}
	}
	if (rc == 0)
		o->committed = 1;
	free(marker);
	out_journal_free(&j);
	return rc;
}

void
output_free(struct output *o)
{
	if (o == NULL)
		return;
	/* Once the journal is in place, its staging directory is the next
	 * build's to finish. */
	writeback_end(o);
	dirc_close(o);
	if (!o->journaled && o->stage != NULL)
		(void)out_remove_tree(o->at.parent_fd, o->stage);
	if (o->site_fd >= 0)
		close(o->site_fd);
	if (o->stage_fd >= 0)
		close(o->stage_fd);
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	out_lock_release(&o->lock);
	lists_free(o);
	free(o->removed);
	free(o->paths);
	out_set_free(&o->old.files);
	out_set_free(&o->old.junk);
	out_set_free(&o->old.dirs);
	out_set_free(&o->files);
	out_set_free(&o->dirs);
	out_set_free(&o->moved);
	free(o->old_marker);
	free(o->base_tree);
	free(o->new_tree);
	free(o->stage);
	free(o->stage_path);
	free(o->top);
	out_place_free(&o->at);
	pthread_cond_destroy(&o->wb.cv);
	pthread_mutex_destroy(&o->wb.mu);
	pthread_mutex_destroy(&o->mu);
	free(o);
}

const char *const *
output_paths(struct output *o, size_t *n)
{
	pthread_mutex_lock(&o->mu);
	sort_paths(o);
	*n = o->n_paths;
	pthread_mutex_unlock(&o->mu);
	return o->paths;
}

size_t
output_written(const struct output *o)
{
	return o->written;
}

size_t
output_reused(const struct output *o)
{
	return o->reused;
}

const char *
output_dir(const struct output *o)
{
	return o->at.dir;
}
