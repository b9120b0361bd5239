#!/bin/sh
# tests/run.sh cannot lose tests: run against a fake tree (MIRROR_TEST_TOP)
# with one stand-in unit binary and one e2e script, it passes on the exact
# manifest and fails on a missing or non-executable unit binary, a skipped
# case the manifest and README do not allow, a short count, a test file
# the manifest does not list, a manifest line for no file and a script
# that exits non-zero; --update-manifest refuses after a failure and
# otherwise writes the counts; MIRROR_TEST_FAILFAST stops at the first
# failing file and MIRROR_TEST_ONLY runs one.
. "$MIRROR_TOP/tests/e2e/lib.sh"
runner="$MIRROR_TOP/tests/run.sh"
F="$T/f"

# unit_bin NAME OK... [-- SKIPPED...] [--- FAILED...]: the stand-in
# BUILD/tests/NAME, printing what a cmocka binary prints; exit 1 when a
# case failed.
unit_bin() {
	bin="$F/b/tests/$1"
	shift
	mode=OK
	status=0
	{
		echo '#!/bin/sh'
		echo "echo '[==========] Running some test(s).'"
		for c in "$@"; do
			case $c in
			--) mode=SKIPPED; continue ;;
			---) mode=FAILED; status=1; continue ;;
			esac
			echo "echo '[ RUN      ] $c'"
			case $mode in
			OK) echo "echo '[       OK ] $c'" ;;
			SKIPPED) echo "echo '[  SKIPPED ] $c'" ;;
			FAILED) echo "echo '[  FAILED  ] $c'" ;;
			esac
		done
		echo "echo '[==========] some test(s) run.'"
		# cmocka's closing lists name every skipped and failed case again
		mode=OK
		for c in "$@"; do
			case $c in
			--) mode=SKIPPED; continue ;;
			---) mode=FAILED; continue ;;
			esac
			case $mode in
			SKIPPED) echo "echo '[  SKIPPED ] $c'" ;;
			FAILED) echo "echo '[  FAILED  ] $c'" ;;
			esac
		done
		echo "exit $status"
	} >"$bin"
	chmod 755 "$bin"
}

# fresh: the fake tree, all passing, with the exact manifest: test_a
# (2 cases), t_x (3 cases).
fresh() {
	rm -rf "$F"
	mkdir -p "$F/tests/unit" "$F/tests/e2e" "$F/b/tests"
	printf '/* stand-in */\n' >"$F/tests/unit/test_a.c"
	unit_bin test_a one two
	printf '#!/bin/sh\necho "ok 1 - t_x: a"\necho "ok 2 - t_x: b"\necho "ok 3 - t_x: c"\n' \
	    >"$F/tests/e2e/t_x.sh"
	printf '# Fake\n\nNo allowed skips.\n' >"$F/README.md"
	printf '# a comment\ntests/e2e/t_x.sh 3\ntests/unit/test_a.c 2\n' \
	    >"$F/tests/manifest"
}

# run [ARGS]: tests/run.sh ARGS b on the fake tree; stdout and stderr in
# $T/out and $T/err, the status in RC.
# FAILFAST and ONLY set MIRROR_TEST_FAILFAST and MIRROR_TEST_ONLY (never
# inherited: make mutants runs this script with them set).
run() {
	MIRROR_TEST_TOP="$F" MIRROR_WRAP="" MIRROR_TEST_FAILFAST="${FAILFAST:-}" \
	    MIRROR_TEST_ONLY="${ONLY:-}" sh "$runner" "$@" b >"$T/out" 2>"$T/err"
	RC=$?
}

# fails_with NAME PATTERN: the run failed and said PATTERN (grep -E) on a
# "not ok - " line.
fails_with() {
	if [ "$RC" != 0 ] && grep -Eq -- "^not ok - $2" "$T/out" &&
	    grep -q ' [1-9][0-9]* failed' "$T/out"; then
		ok "$1"
	else
		not_ok "$1" "expected a failed run with 'not ok - $2'"
	fi
}

fresh
run
expect "the exact manifest passes" sh -c \
    "test $RC = 0 && tail -1 '$T/out' | grep -qx 'tests (b): 5 passed, 0 failed, 0 skipped'"

fresh
rm "$F/b/tests/test_a"
run
fails_with "a unit binary that was not built fails, named" \
    "tests/unit/test_a.c: no executable b/tests/test_a"

fresh
chmod 644 "$F/b/tests/test_a"
run
fails_with "a unit binary that is not executable fails" \
    "tests/unit/test_a.c: no executable b/tests/test_a"

fresh
unit_bin test_a one -- two
run
fails_with "a skipped unit case fails" \
    "tests/unit/test_a.c: two: skipped, and no 'skip tests/unit/test_a.c two' line"
expect "... and is listed among the skipped cases" \
    grep -qx '  tests/unit/test_a.c: two (NOT allowed)' "$T/out"

echo 'skip tests/unit/test_a.c two' >>"$F/tests/manifest"
run
fails_with "a skip the manifest allows but README.md does not name fails" \
    'tests/unit/test_a.c: two: skipped; tests/manifest allows it but README.md does not name `two`'

echo '- `two` is skipped on machines without a frobnicator.' >>"$F/README.md"
run
expect "a skip the manifest allows and README.md names passes, and is printed" sh -c \
    "test $RC = 0 && grep -qx 'skip - tests/unit/test_a.c: two (allowed: tests/manifest, README.md)' '$T/out' &&
    tail -1 '$T/out' | grep -qx 'tests (b): 4 passed, 0 failed, 1 skipped'"

fresh
printf '#!/bin/sh\necho "ok 1 - t_x: a"\necho "ok 2 - t_x: b # SKIP no tool"\necho "ok 3 - t_x: c"\n' \
    >"$F/tests/e2e/t_x.sh"
run
fails_with "a skipped e2e case (TAP '# SKIP') fails" \
    "tests/e2e/t_x.sh: b: skipped, and no 'skip tests/e2e/t_x.sh b' line"

fresh
printf '#!/bin/sh\necho "ok 1 - t_x: a"\necho "ok 2 - t_x: b"\nexit 0\necho "ok 3 - t_x: c"\n' \
    >"$F/tests/e2e/t_x.sh"
run
fails_with "a script that ends early with status 0 fails on its count" \
    "tests/e2e/t_x.sh: 2 cases ran \(2 passed, 0 failed, 0 skipped\), tests/manifest says 3"

fresh
unit_bin test_a one
run
fails_with "a unit binary one case short fails on its count" \
    "tests/unit/test_a.c: 1 cases ran \(1 passed, 0 failed, 0 skipped\), tests/manifest says 2"

fresh
printf '#!/bin/sh\necho "ok 1 - t_y: new"\n' >"$F/tests/e2e/t_y.sh"
run
fails_with "an e2e script the manifest does not list fails" \
    "tests/e2e/t_y.sh: not in tests/manifest \(1 cases here"

fresh
printf '/* new */\n' >"$F/tests/unit/test_b.c"
unit_bin test_b one
run
fails_with "a unit test source the manifest does not list fails" \
    "tests/unit/test_b.c: not in tests/manifest"

fresh
echo 'tests/e2e/t_gone.sh 4' >>"$F/tests/manifest"
run
fails_with "a manifest line for a file that is not there fails" \
    "tests/manifest: names tests/e2e/t_gone.sh, which is not there"

fresh
printf '#!/bin/sh\necho "ok 1 - t_x: a"\necho "ok 2 - t_x: b"\necho "ok 3 - t_x: c"\nexit 3\n' \
    >"$F/tests/e2e/t_x.sh"
run
fails_with "a script that exits non-zero with every case passed fails" \
    "tests/e2e/t_x.sh: exited with status 3 and no failed case"

fresh
unit_bin test_a one --- two
run
expect "a failing case fails the run and is named under 'failures:'" sh -c \
    "test $RC != 0 && grep -qx '  tests/unit/test_a.c: two' '$T/out' &&
    tail -1 '$T/out' | grep -qx 'tests (b): 4 passed, 1 failed, 0 skipped'"
FAILFAST=1
run
FAILFAST=""
expect "MIRROR_TEST_FAILFAST stops after the first failing file" sh -c \
    "test $RC != 0 && ! grep -q 't_x: a' '$T/out' &&
    tail -1 '$T/out' | grep -q 'stopped at the first failure'"

unit_bin test_a one
ONLY=tests/e2e/t_x.sh
run
only_x=$RC
ONLY=tests/unit/test_a.c
run
ONLY=""
expect "MIRROR_TEST_ONLY runs the one file named, held to its count" sh -c \
    "test $only_x = 0 && test $RC != 0 && ! grep -q 't_x: a' '$T/out' &&
    grep -q '^not ok - tests/unit/test_a.c: 1 cases ran' '$T/out'"
unit_bin test_a one --- two

before=$(fingerprint "$F/tests/manifest")
run --update-manifest
after=$(fingerprint "$F/tests/manifest")
expect "--update-manifest refuses after a failure, the manifest untouched" sh -c \
    "test $RC != 0 && grep -q 'tests/manifest not rewritten' '$T/out' &&
    test '$before' = '$after'"

fresh
printf '#!/bin/sh\necho "ok 1 - t_y: new"\n' >"$F/tests/e2e/t_y.sh"
rm "$F/tests/e2e/t_x.sh"
echo 'skip tests/unit/test_a.c two' >>"$F/tests/manifest"
run --update-manifest
expect "--update-manifest writes the counts seen, drops gone files, keeps skip lines" sh -c \
    "test $RC = 0 && grep -qx 'tests/e2e/t_y.sh 1' '$F/tests/manifest' &&
    grep -qx 'tests/unit/test_a.c 2' '$F/tests/manifest' &&
    ! grep -q t_x '$F/tests/manifest' &&
    grep -qx 'skip tests/unit/test_a.c two' '$F/tests/manifest'"
run
expect "... after which the plain run passes" test "$RC" = 0
