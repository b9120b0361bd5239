#!/bin/sh
# The main job on the bundled example: build the store from example.sql
# (the source of truth; the .db is generated) and run mirror on it.
#   sh site-example/run.sh BUILD
set -eu
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
db="$BUILD/example/store.db"
mkdir -p "$BUILD/example"
rm -f "$db" "$db-wal" "$db-shm"
"$BUILD/mirror" init --store "$db" --quiet
sqlite3 -bail "$db" < site-example/example.sql
# site-example/mirror.ini names this repository for 'mirror build';
# history accumulates across runs, so it is created only once.
[ -d "$BUILD/example/history.git" ] ||
	git init --bare -q "$BUILD/example/history.git"
"$BUILD/mirror" health --store "$db"
# The example's clock: its expected conflicts and expiries are written
# for 2026-11-01, and a fixed clock makes a rerun reproduce the same site
# and commit (so the second run commits nothing).
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1793491200}
export SOURCE_DATE_EPOCH
echo
"$BUILD/mirror" --config site-example/mirror.ini build --store "$db" \
    --out "$BUILD/example/site" --repo "$BUILD/example/history.git"
echo
"$BUILD/mirror" conflicts list --store "$db" --status open
echo
echo "Browse: file://$top/$BUILD/example/site/index.html"
echo "History: git --git-dir=$BUILD/example/history.git log -p mirror"
