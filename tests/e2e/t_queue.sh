#!/bin/sh
# The review queue for a reviewer at scale (doc/site.md, "The review
# queue"): a front page of a line per project with open conflicts (the
# 20 with the most) and a list of every project's queue, each project's own
# pages of its conflicts grouped by status and kind, oldest first, with
# the day each was detected; a project with more than 300 conflicts is
# paged, so no queue page holds more than 300 entries, and every link
# resolves.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000
linkcheck="$MIRROR_TOP/tests/tools/linkcheck.py"

# disagree DB PROJECT N PREFIX: N pairs of trusted state rows of
# PROJECT that disagree (ids PREFIX-a-I and PREFIX-b-I), N conflicts.
disagree() {
	sql "$1" "INSERT INTO project_state(id, project, category, key, value,
	    source, status, created_at, updated_at)
	  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
	    WHERE i < $3)
	  SELECT '$4-a-' || i, '$2', 'fact', 'Key_' || i, 'left',
	    'spec', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'
	    FROM n
	  UNION ALL
	  SELECT '$4-b-' || i, '$2', 'fact', 'Key_' || i, 'right',
	    'log', 'active', '2024-01-02 00:00:00', '2024-01-02 00:00:00'
	    FROM n"
}

# 320 open conflicts in one project, beside the store's own.
new_store s.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
disagree s.db p06-polisher 320 q
mirror build --store s.db --out site
expect_status "a store of 320 more conflicts in one project builds" 0

n06=$(jq '.projects[] | select(.project == "p06-polisher") | .total' \
    site/api/conflicts.json)
expect "p06-polisher has at least 320 conflicts" test "$n06" -ge 320
expect "no queue page holds more than 300 entries" sh -c '
    for f in site/conflicts/index.md site/conflicts/*/*.md; do
        n=$(grep -c "^- \[" "$f")
        [ "$n" -le 300 ] || { echo "$f: $n entries"; exit 1; }
    done'
expect "p06-polisher's queue is two pages, 300 then the rest" sh -c "
    [ \$(grep -c '^- \[' site/conflicts/projects/p06-polisher.md) = 300 ] &&
    [ \$(grep -c '^- \[' site/conflicts/projects/p06-polisher.page-2.md) = $((n06 - 300)) ] &&
    [ ! -e site/conflicts/projects/p06-polisher.page-3.md ]"
expect "the pages link each other and say which one they are" sh -c '
    grep -qx "Pages: \*\*1\*\* · \[2\](p06-polisher.page-2.md)" site/conflicts/projects/p06-polisher.md &&
    grep -qx "Pages: \[1\](p06-polisher.md) · \*\*2\*\*" site/conflicts/projects/p06-polisher.page-2.md &&
    grep -q "^# Conflicts: P06 Polisher (page 2 of 2)\$" site/conflicts/projects/p06-polisher.page-2.md'
expect "every conflict is listed on exactly one project page" sh -c '
    jq -r ".conflicts[].conflict.id" site/api/conflicts/projects/*.json | sort > want &&
    cat site/conflicts/*/*.md | sed -n "s/^- \[.*\](\.\.\/\([^)]*\)\.md): .*/\1/p" |
        sort > got && cmp want got'
expect "the front page has a line per project with open conflicts (at most 20), linked to its pages; the list by project a row each" sh -c '
    grep -q "^- \[P06 Polisher\](projects/p06-polisher.md): $0 open conflicts (" site/conflicts/index.md &&
    [ $(grep -c "^- \[" site/conflicts/index.md) = \
        $(jq "[[.projects[] | select(.open > 0)] | length, 20] | min" site/api/conflicts.json) ] &&
    [ $(grep -c "^| \[" site/conflicts/index.projects.md) = \
        $(jq ".projects | length" site/api/conflicts.json) ]' \
    "$(jq '.projects[] | select(.project == "p06-polisher") | .open' site/api/conflicts.json)"
expect "a project page groups by status and kind, with the detection date" sh -c '
    grep -q "^## Open, across layers: " site/conflicts/projects/p06-polisher.md &&
    grep -q "^- \[\*\*Key 1\*\*\](\.\./c[0-9a-f]*\.md): \*\*left\*\* (trusted state: spec, 2024-01-01) vs \*\*right\*\* (trusted state: log, 2024-01-02)\$" site/conflicts/projects/p06-polisher.md &&
    grep -q "^  - detected 2023-11-14\$" site/conflicts/projects/p06-polisher.md'
expect "a closed conflict is on its project's page, with its dates" \
    grep -q '^## Resolved, ' site/conflicts/projects/_.md
# The Recent changes page lists the newest 1,000 changes: 1,100 more
# conflicts in p05, opened after the first build (which is one entry),
# make more than that in the last 30 days.
cp s.db many.db
disagree many.db p05-interferometer 1100 r
mirror build --store many.db --out many --quiet
expect "past 1,000 recent changes the page lists the newest 1,000 and says where the rest are" sh -c '
    n=$(jq .open_conflicts_count many/api/health.json) && [ "$n" -gt 1000 ] &&
    [ $(grep -c "^- " many/changes.md) = 1000 ] &&
    grep -q "^[0-9,]* changes in the last 30 days, newest first: .* Here are the newest 1000 changes; the \[review queue\](conflicts/index.md) and the \[Checks page\](checks/index.md) list every conflict and check" many/changes.md &&
    [ $(grep -c "<entry>" many/changes.xml) = 100 ]'
expect "... and a page of fewer says nothing of the kind" sh -c '
    ! grep -q "Here are the newest" site/changes.md'
expect "the queues share one folder: no folder of a project's own under conflicts/" \
    test "$(find site/conflicts -mindepth 1 -type d)" = site/conflicts/projects
expect "every link of the site resolves" python3 "$linkcheck" site
expect "the queue names no age: a day later it is byte for byte the same" sh -c '
    cp -R site before &&
    SOURCE_DATE_EPOCH=$((1700000000 + 86400)) "$MIRROR" build --store s.db \
        --out site --quiet &&
    diff -r before/conflicts site/conflicts >/dev/null'
