#!/bin/sh
# make fuzz-build builds the four libFuzzer harnesses with clang (issue
# 55, L10: it had rotted, clang's -Wmissing-field-initializers failing
# core/store/facts.c, and nothing in make test built it). Built from
# scratch into $T (about 40 s at one job here), then each harness runs
# 100 inputs from a scratch copy of its seeds. clang and its sanitizer
# runtime are in scripts/install-deps.sh's list, so make deps installs
# them: without clang this fails, it does not skip.
# The promises of doc/reliability.md, "Fuzzing".
. "$MIRROR_TOP/tests/e2e/lib.sh"
targets="slot normalize template escape"

if ! command -v clang >/dev/null 2>&1; then
	not_ok "clang is installed (make deps installs it)"
	exit 1
fi
ok "clang is installed (make deps installs it)"

make -s --no-print-directory -C "$MIRROR_TOP" fuzz-build \
    FUZZ_BUILD="$T/fuzz" FUZZ_TARGETS="$targets" >"$T/out" 2>"$T/err"
RC=$?
expect_status "make fuzz-build succeeds with clang" 0
for t in $targets; do
	mkdir "$T/seeds-$t"
	cp "$MIRROR_TOP/tests/fuzz/corpus/$t"/* "$T/seeds-$t"/ 2>/dev/null
	#: LeakSanitizer needs ptrace, which some
	# containers deny; make fuzz keeps leak detection.
	"$T/fuzz/fuzz_$t" -runs=100 -seed=1 \
	    "$T/seeds-$t" >"$T/out" 2>"$T/err"
	RC=$?
	expect "fuzz_$t runs 100 inputs from its seeds" \
	    sh -c "[ $RC = 0 ] && grep -q 'Done 100 runs' '$T/err'"
done
