/*
 * record.c: the digests of the inputs of every page (see record.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Fill r->prev from r->text. A record of another format, or with a line
 * that is not "digest TAB path", is dropped whole: every page is then
 * rendered.
 */
static void
parse_prev(struct page_record *r)
{
	size_t hl = strlen(RECORD_HEADER);
	const char *p = r->text, *nl;

	if (strncmp(p, RECORD_HEADER, hl) != 0)
		return;
	for (p += hl; *p != '\0'; p = nl + 1) {
		const char *path = p + DIGEST_HEX + 1;

		nl = strchr(p, '\n');
		if (nl == NULL || nl - p < DIGEST_HEX + 2 ||
		    p[DIGEST_HEX] != '\t' || !is_hex(p, DIGEST_HEX)) {
			out_set_free(&r->prev);
			out_set_init(&r->prev);
			return;
		}
		if (out_set_find(&r->prev, path, (size_t)(nl - path)) < 0)
			out_set_add(&r->prev, path, (size_t)(nl - path),
			    (long)(p - r->text));
	}
}

int
record_open(struct page_record **rec, struct output *out, const char *key,
    int fresh, mirror_error *err)
{
	struct page_record *r = xcalloc(1, sizeof(*r));
	size_t len;
	int rc = 0;

	if (key != NULL && strlen(key) < sizeof(r->key))
		memcpy(r->key, key, strlen(key) + 1);
	out_set_init(&r->prev);
	pthread_mutex_init(&r->mu, NULL);
	if (out != NULL && !fresh)
		rc = output_read_prev(&r->text, &len, out, RECORD_PATH, err);
	if (rc < 0) {
		record_free(r);
		*rec = NULL;
		return rc;
	}
	if (r->text != NULL)
		parse_prev(r);
	*rec = r;
	return 0;
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

/* Feed one input: its kind, its length, its bytes. */
static void
feed(struct feeder *f, char kind, const void *p, size_t n)
{
	unsigned char head[9];
	uint64_t len = n;

	head[0] = (unsigned char)kind;
	for (int i = 0; i < 8; i++)
		head[1 + i] = (unsigned char)(len >> (8 * i));
	feed_bytes(f, head, sizeof(head));
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

void
record_digest(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const char *tname, const char *title,
    const json_t *data)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char sum[SHA256_DIGEST_SIZE];
	struct feeder f;

	sha256_init(&f.c);
	f.n = 0;
	feed_str(&f, 'K', r->key);
	feed_str(&f, 'P', path);
	feed_str(&f, 'T', tname);
	feed_str(&f, 'H', title);
	if (data != NULL)
		feed_json(&f, data);
	sha256_update(&f.c, f.n, f.buf);
	sha256_digest(&f.c, sizeof(sum), sum);
	for (int i = 0; i < DIGEST_HEX / 2; i++) {
		hex[2 * i] = digits[sum[i] >> 4];
		hex[2 * i + 1] = digits[sum[i] & 15];
	}
	hex[DIGEST_HEX] = '\0';
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
