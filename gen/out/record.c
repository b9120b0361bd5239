/*
 * record.c: the digests of the inputs of every page (see record.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "out/out_fs.h"
#include "out/output.h"
#include "out/record.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A page of this build's record. */
struct new_page {
	char *path;
	char hex[DIGEST_HEX + 1];
};

struct page_record {
	char key[17];                   /* the stamp's inputs */
	char *text;                     /* the previous record */
	struct out_set prev;            /* its paths, each valued with the
	                                   offset of its digest in text */
	size_t *lines;                  /* offsets of its lines, in path
	                                   order */
	size_t n_lines;
	struct new_page *pages;
	size_t n, cap;
	pthread_mutex_t mu;             /* pages: pool threads put at once */
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
	out_set_free(&r->prev);
	out_set_init(&r->prev);
	free(r->lines);
	r->lines = NULL;
	r->n_lines = 0;
}

/*
 * Fill r->prev and r->lines from r->text. A record of another format,
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
		out_set_add(&r->prev, path, len, (long)(p - r->text));
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
	out_set_init(&r->prev);
	pthread_mutex_init(&r->mu, NULL);
	return r;
}

struct page_record *
record_load(const char *dir, int fresh)
{
	struct page_record *r = record_new(NULL);
	size_t len;
	int dfd = -1, fd = -1;

	/* Every component without following links, as output.c writes. */
	if (!fresh)
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (dfd >= 0)
		fd = out_open_beneath(dfd, RECORD_PATH, O_RDONLY |
		    O_NONBLOCK);
	if (fd >= 0 && out_read_fd(&r->text, &len, fd) < 0)
		r->text = NULL;
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (r->text != NULL)
		parse_prev(r);
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
	long i = out_set_find(&r->prev, path, strlen(path));

	if (i < 0)
		return 0;
	memcpy(hex, r->text + r->prev.val[i], DIGEST_HEX);
	hex[DIGEST_HEX] = '\0';
	return 1;
}

size_t
record_prev_under(const struct page_record *r, const char *prefix,
    void (*each)(void *arg, const char *path, size_t len,
    const char *hex), void *arg)
{
	size_t lo = 0, hi = r->n_lines, pl = strlen(prefix), n = 0;

	/* The first line whose path is not before prefix. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *path = r->text + r->lines[mid] + DIGEST_HEX + 1;

		if (strncmp(path, prefix, pl) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->n_lines; lo++) {
		const char *hex = r->text + r->lines[lo];
		const char *path = hex + DIGEST_HEX + 1;
		size_t len = (size_t)(strchr(path, '\n') - path);

		if (len < pl || memcmp(path, prefix, pl) != 0)
			break;
		if (len == pl)
			continue;       /* the prefix's own line */
		each(arg, path, len, hex);
		n++;
	}
	return n;
}

void
record_free(struct page_record *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->pages[i].path);
	free(r->pages);
	out_set_free(&r->prev);
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
	unsigned char buf[4096];
};

static void
feed_bytes(struct feeder *f, const void *p, size_t n)
{
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

/* Feed an input's head: its kind and its length. */
static void
feed_head(struct feeder *f, char kind, uint64_t len)
{
	unsigned char head[9];

	head[0] = (unsigned char)kind;
	for (int i = 0; i < 8; i++)
		head[1 + i] = (unsigned char)(len >> (8 * i));
	feed_bytes(f, head, sizeof(head));
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
		feed(f, '{', &n, sizeof(n));
		/* jansson's iterator takes a non-const object to read. */
		json_object_foreach((json_t *)(uintptr_t)v, k, x) {
			feed_str(f, 'k', k);
			feed_json(f, x);
		}
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		feed(f, '[', &n, sizeof(n));
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
record_digest_bytes(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const void *data, size_t len)
{
	struct feeder f;

	feed_start(&f, r, path);
	feed(&f, 'B', data, len);
	feed_end(hex, &f);
}

/* out_each_chunk's work for record_digest_fd: feed the chunk. */
static int
chunk_feed(void *arg, const void *p, size_t n)
{
	feed_bytes(arg, p, n);
	return 0;
}

int
record_digest_fd(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, int fd, size_t len)
{
	struct feeder f;
	int rc;

	feed_start(&f, r, path);
	feed_head(&f, 'B', len);        /* as record_digest_bytes's feed */
	if ((rc = out_each_chunk(fd, len, chunk_feed, &f)) < 0)
		return rc;
	feed_end(hex, &f);
	return 0;
}

int
record_same(const struct page_record *r, const char *path, const char *hex)
{
	long i = out_set_find(&r->prev, path, strlen(path));

	return i >= 0 && memcmp(r->text + r->prev.val[i], hex,
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
	return strcmp(((const struct new_page *)a)->path,
	    ((const struct new_page *)b)->path);
}

int
record_write(struct page_record *r, struct output *out, mirror_error *err)
{
	strbuf sb;
	int rc;

	if (r->n > 1)
		qsort(r->pages, r->n, sizeof(*r->pages), cmp_page);
	strbuf_init(&sb);
	strbuf_puts(&sb, RECORD_HEADER);
	for (size_t i = 0; i < r->n; i++)
		strbuf_printf(&sb, "%s\t%s\n", r->pages[i].hex,
		    r->pages[i].path);
	rc = output_write(out, RECORD_PATH, sb.data, sb.len, err);
	strbuf_free(&sb);
	return rc;
}
