#!/bin/sh
# Run the whole suite against one build tree: the cmocka unit tests, then
# the end-to-end scripts, each held to tests/manifest. Prints every case,
# every skip, then the failures again and one closing line
# "tests (BUILD): N passed, M failed, S skipped"; exits non-zero if
# anything failed.
#
#   sh tests/run.sh BUILD          (make check BUILD=... calls this)
#   sh tests/run.sh --update-manifest BUILD
#                                  (make manifest) the same run; when all
#                                  of it passed, tests/manifest is rewritten
#                                  with the counts seen, else left alone
#   MIRROR_WRAP="valgrind ..." sh tests/run.sh BUILD   (make memcheck)
#   MIRROR_TEST_FAILFAST=1         stop after the first test file that fails
#   MIRROR_TEST_ONLY=FILE          run only FILE (tests/unit/test_x.c or
#                                  tests/e2e/t_x.sh), held to its count
#   MIRROR_TEST_TOP=DIR            test the tree DIR (its tests/, README.md
#                                  and BUILD) instead of this checkout
#
# Besides a failing case, each of these fails the run (tests/manifest has
# the format; doc/development.md the why):
#   - a tests/unit/test_*.c or tests/e2e/t_*.sh with no manifest line, or a
#     manifest line naming a file that is not there;
#   - a tests/unit/test_X.c without an executable BUILD/tests/test_X;
#   - a file that reports another number of cases (passed, failed and
#     skipped) than its manifest line says: a script that stopped early;
#   - a skipped case, unless a 'skip FILE CASE' line of the manifest allows
#     it and README.md names `CASE` (with its reason).
set -u
update=0
if [ "${1:-}" = --update-manifest ]; then
	update=1
	shift
fi
BUILD=${1:?usage: tests/run.sh [--update-manifest] BUILD}
only=${MIRROR_TEST_ONLY:-}
if [ "$update" -eq 1 ] && [ -n "$only" ]; then
	echo "run.sh: --update-manifest runs every test: unset MIRROR_TEST_ONLY" >&2
	exit 1
fi
if [ -n "${MIRROR_TEST_TOP:-}" ]; then
	top=$(cd "$MIRROR_TEST_TOP" && pwd) || exit 1
else
	top=$(cd "$(dirname "$0")/.." && pwd)
fi
cd "$top" || exit 1
case $BUILD in
/*) bdir=$BUILD ;;
*) bdir=$top/$BUILD ;;
esac
manifest=tests/manifest
export TZ=UTC LC_ALL=C.UTF-8 LANG=C.UTF-8
export MIRROR="$bdir/mirror" MIRROR_TOP="$top"
export MIRROR_WRAP="${MIRROR_WRAP:-}"
unset SOURCE_DATE_EPOCH
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

pass=0
fail=0
skipped=0
work=$(mktemp -d "${TMPDIR:-/tmp}/mirror-run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# The builds' memos of their stores (core/store/memo.h) stay in the run's
# directory, not in the user's cache.
export MIRROR_CACHE_DIR="$work/cache"
log=$work/log
failures=$work/failures    # one line per failure: FILE: CASE
counts=$work/counts        # FILE COUNT, for --update-manifest
skips=$work/skips          # FILE: CASE (allowed or not)
: >"$failures"
: >"$counts"
: >"$skips"

# problem FILE WHAT: a failure of the suite that is no case of a test.
problem() {
	echo "not ok - $1: $2"
	echo "$1: $2" >>"$failures"
	fail=$((fail + 1))
}

case $only in
'' | tests/unit/test_*.c | tests/e2e/t_*.sh) [ -z "$only" ] || [ -f "$only" ] ||
    problem "$only" "MIRROR_TEST_ONLY names no such file" ;;
*) problem "$only" "MIRROR_TEST_ONLY names no test file (tests/unit/test_*.c, tests/e2e/t_*.sh)" ;;
esac

if [ -f "$manifest" ]; then
	cp "$manifest" "$work/manifest"
else
	: >"$work/manifest"
	[ "$update" -eq 1 ] ||
	    problem "$manifest" "missing (sh tests/run.sh --update-manifest BUILD writes it)"
fi

# expected FILE: the manifest's count for FILE, empty when it has none.
expected() {
	awk -v f="$1" '$1 == f && NF == 2 { print $2; exit }' "$work/manifest"
}

# allowed FILE CASE: the manifest allows CASE of FILE to be skipped and
# README.md names it; otherwise says why not on stdout and fails.
allowed() {
	if ! awk -v f="$1" -v c="$2" '$1 == "skip" && $2 == f {
	    sub(/^skip[ \t]+[^ \t]+[ \t]+/, ""); if ($0 == c) found = 1 }
	    END { exit !found }' "$work/manifest"; then
		echo "skipped, and no 'skip $1 $2' line in $manifest allows it"
		return 1
	fi
	if ! grep -qF "\`$2\`" README.md 2>/dev/null; then
		echo "skipped; $manifest allows it but README.md does not name \`$2\` with the reason"
		return 1
	fi
}

# settle FILE PASSED FAILED SKIPPED_NAMES_FILE STATUS: add one test
# file's figures, hold it to the manifest, report its skips.
settle() {
	f=$1 p=$2 n_fail=$3 snames=$4 status=$5
	s=$(wc -l <"$snames")
	if [ "$status" -ne 0 ] && [ "$n_fail" -eq 0 ]; then
		problem "$f" "exited with status $status and no failed case"
	fi
	while IFS= read -r c; do
		if why=$(allowed "$f" "$c"); then
			echo "skip - $f: $c (allowed: $manifest, README.md)"
			echo "$f: $c (allowed)" >>"$skips"
		else
			problem "$f" "$c: $why"
			echo "$f: $c (NOT allowed)" >>"$skips"
		fi
	done <"$snames"
	pass=$((pass + p))
	fail=$((fail + n_fail))
	skipped=$((skipped + s))
	ran=$((p + n_fail + s))
	echo "$f $ran" >>"$counts"
	want=$(expected "$f")
	if [ -z "$want" ]; then
		[ "$update" -eq 1 ] ||
		    problem "$f" "not in $manifest ($ran cases here; sh tests/run.sh --update-manifest BUILD adds it)"
	elif [ "$want" != "$ran" ] && [ "$update" -eq 0 ]; then
		problem "$f" "$ran cases ran ($p passed, $n_fail failed, $s skipped), $manifest says $want"
	fi
}

# stop_early: with MIRROR_TEST_FAILFAST set, stop at the first failure.
stop_early() {
	[ -n "${MIRROR_TEST_FAILFAST:-}" ] && [ "$fail" -gt 0 ]
}

for src in tests/unit/test_*.c; do
	[ -e "$src" ] || continue
	[ -z "$only" ] || [ "$src" = "$only" ] || continue
	stop_early && break
	name=$(basename "$src" .c)
	t=$bdir/tests/$name
	if [ ! -f "$t" ] || [ ! -x "$t" ]; then
		problem "$src" "no executable $BUILD/tests/$name (make check BUILD=$BUILD builds it)"
		echo "$src $(expected "$src")" >>"$counts"
		continue
	fi
	CMOCKA_MESSAGE_OUTPUT=STDOUT $MIRROR_WRAP "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	p=$(grep -c '^\[       OK \]' "$log")
	# cmocka names a failed or skipped test twice (when it happens, and
	# in its closing list): count names, not lines.
	grep '^\[  FAILED  \] [^0-9]' "$log" | sed 's/^[^]]*\] //' |
	    sort -u >"$work/failed"
	while IFS= read -r c; do echo "$src: $c" >>"$failures"; done <"$work/failed"
	grep '^\[  SKIPPED \] [^0-9]' "$log" | sed 's/^[^]]*\] //' |
	    sort -u >"$work/skipped"
	settle "$src" "$p" "$(wc -l <"$work/failed")" "$work/skipped" "$status"
done

for t in tests/e2e/t_*.sh; do
	[ -f "$t" ] || continue
	[ -z "$only" ] || [ "$t" = "$only" ] || continue
	stop_early && break
	sh "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	p=$(grep '^ok ' "$log" | grep -vc ' # SKIP')
	nf=$(grep -c '^not ok ' "$log")
	grep '^not ok ' "$log" | sed 's/^not ok [0-9]* *- *//' |
	    while IFS= read -r c; do echo "$t: $c" >>"$failures"; done
	# A skip in TAP's words: "ok N - script: name # SKIP reason".
	grep '^ok .* # SKIP' "$log" |
	    sed 's/^ok [0-9]* *- *[^:]*: //; s/ # SKIP.*//' >"$work/skipped"
	settle "$t" "$p" "$nf" "$work/skipped" "$status"
done

# Manifest lines for files that are not there (a test removed or renamed
# without the manifest following); --update-manifest drops them.
if [ "$update" -eq 0 ] && [ -z "$only" ] && ! stop_early; then
	awk 'NF == 2 && $1 !~ /^#/ { print $1 }
	     $1 == "skip" { print $2 }' "$work/manifest" | sort -u |
	    while IFS= read -r f; do
		[ -f "$f" ] || echo "$f"
	    done >"$work/gone"
	while IFS= read -r f; do
		problem "$manifest" "names $f, which is not there"
	done <"$work/gone"
fi

if [ -s "$skips" ]; then
	echo "skipped cases:"
	sed 's/^/  /' "$skips"
fi
if [ -s "$failures" ]; then
	echo "failures:"
	sed 's/^/  /' "$failures"
fi
stopped=""
stop_early && stopped=" (stopped at the first failure: MIRROR_TEST_FAILFAST)"
echo "tests ($BUILD): $pass passed, $fail failed, $skipped skipped$stopped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ] || {
	[ "$update" -eq 1 ] && echo "run.sh: $manifest not rewritten: the run failed"
	exit 1
}
[ "$update" -eq 1 ] || exit 0

# --update-manifest, and everything passed: the counts seen, the header
# and the 'skip' lines kept as they were.
{
	cat <<'EOF'
# tests/manifest: every test file tests/run.sh runs and the number of
# cases (passed + failed + skipped) it must report. A test file with no
# line here, a line for no file, a missing unit binary or another count
# fails the run. Rewritten by 'make manifest' (sh tests/run.sh
# --update-manifest BUILD), which refuses when anything failed.
#
#   FILE COUNT        a unit test source or an e2e script, and its cases
#   skip FILE CASE    CASE of FILE may be skipped; README.md must name
#                     `CASE` and say why (a skip is a failure otherwise)
EOF
	grep '^skip[ 	]' "$work/manifest"
	sort -k1,1 "$counts"
} >"$manifest.tmp" && mv "$manifest.tmp" "$manifest" || exit 1
echo "run.sh: $manifest rewritten ($(wc -l <"$counts") files)"
