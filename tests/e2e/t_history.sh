#!/bin/sh
# mirror build --repo, the history side as a git user sees it, beyond
# t_build_repo.sh: the trailer block as git parses it, the reflog entry,
# a multi-build history with git log -p, identity from the repository
# only, and what refuses (missing repository, no identity, a branch
# checked out in a linked work tree). git is the judge throughout.
# The promises of doc/history.md, "Who and when".
# The promises of doc/history.md, "Bare or not".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
# The user's own git config must change nothing: give git one that
# names somebody, and check mirror never uses it.
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Global Person"
git config --global user.email global@example.org
export SOURCE_DATE_EPOCH=1700000000
A='Mirror Bot <mirror@example.org>'

new_store s.db "$data/site.sql" || exit 1
git init -q --bare r.git

# --- trailers and reflog ----------------------------------------------------
mirror build --store s.db --out site --repo r.git --author "$A"
expect_status "the first build commits" 0
run=$(sql s.db "SELECT id FROM sweep_runs ORDER BY started_at DESC, id DESC LIMIT 1")
snap=$(sed -n 's/.*store snapshot \([0-9a-f]*\)$/\1/p' "$T/out")
git -C r.git log -1 --format=%B mirror | git interpret-trailers --parse > trailers
expect "git parses exactly the two trailers, in order" test "$(cat trailers)" = "Mirror-Sweep-Run: $run
Mirror-Store-Checksum: $snap"
expect "the body lists the added pages" sh -c "git -C r.git log -1 --format=%b mirror | grep -qx '  projects/p05-interferometer/index'"
expect "the reflog entry is the build's subject" test "$(git -C r.git reflog show --format=%gs mirror)" = "mirror: build (initial): $(git -C r.git log -1 --format=%s mirror)"
expect "reflogs were switched on in the bare repository" test "$(git -C r.git config core.logAllRefUpdates)" = true

# --- three builds read as a list of fact changes ------------------------------
sql s.db "UPDATE project_state SET value='160 mm' WHERE id='s2'"
SOURCE_DATE_EPOCH=1700000100 mirror build --store s.db --out site --repo r.git --author "$A" --no-sweep
sql s.db "UPDATE project_state SET value='170 mm' WHERE id='s2'"
SOURCE_DATE_EPOCH=1700000200 mirror build --store s.db --out site --repo r.git --author "$A" --no-sweep
expect "three builds, three commits, one line of history" test "$(git -C r.git rev-list --count --min-parents=0 --max-parents=1 mirror)" = 3
git -C r.git log -p --format='commit %at' mirror -- projects/p05-interferometer/index.md |
    grep -E '^(commit|[-+].*aperture)' > facts.log
# A fact is a table row: "| key | value | source | confidence | updated |".
expect "git log -p on the overview is the fact's history, newest first" test "$(sed 's/<[^>]*>//g; s/\*\*//g; s/^\([-+]\)| \([^|]*\) | \([^|]*\) |.*/\1 \2 = \3/' facts.log)" = "commit 1700000200
- aperture = 160 mm
+ aperture = 170 mm
commit 1700000100
- aperture = 150 mm
+ aperture = 160 mm
commit 1700000000
+ aperture = 150 mm"
expect "the subjects say what changed, newest first" test "$(git -C r.git log --format=%s mirror | sed 1d)" = "p05-interferometer aperture: 150 mm $(printf '\342\206\222') 160 mm
first mirror of the store: 2 projects, 20 facts (7 project_state, 9 entities, 4 memories), 1 open conflict"
expect "the reflog has all three builds" test "$(git -C r.git reflog show mirror | wc -l)" = 3
expect "git fsck --strict after three builds" sh -c "git -C r.git fsck --strict --no-progress 2>fsck.err"

# --- identity only from --author or the repository ---------------------------
git init -q --bare anon.git
mirror build --store s.db --out site2 --repo anon.git --no-sweep
expect_error "no --author and no identity in the repository: usage error" 1 'no commit author'
expect "the refused build made no branch" test -z "$(git -C anon.git for-each-ref)"
git -C anon.git config user.name "Repo Owner"
git -C anon.git config user.email owner@example.org
mirror build --store s.db --out site2 --repo anon.git --no-sweep
expect "the repository's own identity is used, never the global one" test "$RC|$(git -C anon.git log -1 --format='%an <%ae>|%cn' mirror)" = "0|Repo Owner <owner@example.org>|Repo Owner"

# --- refusals ---------------------------------------------------------------------
mirror build --store s.db --out site3 --repo nowhere --author "$A" --no-sweep
expect_error "a missing repository" 3 'nowhere: no such directory'
mkdir -p deep/er
git init -q deep
mirror build --store s.db --out site3 --repo deep/er --author "$A" --no-sweep
expect_error "a directory inside a repository is not taken for it" 3 'deep/er: not a git repository'
git clone -q --bare r.git shared.git
git -C shared.git worktree add -q ../wt mirror
tip=$(git -C shared.git rev-parse mirror)
sql s.db "UPDATE project_state SET value='180 mm' WHERE id='s2'"
mirror build --store s.db --out site3 --repo shared.git --author "$A" --no-sweep
expect_error "a branch checked out in a linked work tree is refused" 3 'refs/heads/mirror is checked out in the work tree .*wt'
expect "that branch did not move" test "$(git -C shared.git rev-parse mirror)" = "$tip"
