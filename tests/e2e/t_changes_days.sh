#!/bin/sh
# Recent changes people can use (issue 69, item 5; the promises of
# doc/site.md, "Recent changes"), on a generated store of 20,000 facts:
# a heading per day, newest first; the first build of a store is one
# line, its counts, rather than an entry per conflict and check it
# opened (804 entries and 140 KB of HTML before); the line is written
# once: a later build, the next day or in the same second, adds its own
# entries and leaves it as it was; each entry links its project, and
# the page loads the filters' script.
. "$MIRROR_TOP/tests/e2e/lib.sh"
E=1795000000            # 2026-11-18 08:53:20 UTC
DAY=86400

bench_store s.db 20000 || exit 1
cp s.db same.db
SOURCE_DATE_EPOCH=$E mirror build --store s.db --out site --quiet
expect_status "the 20,000-fact store builds" 0
conflicts=$(sql s.db "SELECT count(*) FROM conflicts")
checks=$(sql s.db "SELECT count(*) FROM rule_violations")
facts=$(sql s.db "SELECT facts_scanned FROM sweep_runs")
first="- first build: [$conflicts conflicts opened](conflicts/index.md), [$checks checks opened](checks/index.md), $facts active facts"
expect "the first build is one entry, its counts linked to the queue and the checks" \
    sh -c "[ \$(grep -c '^- ' site/changes.md) = 1 ] && grep -qxF -- '$first' site/changes.md"
expect "... under its day's heading" \
    test "$(grep '^## ' site/changes.md)" = "## 2026-11-18"
expect "... and the page stays small (under 4 KB of HTML at 20,000 facts)" \
    test "$(wc -c <site/changes.html)" -lt 4096
expect "changes.xml has the same one entry, by the sweep's id" sh -c "
    [ \$(grep -c '<entry>' site/changes.xml) = 1 ] &&
    grep -q '<id>urn:mirror:first:sweep-' site/changes.xml &&
    grep -qF '<title>first build: $conflicts conflicts opened, $checks checks opened, $facts active facts</title>' site/changes.xml"
expect "the index's recent changes say it in the same line" \
    grep -qF "· first build: [$conflicts conflicts opened, $checks checks opened, $facts active facts](conflicts/index.md)" site/index.md

# A day later: one fact edited opens a conflict.
edit() { sql "$1" "UPDATE project_state SET value = '99 mm' WHERE id = 's-0'"; }
edit s.db
SOURCE_DATE_EPOCH=$((E + DAY)) mirror build --store s.db --out site --quiet
expect "a day later: a heading per day, newest first" \
    test "$(grep '^## ' site/changes.md | tr '\n' ' ')" = "## 2026-11-19 ## 2026-11-18 "
expect "... the new conflict under the new day, its project linked to its overview" sh -c "
    sed -n '/^## 2026-11-19/,/^## /p' site/changes.md |
    grep -q '^- conflict opened in \[Project 0\](projects/p0/index.md): \[.*99 mm.*\](conflicts/c[0-9a-f]*\.md)\$'"
expect "... the first build's line under its own day, as it was" sh -c "
    sed -n '/^## 2026-11-18/,\$p' site/changes.md | grep -qxF -- '$first'"

# The same edit built in the same second as the first build (a pinned
# clock, a quick script): still an entry of its own.
SOURCE_DATE_EPOCH=$E mirror build --store same.db --out same --quiet
edit same.db
SOURCE_DATE_EPOCH=$E mirror build --store same.db --out same --quiet
expect "a second build in the same second: the first build's line as it was, the new conflict an entry (and the edit, with no audit row, one)" sh -c "
    grep -qxF -- '$first' same/changes.md &&
    [ \$(grep -c '^- ' same/changes.md) = 3 ] &&
    grep -q '^- conflict opened in \[Project 0\]' same/changes.md &&
    grep -q '^- trusted state changed in \[Project 0\].* → 99 mm\$' same/changes.md"

expect "the page loads the filters by project and kind; without them it is the same list" sh -c "
    grep -q '<script src=\"assets/changes.js\" defer></script>' site/changes.html &&
    test -s site/assets/changes.js &&
    ! grep -q 'changes.js' site/index.html"

# templates/README.md, changes.md: an entry's "link" and its project's
# "overview_page" are made by the URL module (gen/site/items.h); a user
# template that spells them from "dir", "slug" and "pdir", as the
# built-in ones did, still makes the same pages.
mkdir old
sed -e 's#({{link}})#({{dir}}/{{slug|url}}.md{{\#if anchor}}\#{{anchor|id}}{{/if}})#' \
    -e 's#{{\#if overview_page}}\[{{project}}\]({{overview_page}}.md)#{{\#if pdir}}[{{project}}]({{pdir}}/index.md)#' \
    "$MIRROR_TOP/templates/changes.md" > old/changes.md
sed 's#({{link}})#({{dir}}/{{slug|url}}.md{{\#if anchor}}\#{{anchor|id}}{{/if}})#' \
    "$MIRROR_TOP/templates/index.md" > old/index.md
# A fact of no project is linked on the index, "./index.md#...".
sql same.db "INSERT INTO memories(id, memory_type, content) VALUES('m-loose', 'note', 'a loose note');
INSERT INTO memory_audit(id, memory_id, action, actor, timestamp)
 VALUES('a-loose', 'm-loose', 'updated', 'tester', '2026-11-18 08:00:00')"
cp -a same same-old
SOURCE_DATE_EPOCH=$E mirror build --store same.db --out same --quiet --no-sweep
SOURCE_DATE_EPOCH=$E mirror build --store same.db --out same-old --quiet --no-sweep --templates old
expect "templates that spell an entry's page from dir, slug and pdir make the same pages" sh -c "
    test $RC = 0 && ! cmp -s old/changes.md '$MIRROR_TOP/templates/changes.md' &&
    ! cmp -s old/index.md '$MIRROR_TOP/templates/index.md' &&
    grep -q '](projects/p0/index.md#state-' same/changes.md &&
    grep -q '](\./index\.md#memory-m-loose)' same/changes.md &&
    grep -q 'href=\"\./index\.html#memory-m-loose\"' same/changes.xml &&
    for f in changes.md changes.html changes.xml index.md index.html; do
        cmp -s same/\$f same-old/\$f || exit 1; done"
