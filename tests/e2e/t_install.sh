#!/bin/sh
# make install puts the binary, the man page, templates and themes under
# DESTDIR/PREFIX, and the installed binary runs.
# The promises of doc/reliability.md, "make install and uninstall paths".
. "$MIRROR_TOP/tests/e2e/lib.sh"
build=$(basename "$(dirname "$MIRROR")")

make -s -C "$MIRROR_TOP" install BUILD="$build" PREFIX=/usr \
    DESTDIR="$T/root" >"$T/out" 2>"$T/err"
RC=$?
expect_status "make install succeeds" 0
expect "the binary is installed and runs" sh -c "'$T/root/usr/bin/mirror' --version | grep -q '^mirror '"
expect "the man page is installed" test -s "$T/root/usr/share/man/man1/mirror.1"
expect "the man page formats without warnings" sh -c "! man --warnings -l '$T/root/usr/share/man/man1/mirror.1' 2>&1 >/dev/null | grep -q ."
expect "templates and themes are installed" sh -c "test -d '$T/root/usr/share/mirror/templates' && test -d '$T/root/usr/share/mirror/themes'"

# A relocatable install: make install PREFIX=dir after a plain make gives a
# mirror that finds its templates and themes in dir/share/mirror, and the
# tree still works after 'mv dir elsewhere'. A marker added to the
# installed index template proves the pages came from the installed copy,
# not from this checkout or a compiled-in path.
make -s -C "$MIRROR_TOP" install BUILD="$build" PREFIX="$T/pfx" \
    >"$T/out" 2>"$T/err"
RC=$?
expect_status "make install PREFIX=dir succeeds" 0
echo 'installed-template-marker' >>"$T/pfx/share/mirror/templates/index.md"
new_store "$T/s.db" "$MIRROR_TOP/tests/data/tiny.sql" || echo "not ok - tiny store"
"$T/pfx/bin/mirror" build --store "$T/s.db" --out "$T/site1" >"$T/out" 2>"$T/err"
RC=$?
expect_status "the installed mirror builds a site" 0
expect "its pages come from the installed templates" grep -q installed-template-marker "$T/site1/index.md"
expect "its theme comes from the installed themes" sh -c "ls '$T/site1' | grep -q . && find '$T/site1' -name '*.css' | grep -q ."
mv "$T/pfx" "$T/moved"
"$T/moved/bin/mirror" build --store "$T/s.db" --out "$T/site2" >"$T/out" 2>"$T/err"
RC=$?
expect_status "the moved install still builds a site" 0
expect "the moved install uses its own templates" grep -q installed-template-marker "$T/site2/index.md"
expect "the moved install's site equals the first" diff -r "$T/site1" "$T/site2"
ln -s "$T/moved/bin/mirror" "$T/mirror-link"
"$T/mirror-link" build --store "$T/s.db" --out "$T/site3" --force >"$T/out" 2>"$T/err"
RC=$?
expect "a symlink to the installed binary finds the same templates" sh -c "[ $RC = 0 ] && grep -q installed-template-marker '$T/site3/index.md'"

# Paths make install and uninstall must quote (issue 55, L9). A PREFIX
# with a space is one path: installed there, nothing made in the source
# tree, and uninstalled again. make uninstall with PREFIX "DIR/todo.txt
# backup" must not take "DIR/todo.txt" for a path of its own (a decoy
# file there survives). What quoting cannot hold (a quote, a backslash,
# a backtick, a newline, a '$' make would expand, a relative path) is
# refused before anything runs, naming the variable, with DIR and the
# source tree untouched.
mkdir "$T/h"
echo 'precious' >"$T/h/todo.txt"
# src_state: the source tree as far as an install could change it: what
# git sees, and the names at its top (git shows no empty directory).
src_state() {
	git -C "$MIRROR_TOP" status --porcelain
	ls -A "$MIRROR_TOP"
}
src_before=$(src_state)
make -s -C "$MIRROR_TOP" install BUILD="$build" PREFIX="$T/h/a b" \
    >"$T/out" 2>"$T/err"
RC=$?
same_src=0
[ "$(src_state)" = "$src_before" ] && same_src=1
expect "make install PREFIX='DIR/a b' installs under that path, nothing in the source tree" sh -c \
    "[ $RC = 0 ] && '$T/h/a b/bin/mirror' --version | grep -q '^mirror ' &&
    test -s '$T/h/a b/share/man/man1/mirror.1' &&
    test -d '$T/h/a b/share/mirror/templates' && [ $same_src = 1 ]"
make -s -C "$MIRROR_TOP" uninstall BUILD="$build" PREFIX="$T/h/todo.txt backup" \
    >"$T/out" 2>"$T/err"
RC=$?
expect "make uninstall PREFIX='DIR/todo.txt backup' leaves DIR/todo.txt" sh -c \
    "[ $RC = 0 ] && grep -qx precious '$T/h/todo.txt'"
make -s -C "$MIRROR_TOP" uninstall BUILD="$build" PREFIX="$T/h/a b" \
    >"$T/out" 2>"$T/err"
RC=$?
expect "make uninstall PREFIX='DIR/a b' removes what was installed" sh -c \
    "[ $RC = 0 ] && [ ! -e '$T/h/a b/bin/mirror' ] &&
    [ ! -e '$T/h/a b/share/man/man1/mirror.1' ] &&
    [ ! -e '$T/h/a b/share/mirror' ] && grep -qx precious '$T/h/todo.txt'"

# refused VAR VALUE REASON [GOAL]: make GOAL (install) VAR=VALUE exits
# non-zero naming VAR and REASON, and touches nothing: $T/h, the source
# tree, no file named pwned anywhere the value could make one.
rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
    "$T/h/rel" "$MIRROR_TOP")
refused() {
	h_before=$(state "$T/h")
	make -s -C "$MIRROR_TOP" "${4:-install}" BUILD="$build" "$1=$2" \
	    >"$T/out" 2>"$T/err"
	RC=$?
	why=""
	[ "$RC" -ne 0 ] || why="$why; exit 0"
	grep -q "$1 $3: make install and uninstall quote every path" "$T/err" ||
	    why="$why; stderr: $(head -c 300 "$T/err")"
	[ "$(state "$T/h")" = "$h_before" ] || why="$why; $T/h changed"
	[ "$(src_state)" = "$src_before" ] ||
	    why="$why; the source tree changed"
	[ ! -e "$T/pwned" ] && [ ! -e "$MIRROR_TOP/pwned" ] ||
	    why="$why; a command in the value ran"
	name="make ${4:-install} $1 that $(printf %s "$3" | tr -d \\\\) is refused, nothing touched"
	if [ -z "$why" ]; then ok "$name"; else not_ok "$name" "${why#; }"; fi
}
refused PREFIX "$T/h/it's" "holds a single quote"
refused PREFIX "$T/h/q\"x" "holds a double quote"
refused PREFIX "$T/h/b\\s" "holds a backslash"
refused PREFIX "$T/h/\`touch $T/pwned\`" "holds a backtick"
refused PREFIX "$T/h/a
b" "holds a newline"
refused PREFIX "$T/h/\$HOME" "holds a '\\\$' (make would expand it)"
refused PREFIX "$T/h/\$(shell touch $T/pwned)" "holds a '\\\$' (make would expand it)" uninstall
refused PREFIX "$rel" "is not an absolute path"
refused DESTDIR "$rel" "is not an absolute path"
refused BINDIR "$T/h/x'y" "holds a single quote"
