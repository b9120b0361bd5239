/*
 * git_tree.c: a list of files as a tree, in full or as an edit.
 *
 * Both ways run one recursion over "ops": the files to store (disk set)
 * and, for an edit, the paths to drop (disk NULL), sorted in tree order
 * (a '/' before any other byte), so that a file "a" and every op under
 * "a/" are neighbours. Each directory level starts a tree builder from
 * the base's subtree (none in full), applies its ops, recurses into its
 * subdirectories that have ops, and writes itself; a subtree without
 * ops is never looked at.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "git/git_files.h"
#include "git/git_repo.h"
#include "git/git_stage.h"
#include "git/git_tree.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct op {
	const char *path;        /* in the site */
	const char *disk;        /* store it from there; NULL: drop it */
};

/* Files read and hashed ahead on every core while the trees are made
 * (mgit_ahead): up to AHEAD_BYTES read and not yet stored, a few dozen
 * big project pages (reading further ahead only raised the commit's
 * peak memory). */
#define AHEAD_BYTES (7u << 20)

struct edit {
	struct mgit_ahead *ahead; /* reads ops[i].disk; NULL until needed */
	const char **disks;      /* disks[i]: ops[i].disk, for ahead */
	struct mgit_readers readers;
	git_repository *repo;
	struct mgit_stage *stage;
	git_treebuilder *probe;  /* judges names (mgit_check_name) */
	const struct op *ops;
	size_t nops;
	int record;              /* 1: fill ch (an edit) */
	struct mgit_change *ch;
	size_t nch, capch;
	mirror_error *err;
};

/* strcmp, but '/' before every other byte: a tree's order of paths. */
static int
cmp_tree_order(const void *a, const void *b)
{
	const unsigned char *x = (const unsigned char *)
	    ((const struct op *)a)->path;
	const unsigned char *y = (const unsigned char *)
	    ((const struct op *)b)->path;

	for (;; x++, y++) {
		int cx = *x == '/' ? 1 : *x == '\0' ? 0 : *x + 1;
		int cy = *y == '/' ? 1 : *y == '\0' ? 0 : *y + 1;

		if (cx != cy)
			return cx < cy ? -1 : 1;
		if (cx == 0)
			return 0;
	}
}

/*
 * path as a tree can hold it: not empty, no leading, trailing or
 * doubled '/', at most MGIT_MAX_DEPTH directories deep. Returns 0 or
 * -MIRROR_EINPUT naming it.
 */
static int
check_path(const char *path, mirror_error *err)
{
	size_t n = strlen(path), depth = 0;

	for (const char *p = path; *p != '\0'; p++)
		depth += *p == '/';
	if (n == 0 || path[0] == '/' || path[n - 1] == '/' ||
	    strstr(path, "//") != NULL)
		return mirror_fail(err, MIRROR_EINPUT, "history: \"%s\" is "
		    "not a file's path inside the site", path);
	if (depth > MGIT_MAX_DEPTH)
		return mirror_fail(err, MIRROR_EINPUT, "%s: directories "
		    "nested deeper than %d levels", path, MGIT_MAX_DEPTH);
	return 0;
}

/* files[0..n) sorted by strcmp of path, each once. 0 or -MIRROR_EUSAGE. */
static int
check_order(const struct history_file *files, size_t n, mirror_error *err)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(files[i - 1].path, files[i].path) >= 0)
			return mirror_fail(err, MIRROR_EUSAGE, "history: the "
			    "site's files are not sorted by path, each once "
			    "(\"%s\" after \"%s\")", files[i].path,
			    files[i - 1].path);
	return 0;
}

/* Note path as changed by kind, when the edit records changes. */
static void
record(struct edit *e, const char *path, int kind)
{
	struct mgit_change *c;

	if (!e->record)
		return;
	c = &ARRAY_PUSH(e->ch, e->nch, e->capch);
	c->path = xstrdup(path);
	c->kind = kind;
}

/* The entry name of bld when it is a tree (1), a blob (0), absent (-1). */
static int
entry_kind(git_treebuilder *bld, const char *name)
{
	const git_tree_entry *te = git_treebuilder_get(bld, name);

	if (te == NULL)
		return -1;
	return git_tree_entry_type(te) == GIT_OBJECT_TREE;
}

/* Stop reading ahead; free what was read and nobody took. */
static void
ahead_drop(struct edit *e)
{
	mgit_ahead_stop(e->ahead);
	e->ahead = NULL;
	free(e->disks);
	e->disks = NULL;
}

/*
 * The file op read and hashed, reading ahead from the first op taken
 * on: *got, its data the caller's to take. Returns 0, or < 0 with
 * e->err set.
 */
static int
ahead_take(struct mgit_read **got, struct edit *e, const struct op *op)
{
	size_t i = (size_t)(op - e->ops);

	if (e->ahead == NULL) {
		/* Compressed as read once a pack is likely (every file
		 * when the stage packs already): a blob the objects go
		 * loose after all is inflated again; one the repository
		 * had was compressed for nothing. */
		size_t pack_below = e->stage->packed ? e->nops :
		    e->nops >= MGIT_PACK_THRESHOLD ?
		    e->nops - MGIT_PACK_THRESHOLD + 1 : 0;

		e->disks = xcalloc(e->nops, sizeof(*e->disks));
		for (size_t k = 0; k < e->nops; k++)
			e->disks[k] = e->ops[k].disk;
		e->ahead = mgit_ahead_start(e->disks, e->nops, AHEAD_BYTES,
		    pack_below, &e->readers);
	}
	*got = mgit_ahead_take(e->ahead, i, e->stage->packed);
	if ((*got)->rc < 0) {
		*e->err = (*got)->err;
		return (*got)->rc;
	}
	return 0;
}

/*
 * Store the file op as entry name of bld: read, hashed, staged, and
 * recorded as added or changed unless bld held that very blob. Returns
 * 0, MGIT_TREE_STALE when bld holds a directory there, or < 0.
 */
static int
put_file(struct edit *e, git_treebuilder *bld, const char *name,
    const struct op *op)
{
	const git_tree_entry *te = git_treebuilder_get(bld, name);
	struct mgit_read *got;
	git_filemode_t mode;
	git_oid id;
	int fresh, rc;

	if (te != NULL && git_tree_entry_type(te) == GIT_OBJECT_TREE)
		return MGIT_TREE_STALE;
	if ((rc = ahead_take(&got, e, op)) < 0)
		return rc;
	mode = got->mode;
	git_oid_cpy(&id, &got->id);
	rc = mgit_stage_blob(&fresh, e->stage, &id, &(struct mgit_bytes){
	    .data = got->data, .len = got->len, .z = got->z,
	    .zlen = got->zlen }, e->err);
	got->data = NULL;       /* the stage's now */
	got->z = NULL;
	if (rc < 0)
		return rc;
	if (te == NULL)
		record(e, op->path, MGIT_ADDED);
	else if (!git_oid_equal(git_tree_entry_id(te), &id) ||
	    git_tree_entry_filemode(te) != mode)
		record(e, op->path, MGIT_CHANGED);
	if (git_treebuilder_insert(NULL, bld, name, &id, mode) < 0)
		return mgit_fail(e->err, MIRROR_EINPUT, "%s: cannot be "
		    "committed", op->path);
	return 0;
}

/* Drop the file op (entry name of bld). Returns 0, MGIT_TREE_STALE
 * when bld holds no file there, or -MIRROR_EIO. */
static int
drop_file(struct edit *e, git_treebuilder *bld, const char *name,
    const struct op *op)
{
	if (entry_kind(bld, name) != 0)
		return MGIT_TREE_STALE;
	if (git_treebuilder_remove(bld, name) < 0)
		return mgit_fail(e->err, MIRROR_EIO, "%s: cannot build a tree",
		    op->path);
	record(e, op->path, MGIT_REMOVED);
	return 0;
}

/* The ops e->ops[lo..hi) of one directory, whose path and '/' are plen
 * bytes long. */
struct op_span {
	size_t lo, hi;
	size_t plen;
};

static int edit_dir(struct edit *e, const git_tree *base,
    const struct op_span *sp, git_oid *out, int *empty);

/*
 * The directory name of bld after the ops of sp (all under it): edited
 * from bld's subtree, stored, or taken out when left empty; *empty says
 * which. Returns 0, MGIT_TREE_STALE when bld holds a file there, or < 0.
 */
static int
put_dir(struct edit *e, git_treebuilder *bld, const char *name,
    const struct op_span *sp, int *empty)
{
	size_t lo = sp->lo, plen = sp->plen;
	const git_tree_entry *te = git_treebuilder_get(bld, name);
	git_tree *sub = NULL;
	git_oid id;
	int rc;

	if (te != NULL && git_tree_entry_type(te) != GIT_OBJECT_TREE)
		return MGIT_TREE_STALE;
	if (te != NULL && git_tree_lookup(&sub, e->repo,
	    git_tree_entry_id(te)) < 0)
		return mgit_fail(e->err, MIRROR_EIO, "%.*s: cannot read the "
		    "base tree", (int)(plen - 1), e->ops[lo].path);
	rc = edit_dir(e, sub, sp, &id, empty);
	git_tree_free(sub);
	if (rc != 0)
		return rc;
	if (*empty && te != NULL && git_treebuilder_remove(bld, name) < 0)
		rc = -1;
	if (!*empty && git_treebuilder_insert(NULL, bld, name, &id,
	    GIT_FILEMODE_TREE) < 0)
		rc = -1;
	return rc < 0 ? mgit_fail(e->err, MIRROR_EIO, "%.*s: cannot build "
	    "a tree", (int)(plen - 1), e->ops[lo].path) : 0;
}

/*
 * The ops of one name of directory bld, from ops[i] of the directory's
 * span sp (sp->plen: the length of its path and '/'): a file op for the
 * name itself, then ops under "name/". *next gets the first op past
 * them. Returns 0, MGIT_TREE_STALE, or < 0.
 */
static int
edit_name(struct edit *e, git_treebuilder *bld, const struct op_span *sp,
    size_t i, size_t *next)
{
	size_t hi = sp->hi, plen = sp->plen;
	const char *p = e->ops[i].path + plen;
	size_t len = strcspn(p, "/"), j = i;
	const struct op *file = NULL;
	char *name = xstrndup(p, len);
	int rc, empty = 1;

	if (p[len] == '\0')
		file = &e->ops[j++];
	while (j < hi && strncmp(e->ops[j].path + plen, name, len) == 0 &&
	    e->ops[j].path[plen + len] == '/')
		j++;
	*next = j;
	/* Sorted: the same path twice is a file op right after another. */
	if (j < hi && file != NULL && strcmp(e->ops[j].path, file->path) == 0)
		rc = mirror_fail(e->err, MIRROR_EUSAGE, "history: \"%s\" is "
		    "named twice by the site's files and removed paths",
		    e->ops[j].path);
	else
		rc = mgit_check_name(e->probe, e->ops[i].path,
		    plen > 0 ? (int)(plen - 1) : 0, name, e->err);
	if (rc == 0 && file != NULL && file->disk == NULL)
		rc = drop_file(e, bld, name, file);
	if (rc == 0 && j > i + (file != NULL))
		rc = put_dir(e, bld, name, &(struct op_span){
		    .lo = i + (file != NULL), .hi = j, .plen = plen + len + 1 },
		    &empty);
	if (rc == 0 && file != NULL && file->disk != NULL && !empty)
		rc = mirror_fail(e->err, MIRROR_EINPUT, "%s: both a file and "
		    "a directory", file->path);
	else if (rc == 0 && file != NULL && file->disk != NULL)
		rc = put_file(e, bld, name, file);
	free(name);
	return rc;
}

/* A tree builder's entries (gather_entry), to be written in order. */
struct entries {
	const git_tree_entry **v;
	size_t n, cap;
};

/* git_treebuilder_filter's callback: note te, keep it. */
static int
gather_entry(const git_tree_entry *te, void *arg)
{
	struct entries *es = arg;

	ARRAY_PUSH(es->v, es->n, es->cap) = te;
	return 0;
}

/* qsort order of entries: git's (a tree's name as if it ended in '/'). */
static int
cmp_entry(const void *a, const void *b)
{
	return git_tree_entry_cmp(*(const git_tree_entry *const *)a,
	    *(const git_tree_entry *const *)b);
}

/*
 * Write bld as a tree object into e's stage, its id into *out: each
 * entry as git writes it (its mode in octal, a space, its name, a NUL,
 * its id's 20 bytes), in git's order, hashed here and handed to the
 * stage (mgit_stage_tree), not through libgit2's object database.
 * Returns 0 or < 0 with e->err set.
 */
static int
write_tree(git_oid *out, struct edit *e, git_treebuilder *bld)
{
	struct entries es = { NULL, 0, 0 };
	const char *body;
	strbuf sb;
	int rc;

	if (git_treebuilder_filter(bld, gather_entry, &es) < 0) {
		free(es.v);
		return mgit_fail(e->err, MIRROR_EIO, "cannot build a tree");
	}
	if (es.n > 1)
		qsort(es.v, es.n, sizeof(*es.v), cmp_entry);
	strbuf_init(&sb);
	for (size_t i = 0; i < es.n; i++) {
		strbuf_printf(&sb, "%o %s", (unsigned)
		    git_tree_entry_filemode_raw(es.v[i]),
		    git_tree_entry_name(es.v[i]));
		strbuf_putc(&sb, '\0');
		strbuf_add(&sb, git_tree_entry_id(es.v[i])->id,
		    GIT_OID_RAWSZ);
	}
	free(es.v);
	body = sb.len > 0 ? sb.data : "";     /* an empty tree has none */
	rc = git_odb_hash(out, body, sb.len, GIT_OBJECT_TREE) < 0 ?
	    mgit_fail(e->err, MIRROR_EIO, "cannot hash a tree") :
	    mgit_stage_tree(e->stage, out, body, sb.len, e->err);
	strbuf_free(&sb);
	return rc;
}

/*
 * Edit base (NULL: an empty tree) by the ops of sp, all under its
 * directory, and write it into *out, unless it ends empty (*empty = 1)
 * and is not the top. Returns 0, MGIT_TREE_STALE, or < 0.
 */
static int
edit_dir(struct edit *e, const git_tree *base, const struct op_span *sp,
    git_oid *out, int *empty)
{
	size_t lo = sp->lo, hi = sp->hi, plen = sp->plen;
	git_treebuilder *bld = NULL;
	int rc = 0;

	*empty = 1;
	if (git_treebuilder_new(&bld, e->repo, base) < 0)
		return mgit_fail(e->err, MIRROR_EIO, "cannot build a tree");
	for (size_t i = lo; i < hi && rc == 0; )
		rc = edit_name(e, bld, sp, i, &i);
	if (rc == 0 && (git_treebuilder_entrycount(bld) > 0 || plen == 0)) {
		*empty = 0;
		rc = write_tree(out, e, bld);
	}
	git_treebuilder_free(bld);
	return rc;
}

/*
 * Run the edit of base by ops[0..n) (sorted here) into *tree, with
 * changes recorded when record. Returns as edit_dir; e->ch is the
 * caller's either way.
 */
static int
run_edit(git_oid *tree, struct edit *e, struct op *ops, size_t n,
    const git_tree *base)
{
	int empty, rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++)
		rc = check_path(ops[i].path, e->err);
	if (rc < 0)
		return rc;
	if (n > 1)
		qsort(ops, n, sizeof(*ops), cmp_tree_order);
	e->ops = ops;
	e->nops = n;
	if (git_treebuilder_new(&e->probe, e->repo, NULL) < 0)
		return mgit_fail(e->err, MIRROR_EIO, "cannot build a tree");
	rc = edit_dir(e, base, &(struct op_span){ .lo = 0, .hi = n,
	    .plen = 0 }, tree, &empty);
	git_treebuilder_free(e->probe);
	e->probe = NULL;
	ahead_drop(e);
	mgit_readers_free(&e->readers);
	return rc;
}

/*
 * Start e over stage for files (checked to be in path order). Returns 0
 * or < 0 with err set.
 */
static int
edit_start(struct edit *e, struct mgit_stage *stage,
    const struct history_file *files, size_t n, mirror_error *err)
{
	int rc;

	if ((rc = check_order(files, n, err)) < 0)
		return rc;
	memset(e, 0, sizeof(*e));
	mgit_readers_init(&e->readers, mirror_jobs());
	e->repo = stage->repo;
	e->stage = stage;
	e->err = err;
	return 0;
}

int
mgit_tree_from_files(git_oid *tree, struct mgit_stage *stage,
    const struct history_file *files, size_t n, mirror_error *err)
{
	struct edit e;
	struct op *ops;
	int rc;

	memset(tree, 0, sizeof(*tree));
	if ((rc = edit_start(&e, stage, files, n, err)) < 0)
		return rc;
	ops = xcalloc(n ? n : 1, sizeof(*ops));
	for (size_t i = 0; i < n; i++) {
		ops[i].path = files[i].path;
		ops[i].disk = files[i].disk;
	}
	rc = run_edit(tree, &e, ops, n, NULL);
	free(ops);
	/* No base, nothing to contradict: never stale. */
	if (rc == MGIT_TREE_STALE)
		rc = mirror_fail(err, MIRROR_EIO, "history: the site's files "
		    "do not make a tree");
	return rc;
}

int
mgit_tree_edit(git_oid *tree, struct mgit_change **changes,
    size_t *nchanges, struct mgit_stage *stage,
    const struct mgit_tree_delta *d, mirror_error *err)
{
	const struct history_file *files = d->files;
	const char *const *removed = d->removed;
	size_t n = d->n, nremoved = d->nremoved;
	struct edit e;
	struct op *ops = NULL;
	size_t nops = 0, cap = 0;
	int rc;

	*changes = NULL;
	*nchanges = 0;
	memset(tree, 0, sizeof(*tree));
	if ((rc = edit_start(&e, stage, files, n, err)) < 0)
		return rc;
	e.record = 1;
	for (size_t i = 0; i < n; i++)
		if (files[i].changed)
			ARRAY_PUSH(ops, nops, cap) = (struct op){ files[i].path,
			    files[i].disk };
	for (size_t i = 0; i < nremoved; i++)
		ARRAY_PUSH(ops, nops, cap) = (struct op){ removed[i], NULL };
	rc = run_edit(tree, &e, ops, nops, d->base);
	free(ops);
	if (rc != 0) {
		for (size_t i = 0; i < e.nch; i++)
			free((char *)(uintptr_t)e.ch[i].path);
		free(e.ch);
		return rc;
	}
	*changes = e.ch;
	*nchanges = e.nch;
	return 0;
}
