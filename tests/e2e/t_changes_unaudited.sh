#!/bin/sh
# A fact changed by a plain SQL UPDATE, with no audit row, still shows in
# recent changes old → new (issue 69, item 5): the example store is
# built, a trusted state value and an entity's property are changed by
# UPDATE alone (memory_audit untouched), and the next build's changes.md,
# changes.xml and index.md say what each was and is, read from the
# api/projects/<slug>.json the build before published. Builds after it
# (a day later; another fact added) keep each entry byte for byte, though
# their own api/ files show no difference any more; a --force build into
# the same DIR keeps them too; a value audited by its own row is said
# once, by its audit row. The promise of doc/site.md, "Recent changes".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store s.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store s.db --out site --quiet
expect_status "the example builds" 0
expect "the first build says no fact changed" sh -c \
    "! grep -q 'changed in' site/changes.md && [ ! -e site/api/changes-unaudited.json ]"

sql s.db "UPDATE project_state SET value = 'pilot run' WHERE id = 'p04-st-phase';
    UPDATE entities SET properties = json_set(properties, '\$.value', 11)
    WHERE id = (SELECT id FROM entities WHERE project = 'p05-interferometer'
    AND json_extract(properties, '\$.value') IS NOT NULL AND status = 'active'
    ORDER BY id LIMIT 1)"
expect "the store has no audit row of either" test "$(sql s.db \
    "SELECT count(*) FROM memory_audit WHERE memory_id = 'p04-st-phase'")" = 0
ent=$(sql s.db "SELECT id FROM entities WHERE project = 'p05-interferometer'
    AND json_extract(properties, '\$.value') = 11")
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 3600)) \
    mirror build --store s.db --out site --quiet
expect_status "it builds again" 0
grep '^- .* changed in ' site/changes.md >1.md
tr '\n' ' ' <site/changes.xml | sed 's|<entry>|\n<entry>|g' |
    grep '^<entry>' | grep 'changed in' | sed 's|</feed>.*||' >1.xml
expect "changes.md says the state value old → new, linked to the fact" \
    grep -qxF -- '- trusted state changed in [P04 Gigabit Link](projects/p04-gigabit/index.md): [phase](projects/p04-gigabit/index.md#state-p04-st-phase) · value: prototype bring-up → pilot run' 1.md
expect "... and the entity's property, by its key" sh -c \
    "grep -F 'engineering record changed in [P05' 1.md | grep -F '$ent' | grep -qE '· value: [^ ]+ → 11\$'"
expect "changes.xml has both" sh -c \
    "[ \$(wc -l <1.xml) = 2 ] && grep -qF 'value: prototype bring-up → pilot run' 1.xml"
expect "the index's recent changes name it" \
    grep -qF 'trusted state changed in P04 Gigabit Link: [phase]' site/index.md

# kept N: the entries of build 1 are in the site now, byte for byte.
kept() {
	grep '^- .* changed in ' site/changes.md >"$1.md"
	tr '\n' ' ' <site/changes.xml | sed 's|<entry>|\n<entry>|g' |
	    grep '^<entry>' | grep 'changed in' | sed 's|</feed>.*||' >"$1.xml"
	[ -s 1.md ] && cmp -s 1.md "$1.md" && cmp -s 1.xml "$1.xml"
}
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 86400)) \
    mirror build --store s.db --out site --quiet
expect "a build a day later keeps both entries byte for byte" kept 2
sql s.db "INSERT INTO project_state(id, project, category, key, value,
    source, status, created_at, updated_at) VALUES ('p04-st-new', 'p04-gigabit',
    'fact', 'new_fact', '1', 'test', 'active', '2026-11-02 00:00:00',
    '2026-11-02 00:00:00')"
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 2 * 86400)) \
    mirror build --store s.db --out site --quiet
expect "... and so does one after a fact of the same project is added" kept 3
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 2 * 86400)) \
    mirror build --store s.db --out site --quiet --force
expect "... and a --force build into the same DIR" kept 4

# An audited change is said once, by its audit row.
sql s.db "UPDATE project_state SET value = 'production' WHERE id = 'p04-st-phase';
    INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, note,
    timestamp, before_json, after_json) VALUES ('aud-1', 'p04-st-phase',
    'project_state', 'updated', 'ana', 'went live', '2026-11-04 00:00:00',
    '{\"value\":\"pilot run\"}', '{\"value\":\"production\"}')"
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 3 * 86400)) \
    mirror build --store s.db --out site --quiet
expect "an audited change of the same fact is its audit row's entry, not a second one" sh -c "
    [ \$(grep -c 'pilot run → production' site/changes.md) = 1 ] &&
    grep -F 'pilot run → production' site/changes.md | grep -qF 'by ana'"
