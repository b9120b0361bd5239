#!/bin/sh
# make golden-bench: the output of mirror on the bench stores and the
# example, compared to the digests in tests/golden/bench-digests.txt.
#
#   sh tests/golden/bench.sh BUILD          compare (exit 1 on a difference)
#   sh tests/golden/bench.sh BUILD update   rewrite bench-digests.txt
#
# S and M are the stores of 'make bench' (tests/bench/store_gen.sql with
# 10,000 and 100,000 facts, cached under BUILD/golden-bench/ by size and
# the generator's checksum), each built as a user would and as bench.py's
# total build does: 'mirror build --repo' (it sweeps) of a fresh copy into
# a new directory and a new bare repository, with bench.py's clock and
# author. The example is site-example/run.sh on a fresh BUILD-like
# directory (so its history is new). For each: 'site', sha256 over the
# sorted list of the site's files and their sha256 (digest below), and
# 'commit', the id of the commit of that site. Timings go to stdout.
set -eu
BUILD=${1:?usage: tests/golden/bench.sh BUILD [update]}
MODE=${2:-compare}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
mirror="$top/$BUILD/mirror"
dir="$top/$BUILD/golden-bench"
file=tests/golden/bench-digests.txt
export TZ=UTC LC_ALL=C.UTF-8 LANG=C.UTF-8 GIT_CONFIG_NOSYSTEM=1
mkdir -p "$dir"
: >"$dir/digests"

# digest DIR NAME: sha256 over the sorted list of DIR's files and their
# sha256; that list is kept in BUILD/golden-bench/NAME.files, so the
# lists of two build trees name the files that differ.
digest() {
	(cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum) \
	    >"$dir/$2.files"
	sha256sum <"$dir/$2.files" | cut -d' ' -f1
}

now() { date +%s.%N; }
since() { echo "$1 $(now)" | awk '{ printf "%.2f", $2 - $1 }'; }

gensum=$(sha256sum tests/bench/store_gen.sql | cut -c1-12)
for size in S:10000 M:100000; do
	label=${size%%:*}
	facts=${size#*:}
	base="$dir/store-$facts-$gensum.db"
	if [ ! -f "$base" ]; then
		t=$(now)
		rm -f "$base.tmp"
		"$mirror" init --store "$base.tmp" --quiet
		{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES($facts);"
		  cat tests/bench/store_gen.sql; } |
		    sqlite3 -bail "$base.tmp" >/dev/null
		mv "$base.tmp" "$base"
		echo "golden-bench: $label: generated $facts facts in $(since "$t") s"
	fi
	rm -rf "$dir/$label" && mkdir "$dir/$label"
	cp "$base" "$dir/$label/store.db"
	git init --bare -q "$dir/$label/history.git"
	t=$(now)
	SOURCE_DATE_EPOCH=1700000000 "$mirror" build \
	    --store "$dir/$label/store.db" --out "$dir/$label/site" \
	    --repo "$dir/$label/history.git" \
	    --author 'Bench <bench@example.org>' --quiet
	echo "golden-bench: $label: built and committed in $(since "$t") s"
	t=$(now)
	echo "$label site $(digest "$dir/$label/site" "$label")" >>"$dir/digests"
	echo "$label commit $(git --git-dir="$dir/$label/history.git" \
	    rev-parse mirror)" >>"$dir/digests"
	echo "golden-bench: $label: $(find "$dir/$label/site" -type f | wc -l) files digested in $(since "$t") s"
done

rm -rf "$dir/example-build" && mkdir "$dir/example-build"
ln -s "$mirror" "$dir/example-build/mirror"
t=$(now)
(unset SOURCE_DATE_EPOCH; sh site-example/run.sh "$dir/example-build" >/dev/null)
echo "golden-bench: example: built and committed in $(since "$t") s"
echo "example site $(digest "$dir/example-build/example/site" example)" >>"$dir/digests"
echo "example commit $(git --git-dir="$dir/example-build/example/history.git" \
    rev-parse mirror)" >>"$dir/digests"

if [ "$MODE" = update ]; then
	src=$(git log -1 --format=%h -- core gen templates themes)
	if [ -n "$(git status --porcelain -- core gen templates themes)" ]; then
		src="$src with uncommitted changes"
	fi
	{
		echo "# Digests of mirror's output: the bench stores S and M and the"
		echo "# example, as tests/golden/bench.sh makes them ('make golden-bench';"
		echo "# 'make golden-bench UPDATE=1' rewrites this file). site: sha256 of"
		echo "# 'find . -type f | LC_ALL=C sort | xargs sha256sum' in the site;"
		echo "# commit: the id of the commit of that site on branch mirror."
		echo "# Recorded with the sources (core, gen, templates, themes) of $src."
		cat "$dir/digests"
	} >"$file"
	echo "golden-bench: wrote $file"
	git status --short "$file"
	exit 0
fi
if grep -v '^#' "$file" | diff -u - "$dir/digests" >"$dir/diff"; then
	echo "golden-bench: S, M and the example match $file"
else
	sed 's/^/golden-bench: /' "$dir/diff"
	echo "golden-bench: output differs from $file; the sites and their file lists (NAME.files) are in $BUILD/golden-bench/" >&2
	exit 1
fi
