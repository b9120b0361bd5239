#!/bin/sh
# A real browser (Debian chromium, headless, through playwright-core) on
# the example site and on a site built from the hostile corpus; the cases
# are in tests/browser/site.test.js. Screenshots go to BUILD/screenshots/.
# The promises of doc/reliability.md, "Browser test".
. "$MIRROR_TOP/tests/e2e/lib.sh"
# The example assumes a clock after 2026-06-30 (site-example/README.md).
export SOURCE_DATE_EPOCH=1793491200
shots="$(dirname "$MIRROR")/screenshots"

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node and playwright-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out example --quiet
expect_status "the example site builds" 0
new_store h.db || exit 1
python3 "$MIRROR_TOP/tests/tools/hostile_sql.py" "$MIRROR_TOP/tests/data/hostile" h.sql &&
    sqlite3 -bail h.db < h.sql || exit 1
mirror build --store h.db --out hostile --no-sweep --quiet
expect_status "the hostile site builds" 0
node "$MIRROR_TOP/tests/browser/site.test.js" example hostile "$shots" \
    > browser.log 2>&1
status=$?
# The browser's own numbering continues after the cases above.
awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	T_N=$((T_N + $(grep -c '^ok' browser.log)))
	RC=$status
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
