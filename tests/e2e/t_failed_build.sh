#!/bin/sh
# A build that fails after its sweep leaves the store as it was (issue
# 67, R4-5): a file past `ulimit -f` (R4-8: no SIGXFSZ, exit 3), a full
# disk under DIR and under the repository, a signer that fails or is
# killed at the commit, on a fresh store, on one with history and on a
# WAL store; each compares every row of the store before and after (the
# dump, not the file's bytes). And a build whose DIR lock file was
# removed while it held it stops before it changes DIR (R4-9). The
# promises of doc/reliability.md, "A failed build".
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
same_rows "... the store's rows as before (no conflict, no sweep run)" f.db

# 2. No space left in DIR, then in the repository (tmpfs mounts in a
# mount namespace of their own: root's CAP_SYS_ADMIN).
fresh d.db
fresh r.db
cat >full.sh <<SH
mkdir -p m && mount -t tmpfs -o size=400k tmpfs m || exit 99
"$MIRROR" build --store d.db --out m/site >d.out 2>d.err
echo \$? >d.rc
umount m && mount -t tmpfs -o size=120k tmpfs m || exit 99
git init -q --bare --template= m/repo.git || exit 99
"$MIRROR" build --store r.db --out rsite --repo m/repo.git \
    --author '$author' >r.out 2>r.err
echo \$? >r.rc
test ! -e m/repo.git/refs/heads/mirror && echo none >r.branch
SH
unshare -m sh full.sh
RC=$(cat d.rc 2>/dev/null); cp d.err "$T/err" 2>/dev/null
expect_error "a full disk under DIR: exit 3, one line" 3 \
    "m/site/[^ ]+: cannot write: No space left on device$"
same_rows "... the store's rows as before" d.db
RC=$(cat r.rc 2>/dev/null); cp r.err "$T/err" 2>/dev/null
expect_error "a full disk under the repository: exit 3, one line" 3 \
    "repo.git/objects/[^ ]+: No space left on device$"
expect "... no branch, no DIR" sh -c 'test "$(cat r.branch)" = none && test ! -e rsite'
same_rows "... the store's rows as before" r.db

# 3. A signer that passes the check and fails at the commit, and one
# killed at its deadline there.
ssh-keygen -q -t ed25519 -N '' -C mirror-ci -f ci-key || exit 1
keygen=$(command -v ssh-keygen)
mkdir fails hangs slow
cat >fails/ssh-keygen <<FAKE
#!/bin/sh
data=\$(cat)
case \$data in *"can this key sign"*)
	printf '%s\n' "\$data" | "$keygen" "\$@"; exit;;
esac
echo 'agent refused operation' >&2
exit 1
FAKE
sed 's/^echo .agent refused operation.*/exec sleep 30/' fails/ssh-keygen >hangs/ssh-keygen
chmod +x fails/ssh-keygen hangs/ssh-keygen
fresh s.db
rows s.db >before.rows
git init -q --bare s.git
PATH="$T/fails:$PATH" mirror build --store s.db --out ssite --repo s.git \
    --author "$author" --sign-key ci-key
expect_error "a signer failing at the commit: one line" 2 \
    "--sign-key ci-key: ssh-keygen cannot sign with it: agent refused operation$"
same_rows "... the store's rows as before" s.db
PATH="$T/hangs:$PATH" MIRROR_SIGN_TIMEOUT_MS=300 mirror build --store s.db \
    --out ssite --repo s.git --author "$author" --sign-key ci-key
expect_error "a signer killed at its deadline at the commit: exit 3, one line" 3 \
    "--sign-key ci-key: ssh-keygen did not finish within 300 ms"
same_rows "... the store's rows as before" s.db

# 4. A store with history: built once, then a fact changes (the next
# sweep closes and opens conflicts, moves rules' keys); the failed build
# takes all of it back, and the next good build sweeps as if it never ran.
fresh h.db
mirror build --store h.db --out hsite --quiet
expect_status "a store with history: its first build" 0
sql h.db "UPDATE project_state SET value = value || ' (revised)' WHERE rowid IN (SELECT rowid FROM project_state LIMIT 3)"
rows h.db >before.rows
(ulimit -f 2048; exec "$MIRROR" build --store h.db --out hsite \
    --theme ./big-theme) >"$T/out" 2>"$T/err"
RC=$?
expect_error "... a failed second build: exit 3, one line" 3 "File too large$"
same_rows "... the store's rows as before (conflicts, runs, rules' keys)" h.db
mirror build --store h.db --out hsite --quiet
expect "... the next build succeeds, one sweep run more" sh -c \
    "test $RC = 0 && test \"\$(sqlite3 h.db 'SELECT count(*) FROM sweep_runs')\" = 2"

# 5. A WAL store: the same.
fresh w.db
sqlite3 w.db 'PRAGMA journal_mode=WAL' >/dev/null
rows w.db >before.rows
PATH="$T/fails:$PATH" mirror build --store w.db --out wsite --repo s.git \
    --author "$author" --sign-key ci-key
expect "a WAL store, a signer failing at the commit: the rows as before" eval \
    'test "$RC" = 2 && test "$(rows w.db)" = "$(cat before.rows)"'

# 6. DIR's lock removed while its build held it (R4-9): build A signs
# slowly; meanwhile the lock file goes and build B takes DIR. A notices
# before it changes DIR: exit 3, one line; DIR is B's site; A's sweep
# is taken back; no lock file is left (A removes nothing of B's).
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
same_rows "... its store's rows as before" a.db
