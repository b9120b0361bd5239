#!/bin/sh
# The validators, kept at zero: axe-core over every HTML page of the
# example site (default theme) in light and dark mode, and no page that
# scrolls sideways at 390 or 1280 px, in one headless chromium
# (tests/browser/validators.test.js; screenshots of each page kind go to
# BUILD/screenshots/validators/). The Nu HTML checker runs over the same
# pages in t_site_html.sh, in its one JVM.
. "$MIRROR_TOP/tests/e2e/lib.sh"
# The example assumes a clock after 2026-06-30 (site-example/README.md).
export SOURCE_DATE_EPOCH=1793491200
shots="$(dirname "$MIRROR")/screenshots/validators"

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node, playwright-core and axe-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out example --quiet
expect_status "the example site builds" 0
node "$MIRROR_TOP/tests/browser/validators.test.js" example "$shots" \
    > browser.log 2>&1
status=$?
# The browser's own numbering continues after the cases above.
awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	RC=$status
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
