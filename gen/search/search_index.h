/*
 * search_index.h: the site's search index, written as small script
 * files that work from a web server and from file:// alike (a page
 * loads them with <script> tags; each calls a registering function of
 * assets/search.js, so no fetch() is needed).
 *
 * The caller adds documents (facts, conflicts, checks, projects' own
 * pages) one by one in a
 * stable order. Every file stays as it was when the documents it holds
 * stay (a one-fact change rewrites a chunk, the shards of the terms it
 * adds or drops and the manifest; issue 68): a document's number is a
 * function of its layer and id, not of its place among the others, and
 * shards are cut where a term's own hash says. The index writes:
 *
 *   search/d-<n>.js    a chunk of records: mirrorSearch.d(n, {"p":
 *                      [[name, slug], ...], "s": [status, ...]},
 *                      [[gap, code, title, value, project, status,
 *                      id(, url)], ...]). Each kind (0 a conflict, 1 a
 *                      check, 2 a fact or a project's own page) has a
 *                      range of numbers (the
 *                      manifest's "kinds": the facts' first, from 0,
 *                      then the conflicts', then the checks'), twice
 *                      a ring of SEARCH_SPARE_BITS more bits than its
 *                      documents need (at least SEARCH_SLOT_BITS). A
 *                      document asks for a slot (its number past its
 *                      kind's start): its project's place on the ring
 *                      (a hash of the project's name and slug) plus the
 *                      low bits
 *                      of a hash of its layer and id, as many as
 *                      SEARCH_SPARE_BITS more than its project's
 *                      documents of the kind need (at least
 *                      SEARCH_WINDOW_BITS), and takes it, or the next
 *                      free slot after those that ask for the same or
 *                      a lower one. Chunk n holds the documents of kind
 *                      n % 4 whose slot >> SEARCH_SLOT_BITS is n / 4,
 *                      128 to 256 on average, in slot order; a record's
 *                      gap is how far its slot's low SEARCH_SLOT_BITS
 *                      bits are past the record before's (the first's:
 *                      past 0). The chunk's
 *                      projects and statuses are written once, in the
 *                      order first met, and a record names them by
 *                      index; code is 8 * layer (0 state, 1 entity,
 *                      2 memory, 3 conflict, 4 check, 5 project), + 4
 *                      when the
 *                      document's slot is past the one it asked for
 *                      (moved: what an update needs to know), + flags
 *                      (1 disputed, 2 checked). The url
 *                      is left out when it is the template of its
 *                      layer (search_index_set_urls, the manifest's
 *                      "urls") filled in with its project's slug and
 *                      id, which search.js does, is [page] for
 *                      page#<id>,
 *                      else the URL itself. A title, value, id,
 *                      project name or status past TEXT_MAX_FIELD
 *                      (4096) bytes is cut as the pages cut a value
 *                      (util/text.h: " … (N bytes more)"); its terms
 *                      are of the whole text.
 *   search/t-<key>.js  a shard of the terms: every term in byte order,
 *                      cut before each term whose hash has its low 10
 *                      bits zero (one in SEARCH_SHARD_TERMS: the same
 *                      for every store and size, so an update never
 *                      moves another cut; a shard past 3 *
 *                      SEARCH_SHARD bytes is cut anyway; a term that
 *                      keeps a sample, and its "t!", is a shard of its
 *                      own), each with its
 *                      documents, as one
 *                      string: mirrorSearch.t(key, "<entry> <entry>
 *                      ..."), an entry "<p><rest> <postings>": p a
 *                      base-36 digit, the leading bytes (ASCII, at most
 *                      35) the term shares with the entry before it,
 *                      rest the others (terms hold no space). key is 12
 *                      hex digits of the hash of the shard's first term
 *                      ("-<k>" after it, k its place, when an earlier
 *                      shard has the same).
 *   search/index.js    the manifest: its format (v, SEARCH_VERSION),
 *                      slots per chunk ("chunk"), document count, each
 *                      kind's numbers ("kinds": first, last + 1) and
 *                      documents ("per": conflicts, checks, facts), the
 *                      URL templates ("urls": [[of a project, of none],
 *                      ...] by record layer, null for none), the
 *                      terms and their entries' bytes ("terms",
 *                      "bytes": what the cut's mask is made from), the
 *                      caller's key (search_index_set_key), and the
 *                      first term ("first") of every shard, so a
 *                      term's shard is found by a binary search, its
 *                      key the first term's; "keys" lists the keys
 *                      only when one is not (a "-<k>") or a first
 *                      term is not UTF-8, else is [].
 *
 * Postings are the document numbers in increasing order, as base-36
 * differences joined by ",". Of each kind, a term keeps every document
 * while it has at most SEARCH_POSTINGS / 3, else a sample: those whose
 * hash (its high half) has its b low bits zero, b the fewest with
 * documents <= (SEARCH_POSTINGS / 3) << b; such a term says its
 * documents of each kind first, "<c>.<k>.<f>;" in base 36. A sample is
 * a function of the documents alone, and two common words keep samples
 * of the same documents, and every project's own page (its hash's
 * high half zero): a common word of its name still finds it. Each term
 * of a document's title is a term once more with "!" after it
 * (SEARCH_NAMED: "key!" lists the documents whose title holds "key"),
 * so search.js ranks every match, a name above a mention, before it
 * loads a record; "!" sorts before every term byte, so "key!" follows
 * "key" in its shard, where it is packed as a bitmap over key's
 * documents when that is shorter (search_files.h, SEARCH_TITLED).
 * Terms are the runs
 * of ASCII letters and digits (lower-cased) and of non-ASCII bytes;
 * search.js cuts a query the same way. An id, key or name with no space
 * that is more than one term ("p06-st-spindle-max") is a term as well,
 * lower-cased, so a query of it finds its document first. The same
 * documents: the same bytes, whatever order a build adds them in.
 */
#ifndef MIRROR_SEARCH_INDEX_H
#define MIRROR_SEARCH_INDEX_H

#include <stddef.h>

#include "search/search_files.h"
#include "util/error.h"
#include "util/strbuf.h"

/*
 * The bytes every search index of the process holds: the room of its
 * terms, their text and postings, its documents, their records and
 * tables, and the arrays its finish sorts them in, as its own code
 * allocates them (not the process's RSS). A whole index's grow with the
 * store's documents; an update's with the changed projects' alone.
 * search_held_mark starts the peak again from what is held now (from
 * any thread); search_held_peak returns the most held at once since
 * (build --json's "search_peak_bytes").
 */
void search_held_mark(void);
unsigned long long search_held_peak(void);


/* Write len bytes of data as the site file path (relative to the site
 * root). Returns 0 or < 0 with err set. */
typedef int (*search_put_fn)(void *arg, const char *path, const char *data,
    size_t len, mirror_error *err);

/* One document; NULL strings are "". text is indexed but not shown.
 * what it is: a fact (of layer), a conflict, a check or a project's own
 * page (title its name, id its id, pslug its slug). */
struct search_doc {
	enum search_what what;
	enum fact_layer layer;  /* a fact's; 0 for the others */
	const char *title, *value, *project, *url, *status, *id;
	const char *pslug;      /* the project's slug; "" a fact of no
	                           project (its URL: index.html#...) */
	const char *text;
	int flags;              /* 1 disputed, 2 checked */
};

struct search_index;


/* A new, empty index writing through put(arg, ...). Never fails. It
 * keeps every record until search_index_finish numbers them. */
struct search_index *search_index_new(search_put_fn put, void *arg);

/* Name what the records show beside the documents (the render's key,
 * the rules' labels): the manifest says it, and an update of an index
 * of another key is refused. key is copied; NULL: "". */
void search_index_set_key(struct search_index *x, const char *key);

/* The URL templates of the records, made by the site (gen/site's URL
 * functions, items.h): for each kind of document, [0] of a document of
 * a project, [1] of one of none; "{p}" its project's slug, "{id}" its
 * id as the record holds it; NULL none. */
struct search_urls {
	const char *fact[LAYER_STATE + 1][2];  /* by enum fact_layer */
	const char *conflict[2], *check[2], *project[2];
};

/* Name x's URL templates u (copied). A document whose URL is its
 * template filled in (search_url_fill) holds none in its record;
 * search.js fills it in from the manifest's "urls" (by record layer).
 * Without templates every record holds its URL. An update of an index
 * of other templates is refused (its records were written against
 * them). */
void search_index_set_urls(struct search_index *x,
    const struct search_urls *u);

/* Add d as the next document. Returns 0 or < 0 with err set (a chunk
 * that could not be written, a fact of no layer). */
int search_index_add(struct search_index *x, const struct search_doc *d,
    mirror_error *err);

/* Number the documents, write their chunks, the term shards and the
 * manifest, freeing each part of x once its files are written: no
 * document may be added after it. Returns 0 or < 0 with err set. */
int search_index_finish(struct search_index *x, mirror_error *err);

/*
 * An update: the files the last build wrote, changed where the
 * documents of some projects changed (issue 68: a one-fact change costs
 * its project, not the store). Two indexes made with
 * search_index_new_whole (every posting kept, no sample) hold those
 * projects' documents, old as the last build added them and x as they
 * are now, each project whole (its facts, conflicts and checks);
 * search_index_update then reads the last build's manifest, the chunks
 * around those projects' places and the shards of their words through
 * prev, and writes through x's put the files that change, so that
 * search/ holds the bytes a whole build of the new documents writes.
 */
struct search_prev {
	/* The last build's file path (relative to the site): 1 with
	 * *data (NUL-terminated, the caller frees it) and *len, 0 when
	 * it wrote none, < 0 with err set. */
	int (*get)(void *arg, const char *path, char **data, size_t *len,
	    mirror_error *err);
	/* Keep every file the last build wrote below "search/" that this
	 * one has not written, but drop[0..n) (files the index no longer
	 * has). Returns 0 or < 0 with err set. */
	int (*keep)(void *arg, const char *const *drop, size_t n,
	    mirror_error *err);
	void *arg;
};

/* search_index_update's answer when only a whole build can write the
 * index (a kind's ring or a common word's sample changes size, two
 * projects' documents meet, the last build's files are not of this
 * format or key): nothing was written. */
#define SEARCH_REBUILD 1

struct search_index *search_index_new_whole(search_put_fn put, void *arg);

/* Returns 0 (written), SEARCH_REBUILD, or < 0 with err set (a file
 * that could not be read or written). x and old stay the caller's. */
int search_index_update(struct search_index *x, struct search_index *old,
    const struct search_prev *prev, mirror_error *err);

void search_index_free(struct search_index *x);   /* NULL: no-op */

/*
 * A project's documents as text (search_docs.c), as a build keeps them
 * for the next: search_docs_put appends d to sb (its first adds the
 * header); search_docs_each calls each(arg, d, err) for every document
 * of text[0..len) (which it writes NUL bytes into: the fields are
 * valid during the call). Returns 0, 1 when text is not such a list
 * (nothing called past the damage), or each's failure.
 */
void search_docs_put(strbuf *sb, const struct search_doc *d);
int search_docs_each(char *text, size_t len,
    int (*each)(void *arg, const struct search_doc *d, mirror_error *err),
    void *arg, mirror_error *err);

#endif
