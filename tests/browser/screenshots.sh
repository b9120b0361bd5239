#!/bin/sh
# screenshots.sh BUILD: 'make screenshots'. Builds the example site with
# BUILD/mirror and its pinned clock into BUILD/screenshots/site, and
# writes the README's pictures in doc/screenshots/: index.png,
# project.png, conflict.png and conflict-resolved.png (a reviewer's
# decision made here) at 1280x900, project-phone.png at 390x844
# (light mode; tests/browser/screenshots.js), squeezed by optipng. Installs what is missing first (ensure.sh, and
# Debian's optipng).
set -eu
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
sh tests/browser/ensure.sh
MIRROR_EXTRA_PKGS=optipng sh scripts/install-deps.sh
work="$BUILD/screenshots"
rm -rf "$work/site" "$work/store.db"
mkdir -p "$work"
"$BUILD/mirror" init --store "$work/store.db" --quiet
sqlite3 -bail "$work/store.db" < site-example/example.sql
SOURCE_DATE_EPOCH=1793491200 "$BUILD/mirror" build --store "$work/store.db" \
    --out "$work/site" --quiet
# A reviewer's decision, for the picture of a resolved conflict: the
# lateral support material of P05 (ids come from the data, so they hold).
SOURCE_DATE_EPOCH=1793577600 "$BUILD/mirror" conflicts resolve c1da3c4868f \
    --store "$work/store.db" --actor ada --winner p05-st-lateral-support-material \
    --notes 'FEA rev C confirms GF-PTFE' --quiet
SOURCE_DATE_EPOCH=1793577600 "$BUILD/mirror" build --store "$work/store.db" \
    --out "$work/site" --quiet
node tests/browser/screenshots.js "$work/site" doc/screenshots
set -- index project conflict conflict-resolved project-phone
for n; do
	optipng -quiet -o2 -strip all "doc/screenshots/$n.png"
	ls -l "doc/screenshots/$n.png"
done
