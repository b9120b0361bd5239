#!/bin/sh
# Sweep benchmark: build a deterministic store of ~1,000,000 facts
# (sweep_facts.sql, cached under BUILD/bench), then time a first sweep
# (records the conflicts) and a second one (changes nothing) with
# /usr/bin/time -v for wall time and peak RSS.
#
#   sh tests/bench/sweep.sh BUILD [SCALE]     (make bench runs it)
set -eu
BUILD=${1:?usage: tests/bench/sweep.sh BUILD [SCALE]}
SCALE=${2:-1}
top=$(cd "$(dirname "$0")/../.." && pwd)
mirror="$top/$BUILD/mirror"
dir="$top/$BUILD/bench"
mkdir -p "$dir"
base="$dir/sweep-$SCALE.db"
if [ ! -f "$base" ]; then
	echo "bench: generating $base"
	"$mirror" init --store "$base.tmp" --quiet >/dev/null
	{ echo "CREATE TEMP TABLE bench_scale(s); INSERT INTO bench_scale VALUES($SCALE);"
	  cat "$top/tests/bench/sweep_facts.sql"; } | sqlite3 -bail "$base.tmp"
	mv "$base.tmp" "$base"
fi
facts=$(sqlite3 "$base" "SELECT (SELECT count(*) FROM project_state) +
    (SELECT count(*) FROM entities) + (SELECT count(*) FROM memories)")
cp "$base" "$dir/run.db"
export SOURCE_DATE_EPOCH=1700000000
for pass in first second; do
	/usr/bin/time -v "$mirror" sweep --store "$dir/run.db" --json \
	    >"$dir/out.json" 2>"$dir/time.txt"
	wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$dir/time.txt")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
	echo "bench sweep ($pass pass): $facts facts in $wall wall," \
	    "peak RSS $((rss / 1024)) MiB;" \
	    "$(jq -r '"\(.conflicts_opened) opened, \(.open_after) open"' "$dir/out.json")"
done
rm -f "$dir/run.db"
