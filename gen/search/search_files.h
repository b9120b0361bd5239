/*
 * search_files.h: the search index's format and the text of its files
 * (search_files.c): the one writer of chunks, shards, postings and the
 * manifest, and the rules that place a document and cut the terms, for
 * a whole build (search_index.c) and an update (search_patch.c) alike,
 * so the two cannot write different bytes. search_index.h says what
 * the files hold.
 */
#ifndef MIRROR_SEARCH_FILES_H
#define MIRROR_SEARCH_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/layer.h"
#include "util/strbuf.h"

/* The index's format (search_index.h says what each is). */
#define SEARCH_VERSION 8
#define SEARCH_SLOT_BITS 13
#define SEARCH_SPARE_BITS 5
#define SEARCH_WINDOW_BITS 10
#define SEARCH_SHARD 24000
#define SEARCH_SHARD_TERMS 1024
#define SEARCH_POSTINGS 1500

/* The kinds of documents (search_index.h), in the order of their
 * numbers in the index's files; search_kinds names them in the
 * manifest ('c', 'k', 'f'). */
enum search_kind {
	SEARCH_KIND_CONFLICT = 0,
	SEARCH_KIND_CHECK = 1,
	SEARCH_KIND_FACT = 2
};
extern const char search_kinds[3];

/* What a document is: a fact (of an enum fact_layer), a conflict, a
 * check, or a project's own page. */
enum search_what {
	SEARCH_FACT = 0,
	SEARCH_CONFLICT,
	SEARCH_CHECK,
	SEARCH_PROJECT
};

/* The most documents of a kind a term keeps whole; past it, a sample
 * (search_sample_keeps). */
#define KIND_CAP (SEARCH_POSTINGS / 3)

/* The record layers: a record's code says what its document is as 8 *
 * its record layer (search_index.h: 0 state, 1 entity, 2 memory, 3
 * conflict, 4 check, 5 project), what search.js reads; the manifest's
 * URL templates are by record layer. These are the only place the
 * numbers and their names ("state", ... "project": the documents'
 * hash and the kept documents' text, search_docs.c) are written. */
#define SEARCH_LAYERS 6

/* The record layer of a document that is what (a fact of layer), or
 * -1 when it is none (a fact of no layer, a what out of the enum). */
int search_rec_layer(enum search_what what, enum fact_layer layer);

/* The kind of a document that is what. */
enum search_kind search_kind_of(enum search_what what);

/* The name of record layer l: "state", "entity", "memory", "conflict",
 * "check" or "project"; "" out of range. A static string. */
const char *search_layer_name(int l);

/* What the document of record layer name s is, into *what and *layer
 * (0 for a document not a fact). Returns 0, or -1 for a name not of the
 * six. */
int search_layer_of_name(const char *s, enum search_what *what,
    enum fact_layer *layer);

/* URL template t filled in onto sb: each "{p}" replaced by pslug, each
 * "{id}" by id, in one pass (what either holds is not read again), as
 * assets/search.js fills it in. */
void search_url_fill(strbuf *sb, const char *t, const char *pslug,
    const char *id);

/* The mark after a term of a document's title (index_named): "key!"
 * lists the documents whose title holds "key". */
#define SEARCH_NAMED '!'

/* 1 when a document of hash h is in the sample of its kind that takes
 * bits bits (bits 0: every document is). */
int search_sample_keeps(uint64_t h, unsigned bits);

/* The fewest bits of a sample of a kind of n documents: b with n <=
 * KIND_CAP << b. */
unsigned search_sample_bits(uint64_t n);

/* The bits of the ring of a kind of n documents, and of the window of a
 * project of n documents of a kind (search_index.h). */
unsigned search_kind_bits(size_t n);
unsigned search_window_bits(size_t n);

/* A project's place on a ring: the hash of its name and slug. */
uint64_t search_place(const char *name, const char *slug);

/* ---- search_files.c: the files' text --------------------------------- */

/* A record as a chunk writes it: its slot's low SEARCH_SLOT_BITS bits,
 * its code (search_rec_code), its head and tail, and its project's and
 * status's entries as the chunk's tables hold them (JSON text). */
struct chunk_rec {
	uint64_t lo;
	unsigned code;
	const char *head, *tail;
	size_t hlen, tlen;
	const char *proj, *status;
};

/* The path of chunk n, "search/d-<n>.js", into path[64]. */
void search_chunk_path(char path[64], uint64_t n);

/* The chunk file of slot of kind k: (slot >> SEARCH_SLOT_BITS) * 4 + k. */
uint64_t search_chunk_of(uint64_t slot, int k);

/* Chunk n's file text of its records r[0..nr) (in slot order) into sb
 * (reset here): its tables of projects and statuses in the order its
 * records first name them, then the records. */
void search_chunk_text(strbuf *sb, uint64_t n, const struct chunk_rec *r,
    size_t nr);

/* qsort and bsearch order of document numbers (uint64_t). */
int search_num_cmp(const void *a, const void *b);

/* Number v in base 36 onto sb. */
void search_put36(strbuf *sb, uint64_t v);

/* Number v in decimal onto sb, as printf's "%llu" writes it. */
void search_put10(strbuf *sb, uint64_t v);

/* A term's postings onto sb: with sampled, each kind's documents
 * tot[] first ("<c>.<k>.<f>;"), then nums[0..n) (increasing) as
 * base-36 differences joined by ",". */
void search_postings_text(strbuf *sb, const uint32_t tot[3], int sampled,
    const uint64_t *nums, size_t n);

/*
 * The cut of terms into shards: terms come in byte order, each with
 * its postings' text, and a shard ends before a term whose hash has
 * its low bits zero (SEARCH_SHARD_TERMS) or when it would pass 3 *
 * SEARCH_SHARD bytes; a common term (its postings a sample) and its
 * title's term "t!" are a shard of their own, so a query of common
 * words loads their few kB, not the shards of rarer terms about them.
 * done(arg, first, body) gets each shard (first its first term, body
 * its entries) and returns 0 or < 0 to stop.
 */
struct shard_cut {
	strbuf body, entry;
	strbuf first;           /* the shard's first term */
	strbuf prev;            /* the term before, in this shard */
	strbuf prevpost;        /* its postings (as given, not packed) */
	strbuf rel;             /* a titled entry packed */
	int alone;              /* the shard is a common term's own */
	int (*done)(void *arg, const char *first, const strbuf *body,
	    mirror_error *err);
	void *arg;
};

void search_cut_init(struct shard_cut *c,
    int (*done)(void *, const char *, const strbuf *, mirror_error *),
    void *arg);
/* Add term s with postings post. Returns 0 or done's failure. */
int search_cut_add(struct shard_cut *c, const char *s, const char *post,
    mirror_error *err);
/* End the last shard. Returns 0 or done's failure. */
int search_cut_end(struct shard_cut *c, mirror_error *err);
void search_cut_free(struct shard_cut *c);

/*
 * A title's term "t!" (SEARCH_NAMED) written right after t in a shard
 * holds its documents as a bitmap over t's: SEARCH_TITLED, its
 * "c.k.f;" when sampled, then a base-32 digit (0-9a-v) for each 5 of
 * t's documents in order, bit k set when the (5i+k)th is one of "t!"'s;
 * trailing "0" digits left out. search_titled_pack writes it onto sb
 * from the two postings texts (post of "t!", base of t): 0, or -1
 * (nothing written) when "t!" keeps a document t does not (their
 * samples differ). search_titled_expand writes the postings text of
 * rel over base back onto sb: 0, or -1 on text not so made.
 */
#define SEARCH_TITLED '~'
int search_titled_pack(strbuf *sb, const char *post, const char *base);
int search_titled_expand(strbuf *sb, const char *rel, const char *base);

/* 1 when a shard starts at term s whatever came before it: its hash
 * has the cut's bits zero. */
int search_cut_here(const char *s);

/* A shard's key: 12 hex digits of the hash of its first term s, into
 * out[13]. */
void search_shard_key(char out[13], const char *s);

/* The file text of shard key whose entries are body into sb (reset). */
void search_shard_text(strbuf *sb, const char *key, const strbuf *body);

/* What the manifest says (search_index.h). keys and first are the text
 * of its two lists, already joined; keys is written only when a key is
 * not its first term's (search_shard_key: "-<k>" after it), else as
 * []. */
struct manifest_out {
	size_t docs;
	uint64_t base[3], end[3];
	size_t per[3];
	const char *key;
	char *const (*urls)[2];  /* [SEARCH_LAYERS][2] templates, or NULL */
	const strbuf *keys, *first;
};

/* The manifest's file text into sb (reset here). */
void search_manifest_text(strbuf *sb, const struct manifest_out *m);

#endif
