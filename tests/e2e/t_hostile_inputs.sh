#!/bin/sh
# Hostile user files and repositories (issue 16 items 1, 4 and the git
# parts of 7). Each case runs what a CI job building a pull request
# runs, `mirror build --store S --out site --repo R`, with a file the
# pull request could have planted: a template, theme layout or asset
# that is a symbolic link (to a marker standing in for /etc/shadow), a
# FIFO, a directory; a --config that is a link or FIFO; a repository
# whose config includes a FIFO (by include.path, includeIf, "~/", a
# nested include), is a FIFO, holds a garbage core.logAllRefUpdates, or
# whose packed-refs is garbage or a FIFO. Each asserts together: exit 2,
# exactly one stderr line "mirror: ..." naming the file, key or line and
# what is wrong, no hang (timeout 20), the store, DIR and repository
# byte-identical, and the marker's content in no object of the
# repository and no file of DIR.
# The promises of doc/reliability.md, "User files and repositories".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # "~/" includes and no global git config
export SOURCE_DATE_EPOCH=1700000000
author="Mirror Bot <bot@example.org>"
marker="SECRET-MARKER-$$-not-to-be-published"

new_store pristine.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
cp pristine.db good.db
git init -q --bare repo.git
mirror build --store good.db --out site --repo repo.git --author "$author"
if [ "$RC" -ne 0 ]; then
	not_ok "a good build makes the site and the repository the cases start from"
	exit 1
fi
# Each case builds a store never swept (s.db): a sweep that did run
# would show as a change.
cp pristine.db s.db
printf '%s\n' "$marker" > marker
cp -R "$MIRROR_TOP/templates" tpl
cp -R "$MIRROR_TOP/themes/default" th

# begin REPO: a new case building into site and REPO.
begin() {
	why=""
	repo=$1
	before=$(state s.db site "$repo")
}

# try PATTERN ARGS...: mirror build ARGS (under timeout 20) into site and
# $repo; exit 2 with one stderr line "mirror: ..." matching PATTERN.
try() {
	pattern=$1
	shift
	timeout 20 "$MIRROR" build --store s.db --out site --repo "$repo" \
	    --author "$author" "$@" >"$T/out" 2>"$T/err"
	RC=$?
	lines=$(wc -l < "$T/err")
	[ "$RC" = 2 ] || why="$why; exit $RC, not 2"
	[ "$lines" -eq 1 ] || why="$why; $lines lines on stderr"
	grep -Eq "^mirror: .*$pattern" "$T/err" ||
	    why="$why; stderr '$(head -c 300 "$T/err")' does not match '$pattern'"
}

# end NAME: ok when the run matched, nothing changed and the marker is
# nowhere in site or the repository's objects. (A hostile copy is
# byte-identical to repo.git but for the planted files, and git itself
# would hang on its config: repo.git's objects are the ones searched.)
end() {
	changed=$(printf '%s\n%s\n' "$before" "$(state s.db site "$repo")" |
	    LC_ALL=C sort | uniq -u | cut -d' ' -f1 | uniq | tr '\n' ' ')
	[ -z "$changed" ] || why="$why; changed: $changed"
	! grep -rqF "$marker" site || why="$why; the marker is in site"
	! timeout 20 git -C repo.git cat-file --batch-all-objects --batch |
	    grep -qaF "$marker" || why="$why; the marker is in repo.git"
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1" "${why#; }"; fi
}

# --- item 1: templates and themes ----------------------------------------
ln -s "$T/marker" tpl/index.md.link
mv tpl/index.md tpl/index.md.real && mv tpl/index.md.link tpl/index.md
begin repo.git
try 'templates tpl/index\.md: a symbolic link, not a regular file' --templates tpl
end "a template that is a symbolic link is refused, its target published nowhere"

rm tpl/index.md && mkfifo tpl/index.md
begin repo.git
try 'templates tpl/index\.md: a FIFO, not a regular file' --templates tpl
end "a template that is a FIFO is refused at once (no fallback, no hang)"

rm tpl/index.md && mkdir tpl/index.md
begin repo.git
try 'templates tpl/index\.md: a directory, not a regular file' --templates tpl
end "a template that is a directory is refused"
rmdir tpl/index.md && mv tpl/index.md.real tpl/index.md

# Only a file that does not exist falls back to the default: a
# --templates directory with one file, reached through a linked
# directory, builds.
mkdir only && cp tpl/index.md only/ && ln -s only onlylink
cp s.db ok.db && cp -R repo.git ok.git
timeout 20 "$MIRROR" build --store ok.db --out okout --repo ok.git \
    --author "$author" --templates onlylink >"$T/out" 2>"$T/err"
RC=$?
expect_status "a --templates directory reached through a link, with defaults for the rest, builds" 0

ln -s "$T/marker" th/assets/x.css
begin repo.git
try 'theme \./th/assets/x\.css: a symbolic link, not a regular file' --theme ./th
end "a theme asset that is a symbolic link is refused"
rm th/assets/x.css && mkfifo th/assets/x.css
begin repo.git
try 'theme \./th/assets/x\.css: a FIFO, not a regular file' --theme ./th
end "a theme asset that is a FIFO is refused"
rm th/assets/x.css && mkdir th/assets/sub
begin repo.git
try 'theme \./th/assets/sub: a directory, not a regular file' --theme ./th
end "a subdirectory of a theme's assets is refused"
rmdir th/assets/sub
mkdir secret && cp marker secret/id.css
mv th/assets th/assets.real && ln -s "$T/secret" th/assets
begin repo.git
try 'theme \./th/assets: a symbolic link, not a directory' --theme ./th
end "a theme whose assets/ is a symbolic link is refused"
rm th/assets && mv th/assets.real th/assets
mv th/layout.html th/layout.real && ln -s layout.real th/layout.html
begin repo.git
try 'theme \./th/layout\.html: a symbolic link, not a regular file' --theme ./th
end "a theme layout that is a symbolic link is refused"
rm th/layout.html && mkfifo th/layout.html
begin repo.git
try 'theme \./th/layout\.html: a FIFO, not a regular file' --theme ./th
end "a theme layout that is a FIFO is refused (no hang)"
rm th/layout.html && mv th/layout.real th/layout.html

# --- item 4: the config file ---------------------------------------------
printf 'title = x\n' > real.ini && ln -s real.ini link.ini && mkfifo fifo.ini
begin repo.git
try 'config link\.ini: a symbolic link, not a regular file' --config link.ini
end "--config that is a symbolic link is refused"
begin repo.git
try 'config fifo\.ini: a FIFO, not a regular file' --config fifo.ini
end "--config that is a FIFO is refused at once (no hang)"

# --- item 4 and 7: the repository's own files ----------------------------
mkfifo "$T/fifo"
# hostile NAME: a copy of the good repository, hostile/NAME.git.
hostile() {
	mkdir -p hostile && rm -rf "hostile/$1.git" &&
	    cp -R repo.git "hostile/$1.git" && echo "hostile/$1.git"
}
# gcfg REPO ARGS: git config on REPO's own file, no includes followed.
gcfg() { r=$1; shift; git config --file "$r/config" --no-includes "$@"; }

r=$(hostile inc); gcfg "$r" include.path ../../fifo
begin "$r"
try "$r/config:[0-9]+: include\.path '\.\./\.\./fifo' names .*/fifo: a FIFO, not a regular file"
end "include.path naming a FIFO: exit 2 naming config, key and target (no hang)"

r=$(hostile incif); gcfg "$r" 'includeIf.gitdir:/nowhere/.path' "$T/fifo"
begin "$r"
try "$r/config:[0-9]+: includeif\.gitdir:/nowhere/\.path '.*/fifo' names .*/fifo: a FIFO"
end "includeIf.*.path naming a FIFO is refused whatever its condition"

r=$(hostile home); gcfg "$r" include.path '~/fifo'
begin "$r"
try "$r/config:[0-9]+: include\.path '~/fifo' names $T/fifo: a FIFO"
end "include.path '~/...' is expanded against HOME as git does"

r=$(hostile nested); gcfg "$r" include.path inc1
printf '[include]\n\tpath = "../../fifo" ; a comment\n' > "$r/inc1"
begin "$r"
try "$r/inc1:2: include\.path '\.\./\.\./fifo' names .*/fifo: a FIFO"
end "an include inside an included file is checked too"

r=$(hostile incdir); gcfg "$r" include.path ../../secret
begin "$r"
try "$r/config:[0-9]+: include\.path '\.\./\.\./secret' names .*secret: a directory"
end "include.path naming a directory is refused"

r=$(hostile cfgfifo); rm "$r/config" && mkfifo "$r/config"
begin "$r"
try "$r/config: a FIFO, not a regular file"
end "a repository config that is a FIFO is refused (no hang)"

r=$(hostile logall); gcfg "$r" core.logAllRefUpdates garbage
begin "$r"
try "$r/config:[0-9]+: core\.logAllRefUpdates = 'garbage' is not a boolean .* or 'always'"
end "core.logAllRefUpdates=garbage: found before the sweep, key and line named"

r=$(hostile logall2); gcfg "$r" include.path inc1
printf '[core]\n\tlogAllRefUpdates = maybe\n' > "$r/inc1"
begin "$r"
try "$r/inc1:2: core\.logAllRefUpdates = 'maybe'"
end "a bad value in an included file names that file and line"

r=$(hostile bare); gcfg "$r" core.bare sometimes
begin "$r"
try "$r/config:[0-9]+: core\.bare = 'sometimes' is not a boolean"
end "a bad core.bare names the key (not libgit2's unnamed parse error)"

# The branch is a loose ref, so only moving it would read packed-refs.
r=$(hostile packed); printf '# pack-refs with: peeled \nnot a ref line\n' > "$r/packed-refs"
begin "$r"
try "$r/packed-refs:2: not a line of packed-refs"
end "a garbage line in packed-refs: found before the sweep, line named"

r=$(hostile packfifo); mkfifo "$r/packed-refs"
begin "$r"
try "$r/packed-refs: a FIFO, not a regular file"
end "packed-refs that is a FIFO is refused (no hang)"

# Good values of the same keys still build.
r=$(hostile goodvals); gcfg "$r" core.logAllRefUpdates always
gcfg "$r" include.path missing.inc
git -C "$r" pack-refs --all
cp s.db ok2.db
timeout 20 "$MIRROR" build --store ok2.db --out okout2 --repo "$r" \
    --author "$author" >"$T/out" 2>"$T/err"
RC=$?
expect_status "logAllRefUpdates=always, a missing include and good packed-refs build" 0
