#!/bin/sh
# Run the whole suite against one build tree: the cmocka unit tests, then
# the end-to-end scripts. Prints every case and ends with one line
# "tests (BUILD): N passed, M failed"; exits non-zero if anything failed.
#
#   sh tests/run.sh BUILD          (make check BUILD=... calls this)
#   MIRROR_WRAP="valgrind ..." sh tests/run.sh BUILD   (make memcheck)
set -u
BUILD=${1:?usage: tests/run.sh BUILD}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export TZ=UTC LC_ALL=C.UTF-8 LANG=C.UTF-8
export MIRROR="$top/$BUILD/mirror" MIRROR_TOP="$top"
export MIRROR_WRAP="${MIRROR_WRAP:-}"
unset SOURCE_DATE_EPOCH
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	CMOCKA_MESSAGE_OUTPUT=STDOUT $MIRROR_WRAP "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	p=$(grep -c '^\[       OK \]' "$log")
	# cmocka names a failed test twice (when it fails, and in its
	# closing list): count names, not lines.
	f=$(grep '^\[  FAILED  \] [^0-9]' "$log" | sort -u | wc -l)
	# A crash or a sanitizer report with no FAILED line still fails.
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $t exited with status $status"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done

for t in tests/e2e/t_*.sh; do
	[ -f "$t" ] || continue
	sh "$t" >"$log" 2>&1
	status=$?
	cat "$log"
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $t exited with status $status"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done

echo "tests ($BUILD): $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
