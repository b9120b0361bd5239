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
