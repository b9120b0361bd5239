#!/bin/sh
# A hostile or unlucky store (issue 16, items 2, 3, 5, 6): a hot journal a
# SIGKILLed writer left, contract tables that are views, a query that
# would never end, text mirror itself wrote gone bad (invalid UTF-8, a
# NUL byte, an unknown member_kind), and a trigger on a table the sweep
# writes. Every failing case asserts the exit status, exactly one line
# "mirror: ..." naming what and where, and the store (and DIR and the
# repository where a build runs) byte-identical to before; the hot
# journal cases assert that read-only commands just work.
# The promises of doc/reliability.md, "The store: crashed writers, views, slow queries, triggers".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"
export SOURCE_DATE_EPOCH=1700000000
author="Mirror Bot <bot@example.org>"

new_store base.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
mirror sweep --store base.db
[ "$RC" -eq 0 ] || { not_ok "the base store sweeps"; exit 1; }
git init -q --bare repo.git
mirror build --store base.db --out site --repo repo.git --author "$author"
[ "$RC" -eq 0 ] || { not_ok "a good build starts the cases"; exit 1; }
cp base.db swept.db
cid=$(sql swept.db "SELECT id FROM conflicts ORDER BY id LIMIT 1")
[ -n "$cid" ] || { not_ok "the base store has a conflict"; exit 1; }
chmod 755 "$T"

# same A B: files A and B are byte-identical.
same() { [ "$(fingerprint "$1")" = "$(fingerprint "$2")" ]; }

# fresh NAME SQL: NAME.db, a copy of the swept store with SQL applied,
# and NAME.ref, a copy of it to compare with after the run.
fresh() {
	cp swept.db "$1.db" && sql "$1.db" "$2" && cp "$1.db" "$1.ref"
}

# bad NAME CODE PATTERN CMD...: mirror CMD on $1.db fails with CODE and
# one line matching PATTERN, leaving the store byte-identical and sound.
bad() {
	name=$1 code=$2 pat=$3
	shift 3
	mirror "$@"
	expect_error "$name" "$code" "$pat"
	expect "$name: store byte-identical, integrity ok" \
	    eval "same $db $db_ref && integrity_ok $db"
}

# ---- item 2: a hot journal a SIGKILLed writer left ----------------------

# killed STORE: a writer in rollback-journal mode SIGKILLed inside
# BEGIN IMMEDIATE, with pages already spilled into the file.
killed() {
	python3 "$MIRROR_TOP/tests/tools/fact_writer.py" "$1" /nonexistent \
	    --kill-in-transaction 2>/dev/null
	[ -s "$1-journal" ]
}
cp swept.db hot.db
expect "a killed writer leaves a hot journal" killed hot.db
cp hot.db hot.src
cp hot.db-journal hot.src-journal
for cmd in health "conflicts list" "build --no-sweep" "conflicts show $cid"; do
	cp hot.src h.db
	cp hot.src-journal h.db-journal
	case $cmd in
	build*) mirror build --no-sweep --store h.db --out hsite ;;
	*) mirror $cmd --store h.db ;;
	esac
	expect_status "hot journal: $cmd works as on the old store" 0
	expect "hot journal: $cmd rolled the journal back (old store, sound)" \
	    eval "[ ! -e h.db-journal ] && same h.db swept.db && integrity_ok h.db"
done
cp hot.src h.db
cp hot.src-journal h.db-journal
mirror build --store h.db --out hsite2 --repo repo.git --author "$author"
expect_status "hot journal: a build sweeps and commits" 0

# Read-only to this user: say what happened and how to recover, exit 3.
mkdir ro
cp hot.src ro/h.db
cp hot.src-journal ro/h.db-journal
chmod 644 ro/h.db ro/h.db-journal
chmod 755 ro
before=$(fingerprint ro)
for cmd in health "conflicts list"; do
	as_nobody $cmd --store ro/h.db
	expect_error "hot journal, read-only: $cmd exits 3 naming the journal" 3 \
	    "ro/h\.db: .*crashed writer left ro/h\.db-journal.*write access.*PRAGMA integrity_check"
done
expect "hot journal, read-only: store and journal untouched" \
    eval "[ \"\$before\" = \"\$(fingerprint ro)\" ]"

# ---- item 3: views and a query that never ends ------------------------

db=loop.db db_ref=loop.ref
fresh loop "ALTER TABLE entities RENAME TO entities_real;
CREATE VIEW entities AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL
 SELECT i + 1 FROM n) SELECT e.* FROM n, entities_real e;"
# No clock: each mirror below runs under a CPU cap (a soft ulimit -t, per
# process), far above the milliseconds it needs; an endless query would
# be killed at it by SIGXCPU (exit 152) instead of hanging the suite.
cap_saved=$(ulimit -S -t)
ulimit -S -t 60
bad "a view over an endless CTE: health says entities is a view" 2 \
    "store loop\.db: entities is a view, not a table" health --store loop.db
expect "the view case ends on its own, within a CPU cap of 60 s" test "$RC" != 152
ulimit -S -t "$cap_saved"

db=view.db db_ref=view.ref
fresh view "ALTER TABLE entities RENAME TO entities_real;
CREATE VIEW entities AS SELECT * FROM entities_real;"
site_before=$(fingerprint site) repo_before=$(fingerprint repo.git)
bad "a plain view copy of entities: the build says it is a view" 2 \
    "store view\.db: entities is a view, not a table" \
    build --store view.db --out site --repo repo.git --author "$author"
expect "the view case: DIR and repository byte-identical" \
    eval "[ \"\$site_before\" = \"\$(fingerprint site)\" ] &&
    [ \"\$repo_before\" = \"\$(fingerprint repo.git)\" ]"
db=view2.db db_ref=view2.ref
fresh view2 "ALTER TABLE conflicts RENAME TO conflicts_real;
CREATE VIEW conflicts AS SELECT * FROM conflicts_real;"
bad "a view named conflicts: conflicts list refuses it" 2 \
    "store view2\.db: conflicts is a view, not a table" \
    conflicts list --store view2.db

# The budget: a store too large for it stops with what was being read.
db=big.db db_ref=big.ref
fresh big "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
 WHERE i < 300000) INSERT INTO project_state(id, project, category, key,
 value) SELECT 'big' || i, 'big', 'fact', 'k' || i, 'v' FROM n;"
ulimit -S -t 60
MIRROR_QUERY_TIMEOUT_MS=1 bad "a query past MIRROR_QUERY_TIMEOUT_MS: health names it" 2 \
    "store big\.db: cannot count project_state: a query ran past its budget of 1 ms" \
    health --store big.db
MIRROR_QUERY_TIMEOUT_MS=1 bad "a query past the budget: build --no-sweep stops" 2 \
    "store big\.db: .*ran past its budget of 1 ms" \
    build --no-sweep --store big.db --out bigsite
expect "the budget cases end on their own, within a CPU cap of 60 s" test "$RC" != 152
ulimit -S -t "$cap_saved"
mirror health --store big.db
expect_status "the same store within the default budget: health works" 0

# ---- item 5: text mirror wrote, read back as bad input -------------------

db=snap.db db_ref=snap.ref
fresh snap "UPDATE conflict_members SET value_snapshot = CAST(x'61ff62' AS TEXT)
 WHERE conflict_id = '$cid';"
bad "invalid UTF-8 in value_snapshot: conflicts list names table, row, column" 2 \
    "store snap\.db: conflict_members row '$cid' member '[^']*': value_snapshot is not valid UTF-8" \
    conflicts list --store snap.db
bad "invalid UTF-8 in value_snapshot: build --no-sweep too" 2 \
    "store snap\.db: conflict_members row '$cid' member '[^']*': value_snapshot is not valid UTF-8" \
    build --no-sweep --store snap.db --out snapsite

db=res.db db_ref=res.ref
fresh res "UPDATE conflicts SET status = 'resolved', resolved_by = 'x',
 resolved_at = CAST(x'32303234ff' AS TEXT) WHERE id = '$cid';"
bad "invalid UTF-8 in resolved_at: conflicts show names it" 2 \
    "store res\.db: conflicts row '$cid': resolved_at is not valid UTF-8" \
    conflicts show "$cid" --store res.db
site_before=$(fingerprint site) repo_before=$(fingerprint repo.git)
bad "invalid UTF-8 in resolved_at: build stops before its sweep commits" 2 \
    "store res\.db: conflicts row '$cid': resolved_at is not valid UTF-8" \
    build --store res.db --out site --repo repo.git --author "$author"

# The check leaves the conflicts and violations alone when a read of
# these very rows kept them (their sum; the user's cache): a value
# changed reads fewer rows than the same build of a copy no read kept
# (the cache is by store path); a conflict row changed since is checked
# again, and stops the build before its sweep commits. The copy's build
# has a cache of its own, empty: nothing a read kept, neither its
# findings nor its tables' folds (doc/performance.md, "Kept folds"). The
# rows of the check and the read after the sweep together: which of the
# two a row the copy reads is counted in depends on when its rules
# start.
cp swept.db kept.db
mirror build --store kept.db --out kept
sql kept.db "UPDATE project_state SET value = value || 'x'
 WHERE id = (SELECT min(id) FROM project_state)"
cp kept.db copy.db && cp -R kept copy
mirror build --store kept.db --out kept --json
kept_rows=$(jq '.work.rows.check + .work.rows.read' "$T/out")
cache=$MIRROR_CACHE_DIR
export MIRROR_CACHE_DIR="$T/copy-cache"
mirror build --store copy.db --out copy --json
copy_rows=$(jq '.work.rows.check + .work.rows.read' "$T/out")
export MIRROR_CACHE_DIR="$cache"
expect "findings kept: the check and the read step fewer rows ($kept_rows < $copy_rows)" \
    test "$kept_rows" -lt "$copy_rows"
expect "findings kept: the site is the copy's" \
    eval "[ \"\$(fingerprint kept)\" = \"\$(fingerprint copy)\" ]"
sql kept.db "UPDATE conflicts SET status = 'resolved', resolved_by = 'x',
 resolved_at = CAST(x'32303234ff' AS TEXT) WHERE id = '$cid';
 UPDATE project_state SET value = value || 'y'
 WHERE id = (SELECT min(id) FROM project_state)"
cp kept.db kept.ref
db=kept.db db_ref=kept.ref
site_before=$(fingerprint kept)
bad "a conflict row changed since a read kept it: the build stops" 2 \
    "store kept\.db: conflicts row '$cid': resolved_at is not valid UTF-8" \
    build --store kept.db --out kept
expect "the changed conflict row: DIR byte-identical" \
    eval "[ \"\$site_before\" = \"\$(fingerprint kept)\" ]"

db=kind.db db_ref=kind.ref
fresh kind "UPDATE conflict_members SET member_kind = 'bogus'
 WHERE conflict_id = '$cid';"
bad "member_kind 'bogus': names store, table, row, column, valid values" 2 \
    "store kind\.db: conflict_members row '$cid' member '[^']*': member_kind is 'bogus', not one of project_state, entity, memory" \
    conflicts list --store kind.db
bad "member_kind 'bogus': sweep says the same" 2 \
    "store kind\.db: conflict_members row '$cid' member '[^']*': member_kind is 'bogus'" \
    sweep --store kind.db

db=nul.db db_ref=nul.ref
fresh nul "UPDATE memories SET content = CAST(x'610062' AS TEXT)
 WHERE id = (SELECT min(id) FROM memories);"
mid=$(sql nul.db "SELECT min(id) FROM memories")
bad "a NUL byte in text: says so, not 'not valid UTF-8'" 2 \
    "store nul\.db: memories row '$mid': content contains a NUL byte" \
    build --store nul.db --out site --repo repo.git --author "$author"
bad "a NUL byte in text: the sweep says so too" 2 \
    "store nul\.db: memories row '$mid': content contains a NUL byte" \
    sweep --store nul.db

# ---- item 6: a trigger on a table the sweep writes ----------------------

db=trig.db db_ref=trig.ref
fresh trig "CREATE TRIGGER poison AFTER INSERT ON sweep_runs BEGIN
 UPDATE entities SET properties = '{not json'; END;"
site_before=$(fingerprint site) repo_before=$(fingerprint repo.git)
bad "a trigger on sweep_runs: the build refuses the store upfront" 2 \
    "store trig\.db: table sweep_runs carries trigger 'poison', which mirror did not create" \
    build --store trig.db --out site --repo repo.git --author "$author"
expect "the trigger case: DIR and repository byte-identical" \
    eval "[ \"\$site_before\" = \"\$(fingerprint site)\" ] &&
    [ \"\$repo_before\" = \"\$(fingerprint repo.git)\" ]"
bad "a trigger on sweep_runs: sweep refuses it too" 2 \
    "table sweep_runs carries trigger 'poison'" sweep --store trig.db
mirror health --store trig.db
expect_status "a trigger on sweep_runs: read-only health still works" 0
