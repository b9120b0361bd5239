/*
 * build_stamp.c: the inputs of a build, hashed, and where a previous
 * build left them (see build_stamp.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "output/build_stamp.h"
#include "output/out_fs.h"
#include "output/record.h"
#include "sys/userfile.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A stamp larger than this is not ours. */
#define STAMP_MAX 4096

/* The layout of the files a project's pages are kept whole in: raised
 * with every change of what they hold (2: api/projects' facts as rows
 * under named columns and no data-label on a row's first cell; 3: a
 * known table's labels in the stylesheet, not on its cells; 4: the
 * diagram's shared presentation attributes once, on its <svg>, and a
 * text of one line without a <tspan>; 5: an api/projects row ends at
 * its last value that is not null; 6: a project's decision log and
 * subsystems page HTML only, their .md twins gone and not linked). */
#define SITE_LAYOUT "site layout 6"

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fold the whole file name (below dirfd) into *h. Returns 0 or -errno. */
static int
hash_file(uint64_t *h, int dirfd, const char *name)
{
	char buf[65536];
	ssize_t got;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		*h = hash_add(*h, buf, (size_t)got);
	if (got < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

/* A tree hashed (hash_dir): what it is and where, for messages; the
 * path below its top of the directory at hand (ending in '/', or
 * empty); and whether the walk met the store (err set then). */
struct walk {
	const char *what;
	const char *top;
	strbuf rel;
	int store;
	mirror_error *err;
};

/* Set *pos to rel's length and append name (and '/' when dir). */
static void
rel_push(struct walk *w, size_t *pos, const char *name, int dir)
{
	*pos = w->rel.len;
	strbuf_puts(&w->rel, name);
	if (dir)
		strbuf_puts(&w->rel, "/");
}

/* Cut rel back to pos. */
static void
rel_pop(struct walk *w, size_t pos)
{
	w->rel.len = pos;
	w->rel.data[pos] = '\0';
}

/*
 * Fold the regular file name below dirfd into *h, unless it is the
 * store or one of its files (userfile_not_store: never opened then;
 * w->store set, w->err holding the refusal). Returns 0 or -errno.
 */
static int
hash_entry_file(uint64_t *h, struct walk *w, int dirfd, const char *name)
{
	strbuf shown;
	size_t pos;
	int rc;

	strbuf_init(&shown);
	rel_push(w, &pos, name, 0);
	strbuf_printf(&shown, "%s%s%s", w->top, w->top[0] != '\0' &&
	    w->top[strlen(w->top) - 1] == '/' ? "" : "/", w->rel.data);
	rel_pop(w, pos);
	rc = userfile_not_store(&(struct userfile_at){ .dirfd = dirfd,
	    .name = name, .what = w->what, .shown = shown.data }, w->err);
	strbuf_free(&shown);
	if (rc < 0) {
		w->store = 1;
		return -EPERM;
	}
	return hash_file(h, dirfd, name);
}

/*
 * Fold every file below dirfd into *h, names sorted, directories
 * recursed, so the same tree always hashes the same; the store is never
 * read (hash_entry_file). Returns 0, or -errno with w->rel naming the
 * entry that failed.
 */
static int
hash_tree(uint64_t *h, struct walk *w, int dirfd)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, pos = w->rel.len;
	DIR *d;
	int fd, rc = 0;

	if ((fd = dup(dirfd)) < 0 || (d = fdopendir(fd)) == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		ARRAY_PUSH(names, n, cap) = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (rc < 0)
			goto next;
		*h = hash_add_str(*h, names[i]);
		if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = -errno;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, names[i], O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			rel_push(w, &pos, names[i], 1);
			rc = sub < 0 ? -errno : hash_tree(h, w, sub);
			if (sub >= 0)
				close(sub);
			if (rc == 0)
				rel_pop(w, pos);
		} else if (S_ISREG(st.st_mode)) {
			rc = hash_entry_file(h, w, dirfd, names[i]);
		}
		if (rc < 0 && w->rel.len == pos)
			rel_push(w, &pos, names[i], 0);
next:
		free(names[i]);
	}
	free(names);
	return rc;
}

/* Fold the tree at path (NULL: nothing), the what ("templates",
 * "theme") the messages name it by, into *h. Returns 0 or < 0. */
static int
hash_dir(uint64_t *h, const char *path, const char *what, mirror_error *err)
{
	struct walk w = { .what = what, .top = path, .err = err };
	int fd, rc;

	/* The contents decide, not where they are: a checkout elsewhere (CI,
	 * an installed copy) must stamp the same site the same. */
	*h = hash_add_str(*h, path != NULL ? "tree" : NULL);
	if (path == NULL)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot read: %s",
		    path, strerror(errno));
	strbuf_init(&w.rel);
	rc = hash_tree(h, &w, fd);
	close(fd);
	if (rc < 0 && w.store)
		rc = -MIRROR_EINPUT;
	else if (rc < 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: cannot read %s: %s",
		    path, w.rel.len > 0 ? w.rel.data : ".", strerror(-rc));
	strbuf_free(&w.rel);
	return rc;
}

int
stamp_make(struct stamp *out, const struct stamp_inputs *in,
    mirror_error *err)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	uint64_t h = MIRROR_HASH_INIT;
	int rc;

	memset(out, 0, sizeof(*out));
	h = hash_add_str(h, MIRROR_VERSION);
	/* The record's format too: a DIR whose record is of another format
	 * is built anew, not taken as up to date by a mirror that would
	 * find no record there the next time (a development build keeps
	 * its version). */
	h = hash_add_str(h, RECORD_HEADER);
	/* And the layout of what a kept project's files hold: a change of
	 * it must render them anew, or a development build over an older
	 * site keeps their old form beside the new. */
	h = hash_add_str(h, SITE_LAYOUT);
	h = hash_add_str(h, in->title);
	h = hash_add_str(h, in->base_url != NULL ? in->base_url : "");
	if ((rc = hash_dir(&h, in->user_templates, "templates", err)) < 0 ||
	    (rc = hash_dir(&h, in->default_templates, "templates",
	    err)) < 0 || (rc = hash_dir(&h, in->theme_dir, "theme", err)) < 0)
		return rc;
	/* What renders the data: the key of every page's digest. What the
	 * clock decides is in the pages' data already. */
	hash_hex(out->render, h);
	/* The rules decide what the sweep writes, not how a page renders
	 * (the pages read violations and rule_runs from the store, which
	 * the page digests follow): another set sweeps again, and only
	 * the pages whose data changed are rendered. */
	if (in->rules != NULL)
		h = hash_add_str(h, in->rules);
	h = hash_add(h, &in->expired, sizeof(in->expired));
	/* The feed's date of a site without conflicts follows it. */
	h = hash_add_str(h, in->any_conflicts ? NULL : epoch);
	/* The review queue's ages follow the day. */
	if (in->any_conflicts)
		h = hash_add(h, &in->day, sizeof(in->day));
	hash_hex(out->inputs, h);
	memcpy(out->snapshot, in->snapshot, sizeof(out->snapshot) - 1);
	return 0;
}

char *
stamp_text(const struct stamp *s)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:I}",
	    "mirror", MIRROR_VERSION, "store_snapshot", s->snapshot,
	    "inputs", s->inputs, "swept", s->swept,
	    "pages", (json_int_t)s->pages,
	    "files", (json_int_t)s->files,
	    "open_conflicts", (json_int_t)s->open_conflicts);
	strbuf sb;

	/* On one line: every build changes it, one line of a diff. */
	strbuf_init(&sb);
	if (o == NULL || json_write_line(&sb, o) != 0) {
		fprintf(stderr, "mirror: out of memory (build stamp)\n");
		exit(MIRROR_EIO);
	}
	json_decref(o);
	strbuf_putc(&sb, '\n');
	return strbuf_detach(&sb);
}

/* 1 when text (len bytes) is a stamp of this mirror version, with
 * *held filled from it; else 0. */
static int
stamp_parse(struct stamp *held, const char *text, size_t len)
{
	const char *version, *snap, *inputs;
	json_int_t pages, files, open;
	json_t *o = json_loadb(text, len, 0, NULL);
	int ok, swept = 0;      /* a stamp that does not say: not swept */

	if (o == NULL)
		return 0;
	ok = json_unpack(o, "{s:s, s:s, s:s, s?b, s:I, s:I, s:I}", "mirror",
	    &version, "store_snapshot", &snap, "inputs", &inputs, "swept",
	    &swept, "pages", &pages, "files", &files, "open_conflicts",
	    &open) == 0 &&
	    strcmp(version, MIRROR_VERSION) == 0 &&
	    strlen(snap) == sizeof(held->snapshot) - 1 &&
	    strlen(inputs) == sizeof(held->inputs) - 1;
	if (ok) {
		memcpy(held->snapshot, snap, sizeof(held->snapshot));
		memcpy(held->inputs, inputs, sizeof(held->inputs));
		held->pages = pages;
		held->files = files;
		held->open_conflicts = open;
		held->swept = swept;
	}
	json_decref(o);
	return ok;
}

/* Whether held's keys are want's, and held swept exactly when want does
 * (a site built from the store unswept is no site of the swept store;
 * and the stamp a --no-sweep build writes says "swept": false, as the
 * same build with --force would). */
static int
stamp_same(const struct stamp *held, const struct stamp *want)
{
	return strcmp(held->snapshot, want->snapshot) == 0 &&
	    strcmp(held->inputs, want->inputs) == 0 &&
	    held->swept == want->swept;
}

int
stamp_in_dir(struct stamp *held, const char *dir, const struct stamp *want)
{
	return stamp_load_dir(held, dir) && stamp_same(held, want);
}

int
stamp_load_dir(struct stamp *held, const char *dir)
{
	char buf[STAMP_MAX];
	ssize_t got = -1;
	int dfd, fd = -1;

	/* Every component without following links, as output.c writes. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		fd = out_open_beneath(dfd, STAMP_PATH, O_RDONLY | O_NONBLOCK);
	if (fd >= 0)
		got = read(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (got <= 0 || (size_t)got >= sizeof(buf))
		return 0;
	return stamp_parse(held, buf, (size_t)got);
}

int
stamp_in_text(const char *text, size_t len, const struct stamp *want)
{
	struct stamp held;

	return len < STAMP_MAX && stamp_parse(&held, text, len) &&
	    stamp_same(&held, want);
}
