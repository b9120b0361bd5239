/*
 * conflict.h: reading recorded conflicts, and the review actions.
 *
 * The read half (conflict_list, conflict_get, conflict_disputed) is what
 * the page renderer uses; it works on any store, also one without
 * mirror's tables (then there are no conflicts). Every string in these
 * structs is owned by the struct that holds it and released by the
 * matching _free function; callers never free fields themselves.
 */
#ifndef MIRROR_CONFLICT_H
#define MIRROR_CONFLICT_H

#include <stddef.h>

#include "store/store.h"
#include "util/byid.h"
#include "util/layer.h"

struct facts_kept;

/* One member of a conflict: a row of one of the three layers. */
struct conflict_member {
	enum fact_layer layer; /* from member_kind */
	char *id;              /* the row's id in its table */
	int trust;             /* member_layer_trust as stored: 3 state, 2
	                          entity, 1 memory */
	char *value_then;      /* value_snapshot: the claim when detected */
	char *value_now;       /* the row's claim now (slot rules); NULL when
	                          the row is gone, "" when it claims nothing */
	char *status_now;      /* the row's status now; NULL when gone */
	char *conflicts_with;  /* member id of the higher-trust row it
	                          contradicts, or NULL */
	int favoured;          /* 1 when the trust order favours this member */
	char *layer_type;      /* state category, entity_type, memory_type;
	                          NULL when gone */
	char *source;          /* provenance: state.source, entity
	                          source_refs (JSON text), memory type; NULL
	                          when gone */
	char *created_at;      /* NULL when gone */
	char *updated_at;      /* NULL when gone */
	char *label;           /* entity name, state key, memory content;
	                          NULL when gone */
	char *project;         /* the row's canonical project now ("" for
	                          none); NULL when gone */
	char *slot_words;      /* the slot in the row's own words, case
	                          kept (slot_words); NULL when gone, for a
	                          memory or a row with no slot */
};

/* One conflict with its members and the earlier conflicts on its slot. */
struct conflict {
	char *id;
	char *detected_at;     /* 'YYYY-MM-DD HH:MM:SS' */
	char *slot_kind;       /* memory_slot | entity_slot | cross_layer */
	char *slot_key;        /* the JSON array text, as stored */
	char *project;         /* canonical project id ('' for none) */
	char *status;          /* open | resolved | dismissed */
	char *resolved_at;     /* NULL while open */
	char *resolution;      /* reviewer's notes or reason, or the sweep's */
	char *resolved_by;     /* actor, 'sweep', or '' */
	long long seq;         /* the row's rowid: rows opened later have
	                          greater ones */
	char *description;     /* the slot in plain words */
	char *question;        /* the reviewer's yes/no question, about the
	                          value the trust order favours (the first
	                          member's value when trust does not decide),
	                          as the row holds it now (when detected,
	                          once the row is gone) */
	char *question_then;   /* the same, of every member's value when
	                          detected (value_then): what a change log
	                          says of it, the same in every later build;
	                          NULL until the pages fill it */
	struct conflict_member *members;  /* trust order: highest trust
	                                     first, then kind, then id */
	size_t n_members;
	char **earlier;        /* ids of earlier conflicts on the same slot,
	                          newest first */
	size_t n_earlier;
};

struct conflict_list {
	struct conflict *items;
	size_t n;
};

/* What conflict_list returns; NULL fields do not filter. */
struct conflict_filter {
	const char *status;    /* "open", "resolved" or "dismissed" */
	const char *project;   /* a project id or alias (canonicalised) */
};

/* How many conflicts have each status. */
struct conflict_counts {
	long long open, resolved, dismissed;
};

/*
 * Count the conflicts of st by status (all 0 before the first sweep).
 * Returns 0 or < 0 with err set.
 */
int conflict_counts(struct conflict_counts *out, mirror_store *st,
    mirror_error *err);

/*
 * Fill *out with every conflict that passes filter (which may be NULL),
 * sorted open first, then resolved, then dismissed; within each by
 * detected_at descending, then id. Members are read with their rows'
 * current state. A filter naming a project that is neither a project id
 * or alias of st nor the project of a conflict is -MIRROR_EINPUT "no
 * project 'P' in STORE". Returns 0 or < 0 with err set; the caller must
 * conflict_list_free(out) in both cases.
 */
int conflict_list(struct conflict_list *out, mirror_store *st,
    const struct conflict_filter *filter, mirror_error *err);

void conflict_list_free(struct conflict_list *l);

/*
 * Read again the rows now of the members of the n conflicts of l at the
 * indexes which (a list conflict_list filled, its facts changed since),
 * and the question they decide, as conflict_list reads them; the rest
 * (the conflicts' rows, members, earlier ids) stays. An entity
 * member's part_of parents come from kept when a project of it holds the
 * entity (factrow.h's factrow_reader_kept; NULL: from the store).
 * Returns 0 or < 0 with err set.
 */
int conflict_list_refresh(struct conflict_list *l, const size_t *which,
    size_t n, mirror_store *st, const struct facts_kept *kept,
    mirror_error *err);

/*
 * Read every row of conflicts and conflict_members as conflict_list and
 * the sweep read them, keeping nothing: so a build or a sweep refuses
 * bad text mirror once wrote before it writes. Returns 0 or the first
 * bad row's -MIRROR_EINPUT naming store, table, row and column.
 */
int conflict_check(mirror_store *st, mirror_error *err);

/*
 * Fill *out with conflict id, an entity member's part_of parents taken
 * from kept (a check's kept facts of rows this read still sees, as
 * conflict_list_refresh takes them; NULL: from the store). Returns 0,
 * -MIRROR_EINPUT with "no conflict 'id'" when there is none, or < 0 on
 * failure. The caller must conflict_free(out) in every case.
 */
int conflict_get(struct conflict *out, mirror_store *st, const char *id,
    const struct facts_kept *kept, mirror_error *err);

void conflict_free(struct conflict *c);

/* One fact that is a member of an open conflict. */
struct disputed {
	enum fact_layer layer;
	const char *kind;      /* layer_kind(layer), static: what the index
	                          pairs with id */
	char *id;
	char *conflict_id;
};

struct disputed_list {
	struct disputed *items;  /* sorted by member kind, id, conflict_id */
	size_t n;
	struct byid_pairs by;    /* by kind and id */
};

/*
 * Fill *out with every (layer, id, conflict_id) of the members of open
 * conflicts, sorted for disputed_find. Returns 0 or < 0 with err set; the
 * caller must disputed_list_free(out) in both cases.
 */
int conflict_disputed(struct disputed_list *out, mirror_store *st,
    mirror_error *err);

/*
 * The first entry (smallest conflict id) for the fact layer/id, or NULL
 * when the fact is in no open conflict. A hash lookup; the result points
 * into l.
 */
const struct disputed *disputed_find(const struct disputed_list *l,
    enum fact_layer layer, const char *id);

void disputed_list_free(struct disputed_list *l);

/* ---- review actions (SPEC section 4); each is one transaction -------- */

/* A reviewer's decision on one open conflict: its resolution
 * (conflict_resolve) or its dismissal (conflict_dismiss). */
struct conflict_resolution {
	const char *id;        /* the conflict */
	const char *notes;     /* the reviewer's words, kept as resolution
	                          (a dismissal's reason) */
	const char *winner;    /* a member id, or "kind:id" when the id is
	                          ambiguous; NULL: none (a dismissal has
	                          none: not read) */
	const char *actor;     /* who resolves: resolved_by */
	const char *now;       /* 'YYYY-MM-DD HH:MM:SS': resolved_at */
};

/*
 * Close open conflict res->id as resolved with res->notes, by
 * res->actor, at res->now. With a winner, every other active member
 * whose value differs from the winner's becomes superseded (entities
 * get a 'supersedes' relationship from an entity winner) and each
 * change is audited. Returns 0, -MIRROR_EINPUT for an unknown id, a
 * winner that is not a member, or a conflict that is not open (nothing
 * changed), or < 0. *superseded (may be NULL) gets the number of rows
 * superseded.
 */
int conflict_resolve(mirror_store *st, const struct conflict_resolution *res,
    int *superseded, mirror_error *err);

/* Close open conflict res->id as dismissed with res->notes (the
 * reason), by res->actor at res->now. Changes no fact. Returns 0 or
 * < 0 like conflict_resolve. */
int conflict_dismiss(mirror_store *st, const struct conflict_resolution *res,
    mirror_error *err);

#endif
