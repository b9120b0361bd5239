/*
 * search_index_int.h: how the documents of an index get their numbers
 * (search_index.c), and what an index holds, for a whole build and an
 * update (search_patch.c) alike; inside gen/search/ alone.
 */
#ifndef MIRROR_SEARCH_INDEX_INT_H
#define MIRROR_SEARCH_INDEX_INT_H

#include "search/search_files.h"
#include "search/search_index.h"
#include "search/search_spill.h"
#include "util/hashtab.h"
#include "util/strbuf.h"

/* The bytes [off, end) of a run of terms in an index's run_spill. */
struct search_run_at {
	uint64_t off, end;
};

/* A term: most are one document's (an id is a term of its own), so a
 * term is small and its one posting is held in it. */
struct term {
	size_t s;               /* its text in x->words */
	uint32_t *post;         /* the documents kept, by their order of
	                           adding (seq), increasing; NULL while it
	                           keeps one: last */
	uint32_t n;             /* postings kept (post's room: post_room) */
	uint32_t last;          /* the last document added */
	uint32_t tot[3];        /* documents of each kind */
	uint8_t bits[3];        /* of each kind, the documents kept are
	                           those search_sample_keeps with as many
	                           bits */
};

/* The terms by their text: open addressing, linear probing, never
 * more than half full. A slot is the term's index + 1 in its low 32
 * bits (0: empty) and the high half of the term's hash in its high 32,
 * 8 bytes where a general table's entry (key and index) took 16. */
struct term_table {
	uint64_t *slot;
	size_t cap;             /* a power of two, or 0 */
	int shift;              /* 64 - log2(cap) */
};

/* A document as added: its record's text before its project and
 * status (head) and after them (tail) in x->recs, the two by index
 * into the index's tables. */
struct doc {
	uint64_t h;             /* hash_mix of its layer and id */
	uint64_t num;           /* its number (once numbered) */
	uint64_t off;           /* head, then tail, in x->recs (past
	                           x->rec_spill's bytes) */
	uint32_t hlen, tlen;
	uint32_t project, status;  /* into x->projects, x->statuses */
	uint32_t layer;         /* its code in a record (layers) */
	uint8_t flags;          /* 1 disputed, 2 checked */
	uint8_t kind;           /* index into search_kinds */
};

/* A table of distinct projects (name, slug) or statuses (a alone), in
 * the order first met, looked up by the hash of their text; json is
 * the entry as a chunk's table writes it. */
struct tab_entry {
	char *a, *b, *json;
};

struct tab_slot {
	uint64_t key;
	uint32_t i;
};

struct tab {
	struct tab_entry *e;
	size_t n, cap;
	size_t bytes;           /* its entries' strings */
	struct hashtab at;      /* hash of (a, b) -> struct tab_slot */
};

struct search_index {
	search_put_fn put;
	void *arg;
	struct term_table tab;  /* the terms by their text, while documents
	                           are added (freed by the finish) */
	struct term *terms;
	size_t n_terms, cap_terms;
	strbuf words;           /* every term's text, each ending in NUL */
	struct doc *docs;       /* in the order added (seq) */
	size_t n_docs, cap_docs;
	size_t per_kind[3];
	uint64_t base[3], end[3];  /* each kind's numbers */
	int kind;               /* the kind of the document being added */
	int whole;              /* 1: every posting kept, no sample (the
	                           documents an update adds and drops) */
	strbuf recs;            /* every document's head and tail (a
	                           whole build's: those past rec_spill's) */
	struct spill rec_spill; /* a whole build's records written out, a
	                           document's off counting from its start */
	struct spill run_spill; /* a whole build's terms written out in
	                           runs, each in byte order */
	struct search_run_at *runs;  /* each run's bytes in run_spill */
	size_t n_runs, cap_runs;
	size_t rec_hold, term_hold;  /* the records and terms held before
	                           they are written out (a whole build's) */
	struct tab projects, statuses;
	char *key;              /* search_index_set_key's, or NULL */
	char *urls[SEARCH_LAYERS][2];  /* search_index_set_urls's, or NULL */
	size_t post_bytes;      /* the room of the terms' post arrays */
	size_t held;            /* what the bytes held have of x */
};

/* Hold at most rec bytes of x's records and term bytes of its terms
 * before writing them to its temporary files (a whole build's index;
 * search_index_new sets 256 KiB and 2 MiB): what a test sets low to
 * write every document out. Returns nothing. */
void search_index_set_hold(struct search_index *x, size_t rec, size_t term);

/* Term t's text. */
static inline const char *
term_text(const struct search_index *x, const struct term *t)
{
	return x->words.data + t->s;
}

/* Term t's kept postings (t->n of them). */
static inline const uint32_t *
term_posts(const struct term *t)
{
	return t->post != NULL ? t->post : &t->last;
}



/* A document of one kind as the numbering sorts them: the slot it asks
 * for, its hash, its place in the order added. */
struct doc_key {
	uint64_t want, h;
	uint32_t i;
};

/* qsort order of doc_keys: by want, then h, then i. */
int search_doc_cmp(const void *a, const void *b);

/*
 * Sort k[0..n) by search_doc_cmp, in place: glibc's qsort sorts through
 * a copy as large as the array (24 MB at 1M facts, beside the index's
 * own documents at the build's peak). Quicksort, heapsort past depth
 * levels (0: heapsort alone, for the tests; search_kind_keys gives
 * twice the bits of n). The order is total (i differs), so the result
 * is qsort's.
 */
void search_doc_sort(struct doc_key *k, size_t n, unsigned depth);

/*
 * The slot each document of x at ord[0..n) (all of one kind) asks for,
 * into its num: its project's place on the kind's ring of ring_bits
 * bits, plus the low bits of its own hash, search_window_bits of its
 * project's documents among them. So a project's documents sit
 * together (a chunk names few projects, a word's postings within a
 * project are close), and one moves only when its project's count of
 * the kind passes a power of two.
 */
void search_ask_slots(struct search_index *x, const uint32_t *ord,
    size_t n, unsigned ring_bits);

/* The documents of kind k of x with the slots they ask for on a ring of
 * ring_bits bits, sorted (search_doc_cmp); *n gets their count, the
 * caller frees the array. */
struct doc_key *search_kind_keys(struct search_index *x, int k,
    unsigned ring_bits, size_t *n);

/* The code of a record: 8 * layer, 4 when its slot is past the one it
 * asked for (moved), its flags (1 disputed, 2 checked). */
#define search_rec_code(layer, moved, flags) \
	((unsigned)(layer) * 8 + ((moved) ? 4u : 0u) + ((unsigned)(flags) & 3))

/* Document d of x at slot, moved (1) or not past the slot it asked
 * for, as a chunk's record into r (pointing into x). */
void search_doc_rec(struct chunk_rec *r, const struct search_index *x,
    const struct doc *d, uint64_t slot, int moved);

/* Each kind's numbers, first and last + 1, of kinds of per[] documents:
 * the facts' first, then the conflicts', then the checks'. */
void search_kind_ranges(uint64_t base[3], uint64_t end[3],
    const size_t per[3]);

#endif
