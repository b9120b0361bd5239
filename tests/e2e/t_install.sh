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
