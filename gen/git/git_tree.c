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
	const char *disk;        /* files of a list: where to read them */
	char *data;              /* content of a new blob, until written */
	size_t len;
	struct node *kids;       /* directories (sorted by name when walked) */
	size_t nkids, capkids;
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

/*
 * Read fd (st its fstat) whole into *data (the caller frees) and *len:
 * st_size + 1 bytes are asked for, so a file that is as long as fstat
 * says takes one read. Returns 0, or -1 with errno set.
 */
static int
read_fd(char **data, size_t *len, int fd, const struct stat *st)
{
	size_t cap = (size_t)st->st_size + 1, n = 0;
	char *buf = xmalloc(cap);
	ssize_t r;

	for (;;) {
		ARRAY_RESERVE(buf, cap, n + 1);    /* doubles when full */
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* Short of the room, and exactly the size: the end. */
		if (n < cap && n == (size_t)st->st_size)
			break;
	}
	*data = buf;
	*len = n;
	return 0;
}

/*
 * Read the regular file at disk whole: one open (that follows no
 * symbolic link and never waits on a FIFO), one fstat, its reads, one
 * close. Returns 0 with *data (the caller frees), *len and *mode (blob
 * or executable blob); -MIRROR_EINPUT for a symbolic link or a special
 * file, -MIRROR_EIO when it cannot be read; the message names disk.
 */
static int
read_regular(char **data, size_t *len, git_filemode_t *mode,
    const char *disk, mirror_error *err)
{
	struct stat st;
	int fd, rc = 0;

	*data = NULL;
	*len = 0;
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
	else if (read_fd(data, len, fd, &st) < 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", disk,
		    strerror(errno));
	close(fd);
	*mode = (rc == 0 && (st.st_mode & S_IXUSR)) ?
	    GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
	return rc;
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
			rc = mgit_fail(w->err, MIRROR_EINPUT, "%s%s%s: git does "
			    "not allow this name in a tree", w->path.data,
			    w->path.len > 0 ? "/" : "", names[i]);
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

static int hash_blob(struct walk *w, struct node *k);

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
	return hash_blob(w, k);
}

/* The file k of a list (site path w->path) read from k->disk, then as
 * walk_file. Returns 0 or < 0 with w->err set. */
static int
read_blob(struct walk *w, struct node *k)
{
	int rc;

	if ((rc = read_regular(&k->data, &k->len, &k->mode, k->disk,
	    w->err)) < 0)
		return rc;
	return hash_blob(w, k);
}

/* Hash k's content, count it, and keep it only when the repository
 * lacks it. Returns 0 or -MIRROR_EIO. */
static int
hash_blob(struct walk *w, struct node *k)
{
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
		if (base > 0)
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

/*
 * Write the tree of root, read and hashed, into w->repo: through the
 * stage's mempack when MGIT_PACK_THRESHOLD files were new, else loose.
 * Returns 0 with *tree, or < 0 with w->err set.
 */
static int
write_staged(git_oid *tree, struct walk *w, struct node *root)
{
	struct mgit_stage *stage = w->stage;
	int empty;

	if (w->stats->new_blobs >= MGIT_PACK_THRESHOLD &&
	    stage->mempack == NULL) {
		/* Above loose and packed (priorities 1, 2): writes land here. */
		if (git_mempack_new(&stage->mempack) < 0)
			return mgit_fail(w->err, MIRROR_EIO, "cannot stage "
			    "objects in memory");
		if (git_odb_add_backend(stage->odb, stage->mempack, 999) < 0) {
			stage->mempack->free(stage->mempack);
			stage->mempack = NULL;
			return mgit_fail(w->err, MIRROR_EIO, "cannot stage "
			    "objects in memory");
		}
	}
	return write_tree(tree, &empty, w, w->repo, root, 1);
}

/*
 * path as a tree can hold it: not empty, no leading, trailing or
 * doubled '/', at most MAX_DEPTH directories deep. Returns 0 or
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
	if (depth > MAX_DEPTH)
		return mirror_fail(err, MIRROR_EINPUT, "%s: directories "
		    "nested deeper than %d levels", path, MAX_DEPTH);
	return 0;
}

/*
 * The directory kid of dir named by the len bytes at name: dir's last
 * kid when it is that directory (a list sorted by strcmp keeps each
 * directory's files together), else a new last kid. Returns it.
 */
static struct node *
dir_kid(struct node *dir, const char *name, size_t len)
{
	struct node *k;

	if (dir->nkids > 0) {
		k = &dir->kids[dir->nkids - 1];
		if (k->is_dir && strncmp(k->name, name, len) == 0 &&
		    k->name[len] == '\0')
			return k;
	}
	k = &ARRAY_PUSH(dir->kids, dir->nkids, dir->capkids);
	memset(k, 0, sizeof(*k));
	k->name = xstrndup(name, len);
	k->is_dir = 1;
	return k;
}

/*
 * The files of the list as nodes under root, nothing read yet. Returns
 * 0, -MIRROR_EUSAGE when the list is out of order or names a path
 * twice, or -MIRROR_EINPUT for a malformed path.
 */
static int
list_nodes(struct node *root, const struct history_file *files, size_t n,
    mirror_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = files[i].path, *slash;
		struct node *dir = root, *k;
		int rc;

		if ((rc = check_path(p, err)) < 0)
			return rc;
		if (i > 0 && strcmp(files[i - 1].path, p) >= 0)
			return mirror_fail(err, MIRROR_EUSAGE, "history: the "
			    "site's files are not sorted by path, each once "
			    "(\"%s\" after \"%s\")", p, files[i - 1].path);
		while ((slash = strchr(p, '/')) != NULL) {
			dir = dir_kid(dir, p, (size_t)(slash - p));
			p = slash + 1;
		}
		k = &ARRAY_PUSH(dir->kids, dir->nkids, dir->capkids);
		memset(k, 0, sizeof(*k));
		k->name = xstrdup(p);
		k->disk = files[i].disk;
	}
	return 0;
}

/*
 * Judge the names of dir (whose site path is w->path) and read every
 * file below it: names git refuses are found before any file of the
 * directory is read. Returns 0 or < 0 with w->err set.
 */
static int
read_nodes(struct walk *w, struct node *dir)
{
	char **names = xcalloc(dir->nkids ? dir->nkids : 1, sizeof(*names));
	size_t base = w->path.len;
	int rc;

	for (size_t i = 0; i < dir->nkids; i++)
		names[i] = dir->kids[i].name;
	rc = check_names(w, names, dir->nkids);
	if (dir->nkids > 1)
		qsort(names, dir->nkids, sizeof(*names), cmp_names);
	/* A list can name "a" and "a/b": a tree cannot. */
	for (size_t i = 1; i < dir->nkids && rc == 0; i++)
		if (strcmp(names[i - 1], names[i]) == 0)
			rc = mirror_fail(w->err, MIRROR_EINPUT, "%s%s%s: both "
			    "a file and a directory", w->path.data,
			    base > 0 ? "/" : "", names[i]);
	free(names);
	for (size_t i = 0; i < dir->nkids && rc == 0; i++) {
		struct node *k = &dir->kids[i];

		w->path.len = base;
		w->path.data[base] = '\0';
		if (base > 0)
			strbuf_putc(&w->path, '/');
		strbuf_puts(&w->path, k->name);
		if (k->is_dir)
			rc = read_nodes(w, k);
		else
			rc = read_blob(w, k);
	}
	w->path.len = base;
	w->path.data[base] = '\0';
	return rc;
}

/*
 * Start w for a tree of repo through stage (its odb opened on first
 * use), stats zeroed, w->path empty. Returns 0 (free w->path later), or
 * -MIRROR_EIO.
 */
static int
walk_init(struct walk *w, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo, mirror_error *err)
{
	memset(stats, 0, sizeof(*stats));
	stage->repo = repo;
	if (stage->odb == NULL && git_repository_odb(&stage->odb, repo) < 0)
		return mgit_fail(err, MIRROR_EIO, "cannot open the object "
		    "database");
	w->repo = repo;
	w->stage = stage;
	w->odb = stage->odb;
	w->stats = stats;
	w->err = err;
	strbuf_init(&w->path);
	return 0;
}

int
mgit_tree_from_files(git_oid *tree, struct mgit_site_stats *stats,
    struct mgit_stage *stage, git_repository *repo,
    const struct history_file *files, size_t n, mirror_error *err)
{
	struct node root;
	struct walk w;
	int rc;

	memset(tree, 0, sizeof(*tree));
	memset(&root, 0, sizeof(root));
	if ((rc = walk_init(&w, stats, stage, repo, err)) < 0)
		return rc;
	root.is_dir = 1;
	if ((rc = list_nodes(&root, files, n, err)) == 0 &&
	    (rc = read_nodes(&w, &root)) == 0)
		rc = write_staged(tree, &w, &root);
	node_free(&root);
	strbuf_free(&w.path);
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
	int rc;

	memset(tree, 0, sizeof(*tree));
	memset(&root, 0, sizeof(root));
	if ((rc = walk_init(&w, stats, stage, repo, err)) < 0)
		return rc;
	if (stat(dir, &st) != 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", dir,
		    strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = mirror_fail(err, MIRROR_EIO, "%s: not a directory", dir);
	if (rc < 0) {
		strbuf_free(&w.path);
		return rc;
	}
	strbuf_puts(&w.path, dir);
	/* "site/" and "site" name the same files; keep messages tidy. */
	while (w.path.len > 1 && w.path.data[w.path.len - 1] == '/')
		w.path.data[--w.path.len] = '\0';
	root.is_dir = 1;
	rc = walk_dir(&w, &root, 0);
	if (rc == 0)
		rc = write_staged(tree, &w, &root);
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
