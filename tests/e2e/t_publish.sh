#!/bin/sh
# t_publish.sh: publishing from CI (site-example/ci/) and the progress
# line of mirror build.
#
# The workflows are checked as data (they parse; the Pages permissions
# and artifact paths; every command they run is site-example/ci/publish.sh
# with steps it knows; each compiles once and renders once), then
# publish.sh runs the way CI runs it: in a git checkout whose "origin" is
# a local bare repository, building the example store with a base URL and
# pushing the mirror branch. Last, each workflow's jobs run as CI would
# run them: their variables and commands taken from the YAML, in a clone
# holding what they use, with no SOURCE_DATE_EPOCH. Not run here: the
# deps and make steps (they would install packages and rebuild the binary
# under test; make check has just built it).
# The promises of doc/publishing.md, "publish.sh".
# The promises of doc/publishing.md, "What the test checks".
# The promises of doc/publishing.md, "Decisions".
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
expect "GitHub: contents: read by default; build may push and read Pages" \
    yamlq "$ci/github-pages.yml" '
y["permissions"] == {"contents": "read"}
and y["jobs"]["build"]["permissions"] == {"contents": "write", "pages": "read"}
and y["jobs"]["build"]["steps"][0]["with"]["fetch-depth"] == 0'
expect "GitHub: upload-pages-artifact of public/, deploy-pages with pages/id-token write" \
    yamlq "$ci/github-pages.yml" '
y["env"]["MIRROR_OUT"] == "public"
and any(s.get("uses", "").startswith("actions/upload-pages-artifact@")
    and s["with"]["path"] == "public" for s in y["jobs"]["build"]["steps"])
and any(s.get("uses", "").startswith("actions/configure-pages@")
    for s in y["jobs"]["build"]["steps"])
and [s.get("uses", "").split("@")[0] for s in y["jobs"]["deploy"]["steps"]]
    == ["actions/deploy-pages"]
and y["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
and y["jobs"]["deploy"]["environment"]["name"] == "github-pages"
and y["jobs"]["deploy"]["needs"] == "build"'
expect "GitHub: the gate runs after the upload and does not hold back the deploy" \
    yamlq "$ci/github-pages.yml" '
[s.get("run", "").split()[-1:] == ["check"] for s in y["jobs"]["build"]["steps"]]
    [-1] and y["jobs"]["build"]["steps"][-1]["continue-on-error"] is True'
expect "GitLab: job pages publishes public/ (artifact and pages.publish), on Debian" \
    yamlq "$ci/gitlab-pages.yml" '
y["pages"]["artifacts"]["paths"] == ["public"]
and y["pages"]["pages"]["publish"] == "public"
and y["variables"]["MIRROR_OUT"] == "public"
and y["default"]["image"].startswith("debian:")'
expect "GitLab: pushes only with MIRROR_PUSH_TOKEN, through rules:variables" \
    yamlq "$ci/gitlab-pages.yml" '
y["pages"]["variables"]["MIRROR_REMOTE"] == ""
and "$MIRROR_PUSH_TOKEN" in y["pages"]["rules"][0]["if"]
and "${MIRROR_PUSH_TOKEN}@" in y["pages"]["rules"][0]["variables"]["MIRROR_REMOTE"]
and "MIRROR_PUSH_TOKEN" not in y["pages"]["rules"][1]["if"]'
expect "GitLab: the gate reads the pages artifact, may fail with 4 only" \
    yamlq "$ci/gitlab-pages.yml" '
y["conflicts"]["needs"] == [{"job": "pages", "artifacts": True}]
and y["conflicts"]["allow_failure"] == {"exit_codes": [4]}
and y["conflicts"]["script"] == ["sh site-example/ci/publish.sh check"]'
commands "$ci/github-pages.yml" >gh.cmds && commands "$ci/gitlab-pages.yml" >gl.cmds
expect "every CI command is publish.sh with known steps (what this test runs)" sh -c '
    test "$(cat gh.cmds gl.cmds | wc -l)" -ge 4 &&
    ! grep -Ev "^sh site-example/ci/publish\.sh( (deps|make|site|branch|check))+$" \
        gh.cmds gl.cmds'
expect "each workflow compiles once, renders once, commits (branch) and gates (check)" sh -c '
    for f in gh.cmds gl.cmds; do
        test "$(grep -Ec " make( |\$)" $f)" = 1 || exit 1
        test "$(grep -Ec " (site|branch)( |\$)" $f)" = 1 || exit 1
        grep -Eq " branch( |\$)" $f && grep -Eq " check\$" $f || exit 1
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
	    MIRROR_OUT="${OUT:-$T/public}" MIRROR_BASE_URL="$base" \
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
expect "site: open conflicts do not stop publication: the store's 14 open conflicts each published, both twins" sh -c "
    test $RC = 0 &&
    ids=\$(sqlite3 '$T/store.db' \"SELECT id FROM conflicts WHERE status = 'open'\") &&
    test \$(echo \"\$ids\" | wc -l) = 14 &&
    for id in \$ids; do
        test -s public/conflicts/\$id.html && test -s public/conflicts/\$id.md || exit 1
    done"
expect "sitemap.xml has absolute URLs under the base URL" sh -c "
    grep -q '<loc>${base}index.html</loc>' public/sitemap.xml &&
    grep -q '<loc>${base}projects/p05-interferometer/index.html</loc>' public/sitemap.xml &&
    ! grep '<loc>' public/sitemap.xml | grep -qv '<loc>$base'"
expect "feed.xml links are absolute under the base URL" sh -c "
    grep -q '<id>${base}feed.xml</id>' public/feed.xml &&
    grep -q 'href=\"${base}conflicts/index.html\"' public/feed.xml &&
    test \"\$(grep -c '<link href=\"${base}conflicts/' public/feed.xml)\" = 14"
expect "pages keep relative links (no base URL in any page but 404)" sh -c "
    ! grep -rl 'example.github.io' public --include='*.html' --include='*.md' |
        grep -v '^public/404\.' | grep -q . && python3 '$MIRROR_TOP/tests/tools/linkcheck.py' public >/dev/null"
expect "site: pushes nothing" sh -c "
    ! git -C origin.git rev-parse -q --verify refs/heads/mirror >/dev/null"

publish work branch
tip1=$(git -C origin.git rev-parse -q --verify refs/heads/mirror)
expect "branch: the mirror branch lands on the remote" sh -c "
    test $RC = 0 && test -n '$tip1' && grep -q 'pushed mirror to origin' '$T/out'"
# (.mirror-output is gen/output's own mark on DIR, not part of the site;
# api/pages/ the pages' record, which DIR keeps for the next build and
# the commit leaves out)
expect "branch: its tree is exactly the built site" sh -c "
    git -C origin.git ls-tree -r --name-only mirror | LC_ALL=C sort >tree.txt &&
    (cd public && find . -type f ! -name .mirror-output \
        ! -path './api/pages/*' | sed 's|^\./||' |
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

OUT="$T/nosite" publish work check
expect "check without a site: mirror sweep --check, exit 4" sh -c "
    test $RC = 4 && grep -q 'open conflicts' '$T/err'"

# --- the workflows as CI runs them ----------------------------------------------------
# ci_job FILE JOB: a shell script doing what CI does in JOB: the
# workflow's and the job's variables (GitHub: also each step's; the
# ${{ }} expressions replaced by what the Pages actions would give; GitLab
# variables expanded by sh), then every run:/script: command in order,
# each one's exit status appended to rcs. Not run: the deps and make
# steps (MIRROR_BIN stands for what make builds).
ci_job() {
	python3 -c 'import re, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
job = (y.get("jobs") or y)[sys.argv[2]]
expr = {"steps.pages.outputs.base_url": "https://example.github.io/mirror"}
def val(v):
    v = re.sub(r"\$\{\{ *([^}]*?) *\}\}", lambda m: expr[m.group(1)], str(v))
    return "\"" + re.sub(r"([\\\"`])", r"\\\1", v) + "\""
def exports(d):
    return "".join("export %s=%s; " % (k, val(v)) for k, v in (d or {}).items())
def cmd(c):
    return re.sub(r" (deps|make)(?= )", "", c.strip())
glob = exports(y.get("env") or y.get("variables"))
if "steps" in job:
    steps = [(exports(s.get("env")), s["run"]) for s in job["steps"] if "run" in s]
else:
    steps = [("", c) for c in job["script"]]
for env, c in steps:
    print("(%s%s%s%s) >>ci.log 2>&1; echo $? >>rcs" % (glob,
        exports(job.get("variables")), env, cmd(c)))' "$1" "$2"
}

# origin-ci.git: a repository holding what the workflows use (publish.sh
# and the example's SQL), its last commit dated 2026-11-01, the
# example's clock; the jobs run in clones of it with no
# SOURCE_DATE_EPOCH, as on a CI machine.
git init -q seed && mkdir -p seed/site-example/ci &&
    cp "$publish" seed/site-example/ci/ &&
    cp "$MIRROR_TOP/site-example/example.sql" seed/site-example/ &&
    git -C seed add . &&
    GIT_AUTHOR_DATE='@1793491200 +0000' GIT_COMMITTER_DATE='@1793491200 +0000' \
        git -C seed commit -q -m 'the example' &&
    git init -q --bare origin-ci.git &&
    git -C seed push -q "$T/origin-ci.git" main &&
    git clone -q origin-ci.git gh && git clone -q origin-ci.git gl || exit 1
# runjob DIR FILE JOB [VAR=VALUE...]: run ci_job's script in checkout DIR.
runjob() {
	dir=$1 file=$2 job=$3
	shift 3
	ci_job "$file" "$job" >"$dir.job.sh" && rm -f "$dir/rcs" &&
	    (cd "$dir" && env -u SOURCE_DATE_EPOCH MIRROR_BIN="$MIRROR" "$@" \
	        sh "$T/$dir.job.sh")
}

runjob gh "$ci/github-pages.yml" build
expect "GitHub build job: the branch step succeeds, the gate flags 14 conflicts (4)" sh -c "
    test \"\$(tr '\\n' ' ' <gh/rcs)\" = '0 4 ' &&
    grep -q 'publish: 14 open conflicts (public/api/health.json)' gh/ci.log"
expect "GitHub build job: one render, into public/, with the Pages base URL" sh -c "
    test \"\$(grep -c '^built public: ' gh/ci.log)\" = 1 &&
    grep -q '<loc>https://example.github.io/mirror/index.html</loc>' gh/public/sitemap.xml"
expect "GitHub build job: SOURCE_DATE_EPOCH from the last commit dates the mirror commit" sh -c "
    grep -q 'SOURCE_DATE_EPOCH=1793491200 (from the last commit)' gh/ci.log &&
    test \"\$(git -C origin-ci.git log -1 --format=%ct mirror)\" = 1793491200"
expect "GitHub build job: the pushed mirror branch holds exactly public/" sh -c "
    git -C origin-ci.git ls-tree -r --name-only mirror | LC_ALL=C sort >tree.txt &&
    (cd gh/public && find . -type f ! -name .mirror-output \
        ! -path './api/pages/*' | sed 's|^\./||' |
        LC_ALL=C sort) >site.txt && test -s tree.txt && diff tree.txt site.txt &&
    git -C origin-ci.git log -1 --format='%an' mirror | grep -q 'github-actions'"
tip_gh=$(git -C origin-ci.git rev-parse -q --verify mirror)

runjob gl "$ci/gitlab-pages.yml" pages CI_PAGES_URL=https://group.gitlab.io/mirror \
    CI_SERVER_HOST=gitlab.example.org
expect "GitLab pages job (no token): renders public/ once, commits, pushes nothing" sh -c "
    test \"\$(cat gl/rcs)\" = 0 && test \"\$(grep -c '^built public: ' gl/ci.log)\" = 1 &&
    grep -q '<loc>https://group.gitlab.io/mirror/index.html</loc>' gl/public/sitemap.xml &&
    git -C gl rev-parse -q --verify refs/heads/mirror >/dev/null &&
    ! grep -q pushed gl/ci.log &&
    test \"\$(git -C origin-ci.git rev-parse mirror)\" = '$tip_gh'"
expect "GitLab pages job: the commit's author and date from the job's variables" sh -c "
    test \"\$(git -C gl log -1 --format='%an <%ae> %ct' mirror)\" = \\
        'GitLab CI <noreply@gitlab.example.org> 1793491200'"
# The gate job: a fresh checkout with the pages artifact, and no binary.
git clone -q origin-ci.git gate && cp -R gl/public gate/public || exit 1
runjob gate "$ci/gitlab-pages.yml" conflicts MIRROR_BIN=/nonexistent/mirror
expect "GitLab conflicts job: exit 4 from the artifact alone (no binary, no store)" sh -c "
    test \"\$(cat gate/rcs)\" = 4 && grep -q '14 open conflicts' gate/ci.log &&
    test ! -e gate/build"

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
