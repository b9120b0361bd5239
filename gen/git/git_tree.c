/*
 * git_tree.c: walk a directory, write its blobs and trees.
 *
 * Two steps, so the stage can be chosen once the number of new files
 * is known: the walk reads and hashes every file (keeping the content
 * only of those the repository lacks), then blobs and trees are
 * written, bottom up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "git/git_pack.h"
#include "git/git_repo.h"
#include "git/git_tree.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Deeper than any site; stops a runaway recursion on a strange tree. */
#define MAX_DEPTH 64
/* Objects compressed together by mgit_stage_flush. */
#define PACK_BATCH 256

struct node {
	char *name;
	int is_dir;
	git_filemode_t mode;     /* files: blob or executable blob */
	git_oid oid;
	char *data;              /* content of a new blob, until written */
	size_t len;
	struct node *kids;       /* directories: sorted by name */
	size_t nkids;
};

static void
node_free(struct node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_free(&n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n->data);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read all of path into *data (caller frees). Returns 0 or -1 (errno). */
static int
read_file(char **data, size_t *len, const char *path, off_t hint)
{
	size_t cap = hint > 0 ? (size_t)hint + 1 : 4096, n = 0;
	char *buf;
	ssize_t r;
	int fd, saved;

	*data = NULL;
	*len = 0;
	/* O_NOFOLLOW: a file swapped for a symlink after lstat is refused. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	buf = xmalloc(cap);
	for (;;) {
		ARRAY_RESERVE(buf, cap, n + 1);    /* doubles when full */
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*data = buf;
	*len = n;
	return 0;
}

void
mgit_stage_note(struct mgit_stage *stage, const git_oid *id)
{
	git_oid_cpy(&ARRAY_PUSH(stage->ids, stage->nids, stage->capids), id);
}

struct walk {
	git_repository *repo;
	struct mgit_stage *stage;
	git_odb *odb;
	struct mgit_site_stats *stats;
	mirror_error *err;
	strbuf path;
};

/*
 * Refuse, before anything is read or written, a name libgit2 would not
 * put in a tree (".git" and its NTFS and HFS aliases, "..", ...): each
 * goes into a throwaway tree builder as a gitlink, the one entry kind
 * whose object need not exist, so only the name is judged.
 */
static int
check_names(struct walk *w, char **names, size_t n)
{
	git_treebuilder *probe = NULL;
	git_oid any;
	int rc = 0;

	if (git_treebuilder_new(&probe, w->repo, NULL) < 0)
		return mgit_fail(w->err, MIRROR_EIO, "%s: cannot build a tree",
		    w->path.data);
	memset(&any, 0x01, sizeof(any));
	for (size_t i = 0; i < n && rc == 0; i++)
		if (git_treebuilder_insert(NULL, probe, names[i], &any,
		    GIT_FILEMODE_COMMIT) < 0)
			rc = mgit_fail(w->err, MIRROR_EINPUT, "%s/%s: git does "
			    "not allow this name in a tree", w->path.data,
			    names[i]);
	git_treebuilder_free(probe);
	return rc;
}

/*
 * The names in directory w->path but . and .., sorted (so that reading
 * and every message are deterministic), into *names[0..*n) (the caller
 * frees each and the array, also on failure). Returns 0, or
 * -MIRROR_EIO naming the directory.
 */
static int
list_dir(char ***names, size_t *n, struct walk *w)
{
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	if ((d = opendir(w->path.data)) == NULL)
		return mirror_fail(w->err, MIRROR_EIO, "%s: %s", w->path.data,
		    strerror(errno));
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		ARRAY_PUSH(*names, *n, cap) = xstrdup(de->d_name);
		errno = 0;
	}
	if (errno != 0)
		rc = mirror_fail(w->err, MIRROR_EIO, "%s: %s", w->path.data,
		    strerror(errno));
	closedir(d);
	if (rc == 0 && *n > 0)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return rc;
}

/*
 * The regular file w->path (st its lstat) as blob k: read, hashed and
 * counted; its content kept only when the repository lacks it (known
 * content is neither kept nor rewritten). Returns 0 or -MIRROR_EIO.
 */
static int
walk_file(struct walk *w, struct node *k, const struct stat *st)
{
	k->mode = (st->st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE :
	    GIT_FILEMODE_BLOB;
	if (read_file(&k->data, &k->len, w->path.data, st->st_size) < 0)
		return mirror_fail(w->err, MIRROR_EIO, "%s: %s", w->path.data,
		    strerror(errno));
	if (git_odb_hash(&k->oid, k->data, k->len, GIT_OBJECT_BLOB) < 0)
		return mgit_fail(w->err, MIRROR_EIO, "%s: cannot hash",
		    w->path.data);
	w->stats->files++;
	w->stats->bytes += k->len;
	if (git_odb_exists(w->odb, &k->oid)) {
		free(k->data);
		k->data = NULL;
	} else {
		w->stats->new_blobs++;
	}
	return 0;
}

/* Fill dir (whose path is w->path) with its entries, recursively. */
static int
walk_dir(struct walk *w, struct node *dir, int depth)
{
	char **names = NULL;
	size_t nnames = 0, base = w->path.len;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return mirror_fail(w->err, MIRROR_EINPUT, "%s: directories "
		    "nested deeper than %d levels", w->path.data, MAX_DEPTH);
	if ((rc = list_dir(&names, &nnames, w)) < 0 ||
	    (rc = check_names(w, names, nnames)) < 0)
		goto out;
	dir->kids = xcalloc(nnames ? nnames : 1, sizeof(*dir->kids));
	for (size_t i = 0; i < nnames && rc == 0; i++) {
		struct node *k = &dir->kids[dir->nkids++];
		struct stat st;

		k->name = names[i];
		names[i] = NULL;
		w->path.len = base;
		w->path.data[base] = '\0';
		strbuf_putc(&w->path, '/');
		strbuf_puts(&w->path, k->name);
		if (lstat(w->path.data, &st) != 0) {
			rc = mirror_fail(w->err, MIRROR_EIO, "%s: %s",
			    w->path.data, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			k->is_dir = 1;
			rc = walk_dir(w, k, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			rc = walk_file(w, k, &st);
		} else {
			rc = mirror_fail(w->err, MIRROR_EINPUT, "%s: %s; only "
			    "regular files and directories can be committed",
			    w->path.data, S_ISLNK(st.st_mode) ?
			    "a symbolic link" : "a special file");
		}
	}
out:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	w->path.len = base;
	w->path.data[base] = '\0';
	return rc;
}

/*
 * Write dir's blobs and subtrees, then dir itself; *empty = 1 (and no
 * tree written) when it holds no file at any depth, except at the root.
 */
static int
write_tree(git_oid *out, int *empty, struct walk *w, git_repository *repo,
    struct node *dir, int is_root)
{
	git_treebuilder *bld = NULL;
	size_t base = w->path.len;
	int rc = 0;

	*empty = 1;
	if (git_treebuilder_new(&bld, repo, NULL) < 0)
		return mgit_fail(w->err, MIRROR_EIO, "%s: cannot build a tree",
		    w->path.data);
	for (size_t i = 0; i < dir->nkids && rc == 0; i++) {
		struct node *k = &dir->kids[i];
		int sub_empty = 0;

		w->path.len = base;
		w->path.data[base] = '\0';
		strbuf_putc(&w->path, '/');
		strbuf_puts(&w->path, k->name);
		if (k->is_dir) {
			rc = write_tree(&k->oid, &sub_empty, w, repo, k, 0);
			if (rc < 0 || sub_empty)
				continue;
		} else if (k->data != NULL) {
			git_odb_backend *mp = w->stage->mempack;
			git_oid written;
			int wrc;

			/* Staged: the id is known, skip hashing it again. */
			git_oid_cpy(&written, &k->oid);
			if (mp != NULL)
				wrc = mp->write(mp, &k->oid, k->data, k->len,
				    GIT_OBJECT_BLOB);
			else
				wrc = git_odb_write(&written, w->odb, k->data,
				    k->len, GIT_OBJECT_BLOB);
			if (wrc < 0) {
				rc = mgit_fail(w->err, MIRROR_EIO, "%s: cannot "
				    "write its blob", w->path.data);
				continue;
			}
			free(k->data);
			k->data = NULL;
			mgit_stage_note(w->stage, &written);
		}
		if (git_treebuilder_insert(NULL, bld, k->name, &k->oid,
		    k->is_dir ? GIT_FILEMODE_TREE : k->mode) < 0)
			/* libgit2 refuses names such as ".git". */
			rc = mgit_fail(w->err, MIRROR_EINPUT, "%s: cannot be "
			    "committed", w->path.data);
	}
	w->path.len = base;
	w->path.data[base] = '\0';
	if (rc == 0 && (git_treebuilder_entrycount(bld) > 0 || is_root)) {
		*empty = 0;
		w->stats->dirs++;
		if (git_treebuilder_write(out, bld) < 0)
			rc = mgit_fail(w->err, MIRROR_EIO, "%s: cannot write "
			    "its tree", w->path.data);
		else
			mgit_stage_note(w->stage, out);
	}
	git_treebuilder_free(bld);
	return rc;
}

int
mgit_tree_from_dir(git_oid *tree, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo, const char *dir,
    mirror_error *err)
{
	struct node root;
	struct walk w;
	struct stat st;
	int empty, rc;

	memset(tree, 0, sizeof(*tree));
	memset(stats, 0, sizeof(*stats));
	memset(&root, 0, sizeof(root));
	stage->repo = repo;
	if (stage->odb == NULL && git_repository_odb(&stage->odb, repo) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot open the object "
		    "database");
	if (stat(dir, &st) != 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mirror_fail(err, MIRROR_EIO, "%s: not a directory",
		    dir);
	w.repo = repo;
	w.stage = stage;
	w.odb = stage->odb;
	w.stats = stats;
	w.err = err;
	strbuf_init(&w.path);
	strbuf_puts(&w.path, dir);
	/* "site/" and "site" name the same files; keep messages tidy. */
	while (w.path.len > 1 && w.path.data[w.path.len - 1] == '/')
		w.path.data[--w.path.len] = '\0';
	root.is_dir = 1;
	rc = walk_dir(&w, &root, 0);
	if (rc == 0 && stats->new_blobs >= MGIT_PACK_THRESHOLD &&
	    stage->mempack == NULL) {
		/* Above loose and packed (priorities 1, 2): writes land here. */
		if (git_mempack_new(&stage->mempack) < 0) {
			rc = mgit_fail(err, MIRROR_EIO, "cannot stage objects "
			    "in memory");
		} else if (git_odb_add_backend(stage->odb, stage->mempack,
		    999) < 0) {
			stage->mempack->free(stage->mempack);
			stage->mempack = NULL;
			rc = mgit_fail(err, MIRROR_EIO, "cannot stage objects "
			    "in memory");
		}
	}
	if (rc == 0)
		rc = write_tree(tree, &empty, &w, repo, &root, 1);
	node_free(&root);
	strbuf_free(&w.path);
	return rc;
}

static int
cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

int
mgit_stage_flush(struct mgit_stage *stage, const char *repo_path,
    mirror_error *err)
{
	git_odb_backend *mp = stage->mempack;
	struct mgit_pack pk;
	strbuf objects;
	size_t n = 0;
	int rc;

	if (mp == NULL)
		return 0;
	/* What the mempack holds, once each; what existed was not staged. */
	if (stage->nids > 0)
		qsort(stage->ids, stage->nids, sizeof(*stage->ids), cmp_oid);
	for (size_t i = 0; i < stage->nids; i++) {
		if (n > 0 && git_oid_equal(&stage->ids[n - 1], &stage->ids[i]))
			continue;
		if (!mp->exists(mp, &stage->ids[i]))
			continue;
		git_oid_cpy(&stage->ids[n++], &stage->ids[i]);
	}
	stage->nids = n;
	strbuf_init(&objects);
	strbuf_printf(&objects, "%sobjects",
	    git_repository_commondir(stage->repo));
	rc = mgit_pack_begin(&pk, objects.data, n, err);
	/* In batches, so compression runs on every core while at most a
	 * batch of objects is held twice (mempack copy, compressed). */
	for (size_t i = 0; i < n && rc == 0; i += PACK_BATCH) {
		struct mgit_pack_obj batch[PACK_BATCH];
		void *data[PACK_BATCH];
		size_t nb = n - i < PACK_BATCH ? n - i : PACK_BATCH, got;

		for (got = 0; got < nb; got++) {
			struct mgit_pack_obj *o = &batch[got];
			size_t len;

			git_oid_cpy(&o->oid, &stage->ids[i + got]);
			if (mp->read(&data[got], &len, &o->type, mp,
			    &o->oid) < 0) {
				rc = mgit_fail(err, MIRROR_EIO, "%s: a staged "
				    "object is missing", repo_path);
				break;
			}
			o->data = data[got];
			o->len = len;
		}
		if (rc == 0)
			rc = mgit_pack_add_many(&pk, batch, nb, mirror_jobs(),
			    err);
		for (size_t k = 0; k < got; k++)
			git_odb_backend_data_free(mp, data[k]);
	}
	if (rc == 0)
		rc = mgit_pack_finish(&pk, err);
	if (rc == 0) {
		stage->objects = n;
		memcpy(stage->pack_name, pk.name, sizeof(stage->pack_name));
	}
	mgit_pack_free(&pk);
	strbuf_free(&objects);
	return rc;
}

void
mgit_stage_discard(struct mgit_stage *stage)
{
	if (stage->mempack != NULL)
		git_mempack_reset(stage->mempack);
}

void
mgit_stage_free(struct mgit_stage *stage)
{
	/* The mempack backend belongs to the odb and dies with it. */
	git_odb_free(stage->odb);
	free(stage->ids);
	stage->ids = NULL;
	stage->nids = stage->capids = 0;
	stage->odb = NULL;
	stage->mempack = NULL;
	stage->repo = NULL;
}
