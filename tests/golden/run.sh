#!/bin/sh
# The golden site, made the way a user makes one, into DIR:
#
#   sh tests/golden/run.sh MIRROR DIR
#
# Day 1 (2026-11-01): a store from store.sql, a bare history repository,
# 'mirror build --repo' (it sweeps: the conflicts are recorded), then a
# reviewer resolves one conflict with a winner, one without and dismisses
# a third. Day 2: edits.sql changes the store and a second build sweeps
# again (closing, opening and joining conflicts) and commits. DIR ends up
# with store.db, history.git, the site of the second build in site/ and
# history.txt (the branch's commits: ids, trees and messages).
#
# Everything the output depends on is fixed here: the clock
# (SOURCE_DATE_EPOCH), TZ, locale, title, base URL, author, actors. The
# number of threads (MIRROR_JOBS) is left as the caller sets it: the
# output must not depend on it. 'make golden' copies site/ and
# history.txt into tests/golden/; tests/e2e/t_golden.sh compares them.
set -eu
mirror=${1:?usage: run.sh MIRROR DIR}
dir=${2:?usage: run.sh MIRROR DIR}
here=$(cd "$(dirname "$0")" && pwd)
case $mirror in /*) ;; *) mirror=$(pwd)/$mirror ;; esac
export TZ=UTC LC_ALL=C.UTF-8 LANG=C.UTF-8 GIT_CONFIG_NOSYSTEM=1
unset SOURCE_DATE_EPOCH XDG_CONFIG_HOME
mkdir -p "$dir"
cd "$dir"   # no mirror.ini here: every option is on the command line
export HOME="$PWD"   # and no user's git config
rm -rf store.db store.db-wal store.db-shm history.git site history.txt

day1=1793491200   # 2026-11-01 00:00:00 UTC
review=1793494800 # 2026-11-01 01:00:00 UTC
day2=1793577600   # 2026-11-02 00:00:00 UTC

# mirror ARGS: the binary, under $MIRROR_WRAP when make memcheck sets it.
m() { ${MIRROR_WRAP:-} "$mirror" "$@"; }

build() {
	export SOURCE_DATE_EPOCH="$1"
	m build --store store.db --out site \
	    --repo history.git --author 'Golden Mirror <golden@example.org>' \
	    --title 'Golden <pages> & “mirror” | `test`' \
	    --base-url 'https://golden.example.org/sub/' --quiet
	unset SOURCE_DATE_EPOCH
}

# The open conflict that a fact belongs to.
conflict_of() {
	sqlite3 -bail store.db "SELECT c.id FROM conflicts AS c
	    JOIN conflict_members AS m ON m.conflict_id = c.id
	    WHERE c.status = 'open' AND m.member_id = '$1'"
}

m init --store store.db --quiet
sqlite3 -bail store.db <"$here/store.sql"
git init --bare -q history.git
build $day1

screws=$(conflict_of e-g1-con-screws-8)
modes=$(conflict_of e-g1-res-mode-a)
claims=$(conflict_of e-g1-vc-pass)
export SOURCE_DATE_EPOCH=$review
m conflicts resolve "$screws" --store store.db --quiet \
    --winner e-g1-con-screws-10 --actor alice \
    --notes 'the FEA review wins | `10` screws <even preload>'
m conflicts resolve "$modes" --store store.db --quiet --actor bob \
    --notes 'both runs stand: run 2 models the struts'
m conflicts dismiss "$claims" --store store.db --quiet \
    --actor 'Zoë Ünal' --reason 'different set-ups, *not* comparable'
unset SOURCE_DATE_EPOCH

sqlite3 -bail store.db <"$here/edits.sql"
build $day2

git --git-dir=history.git log --format='commit %H%ntree %T%nauthor %an <%ae> %ad%n%n%B' \
    --date=iso-strict-local mirror | sed '${/^$/d;}' >history.txt
