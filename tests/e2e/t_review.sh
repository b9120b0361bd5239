#!/bin/sh
# The review commands end to end (SPEC section 4): list, show, resolve
# with and without a winner, dismiss, each followed by a re-sweep; and
# every error, which must change nothing.
# The promises of doc/sweep.md, "Reviewing".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data/sweep"
export SOURCE_DATE_EPOCH=1700000000

cid() {   # cid DB LIKE-PATTERN: the newest conflict whose slot_key matches
	sql "$1" "SELECT id FROM conflicts WHERE slot_key LIKE '$2' ORDER BY detected_at DESC, rowid DESC LIMIT 1"
}
facts() {  # every fact row, to prove that nothing changed
	sql "$1" "SELECT * FROM project_state ORDER BY id; SELECT * FROM entities ORDER BY id;
	    SELECT * FROM memories ORDER BY id; SELECT * FROM relationships ORDER BY id"
}

new_store r.db "$data/layers.sql"
"$MIRROR" sweep --store r.db --quiet
lsm=$(cid r.db '%pad_material%')
seal=$(cid r.db '%seal%')
pref=$(cid r.db '%p99%')

# --- list -----------------------------------------------------------------
mirror conflicts list --store r.db
expect_status "list succeeds" 0
expect "list prints a header and one aligned line per conflict" \
    test "$(wc -l <"$T/out")" = 6 -a "$(awk 'NR > 1 { print index($0, "open") }' "$T/out" | sort -u | wc -l)" = 1
expect "list words each slot" out_has "^$lsm +open +cross_layer +p06-polisher +5 +2023-11-14 22:13:20 +pad material of p06-polisher\$"
mirror conflicts list --store r.db --project p06 --json
expect "--project takes an alias and filters" sh -c \
    "jq -e 'length == 1 and .[0].id == \"$lsm\" and .[0].project == \"p06-polisher\"' '$T/out' >/dev/null"
mirror conflicts list --store r.db --status resolved
expect "--status filters (none resolved yet)" out_has '^no conflicts$'
mirror conflicts list --store r.db --status closed
expect_error "an unknown --status is bad input naming the valid ones" 2 "unknown status 'closed' \(open, resolved or dismissed\)"

# --- show -----------------------------------------------------------------
mirror conflicts show "$lsm" --store r.db
expect "show words the slot and asks about the favoured value" sh -c \
    "grep -qx 'slot:      pad material of p06-polisher' '$T/out' && grep -qx 'question:  Is the pad material of p06-polisher pitch?' '$T/out'"
expect "show lists members in trust order, state first" \
    test "$(grep -E '^  [0-9]+\. ' "$T/out" | awk '{ print $2 ":" $3 }' | tr '\n' ' ')" = "project_state:s-pad entity:e-pad-1 entity:e-pad-2 memory:m-pad memory:m-pad-ok "
expect "show marks the member the trust order favours" out_has '^  1\. project_state s-pad \(trust 3, decision\)  <- the trust order favours this$'
expect "show prints the commands that act on it" \
    out_has "^  mirror conflicts resolve $lsm --notes '...' --winner 's-pad'\$"
mirror conflicts show "$lsm" --store r.db --json
expect "show --json has members with value then and now" sh -c \
    "jq -e '.members[0].id == \"s-pad\" and .members[0].favoured and (.members[1].favoured | not) and .members[1].value_then == \"polyurethane\" and .members[1].value_now == \"polyurethane\" and .members[1].conflicts_with == \"s-pad\" and .members[3].source == \"project\"' '$T/out' >/dev/null"

# --- errors change nothing ------------------------------------------------
before=$(fingerprint r.db)
mirror conflicts show c0000000000 --store r.db
expect_error "show of an unknown id" 2 "no conflict 'c0000000000'"
mirror conflicts resolve c0000000000 --notes x --store r.db
expect_error "resolve of an unknown id" 2 "no conflict 'c0000000000'"
mirror conflicts resolve "$lsm" --notes x --winner e-nobody --store r.db
expect_error "a winner that is not a member" 2 "winner 'e-nobody' is not a member of conflict '$lsm' \(members: project_state:s-pad, "
mirror conflicts resolve "$lsm" --store r.db
expect_error "resolve without --notes" 1 'resolve: --notes TEXT is required'
mirror conflicts dismiss "$lsm" --store r.db
expect_error "dismiss without --reason" 1 'dismiss: --reason TEXT is required'
mirror conflicts resolve --notes x --store r.db
expect_error "resolve without an id" 1 'conflict ID is required'
mirror conflicts frob --store r.db
expect_error "an unknown subcommand" 1 "unknown subcommand 'frob'"
expect "the failed commands left the store byte-identical" test "$before" = "$(fingerprint r.db)"

# --- resolve with a winner --------------------------------------------------
mirror conflicts resolve "$lsm" --notes "pitch it is" --winner s-pad --actor alice --store r.db
expect "resolve --winner succeeds and counts superseded rows" out_has "^resolved $lsm: 4 rows superseded\$"
expect "every other member is superseded (also one agreeing with the winner), the winner stays active" \
    test "$(sql r.db "SELECT group_concat(id || '=' || status, ' ') FROM (SELECT id, status FROM entities WHERE id LIKE 'e-pad-%' UNION ALL SELECT id, status FROM memories WHERE id LIKE 'm-pad%' UNION ALL SELECT id, status FROM project_state WHERE id = 's-pad' ORDER BY id)")" = "e-pad-1=superseded e-pad-2=superseded m-pad=superseded m-pad-ok=superseded s-pad=active"
expect "the conflict is resolved with the notes, by the actor, at the run clock" \
    test "$(sql r.db "SELECT status || '|' || resolution || '|' || resolved_by || '|' || resolved_at FROM conflicts WHERE id = '$lsm'")" = "resolved|pitch it is|alice|2023-11-14 22:13:20"
expect "each superseded row has an audit row" \
    test "$(sql r.db "SELECT group_concat(memory_id || ':' || entity_kind, ' ') FROM (SELECT * FROM memory_audit WHERE action = 'superseded' ORDER BY memory_id)")" = "e-pad-1:entity e-pad-2:entity m-pad:memory m-pad-ok:memory"
expect "audit rows carry actor, before/after and the conflict in the note" \
    test "$(sql r.db "SELECT actor || '|' || before_json || '|' || after_json || '|' || note FROM memory_audit WHERE memory_id = 'e-pad-1' AND action = 'superseded'")" = "alice|{\"status\":\"active\"}|{\"status\":\"superseded\",\"superseded_by\":\"s-pad\",\"superseded_by_kind\":\"project_state\"}|conflict $lsm: pitch it is"
mirror conflicts resolve "$lsm" --notes again --store r.db
expect_error "a closed conflict cannot be resolved again" 2 "conflict '$lsm' is resolved, not open; nothing changed"
mirror sweep --store r.db --json
expect "after resolve --winner a re-sweep opens nothing on that slot" \
    test "$(sql r.db "SELECT count(*) FROM conflicts WHERE slot_key LIKE '%pad_material%'")" = 1

# Entities: the winner supersedes the loser with a relationship.
mirror conflicts resolve "$seal" --notes "gasket" --winner e-seal-b --store r.db --json
expect "resolve --json prints the closed conflict" sh -c \
    "jq -e '.id == \"$seal\" and .status == \"resolved\" and .members[0].status_now != null' '$T/out' >/dev/null"
expect "an entity winner gets a supersedes relationship to the loser" \
    test "$(sql r.db "SELECT source_entity_id || '>' || target_entity_id || '|' || created_at FROM relationships WHERE relationship_type = 'supersedes'")" = "e-seal-b>e-seal-a|2023-11-14 22:13:20"
expect "superseded rows get updated_at from the run's clock" \
    test "$(sql r.db "SELECT updated_at FROM entities WHERE id = 'e-seal-a'")" = "2023-11-14 22:13:20"

# --- resolve without a winner, then a re-sweep ----------------------------
before=$(facts r.db)
mirror conflicts resolve "$pref" --notes "both are fine" --store r.db
expect "resolve without --winner supersedes nothing" out_has "^resolved $pref: 0 rows superseded\$"
expect "resolve without --winner changes no fact" test "$before" = "$(facts r.db)"
mirror sweep --store r.db --json
expect "a reviewer's decision is not re-litigated by the next sweep" sh -c \
    "jq -e '.conflicts_opened == 0' '$T/out' >/dev/null && test \$(sqlite3 r.db \"SELECT count(*) FROM conflicts WHERE slot_key LIKE '%p99%'\") = 1"
# A new member reopens the question, linking the earlier conflict.
sql r.db "INSERT INTO memories(id, memory_type, content, project) VALUES ('m-p99-c', 'preference', 'prefers natural units', 'p99-unlisted')"
mirror sweep --store r.db --json
new=$(cid r.db '%p99%')
expect "a new member opens a new conflict on the decided slot" sh -c \
    "jq -e '.conflicts_opened == 1' '$T/out' >/dev/null && test '$new' != '$pref'"
mirror conflicts show "$new" --store r.db --json
expect "the new conflict links the earlier one" sh -c \
    "jq -e '.earlier == [\"$pref\"] and (.members | length) == 3' '$T/out' >/dev/null"

# --- the site: the explanation once, each page its own commands ----------
mirror build --store r.db --out rsite --no-sweep --quiet
q=rsite/conflicts
expect "the queue's front page explains acting on a conflict once, anchored act" sh -c "
    test \$(grep -c '^## <a id=\"act\"></a>How to act on a conflict\$' $q/index.md) = 1 &&
    test \$(grep -c 'id=\"act\"' $q/index.html) = 1 && grep -q 'add --store PATH' $q/index.md"
expect "each open conflict's page links the explanation and holds its own commands" sh -c "
    for c in \$(sql r.db \"SELECT id FROM conflicts WHERE status = 'open'\"); do
        grep -qxF '[How to act on a conflict](index.md#act): where to run these, WHY and --actor.' $q/\$c.md &&
        grep -q 'href=\"index.html#act\"' $q/\$c.html &&
        grep -qx \"mirror conflicts dismiss \$c --reason 'WHY'\" $q/\$c.md &&
        grep -q \"^mirror conflicts resolve \$c --notes 'WHY' --winner \" $q/\$c.md &&
        ! grep -q 'add --store PATH' $q/\$c.md || exit 1
    done"
expect "a page with earlier conflicts on its slot lists them" sh -c "
    grep -A2 -x '## Earlier conflicts on this slot' $q/$new.md | grep -qxF -- '- [$pref]($pref.md)'"
expect "a page with none has no such heading" sh -c "! grep -q 'Earlier conflicts' $q/$pref.md"
expect "a closed conflict's page leads with how it ended, who, when and why, and asks nothing" sh -c "
    grep -q '^\*\*Resolved by [^ ].* on [0-9-]*[0-9:]*\*\*: both are fine\$' $q/$pref.md &&
    ! grep -q 'which side is right\|contradicts' $q/$pref.md"
expect "an open conflict's page leads with since when it is open" sh -c "
    grep -q '^\*\*Open since [0-9-]*[0-9:]*\.\*\* ' $q/$new.md && ! grep -q '^\*\*Resolved by' $q/$new.md"

# --- dismiss, then a re-sweep ---------------------------------------------
opt=$(cid r.db '%optics%')
before=$(facts r.db)
mirror conflicts dismiss "$opt" --reason "two views of one bench" --actor bob --store r.db
expect "dismiss succeeds" out_has "^dismissed $opt\$"
expect "dismiss changes no fact" test "$before" = "$(facts r.db)"
expect "the dismissed conflict records reason and actor" \
    test "$(sql r.db "SELECT status || '|' || resolution || '|' || resolved_by FROM conflicts WHERE id = '$opt'")" = "dismissed|two views of one bench|bob"
expect "dismiss writes an audit row per member" \
    test "$(sql r.db "SELECT count(*) FROM memory_audit WHERE action = 'conflict_dismissed' AND note LIKE 'conflict $opt:%'")" = 2
mirror sweep --store r.db --json
expect "a dismissed conflict is not reopened by the next sweep" sh -c \
    "jq -e '.conflicts_opened == 0' '$T/out' >/dev/null"
mirror conflicts list --store r.db --status dismissed --json
expect "list --status dismissed shows it" sh -c \
    "jq -e 'length == 1 and .[0].id == \"$opt\"' '$T/out' >/dev/null"
mirror conflicts list --store r.db
expect "the queue lists open first, then resolved, then dismissed" \
    test "$(awk 'NR > 1 { print $2 }' "$T/out" | uniq | tr '\n' ' ')" = "open resolved dismissed "

# --- an id shared by two kinds needs kind:id --------------------------------
new_store amb.db
sql amb.db "INSERT INTO project_state(id, project, category, key, value) VALUES ('x1', 'p', 'fact', 'colour', 'red');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES ('x1', 'decision', 'c', 'p', '{\"target\":\"colour\",\"value\":\"blue\"}')"
"$MIRROR" sweep --store amb.db --quiet
a=$(cid amb.db '%colour%')
mirror conflicts resolve "$a" --notes n --winner x1 --store amb.db
expect_error "an id shared by two members is ambiguous" 2 "winner 'x1' is ambiguous .*kind:id"
mirror conflicts resolve "$a" --notes n --winner entity:x1 --store amb.db
expect "kind:id picks the member" test "$RC" = 0 -a "$(sql amb.db "SELECT status FROM project_state WHERE id = 'x1'")" = superseded

# --- a store without mirror's tables has no conflicts -----------------------
sqlite3 bare.db "CREATE TABLE projects(id, name, aliases, description);
CREATE TABLE project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at);
CREATE TABLE entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at);
CREATE TABLE relationships(id, source_entity_id, target_entity_id, relationship_type, confidence);
CREATE TABLE memories(id, memory_type, content, project, confidence, status, created_at, updated_at);"
before=$(fingerprint bare.db)
mirror conflicts list --store bare.db --json
expect "list on a store without mirror's tables is empty" sh -c "test $RC = 0 && jq -e 'length == 0' '$T/out' >/dev/null"
mirror conflicts show c1 --store bare.db
expect_error "show on a store without mirror's tables" 2 "no conflict 'c1'"
expect "reading never creates mirror's tables" test "$before" = "$(fingerprint bare.db)"

# --- hostile text: invalid UTF-8 and markup stay data ---------------------
new_store bad.db
sql bad.db "INSERT INTO memories(id, memory_type, content, project) VALUES
 ('u1', 'preference', 'prefers ' || CAST(X'FE76696D' AS TEXT) || ' editors', 'p'),
 ('u2', 'preference', 'prefers <script>x</script> editors', 'p')"
mirror sweep --store bad.db --quiet
expect_error "the sweep refuses invalid UTF-8 in a fact, naming table, row and column" 2 \
    "store bad\.db: memories row 'u1': content is not valid UTF-8"
sql bad.db "UPDATE memories SET content = 'prefers vim editors' WHERE id = 'u1'"
"$MIRROR" sweep --store bad.db --quiet
mirror conflicts list --store bad.db --json
expect "list --json is JSON with markup in a value" sh -c \
    "test $RC = 0 && jq -e 'length == 1 and (.[0].members | length) == 2' '$T/out' >/dev/null"
u=$(sql bad.db "SELECT id FROM conflicts")
mirror conflicts show "$u" --store bad.db
expect "show prints hostile values as they are, on one line each" sh -c \
    "test $RC = 0 && grep -qF 'value then: <script>x</script> editors' '$T/out'"

# --- resolve supersedes every other member, also a byte-identical one -----
# SPEC 4: every member but the winner becomes superseded, with an audit
# row; a member whose value is the winner's to the byte is no exception.
new_store same.db
sql same.db "INSERT INTO projects(id, name, aliases) VALUES ('p07', 'P07', '[]');
INSERT INTO project_state(id, project, category, key, value) VALUES
 ('s-gasket', 'p07', 'decision', 'gasket_material', 'viton');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
 ('e-gasket-same', 'decision', 'Gasket material', 'p07',
  '{\"target\":\"gasket\",\"field\":\"material\",\"value\":\"viton\"}'),
 ('e-gasket-epdm', 'decision', 'Gasket material', 'p07',
  '{\"target\":\"gasket\",\"field\":\"material\",\"value\":\"EPDM\"}');
INSERT INTO memories(id, memory_type, content, project) VALUES
 ('m-gasket-same', 'knowledge', 'gasket material: viton', 'p07')"
"$MIRROR" sweep --store same.db --quiet
g=$(sql same.db "SELECT id FROM conflicts")
expect "the agreeing rows are members: values byte-identical to the winner's" \
    test "$(sql same.db "SELECT count(*) FROM conflict_members WHERE conflict_id = '$g' AND value_snapshot = 'viton'")" = 3
mirror conflicts resolve "$g" --notes "viton" --winner s-gasket --store same.db
expect "resolve --winner supersedes all three others" \
    out_has "^resolved $g: 3 rows superseded\$"
expect "... the byte-identical entity and memory too, each with an audit row" \
    test "$(sql same.db "SELECT (SELECT group_concat(id || '=' || status, ' ') FROM (SELECT id, status FROM entities UNION ALL SELECT id, status FROM memories ORDER BY id)) || '|' || (SELECT group_concat(memory_id, ' ') FROM (SELECT memory_id FROM memory_audit WHERE action = 'superseded' ORDER BY 1))")" = "e-gasket-epdm=superseded e-gasket-same=superseded m-gasket-same=superseded|e-gasket-epdm e-gasket-same m-gasket-same"

# --- an empty note is no note ---------------------------------------------
# An empty --notes or --reason is the usage error a missing one is, and
# the store is unchanged.
new_store empty.db "$data/layers.sql"
"$MIRROR" sweep --store empty.db --quiet
e=$(cid empty.db '%pad_material%')
before=$(fingerprint empty.db)
mirror conflicts resolve "$e" --notes '' --store empty.db
expect_error "resolve --notes '' is a usage error" 1 'resolve: --notes TEXT is required'
mirror conflicts dismiss "$e" --reason '' --store empty.db
expect_error "dismiss --reason '' is a usage error" 1 'dismiss: --reason TEXT is required'
expect "... and the store is byte-identical" \
    test "$before" = "$(fingerprint empty.db)"
