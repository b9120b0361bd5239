/*
 * undo.h: what a write transaction changed in mirror's own tables, kept
 * so that a build which fails after its sweep committed can take it back
 * (doc/reliability.md, "A failed build").
 *
 * It is SQLite's session extension: while recording, the connection's
 * pre-update hook copies each row of conflicts, conflict_members,
 * sweep_runs, rule_violations, violation_facts, rule_runs and
 * mirror_meta the first time it changes; before the transaction commits
 * (still under its write lock, so nothing but this transaction's
 * changes is in it) the record becomes a changeset. Undoing applies the
 * changeset's inverse in a transaction of its own, refusing it whole
 * when another connection changed any of the same rows since (a
 * reviewer resolved a conflict the sweep opened, a later sweep ran):
 * what others wrote is never overwritten.
 */
#ifndef MIRROR_UNDO_H
#define MIRROR_UNDO_H

#include <stddef.h>

#include "store/store.h"
#include "util/error.h"

/* The changes kept so far, and the recording under way. */
struct store_undo;

/* A new, empty undo (nothing recorded). */
struct store_undo *store_undo_new(void);

/* Free u and what it holds; NULL is harmless. */
void store_undo_free(struct store_undo *u);

/*
 * Start recording what st's connection changes in mirror's tables, right
 * after its write transaction began (BEGIN IMMEDIATE). u NULL records
 * nothing. Returns 0, or < 0 with err set (nothing recorded).
 */
int store_undo_record(struct store_undo *u, mirror_store *st,
    mirror_error *err);

/*
 * The recording's changes, taken just before the COMMIT; kept by u when
 * store_undo_committed follows, dropped by store_undo_drop. u NULL (or
 * not recording) does nothing. Returns 0, or < 0 with err set.
 */
int store_undo_take(struct store_undo *u, mirror_error *err);

/* The transaction committed: what store_undo_take took is kept. */
void store_undo_committed(struct store_undo *u);

/* The transaction rolled back: the recording and what was taken of it
 * go; what u kept before stays. u NULL is harmless. */
void store_undo_drop(struct store_undo *u);

/* The number of bytes of changes u keeps (0: nothing to undo). */
size_t store_undo_size(const struct store_undo *u);

/*
 * Call each(arg, key, len) with column 0 of every row of table that a
 * change u keeps touched, as text: before the change (an update or a
 * delete) and after it (an insert, or an update of that column), so a
 * row whose column 0 changed gives both. Returns 0, or -1 when u keeps
 * no changes (none recorded, or they could not be kept) or they cannot
 * be read: then nothing tells which rows changed.
 */
int store_undo_keys(const struct store_undo *u, const char *table,
    void (*each)(void *arg, const char *key, size_t len), void *arg);

/* Keys of rows a change touched (store_undo_ids): sorted by strcmp,
 * each once. */
struct store_undo_ids {
	char **v;
	size_t n, cap;
};

/*
 * The keys (as store_undo_keys gives them) of the rows of tables a and
 * b that u's changes touched, sorted and each once, into *out (zeroed
 * by the caller). Returns 0, or -1 when u cannot tell which rows changed
 * or they name more than max keys (max 0: no limit); *out then holds
 * some of them. store_undo_ids_free(out) in both cases.
 */
int store_undo_ids(struct store_undo_ids *out, const struct store_undo *u,
    const char *a, const char *b, size_t max);

/* Whether key is one of ids. */
int store_undo_ids_has(const struct store_undo_ids *ids, const char *key);

void store_undo_ids_free(struct store_undo_ids *ids);

/*
 * Move the changes u keeps out of memory into an unlinked temporary
 * file (tmpfile(3): $TMPDIR is not read, P_tmpdir is), for a build whose
 * sweep is read and which keeps them only to undo a failure: at 1M
 * facts they are 20 MB held through the whole render. store_undo_size
 * and store_undo_apply read them as before; store_undo_keys and
 * store_undo_ids no longer can (-1: read everything). When the file
 * cannot be written, u keeps them in memory. u NULL is harmless.
 */
void store_undo_stow(struct store_undo *u);

/*
 * Take back every change u keeps, in one transaction on st (BEGIN
 * IMMEDIATE, waiting as long as the busy timeout), when the store's
 * latest sweep_runs row is still run_id and no row the changes touched
 * was changed by another connection since. Returns 1 undone (u then
 * keeps nothing), 0 with nothing to undo, or < 0 with err set and the
 * store as it was before the call: -MIRROR_EIO naming why.
 */
int store_undo_apply(struct store_undo *u, mirror_store *st,
    const char *run_id, mirror_error *err);

#endif
