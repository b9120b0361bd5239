#!/bin/sh
# The store contract under concurrency: every command that touches the
# store (sweep, build, build --repo, serve's rebuilds, conflicts resolve
# and dismiss, health) runs while another process writes facts into it
# (tests/tools/fact_writer.py, a write every 5 ms) and a second mirror
# sweeps it over and over, in both journal modes SQLite's contract
# allows (rollback journal, SQLite's default, and WAL) and at
# MIRROR_JOBS 1, 2 and 4 (more threads than this machine's cores).
# After each cell: every command and every second sweep succeeded with
# nothing on stderr, every row the writer committed is there,
# PRAGMA integrity_check is ok, and no code outside libsqlite3 opened or
# closed any of the store's files (tests/tools/storeguard.c, preloaded
# into every mirror run): a close of any descriptor drops every lock
# the process holds on the file, which is how a header check beside
# the sweep's second connection let the writer in and corrupted stores
# (doc/reliability.md, "The store is SQLite's alone").
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
AUTHOR='Matrix Test <matrix@example.org>'
GUARD=$(dirname "$MIRROR")/tests/storeguard.so
# The shim is loaded before a sanitized binary's runtime, which ASan
# refuses unless told not to check the order.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

# guarded STORE CMD...: CMD with storeguard watching STORE's files,
# noting any open or close outside SQLite in $T/guard.log.
guarded() {
	g_store=$1
	shift
	MIRROR_GUARD_STORE="$T/$g_store" MIRROR_GUARD_LOG="$T/guard.log" \
	    LD_PRELOAD="$GUARD" "$@"
}

new_store base.db || exit 1
{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES(300);"
  cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
    sqlite3 -bail base.db >/dev/null || exit 1

# --- 0. The guard sees what it is for --------------------------------------
: >guard.log
guarded base.db cat base.db >/dev/null
expect "the guard notes a program that opens and closes the store itself" \
    grep -q '^open .*base\.db by .*cat' guard.log
: >guard.log
guarded base.db python3 -c "import sqlite3
sqlite3.connect('base.db').execute('SELECT count(*) FROM memories').fetchall()"
expect "... and not SQLite's own opens (Python's sqlite3)" test ! -s guard.log

# --- 0b. A store inside DIR is never deleted by a build --------------------
# Each build removes the files of DIR the new site lacks: a store kept
# in DIR was deleted by the first build that changed anything.
mirror build --store base.db --out inside --quiet
cp base.db inside/s.db
sql inside/s.db "UPDATE project_state SET value = value || ' changed'
    WHERE rowid = (SELECT min(rowid) FROM project_state)"
before=$(fingerprint inside/s.db)
mirror build --store inside/s.db --out inside --quiet
expect_error "a store inside --out DIR is refused, naming both" 1 \
    'store inside/s.db is inside --out inside'
expect "... and it is still there, unchanged" \
    test "$(fingerprint inside/s.db 2>/dev/null)" = "$before"
git init -q --bare inside/r.git
mirror build --store base.db --out ./inside/ --repo inside/../inside/r.git \
    --quiet
expect_error "so is a --repo inside DIR, however the paths are written" 1 \
    'inside/r.git is inside --out'

# wait_rows DB N: wait (10 s at most) until the writer's rows appear.
wait_rows() {
	i=0
	while [ $i -lt 200 ]; do
		[ "$(sqlite3 -cmd '.timeout 20000' "$1" "SELECT count(*) FROM memories
		    WHERE project = 'race'" 2>/dev/null)" -gt "$2" ] 2>/dev/null &&
		    return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# serve_rebuilds STORE: mirror serve on STORE until it has rebuilt twice
# for the writer's changes (60 s at most), then SIGTERM; 0 when it
# served, rebuilt and stopped with exit 0.
serve_rebuilds() {
	: >serve.out
	# Not through guarded: $! must be mirror itself, not a subshell.
	MIRROR_GUARD_STORE="$T/$1" MIRROR_GUARD_LOG="$T/guard.log" \
	    LD_PRELOAD="$GUARD" "$MIRROR" serve --store "$1" --port 0 \
	    >serve.out 2>>cmds.err &
	spid=$!
	i=0
	while [ $i -lt 600 ] &&
	    ! grep -q '(generation [3-9]\|(generation [1-9][0-9]' serve.out; do
		kill -0 $spid 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '(generation [3-9]\|(generation [1-9][0-9]' serve.out
	rebuilt=$?
	kill -TERM $spid 2>/dev/null
	wait $spid
	sstatus=$?
	grep -v '^site: \|^serving http\|^rebuilt in [0-9]* ms: pages reload' \
	    serve.out >>cmds.err
	[ $rebuilt = 0 ] && [ $sstatus = 0 ]
}

# one_conflict DB: the id of one open conflict outside the writer's
# project, which no concurrent sweep closes (the shell waits for the
# writers' locks as mirror does).
one_conflict() {
	sqlite3 -bail -cmd '.timeout 20000' "$1" "SELECT id FROM conflicts
	    WHERE status = 'open' AND project <> 'race' ORDER BY id LIMIT 1"
}

# --- 1. The matrix ----------------------------------------------------------
for mode in delete wal; do
	for jobs in 1 2 4; do
		cell="$mode journal, MIRROR_JOBS=$jobs"
		rm -rf s.db s.db-journal s.db-wal s.db-shm stop site pub repo.git
		cp base.db s.db
		git init -q --bare repo.git
		: >cmds.err
		: >guard.log
		: >second.err
		python3 "$MIRROR_TOP/tests/tools/fact_writer.py" s.db stop \
		    --interval 0.005 --journal $mode >writer.log 2>&1 &
		writer=$!
		wait_rows s.db 0
		# The second mirror: sweeps until told to stop.
		(while [ ! -e stop ]; do
			guarded s.db "$MIRROR" sweep --store s.db --quiet \
			    2>>second.err || echo "second sweep failed" >>second.err
		done) &
		second=$!
		failed=""
		export MIRROR_JOBS=$jobs
		run() {
			guarded s.db "$MIRROR" "$@" --store s.db --quiet \
			    2>>cmds.err || failed="$failed [$1 $2]"
		}
		run sweep
		run build --out site
		run build --out pub --repo repo.git --author "$AUTHOR"
		run health
		id=$(one_conflict s.db)
		run conflicts resolve "$id" --notes "matrix: kept as it is"
		id=$(one_conflict s.db)
		run conflicts dismiss "$id" --reason "matrix: not a conflict"
		serve_rebuilds s.db || failed="$failed [serve]"
		run build --out pub --repo repo.git --author "$AUTHOR"
		unset MIRROR_JOBS
		: >stop
		wait $writer
		wstatus=$?
		wait $second
		expect "$cell: every command succeeded, nothing on stderr" \
		    test -z "$failed" -a ! -s cmds.err
		[ -z "$failed" ] || echo "# failed:$failed"
		sed -n '1,5s/^/# /p' cmds.err
		expect "$cell: the second mirror's sweeps all succeeded" \
		    test ! -s second.err
		sed -n '1,5s/^/# /p' second.err
		expect "$cell: the writer's every write committed and every row is there ($(tail -n 1 writer.log))" \
		    sh -c "test $wstatus = 0 && grep -q ' failures 0 missing 0\$' writer.log"
		expect "$cell: no code outside SQLite opened or closed the store's files" \
		    test ! -s guard.log
		sed -n '1,5s/^/# /p' guard.log
		expect "$cell: the store is intact (integrity_check ok)" \
		    integrity_ok s.db
	done
done
