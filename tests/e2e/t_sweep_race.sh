#!/bin/sh
# A sweep racing a writer: another process inserts disagreeing pairs of
# rows (WAL mode, one transaction per pair) while sweeps run back to
# back. Every sweep must succeed, and in the end each pair is exactly one
# open conflict with both members: none lost, none doubled.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000
N=40

new_store race.db
expect "the store is in WAL mode" test "$(sql race.db 'PRAGMA journal_mode = WAL')" = wal

# wait_sweeps K: the writer pauses until the sweeps have run K times (at
# most a minute), so that sweeps run between its pairs however slow a
# sweep is (the sanitizers' build made one sweep outlast all 40 pairs).
wait_sweeps() {
	w=0
	while [ "$(cat sweeps.n 2>/dev/null || echo 0)" -lt "$1" ] && [ $w -lt 600 ]; do
		sleep 0.1
		w=$((w + 1))
	done
}

(
	i=1
	while [ $i -le $N ]; do
		if [ $i = $((N / 2)) ]; then wait_sweeps 1; fi
		if [ $i = $N ]; then wait_sweeps 2; fi
		sqlite3 race.db ".timeout 20000" "INSERT INTO memories(id, memory_type, content, project) VALUES
		    ('w$i-a', 'preference', 'prefers tool-a$i for task$i', 'race'),
		    ('w$i-b', 'preference', 'prefers tool-b$i for task$i', 'race');
		    INSERT INTO project_state(id, project, category, key, value) VALUES
		    ('s$i', 'race', 'fact', 'key$i', 'v$i')" || echo "writer failed at $i" >>writer.err
		i=$((i + 1))
	done
	echo done >writer.done
) &
writer=$!

runs=0
fails=0
while [ ! -f writer.done ] && [ $runs -lt 500 ]; do
	"$MIRROR" sweep --store race.db --quiet 2>>sweep.err || fails=$((fails + 1))
	runs=$((runs + 1))
	echo $runs >sweeps.n
done
wait $writer
mirror sweep --store race.db --json

expect "the writer never failed" test ! -s writer.err
expect "sweeps ran while the writer wrote ($runs runs)" test "$runs" -ge 2
expect "no sweep failed while racing the writer" test "$fails" = 0 -a ! -s sweep.err
expect "the final sweep succeeds" test "$RC" = 0
expect "every pair is exactly one open conflict" \
    test "$(sql race.db "SELECT count(*) FROM conflicts WHERE status = 'open'")" = $N
expect "no conflict was closed or doubled" \
    test "$(sql race.db "SELECT count(*) FROM conflicts")" = $N -a \
         "$(sql race.db "SELECT count(DISTINCT slot_key) FROM conflicts")" = $N
expect "every conflict holds exactly its pair" \
    test "$(sql race.db "SELECT count(*) FROM conflicts c WHERE (SELECT group_concat(member_id, ',') FROM (SELECT member_id FROM conflict_members WHERE conflict_id = c.id ORDER BY 1)) = 'w' || substr(json_extract(c.slot_key, '$[2]'), 5) || '-a,w' || substr(json_extract(c.slot_key, '$[2]'), 5) || '-b'")" = $N
expect "one sweep_runs row per sweep" \
    test "$(sql race.db "SELECT count(*) FROM sweep_runs")" = $((runs + 1))
expect "the store is intact" integrity_ok race.db

# A writer holding the write lock for a while: the sweep waits for it
# (busy timeout) instead of failing, and then sees the writer's rows.
sqlite3 race.db ".timeout 5000" "BEGIN IMMEDIATE" \
    "INSERT INTO memories(id, memory_type, content, project) VALUES
     ('late-a', 'preference', 'prefers red pens', 'race'),
     ('late-b', 'preference', 'prefers blue pens', 'race')" \
    ".shell sleep 1.5" "COMMIT" &
holder=$!
# Wait until the lock is really held: taking it ourselves then fails.
i=0
while [ $i -lt 50 ] && sqlite3 race.db "BEGIN IMMEDIATE; ROLLBACK" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
mirror sweep --store race.db --json
wait $holder
expect "a sweep waits for a writer holding the lock, then succeeds" test "$RC" = 0
expect "... and records the rows that writer committed" \
    test "$(sql race.db "SELECT count(*) FROM conflict_members WHERE member_id IN ('late-a', 'late-b')")" = 2

# Under valgrind (make memcheck sets MIRROR_WRAP) mirror takes seconds to
# start, so every lock hold and busy timeout below is ten times longer:
# the same races, on valgrind's clock.
if [ -n "$MIRROR_WRAP" ]; then SLOW=10; else SLOW=1; fi
scaled() { awk -v s="$1" -v k="$SLOW" 'BEGIN { print s * k }'; }

# hold_lock SECONDS: another process holds the write lock that long, then
# rolls back; returns once the lock is really held. The holder has a busy
# timeout: without one, its BEGIN could collide with our probe and fail.
hold_lock() {
	sqlite3 race.db ".timeout 5000" "BEGIN IMMEDIATE" ".shell sleep $(scaled "$1")" "ROLLBACK" &
	holder=$!
	i=0
	while [ $i -lt 50 ] && sqlite3 race.db "BEGIN IMMEDIATE; ROLLBACK" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
}

# A lock held longer than the busy timeout: the sweep's transaction is
# retried whole (SPEC 3.5) and succeeds once the lock is gone.
sql race.db "INSERT INTO memories(id, memory_type, content, project) VALUES
    ('retry-a', 'preference', 'prefers green ink', 'race'),
    ('retry-b', 'preference', 'prefers black ink', 'race')"
hold_lock 0.8
MIRROR_BUSY_TIMEOUT_MS=$(scaled 250) mirror sweep --store race.db --json
wait $holder
expect "a sweep outlasting its busy timeout retries the whole transaction" \
    sh -c "test $RC = 0 && jq -e '.attempts >= 2 and .conflicts_opened == 1' '$T/out' >/dev/null"
expect "... and the retried sweep recorded the conflict once" \
    test "$(sql race.db "SELECT count(*) FROM conflict_members WHERE member_id IN ('retry-a', 'retry-b')")" = 2

# A lock that outlasts every retry: exit 3, one line, nothing written.
sql race.db "INSERT INTO memories(id, memory_type, content, project) VALUES
    ('stuck-a', 'preference', 'prefers tea', 'race'),
    ('stuck-b', 'preference', 'prefers coffee', 'race')"
runs_before=$(sql race.db "SELECT count(*) FROM sweep_runs")
hold_lock 3
MIRROR_BUSY_TIMEOUT_MS=$(scaled 50) mirror sweep --store race.db
wait $holder
expect_error "a store locked past every retry fails with exit 3" 3 'race.db'
expect "... and the sweep wrote nothing: no run, no conflict" sh -c "
    test \$(sqlite3 race.db 'SELECT count(*) FROM sweep_runs') = $runs_before &&
    test \$(sqlite3 race.db \"SELECT count(*) FROM conflict_members WHERE member_id LIKE 'stuck-%'\") = 0"
