#!/bin/sh
# make install puts the binary, the man page, templates and themes under
# DESTDIR/PREFIX, and the installed binary runs.
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
