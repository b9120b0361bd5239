#!/bin/sh
# The sweep end to end: SPEC section 8's worked examples, aliases,
# expiry, time windows, three layers on one key, idempotency, order
# independence, closing vanished conflicts, --check, --json and the
# stores the sweep must refuse.
# The promises of doc/sweep.md, "The sweep".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data/sweep"
export SOURCE_DATE_EPOCH=1700000000

# conflicts DB: "slot_kind|slot_key|project|member ids" per open conflict,
# sorted, ids of members sorted too.
conflicts() {
	sql "$1" "SELECT c.slot_kind || '|' || c.slot_key || '|' || c.project
	    || '|' || (SELECT group_concat(mid, ',') FROM (SELECT member_id AS mid
	    FROM conflict_members WHERE conflict_id = c.id ORDER BY 1))
	    FROM conflicts c WHERE c.status = 'open' ORDER BY 1"
}
# dump_conflicts DB: every row of the conflict tables, for byte comparison.
dump_conflicts() {
	sql "$1" "SELECT * FROM conflicts ORDER BY id;
	    SELECT * FROM conflict_members ORDER BY conflict_id, member_kind, member_id"
}
has_line() { printf '%s\n' "$1" | grep -qxF -- "$2"; }

# --- SPEC section 8 ------------------------------------------------------
new_store seeds.db "$data/seeds.sql"
mirror sweep --store seeds.db
expect_status "sweep on the worked examples succeeds" 0
got=$(conflicts seeds.db)
expect "ex1: state vs decision entity is one cross_layer conflict" \
    has_line "$got" 'cross_layer|["p05-interferometer","lateral_support_material"]|p05-interferometer|e-dec-peek,s-lsm'
expect "ex1: the entity conflicts_with the state row, the state row with nothing" \
    test "$(sql seeds.db "SELECT member_id || '>' || coalesce(conflicts_with, '-') FROM conflict_members ORDER BY 1" | grep -E '^(e-dec-peek|s-lsm)>' | tr '\n' ' ')" = "e-dec-peek>s-lsm s-lsm>- "
expect "ex2: rebase vs merge-commit workflow is one memory_slot conflict" \
    has_line "$got" 'memory_slot|["ex2","preference","workflow"]|ex2|m-merge,m-rebase'
expect "ex7: parameter 4.8 kg vs 4.82 kg is a conflict" \
    has_line "$got" 'entity_slot|["ex7","parameter","pad","preload"]|ex7|e-par-a,e-par-b'
expect "ex3-6, ex8: duplicates, candidates, history, other slots, 4.80 kg: no conflict" \
    test "$(printf '%s\n' "$got" | wc -l)" = 3
expect "trust order is recorded on every member" \
    test "$(sql seeds.db "SELECT member_layer_trust FROM conflict_members WHERE member_id IN ('s-lsm','e-dec-peek','m-merge') ORDER BY member_id")" = "$(printf '2\n1\n3')"
expect "value snapshots are the claimed values" \
    test "$(sql seeds.db "SELECT group_concat(value_snapshot, '/') FROM (SELECT value_snapshot FROM conflict_members ORDER BY member_id)")" = "PEEK/4.8 kg/4.82 kg/merge-commit workflow/rebase workflow/GF-PTFE"
expect "conflict ids are short and stable (c + 10 hex digits)" \
    test "$(sql seeds.db "SELECT count(*) FROM conflicts WHERE id GLOB 'c[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]' AND length(id) = 11")" = 3
expect "the sweep writes one sweep_runs row with its counts" \
    test "$(sql seeds.db "SELECT rules_version, conflicts_opened, open_after, started_at FROM sweep_runs")" = "mirror-sweep/1|3|3|2023-11-14 22:13:20"
expect "the text summary counts what happened" \
    out_has '^sweep sweep-20231114T221320-1: [0-9]+ facts scanned; 3 conflicts opened, 0 members added, 0 closed; 3 open(; checks: .*)?$'

# --- idempotency: a second sweep changes nothing but sweep_runs ----------
before=$(dump_conflicts seeds.db)
mirror sweep --store seeds.db --json
expect "a second sweep opens, adds and closes nothing" sh -c \
    "jq -e '.conflicts_opened == 0 and .members_added == 0 and .conflicts_closed == 0 and .open_after == 3' '$T/out' >/dev/null"
expect "a second sweep leaves the conflict tables byte-identical" \
    test "$before" = "$(dump_conflicts seeds.db)"
expect "a second sweep adds one sweep_runs row with a new id" \
    test "$(sql seeds.db "SELECT count(DISTINCT id) FROM sweep_runs")" = 2
expect "sweep --json prints the run record" sh -c \
    "jq -e '.id == \"sweep-20231114T221320-2\" and .rules_version == \"mirror-sweep/1\" and (.facts_scanned | type) == \"number\" and has(\"duration_ms\") and .finished_at != null' '$T/out' >/dev/null"

# --- order independence ---------------------------------------------------
# The same rows inserted in reverse order give the same conflicts, ids and
# members, byte for byte.
"$MIRROR" init --store rev.db --quiet >/dev/null
for t in projects project_state entities relationships memories; do
	sqlite3 seeds.db ".mode insert $t" "SELECT * FROM $t ORDER BY rowid DESC" |
	    sqlite3 rev.db
done
mirror sweep --store rev.db
expect "rows inserted in another order give byte-identical conflicts" \
    test "$(dump_conflicts rev.db)" = "$(sql seeds.db "SELECT * FROM conflicts ORDER BY id; SELECT * FROM conflict_members ORDER BY conflict_id, member_kind, member_id")" -a -n "$(dump_conflicts rev.db)"

# --- layers, aliases, expiry, windows, structure --------------------------
new_store layers.db "$data/layers.sql"
mirror sweep --store layers.db
got=$(conflicts layers.db)
expect "three layers and a same-layer disagreement on one key: one cross_layer conflict" \
    has_line "$got" 'cross_layer|["p06-polisher","pad_material"]|p06-polisher|e-pad-1,e-pad-2,m-pad,m-pad-ok,s-pad'
expect "no second (entity_slot) conflict for the joined decisions" \
    test "$(sql layers.db "SELECT count(*) FROM conflicts WHERE slot_key LIKE '%pad%'")" = 1
expect "a memory agreeing with state but contradicting an entity conflicts_with that entity" \
    test "$(sql layers.db "SELECT conflicts_with FROM conflict_members WHERE member_id = 'm-pad-ok'")" = e-pad-1
expect "every lower-trust member conflicts_with the highest-trust row" \
    test "$(sql layers.db "SELECT group_concat(member_id || '>' || coalesce(conflicts_with, '-'), ' ') FROM (SELECT * FROM conflict_members WHERE member_id IN ('s-pad','e-pad-1','e-pad-2','m-pad') ORDER BY member_id)")" = "e-pad-1>s-pad e-pad-2>s-pad m-pad>s-pad s-pad>-"
expect "an unlisted project keeps its name" \
    has_line "$got" 'memory_slot|["p99-unlisted","preference","unit"]|p99-unlisted|m-p99-a,m-p99-b'
expect "an expired memory takes no part" \
    test "$(sql layers.db "SELECT count(*) FROM conflicts WHERE slot_key LIKE '%editing%'")" = 0
expect "decisions with windows that do not overlap are history" \
    test "$(sql layers.db "SELECT count(*) FROM conflicts WHERE slot_key LIKE '%valve%'")" = 0
expect "decisions with overlapping windows conflict" \
    has_line "$got" 'entity_slot|["p05-interferometer","decision","seal","type"]|p05-interferometer|e-seal-a,e-seal-b'
expect "a subsystem with two parents conflicts" \
    has_line "$got" 'entity_slot|["p05-interferometer","subsystem","optics"]|p05-interferometer|e-optics-1,e-optics-2'
expect "a component using two materials conflicts" \
    has_line "$got" 'entity_slot|["p05-interferometer","material","mirror_cell"]|p05-interferometer|e-invar,e-steel'
expect "nothing else conflicts" test "$(printf '%s\n' "$got" | wc -l)" = 5

# Expiry follows the run's clock: before 2001 the emacs memory is live.
cp layers.db early.db
SOURCE_DATE_EPOCH=900000000 mirror sweep --store early.db
expect "with an earlier clock the not-yet-expired memory conflicts" \
    test "$(sql early.db "SELECT count(*) FROM conflicts WHERE status = 'open' AND slot_key = '[\"\",\"preference\",\"editing\"]'")" = 1
# ... and when the clock passes valid_until, the sweep closes it.
mirror sweep --store early.db
expect "an expired member makes the sweep close its conflict" \
    test "$(sql early.db "SELECT status || '|' || resolved_by || '|' || resolution FROM conflicts WHERE slot_key LIKE '%editing%'")" = "resolved|sweep|disagreement gone: memory m-exp-b expired"

# --- a new member joins the open conflict ---------------------------------
before=$(sql layers.db "SELECT id FROM conflicts WHERE slot_key LIKE '%pad_material%'")
sql layers.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES ('e-pad-3', 'material', 'Wax', 'p06', '{\"component\":\"pad\"}')"
mirror sweep --store layers.db --json
expect "a new disagreeing row is added as a member, no conflict opened" sh -c \
    "jq -e '.conflicts_opened == 0 and .members_added == 1' '$T/out' >/dev/null"
expect "the member joined the existing conflict" \
    test "$(sql layers.db "SELECT conflict_id FROM conflict_members WHERE member_id = 'e-pad-3'")" = "$before"

# --- the disagreement vanishes: the sweep closes the conflict -------------
sql layers.db "UPDATE entities SET status = 'superseded' WHERE id = 'e-optics-2'"
mirror sweep --store layers.db --json
expect "a superseded row closes its conflict" sh -c \
    "jq -e '.conflicts_closed == 1' '$T/out' >/dev/null"
expect "the closed conflict is resolved by 'sweep' with the reason" \
    test "$(sql layers.db "SELECT status || '|' || resolved_by || '|' || resolved_at || '|' || resolution FROM conflicts WHERE slot_key LIKE '%optics%'")" = "resolved|sweep|2023-11-14 22:13:20|disagreement gone: entity e-optics-2 superseded"
sql layers.db "UPDATE entities SET properties = '{\"target\":\"seal\",\"field\":\"type\",\"value\":\"O-Ring\",\"valid_from\":\"2022-06-01\"}' WHERE id = 'e-seal-b'"
mirror sweep --store layers.db
expect "an edited value that now agrees closes the conflict" \
    test "$(sql layers.db "SELECT status || '|' || resolution FROM conflicts WHERE slot_key LIKE '%seal%'")" = "resolved|disagreement gone: entity e-seal-b now says 'O-Ring'"
sql layers.db "UPDATE entities SET status = 'active' WHERE id = 'e-optics-2'"
mirror sweep --store layers.db
expect "a disagreement that returns opens a new conflict on the slot" \
    test "$(sql layers.db "SELECT group_concat(status, ',') FROM (SELECT status FROM conflicts WHERE slot_key LIKE '%optics%' ORDER BY status)")" = "open,resolved"

# A same-layer conflict whose key then gains a trusted state row: the
# disagreement moves into one cross_layer conflict, the old one is closed
# saying where its rows went.
new_store join.db
sql join.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('d1', 'decision', 'Gasket', 'p', '{\"target\":\"gasket\",\"field\":\"material\",\"value\":\"viton\"}'),
 ('d2', 'decision', 'Gasket', 'p', '{\"target\":\"gasket\",\"field\":\"material\",\"value\":\"nitrile\"}')"
"$MIRROR" sweep --store join.db --quiet
sql join.db "INSERT INTO project_state(id, project, category, key, value) VALUES ('g1', 'p', 'decision', 'gasket_material', 'EPDM')"
mirror sweep --store join.db --json
xid=$(sql join.db "SELECT id FROM conflicts WHERE slot_kind = 'cross_layer'")
expect "a key gaining a state row becomes one cross_layer conflict" \
    test "$(conflicts join.db)" = 'cross_layer|["p","gasket_material"]|p|d1,d2,g1'
expect "the entity_slot conflict is closed, naming the conflict its rows joined" \
    test "$(sql join.db "SELECT status || '|' || resolution FROM conflicts WHERE slot_kind = 'entity_slot'")" = "resolved|disagreement gone: entity d1 is now in conflict $xid; entity d2 is now in conflict $xid"

# --- --check --------------------------------------------------------------
mirror sweep --store layers.db --check
expect_error "sweep --check with open conflicts exits 4" 4 'open conflicts in layers.db'
new_store clean.db
mirror sweep --store clean.db --check
expect "sweep --check on a store without conflicts exits 0" test "$RC" = 0

# --- stores the sweep must refuse -----------------------------------------
cp seeds.db badjson.db
sql badjson.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES ('e-broken', 'decision', 'x', 'ex5', '{not json')"
before=$(fingerprint badjson.db)
mirror sweep --store badjson.db
expect_error "an entity with invalid properties JSON is named" 2 "badjson.db: entities row 'e-broken': properties is not valid JSON \(line 1, column"
expect "the store with a bad row is unchanged" test "$before" = "$(fingerprint badjson.db)"
cp seeds.db arrjson.db
sql arrjson.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES ('e-arr', 'decision', 'x', 'ex5', '[1, 2]')"
mirror sweep --store arrjson.db
expect_error "properties that are JSON but not an object are named so" 2 "arrjson.db: entities row 'e-arr': properties is not a JSON object"
cp seeds.db nullkey.db
sqlite3 nullkey.db "ALTER TABLE project_state RENAME TO ps_old; CREATE TABLE project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at); INSERT INTO project_state SELECT * FROM ps_old; DROP TABLE ps_old; INSERT INTO project_state(id, project, category, key, value, status) VALUES ('s-null', 'ex2', 'fact', NULL, 'v', 'active')"
before=$(fingerprint nullkey.db)
mirror sweep --store nullkey.db
expect_error "a NULL key is named with its row" 2 "nullkey.db: project_state row 's-null': key is NULL"
expect "the store with a NULL is unchanged" test "$before" = "$(fingerprint nullkey.db)"

# Read-only: run mirror as an unprivileged user on a file it cannot write.
mkdir ro && chmod 755 ro && cp seeds.db ro/ro.db && chmod 644 ro/ro.db
before=$(fingerprint ro/ro.db)
as_nobody sweep --store ro/ro.db
expect_error "a store the user cannot write: exit 2, one line" 2 'ro/ro.db: read-only'
expect "the read-only store is unchanged" test "$before" = "$(fingerprint ro/ro.db)"

# A store made by someone else's tooling, without mirror's tables.
sqlite3 bare.db "CREATE TABLE projects(id TEXT PRIMARY KEY, name TEXT, aliases TEXT DEFAULT '[]', description TEXT DEFAULT '');
CREATE TABLE project_state(id TEXT PRIMARY KEY, project, category, key, value, source DEFAULT '', confidence DEFAULT 1, status DEFAULT 'active', created_at, updated_at);
CREATE TABLE entities(id TEXT PRIMARY KEY, entity_type, name, project DEFAULT '', description DEFAULT '', properties DEFAULT '{}', status DEFAULT 'active', confidence DEFAULT 1, source_refs DEFAULT '[]', created_at, updated_at);
CREATE TABLE relationships(id TEXT PRIMARY KEY, source_entity_id, target_entity_id, relationship_type, confidence DEFAULT 1);
CREATE TABLE memories(id TEXT PRIMARY KEY, memory_type, content, project DEFAULT '', confidence DEFAULT 1, status DEFAULT 'active', created_at, updated_at);
INSERT INTO memories(id, memory_type, content) VALUES ('a', 'preference', 'prefers tea'), ('b', 'preference', 'never prefers tea');"
mirror sweep --store bare.db
expect "a store without mirror's tables (or valid_until) is swept" test "$RC" = 0
expect "... and gets its conflict, 'never' against the plain preference" \
    test "$(conflicts bare.db)" = 'memory_slot|["","preference","tea"]||a,b'
mirror sweep --store missing.db
expect_error "a missing store" 2 'missing.db: no such file'
mirror sweep
expect_error "sweep without --store is a usage error" 1 'store PATH is required'

# --- conflict ids depend on the data, never on the clock --------------------
# ids DB: "id|slot_kind|slot_key" of every conflict, sorted.
ids() { sql "$1" "SELECT id || '|' || slot_kind || '|' || slot_key FROM conflicts ORDER BY slot_kind, slot_key, id"; }
new_store day1.db "$data/seeds.sql" && cp day1.db day2.db
SOURCE_DATE_EPOCH=1700000000 mirror sweep --store day1.db
SOURCE_DATE_EPOCH=1700086400 mirror sweep --store day2.db
expect "the same store swept one day apart gets the same conflict ids" \
    test "$(ids day1.db)" = "$(ids day2.db)" -a -n "$(ids day1.db)"
expect "... while the dates of the sweeps differ" \
    test "$(sql day1.db 'SELECT group_concat(detected_at) FROM conflicts')" != \
    "$(sql day2.db 'SELECT group_concat(detected_at) FROM conflicts')"
# A decided slot that disagrees again gets a new id, the same one on
# every clock: resolve ex7 on both, change a member's value, sweep again.
for d in day1 day2; do
	id=$(sql $d.db "SELECT id FROM conflicts WHERE project = 'ex7'")
	SOURCE_DATE_EPOCH=1700100000 "$MIRROR" conflicts resolve "$id" \
	    --notes 'checked on the scale' --store $d.db >/dev/null 2>&1
	sql $d.db "UPDATE entities SET properties = json_set(properties, '$.value', 5.1) WHERE id = 'e-par-b'"
done
SOURCE_DATE_EPOCH=1700200000 mirror sweep --store day1.db
SOURCE_DATE_EPOCH=1700300000 mirror sweep --store day2.db
expect "a decided slot that disagrees again opens a conflict with another id" \
    test "$(sql day1.db "SELECT count(DISTINCT id) FROM conflicts WHERE project = 'ex7'")" = 2
expect "... and that id too is the same whatever the clock" \
    test "$(ids day1.db)" = "$(ids day2.db)"
expect "conflict ids are 'c' and ten hex digits" \
    test "$(sql day1.db "SELECT count(*) FROM conflicts WHERE id NOT GLOB 'c[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'")" = 0

# --- units that are not ASCII letters --------------------------------------
# doc/sweep.md: a unit glued to its number compares as one set apart
# (4.8kg = 4.80 kg); so do °C, µm and the rest (issue 56).
new_store units.db "$data/units.sql"
mirror sweep --store units.db
got=$(conflicts units.db)
expect "state 20°C against a parameter of 20 °C, state 5µm against a memory '5 µm': no conflict" \
    test -z "$(printf '%s\n' "$got" | grep '"u1"')"
expect "... and 20°C against 21 °C is one" \
    has_line "$got" 'cross_layer|["u2","bath_temp"]|u2|e-bath2,s-bath2'

# --- a parameter without a value claims nothing -----------------------------
# doc/sweep.md: a requirement without a value falls back to its
# description; a parameter does not: two parameters of one scope and
# name with no value but different descriptions are no conflict.
new_store novalue.db
sql novalue.db "INSERT INTO projects(id, name, aliases) VALUES
 ('p08', 'P08', '[]'), ('p09', 'P09', '[]');
INSERT INTO entities(id, entity_type, name, project, description, properties) VALUES
 ('e-par-nv-1', 'parameter', 'preload', 'p08', 'Set by hand on the bench.', '{\"scope\":\"pad\"}'),
 ('e-par-nv-2', 'parameter', 'preload', 'p08', 'Taken from the supplier sheet.', '{\"scope\":\"pad\"}'),
 ('e-req-nv-1', 'requirement', 'mass cap', 'p09', 'At most 4 kg.', '{\"component\":\"pad\"}'),
 ('e-req-nv-2', 'requirement', 'mass cap', 'p09', 'At most 5 kg.', '{\"component\":\"pad\"}')"
mirror sweep --store novalue.db
got=$(conflicts novalue.db)
expect "two parameters with no value, differing only in description: no conflict" \
    test -z "$(printf '%s\n' "$got" | grep '"p08"')"
expect "... while two requirements with no value compare their descriptions" \
    has_line "$got" 'entity_slot|["p09","requirement","mass_cap"]|p09|e-req-nv-1,e-req-nv-2'

# --- rule_runs keeps each rule's last 10 runs (issue 67, R4-7) ---------------
# Every sweep writes a row a rule, an unchanged store too; nothing removed
# them (a 60 s loop of sweeps grew a 5k-fact store to 25.7 MB). Each rule
# keeps its 10 latest, the latest sweep's among them.
new_store runs.db "$MIRROR_TOP/site-example/example.sql" || exit 1
i=0
while [ $i -lt 13 ]; do
	mirror sweep --store runs.db
	i=$((i + 1))
done
expect "after 13 sweeps each rule keeps its 10 latest runs in rule_runs" \
    test "$(sql runs.db "SELECT min(c) || ' ' || max(c) FROM (SELECT count(*) AS c FROM rule_runs GROUP BY rule_id)")|$(sql runs.db "SELECT count(*) FROM sweep_runs")" = "10 10|13"
expect "... the newest ten sweeps', the latest with a row for each rule" \
    test "$(sql runs.db "SELECT count(DISTINCT sweep_run) FROM rule_runs WHERE sweep_run IN (SELECT id FROM sweep_runs ORDER BY rowid DESC LIMIT 10)")|$(sql runs.db "SELECT count(*) = (SELECT count(DISTINCT rule_id) FROM rule_runs) FROM rule_runs WHERE sweep_run = (SELECT id FROM sweep_runs ORDER BY rowid DESC LIMIT 1)")" = "10|1"
