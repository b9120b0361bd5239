/*
 * git_pack.c: pack (v2) and index (v2) writer, without deltas.
 *
 * Pack: "PACK", version 2, object count (all big-endian 32-bit), then
 * per object a type-and-size header (4 bits of size, then 7 per byte)
 * and the zlib stream of its content (ISA-L's igzip: level 1, or level
 * 0 with one fixed code below MGIT_PACK_SMALL bytes); last the SHA-1 of
 * all before.
 * Index: magic, version 2, a 256-entry fan-out of counts by first byte,
 * the sorted ids, their CRC-32s, their 31-bit offsets (with a table of
 * 64-bit ones for packs past 2 GiB), the pack's SHA-1, its own SHA-1.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <nettle/sha1.h>

#include "git/git_pack.h"
#include "git/git_pack_code.h"
#include "sys/jobs.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Write to the pack (hashed by mgit_pack_finish). */
static int
pack_out(struct mgit_pack *pk, const void *p, size_t n)
{
	if (fwrite(p, 1, n, pk->fp) != n)
		return -1;
	pk->offset += n;
	return 0;
}

/* A temporary file in dir, opened for writing. Caller frees *path. */
static FILE *
tmp_file(char **path, const char *dir, const char *stem)
{
	strbuf sb;
	FILE *fp;
	int fd;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/%s_XXXXXX", dir, stem);
	*path = strbuf_detach(&sb);
	strbuf_free(&sb);
	fd = mkstemp(*path);
	if (fd < 0) {
		free(*path);
		*path = NULL;
		return NULL;
	}
	fp = fdopen(fd, "wb");
	if (fp == NULL) {
		int saved = errno;

		close(fd);
		unlink(*path);
		free(*path);
		*path = NULL;
		errno = saved;
	}
	return fp;
}

/* Flush, sync and close fp, read-only like every git pack file. */
static int
close_synced(FILE *fp)
{
	int rc = 0;

	if (fflush(fp) != 0 || fchmod(fileno(fp), 0444) != 0 ||
	    fsync(fileno(fp)) != 0)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}

int
mgit_pack_begin(struct mgit_pack *pk, const char *objects_dir,
    mirror_error *err)
{
	unsigned char hdr[12];
	size_t n = strlen(objects_dir);

	memset(pk, 0, sizeof(*pk));
	while (n > 1 && objects_dir[n - 1] == '/')
		n--;
	pk->dir = xmalloc(n + sizeof("/pack"));
	memcpy(pk->dir, objects_dir, n);
	memcpy(pk->dir + n, "/pack", sizeof("/pack"));
	if (mkdir(pk->dir, 0777) != 0 && errno != EEXIST)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", pk->dir,
		    strerror(errno));
	pk->fp = tmp_file(&pk->tmp_pack, pk->dir, "tmp_pack");
	if (pk->fp == NULL)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot create a pack "
		    "file: %s", pk->dir, strerror(errno));
	pk->z = mgit_deflater_new();
	memcpy(hdr, "PACK", 4);
	put32(hdr + 4, 2);
	put32(hdr + 8, 0);          /* the count, once known */
	if (pack_out(pk, hdr, sizeof(hdr)) < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", pk->tmp_pack,
		    strerror(errno));
	return 0;
}

/* The entry header of an object: type and size, 7 bits a byte. */
static size_t
entry_header(unsigned char hdr[16], git_object_t type, uint64_t size)
{
	size_t nh = 0;

	hdr[nh++] = (unsigned char)(((unsigned)type << 4) | (size & 0x0f));
	size >>= 4;
	while (size != 0) {
		hdr[nh - 1] |= 0x80;
		hdr[nh++] = (unsigned char)(size & 0x7f);
		size >>= 7;
	}
	return nh;
}

/* Refuse what cannot be an entry. Returns 0 or -MIRROR_EIO. */
static int
check_object(struct mgit_pack *pk, git_object_t type, size_t len,
    mirror_error *err)
{
	if (pk->n >= UINT32_MAX)
		return mirror_fail(err, MIRROR_EIO, "%s: too many objects for "
		    "one pack", pk->tmp_pack);
	if (type < GIT_OBJECT_COMMIT || type > GIT_OBJECT_TAG)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot pack an object "
		    "of type %d", pk->tmp_pack, (int)type);
	if (len > UINT32_MAX)
		return mirror_fail(err, MIRROR_EIO, "cannot compress an "
		    "object of %zu bytes", len);
	return 0;
}

/*
 * The Huffman code of small objects. igzip's level 1 fits a code to
 * each stream, which is most of its cost on a small page; its level 0
 * takes a code given once. Fitted to the example's pages (the counts of
 * git_pack_code.h), it compresses the small files of a site a little
 * less tightly than level 1 at a fraction of its CPU. It depends on
 * nothing but those counts, so a pack's bytes stay a function of its
 * objects. small_ok is 0 only if ISA-L refused the code: level 1 then.
 */
static struct isal_hufftables small_code;
static int small_ok;
static pthread_once_t small_once = PTHREAD_ONCE_INIT;

static void
small_code_make(void)
{
	struct isal_huff_histogram *h = xcalloc(1, sizeof(*h));

	memcpy(h->lit_len_histogram, pack_code_lit_len,
	    sizeof(pack_code_lit_len));
	memcpy(h->dist_histogram, pack_code_dist, sizeof(pack_code_dist));
	small_ok = isal_create_hufftables(&small_code, h) == 0;
	free(h);
}

/* igzip's state for one stream, and its level 1's buffer (the hash
 * table and the tokens of a block: the larger it is, the fewer blocks
 * and the faster; ISA-L's default size). */
struct mgit_deflater {
	struct isal_zstream s;
	unsigned char level_buf[ISAL_DEF_LVL1_DEFAULT];
};

struct mgit_deflater *
mgit_deflater_new(void)
{
	return xmalloc(sizeof(struct mgit_deflater));
}

void
mgit_deflater_free(struct mgit_deflater *z)
{
	free(z);
}

/* Room for len bytes as a stream: the header and the checksum, then
 * every byte in stored blocks (5 bytes of header a block of at most
 * 64 KiB) when nothing compresses, which is what igzip falls back to. */
static size_t
stream_bound(size_t len)
{
	return len + (len / 65535 + 1) * 5 + 64;
}

int
mgit_pack_compress(unsigned char **buf, size_t *cap, size_t *out,
    struct mgit_deflater *z, const void *data, size_t len)
{
	size_t bound = stream_bound(len);

	if (bound > UINT32_MAX)      /* igzip counts in 32 bits */
		return -1;
	if (bound > *cap) {
		free(*buf);
		*buf = xmalloc(*cap = bound);
	}
	(void)pthread_once(&small_once, small_code_make);
	/* One call: the whole object is in memory, the bound fits it. */
	isal_deflate_stateless_init(&z->s);
	if (len < MGIT_PACK_SMALL && small_ok) {
		z->s.level = 0;
		if (isal_deflate_set_hufftables(&z->s, &small_code,
		    IGZIP_HUFFTABLE_CUSTOM) != COMP_OK)
			return -1;
	} else {
		z->s.level = 1;
		z->s.level_buf = z->level_buf;
		z->s.level_buf_size = sizeof(z->level_buf);
	}
	z->s.gzip_flag = IGZIP_ZLIB;
	z->s.end_of_stream = 1;
	z->s.flush = NO_FLUSH;
	/* igzip reads next_in only; its field is not const. */
	z->s.next_in = (uint8_t *)(uintptr_t)data;
	z->s.avail_in = (uint32_t)len;
	z->s.next_out = *buf;
	z->s.avail_out = (uint32_t)bound;
	if (isal_deflate_stateless(&z->s) != COMP_OK || z->s.avail_in != 0)
		return -1;
	*out = z->s.total_out;
	return 0;
}

int
mgit_pack_inflate(void *out, size_t len, const unsigned char *z,
    size_t zlen)
{
	struct inflate_state *st;
	int ok;

	if (len > UINT32_MAX || zlen > UINT32_MAX)
		return -1;
	st = xmalloc(sizeof(*st));
	isal_inflate_init(st);
	st->crc_flag = ISAL_ZLIB;       /* the header, and Adler-32 checked */
	st->next_in = (uint8_t *)(uintptr_t)z;
	st->avail_in = (uint32_t)zlen;
	st->next_out = out;
	st->avail_out = (uint32_t)len;
	ok = isal_inflate_stateless(st) == ISAL_DECOMP_OK &&
	    st->total_out == len && st->avail_in == 0;
	free(st);
	return ok ? 0 : -1;
}

uint32_t
mgit_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* ISA-L's length is 64 bits; its gzip CRC is zlib's crc32. */
	return crc32_gzip_refl(crc, p, len);
}

/* Append o's entry: its header, then zdata, zlen compressed bytes (o->z
 * and o->data unused). Returns 0 or -MIRROR_EIO. */
static int
write_entry(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    const unsigned char *zdata, size_t zlen, mirror_error *err)
{
	unsigned char hdr[16];
	struct mgit_pack_entry *e = &ARRAY_PUSH(pk->entries, pk->n, pk->cap);
	size_t nh = entry_header(hdr, o->type, o->len);

	git_oid_cpy(&e->oid, &o->oid);
	e->offset = pk->offset;
	e->crc = mgit_crc32(mgit_crc32(0, hdr, nh), zdata, zlen);
	if (pack_out(pk, hdr, nh) < 0 || pack_out(pk, zdata, zlen) < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", pk->tmp_pack,
		    strerror(errno));
	return 0;
}

int
mgit_pack_add(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    mirror_error *err)
{
	size_t zlen;
	int rc;

	if ((rc = check_object(pk, o->type, o->len, err)) < 0)
		return rc;
	if (mgit_pack_compress(&pk->zbuf, &pk->zcap, &zlen, pk->z, o->data,
	    o->len) < 0)
		return mirror_fail(err, MIRROR_EIO, "igzip: cannot "
		    "compress an object of %zu bytes", o->len);
	return write_entry(pk, o, pk->zbuf, zlen, err);
}

int
mgit_pack_add_z(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    mirror_error *err)
{
	int rc;

	if ((rc = check_object(pk, o->type, o->len, err)) < 0)
		return rc;
	return write_entry(pk, o, o->z, o->zlen, err);
}

/* One object of objs as mgit_pack_add or mgit_pack_add_z. */
static int
add_obj(struct mgit_pack *pk, const struct mgit_pack_obj *o,
    mirror_error *err)
{
	if (o->z != NULL)
		return mgit_pack_add_z(pk, o, err);
	return mgit_pack_add(pk, o, err);
}

/* One thread's share of mgit_pack_add_many: every jobs-th object. */
struct zwork {
	const struct mgit_pack_obj *objs;
	size_t n, first, step;
	unsigned char **out;       /* compressed bytes per object */
	size_t *outlen;
	int failed;
};

static void *
compress_share(void *arg)
{
	struct zwork *w = arg;
	unsigned char *buf = NULL;
	size_t cap = 0;
	struct mgit_deflater *c;

	c = mgit_deflater_new();
	/* Into one buffer of the bound, each result then copied to its
	 * size: a batch holds its compressed bytes, not a bound per
	 * object (about the batch's raw size again). */
	for (size_t i = w->first; i < w->n && !w->failed; i += w->step) {
		if (w->objs[i].z != NULL)
			continue;        /* compressed already */
		if (mgit_pack_compress(&buf, &cap, &w->outlen[i], c,
		    w->objs[i].data, w->objs[i].len) < 0) {
			w->failed = 1;
			break;
		}
		w->out[i] = xmalloc(w->outlen[i] + 1);
		memcpy(w->out[i], buf, w->outlen[i]);
	}
	free(buf);
	mgit_deflater_free(c);
	return NULL;
}

int
mgit_pack_add_many(struct mgit_pack *pk, const struct mgit_pack_obj *objs,
    size_t n, int jobs, mirror_error *err)
{
	unsigned char **out;
	size_t *outlen;
	struct zwork *w;
	pthread_t *tid;
	int *started, rc = 0;
	size_t raw = 0;

	for (size_t i = 0; i < n; i++)
		raw += objs[i].z == NULL;
	if (jobs > (int)raw)
		jobs = (int)raw;
	if (jobs <= 1) {
		for (size_t i = 0; i < n && rc == 0; i++)
			rc = add_obj(pk, &objs[i], err);
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		if ((rc = check_object(pk, objs[i].type, objs[i].len,
		    err)) < 0)
			return rc;
	out = xcalloc(n, sizeof(*out));
	outlen = xcalloc(n, sizeof(*outlen));
	w = xcalloc((size_t)jobs, sizeof(*w));
	tid = xcalloc((size_t)jobs, sizeof(*tid));
	started = xcalloc((size_t)jobs, sizeof(*started));
	for (int t = 0; t < jobs; t++) {
		w[t] = (struct zwork){ .objs = objs, .n = n,
		    .first = (size_t)t, .step = (size_t)jobs, .out = out,
		    .outlen = outlen, .failed = 0 };
		started[t] = jobs_thread_start(&tid[t], "git-compress",
		    compress_share, &w[t]) == 0;
		if (!started[t])
			compress_share(&w[t]);    /* no thread: do it here */
	}
	for (int t = 0; t < jobs; t++) {
		if (started[t])
			pthread_join(tid[t], NULL);
		if (w[t].failed && rc == 0)
			rc = mirror_fail(err, MIRROR_EIO, "igzip: "
			    "cannot compress an object");
	}
	/* Written in the given order: the pack is the sequential one. */
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct mgit_pack_obj *o = &objs[i];

		rc = write_entry(pk, o, o->z != NULL ? o->z : out[i],
		    o->z != NULL ? o->zlen : outlen[i], err);
	}
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);
	free(outlen);
	free(w);
	free(tid);
	free(started);
	return rc;
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct mgit_pack_entry *x = a, *y = b;

	return git_oid_cmp(&x->oid, &y->oid);
}

/* The index after its sort: fan-out, ids, CRCs, offsets, checksums. */
static int
write_sorted(FILE *fp, const struct mgit_pack_entry *e, size_t n,
    const unsigned char pack_sum[20])
{
	struct sha1_ctx sha;
	unsigned char b[8], digest[SHA1_DIGEST_SIZE];
	uint32_t fan[256];
	size_t nlarge = 0;

	memset(fan, 0, sizeof(fan));
	for (size_t i = 0; i < n; i++)
		fan[e[i].oid.id[0]]++;
	for (int i = 1; i < 256; i++)
		fan[i] += fan[i - 1];
	sha1_init(&sha);
#define OUT(p, len) do { \
	if (fwrite((p), 1, (len), fp) != (len)) \
		return -1; \
	sha1_update(&sha, (len), (const uint8_t *)(p)); \
} while (0)
	OUT("\377tOc", 4);
	put32(b, 2);
	OUT(b, 4);
	for (int i = 0; i < 256; i++) {
		put32(b, fan[i]);
		OUT(b, 4);
	}
	for (size_t i = 0; i < n; i++)
		OUT(e[i].oid.id, GIT_OID_RAWSZ);
	for (size_t i = 0; i < n; i++) {
		put32(b, e[i].crc);
		OUT(b, 4);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t off = e[i].offset;

		put32(b, off < 0x80000000u ? (uint32_t)off :
		    0x80000000u | (uint32_t)nlarge++);
		OUT(b, 4);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t off = e[i].offset;

		if (off < 0x80000000u)
			continue;
		put32(b, (uint32_t)(off >> 32));
		put32(b + 4, (uint32_t)off);
		OUT(b, 8);
	}
	OUT(pack_sum, 20);
#undef OUT
	sha1_digest(&sha, sizeof(digest), digest);
	return fwrite(digest, 1, sizeof(digest), fp) == sizeof(digest) ? 0 :
	    -1;
}

int
mgit_pack_write_index(FILE *fp, const char *path,
    struct mgit_pack_entry *entries, size_t n,
    const unsigned char pack_sum[20], mirror_error *err)
{
	if (n > UINT32_MAX)
		return mirror_fail(err, MIRROR_EIO, "%s: too many objects for "
		    "one pack", path);
	qsort(entries, n, sizeof(*entries), cmp_entry);
	for (size_t i = 1; i < n; i++)
		if (git_oid_equal(&entries[i - 1].oid, &entries[i].oid))
			return mirror_fail(err, MIRROR_EIO, "%s: an object was "
			    "added twice", path);
	if (write_sorted(fp, entries, n, pack_sum) < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", path,
		    strerror(errno));
	return 0;
}

/*
 * The object count into the header, then the SHA-1 of the whole pack
 * so far, read back, into sum. Returns 0, or -1 with errno set.
 */
static int
seal(unsigned char sum[SHA1_DIGEST_SIZE], struct mgit_pack *pk)
{
	enum { CHUNK = 1 << 20 };
	unsigned char count[4], *buf;
	struct sha1_ctx sha;
	uint64_t at = 0;
	int fd = fileno(pk->fp), saved;

	put32(count, (uint32_t)pk->n);
	if (fflush(pk->fp) != 0 || pwrite(fd, count, 4, 8) != 4)
		return -1;
	buf = xmalloc(CHUNK);
	sha1_init(&sha);
	while (at < pk->offset) {
		size_t want = pk->offset - at < CHUNK ?
		    (size_t)(pk->offset - at) : CHUNK;
		ssize_t got = pread(fd, buf, want, (off_t)at);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			saved = got < 0 ? errno : EIO;
			free(buf);
			errno = saved;
			return -1;
		}
		sha1_update(&sha, (size_t)got, buf);
		at += (uint64_t)got;
	}
	free(buf);
	sha1_digest(&sha, SHA1_DIGEST_SIZE, sum);
	return 0;
}

int
mgit_pack_finish(struct mgit_pack *pk, mirror_error *err)
{
	unsigned char sum[SHA1_DIGEST_SIZE];
	char *tmp_idx = NULL;
	strbuf final_pack, final_idx;
	FILE *fp;
	git_oid name;
	int rc = 0;

	if (seal(sum, pk) < 0 ||
	    fwrite(sum, 1, sizeof(sum), pk->fp) != sizeof(sum))
		return mirror_fail(err, MIRROR_EIO, "%s: %s", pk->tmp_pack,
		    strerror(errno));
	fp = pk->fp;
	pk->fp = NULL;
	if (close_synced(fp) < 0)
		return mirror_fail(err, MIRROR_EIO, "%s: %s", pk->tmp_pack,
		    strerror(errno));

	fp = tmp_file(&tmp_idx, pk->dir, "tmp_idx");
	if (fp == NULL)
		return mirror_fail(err, MIRROR_EIO, "%s: cannot create an "
		    "index file: %s", pk->dir, strerror(errno));
	if ((rc = mgit_pack_write_index(fp, tmp_idx, pk->entries, pk->n, sum,
	    err)) < 0) {
		fclose(fp);
	} else if (close_synced(fp) < 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", tmp_idx,
		    strerror(errno));
	}
	if (rc < 0) {
		unlink(tmp_idx);
		free(tmp_idx);
		return rc;
	}

	/* git names a pack by its checksum. */
	git_oid_fromraw(&name, sum);
	git_oid_tostr(pk->name, sizeof(pk->name), &name);
	strbuf_init(&final_pack);
	strbuf_init(&final_idx);
	strbuf_printf(&final_pack, "%s/pack-%s.pack", pk->dir, pk->name);
	strbuf_printf(&final_idx, "%s/pack-%s.idx", pk->dir, pk->name);
	/* The index last: without it the pack is invisible to readers. */
	if (rename(pk->tmp_pack, final_pack.data) != 0) {
		rc = mirror_fail(err, MIRROR_EIO, "%s: %s", final_pack.data,
		    strerror(errno));
		unlink(tmp_idx);
	} else {
		free(pk->tmp_pack);
		pk->tmp_pack = NULL;
		if (rename(tmp_idx, final_idx.data) != 0) {
			rc = mirror_fail(err, MIRROR_EIO, "%s: %s",
			    final_idx.data, strerror(errno));
			unlink(tmp_idx);
		}
	}
	if (rc < 0)
		pk->name[0] = '\0';
	free(tmp_idx);
	strbuf_free(&final_pack);
	strbuf_free(&final_idx);
	return rc;
}

void
mgit_pack_free(struct mgit_pack *pk)
{
	if (pk->fp != NULL)
		fclose(pk->fp);
	if (pk->tmp_pack != NULL)
		unlink(pk->tmp_pack);
	free(pk->tmp_pack);
	free(pk->dir);
	free(pk->entries);
	free(pk->zbuf);
	if (pk->z != NULL)
		mgit_deflater_free(pk->z);
	memset(pk, 0, sizeof(*pk));
}
