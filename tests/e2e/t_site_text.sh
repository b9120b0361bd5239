#!/bin/sh
# The words people read hold no machine text (issue 57): no running text
# of any page kind of the example site (with checks, a resolved and a
# dismissed conflict, a conflict whose disputed value was edited since)
# holds a project slug, a fact, conflict or check id, or a raw
# timestamp; ids stay in URLs, anchors, code and the id line
# (tests/tools/running_text.py says what it reads). And the scan can
# fail.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
scan="$MIRROR_TOP/tests/tools/running_text.py"
new_store ex.db "$MIRROR_TOP/site-example/example.sql" \
    "$MIRROR_TOP/tests/data/checks.sql" || exit 1
mirror sweep --store ex.db --quiet
expect_status "the example store sweeps" 0
c1=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' ORDER BY id LIMIT 1")
c2=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' ORDER BY id LIMIT 1 OFFSET 1")
mirror conflicts resolve "$c1" --store ex.db --notes 'kept the state row' --actor alice
mirror conflicts dismiss "$c2" --store ex.db --reason 'not a real conflict' --actor bob
expect_status "a conflict resolved, one dismissed" 0
sql ex.db "UPDATE project_state SET value = '145 MHz' WHERE id = 'p04-st-serdes-refclk'"
mirror build --store ex.db --out site --quiet
expect_status "the example site builds" 0
kinds=$(cd site && find . -name '*.html' | sed 's|/[^/]*$||' | sort -u | wc -l)
expect "the site has pages of every folder: index, projects, subsystems, conflicts, checks, keys" \
    sh -c "test -f site/index.html && ls site/projects/*/index.html site/projects/*/decisions.html \
        site/projects/*/subsystems.html site/conflicts/index.html site/conflicts/$c1.html \
        site/checks/index.html site/checks/projects/*.html site/checks/rules/*.html site/keys/index.html site/404.html >/dev/null && test $kinds -ge 6"
python3 "$scan" ex.db site > scan.log 2>&1
expect "no running text of any page holds a slug, an id or a raw timestamp" \
    test $? -eq 0
sed -n '1,12s/^/#   /p' scan.log
# The scan can fail: a page whose text names a project by its slug, a
# fact by its id, and a raw timestamp.
mkdir -p bad
printf '<p>Is the fpga part of p04-gigabit XC7A100T?</p>\n<p>contradicts p04-st-fpga</p>\n<p>Detected: 2026-11-01 00:00:00</p>\n<p>Conflict id: %s</p>\n<p><code>p04-gigabit</code> git@host:hw/p04-gigabit.git</p>\n' "$c1" > bad/page.html
python3 "$scan" ex.db bad > bad.log 2>&1
expect "a slug, an id and a timestamp in running text fail the scan; code, paths and the id line do not" \
    sh -c "test $? -eq 1 && grep -q 'running_text: 3 findings' bad.log &&
        grep -q '\"p04-gigabit\" in: Is the' bad.log && grep -q '\"p04-st-fpga\"' bad.log &&
        grep -q '\"2026-11-01 00:00:00\"' bad.log"
exit 0
