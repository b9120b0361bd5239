#!/bin/sh
# Every page kind in a real browser (Debian chromium, headless, through
# playwright-core) at 1280 and 390 px, on the example site and on the
# site of a generated store of 40,000 facts and 200 projects (the bench
# generator, tests/bench/store_gen.sql: one project per 200 facts): no
# file over 1 MB, nothing scrolling sideways, the pages that must not
# grow with the store bounded in height, no date, number or code span
# cut at a hyphen. The cases are in tests/browser/pages.test.js.
# The promises of doc/site.md, "Pages that hold at any size".
. "$MIRROR_TOP/tests/e2e/lib.sh"
# The example assumes a clock after 2026-06-30 (site-example/README.md).
export SOURCE_DATE_EPOCH=1793491200

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node and playwright-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out example --quiet
expect_status "the example site builds" 0
bench_store gen.db 40000 || exit 1
expect "the generated store has 40,000 facts or more and 200 projects or more" test \
    "$(sql gen.db 'SELECT (SELECT count(*) FROM project_state) +
        (SELECT count(*) FROM entities) + (SELECT count(*) FROM memories)')" -ge 40000 \
    -a "$(sql gen.db 'SELECT count(*) FROM projects')" -ge 200
mirror build --store gen.db --out gen --quiet
expect_status "the generated store's site builds" 0
node "$MIRROR_TOP/tests/browser/pages.test.js" example example gen40k gen \
    --first "$T_N" > browser.log 2>&1
status=$?
cat browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok [0-9]' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	RC=$status
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
