/*
 * conflict.c: reading conflicts for the pages and the review queue.
 * The review actions (resolve, dismiss) are in review.c.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "store/finding.h"
#include "store/storerow.h"
#include "sweep/conflict.h"
#include "sweep/factrow.h"
#include "sweep/normalize.h"
#include "sweep/slot.h"
#include "util/array.h"
#include "util/byid.h"
#include "util/xalloc.h"

/* Prepared statements shared by every conflict read in one call. */
struct reader {
	mirror_store *st;
	sqlite3_stmt *earlier;
	struct factrow_reader *rows;    /* the members' rows now */
};

static void member_free(struct conflict_member *m);

void
conflict_free(struct conflict *c)
{
	if (c == NULL)
		return;
	free(c->id);
	free(c->detected_at);
	free(c->slot_kind);
	free(c->slot_key);
	free(c->project);
	free(c->status);
	free(c->resolved_at);
	free(c->resolution);
	free(c->resolved_by);
	free(c->description);
	free(c->question);
	free(c->question_then);
	for (size_t i = 0; i < c->n_members; i++)
		member_free(&c->members[i]);
	free(c->members);
	finding_ids_free(c->earlier, c->n_earlier);
	memset(c, 0, sizeof(*c));
}

/* Open r on st; its members' rows take their parents from kept when
 * it holds them (factrow_reader_kept; NULL: none). Returns 0 or < 0
 * with err set. */
static int
reader_open(struct reader *r, mirror_store *st,
    const struct facts_kept *kept, mirror_error *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->st = st;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT id FROM "
	    /* Opened in the same second: insertion order decides. */
	    "main.conflicts WHERE slot_kind = ?1 AND slot_key = ?2 "
	    "AND id <> ?3 AND (detected_at < ?4 OR (detected_at = ?4 "
	    "AND rowid < (SELECT rowid FROM main.conflicts WHERE id = "
	    "?3))) ORDER BY detected_at DESC, rowid DESC",
	    -1, &r->earlier, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read conflicts");
	/* The rows read are the members': an entity's parents are
	 * gathered only for the entities that are members. */
	rc = factrow_reader_open(&r->rows, st, "SELECT member_id FROM "
	    "main.conflict_members WHERE member_kind = 'entity'", err);
	if (rc == 0)
		factrow_reader_kept(r->rows, kept);
	return rc;
}

static void
reader_close(struct reader *r)
{
	sqlite3_finalize(r->earlier);
	factrow_reader_close(r->rows);
}

/* Fill the current-row half of member m from the store (rows the
 * reader's factrow_reader); a gone row leaves it NULL. Returns 0 or < 0
 * with err set. */
static int
member_now(struct conflict_member *m, struct factrow_reader *rows,
    mirror_error *err)
{
	struct factrow row;
	struct claim cl;
	int rc;

	rc = factrow_read(&row, rows, m->layer, m->id, err);
	if (rc <= 0) {
		factrow_free(&row);
		return rc;
	}
	m->slot_words = slot_words(&row.f);
	if (factrow_claim(&cl, &row) == 1) {
		m->value_now = xstrdup(cl.value);
		claim_free(&cl);
	} else
		m->value_now = xstrdup("");
	m->status_now = row.status;
	row.status = NULL;
	m->layer_type = row.type;
	row.type = NULL;
	m->source = row.source;
	row.source = NULL;
	m->created_at = row.created_at;
	row.created_at = NULL;
	m->updated_at = row.updated_at;
	row.updated_at = NULL;
	m->project = row.project;
	row.project = NULL;
	if (row.f.layer == LAYER_MEMORY) {
		m->label = row.text;
		row.text = NULL;
	} else {
		m->label = row.name;
		row.name = NULL;
	}
	factrow_free(&row);
	return 0;
}

/* Release what a member holds, not the struct itself. */
static void
member_free(struct conflict_member *m)
{
	free(m->id);
	free(m->value_then);
	free(m->value_now);
	free(m->status_now);
	free(m->conflicts_with);
	free(m->layer_type);
	free(m->source);
	free(m->created_at);
	free(m->updated_at);
	free(m->label);
	free(m->project);
	free(m->slot_words);
}

/*
 * The trust order favours the highest-trust members when some member
 * has lower trust and the highest-trust members agree among themselves.
 */
static void
mark_favoured(struct conflict *c)
{
	int top = 0, lower = 0, agree = 1;
	char *first = NULL;

	for (size_t i = 0; i < c->n_members; i++)
		if (c->members[i].trust > top)
			top = c->members[i].trust;
	for (size_t i = 0; i < c->n_members; i++) {
		struct conflict_member *m = &c->members[i];
		char *nv;

		if (m->trust < top) {
			lower = 1;
			continue;
		}
		nv = norm_value(m->value_then);
		if (first == NULL)
			first = nv;
		else {
			agree &= strcmp(first, nv) == 0;
			free(nv);
		}
	}
	free(first);
	for (size_t i = 0; i < c->n_members; i++)
		c->members[i].favoured = lower && agree &&
		    c->members[i].trust == top;
}

/* Every conflict's slot, sorted by slot, then newest first, so that the
 * earlier conflicts of each listed one are found by binary search
 * instead of a query per conflict (the store has no index for it). */
static const struct finding_keys slot_keys = {
	.sql = "SELECT slot_kind, slot_key, id FROM main.conflicts WHERE "
	    "slot_kind IS NOT NULL AND slot_key IS NOT NULL ORDER BY "
	    "slot_kind, slot_key, detected_at DESC, rowid DESC",
	.table = "conflicts",
	.a = "slot_kind",
	.b = "slot_key",
	.what = "conflicts",
};

/*
 * Fill the stored half of m from row (member_kind, member_id,
 * member_layer_trust, value_snapshot, conflicts_with), every column
 * checked; row->id names the conflict. Returns 0 or -MIRROR_EINPUT.
 */
static int
member_row(struct conflict_member *m, struct store_row *row)
{
	int rc;

	memset(m, 0, sizeof(*m));
	row->member = NULL;
	if ((rc = storerow_text(&m->id, row, 1, "member_id", 0)) < 0)
		return rc;
	row->member = m->id;
	if ((rc = storerow_layer(&m->layer, row, 0, "member_kind")) < 0 ||
	    (rc = storerow_text(&m->value_then, row, 3, "value_snapshot",
	    0)) < 0 ||
	    (rc = storerow_text(&m->conflicts_with, row, 4, "conflicts_with",
	    1)) < 0)
		return rc;
	if (sqlite3_column_type(row->stmt, 2) != SQLITE_INTEGER)
		return storerow_fail(row, "member_layer_trust",
		    "is not an integer");
	m->trust = sqlite3_column_int(row->stmt, 2);
	return 0;
}

/* Check the conflict_members row of r (finding_check). Returns 0 or
 * -MIRROR_EINPUT. */
static int
member_check_row(struct store_row *r)
{
	struct conflict_member m;
	int rc = member_row(&m, r);

	member_free(&m);
	return rc;
}

#define MEMBER_COLS "member_kind, member_id, member_layer_trust, " \
	"value_snapshot, conflicts_with, conflict_id"

/* The members' table: the facts a conflict flags, the highest trust
 * first (finding.h). */
static const struct finding_table member_table = {
	.table = "conflict_members",
	.what = "conflict members",
	.owner = "conflict_id",
	.owner_col = 5,
	.all_sql = "SELECT " MEMBER_COLS " FROM main.conflict_members "
	    "ORDER BY conflict_id, member_layer_trust DESC, member_kind, "
	    "member_id",
	.one_sql = "SELECT " MEMBER_COLS " FROM main.conflict_members "
	    "WHERE conflict_id = ?1 ORDER BY member_layer_trust DESC, "
	    "member_kind, member_id",
	.check_sql = "SELECT " MEMBER_COLS " FROM main.conflict_members",
};

/* Read the members of the n conflicts of items. Returns 0 or < 0 with
 * err set. */
static int
members_read(struct conflict *items, size_t n, mirror_store *st,
    mirror_error *err)
{
	char **ids = xcalloc(n + 1, sizeof(*ids));
	struct finding_rows cur;
	size_t at;
	int rc;

	for (size_t i = 0; i < n; i++)
		ids[i] = items[i].id;
	rc = finding_rows_open(&cur, &member_table, ids, st, err);
	while (rc == 0 && (rc = finding_rows_next(&cur, &at)) > 0) {
		struct conflict *c = &items[at];

		if (rc == FINDING_END) {
			ARRAY_FIT(c->members, c->n_members, cur.cap);
			rc = 0;
		} else
			rc = member_row(&ARRAY_PUSH(c->members, c->n_members,
			    cur.cap), &cur.row);
	}
	finding_rows_close(&cur);
	free(ids);
	return rc;
}

/* The rows now of the members of the n conflicts of items, looked up
 * in order of layer and id (finding.h). Returns 0 or the first error. */
static int
members_now(struct conflict *items, size_t n, struct factrow_reader *rows,
    mirror_error *err)
{
	struct finding_order o = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < items[i].n_members; j++)
			finding_order_add(&o,
			    layer_kind(items[i].members[j].layer),
			    items[i].members[j].id, i, j);
	finding_order_sort(&o);
	for (size_t k = 0; k < o.n && rc == 0; k++)
		rc = member_now(&items[o.v[k].finding].members[o.v[k].at],
		    rows, err);
	finding_order_free(&o);
	return rc;
}

/* The member's value now, else (its row gone) when detected. */
static const char *
member_value(const struct conflict_member *m)
{
	return m->value_now != NULL ? m->value_now : m->value_then;
}

/* c's description and question, from its slot and its favoured
 * member's value (else its first member's). Returns nothing. */
static void
conflict_words(struct conflict *c)
{
	const char *qvalue = NULL;

	for (size_t i = 0; i < c->n_members && qvalue == NULL; i++)
		if (c->members[i].favoured)
			qvalue = member_value(&c->members[i]);
	if (qvalue == NULL && c->n_members > 0)
		qvalue = member_value(&c->members[0]);
	c->description = slot_describe(c->slot_kind, c->slot_key);
	c->question = slot_question(c->slot_kind, c->slot_key, qvalue);
}

/* Fill the favoured members, earlier ids, description and question of
 * c, its members and their rows now read; the earlier ids come from ix
 * when given, else from a query. */
static int
conflict_fill(struct conflict *c, struct reader *r,
    const struct finding_earlier *ix, mirror_error *err)
{
	struct store_row row = { .st = r->st, .stmt = r->earlier,
	    .table = "conflicts", .err = err };
	size_t cap = 0;
	int rc;

	mark_favoured(c);
	cap = 0;
	if (ix != NULL) {
		finding_earlier(&c->earlier, &c->n_earlier, ix, c->slot_kind,
		    c->slot_key, c->id);
		goto words;
	}
	sqlite3_bind_text(r->earlier, 1, c->slot_kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(r->earlier, 2, c->slot_key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(r->earlier, 3, c->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(r->earlier, 4, c->detected_at, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(r->earlier)) == SQLITE_ROW) {
		ARRAY_RESERVE(c->earlier, cap, c->n_earlier + 1);
		if ((rc = storerow_text(&c->earlier[c->n_earlier], &row, 0,
		    "id", 0)) < 0)
			break;
		c->n_earlier++;
	}
	sqlite3_reset(r->earlier);
	if (rc < 0)
		return rc;
	if (rc != SQLITE_DONE)
		return store_fail(r->st, err, rc, "cannot read conflicts");
words:
	conflict_words(c);
	return 0;
}

#define CONFLICT_COLS "id, detected_at, slot_kind, slot_key, project, " \
	"status, resolved_at, resolution, resolved_by, rowid"

/*
 * Fill c from the conflicts row s, every column checked. Returns 0 or
 * -MIRROR_EINPUT naming store, table, row and column.
 */
static int
conflict_row(struct conflict *c, mirror_store *st, sqlite3_stmt *s,
    mirror_error *err)
{
	struct store_row r = { .st = st, .stmt = s, .table = "conflicts",
	    .err = err };
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = storerow_text(&c->id, &r, 0, "id", 0)) < 0)
		return rc;
	r.id = c->id;
	if ((rc = storerow_text(&c->detected_at, &r, 1, "detected_at",
	    0)) < 0 ||
	    (rc = storerow_enum(&c->slot_kind, &r, 2, "slot_kind",
	    storerow_slot_kinds)) < 0 ||
	    (rc = storerow_text(&c->slot_key, &r, 3, "slot_key", 0)) < 0 ||
	    (rc = storerow_text(&c->project, &r, 4, "project", 0)) < 0 ||
	    (rc = storerow_enum(&c->status, &r, 5, "status",
	    storerow_conflict_status)) < 0 ||
	    (rc = storerow_text(&c->resolved_at, &r, 6, "resolved_at",
	    1)) < 0 ||
	    (rc = storerow_text(&c->resolution, &r, 7, "resolution", 0)) < 0 ||
	    (rc = storerow_text(&c->resolved_by, &r, 8, "resolved_by", 0)) < 0)
		return rc;
	c->seq = sqlite3_column_int64(s, 9);
	return 0;
}

int
conflict_counts(struct conflict_counts *out, mirror_store *st,
    mirror_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_mirror_tables)
		return 0;
	rc = store_count(&out->open, st, "SELECT count(*) FROM "
	    "main.conflicts WHERE status = 'open'", NULL, err);
	if (rc == 0)
		rc = store_count(&out->resolved, st, "SELECT count(*) FROM "
		    "main.conflicts WHERE status = 'resolved'", NULL, err);
	if (rc == 0)
		rc = store_count(&out->dismissed, st, "SELECT count(*) FROM "
		    "main.conflicts WHERE status = 'dismissed'", NULL, err);
	return rc;
}

int
conflict_list(struct conflict_list *out, mirror_store *st,
    const struct conflict_filter *filter, mirror_error *err)
{
	struct finding_earlier ix = { 0 };
	sqlite3_stmt *stmt = NULL;
	struct reader r;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (filter != NULL && filter->project != NULL &&
	    (rc = store_project_known(st, filter->project,
	    store_features(st)->has_mirror_tables ? "conflicts" : NULL,
	    err)) < 0)
		return rc;
	if (!store_features(st)->has_mirror_tables)
		return 0;
	if ((rc = reader_open(&r, st, NULL, err)) < 0)
		goto out;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " CONFLICT_COLS
	    " FROM main.conflicts WHERE (?1 IS NULL OR status = ?1) AND "
	    "(?2 IS NULL OR project = coalesce((SELECT canonical FROM "
	    "temp.project_alias WHERE name = ?2), ?2)) ORDER BY CASE status "
	    "WHEN 'open' THEN 0 WHEN 'resolved' THEN 1 WHEN 'dismissed' "
	    "THEN 2 ELSE 3 END, detected_at DESC, id", -1, &stmt, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(st, err, rc, "cannot read conflicts");
		goto out;
	}
	if (filter != NULL && filter->status != NULL)
		sqlite3_bind_text(stmt, 1, filter->status, -1, SQLITE_TRANSIENT);
	if (filter != NULL && filter->project != NULL)
		sqlite3_bind_text(stmt, 2, filter->project, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if ((rc = conflict_row(&ARRAY_PUSH(out->items, out->n, cap),
		    st, stmt, err)) < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(st, err, rc, "cannot read conflicts");
		goto out;
	}
	if ((rc = finding_earlier_load(&ix, &slot_keys, st, err)) < 0 ||
	    (rc = members_read(out->items, out->n, st, err)) < 0 ||
	    (rc = members_now(out->items, out->n, r.rows, err)) < 0)
		goto out;
	for (size_t i = 0; i < out->n && rc == 0; i++)
		rc = conflict_fill(&out->items[i], &r, &ix, err);
out:
	finding_earlier_free(&ix);
	sqlite3_finalize(stmt);
	reader_close(&r);
	return rc;
}

void
conflict_list_free(struct conflict_list *l)
{
	if (l == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		conflict_free(&l->items[i]);
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

int
conflict_check(mirror_store *st, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;

	if (!store_features(st)->has_mirror_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " CONFLICT_COLS
	    " FROM main.conflicts", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return store_fail(st, err, rc, "cannot read conflicts");
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct conflict c;

		rc = conflict_row(&c, st, stmt, err);
		conflict_free(&c);
		if (rc < 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(st, err, rc, "cannot read conflicts");
		goto out;
	}
	rc = finding_check(&member_table, member_check_row, st, err);
out:
	sqlite3_finalize(stmt);
	return rc;
}

/* Let go the current-row half of member m (member_now's). */
static void
member_now_free(struct conflict_member *m)
{
	char **now[] = { &m->value_now, &m->status_now, &m->layer_type,
	    &m->source, &m->created_at, &m->updated_at, &m->label,
	    &m->project, &m->slot_words };

	for (size_t i = 0; i < sizeof(now) / sizeof(*now); i++) {
		free(*now[i]);
		*now[i] = NULL;
	}
}

int
conflict_list_refresh(struct conflict_list *l, const size_t *which,
    size_t n, mirror_store *st, const struct facts_kept *kept,
    mirror_error *err)
{
	struct reader r;
	int rc;

	if (n == 0)
		return 0;
	if ((rc = reader_open(&r, st, kept, err)) < 0)
		goto out;
	for (size_t k = 0; k < n && rc == 0; k++) {
		struct conflict *c = &l->items[which[k]];

		for (size_t j = 0; j < c->n_members && rc == 0; j++) {
			member_now_free(&c->members[j]);
			rc = member_now(&c->members[j], r.rows, err);
		}
		free(c->description);
		free(c->question);
		conflict_words(c);
	}
out:
	reader_close(&r);
	return rc;
}

int
conflict_get(struct conflict *out, mirror_store *st, const char *id,
    const struct facts_kept *kept, mirror_error *err)
{
	sqlite3_stmt *stmt = NULL;
	struct reader r;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_mirror_tables)
		return mirror_fail(err, MIRROR_EINPUT, "store %s: no conflict "
		    "'%s' (no sweep has run on this store)", store_path(st), id);
	if ((rc = reader_open(&r, st, kept, err)) < 0)
		goto out;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT " CONFLICT_COLS
	    " FROM main.conflicts WHERE id = ?1", -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		rc = mirror_fail(err, MIRROR_EINPUT, "store %s: no conflict "
		    "'%s' (see mirror conflicts list)", store_path(st), id);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		rc = store_fail(st, err, rc, "cannot read a conflict");
		goto out;
	}
	if ((rc = conflict_row(out, st, stmt, err)) == 0 &&
	    (rc = members_read(out, 1, st, err)) == 0 &&
	    (rc = members_now(out, 1, r.rows, err)) == 0)
		rc = conflict_fill(out, &r, NULL, err);
out:
	sqlite3_finalize(stmt);
	reader_close(&r);
	return rc;
}

int
conflict_disputed(struct disputed_list *out, mirror_store *st,
    mirror_error *err)
{
	struct store_row row = { .st = st, .table = "conflict_members",
	    .err = err };
	sqlite3_stmt *stmt = NULL;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!store_features(st)->has_mirror_tables)
		return 0;
	rc = sqlite3_prepare_v2(store_db(st), "SELECT m.member_kind, "
	    "m.member_id, m.conflict_id FROM main.conflict_members m "
	    "JOIN main.conflicts c ON c.id = m.conflict_id "
	    "WHERE c.status = 'open' AND m.member_kind IS NOT NULL AND "
	    "m.member_id IS NOT NULL ORDER BY 1, 2, 3", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	row.stmt = stmt;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct disputed *d;

		d = &ARRAY_PUSH(out->items, out->n, cap);
		memset(d, 0, sizeof(*d));
		row.id = NULL;
		row.member = NULL;
		if ((rc = storerow_text(&d->conflict_id, &row, 2,
		    "conflict_id", 0)) < 0)
			break;
		row.id = d->conflict_id;
		if ((rc = storerow_text(&d->id, &row, 1, "member_id", 0)) < 0)
			break;
		row.member = d->id;
		if ((rc = storerow_layer(&d->layer, &row, 0,
		    "member_kind")) < 0)
			break;
		d->kind = layer_kind(d->layer);
	}
	if (rc < 0) {
		sqlite3_finalize(stmt);
		return rc;
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	byid_pairs_index(&out->by, out->items, out->n, sizeof(*out->items),
	    offsetof(struct disputed, kind), offsetof(struct disputed, id));
	return 0;
fail:
	rc = store_fail(st, err, rc, "cannot read open conflicts");
	sqlite3_finalize(stmt);
	return rc;
}

const struct disputed *
disputed_find(const struct disputed_list *l, enum fact_layer layer,
    const char *id)
{
	size_t k = byid_pairs_find(&l->by, l->items, layer_kind(layer), id);

	/* The first of the pair's entries: the smallest conflict. */
	return k != BYID_NONE ? &l->items[k] : NULL;
}

void
disputed_list_free(struct disputed_list *l)
{
	if (l == NULL)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].id);
		free(l->items[i].conflict_id);
	}
	free(l->items);
	byid_pairs_free(&l->by);
	l->items = NULL;
	l->n = 0;
}
