#!/bin/sh
# Incremental builds equal full builds (tests/tools/incr_trials.py, whose
# header says how and why): the example store in two copies gets the
# same random edits, one at a time (facts inserted, updated, superseded
# and deleted; conflicts resolved and dismissed; projects added and
# removed; templates, theme, title, base URL and clock changed; edits
# that change nothing). After each, 'mirror build' into A (DIR and
# repository kept from the last build, no --force) and 'mirror build
# --force' into B (an empty DIR): A's files, A's branch tip tree and A's
# store must be B's, each DIR its tip's tree, and A commits exactly when
# the site changed. Every 25 edits and at the end: git fsck --strict,
# one commit per site change, B's trees in order.
#
#   INCR_EDITS   number of edits (default 200: about a minute on the
#                2-core build machine, the two builds of a step at once)
#   INCR_SEED    the random seed (printed; a failure names the step)
#   INCR_KEEP    a directory to copy the trials' work tree to when they
#                diverge (stores, sites, repositories, templates, theme)
# A build with the sweep follows a --no-sweep build of the same store
# directly (--unswept): the stamp says whether its build swept, so that
# build sweeps and shows the conflicts B's does.
# The promises of doc/site.md, "A changed store renders only what changed".
. "$MIRROR_TOP/tests/e2e/lib.sh"
EDITS=${INCR_EDITS:-200}
SEED=${INCR_SEED:-20261101}

new_store base.db "$MIRROR_TOP/site-example/example.sql"
expect "the example store loads" test $? = 0

python3 "$MIRROR_TOP/tests/tools/incr_trials.py" "$MIRROR" "$MIRROR_TOP" \
    base.db work --edits "$EDITS" --seed "$SEED" \
    ${INCR_KEEP:+--keep "$INCR_KEEP"} --unswept \
    >"$T/trials.json" 2>"$T/trials.err"
RC=$?
echo "# seed $SEED, $EDITS edits: $(jq -c '{edits, seconds, pair_ms,
    cpu_seconds, changes, noop_builds, no_sweep_builds, catch_up_sweeps,
    a_unchanged, files_written}' "$T/trials.json" 2>/dev/null)"
echo "# kinds: $(jq -c '.kinds' "$T/trials.json" 2>/dev/null)"
# A divergence, as the tool wrote it for a person.
sed 's/^/# /' "$T/trials.err"

# jq_is NAME FILTER: a case on the summary; the details go with a failure.
jq_is() {
	if jq -e "$2" "$T/trials.json" >/dev/null 2>&1; then ok "$1"; else
		not_ok "$1" "jq: $(printf '%s' "$2" | tr -s ' \n\t' ' ')" \
		    "seed $SEED; bad: $(jq -c '.bad' \
		    "$T/trials.json" 2>/dev/null)" \
		    "$(jq -r '.details[]?' "$T/trials.json" 2>/dev/null |
		    head -6)"
	fi
}

expect "the trials ran (exit 0: no divergence; 1: one, reported above)" \
    test "$RC" = 0
jq_is "$EDITS edits: both builds exit 0 after every edit" \
    ".bad.exit == 0 and .asked == $EDITS"
jq_is "$EDITS edits: every incremental build equals the --force build" \
    '.bad.files == 0 and .edits == .asked'
jq_is "... (tree ids)" '.bad.tree == 0 and .edits == .asked'
jq_is "... (the .mirror-output marker)" '.bad.marker == 0'
jq_is "... (both stores, after each build's sweep)" '.bad.store == 0'
jq_is "every review command did the same on both stores, and succeeded" \
    '.bad.command == 0'
jq_is "the incremental history is valid (git fsck --strict)" \
    '.bad.fsck == 0 and .fsck_runs >= 2 * ((.edits / 25 | floor) + 1)'
jq_is "no-op builds make no commit, every other build one" \
    '.bad.commit == 0'
jq_is "the branch holds a commit per site change, the --force trees in order" \
    '.bad.history == 0 and .commits == .changes'
jq_is "each DIR holds its branch tip's tree" '.bad.dir_tree == 0'
jq_is "nothing is left beside DIR (staging directory, lock file)" \
    '.bad.leftover == 0'
jq_is "the trials covered every edit kind, --no-sweep builds, no-op builds" \
    '(.kinds | to_entries | all(.value > 0)) and .no_sweep_builds > 0 and
     .noop_builds >= 5 and .changes > .asked / 2'
jq_is "pages of every family were added, changed and removed" \
    '.families as $f |
     (["project", "decisions", "subsystem", "assets"] |
      all(. as $k | $f[$k].added > 0 and $f[$k].changed > 0 and
          $f[$k].removed > 0)) and
     (["index", "conflicts", "conflict", "feeds", "api"] |
      all(. as $k | $f[$k].changed > 0)) and $f.conflict.added > 0'
