/*
 * record.h: what each page was last rendered from, so an unchanged page
 * is not rendered again.
 *
 * A page is a pure function of its inputs: the JSON object its family
 * builds, its path, template and title, and the site-wide inputs the
 * build's stamp hashes (mirror's version, every template and theme
 * file, title, base URL; gen/output/build_stamp.h). Its digest is SHA-256
 * over all of them (the JSON walked value by value, each string with
 * its length, so no two inputs hash alike by running together). The
 * digests of one build go into the site itself, so a checkout of the
 * output directory or of the branch carries them to the next build:
 * one "digest TAB path" line per page in path order, cut into parts
 * api/pages/<16 hex>.tsv of about 512 lines (record_write says where),
 * so that a build that changes a few pages rewrites and commits a few
 * parts, not every line (one file grew with the site, and each
 * nightly build added nearly all of it to the repository again).
 *
 * The next build renders a page only when its digest differs from the
 * recorded one or the output directory lacks one of its files; else the
 * files stay as they are (output_keep). A record that is missing, of
 * another format or unreadable counts as empty: every page is rendered
 * and compared byte for byte, as a build with --force does.
 */
#ifndef MIRROR_OUT_RECORD_H
#define MIRROR_OUT_RECORD_H

#include <stdint.h>

#include <jansson.h>

#include "util/error.h"
#include "sys/work.h"

/* Where the record's parts live in the site, how their names end, and
 * their first line. */
#define RECORD_DIR "api/pages"
#define RECORD_EXT ".tsv"
#define RECORD_HEADER "# mirror page inputs 2: sha-256 of each page's " \
	"data, template and site inputs\n"

/* A part starts at a line whose path's hash, mixed once more, has
 * these low bits 0: 512 lines a part on average (record_write). */
#define RECORD_CUT_BITS 9
#define RECORD_CUT_MASK ((UINT64_C(1) << RECORD_CUT_BITS) - 1)

/* A digest as hex: 128 bits of SHA-256, plenty against chance. */
#define DIGEST_HEX 32

struct output;
struct page_record;

/*
 * The previous build's record, read from the output directory dir (as
 * the next build will find it once output_lock has rolled a killed
 * build's journal forward), before any output_begin: a build decides
 * from it, before its sweep, which projects changed. fresh (--force;
 * dir is then not read and may be NULL), or a record missing or
 * doubtful, gives an empty one. Never fails; the key is set later
 * (record_set_key), before any record_digest. record_free frees it.
 */
struct page_record *record_load(const char *dir, int fresh);

/* 1 when r (NULL is fine) holds any line of the previous build. */
int record_has_lines(const struct page_record *r);

/* r's key (16 hex digits, or "" before record_set_key). */
const char *record_key(const struct page_record *r);

/* Set r's key: the stamp's inputs hash, part of every digest. */
void record_set_key(struct page_record *r, const char *key);

/*
 * 1 with the previous build's digest of path into hex (which may be
 * the digest of a whole folder: a project's, gen/site/site.c; the A-Z
 * pages', the conflicts' and the checks', page_keep_lines in
 * gen/site/page.h), 0 when it recorded none. Thread-safe.
 */
int record_prev(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path);

/*
 * Call each(arg, path, len, hex) for every path the previous build
 * recorded below prefix (prefix itself excluded), in path order; path
 * is not NUL-terminated (len bytes) and hex is DIGEST_HEX digits, both
 * in r's text. Returns how many. Thread-safe: O(log n) to find them
 * (the previous record's lines are bisected, never indexed).
 */
size_t record_prev_under(const struct page_record *r, const char *prefix,
    void (*each)(void *arg, const char *path, size_t len,
    const char *hex), void *arg);

/*
 * Keep in this build's record every line the previous build recorded
 * below prefix (prefix itself excluded), digests as they were: a kept
 * family's pages, whose inputs are the previous build's. Costs one
 * entry however many lines (record_write copies them); a path also put
 * with record_put is written once, with the digest put. Returns how many
 * lines. Thread-safe.
 */
size_t record_keep_under(struct page_record *r, const char *prefix);

/* Free r (NULL is fine). */
void record_free(struct page_record *r);

/*
 * The digest of a page into hex: r's key, path, tname, title and data
 * (not consumed; objects walked in their own key order). Thread-safe.
 */
void record_digest(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const char *tname, const char *title,
    const json_t *data);

/*
 * The digest of the file path into hex, made from from: the digest of
 * the unit whose data the file is a function of (a page's api/ twin,
 * from the page's). r's key, path and from; data is not walked again.
 * Thread-safe.
 */
void record_digest_from(char hex[DIGEST_HEX + 1], const struct page_record *r,
    const char *path, const char *from);

/*
 * The digest of a file given as its bytes into hex: r's key, path and
 * the len bytes of data (a JSON file gathered as text, which no tree
 * holds whole). Thread-safe.
 */
void record_digest_bytes(char hex[DIGEST_HEX + 1],
    const struct page_record *r, const char *path, const void *data,
    size_t len);

/* 1 when the previous build recorded hex for path, else 0. Thread-safe
 * (the previous record is only read). */
int record_same(const struct page_record *r, const char *path,
    const char *hex);

/* Note hex as path's digest in this build. Thread-safe. */
void record_put(struct page_record *r, const char *path, const char *hex);

/*
 * The name of the record's part whose first line's path is path (len
 * bytes): its hash as 16 hex digits and a NUL, into name[17]. record_load
 * reads only parts so named, and drops the record whole when one of them
 * is not.
 */
void record_part_name(char name[17], const char *path, size_t len);

/* Write this build's record as its parts under RECORD_DIR into out.
 * Returns 0 or < 0 with err set. */
int record_write(struct page_record *r, struct output *out,
    mirror_error *err);

/* Work counter (sys/work.h): the bytes the pages' digests hashed
 * (record_digest and its kin), in every build so far. */
extern struct work_count record_hashed_bytes;

#endif
