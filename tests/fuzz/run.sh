#!/bin/sh
# Run libFuzzer harnesses one after another (make fuzz calls this):
#
#   sh tests/fuzz/run.sh BUILD SECONDS TARGET...
#
# Each TARGET runs BUILD/fuzz_TARGET for SECONDS on a scratch corpus,
# BUILD/fuzz-corpus/TARGET, seeded from tests/fuzz/corpus/TARGET (the
# committed seeds are never written to). A crash, leak, sanitizer report
# or timeout lands in BUILD/fuzz-crashes/TARGET/. Prints one line per
# target: executions, exec/s, coverage, corpus size, crashes; exits 1
# when any target found something, with the command that replays it.
set -u
BUILD=${1:?usage: run.sh BUILD SECONDS TARGET...}
SECONDS_EACH=${2:?usage: run.sh BUILD SECONDS TARGET...}
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

found=0
printf '%-10s %12s %8s %6s %6s %8s\n' target execs exec/s cov corpus crashes
for t in "$@"; do
	bin="$BUILD/fuzz_$t"
	seeds="tests/fuzz/corpus/$t"
	work="$BUILD/fuzz-corpus/$t"
	crashes="$BUILD/fuzz-crashes/$t"
	log="$BUILD/fuzz-$t.log"
	if [ ! -x "$bin" ]; then
		echo "fuzz: no harness $bin (targets: slot normalize template escape)" >&2
		exit 2
	fi
	mkdir -p "$work" "$crashes"
	[ -d "$seeds" ] && cp -p "$seeds"/* "$work"/ 2>/dev/null
	# Longest input: past escape's 4 KiB cap, a page template with data.
	case "$t" in
	escape) maxlen=9000 ;;
	template) maxlen=8192 ;;
	*) maxlen=4096 ;;
	esac
	dict=""
	[ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
	before=$(ls "$crashes" | wc -l)
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
	    -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" \
	    -artifact_prefix="$crashes/" $dict "$work" >"$log" 2>&1
	status=$?
	after=$(ls "$crashes" | wc -l)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(sed -n 's/^#[0-9]*.* cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
	corp=$(ls "$work" | wc -l)
	new=$((after - before))
	printf '%-10s %12s %8s %6s %6s %8s\n' "$t" "${execs:--}" \
	    "${rate:--}" "${cov:--}" "$corp" "$new"
	if [ "$status" -ne 0 ] || [ "$new" -gt 0 ]; then
		found=1
		echo "fuzz: $t stopped with status $status; log $log" >&2
		grep -m 3 -E 'ERROR|fuzz check failed|runtime error' "$log" >&2
		for c in $(ls -t "$crashes" | head -3); do
			echo "fuzz: replay: $bin $crashes/$c" >&2
		done
	fi
done
exit "$found"
