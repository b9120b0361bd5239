#!/bin/sh
# t_commit_msg.sh: scripts/commit-msg, the commit-msg hook `make hooks`
# installs (issue 58, item 7; doc/development.md, "Contributing"). Good
# messages pass; each kind of bad one fails with exit 1 and one line on
# stderr saying why. Then make hooks in a scratch clone and in a worktree
# of it, and git commit through the installed hook.
. "$MIRROR_TOP/tests/e2e/lib.sh"

hook="$MIRROR_TOP/scripts/commit-msg"

# good NAME TEXT: the hook passes a message of TEXT (printf format).
good() {
	# shellcheck disable=SC2059
	printf "$2" >msg
	sh "$hook" msg >out 2>err
	RC=$?
	if [ "$RC" = 0 ] && [ ! -s err ]; then ok "passes: $1"; else
		not_ok "passes: $1" "$(cat err)"; fi
}

# bad NAME PATTERN TEXT: the hook refuses TEXT with exit 1 and one line
# "commit-msg: ..." matching the grep -E PATTERN.
bad() {
	# shellcheck disable=SC2059
	printf "$3" >msg
	sh "$hook" msg >out 2>err
	RC=$?
	if [ "$RC" = 1 ] && [ "$(wc -l <err)" -eq 1 ] &&
	    grep -Eq "^commit-msg: .*$2" err; then
		ok "refuses, saying why: $1"
	else
		not_ok "refuses, saying why: $1" "stderr: $(cat err)"
	fi
}

s72="gen/site: $(printf '%062d' 0 | tr 0 x)"   # 72 characters
good "a subject alone" 'util: add one test of a control character\n'
good "a subject, a blank line, a body" \
    'core/store: read flagged facts once\n\nWhy: both pages read them.\nFigures: none.\n'
good "a subject of exactly 72 characters" "$s72\n"
good "several areas, dots and underscores in one" \
    'core/rules, gen/site: add house.py table rows for cmd_build\n'
good "comment lines and what follows git's scissors are ignored" \
    '# Please enter the commit message\n\nsite: wrap labels\n# comment\n\nBody.\n# ------------------------ >8 ------------------------\nNot A Subject.\n'
good "fixup!, squash! and amend! prefixes are skipped" \
    'fixup! squash! site: wrap labels\n'
good "a merge's own subject" "Merge branch 'ops'\n"
good "an imperative that ends in -ed" 'store: embed the schema\n'

bad "a subject over 72 characters" "is 73 characters; at most 72" "${s72}x\n"
bad "a long subject counts characters, not bytes" "is 73 characters" \
    "$(printf 'a: add %066d' 0 | sed 's/0/é/g')\n"
bad "no area" "must start 'area: '" 'Fix the build\n'
bad "an upper-case area" "must start 'area: '" 'Site: wrap labels\n'
bad "no space after the colon" "must start 'area: '" 'site:wrap labels\n'
bad "the text starts upper-case" "lower-case imperative" 'site: Wrap labels\n'
bad "a past tense" "'fixed' is not imperative" 'site: fixed the labels\n'
bad "a third person" "'adds' is not imperative" 'site: adds labels\n'
bad "a trailing period" "ends with a period" 'site: wrap labels.\n'
bad "no blank line before the body" "blank line between" \
    'site: wrap labels\nbecause they overflow\n'
bad "nothing after the area" "no text after" 'site: \n'
bad "an empty message (comments only)" "is empty" '# nothing\n\n'
bad "a fixup! of a bad subject" "must start 'area: '" 'fixup! Fix it\n'

# --- make hooks, in a clone and in a worktree ---------------------------------------
export GIT_CONFIG_NOSYSTEM=1 HOME="$T" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q repo && mkdir repo/scripts &&
    cp "$MIRROR_TOP/Makefile" repo/ && cp "$hook" repo/scripts/ &&
    git -C repo add -A && git -C repo commit -q --no-verify -m "x: start" ||
    exit 1
(cd repo && make -s hooks) >out 2>err
RC=$?
expect "make hooks installs the hook into .git/hooks, executable" \
    sh -c "test $RC = 0 && test -x repo/.git/hooks/commit-msg &&
        cmp -s repo/.git/hooks/commit-msg '$hook'"
echo a >repo/a && git -C repo add a
git -C repo commit -q -m "Added a file." >out 2>err
RC=$?
expect "git commit refuses a bad subject through the hook, saying why" \
    sh -c "test $RC != 0 && grep -q '^commit-msg: ' err &&
        test \"\$(git -C repo rev-list --count HEAD)\" = 1"
git -C repo commit -q -m "repo: add a file" -m "Why: a test." >out 2>err
RC=$?
expect "git commit takes a good message through the hook" \
    sh -c "test $RC = 0 && test \"\$(git -C repo rev-list --count HEAD)\" = 2"
rm repo/.git/hooks/commit-msg
git -C repo worktree add -q ../wt 2>/dev/null || exit 1
(cd wt && make -s hooks) >out 2>err
RC=$?
expect "make hooks from a worktree installs into the clone's hooks folder" \
    sh -c "test $RC = 0 && test -x repo/.git/hooks/commit-msg"
