#!/bin/sh
# Where the store may live (doc/store.md, "Where the store may live"):
# every file mirror reads of its own (the templates and the theme, which
# a build also hashes whole; the rules; the config file; the entries of
# its cache) is looked at before it is opened, and when it is the store
# (by device and inode, or by name beside it: -journal, -wal, -shm) the
# run stops with exit 2 and one line naming the file, before mirror
# opens it. Opening and closing the store by itself drops every lock
# the process holds on it (SQLite's "How To Corrupt", 2.2): a store in
# --templates, hashed while the build read it, let an outside writer in
# and was "malformed" in 2 builds of 77. Each case runs with the store
# guard preloaded (tests/tools/storeguard.c), which notes any open or
# close of the store's files outside libsqlite3; each ends with
# PRAGMA integrity_check. And the cache is never followed through a
# symbolic link: XDG_CACHE_HOME/mirror -> /etc made a root build write
# /etc/stores/.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
AUTHOR='Places Test <places@example.org>'
GUARD=$(dirname "$MIRROR")/tests/storeguard.so
# The shim is loaded before a sanitized binary's runtime, which ASan
# refuses unless told not to check the order.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

new_store base.db || exit 1
{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES(300);"
  cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
    sqlite3 -bail base.db >/dev/null || exit 1

# place DB MODE: a copy of base.db at DB (its directory made), in
# journal mode MODE (delete: a rollback journal; wal).
place() {
	mkdir -p "$(dirname "$1")" &&
	cp base.db "$1" &&
	sqlite3 "$1" "PRAGMA journal_mode = $2" >/dev/null
}

# guarded_build STORE ARGS...: mirror build --store STORE ARGS, the
# guard noting in $T/guard.log any open or close of STORE's files
# outside SQLite.
guarded_build() {
	g_store=$1
	shift
	: >"$T/guard.log"
	MIRROR_GUARD_STORE="$T/$g_store" MIRROR_GUARD_LOG="$T/guard.log" \
	    LD_PRELOAD="$GUARD" mirror build --store "$g_store" "$@"
}

# refused NAME STORE FILE: the last build exited 2 with one line naming
# FILE (a grep -E pattern) as the store STORE; the guard saw mirror
# open none of the store's files; the store is whole.
refused() {
	expect_error "$1" 2 "$3: this is the store \(--store $2\); keep the store outside"
	expect "... mirror never opened or closed the store's files itself" \
	    test ! -s guard.log
	expect "... and the store is whole" integrity_ok "$2"
}

# clean NAME STORE: the last build succeeded, nothing on stderr, the
# guard silent, the store whole.
clean() {
	if [ "$RC" = 0 ] && [ ! -s err ] && [ ! -s guard.log ] &&
	    integrity_ok "$2"; then
		ok "$1"
	else
		not_ok "$1" "expected exit 0, no stderr, guard silent, store ok" \
		    "guard: $(head -2 guard.log 2>/dev/null)"
	fi
}

# --- 1. The templates: hashed whole by every build --------------------------
for mode in delete wal; do
	place "t-$mode/s.db" "$mode"
	guarded_build "t-$mode/s.db" --out "site-t-$mode" --templates "t-$mode"
	refused "a store in --templates ($mode journal) is refused, named" \
	    "t-$mode/s.db" "templates t-$mode/s\.db"
done
place tsub/deep/s.db delete
guarded_build tsub/deep/s.db --out site-tsub --templates tsub --no-sweep
refused "... in a directory below the templates too (--no-sweep)" \
    tsub/deep/s.db "templates tsub/deep/s\.db"

# --- 2. The theme: hashed whole, its assets/ copied into the site ----------
cp -R "$MIRROR_TOP/themes/default" th
place th/s.db delete
guarded_build th/s.db --out site-th --theme ./th
refused "a store in the --theme directory is refused, named" th/s.db \
    "theme \./th/s\.db"
cp -R "$MIRROR_TOP/themes/default" tha
place tha/assets/s.db wal
guarded_build tha/assets/s.db --out site-tha --theme ./tha
refused "a store among the theme's assets (wal journal) is refused" \
    tha/assets/s.db "theme \./tha/assets/s\.db"
expect "... and never published as an asset" test ! -e site-tha/assets/s.db

# --- 3. The rules: each *.sql file read -------------------------------------
place r/facts.sql delete
guarded_build r/facts.sql --out site-r --rules r
refused "a store named as a rule file in --rules is refused" r/facts.sql \
    "rules r/facts\.sql"
place r2/s.db wal
guarded_build r2/s.db --out site-r2 --rules r2
clean "a store in --rules that no rule file names builds cleanly" r2/s.db

# --- 4. The config file and its directory -----------------------------------
place c1/s.db delete
guarded_build c1/s.db --out site-c1 --config c1/s.db
refused "a --config that is the store is refused, before it is read" \
    c1/s.db "config c1/s\.db"
place c2/s.db delete
printf 'store = s.db\ntemplates = .\n' >c2/mirror.ini
: >guard.log
MIRROR_GUARD_STORE="$T/c2/s.db" MIRROR_GUARD_LOG="$T/guard.log" \
    LD_PRELOAD="$GUARD" mirror build --config c2/mirror.ini --out site-c2
refused "a config naming its own directory as the templates, the store in it" \
    c2/s.db "templates c2/\./s\.db"
place c3/s.db wal
printf 'store = s.db\n' >c3/mirror.ini
: >guard.log
MIRROR_GUARD_STORE="$T/c3/s.db" MIRROR_GUARD_LOG="$T/guard.log" \
    LD_PRELOAD="$GUARD" mirror build --config c3/mirror.ini --out site-c3
clean "a store beside its config builds cleanly" c3/s.db

# --- 5. The cache ------------------------------------------------------------
# A branch tip's memo is <cache>/tips/<hash of the repository and
# branch>: a store kept at that name was read as the memo, and the memo
# then renamed over it.
export MIRROR_CACHE_DIR="$T/cache5"
git init -q --bare r5.git
place s5.db delete
mirror build --store s5.db --out site5 --repo r5.git --author "$AUTHOR" \
    --quiet
tip=$(ls cache5/tips 2>/dev/null | head -1)
if [ -n "$tip" ] && cp s5.db "cache5/tips/$tip"; then
	guarded_build "cache5/tips/$tip" --out site5 --repo r5.git \
	    --author "$AUTHOR"
	clean "a store at a cache entry's name is never read as the entry" \
	    "cache5/tips/$tip"
	expect "... nor replaced by the memo" \
	    test "$(fingerprint "cache5/tips/$tip")" = "$(fingerprint s5.db)"
else
	not_ok "a store at a cache entry's name: no tips memo was kept"
	not_ok "... nor replaced by the memo"
fi
place cache5/s.db wal
guarded_build cache5/s.db --out site5b
clean "a store elsewhere in the cache directory builds cleanly" cache5/s.db

# --- 6. The cache is never followed through a symbolic link -----------------
unset MIRROR_CACHE_DIR
place s6.db delete
mkdir xdg elsewhere
ln -s "$T/elsewhere" xdg/mirror
XDG_CACHE_HOME="$T/xdg" mirror build --store s6.db --out site6 --quiet
expect "XDG_CACHE_HOME/mirror a symbolic link: the build succeeds" \
    test "$RC" = 0
expect "... writes nothing where the link points" \
    test -z "$(ls -A elsewhere)"
expect "... and says once that the cache is not used" \
    test "$(grep -c 'warning: cache .*xdg/mirror: a symbolic link' err)" = 1
mkdir cache6 elsewhere6
ln -s "$T/elsewhere6" cache6/stores
MIRROR_CACHE_DIR="$T/cache6" mirror build --store s6.db --out site6b --quiet
expect "a kind's directory in the cache a symbolic link: nothing written there" \
    test "$RC" = 0 -a -z "$(ls -A elsewhere6)"
rm xdg/mirror
XDG_CACHE_HOME="$T/xdg" mirror build --store s6.db --out site6c --quiet
expect "a real XDG_CACHE_HOME/mirror is used, made 0700" \
    test "$RC" = 0 -a -n "$(ls -A xdg/mirror/stores 2>/dev/null)" -a \
    "$(stat -c %a xdg/mirror)" = 700
