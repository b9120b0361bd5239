/*
 * git_stage.c: the stage as an object database backend (git_stage.h).
 *
 * Every object the stage holds is an entry of a hash table keyed by the
 * first 8 bytes of its id; the queue lists, in arrival order, the ids
 * not yet written anywhere. Loose, the queue is everything, written at
 * the flush; packed, the queue is the batch being gathered, written to
 * the pack when full. A full batch is compressed and written by a
 * thread of its own while the next is gathered (the files read and
 * hashed, the trees made): one batch at a time in flight, its bytes
 * kept until it is done. A blob's bytes are freed once packed; trees
 * and the commit keep theirs for reads. A blob may come compressed
 * already (the thread that read the file did it, git_files.h): the
 * pack then only writes it, and should the objects go loose after all
 * it is inflated again.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2/sys/odb_backend.h>

#include "git/git_pack.h"
#include "git/git_repo.h"
#include "git/git_stage.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Above loose and packed (priorities 1, 2): writes land here. */
#define STAGE_PRIORITY 999

struct stage_obj {
	git_oid id;
	git_object_t type;
	size_t len;
	char *data;             /* NULL once a blob is packed, and for a
	                           blob that came compressed */
	unsigned char *z;       /* a blob compressed as read (git_files.h),
	                           zlen bytes; NULL once packed */
	size_t zlen;
};

/* Where the table finds an object: 16 bytes a slot, not the object's
 * 64 (a quarter of the table's memory, and of the bytes each growth
 * moves). */
struct obj_slot {
	uint64_t key;           /* the id's first 8 bytes (0 made 1) */
	size_t i;               /* in mgit_stage_be.obj */
};

/* A batch compressed and written to the pack on a thread of its own. */
struct flight {
	struct mgit_pack *pk;        /* the stage's: no other writer until
	                                the batch is joined */
	struct mgit_pack_obj *objs;  /* the batch; data borrowed from the
	                                stage, which keeps it until joined */
	size_t *at;                  /* each one's index in the stage */
	size_t n;
	pthread_t tid;
	int started;                 /* 1: tid runs it, join it */
	int rc;
	mirror_error err;
};

struct mgit_stage_be {
	git_odb_backend parent;      /* first: what libgit2 is given */
	struct stage_obj *obj;       /* every object held, in order (an
	                                entry's address holds until the
	                                next hold) */
	size_t nobj, capobj;
	struct hashtab objs;         /* struct obj_slot, of obj */
	size_t *queue;               /* held, not yet written, in order:
	                                indices in obj */
	size_t nqueue, capqueue, queue_bytes;
	size_t blobs;                /* new blobs, once per file */
	strbuf objects_dir;
	struct mgit_pack pk;
	int packing;                 /* pk begun */
	struct flight flight;        /* the batch in flight (objs NULL:
	                                none) */
	int passthrough;             /* flushing loose: step aside */
	mirror_error err;            /* the first failure of a write */
};

/* The table key of id: its first 8 bytes, never 0. */
static uint64_t
key_of(const git_oid *id)
{
	uint64_t k;

	memcpy(&k, id->id, sizeof(k));
	return k != 0 ? k : 1;
}

/* The entry of id, or NULL. */
static struct stage_obj *
find(const struct mgit_stage_be *be, const git_oid *id)
{
	const struct obj_slot *e;

	for (e = hashtab_get(&be->objs, key_of(id)); e != NULL;
	    e = hashtab_next(&be->objs, e))
		if (git_oid_equal(&be->obj[e->i].id, id))
			return &be->obj[e->i];
	return NULL;
}

/* Compress and write a batch (a thread's start). Returns NULL. */
static void *
flight_run(void *arg)
{
	struct flight *f = arg;

	f->rc = mgit_pack_add_many(f->pk, f->objs, f->n, mirror_jobs(),
	    &f->err);
	return NULL;
}

/*
 * Wait for the batch in flight, if any, then free its blobs' bytes.
 * Returns 0, or its failure (< 0 with err set).
 */
static int
flight_join(struct mgit_stage_be *be, mirror_error *err)
{
	struct flight *f = &be->flight;
	int rc;

	if (f->objs == NULL)
		return 0;
	if (f->started)
		pthread_join(f->tid, NULL);
	rc = f->rc;
	if (rc < 0)
		*err = f->err;
	for (size_t i = 0; i < f->n && rc == 0; i++) {
		struct stage_obj *o = &be->obj[f->at[i]];

		if (o->type == GIT_OBJECT_BLOB) {
			free(o->data);
			free(o->z);
			o->data = NULL;
			o->z = NULL;
		}
	}
	free(f->objs);
	free(f->at);
	f->objs = NULL;
	f->at = NULL;
	f->n = 0;
	f->started = 0;
	return rc;
}

/*
 * Send the queue to the pack: once the batch before it is written, on
 * a thread of its own (compressed on every core), or here when no
 * thread starts. Returns 0 or -MIRROR_EIO with err set (this batch's
 * failure, or the one before's).
 */
static int
pack_queue(struct mgit_stage_be *be, mirror_error *err)
{
	struct flight *f = &be->flight;
	int rc;

	if ((rc = flight_join(be, err)) < 0 || be->nqueue == 0)
		return rc;
	f->objs = xcalloc(be->nqueue, sizeof(*f->objs));
	f->at = xreallocarray(NULL, be->nqueue, sizeof(*f->at));
	memcpy(f->at, be->queue, be->nqueue * sizeof(*f->at));
	for (size_t i = 0; i < be->nqueue; i++) {
		const struct stage_obj *o = &be->obj[be->queue[i]];

		git_oid_cpy(&f->objs[i].oid, &o->id);
		f->objs[i].type = o->type;
		f->objs[i].data = o->data;
		f->objs[i].len = o->len;
		f->objs[i].z = o->z;
		f->objs[i].zlen = o->zlen;
	}
	f->pk = &be->pk;
	f->n = be->nqueue;
	f->rc = 0;
	be->nqueue = 0;
	be->queue_bytes = 0;
	/* One job (MIRROR_JOBS=1): one thread, the batch written here. */
	f->started = mirror_jobs() > 1 &&
	    jobs_thread_start(&f->tid, "git-stage", flight_run, f) == 0;
	if (!f->started)
		flight_run(f);
	return 0;
}

/*
 * Count a new blob (a file whose content the repository lacked, once
 * per file, as git's unpackLimit counts), and start the pack when they
 * reach MGIT_PACK_THRESHOLD. Returns 0 or -MIRROR_EIO with err set.
 */
static int
count_blob(struct mgit_stage_be *be, mirror_error *err)
{
	int rc;

	if (++be->blobs < MGIT_PACK_THRESHOLD || be->packing)
		return 0;
	if ((rc = mgit_pack_begin(&be->pk, be->objects_dir.data, err)) < 0)
		return rc;
	be->packing = 1;
	return 0;
}

/*
 * Hold the new object id of the bytes b (taken over), then write what
 * the pack should have by now: everything once MGIT_PACK_THRESHOLD blobs
 * came, then each full batch. Returns 0 or -MIRROR_EIO with err set.
 */
static int
hold(struct mgit_stage_be *be, const git_oid *id, git_object_t type,
    const struct mgit_bytes *b, mirror_error *err)
{
	size_t len = b->len, zlen = b->zlen;
	unsigned char *z = b->z;
	struct obj_slot *e = hashtab_add(&be->objs, key_of(id));
	struct stage_obj *o;
	int rc;

	e->i = be->nobj;
	o = &ARRAY_PUSH(be->obj, be->nobj, be->capobj);
	git_oid_cpy(&o->id, id);
	o->type = type;
	o->len = len;
	o->data = b->data;
	o->z = z;
	o->zlen = zlen;
	ARRAY_PUSH(be->queue, be->nqueue, be->capqueue) = e->i;
	/* What the batch holds: a compressed blob costs the pack a write,
	 * not a compression. */
	be->queue_bytes += z != NULL ? zlen : len;
	if (type == GIT_OBJECT_BLOB && (rc = count_blob(be, err)) < 0)
		return rc;
	if (be->packing && (be->nqueue >= MGIT_STAGE_BATCH ||
	    be->queue_bytes >= MGIT_STAGE_BATCH_BYTES))
		return pack_queue(be, err);
	return 0;
}

/* ---- the backend's callbacks ------------------------------------- */

/* The object id, copied for libgit2: 0, GIT_ENOTFOUND or -1. */
static int
be_read(void **data, size_t *len, git_object_t *type, git_odb_backend *b,
    const git_oid *id)
{
	struct mgit_stage_be *be = (struct mgit_stage_be *)b;
	const struct stage_obj *o = be->passthrough ? NULL : find(be, id);

	/* A packed blob, or one held compressed, is read by no step of a
	 * commit: not found here. */
	if (o == NULL || o->data == NULL)
		return GIT_ENOTFOUND;
	if ((*data = git_odb_backend_data_alloc(b, o->len ? o->len : 1)) ==
	    NULL)
		return -1;
	memcpy(*data, o->data, o->len);
	*len = o->len;
	*type = o->type;
	return 0;
}

/* The size and type of object id: 0 or GIT_ENOTFOUND. */
static int
be_read_header(size_t *len, git_object_t *type, git_odb_backend *b,
    const git_oid *id)
{
	struct mgit_stage_be *be = (struct mgit_stage_be *)b;
	const struct stage_obj *o = be->passthrough ? NULL : find(be, id);

	if (o == NULL)
		return GIT_ENOTFOUND;
	*len = o->len;
	*type = o->type;
	return 0;
}

/* 1 when the stage holds id, else 0. */
static int
be_exists(git_odb_backend *b, const git_oid *id)
{
	struct mgit_stage_be *be = (struct mgit_stage_be *)b;

	return !be->passthrough && find(be, id) != NULL;
}

/* hold() a copy of the len bytes at data (kept by the caller).
 * Returns as hold. */
static int
hold_copy(struct mgit_stage_be *be, const git_oid *id, git_object_t type,
    const void *data, size_t len, mirror_error *err)
{
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, data, len);
	return hold(be, id, type, &(struct mgit_bytes){ .data = copy,
	    .len = len }, err);
}

/* Hold a copy of a new object: 0, GIT_PASSTHROUGH while flushing loose
 * objects, or -1 with libgit2's error set from the stage's. */
static int
be_write(git_odb_backend *b, const git_oid *id, const void *data,
    size_t len, git_object_t type)
{
	struct mgit_stage_be *be = (struct mgit_stage_be *)b;

	if (be->passthrough)
		return GIT_PASSTHROUGH;
	if (be->err.status != 0)
		return -1;
	if (hold_copy(be, id, type, data, len, &be->err) < 0) {
		git_error_set_str(GIT_ERROR_ODB, be->err.msg);
		return -1;
	}
	return 0;
}

/* Free the backend and all it holds; a temporary pack is removed. */
static void
be_free(git_odb_backend *b)
{
	struct mgit_stage_be *be = (struct mgit_stage_be *)b;
	mirror_error ignored;

	(void)flight_join(be, &ignored);
	for (size_t i = 0; i < be->nobj; i++) {
		free(be->obj[i].data);
		free(be->obj[i].z);
	}
	hashtab_free(&be->objs);
	free(be->queue);
	free(be->obj);
	mgit_pack_free(&be->pk);    /* a temporary pack is removed */
	strbuf_free(&be->objects_dir);
	free(be);
}

/* ---- the stage ---------------------------------------------------- */

/*
 * Open stage->packs over the packs of objects_dir and note in
 * stage->loose_dirs which fan-out directories exist. Best effort: with
 * alternates (whose objects the packs alone would miss), or when
 * anything fails, stage->packs stays NULL and every lookup goes to the
 * whole object database.
 */
static void
packs_open(struct mgit_stage *stage, const char *objects_dir)
{
	strbuf path;
	git_odb_backend *b = NULL;
	struct dirent *de;
	DIR *d;
	int alternates;

	strbuf_init(&path);
	strbuf_printf(&path, "%s/info/alternates", objects_dir);
	alternates = access(path.data, F_OK) == 0;
	strbuf_free(&path);
	if (alternates || (d = opendir(objects_dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (strspn(de->d_name, "0123456789abcdef") == 2 &&
		    de->d_name[2] == '\0')
			stage->loose_dirs[strtoul(de->d_name, NULL, 16)] = 1;
	closedir(d);
	if (git_odb_new(&stage->packs) < 0) {
		stage->packs = NULL;
		return;
	}
	if (git_odb_backend_pack(&b, objects_dir) < 0 ||
	    git_odb_add_backend(stage->packs, b, 1) < 0) {
		if (b != NULL)
			b->free(b);
		git_odb_free(stage->packs);
		stage->packs = NULL;
	}
}

/* 1 when the repository had object id (a blob, a tree) before this
 * commit, else 0. */
static int
had_object(struct mgit_stage *stage, const git_oid *id)
{
	/* No refresh on a miss: a pack added meanwhile costs a copy. */
	if (stage->packs != NULL && !stage->loose_dirs[id->id[0]])
		return git_odb_exists_ext(stage->packs, id,
		    GIT_ODB_LOOKUP_NO_REFRESH);
	return git_odb_exists_ext(stage->odb, id, GIT_ODB_LOOKUP_NO_REFRESH);
}

int
mgit_stage_open(struct mgit_stage *stage, git_repository *repo,
    mirror_error *err)
{
	struct mgit_stage_be *be;

	memset(stage, 0, sizeof(*stage));
	stage->repo = repo;
	if (git_repository_odb(&stage->odb, repo) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot open the object "
		    "database");
	be = xcalloc(1, sizeof(*be));
	git_odb_init_backend(&be->parent, GIT_ODB_BACKEND_VERSION);
	be->parent.read = be_read;
	be->parent.read_header = be_read_header;
	be->parent.exists = be_exists;
	be->parent.write = be_write;
	be->parent.free = be_free;
	hashtab_init(&be->objs, sizeof(struct obj_slot));
	strbuf_init(&be->objects_dir);
	strbuf_printf(&be->objects_dir, "%sobjects",
	    git_repository_commondir(repo));
	mirror_error_clear(&be->err);
	if (git_odb_add_backend(stage->odb, &be->parent, STAGE_PRIORITY) < 0) {
		be_free(&be->parent);
		return mgit_fail(err, MIRROR_EIO, "cannot stage objects");
	}
	stage->be = be;
	packs_open(stage, be->objects_dir.data);
	return 0;
}

int
mgit_stage_blob(int *fresh, struct mgit_stage *stage, const git_oid *id,
    const struct mgit_bytes *b, mirror_error *err)
{
	char *data = b->data;
	unsigned char *z = b->z;
	struct mgit_stage_be *be = stage->be;
	int rc;

	*fresh = 0;
	if (find(be, id) != NULL) {
		*fresh = 1;               /* new in this commit, held once */
		stage->new_blobs++;
		free(data);
		free(z);
		rc = count_blob(be, err);
		stage->packed = be->packing;
		return rc;
	}
	if (had_object(stage, id)) {
		free(data);
		free(z);
		return 0;
	}
	*fresh = 1;
	stage->new_blobs++;
	rc = hold(be, id, GIT_OBJECT_BLOB, b, err);
	stage->packed = be->packing;
	return rc;
}

int
mgit_stage_tree(struct mgit_stage *stage, const git_oid *id,
    const void *data, size_t len, mirror_error *err)
{
	struct mgit_stage_be *be = stage->be;

	if (be->err.status != 0) {
		*err = be->err;
		return -be->err.status;
	}
	if (find(be, id) != NULL || had_object(stage, id))
		return 0;
	return hold_copy(be, id, GIT_OBJECT_TREE, data, len, err);
}

/* Write the queue as loose objects through the repository's own
 * backend, the stage stepping aside. Returns 0 or -MIRROR_EIO. */
static int
flush_loose(struct mgit_stage *stage, const char *repo_path,
    mirror_error *err)
{
	struct mgit_stage_be *be = stage->be;
	int rc = 0;

	be->passthrough = 1;
	for (size_t i = 0; i < be->nqueue && rc == 0; i++) {
		struct stage_obj *o = &be->obj[be->queue[i]];
		git_oid got;

		/* Compressed for a pack that did not come: its bytes back. */
		if (o->data == NULL && o->z != NULL) {
			o->data = xmalloc(o->len + 1);
			if (mgit_pack_inflate(o->data, o->len, o->z,
			    o->zlen) < 0) {
				rc = mirror_fail(err, MIRROR_EIO, "%s: a staged "
				    "blob does not inflate", repo_path);
				break;
			}
		}
		if (git_odb_write(&got, stage->odb, o->data, o->len,
		    o->type) < 0 || !git_oid_equal(&got, &o->id))
			rc = mgit_fail(err, MIRROR_EIO, "%s: cannot write an "
			    "object", repo_path);
	}
	be->passthrough = 0;
	be->nqueue = 0;
	return rc;
}

int
mgit_stage_flush(struct mgit_stage *stage, const char *repo_path,
    mirror_error *err)
{
	struct mgit_stage_be *be = stage->be;
	int rc;

	if (be->err.status != 0) {
		*err = be->err;
		return -be->err.status;
	}
	if (!be->packing)
		return flush_loose(stage, repo_path, err);
	if ((rc = pack_queue(be, err)) < 0 ||
	    (rc = flight_join(be, err)) < 0 ||
	    (rc = mgit_pack_finish(&be->pk, err)) < 0)
		return rc;
	memcpy(stage->pack_name, be->pk.name, sizeof(stage->pack_name));
	return 0;
}

void
mgit_stage_discard(struct mgit_stage *stage)
{
	struct mgit_stage_be *be = stage->be;
	mirror_error ignored;

	if (be == NULL)
		return;
	(void)flight_join(be, &ignored);
	be->nqueue = 0;
	if (be->packing)
		mgit_pack_free(&be->pk);    /* removes the temporary file */
	be->packing = 0;
}

void
mgit_stage_free(struct mgit_stage *stage)
{
	mgit_stage_discard(stage);
	git_odb_free(stage->packs);
	/* The backend belongs to the odb and dies with it. */
	git_odb_free(stage->odb);
	memset(stage, 0, sizeof(*stage));
}
