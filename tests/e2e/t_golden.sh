#!/bin/sh
# The golden pages (doc/development.md, "Golden pages"): tests/golden/run.sh
# makes the site of the golden store as a user would (sweep, reviews,
# edits, two builds committed to a history repository) and every file of
# it, and the history, must equal what tests/golden/ holds, byte for byte,
# with the default number of threads and with one. A difference prints
# the differing files and a unified diff of the first of them. Output
# changed on purpose is regenerated with 'make golden' and reviewed as a
# diff under tests/golden/.
#
# Also the example site (site-example/run.sh, as 'make example' runs it,
# on a fresh history) against its digests in tests/golden/bench-digests.txt.
. "$MIRROR_TOP/tests/e2e/lib.sh"
golden="$MIRROR_TOP/tests/golden"
unset SOURCE_DATE_EPOCH

# same NAME WANT GOT: a case that passes when the files or trees WANT (in
# tests/golden/) and GOT are identical; else it names the files that
# differ and shows the unified diff of the first three, .md twins first.
same() {
	if diff -r "$2" "$3" >/dev/null 2>&1; then
		ok "$1"
		return
	fi
	not_ok "$1" "differs from tests/golden/: if the change of output is" \
	    "meant, run 'make golden' and review the diff it leaves"
	if [ ! -d "$2" ]; then
		diff -u --label "golden/${2##*/}" --label "now/${3##*/}" "$2" "$3" |
		    head -n 120 | sed 's/^/#   /'
		return
	fi
	{ (cd "$2" && find . -type f) && (cd "$3" && find . -type f); } |
	    LC_ALL=C sort -u | while read -r f; do
		cmp -s "$2/$f" "$3/$f" || echo "${f#./}"
	done >"$T/differ"
	echo "#   $(wc -l <"$T/differ") files differ, among them:"
	head -n 20 "$T/differ" | sed 's/^/#     /'
	{ grep '\.md$' "$T/differ"; grep -v '\.md$' "$T/differ"; } |
	    head -n 3 | while read -r f; do
		a="$2/$f" b="$3/$f"
		[ -f "$a" ] || a=/dev/null
		[ -f "$b" ] || b=/dev/null
		diff -u --label "golden/$f" --label "now/$f" "$a" "$b"
	done | head -n 120 | sed 's/^/#   /'
}

# recorded NAME KIND: the digest bench-digests.txt records.
recorded() {
	awk -v n="$1" -v k="$2" '$1 == n && $2 == k { print $3 }' \
	    "$golden/bench-digests.txt"
}

for jobs in default 1; do
	if [ "$jobs" = default ]; then
		unset MIRROR_JOBS
	else
		MIRROR_JOBS=$jobs
		export MIRROR_JOBS
	fi
	sh "$golden/run.sh" "$MIRROR" "$T/jobs-$jobs" >"$T/out" 2>"$T/err"
	RC=$?
	expect_status "the golden store renders (MIRROR_JOBS $jobs)" 0
	same "every golden page is byte-identical (MIRROR_JOBS $jobs)" \
	    "$golden/site" "$T/jobs-$jobs/site"
	same "the golden history is identical: commit ids, trees, messages (MIRROR_JOBS $jobs)" \
	    "$golden/history.txt" "$T/jobs-$jobs/history.txt"
done
unset MIRROR_JOBS

# The example, by site-example/run.sh itself: it runs BUILD/mirror and
# writes BUILD/example/.
mkdir -p "$T/ex" && ln -s "$MIRROR" "$T/ex/mirror"
sh "$MIRROR_TOP/site-example/run.sh" "$T/ex" >"$T/out" 2>"$T/err"
RC=$?
expect_status "the example builds" 0
# lib.sh's fingerprint is the digest bench.sh records: sha256 over the
# sorted list of the site's files and their sha256.
site=$(fingerprint "$T/ex/example/site" | cut -d' ' -f1)
want=$(recorded example site)
expect "the example site has the recorded digest ($want)" \
    test "$site" = "$want"
commit=$(git --git-dir="$T/ex/example/history.git" rev-parse mirror)
want=$(recorded example commit)
expect "the example's first commit has the recorded id ($want)" \
    test "$commit" = "$want"

# What a phone shows of a table (issue 59): every class a page of the
# golden or the example site uses has its labels in the site's
# stylesheet, and every other table its cells' data-labels.
for s in "$T/jobs-default/site" "$T/ex/example/site"; do
	n=$(table_labels "$s" 2>"$T/err")
	RC=$?
	expect "the ${s#"$T/"} tables' labels are in the stylesheet ($n tables)" \
	    sh -c "test $RC = 0 && test ${n:-0} -gt 0"
done
