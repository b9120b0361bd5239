#!/bin/sh
# mkdeb.sh BUILD: a Debian binary package of what 'make install' puts
# under PREFIX=/usr, from the binary BUILD/mirror (make deb calls this).
#
#   BUILD/deb/root/                          the staging tree (DESTDIR)
#   BUILD/<package>_<version>_<arch>.deb     the package
#
# Contents: /usr/bin/mirror (stripped unless DEB_BUILD_OPTIONS has
# nostrip), /usr/share/man/man1/mirror.1.gz, /usr/share/mirror/{templates,
# themes}, /usr/share/doc/<package>/{copyright,changelog.gz}.
#
# Environment (make deb sets the first two from the Makefile):
#   PACKAGE             the package name (default mirror)
#   VERSION             the version (default: VERSION in the Makefile)
#   DEB_MAINTAINER      the Maintainer field
#   SOURCE_DATE_EPOCH   every file's mtime and the changelog date
#                       (default: the time of the last git commit)
#
# Depends comes from dpkg-shlibdeps (package dpkg-dev) when it is there,
# else from the list of runtime library packages below. The package is
# reproducible: files owned by root:root, fixed modes and mtimes, sorted
# entries; two runs on the same tree give the same bytes.
set -eu

BUILD=${1:?usage: scripts/mkdeb.sh BUILD}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
umask 022

# Runtime libraries of a plain build on Debian 12 (bookworm), used when
# dpkg-shlibdeps is not installed: dpkg -S of what 'ldd BUILD/mirror'
# names directly, libgit2-1.5, which mirror opens (its own dependencies
# come with it), and libmicrohttpd12, which mirror serve opens.
fallback_depends="libc6, libcmark-gfm0.29.0.gfm.6,
 libcmark-gfm-extensions0.29.0.gfm.6, libgit2-1.5, libjansson4,
 libisal2, libmicrohttpd12, libnettle8, libsqlite3-0, liburing2"

die() {
	echo "mkdeb: $*" >&2
	exit 1
}

for tool in dpkg-deb dpkg gzip md5sum; do
	command -v "$tool" >/dev/null 2>&1 ||
	    die "$tool is missing (install the Debian package dpkg)"
done
[ -x "$BUILD/mirror" ] || die "$BUILD/mirror is missing (run make first)"

package=${PACKAGE:-mirror}
version=${VERSION:-$(sed -n 's/^VERSION *= *//p' Makefile)}
[ -n "$version" ] || die "no VERSION in the Makefile"
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-Human Mirror maintainers <maintainers@mirror.invalid>}
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null) ||
	    die "set SOURCE_DATE_EPOCH (no git history to take a time from)"
fi
case $SOURCE_DATE_EPOCH in
''|*[!0-9]*) die "SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a number" ;;
esac
export SOURCE_DATE_EPOCH

work="$BUILD/deb"
root="$work/root"
deb="$BUILD/${package}_${version}_${arch}.deb"
rm -rf "$work" "$deb"
mkdir -p "$work"
root=$(cd "$work" && pwd)/root

# The tree make install writes, then what Debian asks of it.
${MAKE:-make} -s --no-print-directory -C "$top" install BUILD="$BUILD" \
    PREFIX=/usr DESTDIR="$root" >/dev/null
[ -x "$root/usr/bin/mirror" ] || die "make install wrote no usr/bin/mirror"
case " ${DEB_BUILD_OPTIONS:-} " in
*" nostrip "*) ;;
*) command -v strip >/dev/null 2>&1 || die "strip is missing (binutils)"
   strip --strip-unneeded --remove-section=.comment "$root/usr/bin/mirror" ;;
esac
gzip -9n "$root/usr/share/man/man1/mirror.1"

doc="$root/usr/share/doc/$package"
mkdir -p "$doc"
{
	echo "$package $version"
	echo
	echo "Copyright: the mirror authors."
	echo
	if [ -f LICENSE ]; then
		cat LICENSE
	else
		echo "The source tree this package was built from has no"
		echo "LICENSE file."
	fi
} >"$doc/copyright"
date=$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH" '+%a, %d %b %Y %H:%M:%S +0000')
{
	echo "$package ($version) unstable; urgency=medium"
	echo
	echo "  * Built from the source tree by make deb (scripts/mkdeb.sh)."
	echo
	echo " -- $maintainer  $date"
} >"$doc/changelog"
gzip -9n "$doc/changelog"

depends=""
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
	# dpkg-shlibdeps wants a debian/control naming the package.
	mkdir -p "$work/src/debian"
	printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' \
	    "$package" "$package" >"$work/src/debian/control"
	depends=$(cd "$work/src" &&
	    dpkg-shlibdeps -O "-e$root/usr/bin/mirror" 2>/dev/null |
	    sed -n 's/^shlibs:Depends=//p')
fi
# mirror opens libgit2 (gen/gitlib/gitlib.c) and mirror serve
# libmicrohttpd (gen/serve/mhd.c) itself (dlopen), which dpkg-shlibdeps
# cannot see: their packages are named here.
if [ -n "$depends" ]; then
	depends="$depends, libgit2-1.5, libmicrohttpd12"
else
	depends=$fallback_depends
fi
depends=$(echo "$depends" | tr '\n' ' ' | sed 's/  */ /g; s/ *$//')

# Fixed modes, then the control files, then fixed mtimes.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root/usr/bin/mirror"
size=$(du -s -k --apparent-size "$root/usr" | cut -f1)
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: $package
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Suggests: openssh-client
Section: utils
Priority: optional
Description: static site generator for a project fact store
 mirror reads a SQLite fact store, records contradictions between facts
 as conflicts for review, renders Markdown and HTML pages with their
 history, and commits the site to a git branch.
EOF
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z |
    xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
