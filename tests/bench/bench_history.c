/*
 * bench_history.c: history_commit against the git command line.
 *
 *   bench_history [FILES]      (FILES defaults to 5000)
 *   bench_history --incremental [FILES]
 *   bench_history --site DIR REPO
 *   bench_history --hash DIR
 *   bench_history --index REPO
 *
 * The second form (tests/bench/bench.py) commits the existing site DIR
 * to branch mirror of the bare repository REPO, once, as 'mirror build
 * --repo' does, and prints the seconds history_commit took.
 *
 * --incremental commits a generated site of FILES files (default
 * 10000) given as a list (history_request.files) into a fresh bare
 * repository, changes one file, and commits again: in full (every file
 * read and hashed) and incrementally (base_tree, only the changed file
 * read), each into its own copy of the repository, in a child process
 * of its own. Prints per commit "name seconds peak-RSS-MB" (the median
 * of three runs; the peak is the child's): "first", "full", "incr".
 *
 * --hash reads every file under DIR and prints, per SHA-1 candidate,
 * "name MB/s" hashing each as a git blob ("blob <len>\0" and the bytes):
 * sha1dc (git_odb_hash, libgit2's collision-detecting SHA-1, which
 * makes mirror's object ids), nettle (the pack and index checksums),
 * openssl (EVP); each the median of three timings of at least 64 MB.
 * Also "files N" and "bytes N".
 *
 * --index takes the one pack in REPO and prints the median seconds of
 * three runs of each way to write its index: "mirror" (CRC-32 of each
 * entry, then mgit_pack_write_index: what the pack writer adds to the
 * pack) and "indexer" (libgit2's git_indexer fed the pack's bytes:
 * it inflates and hashes every object, then writes pack and index),
 * "objects N", and "identical 1" when both indexes equal REPO's byte
 * for byte (else exits 1).
 *
 * Generates a site of FILES small pages (Markdown and HTML twins in 50
 * project directories), then times, each the median of three runs:
 *   first:  history_commit into a fresh bare repository, against
 *           'git init && git add -A && git commit' on a copy of the site;
 *   update: 1% of the pages changed, history_commit again, against
 *           'git add -A && git commit' in that work tree (which, unlike
 *           a fresh render, has git's stat cache on its side).
 * Prints both and the ratio; exits 1 when history_commit is not at least
 * twice as fast as git on the first build (the product target).
 */
#define _XOPEN_SOURCE 700       /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <nettle/sha1.h>
#include <openssl/evp.h>

#include "git/git_pack.h"
#include "git/history.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define RUNS 3

static char top[] = "/tmp/mirror-bench.XXXXXX";

/* The generated site as a list, sorted by path; strings owned here. */
static struct history_file *site_files;
static size_t n_site_files;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
run(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

/* Page i of the site, version v (v > 0 changes one line of it). */
static int
write_page(const char *site, int i, int v)
{
	static const char *const words[] = { "lateral", "support", "material",
	    "decision", "requirement", "mass", "cap", "parameter", "value",
	    "disputed", "conflict", "project", "state", "entity", "memory" };
	char path[4200];
	FILE *md, *html;
	unsigned seed = (unsigned)i * 2654435761u;
	int lines = 20 + i % 30;

	if (snprintf(path, sizeof(path), "%s/projects/p%02d", site,
	    i % 50) >= (int)sizeof(path))
		return -1;
	mkdir(path, 0777);
	if (snprintf(path, sizeof(path), "%s/projects/p%02d/page%04d.md",
	    site, i % 50, i) >= (int)sizeof(path))
		return -1;
	md = fopen(path, "w");
	if (snprintf(path, sizeof(path), "%s/projects/p%02d/page%04d.html",
	    site, i % 50, i) >= (int)sizeof(path)) {
		if (md != NULL)
			fclose(md);
		return -1;
	}
	html = fopen(path, "w");
	if (md == NULL || html == NULL)
		return -1;
	fprintf(md, "# Page %d\n\n", i);
	fprintf(html, "<h1>Page %d</h1>\n", i);
	for (int l = 0; l < lines; l++) {
		fprintf(md, "- fact %d.%d:", i, l);
		fprintf(html, "<li id=\"fact-%d-%d\">", i, l);
		for (int w = 0; w < 10; w++) {
			seed = seed * 1103515245u + 12345u;
			fprintf(md, " %s", words[(seed >> 16) % 15]);
			fprintf(html, " %s", words[(seed >> 16) % 15]);
		}
		if (l == 3 && v > 0) {
			fprintf(md, " (revised %d)", v);
			fprintf(html, " (revised %d)", v);
		}
		fputc('\n', md);
		fputs("</li>\n", html);
	}
	return (fclose(md) == 0) & (fclose(html) == 0) ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * history_commit at time t of the directory site, or with site NULL of
 * the generated list (site_files) with base (NULL: in full). Returns 0,
 * or -1 when it failed or committed nothing.
 */
static int
bench_commit(const char *repo, const char *site, const char *base, long t)
{
	struct history_request rq;
	struct history_result r;
	mirror_error err;

	memset(&rq, 0, sizeof(rq));
	rq.repo_path = repo;
	rq.branch = "mirror";
	rq.site_dir = site;
	if (site == NULL) {
		rq.files = site_files;
		rq.n_files = n_site_files;
		rq.base_tree = base;
	}
	rq.author = "Bench <bench@example.org>";
	rq.have_time = 1;
	rq.time = (time_t)t;
	rq.store_checksum = "0";
	if (history_commit(&r, &rq, &err) < 0 || !r.committed) {
		fprintf(stderr, "bench: %s\n", r.committed ? err.msg :
		    "nothing committed");
		return -1;
	}
	return 0;
}

/* bench_history --site DIR REPO: one timed history_commit. */
static int
site_commit(const char *site, const char *repo)
{
	double t = now();

	if (bench_commit(repo, site, NULL, 1) < 0)
		return 2;
	printf("%.6f\n", now() - t);
	return fflush(stdout) == 0 ? 0 : 2;
}

/* ---- --incremental [FILES] ----------------------------------------- */

static int
cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct history_file *)a)->path,
	    ((const struct history_file *)b)->path);
}

/* The list of the pages write_page made under site, all unchanged. */
static void
list_pages(const char *site, int pages)
{
	size_t cap = 0;
	char path[256];

	for (int i = 0; i < pages; i++)
		for (int twin = 0; twin < 2; twin++) {
			struct history_file *f = &ARRAY_PUSH(site_files,
			    n_site_files, cap);

			/* Short fixed parts: cannot be cut off. */
			snprintf(path, sizeof(path), "projects/p%02d/page%04d.%s",
			    i % 50, i, twin ? "html" : "md");
			f->path = xstrdup(path);
			snprintf(path, sizeof(path), "%s/projects/p%02d/"
			    "page%04d.%s", site, i % 50, i, twin ? "html" : "md");
			f->disk = xstrdup(path);
			f->changed = 0;
		}
	qsort(site_files, n_site_files, sizeof(*site_files), cmp_file);
}

/*
 * One bench_commit of the list in a child process: *secs its time, *mb
 * the child's peak RSS in MB. Returns 0 or -1.
 */
static int
timed_commit(double *secs, double *mb, const char *repo, const char *base,
    long t)
{
	struct rusage ru;
	double t0 = now();
	pid_t pid;
	int st;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0)
		_exit(bench_commit(repo, NULL, base, t) == 0 ? 0 : 1);
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return -1;
	*secs = now() - t0;
	*mb = (double)ru.ru_maxrss / 1024.0;
	return 0;
}

/* Print "name seconds MB", the medians of RUNS runs. */
static void
report(const char *name, double *secs, double *mb)
{
	qsort(secs, RUNS, sizeof(double), cmp_double);
	qsort(mb, RUNS, sizeof(double), cmp_double);
	printf("%-6s %8.3f s %8.1f MB\n", name, secs[RUNS / 2], mb[RUNS / 2]);
}

/* The tree of branch mirror of bare.git into base. Returns 0 or -1. */
static int
tip_tree(char base[GIT_OID_HEXSZ + 1])
{
	FILE *fp = popen("git -C bare.git rev-parse mirror^{tree}", "r");
	int ok = fp != NULL && fgets(base, GIT_OID_HEXSZ + 1, fp) != NULL &&
	    strlen(base) == GIT_OID_HEXSZ;

	if (fp != NULL)
		pclose(fp);
	return ok ? 0 : -1;
}

/* bench_history --incremental FILES: full and incremental commits. */
static int
incremental_bench(int files)
{
	double s[3][RUNS], mb[3][RUNS];
	char site[64], base[GIT_OID_HEXSZ + 1], cmd[160];
	struct history_file *one;
	int pages = files / 2;

	if (pages < 1 || mkdtemp(top) == NULL || chdir(top) != 0)
		return 2;
	setenv("HOME", top, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	snprintf(site, sizeof(site), "%s/site", top);
	mkdir(site, 0777);
	mkdir("site/projects", 0777);
	for (int i = 0; i < pages; i++)
		if (write_page(site, i, 0) < 0)
			return 2;
	list_pages(site, pages);
	one = &site_files[n_site_files / 2];
	for (int k = 0; k < RUNS; k++) {
		if (run("rm -rf bare.git && git init -q --bare bare.git") < 0 ||
		    timed_commit(&s[0][k], &mb[0][k], "bare.git", NULL, 1) < 0 ||
		    tip_tree(base) < 0 ||
		    run("rm -rf full.git incr.git && cp -R bare.git full.git "
		    "&& cp -R bare.git incr.git") < 0)
			return 2;
		/* One file changes. */
		snprintf(cmd, sizeof(cmd), "echo 'changed %d' >> '%s'", k,
		    one->disk);
		if (run(cmd) < 0)
			return 2;
		one->changed = 1;
		if (timed_commit(&s[1][k], &mb[1][k], "full.git", NULL, 2) < 0 ||
		    timed_commit(&s[2][k], &mb[2][k], "incr.git", base, 2) < 0)
			return 2;
		one->changed = 0;
	}
	printf("history, %zu files as a list, one changed (median of %d):\n",
	    n_site_files, RUNS);
	report("first", s[0], mb[0]);
	report("full", s[1], mb[1]);
	report("incr", s[2], mb[2]);
	for (size_t i = 0; i < n_site_files; i++) {
		free((char *)(uintptr_t)site_files[i].path);
		free((char *)(uintptr_t)site_files[i].disk);
	}
	free(site_files);
	if (snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top) < (int)sizeof(cmd))
		run(cmd);
	return fflush(stdout) == 0 ? 0 : 2;
}

/* ---- --hash DIR ---------------------------------------------------- */

struct blob {
	unsigned char *data;
	size_t len;
};

static struct blob *blobs;
static size_t nblobs, capblobs, blob_bytes;

/*
 * Read the file at path whole into *data and *len (the caller frees
 * *data). Returns 0, or -1 with errno set.
 */
static int
slurp(unsigned char **data, size_t *len, const char *path)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 0, n = 0, got;
	unsigned char *p = NULL;

	*data = NULL;
	*len = 0;
	if (fp == NULL)
		return -1;
	do {
		ARRAY_RESERVE(p, cap, n + 65536);
		got = fread(p + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		fclose(fp);
		free(p);
		return -1;
	}
	fclose(fp);
	*data = p;
	*len = n;
	return 0;
}

/* nftw: keep each regular file in blobs. Returns 0, or -1 to stop. */
static int
keep_file(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	struct blob b;

	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	if (slurp(&b.data, &b.len, path) < 0) {
		perror(path);
		return -1;
	}
	ARRAY_PUSH(blobs, nblobs, capblobs) = b;
	blob_bytes += b.len;
	return 0;
}

/* The object header of a blob of len bytes; returns its length. */
static size_t
blob_header(char hdr[32], size_t len)
{
	return (size_t)snprintf(hdr, 32, "blob %zu", len) + 1;
}

static unsigned sink;   /* keeps the digests from being optimised out */

static void
hash_sha1dc(const struct blob *b)
{
	git_oid oid;

	if (git_odb_hash(&oid, b->data, b->len, GIT_OBJECT_BLOB) < 0)
		exit(2);
	sink += oid.id[0];
}

static void
hash_nettle(const struct blob *b)
{
	struct sha1_ctx c;
	uint8_t d[SHA1_DIGEST_SIZE];
	char hdr[32];
	size_t nh = blob_header(hdr, b->len);

	sha1_init(&c);
	sha1_update(&c, nh, (const uint8_t *)hdr);
	sha1_update(&c, b->len, b->data);
	sha1_digest(&c, sizeof(d), d);
	sink += d[0];
}

static EVP_MD *evp_sha1;
static EVP_MD_CTX *evp_ctx;

static void
hash_openssl(const struct blob *b)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int nd;
	char hdr[32];
	size_t nh = blob_header(hdr, b->len);

	if (EVP_DigestInit_ex(evp_ctx, evp_sha1, NULL) != 1 ||
	    EVP_DigestUpdate(evp_ctx, hdr, nh) != 1 ||
	    EVP_DigestUpdate(evp_ctx, b->data, b->len) != 1 ||
	    EVP_DigestFinal_ex(evp_ctx, d, &nd) != 1)
		exit(2);
	sink += d[0];
}

/* MB/s of fn over every blob: the median of RUNS timings. */
static double
throughput(void (*fn)(const struct blob *))
{
	size_t passes = blob_bytes >= 64000000 ? 1 :
	    64000000 / (blob_bytes + 1) + 1;
	double secs[RUNS];

	for (int k = 0; k < RUNS; k++) {
		double t = now();

		for (size_t p = 0; p < passes; p++)
			for (size_t i = 0; i < nblobs; i++)
				fn(&blobs[i]);
		secs[k] = now() - t;
	}
	qsort(secs, RUNS, sizeof(double), cmp_double);
	return (double)blob_bytes * (double)passes / 1e6 / secs[RUNS / 2];
}

/* bench_history --hash DIR: SHA-1 throughput on DIR's files. */
static int
hash_bench(const char *dir)
{
	static const struct {
		const char *name;
		void (*fn)(const struct blob *);
	} cand[] = {
		{ "sha1dc", hash_sha1dc },
		{ "nettle", hash_nettle },
		{ "openssl", hash_openssl },
	};

	if (nftw(dir, keep_file, 16, FTW_PHYS) != 0 || nblobs == 0)
		return 2;
	git_libgit2_init();
	evp_sha1 = EVP_MD_fetch(NULL, "SHA1", NULL);
	evp_ctx = EVP_MD_CTX_new();
	if (evp_sha1 == NULL || evp_ctx == NULL)
		return 2;
	printf("files %zu\nbytes %zu\n", nblobs, blob_bytes);
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		printf("%s %.1f\n", cand[i].name, throughput(cand[i].fn));
	EVP_MD_CTX_free(evp_ctx);
	EVP_MD_free(evp_sha1);
	for (size_t i = 0; i < nblobs; i++)
		free(blobs[i].data);
	free(blobs);
	git_libgit2_shutdown();
	return fflush(stdout) == 0 && sink != 1 ? 0 : 2;
}

/* ---- --index REPO --------------------------------------------------- */

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static int
cmp_offset(const void *a, const void *b)
{
	const struct mgit_pack_entry *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The entries of the index idx (ilen bytes, version 2) in *e and *n,
 * in pack order, CRCs zeroed: what the pack writer knows before its
 * index. Returns 0, or -1 when idx is not such an index.
 */
static int
parse_index(struct mgit_pack_entry **e, size_t *n, const unsigned char *idx,
    size_t ilen)
{
	const unsigned char *ids, *off, *large;

	*e = NULL;
	*n = 0;
	if (ilen < 8 + 1024 + 40 || memcmp(idx, "\377tOc", 4) != 0 ||
	    get32(idx + 4) != 2)
		return -1;
	*n = get32(idx + 8 + 4 * 255);
	if (ilen < 8 + 1024 + 40 + *n * 28)
		return -1;
	ids = idx + 8 + 1024;
	off = ids + *n * 24;
	large = off + *n * 4;
	*e = xcalloc(*n ? *n : 1, sizeof(**e));
	for (size_t i = 0; i < *n; i++) {
		uint32_t o = get32(off + 4 * i);

		git_oid_fromraw(&(*e)[i].oid, ids + 20 * i);
		if (o & 0x80000000u) {
			const unsigned char *l = large + 8 * (o & 0x7fffffffu);

			if (l + 8 > idx + ilen - 40)
				return -1;
			(*e)[i].offset = (uint64_t)get32(l) << 32 | get32(l + 4);
		} else {
			(*e)[i].offset = o;
		}
	}
	qsort(*e, *n, sizeof(**e), cmp_offset);
	return 0;
}

/* Whether the file at path holds exactly the len bytes at want. */
static int
same_file(const char *path, const unsigned char *want, size_t len)
{
	unsigned char *got;
	size_t n;
	int same;

	if (slurp(&got, &n, path) < 0)
		return 0;
	same = n == len && memcmp(got, want, len) == 0;
	free(got);
	return same;
}

/*
 * One run of mirror's way: CRC-32 of each entry of pack (plen bytes),
 * then the index into path. Returns the seconds, or -1 on failure.
 */
static double
index_mirror(const char *path, const struct mgit_pack_entry *pristine,
    size_t n, const unsigned char *pack, size_t plen)
{
	struct mgit_pack_entry *e = xcalloc(n ? n : 1, sizeof(*e));
	mirror_error err;
	double t;
	FILE *fp;
	int rc;

	memcpy(e, pristine, n * sizeof(*e));
	t = now();
	for (size_t i = 0; i < n; i++) {
		uint64_t end = i + 1 < n ? e[i + 1].offset : plen - 20;

		e[i].crc = mgit_crc32(0, pack + e[i].offset,
		    end - e[i].offset);
	}
	if ((fp = fopen(path, "wb")) == NULL) {
		free(e);
		return -1;
	}
	rc = mgit_pack_write_index(fp, path, e, n, pack + plen - 20, &err);
	if (fclose(fp) != 0 || rc < 0) {
		fprintf(stderr, "bench: %s\n", rc < 0 ? err.msg : path);
		free(e);
		return -1;
	}
	t = now() - t;
	free(e);
	return t;
}

/*
 * One run of libgit2's way: git_indexer in dir, fed the pack in 64 KiB
 * pieces as a stream would. *name gets the pack's name (a hex id).
 * Returns the seconds, or -1 on failure.
 */
static double
index_libgit2(char name[GIT_OID_HEXSZ + 1], const char *dir,
    const unsigned char *pack, size_t plen)
{
	git_indexer_progress st;
	git_indexer *ix;
	double t = now();
	int rc;

	if (git_indexer_new(&ix, dir, 0444, NULL, NULL) < 0)
		return -1;
	rc = 0;
	for (size_t o = 0; o < plen && rc == 0; o += 65536)
		rc = git_indexer_append(ix, pack + o, plen - o < 65536 ?
		    plen - o : 65536, &st);
	if (rc == 0)
		rc = git_indexer_commit(ix, &st);
	t = now() - t;
	if (rc == 0)
		snprintf(name, GIT_OID_HEXSZ + 1, "%s", git_indexer_name(ix));
	else
		fprintf(stderr, "bench: git_indexer: %s\n",
		    git_error_last()->message);
	git_indexer_free(ix);
	return rc == 0 ? t : -1;
}

/*
 * The path of REPO's one pack without its extension ("...pack-<id>")
 * in *sb. Returns 0, or -1 when there is not exactly one index.
 */
static int
find_pack(strbuf *sb, const char *repo)
{
	struct dirent *de;
	int found = 0;
	DIR *d;

	strbuf_printf(sb, "%s/objects/pack", repo);
	if ((d = opendir(sb->data)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 4 && strcmp(de->d_name + n - 4, ".idx") == 0 &&
		    found++ == 0) {
			strbuf_putc(sb, '/');
			strbuf_add(sb, de->d_name, n - 4);
		}
	}
	closedir(d);
	return found == 1 ? 0 : -1;
}

/*
 * Read REPO's one pack and its index into *pack and *idx (the caller
 * frees both). Returns 0 or -1.
 */
static int
read_pack(unsigned char **pack, size_t *plen, unsigned char **idx,
    size_t *ilen, const char *repo)
{
	strbuf stem, path;
	int rc = -1;

	*pack = *idx = NULL;
	strbuf_init(&stem);
	strbuf_init(&path);
	if (find_pack(&stem, repo) == 0) {
		strbuf_printf(&path, "%s.idx", stem.data);
		if (slurp(idx, ilen, path.data) == 0) {
			strbuf_reset(&path);
			strbuf_printf(&path, "%s.pack", stem.data);
			rc = slurp(pack, plen, path.data);
		}
	}
	strbuf_free(&stem);
	strbuf_free(&path);
	return rc == 0 && *plen >= 32 ? 0 : -1;
}

/* bench_history --index REPO: mirror's index writer against libgit2's. */
static int
index_bench(const char *repo)
{
	unsigned char *idx = NULL, *pack = NULL;
	struct mgit_pack_entry *e = NULL;
	double tm[RUNS], ti[RUNS];
	char name[GIT_OID_HEXSZ + 1], mine[128], theirs[128], cmd[160];
	size_t ilen = 0, plen = 0, n = 0;
	int identical = 1, made = 0, rc = 2;

	git_libgit2_init();
	if (read_pack(&pack, &plen, &idx, &ilen, repo) < 0 ||
	    parse_index(&e, &n, idx, ilen) < 0) {
		fprintf(stderr, "bench: %s: cannot read its pack\n", repo);
		goto done;
	}
	if (mkdtemp(top) == NULL)
		goto done;
	made = 1;
	/* top is a short fixed template: these cannot be cut off. */
	snprintf(mine, sizeof(mine), "%s/mirror.idx", top);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	for (int k = 0; k < RUNS; k++) {
		if ((tm[k] = index_mirror(mine, e, n, pack, plen)) < 0 ||
		    (ti[k] = index_libgit2(name, top, pack, plen)) < 0)
			goto done;
		snprintf(theirs, sizeof(theirs), "%s/pack-%s.idx", top, name);
		identical &= same_file(mine, idx, ilen) &&
		    same_file(theirs, idx, ilen);
		/* The next indexer run must not find its files there. */
		snprintf(theirs, sizeof(theirs), "rm -f '%s'/*", top);
		if (run(theirs) < 0)
			goto done;
	}
	qsort(tm, RUNS, sizeof(double), cmp_double);
	qsort(ti, RUNS, sizeof(double), cmp_double);
	printf("objects %zu\nmirror %.6f\nindexer %.6f\nidentical %d\n", n,
	    tm[RUNS / 2], ti[RUNS / 2], identical);
	rc = identical ? 0 : 1;
done:
	if (made)
		run(cmd);
	free(e);
	free(idx);
	free(pack);
	git_libgit2_shutdown();
	return fflush(stdout) == 0 ? rc : 2;
}

int
main(int argc, char **argv)
{
	int files;

	if (argc == 4 && strcmp(argv[1], "--site") == 0)
		return site_commit(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--hash") == 0)
		return hash_bench(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--index") == 0)
		return index_bench(argv[2]);
	if (argc >= 2 && argc <= 3 && strcmp(argv[1], "--incremental") == 0)
		return incremental_bench(argc == 3 ? atoi(argv[2]) : 10000);
	files = argc > 1 ? atoi(argv[1]) : 5000;
	int pages;
	double m1[RUNS], m2[RUNS], g1[RUNS], g2[RUNS], t;
	char site[64], path[128];

	pages = files / 2;
	if (pages < 1 || mkdtemp(top) == NULL)
		return 2;
	setenv("HOME", top, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	/* top is a short fixed template: these cannot be cut off. */
	if (snprintf(site, sizeof(site), "%s/site", top) >= (int)sizeof(site) ||
	    snprintf(path, sizeof(path), "%s/projects", site) >=
	    (int)sizeof(path))
		return 2;
	mkdir(site, 0777);
	mkdir(path, 0777);
	for (int i = 0; i < pages; i++)
		if (write_page(site, i, 0) < 0)
			return 2;
	if (chdir(top) != 0)
		return 2;
	for (int k = 0; k < RUNS; k++) {
		/* mirror: first build, then 1% of the pages change. */
		if (run("rm -rf bare.git && git init -q --bare bare.git") < 0)
			return 2;
		t = now();
		if (bench_commit("bare.git", "site", NULL, 1) < 0)
			return 2;
		m1[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page(site, i, k + 1);
		t = now();
		if (bench_commit("bare.git", "site", NULL, 2) < 0)
			return 2;
		m2[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page(site, i, 0);

		/* git: the same files in a work tree. */
		if (run("rm -rf wt && cp -R site wt") < 0)
			return 2;
		t = now();
		if (run("cd wt && git init -q && git add -A && git -c "
		    "user.name=B -c user.email=b@x commit -q -m first") < 0)
			return 2;
		g1[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page("wt", i, k + 1);
		t = now();
		if (run("cd wt && git add -A && git -c user.name=B -c "
		    "user.email=b@x commit -q -m update") < 0)
			return 2;
		g2[k] = now() - t;
	}
	qsort(m1, RUNS, sizeof(double), cmp_double);
	qsort(m2, RUNS, sizeof(double), cmp_double);
	qsort(g1, RUNS, sizeof(double), cmp_double);
	qsort(g2, RUNS, sizeof(double), cmp_double);
	printf("history, %d files (median of %d):\n", pages * 2, RUNS);
	printf("  first build:  mirror %.3f s   git add -A && git commit "
	    "%.3f s   (%.1fx)\n", m1[1], g1[1], g1[1] / m1[1]);
	printf("  1%% changed:   mirror %.3f s   git add -A && git commit "
	    "%.3f s   (%.1fx)\n", m2[1], g2[1], g2[1] / m2[1]);
	if (snprintf(path, sizeof(path), "rm -rf '%s'", top) <
	    (int)sizeof(path))
		run(path);
	if (m1[1] * 2 > g1[1]) {
		printf("  FAIL: the first build is not twice as fast as git\n");
		return 1;
	}
	return 0;
}
