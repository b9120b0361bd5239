/*
 * review.c: the review actions on a conflict (SPEC section 4).
 *
 * Each action is one write transaction: either every change (conflict
 * status, superseded rows, supersedes relationships, audit rows) lands,
 * or none does. Errors name the conflict and leave the store unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store/storerow.h"
#include "sweep/conflict.h"
#include "sweep/slot.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct rmember {
	enum fact_layer layer;
	char *id, *value;
	int trust;
};

struct review {
	mirror_store *st;
	sqlite3 *db;
	const char *cid, *actor, *now;
	const char *text;       /* the reviewer's notes or reason */
	struct rmember *m;
	size_t n;
};

static int
rexec(struct review *r, const char *sql, const char *what, mirror_error *err)
{
	int rc = sqlite3_exec(r->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(r->st, err, rc, what);
}

/* Run sql with text parameters p[0..np) (NULL binds NULL); the rows it
 * changed are then sqlite3_changes(r->db). Returns 0, or < 0 with err
 * set. */
static int
run(struct review *r, const char *sql, const char *const *p, int np,
    mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	rc = sqlite3_prepare_v2(r->db, sql, -1, &s, NULL);
	for (int i = 0; rc == SQLITE_OK && i < np; i++)
		rc = p[i] != NULL ? sqlite3_bind_text(s, i + 1, p[i], -1,
		    SQLITE_TRANSIENT) : sqlite3_bind_null(s, i + 1);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_DONE || rc == SQLITE_ROW)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_OK ? 0 : store_fail(r->st, err, rc,
	    "cannot record the review");
}

static void
members_free(struct review *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->m[i].id);
		free(r->m[i].value);
	}
	free(r->m);
	r->m = NULL;
	r->n = 0;
}

/* Check that conflict r->cid exists and is open; load its members. */
static int
load_open(struct review *r, mirror_error *err)
{
	sqlite3_stmt *s = NULL;
	size_t cap = 0;
	int rc;

	if (!store_features(r->st)->has_mirror_tables)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no conflict "
		    "'%s'", store_path(r->st), r->cid);
	rc = sqlite3_prepare_v2(r->db, "SELECT status FROM main.conflicts "
	    "WHERE id = ?1", -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(s, 1, r->cid, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(s);
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no conflict "
		    "'%s' (see mirror conflicts list)", store_path(r->st),
		    r->cid);
	}
	if (rc != SQLITE_ROW) {
		rc = store_fail(r->st, err, rc, "cannot read a conflict");
		sqlite3_finalize(s);
		return rc;
	}
	{
		struct store_row row = { .st = r->st, .stmt = s,
		    .table = "conflicts", .id = r->cid, .err = err };
		char *status = NULL;

		rc = storerow_enum(&status, &row, 0, "status",
		    storerow_conflict_status);
		if (rc == 0 && strcmp(status, "open") != 0)
			rc = mirror_fail(err, MIRROR_EINPUT, "conflict '%s' is "
			    "%s, not open; nothing changed", r->cid, status);
		free(status);
		if (rc < 0) {
			sqlite3_finalize(s);
			return rc;
		}
	}
	sqlite3_finalize(s);
	s = NULL;
	rc = sqlite3_prepare_v2(r->db, "SELECT member_kind, member_id, "
	    "value_snapshot, member_layer_trust FROM main.conflict_members "
	    "WHERE conflict_id = ?1 ORDER BY member_layer_trust DESC, "
	    "member_kind, member_id", -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(s, 1, r->cid, -1, SQLITE_TRANSIENT);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_row row = { .st = r->st, .stmt = s,
		    .table = "conflict_members", .id = r->cid, .err = err };
		struct rmember *m;

		m = &ARRAY_PUSH(r->m, r->n, cap);
		memset(m, 0, sizeof(*m));
		if ((rc = storerow_text(&m->id, &row, 1, "member_id", 0)) < 0)
			break;
		row.member = m->id;
		if ((rc = storerow_layer(&m->layer, &row, 0,
		    "member_kind")) < 0 ||
		    (rc = storerow_text(&m->value, &row, 2, "value_snapshot",
		    0)) < 0)
			break;
		m->trust = sqlite3_column_int(s, 3);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	if (rc != SQLITE_DONE)
		return store_fail(r->st, err, rc, "cannot read conflict members");
	return 0;
}

/* Find the member named by w ("id" or "kind:id"). */
static int
find_winner(struct review *r, const char *w, size_t *out, mirror_error *err)
{
	size_t hits = 0, at = 0;
	const char *colon = strchr(w, ':');

	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i].id, w) == 0) {
			hits++;
			at = i;
		}
	if (hits == 0 && colon != NULL)
		for (size_t i = 0; i < r->n; i++) {
			const char *kind = layer_kind(r->m[i].layer);

			if (strlen(kind) == (size_t)(colon - w) &&
			    strncmp(kind, w, (size_t)(colon - w)) == 0 &&
			    strcmp(r->m[i].id, colon + 1) == 0) {
				hits++;
				at = i;
			}
		}
	if (hits == 1) {
		*out = at;
		return 0;
	}
	if (hits > 1)
		return mirror_fail(err, MIRROR_EINPUT, "winner '%s' is "
		    "ambiguous in conflict '%s': name it as kind:id "
		    "(e.g. entity:%s)", w, r->cid, w);
	{
		strbuf sb;
		int rc;

		strbuf_init(&sb);
		for (size_t i = 0; i < r->n; i++)
			strbuf_printf(&sb, "%s%s:%s", i ? ", " : "",
			    layer_kind(r->m[i].layer), r->m[i].id);
		rc = mirror_fail(err, MIRROR_EINPUT, "winner '%s' is not a "
		    "member of conflict '%s' (members: %s); nothing changed",
		    w, r->cid, sb.data);
		strbuf_free(&sb);
		return rc;
	}
}

/* What make_id makes an id of: prefix, then 12 hex digits of the hash
 * of parts[0..np), moved on while taken in table. */
struct id_recipe {
	const char *prefix;
	const char *table;
	const char *const *parts;
	int np;
};

/* A deterministic id into out, as how says. Returns 0 or < 0 with err
 * set. */
static int
make_id(struct review *r, char out[32], const struct id_recipe *how,
    mirror_error *err)
{
	const char *prefix = how->prefix, *table = how->table;
	const char *const *parts = how->parts;
	int np = how->np;
	char sql[96];
	int n = snprintf(sql, sizeof(sql), "SELECT 1 FROM main.%s WHERE id = "
	    "?1", table);

	if (n < 0 || (size_t)n >= sizeof(sql))
		return mirror_fail(err, MIRROR_EIO, "internal: sql too long");
	for (unsigned k = 0;; k++) {
		uint64_t h = MIRROR_HASH_INIT;
		sqlite3_stmt *s = NULL;
		char hex[17];
		int rc;

		for (int i = 0; i < np; i++)
			h = hash_add_str(h, parts[i]);
		if (k > 0)
			h = hash_add(h, &k, sizeof(k));
		hash_hex(hex, h);
		n = snprintf(out, 32, "%s%.12s", prefix, hex);
		if (n < 0 || n >= 32)
			return mirror_fail(err, MIRROR_EIO, "internal: id");
		rc = sqlite3_prepare_v2(r->db, sql, -1, &s, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_bind_text(s, 1, out, -1, SQLITE_TRANSIENT);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return 0;
		if (rc != SQLITE_ROW)
			return store_fail(r->st, err, rc, "cannot make an id");
	}
}

/* One change to a member for the audit trail: its action, the row's
 * JSON before and after, and a note. */
struct audit_change {
	const char *action;
	const char *before, *after;
	const char *note;
};

/* Write m's change ch to main.memory_audit. Returns 0 or < 0 with err
 * set. */
static int
audit(struct review *r, const struct rmember *m,
    const struct audit_change *ch, mirror_error *err)
{
	const char *action = ch->action, *before = ch->before;
	const char *after = ch->after, *note = ch->note;
	const char *kind = layer_kind(m->layer);
	const char *idparts[5] = { r->cid, kind, m->id, action, r->now };
	char id[32];
	strbuf nb;
	int rc;

	if ((rc = make_id(r, id, &(struct id_recipe){ .prefix = "audit-",
	    .table = "memory_audit", .parts = idparts, .np = 5 }, err)) < 0)
		return rc;
	strbuf_init(&nb);
	strbuf_printf(&nb, "conflict %s: %s", r->cid, note);
	{
		const char *p[9] = { id, m->id, kind, action, r->actor,
		    before, after, nb.data, r->now };

		rc = run(r, "INSERT INTO main.memory_audit(id, memory_id, "
		    "entity_kind, action, actor, before_json, after_json, note, "
		    "timestamp) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
		    p, 9, err);
	}
	strbuf_free(&nb);
	return rc;
}

/* Does main.table have column? (0 also when it cannot be told.) */
static int
has_column(struct review *r, const char *table, const char *column)
{
	sqlite3_stmt *s = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info(?1) "
	    "WHERE name = ?2", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_text(s, 1, table, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, column, -1, SQLITE_TRANSIENT);
		found = sqlite3_step(s) == SQLITE_ROW;
	}
	sqlite3_finalize(s);
	return found;
}

/* Supersede loser in favour of winner; audit it with r's notes. *done =
 * 1 when the row was active and is now superseded. Returns 0, or < 0
 * with err set. */
static int
supersede(struct review *r, const struct rmember *winner,
    const struct rmember *loser, int *done, mirror_error *err)
{
	const char *table = layer_table(loser->layer), *notes = r->text;
	char sql[160], *after;
	json_t *aj;
	int rc, n;

	*done = 0;
	n = snprintf(sql, sizeof(sql), "UPDATE main.%s SET status = "
	    "'superseded', updated_at = ?2 WHERE id = ?1 AND status = "
	    "'active'", table);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return mirror_fail(err, MIRROR_EIO, "internal: sql too long");
	if ((rc = run(r, sql, (const char *const[]){ loser->id, r->now }, 2,
	    err)) < 0 || sqlite3_changes(r->db) == 0)
		return rc;
	*done = 1;
	aj = json_pack("{s:s, s:s, s:s}", "status", "superseded",
	    "superseded_by", winner->id, "superseded_by_kind",
	    layer_kind(winner->layer));
	after = aj != NULL ? json_dumps(aj, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENSURE_ASCII) : NULL;
	json_decref(aj);
	rc = audit(r, loser, &(struct audit_change){ .action = "superseded",
	    .before = "{\"status\":\"active\"}",
	    .after = after != NULL ? after : "{\"status\":\"superseded\"}",
	    .note = notes }, err);
	free(after);
	if (rc < 0)
		return rc;
	if (winner->layer == LAYER_ENTITY && loser->layer == LAYER_ENTITY) {
		const char *parts[3] = { "supersedes", winner->id, loser->id };
		char rid[32];

		if ((rc = make_id(r, rid, &(struct id_recipe){ .prefix = "rel-",
		    .table = "relationships", .parts = parts, .np = 3 },
		    err)) < 0)
			return rc;
		/* created_at is optional in the contract; when present it
		 * gets the run's clock, not SQLite's. */
		rc = run(r, "INSERT INTO main.relationships(id, "
		    "source_entity_id, target_entity_id, relationship_type, "
		    "confidence) VALUES(?1, ?2, ?3, 'supersedes', 1.0)",
		    (const char *const[]){ rid, winner->id, loser->id }, 3,
		    err);
		if (rc == 0 && has_column(r, "relationships", "created_at"))
			rc = run(r, "UPDATE main.relationships SET created_at = "
			    "?2 WHERE id = ?1", (const char *const[]){ rid,
			    r->now }, 2, err);
	}
	return rc;
}

/* Close the conflict; audit every member not otherwise audited. */
static int
close_conflict(struct review *r, const char *status, const char *text,
    const int *skip_audit, mirror_error *err)
{
	const char *action = strcmp(status, "resolved") == 0 ?
	    "conflict_resolved" : "conflict_dismissed";
	int rc;

	for (size_t i = 0; i < r->n; i++)
		if (!skip_audit[i] && (rc = audit(r, &r->m[i],
		    &(struct audit_change){ .action = action, .before = "{}",
		    .after = "{}", .note = text }, err)) < 0)
			return rc;
	rc = run(r, "UPDATE main.conflicts SET status = ?2, resolved_at = ?3, "
	    "resolution = ?4, resolved_by = ?5 WHERE id = ?1 AND status = "
	    "'open'", (const char *const[]){ r->cid, status, r->now, text,
	    r->actor }, 5, err);
	if (rc == 0 && sqlite3_changes(r->db) != 1)
		rc = mirror_fail(err, MIRROR_EINPUT, "conflict '%s' is not "
		    "open; nothing changed", r->cid);
	return rc;
}

/* A review of one conflict: resolve (with winner, or none) or dismiss
 * conflict id with text, by actor at now. */
struct review_act {
	const char *id;
	const char *text;
	const char *winner;
	const char *actor;
	const char *now;
	int dismiss;
};

/* Do a on st in one transaction; *superseded (may be NULL) gets the
 * rows superseded. Returns as conflict_resolve. */
static int
act(mirror_store *st, const struct review_act *a, int *superseded,
    mirror_error *err)
{
	const char *text = a->text, *winner = a->winner;
	int dismiss = a->dismiss;
	struct review r = { 0 };
	int *skip = NULL, rc, count = 0;
	size_t w = 0;

	r.st = st;
	r.db = store_db(st);
	r.cid = a->id;
	r.actor = a->actor;
	r.now = a->now;
	r.text = text;
	if ((rc = rexec(&r, "BEGIN IMMEDIATE", "cannot lock the store", err)) < 0)
		return rc;
	if ((rc = load_open(&r, err)) < 0)
		goto fail;
	skip = xcalloc(r.n + 1, sizeof(*skip));
	if (winner != NULL) {
		if ((rc = find_winner(&r, winner, &w, err)) < 0)
			goto fail;
		/* SPEC 4: every other member becomes superseded, also one
		 * that agrees with the winner: the winner now speaks for the
		 * slot, and the audit trail says so for each row. */
		for (size_t i = 0; i < r.n && rc == 0; i++) {
			int done;

			if (i == w)
				continue;
			rc = supersede(&r, &r.m[w], &r.m[i], &done, err);
			skip[i] = done;
			count += done;
		}
		if (rc < 0)
			goto fail;
	}
	if ((rc = close_conflict(&r, dismiss ? "dismissed" : "resolved", text,
	    skip, err)) < 0 ||
	    (rc = rexec(&r, "COMMIT", "cannot commit the review", err)) < 0)
		goto fail;
	if (superseded != NULL)
		*superseded = count;
	free(skip);
	members_free(&r);
	return 0;
fail:
	(void)sqlite3_exec(r.db, "ROLLBACK", NULL, NULL, NULL);
	free(skip);
	members_free(&r);
	return rc;
}

int
conflict_resolve(mirror_store *st, const struct conflict_resolution *res,
    int *superseded, mirror_error *err)
{
	if (superseded != NULL)
		*superseded = 0;
	return act(st, &(struct review_act){ .id = res->id,
	    .text = res->notes, .winner = res->winner, .actor = res->actor,
	    .now = res->now, .dismiss = 0 }, superseded, err);
}

int
conflict_dismiss(mirror_store *st, const struct conflict_resolution *res,
    mirror_error *err)
{
	return act(st, &(struct review_act){ .id = res->id, .text = res->notes,
	    .actor = res->actor, .now = res->now, .dismiss = 1 }, NULL, err);
}
