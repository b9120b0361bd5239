#!/bin/sh
# What mirror prints to a terminal (issue 55, L4 L5 L8 D8): no control
# character from data ever reaches it. Every error, warning, report and
# text output line goes through one sanitiser (sys/termtext.h) that
# shows C0 controls, DEL, C1 controls and bytes that are not UTF-8 as
# \xNN; --json output is JSON-escaped and left alone. Free text that
# ends up in the store (--actor, --notes, --reason) is refused with a
# control character in it; SOURCE_DATE_EPOCH is read strictly; a WAL
# store in a directory mirror cannot write says why and what to do.
# The promises of doc/reliability.md, "The terminal".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000

esc=$(printf '\033')
bel=$(printf '\007')
c1=$(printf '\302\233')          # U+009B, CSI as a C1 control

# clean FILE: FILE holds no C0 control but newline, no DEL, no C1
# control and no byte that is not UTF-8.
clean() {
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
try:
    t = b.decode('utf-8')
except UnicodeDecodeError:
    sys.exit(1)
sys.exit(any((ord(c) < 0x20 and c != '\n') or 0x7f <= ord(c) <= 0x9f
             for c in t))
PY
}

new_store base.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
"$MIRROR" sweep --store base.db --quiet || exit 1
cid=$(sql base.db "SELECT id FROM conflicts ORDER BY id LIMIT 1")
[ -n "$cid" ] || { not_ok "the base store has a conflict"; exit 1; }

# ---- L4: errors carry store text, escaped ------------------------------
cp base.db e.db
sql e.db "INSERT INTO entities(id, entity_type, name, project, properties)
    VALUES(char(27) || ']0;PWNED' || char(7) || char(10) || 'x', 't', 'n',
    (SELECT id FROM projects LIMIT 1), '{bad')"
mirror build --store e.db --out site
# (mirror_fail keeps every error one line: a newline is a blank in it.)
expect_error "an error naming a row id with ESC, BEL, a newline: one line" 2 \
    "entities row '.x1b\]0;PWNED.x07 x': properties is not valid JSON"
expect "that error line holds no control character" clean "$T/err"

mirror conflicts show "${esc}]0;PWNED${bel}" --store base.db
expect_error "an argument with ESC and BEL is shown escaped" 2 \
    "no conflict '.x1b\]0;PWNED.x07'"
expect "that error line holds no control character" clean "$T/err"

cp base.db c1.db
sql c1.db "UPDATE entities SET properties = '{bad', id = 'c1' || char(155) ||
    'x' WHERE rowid = (SELECT min(rowid) FROM entities)"
mirror build --store c1.db --out site
expect_error "a C1 control (U+009B) is shown as its bytes escaped" 2 \
    "entities row 'c1.xc2.x9bx'"

# ---- L4: text output of store rows -------------------------------------
cp base.db r.db
sql r.db "UPDATE conflicts SET status = 'resolved', resolved_at =
    '2023-11-14 22:13:20', resolved_by = 'eve' || char(10) ||
    'mirror: forged line', resolution = 'ok' || char(27) || '[2J' ||
    char(155) || 'x', project = 'p' || char(27) || '[31m' WHERE id = '$cid'"
mirror conflicts show "$cid" --store r.db --json
cp "$T/out" show.json
mirror conflicts show "$cid" --store r.db
expect "show of hostile store text succeeds, no control character in it" \
    eval '[ "$RC" = 0 ] && clean "$T/out"'
expect "show keeps the resolver on one line, escaped" \
    out_has "^resolved at 2023-11-14 22:13:20 by eve.x0amirror: forged line: ok.x1b\[2J.xc2.x9bx$"
expect "--json of it is left alone: the exact store text, JSON-escaped" \
    eval 'out_has "^project:   p.x1b\[31m$" && python3 -c "import json, sys
c = json.load(open(\"show.json\"))
sys.exit(c[\"resolved_by\"] != \"eve\nmirror: forged line\" or
    c[\"resolution\"] != \"ok\x1b[2J\x9bx\" or c[\"project\"] != \"p\x1b[31m\")"'
mirror conflicts list --store r.db
expect "list prints no control character from the store" \
    eval 'clean "$T/out" && out_has "resolved +cross_layer +p.x1b\[31m"'

cp base.db h.db
sql h.db "UPDATE entities SET status = 'active' || char(27) || ']0;T' ||
    char(7) WHERE rowid = (SELECT min(rowid) FROM entities)"
mirror health --store h.db
expect "health prints a status with ESC and BEL escaped" \
    eval "clean '$T/out' && out_has 'active.x1b\]0;T.x07'"

# ---- L5: free text recorded in the store refuses control characters ----
nl='
'
cp base.db a.db
cp a.db a.ref
mirror conflicts dismiss "$cid" --store a.db --reason ok --actor "a${nl}b"
expect_error "--actor with a newline is a usage error naming it" 1 \
    "--actor: 'a.x0ab' holds a control character"
mirror conflicts resolve "$cid" --store a.db --notes "ok${esc}[2J"
expect_error "--notes with ESC is a usage error naming it" 1 \
    "--notes: 'ok.x1b\[2J' holds a control character"
mirror conflicts dismiss "$cid" --store a.db --reason "tab$(printf '\t')x"
expect_error "--reason with a tab is a usage error naming it" 1 \
    "--reason: 'tab.x09x' holds a control character"
user=${USER-}
export USER="eve${bel}"
mirror conflicts dismiss "$cid" --store a.db --reason ok
USER=$user
expect_error "a \$USER with BEL (the default --actor) is refused, named" 1 \
    "environment variable USER .*'eve.x07' holds a control character"
expect "the refused commands left the store byte-identical" \
    eval '[ "$(fingerprint a.db)" = "$(fingerprint a.ref)" ]'
git init -q --bare repo.git
mirror build --store base.db --out asite --repo repo.git \
    --author "Eve${c1} <eve@example.org>"
expect_error "--author with a C1 control is refused" 1 \
    "--author: a control character or a byte that is not UTF-8"

# ---- L8: SOURCE_DATE_EPOCH is read strictly, as the tunables are -------
for v in ' 12' '+12' '12 ' "$(printf '\t')12"; do
	SOURCE_DATE_EPOCH=$v
	mirror health --store base.db
	expect_error "SOURCE_DATE_EPOCH='$v' is refused, exit 1, naming it" 1 \
	    "environment variable SOURCE_DATE_EPOCH='.*12.*' is not a whole number of seconds since 1970 from 0 to 253402300799$"
done
SOURCE_DATE_EPOCH=1700000000
mirror conflicts dismiss "$cid" --store a.db --reason ok --actor 'Zoë'
expect "a good SOURCE_DATE_EPOCH and a UTF-8 --actor still record" \
    eval '[ "$RC" = 0 ] && [ "$(sql a.db "SELECT resolved_by || resolved_at FROM conflicts WHERE id = '"'$cid'"'")" = "Zoë2023-11-14 22:13:20" ]'

# ---- D8: a WAL store that cannot create its -wal and -shm ---------------
# Root writes the store into a directory of its own; nobody may read the
# store but not create files beside it.
mkdir w
cp base.db w/s.db
sql w/s.db "PRAGMA journal_mode=WAL" >/dev/null
chmod 755 w
chmod 644 w/s.db
wal_dir="a WAL-mode store needs to create w/s.db-wal and w/s.db-shm beside it, and w is not writable by this user; give this user write access to w"
as_nobody health --store w/s.db
expect_error "WAL store, directory not writable: health says why and what to do, exit 3" 3 \
    "store w/s.db: $wal_dir, or convert it once with sqlite3 w/s.db 'PRAGMA journal_mode=DELETE' as its owner$"
as_nobody conflicts list --store w/s.db
rc_list=$RC
cp "$T/err" list.err
sql w/s.db "PRAGMA journal_mode=DELETE" >/dev/null
as_nobody conflicts list --store w/s.db
expect "conflicts list says the same; converted as it says, nobody reads it" \
    eval '[ "$rc_list" = 3 ] && grep -q "$wal_dir, or convert" list.err && [ "$RC" = 0 ]'
sql w/s.db "PRAGMA journal_mode=WAL" >/dev/null
chmod 666 w/s.db
as_nobody sweep --store w/s.db
expect_error "a sweep (which writes) asks for write access to the directory only" 3 \
    "store w/s.db: $wal_dir$"

# A read-only mount, in a mount namespace of its own (needs root's
# CAP_SYS_ADMIN, as as_nobody needs root).
cat >rofs.sh <<SH
mkdir -p m && mount -t tmpfs tmpfs m || exit 99
cp base.db m/wal.db && cp base.db m/del.db &&
    sqlite3 m/wal.db 'PRAGMA journal_mode=WAL' >/dev/null &&
    mount -o remount,ro m || exit 99
"$MIRROR" health --store m/wal.db >wal.out 2>wal.err
echo \$? >wal.rc
"$MIRROR" health --store m/del.db >del.out 2>del.err
echo \$? >del.rc
SH
unshare -m sh rofs.sh
RC=$(cat wal.rc 2>/dev/null)
cp wal.err "$T/err" 2>/dev/null
expect "WAL store on a read-only file system: exit 3, one line saying why and what to do; a rollback-journal store there just reads" \
    eval '[ "$RC" = 3 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -qx "mirror: store m/wal.db: a WAL-mode store needs to create m/wal.db-wal and m/wal.db-shm beside it, and m is on a read-only file system; convert it once with sqlite3 m/wal.db '"'PRAGMA journal_mode=DELETE'"' where it is writable, or copy it to a writable directory" "$T/err" &&
    [ "$(cat del.rc)" = 0 ] && [ ! -s del.err ]'
