#!/bin/sh
# Boundaries through the command line: a memory's expiry against the
# run's clock in every timestamp form the store accepts (health, the
# page, the build's up-to-date check and the sweep agree), and the
# schema version (this one opens, the next is refused, 0 is not a
# version number). The unit-level boundaries are tests/unit/
# test_boundaries.c; tests/mutants/ holds the mutants both answer.
. "$MIRROR_TOP/tests/e2e/lib.sh"

# now = 1700000000 = 2023-11-14 22:13:20
NOW=1700000000

# --- expiry in every accepted form -----------------------------------------
# Catches: 15-health-expired-now, and the bug where health and the build
# stamp compared valid_until as text ('T' sorts after ' ': a memory that
# expired at 01:00 that day was still live for them, not for the sweep).
new_store exp.db
sql exp.db "INSERT INTO memories(id, memory_type, content, project, valid_until) VALUES
 ('m-before', 'episodic', 'before', 'p', '2023-11-14 22:13:19'),
 ('m-now', 'episodic', 'at now', 'p', '2023-11-14 22:13:20'),
 ('m-after', 'episodic', 'after', 'p', '2023-11-14 22:13:21'),
 ('m-t', 'episodic', 'iso form', 'p', '2023-11-14T01:00:00Z'),
 ('m-tnow', 'episodic', 'iso form at now', 'p', '2023-11-14T22:13:20Z'),
 ('m-day', 'episodic', 'a date', 'p', '2023-11-14');
 INSERT INTO memories(id, memory_type, content, project) VALUES
 ('a', 'preference', 'prefers tea', 'p'),
 ('b', 'preference', 'never prefers tea', 'p')"
SOURCE_DATE_EPOCH=$NOW mirror health --store exp.db --json
expect "health counts the memories whose valid_until is before now, in any form" \
    sh -c "jq -e '.layers.memories.expired == 3' '$T/out' >/dev/null"
SOURCE_DATE_EPOCH=$((NOW - 1)) mirror health --store exp.db --json
expect "... one second earlier, one fewer (valid_until = now is not expired)" \
    sh -c "jq -e '.layers.memories.expired == 2' '$T/out' >/dev/null"

# The page shows the expired ones as expired, and only them.
SOURCE_DATE_EPOCH=$NOW mirror build --store exp.db --out site
expired_ids() {
	[ -f site/projects/p/index.md ] || { echo "no page"; return; }
	# A fact is a table row; an expired memory's status cell says so.
	grep -o 'id="memory-[^"]*".*' site/projects/p/index.md |
	    grep '| expired |' | sed 's/id="memory-\([^"]*\)".*/\1/' | sort | tr '\n' ' '
}
expect "the page marks exactly those memories expired" \
    test "$(expired_ids)" = "m-before m-day m-t "

# A build at 00:00, then one at 01:00:01 on the same day: the memory in
# the 'T' form expired between them, so the second build renders again.
rm -rf site
SOURCE_DATE_EPOCH=1699920000 mirror build --store exp.db --out site
expect "the first build (00:00) shows the 'T' memory live" \
    test "$(expired_ids)" = ""
SOURCE_DATE_EPOCH=1699923601 mirror build --store exp.db --out site
expect "a build after a memory expired is not 'unchanged'" \
    sh -c "! grep -q 'unchanged' '$T/out'"
expect "... and its page shows the memory expired" \
    test "$(expired_ids)" = "m-day m-t "

# --- schema version ----------------------------------------------------------
# Catches: 06-store-schema-version, 16-store-version-zero; and the bug
# where the message printed the value from a finalized statement.
new_store v.db
cur=$(sql v.db "SELECT value FROM mirror_meta WHERE key = 'schema_version'")
mirror health --store v.db
expect_status "this mirror's schema version opens" 0
sql v.db "UPDATE mirror_meta SET value = '$((cur + 1))' WHERE key = 'schema_version'"
before=$(fingerprint v.db)
mirror sweep --store v.db
expect_error "the next schema version is refused" 2 \
    "v.db: mirror schema version $((cur + 1)) is newer than this mirror understands \($cur\); upgrade mirror\$"
expect "... and the store is untouched" test "$before" = "$(fingerprint v.db)"
for v in 0 -1 1000001 abc; do
	sql v.db "UPDATE mirror_meta SET value = '$v' WHERE key = 'schema_version'"
	mirror health --store v.db
	expect_error "schema_version '$v' is named as not a version number" 2 \
	    "v.db: mirror_meta.schema_version '$v' is not a version number\$"
done
