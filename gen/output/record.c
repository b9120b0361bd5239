/*
 * record.c: the digests of the inputs of every page (see record.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "output/out_fs.h"
#include "output/output.h"
#include "output/record.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A page of this build's record. */
struct new_page {
	char *path;
	char hex[DIGEST_HEX + 1];
};

/* Lines [lo, hi) of the previous record, kept as they are in this one
 * (record_keep_under): a kept family's thousands of pages are one
 * entry, not one copy each. */
struct kept_run {
	size_t lo, hi;
};

struct page_record {
	char key[17];                   /* the stamp's inputs */
	char *text;                     /* the previous record */
	size_t *lines;                  /* offsets of its lines, in path
	                                   order (strictly: parse_prev), so
	                                   a path is found by bisection */
	size_t n_lines;
	struct new_page *pages;
	size_t n, cap;
	struct kept_run *runs;
	size_t n_runs, runs_cap;
	pthread_mutex_t mu;             /* pages and runs: pool threads put
	                                   at once */
};

/* Whether s is n lowercase hex digits. */
static int
is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return 1;
}

/* Forget the previous record: every page is rendered. */
static void
drop_prev(struct page_record *r)
{
	free(r->lines);
	r->lines = NULL;
	r->n_lines = 0;
}

/* The path of line i of r's previous record and its length. */
static const char *
line_path(const struct page_record *r, size_t i, size_t *len)
{
	const char *path = r->text + r->lines[i] + DIGEST_HEX + 1;

	*len = (size_t)(strchr(path, '\n') - path);
	return path;
}

/* Paths a (la bytes) and b (lb bytes) in record order: bytes, then a
 * prefix before what extends it (strcmp's order, which record_write
 * sorts by). < 0, 0 or > 0. */
static int
path_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	return c != 0 ? c : la < lb ? -1 : la > lb;
}

/* What lower_line looks for: see there. */
struct line_key {
	const struct page_record *r;
	const char *path;
	size_t len;
	int whole;
};

/* array_lower order of a line_key (key) and a line of its record (an
 * offset of r->lines): 1 while the line's path goes before the key's
 * (by path_cmp when whole, else by its first len bytes), 0 after. */
static int
cmp_line_key(const void *key, const void *e, const void *ctx)
{
	const struct line_key *k = key;
	size_t ml;
	const char *mp = line_path(k->r,
	    (size_t)((const size_t *)e - k->r->lines), &ml);
	int c = k->whole ? path_cmp(mp, ml, k->path, k->len) :
	    strncmp(mp, k->path, k->len);

	(void)ctx;
	return c < 0;           /* 0: at or past the key, where lo stops */
}

/* The first line of r's previous record whose path is not before path
 * (len bytes) when whole is 1, or does not start before it (a prefix's
 * first line below it) when whole is 0: n_lines when none. */
static size_t
lower_line(const struct page_record *r, const char *path, size_t len,
    int whole)
{
	struct line_key k = { r, path, len, whole };

	return array_lower(&k, r->lines, r->n_lines, sizeof(*r->lines),
	    cmp_line_key, NULL);
}

/* The line of path (len bytes) in r's previous record, or -1. */
static long
find_line(const struct page_record *r, const char *path, size_t len)
{
	size_t i = lower_line(r, path, len, 1), ml;
	const char *mp;

	if (i == r->n_lines)
		return -1;
	mp = line_path(r, i, &ml);
	return ml == len && memcmp(mp, path, len) == 0 ? (long)i : -1;
}

/*
 * Fill r->lines from r->text. A record of another format,
 * with a line that is not "digest TAB path", or out of path order (as
 * record_write writes it) is dropped whole: every page is then rendered.
 */
static void
parse_prev(struct page_record *r)
{
	size_t hl = strlen(RECORD_HEADER), cap = 0;
	const char *p = r->text, *nl, *last = NULL;
	size_t last_len = 0;

	if (strncmp(p, RECORD_HEADER, hl) != 0)
		return;
	for (p += hl; *p != '\0'; p = nl + 1) {
		const char *path = p + DIGEST_HEX + 1;
		size_t len;

		nl = strchr(p, '\n');
		if (nl == NULL || nl - p < DIGEST_HEX + 2 ||
		    p[DIGEST_HEX] != '\t' || !is_hex(p, DIGEST_HEX))
			goto doubtful;
		len = (size_t)(nl - path);
		if (last != NULL) {
			int c = memcmp(last, path, len < last_len ? len :
			    last_len);

			if (c > 0 || (c == 0 && last_len >= len))
				goto doubtful;
		}
		last = path;
		last_len = len;
		ARRAY_PUSH(r->lines, r->n_lines, cap) = (size_t)(p - r->text);
	}
	return;
doubtful:
	drop_prev(r);
}

/* A record with key, empty: nothing read yet. */
static struct page_record *
record_new(const char *key)
{
	struct page_record *r = xcalloc(1, sizeof(*r));

	record_set_key(r, key);
	pthread_mutex_init(&r->mu, NULL);
	return r;
}

/* The hash of path (len bytes) that names a part starting there. */
static uint64_t
path_hash(const char *path, size_t len)
{
	return hash_mix(hash_add(MIRROR_HASH_INIT, path, len));
}

void
record_part_name(char name[17], const char *path, size_t len)
{
	hash_hex(name, path_hash(path, len));
}

/* One part of the previous record as read: its text, and where its
 * lines start (after the header). */
struct part {
	char *text;
	const char *body;
};

/* qsort order of parts: by their first line's path. */
static int
cmp_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	const char *px = x->body + DIGEST_HEX + 1;
	const char *py = y->body + DIGEST_HEX + 1;
	size_t lx = strcspn(px, "\n"), ly = strcspn(py, "\n");

	return path_cmp(px, lx, py, ly);
}

/*
 * Read the parts of the previous record from the directory pfd (which
 * is closed) into *out and *n: every file named "<16 hex>.tsv", with
 * the header and at least one line whose path the name is the hash of.
 * Returns 0, or -1 when a part is unreadable or not such a part: the
 * record is then doubtful. Other names are not the record's.
 */
static int
parts_read(struct part **out, size_t *n, int pfd)
{
	const size_t hl = strlen(RECORD_HEADER);
	struct part *parts = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if ((d = fdopendir(pfd)) == NULL) {
		close(pfd);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		const char *name = de->d_name, *path;
		char want[17];
		size_t len;
		char *text = NULL;
		int fd;

		if (strlen(name) != 16 + strlen(RECORD_EXT) ||
		    !is_hex(name, 16) || strcmp(name + 16, RECORD_EXT) != 0)
			continue;
		fd = openat(dirfd(d), name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 || out_read_fd(&text, &len, fd) < 0 ||
		    strlen(text) != len || strncmp(text, RECORD_HEADER,
		    hl) != 0 || len < hl + DIGEST_HEX + 3)
			rc = -1;
		if (fd >= 0)
			close(fd);
		if (rc == 0) {
			path = text + hl + DIGEST_HEX + 1;
			record_part_name(want, path, strcspn(path, "\n"));
			if (memcmp(want, name, 16) != 0)
				rc = -1;
		}
		if (rc < 0) {
			free(text);
			break;
		}
		ARRAY_PUSH(parts, *n, cap) = (struct part){ text, text + hl };
	}
	closedir(d);
	*out = parts;
	return rc;
}

struct page_record *
record_load(const char *dir, int fresh)
{
	struct page_record *r = record_new(NULL);
	struct part *parts = NULL;
	size_t n = 0;
	int dfd = -1, pfd = -1, rc = -1;

	/* Every component without following links, as output.c writes. */
	if (!fresh)
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (dfd >= 0)
		pfd = out_open_beneath(dfd, RECORD_DIR, O_RDONLY |
		    O_DIRECTORY | O_NONBLOCK);
	if (dfd >= 0)
		close(dfd);
	if (pfd >= 0)
		rc = parts_read(&parts, &n, pfd);
	/* The parts in path order, one text behind one header: whether
	 * each line is a line and they come in strict path order across
	 * the parts is parse_prev's to judge. */
	if (rc == 0 && n > 0) {
		size_t len = strlen(RECORD_HEADER);
		strbuf sb;

		qsort(parts, n, sizeof(*parts), cmp_part);
		for (size_t i = 0; i < n; i++)
			len += strlen(parts[i].body);
		strbuf_init(&sb);
		strbuf_grow(&sb, len);
		strbuf_puts(&sb, RECORD_HEADER);
		for (size_t i = 0; i < n; i++)
			strbuf_puts(&sb, parts[i].body);
		r->text = strbuf_detach(&sb);
		parse_prev(r);
	}
	for (size_t i = 0; i < n; i++)
		free(parts[i].text);
	free(parts);
	return r;
}

int
record_has_lines(const struct page_record *r)
{
	return r != NULL && r->n_lines > 0;
}

const char *
record_key(const struct page_record *r)
{
	return r->key;
}

void
record_set_key(struct page_record *r, const char *key)
{
	if (key != NULL && strlen(key) < sizeof(r->key))
		memcpy(r->key, key, strlen(key) + 1);
}

int
record_prev(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path)
{
	long i = find_line(r, path, strlen(path));

	if (i < 0)
		return 0;
	memcpy(hex, r->text + r->lines[i], DIGEST_HEX);
	hex[DIGEST_HEX] = '\0';
	return 1;
}

/* The lines [*lo, *hi) of r's previous record below prefix (pl bytes),
 * the prefix's own line excluded: sorted, they are one run. */
static void
lines_under(size_t *lo, size_t *hi, const struct page_record *r,
    const char *prefix, size_t pl)
{
	size_t i = lower_line(r, prefix, pl, 0), len;

	if (i < r->n_lines && (line_path(r, i, &len), len == pl))
		i++;
	*lo = i;
	for (; i < r->n_lines; i++) {
		const char *path = line_path(r, i, &len);

		if (len <= pl || memcmp(path, prefix, pl) != 0)
			break;
	}
	*hi = i;
}

size_t
record_prev_under(const struct page_record *r, const char *prefix,
    void (*each)(void *arg, const char *path, size_t len,
    const char *hex), void *arg)
{
	size_t lo, hi, len;

	lines_under(&lo, &hi, r, prefix, strlen(prefix));
	for (size_t i = lo; i < hi; i++) {
		const char *path = line_path(r, i, &len);

		each(arg, path, len, r->text + r->lines[i]);
	}
	return hi - lo;
}

size_t
record_keep_under(struct page_record *r, const char *prefix)
{
	size_t lo, hi;

	lines_under(&lo, &hi, r, prefix, strlen(prefix));
	if (hi > lo) {
		pthread_mutex_lock(&r->mu);
		ARRAY_PUSH(r->runs, r->n_runs, r->runs_cap) =
		    (struct kept_run){ lo, hi };
		pthread_mutex_unlock(&r->mu);
	}
	return hi - lo;
}

void
record_free(struct page_record *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->pages[i].path);
	free(r->pages);
	free(r->runs);
	free(r->lines);
	free(r->text);
	pthread_mutex_destroy(&r->mu);
	free(r);
}

/*
 * A SHA-256 fed through a buffer: a page's data is thousands of short
 * values, and a call into the hash per value cost more than the hashing.
 */
struct feeder {
	struct sha256_ctx c;
	size_t n;                       /* bytes waiting in buf */
	unsigned long long total;       /* bytes fed in all */
	unsigned char buf[4096];
};

struct work_count record_hashed_bytes;

static void
feed_bytes(struct feeder *f, const void *p, size_t n)
{
	f->total += n;
	if (f->n + n > sizeof(f->buf)) {
		sha256_update(&f->c, f->n, f->buf);
		f->n = 0;
		if (n > sizeof(f->buf)) {
			sha256_update(&f->c, n, p);
			return;
		}
	}
	memcpy(f->buf + f->n, p, n);
	f->n += n;
}

/*
 * Feed an input's head: its kind, then its length seven bits a byte,
 * low first, the high bit on every byte but the last (one byte below
 * 128: most of a page's values are shorter than their head would be at
 * a fixed eight bytes, and the hash's cost is in the bytes). Each head
 * ends where its last byte says, so the inputs still parse one way.
 */
static void
feed_head(struct feeder *f, char kind, uint64_t len)
{
	unsigned char head[1 + 10];
	size_t n = 0;

	head[n++] = (unsigned char)kind;
	while (len >= 0x80) {
		head[n++] = (unsigned char)(len | 0x80);
		len >>= 7;
	}
	head[n++] = (unsigned char)len;
	feed_bytes(f, head, n);
}

/* Feed one input: its kind, its length, its bytes. */
static void
feed(struct feeder *f, char kind, const void *p, size_t n)
{
	feed_head(f, kind, n);
	if (n > 0)
		feed_bytes(f, p, n);
}

static void
feed_str(struct feeder *f, char kind, const char *s)
{
	feed(f, kind, s, s != NULL ? strlen(s) : 0);
}

/* Feed a JSON value, each container with its size, depth first. */
static void
feed_json(struct feeder *f, const json_t *v)
{
	const char *k;
	json_t *x;
	json_int_t i;
	double d;
	size_t n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		n = json_object_size(v);
		feed_head(f, '{', n);
		/* jansson's iterator takes a non-const object to read. */
		json_object_foreach((json_t *)(uintptr_t)v, k, x) {
			feed_str(f, 'k', k);
			feed_json(f, x);
		}
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		feed_head(f, '[', n);
		for (size_t j = 0; j < n; j++)
			feed_json(f, json_array_get(v, j));
		break;
	case JSON_STRING:
		feed(f, 's', json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		i = json_integer_value(v);
		feed(f, 'i', &i, sizeof(i));
		break;
	case JSON_REAL:
		d = json_real_value(v);
		feed(f, 'r', &d, sizeof(d));
		break;
	case JSON_TRUE:
		feed(f, 't', NULL, 0);
		break;
	case JSON_FALSE:
		feed(f, 'f', NULL, 0);
		break;
	default:
		feed(f, 'n', NULL, 0);
		break;
	}
}

/* A feeder started with r's key and path. */
static void
feed_start(struct feeder *f, const struct page_record *r, const char *path)
{
	sha256_init(&f->c);
	f->n = 0;
	f->total = 0;
	feed_str(f, 'K', r->key);
	feed_str(f, 'P', path);
}

/* End f: its digest as DIGEST_HEX hex digits into hex. */
static void
feed_end(char hex[DIGEST_HEX + 1], struct feeder *f)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char sum[SHA256_DIGEST_SIZE];

	sha256_update(&f->c, f->n, f->buf);
	sha256_digest(&f->c, sizeof(sum), sum);
	work_add(&record_hashed_bytes, f->total);
	for (int i = 0; i < DIGEST_HEX / 2; i++) {
		hex[2 * i] = digits[sum[i] >> 4];
		hex[2 * i + 1] = digits[sum[i] & 15];
	}
	hex[DIGEST_HEX] = '\0';
}

void
record_digest(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const char *tname, const char *title,
    const json_t *data)
{
	struct feeder f;

	feed_start(&f, r, path);
	feed_str(&f, 'T', tname);
	feed_str(&f, 'H', title);
	if (data != NULL)
		feed_json(&f, data);
	feed_end(hex, &f);
}

void
record_digest_from(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const char *from)
{
	struct feeder f;

	feed_start(&f, r, path);
	feed(&f, 'D', from, strlen(from));
	feed_end(hex, &f);
}

void
record_digest_bytes(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const void *data, size_t len)
{
	struct feeder f;

	feed_start(&f, r, path);
	feed(&f, 'B', data, len);
	feed_end(hex, &f);
}

int
record_same(const struct page_record *r, const char *path, const char *hex)
{
	long i = find_line(r, path, strlen(path));

	return i >= 0 && memcmp(r->text + r->lines[i], hex,
	    DIGEST_HEX) == 0;
}

void
record_put(struct page_record *r, const char *path, const char *hex)
{
	struct new_page *p;

	pthread_mutex_lock(&r->mu);
	p = &ARRAY_PUSH(r->pages, r->n, r->cap);
	p->path = xstrdup(path);
	memcpy(p->hex, hex, DIGEST_HEX + 1);
	pthread_mutex_unlock(&r->mu);
}

static int
cmp_page(const void *a, const void *b)
{
	const struct new_page *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	/* A path put twice: the same digest written whichever thread put
	 * it first (record_write keeps the first of a path). */
	return c != 0 ? c : strcmp(x->hex, y->hex);
}

static int
cmp_run(const void *a, const void *b)
{
	const struct kept_run *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Add the line of the page at path (len bytes, its digest hex) to sb
 * unless it repeats the path of sb's last line, the one last added (a
 * page put twice, or kept and put: the first stays, the smaller digest
 * of a page put twice, the one put of a page put and kept). A line is
 * DIGEST_HEX digits, a tab, a path with no newline, a newline. */
static void
put_line(strbuf *sb, const char *hex, const char *path, size_t len)
{
	size_t n = DIGEST_HEX + 1 + len + 1;
	const char *line = sb->len >= n ? sb->data + sb->len - n : NULL;

	if (line != NULL && (line == sb->data || line[-1] == '\n') &&
	    line[DIGEST_HEX] == '\t' && memcmp(line + DIGEST_HEX + 1, path,
	    len) == 0)
		return;
	strbuf_add(sb, hex, DIGEST_HEX);
	strbuf_add(sb, "\t", 1);
	strbuf_add(sb, path, len);
	strbuf_add(sb, "\n", 1);
}

/* The bytes of the lines of the pages put in r. */
static size_t
record_pages_bytes(const struct page_record *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += DIGEST_HEX + 2 + strlen(r->pages[i].path);
	return n;
}

/* 1 when h is among the n names at used. */
static int
hash_used(const uint64_t *used, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		if (used[i] == h)
			return 1;
	return 0;
}

/* Write part text (len bytes of whole lines) behind the header as
 * RECORD_DIR/<hex of h>RECORD_EXT into out. Returns 0 or < 0 with err
 * set. */
static int
part_write(struct output *out, uint64_t h, const char *text, size_t len,
    mirror_error *err)
{
	char name[17], path[64];
	strbuf sb;
	int rc, n;

	hash_hex(name, h);
	n = snprintf(path, sizeof(path), "%s/%s%s", RECORD_DIR, name,
	    RECORD_EXT);
	if (n < 0 || (size_t)n >= sizeof(path))
		return mirror_fail(err, MIRROR_EIO, "record: part name too "
		    "long");
	strbuf_init(&sb);
	strbuf_grow(&sb, strlen(RECORD_HEADER) + len);
	strbuf_puts(&sb, RECORD_HEADER);
	strbuf_add(&sb, text, len);
	rc = output_write(out, path, sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}

/*
 * Write the record's lines (text, len bytes, in path order) as parts:
 * a part starts at the first line and at each line whose path's hash
 * mixed once more has its low RECORD_CUT_BITS bits 0 (unless an
 * earlier part has that name), and is named by the hash of its first
 * path (not mixed again: names that do not all end in zeros). The
 * cuts depend on those paths alone, so a page added, changed or gone
 * rewrites the one part around it (two when it starts one) and the
 * others keep their bytes, names and blobs. Returns 0 or < 0 with err
 * set.
 */
static int
parts_write(struct output *out, const char *text, size_t len,
    mirror_error *err)
{
	const char *start = text, *p = text, *end = text + len;
	uint64_t *used = NULL;          /* the parts' names; the last open */
	size_t n_used = 0, cap = 0;
	int rc = 0;

	while (rc == 0 && p < end) {
		const char *path = p + DIGEST_HEX + 1;
		const char *nl = memchr(path, '\n', (size_t)(end - path));
		uint64_t h = path_hash(path, (size_t)(nl - path));

		if (p == text)
			ARRAY_PUSH(used, n_used, cap) = h;
		else if ((hash_mix(h) & RECORD_CUT_MASK) == 0 &&
		    !hash_used(used, n_used, h)) {
			rc = part_write(out, used[n_used - 1], start,
			    (size_t)(p - start), err);
			ARRAY_PUSH(used, n_used, cap) = h;
			start = p;
		}
		p = nl + 1;
	}
	if (rc == 0 && p > start)
		rc = part_write(out, used[n_used - 1], start,
		    (size_t)(p - start), err);
	free(used);
	return rc;
}

int
record_write(struct page_record *r, struct output *out, mirror_error *err)
{
	size_t i = 0, k = 0, line;
	strbuf sb;
	int rc;

	/* The pages sorted, the kept runs in line order (the previous
	 * record's path order): one merge of the two. */
	if (r->n > 1)
		qsort(r->pages, r->n, sizeof(*r->pages), cmp_page);
	if (r->n_runs > 1)
		qsort(r->runs, r->n_runs, sizeof(*r->runs), cmp_run);
	/* Room for all of it at once: a big site's record runs to
	 * megabytes, and grown by doubling its pages were faulted in one
	 * by one. */
	strbuf_init(&sb);
	strbuf_grow(&sb, (r->text != NULL ? strlen(r->text) : 0) +
	    record_pages_bytes(r));
	xprefault(sb.data, sb.cap);
	line = r->n_runs > 0 ? r->runs[0].lo : 0;
	while (i < r->n || k < r->n_runs) {
		size_t pl = i < r->n ? strlen(r->pages[i].path) : 0, ll = 0;
		const char *lp = k < r->n_runs ? line_path(r, line, &ll) : NULL;

		if (lp == NULL || (i < r->n && path_cmp(r->pages[i].path, pl,
		    lp, ll) <= 0)) {
			put_line(&sb, r->pages[i].hex, r->pages[i].path, pl);
			i++;
			continue;
		}
		put_line(&sb, r->text + r->lines[line], lp, ll);
		/* Runs may overlap (two kept folders, one inside the
		 * other): each line once, in order. */
		line++;
		while (k < r->n_runs && line >= r->runs[k].hi)
			if (++k < r->n_runs && r->runs[k].lo > line)
				line = r->runs[k].lo;
	}
	rc = parts_write(out, sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}
