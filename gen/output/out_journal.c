/*
 * out_journal.c: DIR's journal, written, applied and recovered (see
 * out_journal.h).
 */
#define _GNU_SOURCE   /* syncfs, O_NOFOLLOW with O_DIRECTORY */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/out_fs.h"
#include "output/out_journal.h"
#include "output/out_site.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define JOURNAL_HEAD "mirror-journal 2"
#define JOURNAL_HEAD_1 "mirror-journal 1"   /* read only */
#define JOURNAL_SUFFIX ".mirror-journal"
#define STAGE_INFIX ".mirror-stage-"
#define STAGED_JOURNAL "journal"        /* in the stage, before its move */
#define STAGED_MARKER "marker"

#ifdef MIRROR_TEST_HOOKS
void (*out_journal_test_step)(size_t step);
#endif

/* Count step k done, and tell a test so (out_journal_test_step, in the
 * unit tests' build alone). */
static void
step_done(size_t *k)
{
#ifdef MIRROR_TEST_HOOKS
	if (out_journal_test_step != NULL)
		out_journal_test_step(*k);
#endif
	(*k)++;
}

void
out_journal_init(struct out_journal *j)
{
	memset(j, 0, sizeof(*j));
}

void
out_journal_free(struct out_journal *j)
{
	free(j->puts);
	free(j->dels);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

/* The journal's name beside DIR (base its last component); freed by
 * the caller. */
static char *
journal_name(const char *base)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_putc(&sb, '.');
	out_side_name(&sb, base);
	strbuf_puts(&sb, JOURNAL_SUFFIX);
	return strbuf_detach(&sb);
}

/* 1 when name is a staging directory's name of a build into base. */
static int
stage_name_ok(const char *name, const char *base)
{
	strbuf sb;
	size_t n;
	int ok;

	strbuf_init(&sb);
	strbuf_putc(&sb, '.');
	out_side_name(&sb, base);
	strbuf_puts(&sb, STAGE_INFIX);
	ok = strncmp(name, sb.data, sb.len) == 0;
	if (ok) {
		n = strspn(name + sb.len, "0123456789");
		ok = n > 0 && n < 20 && name[sb.len + n] == '\0';
	}
	strbuf_free(&sb);
	return ok;
}

/* Append path to sb with '%' and newline escaped (%25, %0A). */
static void
put_path(strbuf *sb, const char *path)
{
	for (const char *p = path; *p != '\0'; p++) {
		if (*p == '%')
			strbuf_puts(sb, "%25");
		else if (*p == '\n')
			strbuf_puts(sb, "%0A");
		else
			strbuf_putc(sb, *p);
	}
}

/* The text of j (see out_journal.h); the caller frees it. */
static char *
journal_text(const struct out_journal *j)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s\nstage %s\ntree %s\n", JOURNAL_HEAD, j->stage,
	    j->tree != NULL ? j->tree : "-");
	for (size_t i = 0; i < j->n_dels; i++) {
		strbuf_puts(&sb, "del ");
		put_path(&sb, j->dels[i]);
		strbuf_putc(&sb, '\n');
	}
	for (size_t i = 0; i < j->n_puts; i++) {
		strbuf_puts(&sb, j->puts[i].n == OUT_PUT_DIR ? "putdir " :
		    "put ");
		put_path(&sb, j->puts[i].path);
		strbuf_putc(&sb, '\n');
	}
	strbuf_puts(&sb, "end\n");
	return strbuf_detach(&sb);
}

int
out_journal_write(const struct out_place *at, int stage_fd,
    const struct out_journal *j, mirror_error *err)
{
	char *text = journal_text(j), *name = journal_name(at->base);
	size_t k = 0;
	int rc;

	rc = out_create_file(stage_fd, STAGED_JOURNAL, text, strlen(text),
	    OUT_SYNC);
	/* Every staged file reaches the disk before the journal that
	 * names it can be found. */
	if (rc == 0 && syncfs(stage_fd) < 0)
		rc = -errno;
	if (rc == 0 && renameat(stage_fd, STAGED_JOURNAL, at->parent_fd,
	    name) < 0)
		rc = -errno;
	if (rc == 0 && fsync(at->parent_fd) < 0) {
		rc = -errno;
		(void)unlinkat(at->parent_fd, name, 0);
	}
	if (rc < 0)
		rc = mirror_fail(err, MIRROR_EIO, "%s: cannot write the "
		    "journal %s beside it: %s", at->dir, name, strerror(-rc));
	else
		step_done(&k);
	free(text);
	free(name);
	return rc;
}

/* Rename from (in from_fd) to to (in to_fd), a file or a directory,
 * replacing what is in the way (never following a link). Returns 0 or
 * -errno. */
static int
rename_in(int from_fd, const char *from, int to_fd, const char *to)
{
	if (renameat(from_fd, from, to_fd, to) == 0)
		return 0;
	if (errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST &&
	    errno != ENOTDIR)
		return -errno;
	if (out_remove_tree(to_fd, to) < 0 ||
	    renameat(from_fd, from, to_fd, to) < 0)
		return -errno;
	return 0;
}

static int
cmp_desc(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* Remove the directories of up (the parents of removed files) that are
 * now empty, the deepest first. Best effort: one left is harmless. */
static void
remove_empty(struct out_dirs *d, struct out_set *up)
{
	const char *name;

	if (up->n > 1)
		qsort(up->v, up->n, sizeof(*up->v), cmp_desc);
	for (size_t i = 0; i < up->n; i++) {
		size_t dl = out_split_last(&name, up->v[i]);
		int fd = out_dirs_get(d, up->v[i], dl, 0);

		if (fd >= 0)
			(void)unlinkat(fd, name, AT_REMOVEDIR);
	}
}

/* One application of a journal j to DIR (dir as given, for errors):
 * DIR and the staging directory open, the stage's tree of staged files
 * (src, open while the puts are renamed) and the steps done so far. */
struct applying {
	const struct out_journal *j;
	int dir_fd;
	int stage_fd;
	struct out_dirs src;
	size_t k;                       /* the next step's number */
	const char *dir;
	mirror_error *err;
};

/* Remove a's dels from DIR, then the directories they leave empty. A
 * path already gone is done. Returns 0 or -MIRROR_EIO. */
static int
apply_dels(struct applying *a)
{
	const struct out_journal *j = a->j;
	struct out_dirs d;
	struct out_set up;
	const char *name;
	int rc = 0;

	out_dirs_init(&d, a->dir_fd);
	out_set_init(&up);
	for (size_t i = 0; rc == 0 && i < j->n_dels; i++) {
		const char *p = j->dels[i];
		size_t dl = out_split_last(&name, p);
		int fd = out_dirs_get(&d, p, dl, 0), e = -fd;

		if (fd >= 0)
			e = unlinkat(fd, name, 0) < 0 ? errno : 0;
		if (e != 0 && e != ENOENT && e != ENOTDIR && e != EISDIR)
			rc = mirror_fail(a->err, MIRROR_EIO, "%s/%s: cannot "
			    "remove: %s", a->dir, p, strerror(e));
		for (const char *s = p; (s = strchr(s, '/')) != NULL; s++)
			if (out_set_find(&up, p, (size_t)(s - p)) < 0)
				(void)out_set_add(&up, p, (size_t)(s - p), 0);
		step_done(&a->k);
	}
	if (rc == 0)
		remove_empty(&d, &up);
	out_set_free(&up);
	out_dirs_free(&d);
	return rc;
}

/*
 * Where the put pt's staged file or directory is now: its directory's
 * descriptor (a's stage_fd, or one of a's src) and *from its name there
 * (num: room for a journal 1 number). Returns the descriptor, or -errno
 * (-ENOENT: not there, moved by an earlier try).
 */
static int
put_source(const char **from, char *num, size_t numsz, struct applying *a,
    const struct out_put *pt)
{
	size_t dl;
	int n;

	if (pt->n >= 0) {
		n = snprintf(num, numsz, "%ld", pt->n);
		*from = num;
		return n < 0 || (size_t)n >= numsz ? -EOVERFLOW : a->stage_fd;
	}
	if (a->src.top < 0)
		return -ENOENT;
	dl = out_split_last(from, pt->path);
	return out_dirs_get(&a->src, pt->path, dl, 0);
}

/* Rename a's staged files and directories into DIR, each directory
 * made once. One already gone was renamed by an earlier try. Returns 0
 * or -MIRROR_EIO. */
static int
apply_puts(struct applying *a)
{
	const struct out_journal *j = a->j;
	const char *dir = a->dir;
	struct out_dirs d;
	const char *name, *from;
	char num[24];
	int rc = 0;

	out_dirs_init(&d, a->dir_fd);
	out_dirs_init(&a->src, openat(a->stage_fd, OUT_STAGED_SITE, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	for (size_t i = 0; rc == 0 && i < j->n_puts; i++) {
		const char *p = j->puts[i].path;
		size_t dl = out_split_last(&name, p);
		int fd = out_dirs_get(&d, p, dl, 1), sfd, e;

		if (fd < 0) {
			rc = mirror_fail(a->err, MIRROR_EIO, "%s/%.*s: cannot "
			    "make the directory: %s", dir, (int)dl, p,
			    strerror(-fd));
			break;
		}
		sfd = put_source(&from, num, sizeof(num), a, &j->puts[i]);
		/* Gone from the stage: an earlier try moved it. */
		e = sfd == -ENOENT || sfd == -ENOTDIR ? 0 : sfd < 0 ? sfd :
		    rename_in(sfd, from, fd, name);
		if (e < 0 && e != -ENOENT)
			rc = mirror_fail(a->err, MIRROR_EIO, "%s/%s: cannot "
			    "move into place: %s", dir, p, strerror(-e));
		step_done(&a->k);
	}
	out_dirs_free(&d);
	out_dirs_free(&a->src);
	if (a->src.top >= 0)
		close(a->src.top);
	return rc;
}

/* Open name (DIR, or the staging directory, what says which) in
 * parent_fd, made when missing: DIR by a first build, the stage again
 * when gone (its files were all moved), for the marker's new text.
 * Returns the descriptor or -MIRROR_EIO. */
static int
open_made(int parent_fd, const char *name, const char *what,
    const char *dir, mirror_error *err)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(parent_fd, name, flags);

	if (fd < 0 && errno == ENOENT && (mkdirat(parent_fd, name, 0755) == 0 ||
	    errno == EEXIST))
		fd = openat(parent_fd, name, flags);
	if (fd < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot open %s %s: %s",
		    dir, what, name, strerror(errno));
	return fd;
}

int
out_journal_apply(const struct out_place *at, const struct out_journal *j,
    mirror_error *err)
{
	const char *dir = at->dir;
	char *marker = out_marker_text(j->tree), *name;
	struct applying a = { .j = j, .dir_fd = -1, .k = 1, .dir = dir,
		.err = err };
	int rc, e;

	if ((rc = a.stage_fd = open_made(at->parent_fd, j->stage, "the staging "
	    "directory", dir, err)) >= 0 &&
	    (rc = a.dir_fd = open_made(at->parent_fd, at->base, "the output "
	    "directory", dir, err)) >= 0 &&
	    (rc = apply_dels(&a)) == 0 && (rc = apply_puts(&a)) == 0) {
		e = out_create_file(a.stage_fd, STAGED_MARKER, marker,
		    strlen(marker), 0);
		if (e == 0)
			e = rename_in(a.stage_fd, STAGED_MARKER, a.dir_fd,
			    OUT_MARKER);
		/* One syncfs for every rename, removal and directory. */
		if (e == 0 && syncfs(a.dir_fd) < 0)
			e = -errno;
		if (e < 0)
			rc = mirror_fail(err, MIRROR_EIO, "%s/%s: cannot write: "
			    "%s", dir, OUT_MARKER, strerror(-e));
		else
			step_done(&a.k);
	}
	if (a.dir_fd >= 0)
		close(a.dir_fd);
	if (a.stage_fd >= 0)
		close(a.stage_fd);
	if (rc == 0) {
		/* Done: a journal left by a failure here is applied again,
		 * to no effect. */
		name = journal_name(at->base);
		(void)unlinkat(at->parent_fd, name, 0);
		(void)out_remove_tree(at->parent_fd, j->stage);
		free(name);
	}
	free(marker);
	return rc < 0 ? rc : 0;
}

/* Undo put_path's escapes in s, in place. Returns 0, or -1 for a '%'
 * that is not %25 or %0A. */
static int
unescape(char *s)
{
	char *w = s;

	for (const char *r = s; *r != '\0'; r++) {
		if (*r != '%') {
			*w++ = *r;
		} else if (strncmp(r, "%25", 3) == 0 ||
		    strncmp(r, "%0A", 3) == 0) {
			*w++ = r[2] == '5' ? '%' : '\n';
			r += 2;
		} else {
			return -1;
		}
	}
	*w = '\0';
	return 0;
}

/* A put line of a journal 2 (NUL-terminated, no newline) into j.
 * Returns 0, or -1 when it is none. */
static int
parse_put2(struct out_journal *j, char *line)
{
	long n = strncmp(line, "putdir ", 7) == 0 ? OUT_PUT_DIR :
	    strncmp(line, "put ", 4) == 0 ? OUT_PUT_FILE : 0;
	char *path = line + (n == OUT_PUT_DIR ? 7 : 4);

	if (n == 0 || unescape(path) < 0 || !out_path_ok(path))
		return -1;
	ARRAY_RESERVE(j->puts, j->puts_cap, j->n_puts + 1);
	j->puts[j->n_puts].n = n;
	j->puts[j->n_puts++].path = path;
	return 0;
}

/* One line of a journal (NUL-terminated, no newline) into j. Returns 0,
 * or -1 when it is not a line the journal holds there (line: its
 * number, from 1). */
static int
parse_line(struct out_journal *j, char *line, size_t no, const char *base)
{
	char *end;
	long n;

	if (no == 1) {
		j->version = strcmp(line, JOURNAL_HEAD) == 0 ? 2 :
		    strcmp(line, JOURNAL_HEAD_1) == 0 ? 1 : 0;
		return j->version > 0 ? 0 : -1;
	}
	if (no == 2) {
		j->stage = line + 6;
		return strncmp(line, "stage ", 6) == 0 &&
		    stage_name_ok(j->stage, base) ? 0 : -1;
	}
	if (no == 3) {
		j->tree = strcmp(line, "tree -") == 0 ? NULL : line + 5;
		return strncmp(line, "tree ", 5) == 0 && (j->tree == NULL ||
		    out_tree_ok(j->tree)) ? 0 : -1;
	}
	if (strncmp(line, "del ", 4) == 0) {
		ARRAY_PUSH(j->dels, j->n_dels, j->dels_cap) = line + 4;
		return unescape(line + 4) == 0 && out_path_ok(line + 4) ? 0 : -1;
	}
	if (j->version == 2)
		return parse_put2(j, line);
	if (strncmp(line, "put ", 4) != 0 || line[4] < '0' || line[4] > '9')
		return -1;
	errno = 0;
	n = strtol(line + 4, &end, 10);
	if (errno != 0 || *end != ' ' || unescape(end + 1) < 0 ||
	    !out_path_ok(end + 1))
		return -1;
	ARRAY_RESERVE(j->puts, j->puts_cap, j->n_puts + 1);
	j->puts[j->n_puts].n = n;
	j->puts[j->n_puts++].path = end + 1;
	return 0;
}

/*
 * Read text (len bytes, NUL-terminated; j takes it over) into j.
 * Returns 1 when it is whole (ends with the line "end") and every line
 * is right; 0 when it is not whole (j->stage set if its line was read);
 * -1 when it is whole but a line is wrong (*bad: its number).
 */
static int
parse_journal(struct out_journal *j, char *text, size_t len,
    const char *base, size_t *bad)
{
	int whole = len >= 5 && strcmp(text + len - 5, "\nend\n") == 0 &&
	    strlen(text) == len;
	char *line = text, *nl;
	size_t no = 0;

	j->text = text;
	if (whole)
		text[len - 4] = '\0';   /* the end line is checked */
	while ((nl = strchr(line, '\n')) != NULL) {
		*nl = '\0';
		if (parse_line(j, line, ++no, base) < 0) {
			if (no == 2)
				j->stage = NULL;
			*bad = no;
			return whole ? -1 : 0;
		}
		line = nl + 1;
	}
	if (whole && no < 3)
		*bad = no + 1;
	return !whole ? 0 : no < 3 ? -1 : 1;
}

int
out_journal_recover(const struct out_place *at, mirror_error *err)
{
	const char *dir = at->dir;
	struct out_journal j;
	char *name = journal_name(at->base), *text;
	size_t len, bad = 0;
	int fd, rc;

	fd = openat(at->parent_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		free(name);
		return 0;
	}
	rc = fd < 0 ? -errno : out_read_fd(&text, &len, fd);
	if (fd >= 0)
		close(fd);
	out_journal_init(&j);
	if (rc < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: cannot read the journal "
		    "%s beside it (%s); it is not mirror's: remove it", dir,
		    name, rc == -EINVAL ? "not a regular file" :
		    strerror(-rc));
	} else if ((rc = parse_journal(&j, text, len, at->base, &bad)) < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: the journal %s beside "
		    "it is damaged (line %zu), so the site cannot be finished; "
		    "nothing was changed: remove %s and the journal, then "
		    "build again", dir, name, bad, dir);
	} else if (rc == 0) {
		/* Not whole: the killed build had not touched DIR yet. */
		(void)unlinkat(at->parent_fd, name, 0);
		if (j.stage != NULL)
			(void)out_remove_tree(at->parent_fd, j.stage);
	} else if ((rc = out_journal_apply(at, &j, err)) == 0) {
		rc = 1;
	}
	out_journal_free(&j);
	free(name);
	return rc;
}
