#!/bin/sh
# make deb builds a Debian package (scripts/mkdeb.sh) that declares its
# dependencies, holds exactly the installed files owned by root, installs
# with dpkg -i, builds a site from its installed paths with the installed
# /usr/bin/mirror, and goes away entirely with dpkg -r. Installing needs
# root (or sudo without a password): without either this fails, it does
# not skip; so does the lintian case without lintian (installed if missing). The package is never left installed: a trap removes it.
. "$MIRROR_TOP/tests/e2e/lib.sh"
build=$(basename "$(dirname "$MIRROR")")
top=$MIRROR_TOP
pkg=mirror
version=$(sed -n 's/^VERSION *= *//p' "$top/Makefile")
arch=$(dpkg --print-architecture)
deb="$top/$build/${pkg}_${version}_${arch}.deb"

# --- the package ------------------------------------------------------------
make -s --no-print-directory -C "$top" deb BUILD="$build" >"$T/out" 2>"$T/err"
RC=$?
expect_status "make deb succeeds" 0
expect "make deb names the package it wrote" \
    test "$(tail -n 1 "$T/out")" = "$build/${pkg}_${version}_${arch}.deb"
expect "the package is $build/${pkg}_${version}_${arch}.deb" test -s "$deb"
[ -s "$deb" ] || exit 1

field() { dpkg-deb -f "$deb" "$1"; }
expect "Package is $pkg" test "$(field Package)" = "$pkg"
expect "Version is the Makefile's $version" test "$(field Version)" = "$version"
expect "Architecture is $arch" test "$(field Architecture)" = "$arch"
for lib in libgit2 libcmark-gfm0 libcmark-gfm-extensions libsqlite3 \
    libjansson libmicrohttpd libnettle libisal2 liburing2 libc6; do
	expect "Depends names $lib" sh -c "dpkg-deb -f '$deb' Depends |
	    tr ',' '\n' | grep -q '^ *$lib'"
done
expect "dpkg-deb -I reads the control file" sh -c "
    dpkg-deb -I '$deb' | grep -q '^ Description: '"

# The files: exactly these, every entry root/root.
{
	echo ./usr/bin/mirror
	echo ./usr/share/man/man1/mirror.1.gz
	echo "./usr/share/doc/$pkg/copyright"
	echo "./usr/share/doc/$pkg/changelog.gz"
	(cd "$top" && find templates themes -type f &&
	    { [ ! -d rules ] || find rules -maxdepth 1 -type f -name '*.sql'; }) |
	    sed 's|^|./usr/share/mirror/|'
} | LC_ALL=C sort >want
dpkg-deb -c "$deb" >listing
awk '$1 !~ /^d/ { print $6 }' listing | LC_ALL=C sort >got
expect "the package holds exactly the binary, man page, templates, themes, rules and doc" \
    cmp -s want got
[ -s got ] && ! cmp -s want got && diff want got | sed 's/^/# /'
awk '$1 ~ /^d/ { print $6 }' listing | grep -v -e '^\./$' -e '^\./usr/' >stray
expect "no directory outside /usr" test ! -s stray
expect "every entry is owned by root:root" sh -c \
    "test \"\$(awk '{ print \$2 }' listing | sort -u)\" = root/root"
expect "the binary is mode 755, other files 644" sh -c "
    awk '\$6 == \"./usr/bin/mirror\" && \$1 != \"-rwxr-xr-x\" { exit 1 }
         \$1 ~ /^-/ && \$6 != \"./usr/bin/mirror\" && \$1 != \"-rw-r--r--\" { exit 1 }' listing"

# Reproducible: SOURCE_DATE_EPOCH sets every mtime; two runs, same bytes.
SOURCE_DATE_EPOCH=1700000000 make -s --no-print-directory -C "$top" deb BUILD="$build" >/dev/null 2>&1
sum1=$(sha256sum <"$deb")
expect "SOURCE_DATE_EPOCH is every file's mtime" test \
    "$(dpkg-deb -c "$deb" | awk '{ print $4, $5 }' | sort -u)" = "2023-11-14 22:13"
SOURCE_DATE_EPOCH=1700000000 make -s --no-print-directory -C "$top" deb BUILD="$build" >/dev/null 2>&1
expect "two builds give the same bytes" test "$(sha256sum <"$deb")" = "$sum1"

# lintian is no build or test package of 'make deps' (it brings some 130
# packages): installed here when missing, as the browser tests install
# theirs; without it the case fails, it does not skip.
MIRROR_EXTRA_PKGS=lintian sh "$top/scripts/install-deps.sh" >lintian.out 2>&1
if command -v lintian >/dev/null 2>&1; then
	lintian "$deb" >lintian.out 2>&1
	expect "lintian reports no error" sh -c "! grep '^E:' lintian.out"
	sed 's/^/# lintian: /' lintian.out
else
	not_ok "lintian reports no error" "lintian is not installed and" \
	    "scripts/install-deps.sh could not install it: $(tail -1 lintian.out)"
fi

# --- install, use, remove ---------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then
	as_root=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	as_root="sudo -n"
else
	not_ok "dpkg -i needs root or password-less sudo" \
	    "run the suite as root (as CI does) or with sudo"
	exit 1
fi

installed() {
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
	    grep -q 'install ok installed'
}
if installed; then
	not_ok "a package '$pkg' is already installed" \
	    "this test installs and removes its own; remove yours first"
	exit 1
fi

# Other worktrees on this machine run this test too: one at a time.
exec 9>"${TMPDIR:-/tmp}/mirror-t_deb.lock"
flock 9

remove() {
	if installed; then
		$as_root dpkg -r "$pkg" >/dev/null 2>&1
	fi
}
trap 'remove; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

$as_root dpkg -i "$deb" >"$T/out" 2>"$T/err"
RC=$?
expect_status "dpkg -i installs the package" 0
expect "dpkg -s says it is installed" installed
expect "the installed /usr/bin/mirror runs" sh -c "
    /usr/bin/mirror --version | grep -q '^mirror $version'"
expect "the man page is installed gzipped" gzip -t /usr/share/man/man1/mirror.1.gz
expect "man finds the page" sh -c "
    man -aw mirror 2>/dev/null | grep -qx /usr/share/man/man1/mirror.1.gz"

MIRROR=/usr/bin/mirror
new_store s.db "$top/tests/data/tiny.sql" || not_ok "a store from tiny.sql"
mirror build --store s.db --out site --quiet
expect_status "the installed mirror builds a site from its installed paths" 0
expect "the site's pages exist" sh -c "
    test -s site/index.html && test -s site/index.md &&
    test -s site/projects/p05-interferometer/index.html"
# The build appends the column labels of the templates' tables to the
# theme's stylesheet (doc/site.md): the installed one comes first, whole.
css=/usr/share/mirror/themes/default/assets/style.css
expect "the default theme's CSS is the installed one, then the tables' labels" sh -c "
    head -c \$(wc -c < $css) site/assets/style.css | cmp -s - $css &&
    tail -c +\$((\$(wc -c < $css) + 1)) site/assets/style.css | grep -q '^@media'"

$as_root dpkg -r "$pkg" >"$T/out" 2>"$T/err"
RC=$?
expect_status "dpkg -r removes the package" 0
expect "dpkg -s says it is not installed" sh -c "! dpkg -s $pkg >/dev/null 2>&1"
expect "/usr/bin/mirror is gone" test ! -e /usr/bin/mirror
expect "/usr/share/mirror is gone" test ! -e /usr/share/mirror
expect "the man page is gone" test ! -e /usr/share/man/man1/mirror.1.gz
expect "/usr/share/doc/$pkg is gone" test ! -e "/usr/share/doc/$pkg"
