#!/bin/sh
# Install the Debian packages mirror needs to build and test, when missing.
#   sh scripts/install-deps.sh [--yes]
# A no-op when everything is present. When something is missing it
# installs (apt-get as root, else through sudo) at once with --yes (make
# deps, make example) or CI set (CI=true, as CI services and .ci/run set
# it). Otherwise (make test) it first names the missing packages and the
# command that installs them; then on a terminal it asks y/N, so a
# developer's machine changes only when its owner says so; with no
# terminal to ask (a script, a fresh machine's first run) it installs,
# because make test must run on a fresh Debian machine.
set -eu

pkgs="gcc make pkg-config git sqlite3 libsqlite3-dev libcmark-gfm-dev
libcmark-gfm-extensions-dev libgit2-dev libjansson-dev nettle-dev libisal-dev
libjemalloc-dev liburing-dev libcmocka-dev zlib1g-dev
libmicrohttpd-dev jq man-db w3m python3-yaml openssh-client curl
python3-jsonschema libxml2-utils strace
clang libclang-rt-dev"
# strace: t_serve.sh counts an idle server's system calls. clang and its
# sanitizer runtime: tests/e2e/t_fuzz_build.sh runs make fuzz-build, so
# the harnesses cannot rot unbuilt. On Debian 12 they add 16 packages
# (libllvm14 the most), about 55 MB to download and 315 MB installed.
# Packages for optional tooling (browser test, HTML validator, benchmarks)
# are listed by the scripts that need them, through MIRROR_EXTRA_PKGS.
pkgs="$pkgs ${MIRROR_EXTRA_PKGS:-}"

yes=""
case "${1:-}" in
--yes) yes=1 ;;
"") ;;
*) echo "usage: sh scripts/install-deps.sh [--yes]" >&2; exit 2 ;;
esac
case "${CI:-}" in
"" | false | 0) ;;
*) yes=1 ;;
esac

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ -z "$yes" ]; then
	cmd="make deps"
	[ -z "${MIRROR_EXTRA_PKGS:-}" ] ||
		cmd="MIRROR_EXTRA_PKGS='$(echo $MIRROR_EXTRA_PKGS)' make deps"
	echo "install-deps: missing Debian packages:$missing;" \
	    "'$cmd' installs them (apt-get, through sudo when not root)" >&2
	if [ -t 0 ]; then
		printf 'install-deps: install them now? [y/N] ' >&2
		answer=""
		read -r answer || true
		case "$answer" in
		y | Y | yes | YES | Yes) ;;
		*) echo "install-deps: nothing installed" >&2; exit 1 ;;
		esac
	else
		echo "install-deps: no terminal to ask: installing them" >&2
	fi
fi

echo "install-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
else
	echo "install-deps: need root to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
