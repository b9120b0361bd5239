#!/bin/sh
# memcheck.sh BUILD: the whole suite (tests/run.sh) with every unit test
# binary and every mirror run under valgrind, then a verdict on
# valgrind's own reports (make memcheck).
#
# Each process valgrind watches writes its report to a file of its own
# (BUILD/memcheck/<pid>.log), not to stderr: a test that checks for
# exactly one line on stderr stays valid, and an error in a run whose
# exit status a test does not look at is still found here. Fails when
# any report counts an error (invalid reads or writes, uses of
# uninitialised values, bad frees, definite leaks) or when a test fails;
# the last line says which.
#
# Every script runs all its cases under valgrind too: tests/run.sh holds
# each to its count in tests/manifest.
set -u
BUILD=${1:?usage: tests/tools/memcheck.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
logs="$top/$BUILD/memcheck"
rm -rf "$logs"
mkdir -p "$logs"
# Runs as another user (the read-only cases) write their reports too.
chmod 1777 "$logs"
# The soname synonym has valgrind watch jemalloc's malloc and free too
# (make links it: Makefile, MALLOC).
MIRROR_WRAP="valgrind --error-exitcode=99 --leak-check=full \
--soname-synonyms=somalloc=*jemalloc* \
--errors-for-leak-kinds=definite --show-leak-kinds=definite \
--log-file=$logs/%p.log" sh "$top/tests/run.sh" "$BUILD"
suite=$?

# A report with errors: a non-zero ERROR SUMMARY, or, for a process that
# wrote none (a forked child that ends in _exit, a build the crash test
# kills), any error valgrind printed as it happened.
errors='ERROR SUMMARY: [1-9]|^==[0-9]+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|.* definitely lost in loss record)'
n=0
bad=0
for f in "$logs"/*.log; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	grep -Eq "$errors" "$f" || continue
	bad=$((bad + 1))
	[ "$bad" -le 5 ] || continue
	echo "# valgrind report $f:"
	grep -v '^==[0-9]*== *$' "$f" | sed -n '/Command:/,$p' | head -40 | sed 's/^/#   /'
done
echo "memcheck ($BUILD): $n processes under valgrind, $bad with errors; suite exit $suite"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$suite" -eq 0 ]
