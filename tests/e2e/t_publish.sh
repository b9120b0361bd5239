#!/bin/sh
# t_publish.sh: publishing from CI (site-example/ci/) and the progress
# line of mirror build.
#
# The workflows are checked as data (they parse; every command they run
# is site-example/ci/publish.sh with steps it knows), then publish.sh runs
# the way CI runs it: in a git checkout whose "origin" is a local bare
# repository, building the example store with a base URL and pushing the
# mirror branch. Not run here: the deps and make steps (they would
# install packages and rebuild the binary under test; make check has just
# built it).
. "$MIRROR_TOP/tests/e2e/lib.sh"

ci="$MIRROR_TOP/site-example/ci"
publish="$ci/publish.sh"
base='https://example.github.io/mirror/'
export SOURCE_DATE_EPOCH=1793491200   # the example's clock
export GIT_CONFIG_NOSYSTEM=1 HOME="$T"  # no user's git config
git config --global user.name 'Test' &&
    git config --global user.email 'test@example.org' &&
    git config --global init.defaultBranch main || exit 1

# --- the workflow files ----------------------------------------------------------
# yamlq FILE EXPR: evaluate the Python expression EXPR on the parsed file
# (as y); exit status 0 when it is true.
yamlq() {
	python3 -c 'import sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}
# commands FILE: every run: (GitHub) and script: (GitLab) line, one a line.
commands() {
	python3 -c 'import sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
for name, job in (y.get("jobs") or y).items():
    if not isinstance(job, dict):
        continue
    for step in job.get("steps", []):
        if "run" in step:
            print(step["run"].strip())
    for line in job.get("script", []):
        print(line.strip())' "$1"
}

expect "github-pages.yml is valid YAML" yamlq "$ci/github-pages.yml" 'True'
expect "gitlab-pages.yml is valid YAML" yamlq "$ci/gitlab-pages.yml" 'True'
expect "GitHub: on push and workflow_dispatch, one concurrency group" \
    yamlq "$ci/github-pages.yml" '
"push" in y[True] and "workflow_dispatch" in y[True]
and y["concurrency"]["group"]'
expect "GitHub: upload-pages-artifact of the built dir, deploy-pages with pages/id-token write" \
    yamlq "$ci/github-pages.yml" '
any(s.get("uses", "").startswith("actions/upload-pages-artifact@")
    and s["with"]["path"] == y["env"]["MIRROR_OUT"]
    for s in y["jobs"]["build"]["steps"])
and any(s.get("uses", "").startswith("actions/deploy-pages@")
    for s in y["jobs"]["deploy"]["steps"])
and y["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
and y["jobs"]["deploy"]["needs"] == "build"'
expect "GitHub: the history job may push and has the full history" \
    yamlq "$ci/github-pages.yml" '
y["jobs"]["history"]["permissions"]["contents"] == "write"
and y["jobs"]["history"]["steps"][0]["with"]["fetch-depth"] == 0
and "branch" in y["jobs"]["history"]["steps"][-1]["run"]'
expect "GitLab: a job named pages with the public/ artifact, on Debian" \
    yamlq "$ci/gitlab-pages.yml" '
y["pages"]["artifacts"]["paths"] == ["public"]
and y["pages"]["variables"]["MIRROR_OUT"] == "public"
and y["default"]["image"].startswith("debian:")'
expect "GitLab: a job pushes the mirror branch" yamlq "$ci/gitlab-pages.yml" '
any("branch" in l for l in y["mirror-branch"]["script"])'
commands "$ci/github-pages.yml" >gh.cmds && commands "$ci/gitlab-pages.yml" >gl.cmds
expect "every CI command is publish.sh with known steps (what this test runs)" sh -c '
    test "$(cat gh.cmds gl.cmds | wc -l)" -ge 6 &&
    ! grep -Ev "^sh site-example/ci/publish\.sh( (deps|make|site|branch|check))+$" \
        gh.cmds gl.cmds'
expect "both workflows publish (site), push (branch) and gate (check)" sh -c '
    for f in gh.cmds gl.cmds; do
        for s in site branch check; do grep -q " $s" $f || exit 1; done
    done'

# --- publish.sh as CI runs it -------------------------------------------------------
# origin.git: the hosting side; work: the CI checkout of main.
git init -q --bare origin.git &&
    git init -q work && echo data >work/README &&
    git -C work add README && git -C work commit -q -m data &&
    git -C work remote add origin "$T/origin.git" &&
    git -C work push -q origin main || exit 1
main_tip=$(git -C origin.git rev-parse main)

# publish DIR STEP...: run publish.sh in checkout DIR, as CI does.
publish() {
	dir=$1
	shift
	(cd "$dir" && MIRROR_SRC="$MIRROR_TOP" MIRROR_BIN="$MIRROR" \
	    MIRROR_STORE="$T/store.db" \
	    MIRROR_STORE_SQL="$MIRROR_TOP/site-example/example.sql" \
	    MIRROR_OUT="$T/public" MIRROR_BASE_URL="$base" \
	    MIRROR_AUTHOR='CI <ci@example.org>' \
	    sh "$publish" "$@") >"$T/out" 2>"$T/err"
	RC=$?
}

git clone -q -b main origin.git lost || exit 1
MIRROR_REMOTE="$T/no-such-remote.git" publish lost branch
expect "branch: an unreachable remote is exit 3 before any commit" sh -c "
    test $RC = 3 && grep -q 'cannot read branches of' '$T/err' &&
    ! git -C lost rev-parse -q --verify refs/heads/mirror >/dev/null &&
    test ! -e public && test ! -e store.db"

publish work bogus
expect "an unknown step is a usage error and runs nothing" sh -c "
    test $RC = 1 && grep -q \"unknown step 'bogus'\" '$T/err' && test ! -e store.db"

publish work site
expect "site: creates the store from SQL and builds the site" sh -c "
    test $RC = 0 && test -f public/index.html && test -f public/index.md &&
    grep -q '; 14 open conflicts;' '$T/out'"
expect "site: open conflicts do not stop publication" test "$RC" = 0
expect "sitemap.xml has absolute URLs under the base URL" sh -c "
    grep -q '<loc>${base}index.html</loc>' public/sitemap.xml &&
    grep -q '<loc>${base}projects/p05-interferometer/index.html</loc>' public/sitemap.xml &&
    ! grep '<loc>' public/sitemap.xml | grep -qv '<loc>$base'"
expect "feed.xml links are absolute under the base URL" sh -c "
    grep -q '<id>${base}feed.xml</id>' public/feed.xml &&
    grep -q 'href=\"${base}conflicts/index.html\"' public/feed.xml &&
    test \"\$(grep -c '<link href=\"${base}conflicts/' public/feed.xml)\" = 14"
expect "pages keep relative links (no base URL in any page)" sh -c "
    ! grep -rl 'example.github.io' public --include='*.html' --include='*.md' |
        grep -q . && python3 '$MIRROR_TOP/tests/tools/linkcheck.py' public >/dev/null"
expect "site: pushes nothing" sh -c "
    ! git -C origin.git rev-parse -q --verify refs/heads/mirror >/dev/null"

publish work branch
tip1=$(git -C origin.git rev-parse -q --verify refs/heads/mirror)
expect "branch: the mirror branch lands on the remote" sh -c "
    test $RC = 0 && test -n '$tip1' && grep -q 'pushed mirror to origin' '$T/out'"
# (.mirror-output is gen/output's own mark on DIR, not part of the site)
expect "branch: its tree is exactly the built site" sh -c "
    git -C origin.git ls-tree -r --name-only mirror | LC_ALL=C sort >tree.txt &&
    (cd public && find . -type f ! -name .mirror-output | sed 's|^\./||' |
        LC_ALL=C sort) >site.txt && test -s tree.txt &&
    diff tree.txt site.txt &&
    git -C origin.git show mirror:sitemap.xml | cmp - public/sitemap.xml"
expect "branch: git fsck --strict on the remote is clean" \
    git -C origin.git fsck --strict --no-progress
expect "branch: main and the checkout are untouched" sh -c "
    test \"\$(git -C origin.git rev-parse main)\" = '$main_tip' &&
    test \"\$(git -C work rev-parse HEAD)\" = '$main_tip' &&
    test -z \"\$(git -C work status --porcelain)\""
expect "branch: the commit carries the example's author" sh -c "
    test \"\$(git -C origin.git log -1 --format='%an <%ae>' mirror)\" = 'CI <ci@example.org>'"

publish work branch
expect "unchanged store: no new commit, nothing new pushed" sh -c "
    test $RC = 0 && grep -q 'no commit: mirror of ' '$T/out' &&
    test \"\$(git -C origin.git rev-parse mirror)\" = '$tip1' &&
    test \"\$(git -C origin.git rev-list --count mirror)\" = 1"

# A fresh CI checkout has no local mirror branch: publish.sh fetches it.
git clone -q -b main origin.git fresh1 || exit 1
publish fresh1 branch
expect "fresh checkout, unchanged store: fetches the branch, no commit" sh -c "
    test $RC = 0 && grep -q 'no commit' '$T/out' &&
    test \"\$(git -C origin.git rev-parse mirror)\" = '$tip1'"

sql store.db "UPDATE project_state SET value = '400 rpm'
    WHERE id = 'p06-st-spindle-max'" || exit 1
git clone -q -b main origin.git fresh2 || exit 1
publish fresh2 branch
tip2=$(git -C origin.git rev-parse mirror)
expect "changed store: one new commit on top of the remote tip, pushed" sh -c "
    test $RC = 0 && test '$tip2' != '$tip1' &&
    test \"\$(git -C origin.git rev-parse mirror^)\" = '$tip1' &&
    test \"\$(git -C origin.git rev-list --count mirror)\" = 2"
expect "changed store: the diff shows the changed fact" sh -c "
    git -C origin.git diff mirror^ mirror -- '*.md' | grep -q '^+.*400 rpm'"

MIRROR_REMOTE='' publish work branch
expect "MIRROR_REMOTE empty: commits locally, pushes nothing" sh -c "
    test $RC = 0 && ! grep -q pushed '$T/out' &&
    test \"\$(git -C origin.git rev-parse mirror)\" = '$tip2'"

publish work check
expect "check: open conflicts exit 4" sh -c "
    test $RC = 4 && grep -q 'open conflicts' '$T/err'"

# --- the progress line --------------------------------------------------------------
new_store p.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store p.db --out plain
expect "not a terminal: stderr is empty, the summary is on stdout" sh -c "
    test $RC = 0 && test ! -s '$T/err' && grep -q '^built plain: ' '$T/out'"

# onpty ARGS: run mirror under a pseudo-terminal (util-linux script);
# stdout goes to pty.out, so the typescript pty.log holds only stderr.
onpty() {
	script -qec "$MIRROR_WRAP '$MIRROR' $* >'$T/pty.out'" "$T/pty.log" \
	    >/dev/null 2>&1 </dev/null
	RC=$?
}
# ptyq EXPR: a Python test on s, the terminal's bytes without script's
# own header and footer lines.
ptyq() {
	python3 -c 'import re, sys
s = open(sys.argv[1], "rb").read().decode()
s = re.sub(r"\AScript started[^\n]*\n", "", s)
s = re.sub(r"\n?Script done[^\n]*\n?\Z", "", s)
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$T/pty.log" "$1"
}
if command -v script >/dev/null 2>&1; then
	onpty build --store p.db --out tty
	expect "terminal: the build succeeds, the summary on stdout" sh -c "
	    test $RC = 0 && grep -q '^built tty: ' '$T/pty.out'"
	expect "terminal: 'rendering pages: N done[, phase i/n]' in place" ptyq '
re.search(r"\rrendering pages: [0-9]+ done(, (projects|conflict pages) [0-9]+/[0-9]+)?", s)'
	expect "terminal: the line is cleared at the end" ptyq '
re.fullmatch(r"(\r[^\r\n]*)*\r *\r\s*", s) and "rendering" in s'
	onpty build --store p.db --out tty --quiet
	expect "terminal with --quiet: nothing at all" ptyq 's.strip() == ""'
	expect "terminal with --quiet: no summary either" test ! -s "$T/pty.out"
else
	not_ok "util-linux script is needed for the terminal cases"
fi
