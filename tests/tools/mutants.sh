#!/bin/sh
# mutants.sh BUILD [PATCH...]: does the suite catch the mutants
# (make mutants; tests/mutants/README.md)?
#
# A scratch clone of the checkout's HEAD (git clone --shared, in a mktemp
# directory; uncommitted changes are not in it) is built once. Then each
# patch (default: every tests/mutants/*.patch of the checkout, so a patch
# being written can be tried before it is committed) is applied alone with
# git apply, the tree rebuilt (make -j2: only what the patch touched) and
# the suite run (tests/run.sh, MIRROR_TEST_FAILFAST=1: it stops at the
# first failing file). The mutant must make it fail. To be sure the
# failure is the mutant's, the patch is taken back out, the tree rebuilt
# and the file that failed run again alone (MIRROR_TEST_ONLY): it must
# pass. A patch whose header says "Equivalent: REASON" is only checked to
# apply, and listed.
#
# Prints a table mutant / caught by (the first failing case) / status and
# "caught C / total T / equivalent E"; each suite's output goes to
# BUILD/mutants/NAME.log. Exits non-zero when a mutant survives, a patch
# does not apply or build, or the case that caught one fails without it.
set -u
BUILD=${1:?usage: tests/tools/mutants.sh BUILD [PATCH...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
logs="$top/$BUILD/mutants"
mkdir -p "$logs" || exit 1
logs=$(cd "$logs" && pwd)
jobs=${MUTANTS_JOBS:-2}

if [ $# -eq 0 ]; then
	set -- tests/mutants/*.patch
	[ -e "$1" ] || { echo "mutants: no tests/mutants/*.patch" >&2; exit 1; }
fi
patches=""
for p in "$@"; do
	[ -f "$p" ] || { echo "mutants: $p: no such patch" >&2; exit 1; }
	patches="$patches $(cd "$(dirname "$p")" && pwd)/$(basename "$p")"
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mirror-mutants.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/tree
rows=$scratch/rows          # NAME<TAB>CAUGHT-BY<TAB>STATUS

say() { echo "mutants: $*"; }

# build: the mirror binary and every unit test binary of the scratch tree.
build() {
	make -C "$tree" -s -j"$jobs" BUILD=build test-bins >"$1" 2>&1
}

head_commit=$(git rev-parse HEAD) || exit 1
say "a scratch clone of HEAD ($(git log -1 --format='%h %s' HEAD)) in $tree"
git clone -q --shared --no-checkout "$top" "$tree" &&
    git -C "$tree" checkout -q --detach "$head_commit" || exit 1
say "building it (make -j$jobs)"
if ! build "$logs/base-build.log"; then
	say "the unmutated tree does not build: $logs/base-build.log"
	tail -5 "$logs/base-build.log"
	exit 1
fi

# header PATCH: the lines before the first 'diff --git'.
header() { sed -n '/^diff --git /q; p' "$1"; }

caught=0 total=0 equivalent=0 bad=0
: >"$rows"
for p in $patches; do
	name=$(basename "$p" .patch)
	log=$logs/$name.log
	total=$((total + 1))
	why=$(header "$p" | sed -n 's/^[#[:space:]]*Equivalent:[[:space:]]*//p' | head -1)
	if ! git -C "$tree" apply --check "$p" 2>"$log"; then
		say "$name: does not apply to HEAD ($(head -1 "$log"))"
		printf '%s\t-\tDOES NOT APPLY\n' "$name" >>"$rows"
		bad=$((bad + 1))
		continue
	fi
	if [ -n "$why" ]; then
		say "$name: equivalent ($why)"
		printf '%s\t-\tequivalent: %s\n' "$name" "$why" >>"$rows"
		equivalent=$((equivalent + 1))
		continue
	fi
	git -C "$tree" apply "$p" || exit 1
	start=$(date +%s)
	built=0 status=0 by=""
	if build "$log"; then
		built=1
		say "$name: built; running the suite"
		(cd "$tree" && MIRROR_TEST_FAILFAST=1 MIRROR_TEST_ONLY= \
		    sh tests/run.sh build) >"$log" 2>&1
		status=$?
		by=$(sed -n '/^failures:$/{n; s/^  //p; q}' "$log")
		[ "$status" -ne 0 ] && [ -z "$by" ] && by="(run.sh exit $status)"
	fi
	git -C "$tree" apply -R "$p" || exit 1
	if [ -n "$(git -C "$tree" status --porcelain)" ]; then
		say "$name: the tree is not clean after taking the patch out"
		git -C "$tree" status --short
		exit 1
	fi
	if ! build "$scratch/rebuild.log"; then
		say "the unmutated tree no longer builds after $name"
		tail -5 "$scratch/rebuild.log"
		exit 1
	fi
	secs=$(( $(date +%s) - start ))
	if [ "$built" -eq 0 ]; then
		say "$name: does not build ($log)"
		printf '%s\t-\tDOES NOT BUILD\n' "$name" >>"$rows"
		bad=$((bad + 1))
		continue
	fi
	if [ "$status" -eq 0 ]; then
		say "$name: SURVIVED: the suite passed ($secs s)"
		printf '%s\t-\tSURVIVED\n' "$name" >>"$rows"
		continue
	fi
	# The failing file, alone, on the unmutated tree: it must pass.
	file=${by%%: *}
	case $file in
	tests/unit/test_*.c | tests/e2e/t_*.sh)
		if (cd "$tree" && MIRROR_TEST_ONLY=$file MIRROR_TEST_FAILFAST= \
		    sh tests/run.sh build) >"$log.base" 2>&1; then
			say "$name: caught by $by ($secs s)"
			printf '%s\t%s\tcaught\n' "$name" "$by" >>"$rows"
			caught=$((caught + 1))
			rm -f "$log.base"
		else
			say "$name: $file fails without the mutant too ($log.base)"
			printf '%s\t%s\tFAILS WITHOUT IT\n' "$name" "$by" >>"$rows"
			bad=$((bad + 1))
		fi ;;
	*)
		say "$name: the suite failed, but not in a test file: $by"
		printf '%s\t%s\tFAILS WITHOUT IT\n' "$name" "$by" >>"$rows"
		bad=$((bad + 1)) ;;
	esac
done

echo
awk -F '\t' 'BEGIN { w1 = length("mutant"); w2 = length("caught by") }
    { n[NR] = $1; c[NR] = $2; s[NR] = $3
      if (length($1) > w1) w1 = length($1)
      if (length($2) > w2) w2 = length($2) }
    END { if (w2 > 70) w2 = 70
          printf "%-" w1 "s  %-" w2 "s  %s\n", "mutant", "caught by", "status"
          for (i = 1; i <= NR; i++)
              printf "%-" w1 "s  %-" w2 "s  %s\n", n[i], substr(c[i], 1, 70), s[i] }' "$rows"
survived=$(grep -c '	SURVIVED$' "$rows")
echo
echo "caught $caught / total $total / equivalent $equivalent" \
    "($survived survived, $bad broken; logs in $BUILD/mutants/)"
[ "$survived" -eq 0 ] && [ "$bad" -eq 0 ]
