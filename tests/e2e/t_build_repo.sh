#!/bin/sh
# mirror build --repo: the rendered site becomes commits on a branch,
# judged by the git command line (SPEC section 6).
# The promises of doc/history.md, "In what order".
# The promises of doc/history.md, "Bare or not".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # no user's global git config leaks in
export SOURCE_DATE_EPOCH=1793491200
export MIRROR_CACHE_DIR="$T/cache"   # this file's memos alone
ex="$MIRROR_TOP/site-example/example.sql"
author="Mirror Bot <bot@example.org>"
new_store s.db "$ex" || exit 1
git init -q --bare repo.git

commits() { git --git-dir="$1" rev-list --count "${2:-mirror}" 2>/dev/null || echo 0; }

# --- first build ------------------------------------------------------------
mirror build --store s.db --out site --repo repo.git --author "$author"
expect_status "a build with --repo succeeds" 0
expect "it says what it committed" out_has '^committed [0-9a-f]{40} to mirror of repo.git: 0 pages changed, 78 added, 0 removed$'
expect "the first build creates the branch with one commit" test "$(commits repo.git)" = 1
expect "git fsck --strict finds nothing wrong" git --git-dir=repo.git fsck --strict --no-progress
# The marker and the pages' record (api/pages/, which DIR keeps for the
# next build) are DIR's, not the site's: the commit leaves them out.
expect "the commit's tree is exactly the site (marker and record left out)" sh -c "
    git --git-dir=repo.git ls-tree -r --name-only mirror > tree.txt
    (cd site && find . -type f ! -name .mirror-output ! -path './api/pages/*' | sed 's|^\./||' | LC_ALL=C sort) > files.txt
    cmp -s tree.txt files.txt"
expect "every committed file has the site's bytes" sh -c "
    mkdir co && git --git-dir=repo.git archive mirror | tar -x -C co &&
    diff -r -x .mirror-output -x pages co site >/dev/null"
expect "the subject says what changed in words" test \
    "$(git --git-dir=repo.git log -1 --format=%s mirror)" = "first mirror of the store: 4 projects, 374 facts (52 project_state, 257 entities, 65 memories), 14 open conflicts"
expect "the store checksum trailer matches api/health.json" test \
    "$(git --git-dir=repo.git log -1 --format='%(trailers:key=Mirror-Store-Checksum,valueonly)' mirror | head -1)" = \
    "$(jq -r .snapshot site/api/health.json)"
expect "the sweep run trailer names the store's sweep run" test \
    "$(git --git-dir=repo.git log -1 --format='%(trailers:key=Mirror-Sweep-Run,valueonly)' mirror | head -1)" = \
    "$(sql s.db 'SELECT id FROM sweep_runs ORDER BY started_at DESC, id DESC LIMIT 1')"
expect "author and date come from --author and SOURCE_DATE_EPOCH" test \
    "$(git --git-dir=repo.git log -1 --format='%an <%ae> %at %cn' mirror)" = "$author 1793491200 Mirror Bot"
expect "the bare repository keeps a reflog of the branch" sh -c \
    "git --git-dir=repo.git reflog show mirror | grep -q 'mirror: build'"

# --- unchanged store: no commit ---------------------------------------------
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "an unchanged rebuild says so" out_has '^no commit: mirror of repo.git already holds this site$'
expect "an unchanged rebuild makes no commit" test "$(commits repo.git)" = 1
expect "and renders nothing: DIR and the branch hold this build" \
    out_has 'unchanged: no sweep, nothing rendered'
# The commit left a memo of the branch's tip in the user's cache (the
# tip's id, then the stamp its tree holds): a no-op reads the ref's file
# and the memo, and starts no libgit2, so it does not even open the
# repository; a build with something to commit checks it first.
expect "the commit left a memo of the tip: its id, then the stamp it holds" sh -c "
    set -- cache/tips/* && test \$# = 1 &&
    test \"\$(head -n 1 \$1)\" = \"\$(git --git-dir=repo.git rev-parse mirror)\" &&
    tail -n +2 \$1 | cmp -s - site/api/build.json"
cp repo.git/config config.kept
echo '[core' > repo.git/config
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "a no-op the memo answers does not open the repository" sh -c "
    test $RC = 0 && grep -q '^no commit: mirror of repo.git already holds this site\$' '$T/out'"
cp s.db s.kept.db
sql s.db "UPDATE project_state SET value = value || '.' WHERE id = 'p04-st-fpga'"
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "a build with something to commit opens it before the sweep" sh -c "
    test $RC = 3 && grep -q 'repo.git/config' '$T/err' &&
    test \"\$(sqlite3 s.db 'SELECT count(*) FROM sweep_runs')\" = 1"
mv s.kept.db s.db
mv config.kept repo.git/config
: > repo.git/refs/heads/mirror.lock
mirror build --store s.db --out site --repo repo.git --author "$author"
expect_error "a no-op with a stale lock on the branch still reports it" 3 'mirror.lock'
rm repo.git/refs/heads/mirror.lock
git init -q --bare other.git
mirror build --store s.db --out site --repo other.git --author "$author"
expect "DIR holds the build but another repository does not: render and commit" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' && test $(commits other.git) = 1 &&
    test \"\$(git --git-dir=other.git rev-parse mirror^{tree})\" = \"\$(git --git-dir=repo.git rev-parse mirror^{tree})\""
mv site site.kept
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "the branch holds the build but DIR is gone: render, no second commit" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' && test -f site/index.html &&
    grep -q '^no commit:' '$T/out' && test $(commits repo.git) = 1"
rm -rf site.kept other.git

# --- one fact changes: a small diff -----------------------------------------
sql s.db "UPDATE project_state SET value = 'XC7A200T' WHERE id = 'p04-st-fpga'"
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "a changed fact makes one new commit" test "$(commits repo.git)" = 2
git --git-dir=repo.git diff --stat mirror~1 mirror -- '*.md' > stat.txt
# The pages that show the value: its overview, its conflict, the
# project's queue and the list of every open conflict (each side as it
# is now) and the index; the recent changes gain the fact's entry (an
# UPDATE with no audit row: old → new), and their entry of the conflict
# keeps the sides as found (never rewritten); the A-Z page of its key is
# HTML only (a finder for browsers), folded in the diff as generated.
expect "only the pages showing the fact change" test \
    "$(git --git-dir=repo.git diff --name-only mirror~1 mirror -- '*.md' | tr '\n' ' ')" = \
    "changes.md conflicts/c4dcd35f8cb.md conflicts/index.open.md conflicts/projects/p04-gigabit.md index.md projects/p04-gigabit/index.md "
expect "... and the A-Z page of its key, HTML only" test \
    "$(git --git-dir=repo.git diff --name-only mirror~1 mirror -- 'keys/*' | tr '\n' ' ')" = "keys/f.html "
expect "the overview's diff is the fact's line and its conflict's sides, as found with the value now (the footer never changes)" sh -c "
    git --git-dir=repo.git diff -U0 mirror~1 mirror -- projects/p04-gigabit/index.md |
    grep -v -e '^+++ ' -e '^--- ' | grep '^[-+]' > lines.txt
    test \$(grep -c . lines.txt) = 4 &&
    grep -qF '+- [**fpga part**](../../conflicts/c4dcd35f8cb.md): **XC7A100T** (trusted state: BOM rev C, 2025-05-05; now: XC7A200T) vs ' lines.txt &&
    grep -q '^+.*state-p04-st-fpga.*XC7A200T' lines.txt &&
    grep -q '^-.*state-p04-st-fpga.*XC7A100T' lines.txt"
expect "git fsck --strict is still clean" git --git-dir=repo.git fsck --strict --no-progress
tree=$(git --git-dir=repo.git rev-parse mirror^{tree})
git --git-dir=repo.git update-ref refs/heads/mirror mirror~1
mirror build --store s.db --out site --repo repo.git --author "$author"
expect "a branch moved by hand is not the memo's: the site is committed again" sh -c "
    test $RC = 0 && grep -q '^committed ' '$T/out' && test $(commits repo.git) = 2 &&
    test \"\$(git --git-dir=repo.git rev-parse mirror^{tree})\" = $tree"

# --- reproducible: same store, same clock, same commit id --------------------
new_store s2.db "$ex" && git init -q --bare repo2.git
mirror build --store s2.db --out site2 --repo repo2.git --author "$author"
new_store s3.db "$ex" && git init -q --bare repo3.git
mirror build --store s3.db --out site3 --repo repo3.git --author "$author"
expect "two builds of the same store under SOURCE_DATE_EPOCH give the same commit id" sh -c "
    a=\$(git --git-dir=repo2.git rev-parse mirror) && b=\$(git --git-dir=repo3.git rev-parse mirror) &&
    test \"\$a\" = \"\$b\""

# --- bad repositories: exit 3, one line, nothing changed ---------------------
sql s.db "UPDATE project_state SET value = 'XC7A35T' WHERE id = 'p04-st-fpga'"
site_before=$(fingerprint site)
store_before=$(fingerprint s.db)
tip=$(git --git-dir=repo.git rev-parse mirror)
mkdir notrepo
mirror build --store s.db --out site --repo notrepo --author "$author"
expect_error "a --repo that is not a repository" 3 'notrepo'
expect "the site is as it was after the git failure" test "$site_before" = "$(fingerprint site)"
expect "the store is as it was: the repository is checked before the sweep" test "$store_before" = "$(fingerprint s.db)"
: > repo.git/refs/heads/mirror.lock
mirror build --store s.db --out site --repo repo.git --author "$author"
expect_error "a stale lock on the branch" 3 'mirror.lock'
expect "the lock file is reported, not removed" test -f repo.git/refs/heads/mirror.lock
expect "the branch did not move" test "$(git --git-dir=repo.git rev-parse mirror)" = "$tip"
expect "the site is as it was after the lock failure" test "$site_before" = "$(fingerprint site)"
expect "the store is as it was after the lock failure" test "$store_before" = "$(fingerprint s.db)"
rm repo.git/refs/heads/mirror.lock
mirror build --store s.db --out site --repo repo.git --author "not an author"
expect "a malformed --author is refused with one line" sh -c "test $RC = 1 -o $RC = 2 && test \$(wc -l < '$T/err') = 1"
mirror build --store s.db --out site --repo repo.git --branch 'bad..name' --author "$author"
expect_error "an invalid branch name is a usage error" 1 'bad\.\.name'

# --- a non-bare repository: work tree and index untouched --------------------
git init -q work
(cd work && echo hello > README && git add README &&
    git -c user.name=u -c user.email=u@e commit -qm init)
git -C work config user.name "Repo Config"
git -C work config user.email "repo@example.org"
status_before=$(git -C work status --porcelain=v2 --branch; sha256sum work/.git/index)
mirror build --store s.db --out site4 --repo work --branch pages
expect_status "a non-bare repository works, author from its config" 0
expect "the author came from the repository's config" test \
    "$(git -C work log -1 --format='%an <%ae>' pages)" = "Repo Config <repo@example.org>"
expect "the work tree and index are untouched" test \
    "$status_before" = "$(git -C work status --porcelain=v2 --branch; sha256sum work/.git/index)"
mirror build --store s.db --out site5 --repo work --branch "$(git -C work symbolic-ref --short HEAD)"
expect_error "the checked-out branch is refused" 3 'checked out'
expect "the refused build wrote no site" test ! -e site5

# --- SPEC 1: the product in one paragraph, end to end -----------------------
# A store in, the sweep's conflict recorded in it, Markdown and HTML
# overviews whose disputed facts carry a "⚠ disputed" marker linking to
# the conflict's page, and all of it one commit a reviewer reads with
# git log -p.
new_store p1.db "$MIRROR_TOP/tests/data/sweep/seeds.sql" || exit 1
git init -q --bare p1.git
mirror build --store p1.db --out p1 --repo p1.git --author "$author" --quiet
c1=$(sql p1.db "SELECT id FROM conflicts WHERE project = 'p05-interferometer'
    AND status = 'open'")
expect "SPEC 1: the build records the sweep's conflict in the store" \
    test "$RC" = 0 -a -n "$c1"
expect "SPEC 1: both disputed facts are marked in the Markdown overview, linked to the conflict's page" \
    test "$(grep -c "\[⚠ disputed\](../../conflicts/$c1\.md)" p1/projects/p05-interferometer/index.md)" = 2 -a -f "p1/conflicts/$c1.md"
expect "SPEC 1: ... and in the HTML overview" \
    test "$(grep -o "href=\"../../conflicts/$c1\.html\" [^>]*>⚠ disputed" p1/projects/p05-interferometer/index.html | wc -l)" = 2 -a -f "p1/conflicts/$c1.html"
expect "SPEC 1: git log -p of the branch shows the marked overview and the conflict's page" \
    sh -c "git --git-dir=p1.git log -p mirror -- projects/p05-interferometer/index.md conflicts/$c1.md |
        grep -q '^+.*GF-PTFE \[⚠ disputed\](../../conflicts/$c1\.md)' &&
        test \"\$(git --git-dir=p1.git show mirror:conflicts/$c1.md)\" = \"\$(cat p1/conflicts/$c1.md)\""

# --- issue 59: git shows a reviewer the Markdown and JSON -------------------
# The site's .gitattributes marks the HTML twins and the page digests as
# generated and not to be diffed: in a clone, git log -p of a one-fact
# change shows the Markdown hunks and says of each HTML page only that
# it differs; git hosts fold them (linguist-generated).
new_store ga.db "$ex" || exit 1
git init -q --bare ga.git
mirror build --store ga.db --out ga --repo ga.git --author "$author" --quiet
git clone -q -b mirror ga.git ga-clone
sql ga.db "UPDATE project_state SET value = '145 MHz',
    updated_at = '2026-11-01 00:00:00' WHERE id = 'p04-st-serdes-refclk'" >/dev/null
mirror build --store ga.db --out ga --repo ga.git --author "$author" --quiet
git -C ga-clone pull -q
git -C ga-clone log -1 -p --format= > ga.diff
expect "the site's .gitattributes marks HTML and the search index generated, -diff" sh -c "
    git -C ga-clone check-attr linguist-generated diff -- index.html | grep -q 'linguist-generated: set' &&
    git -C ga-clone check-attr diff -- index.html | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- search/t-0.js | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- changes.xml | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- api/changes-unaudited.json | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- feed.xml | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- sitemap.xml | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- sitemap-2.xml | grep -q 'diff: unset' &&
    git -C ga-clone check-attr diff -- changes.md | grep -q 'diff: unspecified' &&
    git -C ga-clone check-attr diff -- search/index.md | grep -q 'diff: unspecified' &&
    git -C ga-clone check-attr diff -- index.md | grep -q 'diff: unspecified'"
expect "git log -p of a one-fact change: Markdown hunks, no HTML lines" sh -c "
    grep -q '^+.*145 MHz' ga.diff && grep -q '^Binary files a/.*\.html and b/.*\.html differ' ga.diff &&
    test \"\$(awk '/^diff --git/ { html = (\$3 ~ /\\.html\$/) } /^@@/ && html' ga.diff | wc -l)\" = 0"
# The value is a decision: its project's decision log shows it too, but
# as HTML only (it regroups the overview's facts), so the change is one
# Markdown file of the project, its overview, and no decisions.md.
expect "a decision's change: its overview's Markdown, the decision log's HTML alone" sh -c "
    git -C ga-clone diff --name-only HEAD~1 HEAD -- projects/p04-gigabit/ > ga-files.txt &&
    grep -qx projects/p04-gigabit/index.md ga-files.txt &&
    grep -qx projects/p04-gigabit/decisions.html ga-files.txt &&
    test \"\$(grep -c '\\.md\$' ga-files.txt)\" = 1 &&
    test -z \"\$(git -C ga-clone ls-files 'projects/*/decisions.md' 'projects/*/subsystems.md')\""

# --- libgit2 is loaded when a build has something to commit -----------------
# (gen/gitlib/gitlib.c, doc/architecture.md): mirror does not link it,
# so a no-op, and a build with no repository, load none of its fifteen
# libraries; the dynamic linker's own trace (LD_DEBUG=libs) shows which
# it loaded, and that it traces at all (SQLite's, which mirror links).
mirror build --store s.db --out ld-site --repo repo.git --author "$author"
LD_DEBUG=libs mirror build --store s.db --out ld-site --repo repo.git \
    --author "$author"
expect "a no-op with --repo loads no libgit2" sh -c "
    test $RC = 0 && grep -q 'unchanged' '$T/out' &&
    grep -q 'calling init: .*libsqlite3' '$T/err' && ! grep -q libgit2 '$T/err'"
sql s.db "UPDATE project_state SET value = value || '!' WHERE id = 'p04-st-fpga'"
LD_DEBUG=libs mirror build --store s.db --out ld-plain
expect "a build with no repository loads no libgit2" sh -c "
    test $RC = 0 && test -s ld-plain/index.html &&
    grep -q 'calling init: .*libsqlite3' '$T/err' && ! grep -q libgit2 '$T/err'"
LD_DEBUG=libs mirror build --store s.db --out ld-site --repo repo.git \
    --author "$author"
expect "a build that commits loads it, and commits" sh -c "
    test $RC = 0 && grep -q '^committed [0-9a-f]\{40\} to mirror of repo.git' '$T/out' &&
    grep -q 'calling init: .*libgit2\.so' '$T/err'"
