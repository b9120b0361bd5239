#!/bin/sh
# Opening stores: init, health, and every bad store of SPEC section 7 that
# reading can meet. Each bad case: its exit status, one error line naming
# the file and the reason, and the file byte-identical afterwards.
# The promises of doc/store.md, "Three layers of rising trust".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"

# --- the command line ---------------------------------------------------
mirror --version
expect "--version prints the version" out_has '^mirror [0-9]+\.[0-9]+'
mirror --help
expect "--help lists every command" sh -c "grep -q 'conflicts resolve' '$T/out' && grep -q 'health' '$T/out'"
mirror
expect_error "no command is a usage error" 1 'no command'
mirror frobnicate
expect_error "unknown command is a usage error" 1 "unknown command 'frobnicate'"
mirror health --store x.db --bogus
expect_error "unknown option is a usage error" 1 "unknown option '--bogus'"
mirror health
expect_error "health without --store is a usage error" 1 'store PATH is required'
mirror health --store
expect_error "an option missing its value is a usage error" 1 'needs a value'

# --- init ---------------------------------------------------------------
mirror init --store new.db
expect_status "init creates a store" 0
expect "init's store passes integrity_check" integrity_ok new.db
expect "init creates the mirror-owned tables and stamps their version" \
    test "$(sql new.db "SELECT value FROM mirror_meta WHERE key='schema_version'")" = 2
expect "init leaves PRAGMA user_version to the store's owner" \
    test "$(sql new.db 'PRAGMA user_version')" = 0
before=$(fingerprint new.db)
mirror init --store new.db
expect_error "init refuses an existing file" 2 'new.db: already exists'
expect "the refused file is unchanged" test "$before" = "$(fingerprint new.db)"
echo precious > keep.txt
ln -s keep.txt link.db
mirror init --store link.db
expect_error "init refuses a symlink to an existing file" 2 'link.db: already exists'
expect "the symlink's target is unchanged" test "$(cat keep.txt)" = precious
mirror init --store no/such/dir/x.db
expect_error "init into a missing directory fails clearly" 2 'no/such/dir/x.db'
expect "nothing is left behind" test ! -e no

# --- health -------------------------------------------------------------
new_store tiny.db "$data/tiny.sql"
SOURCE_DATE_EPOCH=1700000000 mirror health --store tiny.db
expect_status "health on a good store" 0
expect "health counts each layer by status" sh -c "grep -q 'project_state  (trust 3): 3 = 2 active, 1 superseded' '$T/out' && grep -q 'entities       (trust 2): 2 = 1 active, 1 candidate' '$T/out'"
expect "health reports open_conflicts_count" out_has '^open_conflicts_count: 0$'
expect "health counts expired memories" out_has '1 active expired'
SOURCE_DATE_EPOCH=1700000000 mirror health --store tiny.db --json
expect "health --json is JSON with open_conflicts_count" sh -c "jq -e '.open_conflicts_count == 0 and .layers.memories.by_status.active == 2 and .layers.memories.expired == 1 and .projects == 2' '$T/out' >/dev/null"
# Each status counted once however its rows lie, listed in byte order;
# a status that is not text names its row.
new_store st.db "$data/tiny.sql"
sql st.db "INSERT INTO entities(id, entity_type, name, status) VALUES
    ('e-z', 'component', 'Z', 'zeta'), ('e-y', 'component', 'Y', 'Alpha'),
    ('e-x', 'component', 'X', 'zeta')"
SOURCE_DATE_EPOCH=1700000000 mirror health --store st.db
expect "health lists the statuses in byte order, each once" out_has \
    '^entities       [(]trust 2[)]: 5 = 1 Alpha, 1 active, 1 candidate, 2 zeta$'
sql st.db "UPDATE entities SET status = CAST(x'ff' AS TEXT) WHERE id = 'e-x'"
SOURCE_DATE_EPOCH=1700000000 mirror health --store st.db
expect_error "a status that is not text names its row" 2 \
    "entities row 'e-x': status is not valid UTF-8 text"
SOURCE_DATE_EPOCH=soon mirror health --store tiny.db
expect_error "a bad SOURCE_DATE_EPOCH is a usage error" 1 'SOURCE_DATE_EPOCH'

# A store whose memories lack every optional column still opens.
sqlite3 minimal.db "CREATE TABLE projects(id TEXT PRIMARY KEY, name TEXT, aliases TEXT, description TEXT);
CREATE TABLE project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at);
CREATE TABLE entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at, extra_col);
CREATE TABLE relationships(id, source_entity_id, target_entity_id, relationship_type, confidence, created_at);
CREATE TABLE memories(id, memory_type, content, project, confidence, status, created_at, updated_at);
CREATE TABLE unrelated(x); INSERT INTO memories VALUES('m','episodic','x','',1,'active','','');"
before=$(fingerprint minimal.db)
mirror health --store minimal.db --json
expect "optional columns and tables may be missing, extra ones are ignored" sh -c "test $RC = 0 && jq -e '.layers.memories.total == 1' '$T/out' >/dev/null"
expect "reading a store without mirror's tables does not create them" test "$before" = "$(fingerprint minimal.db)"

# --- bad stores: exit 2, one line, nothing changed ----------------------
mirror health --store missing.db
expect_error "a missing store" 2 'missing.db: no such file'
printf 'hello, not a database\n' > text.db
mirror health --store text.db
expect_error "a file that is not SQLite" 2 'text.db: not an SQLite database'
: > empty.db
mirror health --store empty.db
expect_error "an empty file" 2 'empty.db: empty file'
mkdir dir.db
mirror health --store dir.db
expect_error "a directory" 2 'dir.db: not a regular file'
cp tiny.db corrupt.db
# Keep the header, overwrite the schema page: a corrupt database.
dd if=/dev/urandom of=corrupt.db bs=1 seek=100 count=3000 conv=notrunc 2>/dev/null
before=$(fingerprint corrupt.db)
mirror health --store corrupt.db
expect_error "a corrupt store" 2 'corrupt.db: .*(malformed|not a database|corrupt)'
expect "the corrupt store is untouched" test "$before" = "$(fingerprint corrupt.db)"
head -c 8192 tiny.db > truncated.db
mirror health --store truncated.db
expect "a truncated store fails with exit 2 and one line" sh -c "test $RC = 2 && test \$(wc -l < '$T/err') = 1 && grep -q 'truncated.db' '$T/err'"

cp tiny.db nomem.db
sql nomem.db 'DROP TABLE memories'
before=$(fingerprint nomem.db)
mirror health --store nomem.db
expect_error "a store missing a required table" 2 "nomem.db: missing required table 'memories'"
expect "the store missing a table is untouched" test "$before" = "$(fingerprint nomem.db)"
cp tiny.db nocol.db
sql nocol.db 'DROP INDEX mirror_entity_windows; ALTER TABLE entities DROP COLUMN properties'
before=$(fingerprint nocol.db)
mirror health --store nocol.db
expect_error "a store missing a required column" 2 "nocol.db: table 'entities' lacks required column 'properties'"
expect "the store missing a column is untouched" test "$before" = "$(fingerprint nocol.db)"
cp tiny.db future.db
sql future.db "UPDATE mirror_meta SET value = '99' WHERE key = 'schema_version'"
mirror health --store future.db
expect_error "a newer mirror schema version" 2 'future.db: mirror schema version 99 is newer'
cp tiny.db badalias.db
sql badalias.db "UPDATE projects SET aliases = '[\"p06\",' WHERE id = 'p06-polisher'"
mirror health --store badalias.db
expect_error "invalid JSON in aliases names the row" 2 "badalias.db: projects row 'p06-polisher': aliases is not a JSON array"
cp tiny.db clash.db
sql clash.db "UPDATE projects SET aliases = '[\"p05\"]' WHERE id = 'p06-polisher'"
mirror health --store clash.db
expect_error "an alias claimed by two projects" 2 "alias 'p05' of project 'p06-polisher' also names another project"

# --- config file --------------------------------------------------------
printf '# mirror config\n[mirror]\nstore = tiny.db\n' > mirror.ini
mirror health --json
expect "store comes from ./mirror.ini" sh -c "test $RC = 0 && jq -e '.projects == 2' '$T/out' >/dev/null"
# Two stores at the same relative path: stores/s.db beside the config
# file (one project) and stores/s.db from the working directory (none).
mkdir -p sub/stores stores
new_store sub/stores/s.db || exit 1
sql sub/stores/s.db "INSERT INTO projects(id, name) VALUES('beside-config', 'B')"
new_store stores/s.db || exit 1
printf 'store = stores/s.db\n' > sub/site.ini
mirror --config sub/site.ini health --json
expect "paths in a config file are relative to the file, not the working directory" \
    sh -c "test $RC = 0 && jq -e '.store == \"sub/stores/s.db\" and .projects == 1' '$T/out' >/dev/null"
printf 'store = tiny.db\nstroe = x\n' > bad.ini
mirror --config bad.ini health
expect_error "an unknown config key names file and line" 2 "config bad.ini:2: unknown key 'stroe'"
rm mirror.ini

# --- the tables' versions ----------------------------------------------
# The promises of doc/store.md, "Table versions".
# versions DB: each versioned table and its version, one line each.
versions() { sql "$1" "SELECT tbl || ' ' || v FROM mirror_table_versions ORDER BY tbl"; }
# triggers DB: how many of mirror's version triggers DB has.
triggers() { sql "$1" "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name GLOB 'mirror_version_*'"; }
# windows DB: 1 when DB has mirror's index of the entities with a window.
windows() { sql "$1" "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'mirror_entity_windows'"; }
new_store ver.db "$MIRROR_TOP/site-example/example.sql" || exit 1
expect "init adds mirror_table_versions, a row for each of the five fact tables" \
    test "$(versions ver.db | wc -l | tr -d ' ')" = 5
expect "... and three triggers on each" test "$(triggers ver.db)" = 15
expect "... and the index of the entities with a window" \
    test "$(windows ver.db)" = 1
# The promises of doc/store.md, "The windows index": the starter rules
# that look for windows read it, not every entity's properties.
for rule in edge-outside-window decision-outside-window; do
    sed -n "/^-- rule: $rule\$/,/;\$/p" "$MIRROR_TOP/rules/anachronisms.sql" |
        grep -v '^--' >"$rule.sql"
    expect "$rule finds the windows through mirror_entity_windows" sh -c \
        "{ echo 'EXPLAIN QUERY PLAN'; cat $rule.sql; } | sqlite3 ver.db |
        grep -q 'SCAN e USING INDEX mirror_entity_windows'"
done
before=$(versions ver.db)
sql ver.db "UPDATE entities SET name = name || ' (2)' WHERE rowid = 1"
after=$(versions ver.db)
expect "a writer's update leaves the other tables' versions alone" test \
    "$(printf '%s\n' "$before" | grep -v '^entities ')" = \
    "$(printf '%s\n' "$after" | grep -v '^entities ')"
expect "... and draws the entities a new one" test \
    "$(printf '%s\n' "$before" | grep '^entities ')" != \
    "$(printf '%s\n' "$after" | grep '^entities ')"
# A store whose writer never ran mirror to write: none of it.
cp ver.db old.db
sql old.db "$(sql old.db "SELECT 'DROP TRIGGER ' || name || ';' FROM sqlite_schema WHERE type = 'trigger' AND name GLOB 'mirror_version_*'") DROP TABLE mirror_table_versions; DROP INDEX mirror_entity_windows;"
sum=$(sha256sum <old.db)
mirror health --store old.db
expect "a reading command leaves a store without them byte-identical" \
    test "$RC $(sha256sum <old.db)" = "0 $sum"
cp old.db null.db
sql null.db "UPDATE projects SET aliases = '[' WHERE rowid = 1"
sum=$(sha256sum <null.db)
mirror sweep --store null.db
expect "a sweep that fails (a bad alias) adds nothing: the store byte-identical" \
    test "$RC $(sha256sum <null.db)" = "2 $sum"
mirror sweep --store old.db
expect "a sweep that succeeds adds them" test \
    "$RC $(triggers old.db) $(versions old.db | wc -l | tr -d ' ')" = "0 15 5"
expect "... and the index" test "$(windows old.db)" = 1
cp ver.db idx.db
sql idx.db "DROP INDEX mirror_entity_windows"
mirror build --store idx.db --out idx --quiet
expect "a build that swept adds the index alone where only it is missing" \
    test "$RC $(windows idx.db) $(sql idx.db 'PRAGMA integrity_check')" = "0 1 ok"
# Kept folds: a value changed twice; the second build takes the three
# tables no one wrote (doc/performance.md, "Kept folds").
value() { sql ver.db "UPDATE project_state SET value = value || '$1' WHERE rowid = 2"; }
mirror build --store ver.db --out ver --quiet
value x; mirror build --store ver.db --out ver --json
value y; mirror build --store ver.db --out ver --json
expect "a build after a value's change takes the other tables' kept folds" \
    sh -c "test $RC = 0 && jq -e '.work.tables_kept >= 3' '$T/out' >/dev/null"
value z; mirror build --store ver.db --out ver --force --json
expect "--force takes none" \
    sh -c "test $RC = 0 && jq -e '.work.tables_kept == 0' '$T/out' >/dev/null"
sql ver.db "DROP TRIGGER mirror_version_memories_update; CREATE TRIGGER mirror_version_memories_update AFTER UPDATE ON memories BEGIN SELECT 1; END;"
value w; mirror build --store ver.db --out ver --json
value v; mirror build --store ver.db --out ver --json
expect "a trigger not mirror's word for word: every table read, none taken" \
    sh -c "test $RC = 0 && jq -e '.work.tables_kept == 0' '$T/out' >/dev/null"
expect "... and mirror leaves the owner's trigger as it is" sh -c \
    "sqlite3 ver.db \"SELECT sql FROM sqlite_schema WHERE name = 'mirror_version_memories_update'\" | grep -q 'SELECT 1'"
