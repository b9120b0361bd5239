#!/bin/sh
# A build that fails after its sweep leaves the store as it was (issue
# 67, R4-5): a file past `ulimit -f` (R4-8: no SIGXFSZ, exit 3), a full
# disk under DIR and under the repository, a signer that fails or is
# killed at the commit, on a fresh store, on one with history and on a
# WAL store; each compares every row of the store before and after (the
# dump, not the file's bytes). And a build whose DIR lock file was
# removed while it held it stops before it changes DIR (R4-9).
. "$MIRROR_TOP/tests/e2e/lib.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME="$T"   # no user's git config
author='Mirror CI <mirror@example.org>'

# rows DB: a checksum of every row of every table of DB.
rows() { sqlite3 "$1" .dump | sha256sum; }
# fresh DB: DB a copy of the fresh example store (no sweep yet).
fresh() { rm -f "$1" "$1-wal" "$1-shm"; cp base.db "$1"; }
# same_rows NAME DB: DB's rows are those of before.rows.
same_rows() { expect "$1" test "$(rows "$2")" = "$(cat before.rows)"; }

new_store base.db "$MIRROR_TOP/site-example/example.sql" || exit 1
# A theme with a 2 MB asset: the first file of the site past 1 MiB.
cp -R "$MIRROR_TOP/themes/default" big-theme &&
    head -c 2000000 /dev/zero >big-theme/assets/big.bin || exit 1

# 1. ulimit -f: every write past 1 MiB fails. mirror is not killed by
# SIGXFSZ (exit 153, lock and staging directory left): exit 3, one line
# naming the file, nothing beside DIR, and the sweep taken back.
fresh f.db
rows f.db >before.rows
(ulimit -f 2048; exec "$MIRROR" build --store f.db --out fsite \
    --theme ./big-theme) >"$T/out" 2>"$T/err"
RC=$?
expect_error "a file past ulimit -f: exit 3, one line naming it (no SIGXFSZ)" 3 \
    "fsite/assets/big.bin: cannot write: File too large$"
expect "... no DIR, no lock file, no staging directory left" \
    sh -c '! ls -A | grep -q fsite'

