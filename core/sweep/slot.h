/*
 * slot.h: which slot a fact claims, and with what value (SPEC 3.2-3.4).
 *
 * Every rule lives in the tables of slot.c: a reader finds "what is the
 * slot of a decision?" there, in one place. The sweep asks slot_claim
 * for each taking-part row; the review pages ask it again for a row's
 * value now. slot_describe turns a stored slot back into plain words.
 */
#ifndef MIRROR_SLOT_H
#define MIRROR_SLOT_H

#include <stddef.h>

#include "util/error.h"
#include "util/layer.h"

/* One row as the rules see it. All strings are borrowed. */
struct fact {
	enum fact_layer layer;
	const char *id;
	const char *type;       /* state category, entity_type, memory_type */
	const char *project;    /* canonical project ('' for none) */
	const char *name;       /* state key, entity name; NULL for memories */
	const char *text;       /* state value, entity description, memory
	                           content */
	const char *properties; /* entity properties (JSON text) or NULL */
	const char *parent;     /* entity: its part_of parent's name, or NULL */
	const char *component;  /* entity: the component naming this material
	                           through a uses_material edge, or NULL */
};

/*
 * Does project have cross-layer key among its trusted state or entities?
 * Returns 1 yes, 0 no, < 0 on failure (err set). Used for project,
 * knowledge and adaptation memories, which only join a known key.
 */
typedef int slot_known_fn(void *arg, const char *project, const char *key,
    mirror_error *err);

/* What one row claims. Every string is owned by the claim. */
struct claim {
	const char *slot_kind;  /* "cross_layer" (state), "entity_slot" or
	                           "memory_slot"; static */
	char *slot;             /* the slot as a JSON array of strings */
	char *xkey;             /* cross-layer key, or NULL when none */
	char *value;            /* the claimed value, as the row says it */
	char *norm;             /* value in norm_value form (+ polarity) */
	char *valid_from;       /* entity window or NULL (open) */
	char *valid_until;
};

/*
 * Compute what f claims. Returns 1 with *out filled (release it with
 * claim_free), 0 when f claims no slot (*out zeroed), or < 0 with err
 * set (entity properties that are not a JSON object, or known failed).
 * known may be NULL: then every memory subject counts as a known key.
 */
int slot_claim(struct claim *out, const struct fact *f, slot_known_fn *known,
    void *arg, mirror_error *err);

void claim_free(struct claim *c);

/*
 * The slot of a stored conflict in plain words ("lateral support
 * material of p05-interferometer") and the yes/no question about value
 * ("Is the lateral support material of p05-interferometer GF-PTFE?").
 * slot_key is the stored JSON array; a malformed one is described as
 * itself. Both return new strings the caller must free.
 */
char *slot_describe(const char *slot_kind, const char *slot_key);
char *slot_question(const char *slot_kind, const char *slot_key,
    const char *value);

/*
 * The slot f claims in its own words, the case of its keys and names
 * kept: a state row's key as stored; an entity's slot fields as its
 * properties (or name) write them, worded as slot_describe words its
 * type ("result first mode frequency of model Bench modal FEA"), without
 * the project. NULL for a memory (matched in lower case, its words are
 * slot_describe's) and for a row no rule gives a slot. A new string the
 * caller frees.
 */
char *slot_words(const struct fact *f);

/* The JSON array of strings parts[0..n) as slot keys are stored
 * (compact, deterministic). Returns a new string the caller frees. */
char *slot_key_json(const char *const *parts, size_t n);

#endif
