#!/bin/sh
# Concurrency: (1) another process writes facts into the store (WAL mode)
# at a steady rate, making and unmaking disagreements
# (tests/tools/fact_writer.py), while sweeps and 'mirror build --repo'
# run over and over: no run fails, every build leaves a complete site
# equal to the commit it made, and in the end the conflicts are exactly
# those a fresh sweep of a copy of the final store finds (none lost, none
# doubled). (2) Two builds into one DIR and one repository at once, many
# times: they take turns on DIR's lock, both succeed, DIR is the
# branch's tree, git fsck is clean, nothing is left beside DIR. (3) A
# build finding DIR's lock held waits for it, or fails after its bound
# with one line naming the lock file and the holder.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
AUTHOR='Race Test <race@example.org>'
ROUNDS=${RACE_ROUNDS:-6}

# gen_store DB FACTS: a store from the bench generator.
gen_store() {
	new_store "$1" || return 1
	{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES($2);"
	  cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
	    sqlite3 -bail "$1" >/dev/null
}

# site_is_tip SITE REPO: the regular files of SITE (less the marker and
# the pages' record, api/pages/, which the commit leaves out) are
# exactly the tree at the tip of branch mirror: same paths, same blobs.
site_is_tip() {
	(cd "$1" && find . -type f ! -name .mirror-output \
	    ! -path './api/pages/*' | sed 's|^\./||' |
	    LC_ALL=C sort) >"$T/paths" &&
	(cd "$1" && git hash-object --stdin-paths) <"$T/paths" >"$T/blobs" &&
	paste "$T/blobs" "$T/paths" >"$T/have" &&
	git -C "$2" ls-tree -r mirror | sed 's/^[0-9]* blob //' |
	    LC_ALL=C sort -k2 >"$T/want" &&
	cmp -s "$T/have" "$T/want"
}

# nothing_beside DIR: no staging, fallback or lock file next to DIR.
nothing_beside() {
	! ls -a "$(dirname "$1")" | grep -q "^\.$(basename "$1")\.mirror-"
}

# --- 1. A writer racing sweeps and builds ---------------------------------
gen_store race.db 300 || exit 1
expect "the store is in WAL mode" \
    test "$(sql race.db 'PRAGMA journal_mode = WAL')" = wal
git init -q --bare repo.git

python3 "$MIRROR_TOP/tests/tools/fact_writer.py" race.db stop \
    --interval 0.03 >writer.log 2>&1 &
writer=$!
# Let the writer start before the first run.
i=0
while [ $i -lt 100 ] && [ "$(sql race.db "SELECT count(*) FROM memories WHERE project = 'race'")" = 0 ]; do
	sleep 0.05
	i=$((i + 1))
done
first=$(sql race.db "SELECT count(*) FROM memories WHERE project = 'race'")
fails=0
incomplete=0
r=1
race_rows() { sql race.db "SELECT count(*) FROM memories WHERE project = 'race'"; }
# At least ROUNDS rounds, and on until the writer has written 60 rows
# (a fast machine, or a build with nothing to render, ends the rounds
# before the writer made enough disagreements to judge); at most 80.
while [ $r -le "$ROUNDS" ] ||
    { [ "$(race_rows)" -lt $((first + 60)) ] && [ $r -le 80 ]; }; do
	"$MIRROR" sweep --store race.db --quiet 2>>runs.err ||
	    fails=$((fails + 1))
	"$MIRROR" build --store race.db --out site --repo repo.git \
	    --author "$AUTHOR" --quiet 2>>runs.err || fails=$((fails + 1))
	site_is_tip site repo.git || incomplete=$((incomplete + 1))
	r=$((r + 1))
done
last=$(sql race.db "SELECT count(*) FROM memories WHERE project = 'race'")
: >stop
wait $writer
wstatus=$?

expect "the writer wrote at a steady rate, none of its writes failed" \
    test "$wstatus" = 0
expect "the writer wrote while the runs ran ($first, then $last rows)" \
    test "$last" -gt "$first"
expect "no sweep or build failed while the writer wrote ($((r - 1)) rounds)" \
    test "$fails" = 0 -a ! -s runs.err
expect "every build left a complete site, equal to its commit" \
    test "$incomplete" = 0
expect "the race made conflicts and the sweeps closed some" test \
    "$(sql race.db "SELECT count(*) FROM conflicts WHERE project = 'race'
        AND status = 'open'")" -gt 0 -a \
    "$(sql race.db "SELECT count(*) FROM conflicts WHERE project = 'race'
        AND resolved_by = 'sweep'")" -gt 0

mirror sweep --store race.db --quiet
expect_status "the final sweep succeeds" 0
# The oracle: a copy of the final store without mirror's records, swept
# once from scratch.
sql race.db ".backup fresh.db"
sql fresh.db "DELETE FROM conflict_members; DELETE FROM conflicts;
    DELETE FROM sweep_runs"
mirror sweep --store fresh.db --quiet
expect_status "a fresh sweep of a copy of the final store succeeds" 0
open_slots() {
	sql "$1" "SELECT slot_kind || ' ' || slot_key FROM conflicts
	    WHERE status = 'open' ORDER BY 1"
}
open_slots race.db >race.slots
open_slots fresh.db >fresh.slots
expect "the raced store's open conflicts are the fresh sweep's, slot for slot" \
    cmp -s race.slots fresh.slots
expect "... which are many ($(wc -l <fresh.slots))" test "$(wc -l <fresh.slots)" -ge 20
expect "no slot has two open conflicts" \
    test "$(sort race.slots | uniq -d | wc -l)" = 0
expect "every member the fresh sweep finds is a member of the raced conflict" \
    test "$(sql race.db "ATTACH 'fresh.db' AS f;
    SELECT count(*) FROM f.conflicts fc JOIN f.conflict_members fm
        ON fm.conflict_id = fc.id
    WHERE fc.status = 'open' AND NOT EXISTS (
        SELECT 1 FROM conflicts c JOIN conflict_members m
            ON m.conflict_id = c.id
        WHERE c.status = 'open' AND c.slot_kind = fc.slot_kind
          AND c.slot_key = fc.slot_key AND m.member_kind = fm.member_kind
          AND m.member_id = fm.member_id)")" = 0
expect "the raced store is intact" integrity_ok race.db
mirror build --store race.db --out site --repo repo.git --author "$AUTHOR" \
    --quiet
expect_status "a last build succeeds" 0
expect "... and its site is the branch's tree" site_is_tip site repo.git
expect "the repository is git fsck --strict clean" \
    sh -c 'git -C repo.git fsck --strict --no-dangling >/dev/null 2>&1'

# --- 2. Two builds into one DIR and one repository at once ----------------
gen_store two.db 300 || exit 1
git init -q --bare two.git
fails=0
bad=0
r=1
while [ $r -le "$ROUNDS" ]; do
	# Every round changes the facts, so there is something to commit;
	# the first two start with no DIR at all.
	sql two.db "UPDATE project_state SET value = value || ' r$r'
	    WHERE key = 'key_3' AND status = 'active'"
	[ $r -le 2 ] && rm -rf pub
	"$MIRROR" build --store two.db --out pub --repo two.git \
	    --author "$AUTHOR" --quiet 2>a.err &
	a=$!
	"$MIRROR" build --store two.db --out pub --repo two.git \
	    --author "$AUTHOR" --quiet 2>b.err &
	b=$!
	wait $a || { fails=$((fails + 1)); sed 's/^/# a: /' a.err; }
	wait $b || { fails=$((fails + 1)); sed 's/^/# b: /' b.err; }
	site_is_tip pub two.git && nothing_beside pub || bad=$((bad + 1))
	r=$((r + 1))
done
expect "two builds at once, $ROUNDS times: every one succeeds" test "$fails" = 0
expect "... DIR is always the branch's tree, nothing left beside it" \
    test "$bad" = 0
expect "... one commit per round (the second build finds it made)" \
    test "$(git -C two.git rev-list --count mirror)" = "$ROUNDS"
expect "... and the repository is git fsck --strict clean" \
    sh -c 'git -C two.git fsck --strict --no-dangling >/dev/null 2>&1'

# --- 3. A lock held by another process ------------------------------------
# hold_lock SECONDS: another process holds pub's lock, with its pid in
# the file as mirror writes it, until the file "release" appears or
# SECONDS pass, then creates "released" and lets go. Returns once the
# lock is held, with the holder's pid in $holder_pid.
hold_lock() {
	rm -f .pub.mirror-lock release released
	flock .pub.mirror-lock sh -c 'echo $$ >.pub.mirror-lock; i=0
	    while [ ! -f release ] && [ $i -lt '"$1"'0 ]; do
		sleep 0.1; i=$((i + 1)); done
	    : >released' &
	holder=$!
	i=0
	while [ $i -lt 100 ] && ! [ -s .pub.mirror-lock ]; do
		sleep 0.02
		i=$((i + 1))
	done
	holder_pid=$(cat .pub.mirror-lock)
}
# A change to build, so that the build has work to do.
sql two.db "UPDATE project_state SET value = value || ' held'
    WHERE key = 'key_3' AND status = 'active'"
before=$(fingerprint pub)
store_before=$(fingerprint two.db)
hold_lock 60
MIRROR_LOCK_TIMEOUT_MS=200 mirror build --store two.db --out pub \
    --repo two.git --author "$AUTHOR" --quiet
: >release
wait "$holder"
expect_error "a lock held past the wait: exit 3, one line naming the lock and its holder" \
    3 "pub: another build is writing it: \./\.pub\.mirror-lock is held by pid $holder_pid "
expect "... and DIR is as it was" test "$(fingerprint pub)" = "$before"
expect "... and the store: the build waited before its sweep" \
    test "$(fingerprint two.db)" = "$store_before"

sql two.db "UPDATE project_state SET value = value || ' late'
    WHERE key = 'key_3' AND status = 'active'"
hold_lock 2
mirror build --store two.db --out pub --repo two.git --author "$AUTHOR" \
    --quiet
test -f released
released=$?
wait "$holder"
expect "a build finding the lock held waits for it, then succeeds" \
    test "$RC" = 0 -a ! -s "$T/err"
expect "... having waited until the holder let go" test "$released" = 0
expect "... its site is the new commit's tree" site_is_tip pub two.git
expect "... and nothing is left beside DIR, the lock file neither" \
    nothing_beside pub

# MIRROR_PROFILE=1 (make bench's scaling row): one line at exit.
MIRROR_PROFILE=1 MIRROR_JOBS=2 mirror build --no-sweep --store two.db \
    --out prof --quiet
expect "MIRROR_PROFILE=1: one line on stderr, the serial share of the CPU" \
    sh -c '[ "$1" = 0 ] && [ "$(wc -l <"$2")" = 1 ] && grep -Eq \
    "^mirror profile: cpu [0-9.]+ s, serial [0-9.]+ s \(.*\), serial share [0-9.]+%; pools [0-9.]+ s wall, [0-9]+ items; longest thread beside them [0-9.]+ s$" "$2"' \
    - "$RC" "$T/err"
# two.db keeps its rollback journal: the digest's, the model's and the
# families' threads ran beside the pools, and the longest is timed.
expect "... with the CPU time of the longest thread beside the pools" \
    awk '/^mirror profile: /{ if ($NF == "s" && $(NF-1) + 0 > 0) ok = 1 }
    END { exit !ok }' "$T/err"
