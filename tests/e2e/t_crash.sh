#!/bin/sh
# Crash consistency: 'mirror build --repo' killed with SIGKILL, many
# times (tests/tools/crash_trials.py): once at each event of a build (in
# the sweep's transaction, on the staging directory's appearance, while
# the pack is written, after the branch moved while the output
# directory's journal is written, once applying it has begun), then at
# moments spread over the whole run from a fixed seed. Every kill must
# leave the old site or the new one, complete, or a complete journal
# whose roll-forward (the first thing the next build into the directory
# does) gives the new one; a git repository that 'git fsck --strict'
# passes with the branch at the old commit or the new; a store that
# passes integrity_check and holds all of the sweep or none of it. The
# next build then succeeds, yields the new site and leaves nothing beside
# it (staging directory, journal, lock file).
# The promises of doc/reliability.md, "Crash consistency".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
# Facts in the generated store: enough for a run of about half a second
# on the 2-core build machine (CRASH_FACTS overrides, CRASH_BUDGET is the
# seconds the trials may take, CRASH_MAX_TRIALS their most).
FACTS=${CRASH_FACTS:-2000}

# Version A: the bench generator's store, swept and built, committed.
mkdir base
new_store base/store.db || exit 1
{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES($FACTS);"
  cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
    sqlite3 -bail base/store.db >/dev/null
git init -q --bare base/repo.git
mirror build --store base/store.db --out base/site --repo base/repo.git \
    --author 'Crash Test <crash@example.org>' --quiet
expect "version A builds and commits" test "$RC" = 0
# The marker's second line is the tree DIR was committed as: the next
# build's base for its commit. A build without --repo clears it (on a
# copy: it writes nothing else, the files being the same, but for the
# stamp, which says this --no-sweep build did not sweep).
expect "the site's marker records the tree it was committed as" \
    test "$(sed -n 2p base/site/.mirror-output)" = \
    "tree $(git --git-dir=base/repo.git rev-parse 'mirror^{tree}')"
cp -a base norepo
ino=$(stat -c %i norepo/site/index.md)
mirror build --store norepo/store.db --out norepo/site --no-sweep --force \
    --quiet
expect "a build without --repo drops the tree line and rewrites no page" \
    sh -c "test $RC = 0 && test \"\$(cat norepo/site/.mirror-output)\" = \
    \"\$(sed -n 1p base/site/.mirror-output)\" && \
    test \$(stat -c %i norepo/site/index.md) = $ino && \
    diff -r -x .mirror-output -x build.json base/site norepo/site \
    >/dev/null && test \"\$(jq .swept norepo/site/api/build.json)\" = false"
rm -rf norepo

# Version B: a project goes (its pages go), one comes (pages added, a new
# conflict), state values and descriptions change in every project (over
# 100 new files: the history writes a pack), the parameter disagreements
# vanish (conflicts closed by the sweep).
sql base/store.db "
BEGIN;
DELETE FROM relationships WHERE source_entity_id IN
    (SELECT id FROM entities WHERE project = 'p3') OR target_entity_id IN
    (SELECT id FROM entities WHERE project = 'p3');
DELETE FROM entities WHERE project = 'p3';
DELETE FROM memories WHERE project = 'p3';
DELETE FROM project_state WHERE project IN ('p3', 'a3');
DELETE FROM projects WHERE id = 'p3';
INSERT INTO projects(id, name, aliases, description, created_at) VALUES
    ('pnew', 'New project', '[\"pn\"]', 'added in version B',
     '2024-03-01 00:00:00');
INSERT INTO project_state(id, project, category, key, value, source, status,
    created_at, updated_at) VALUES
    ('s-new-1', 'pnew', 'fact', 'bore', '12 mm', 'crash test', 'active',
     '2024-03-01 00:00:00', '2024-03-01 00:00:00'),
    ('s-new-2', 'pn', 'decision', 'finish', 'anodised', 'crash test',
     'active', '2024-03-01 00:00:00', '2024-03-01 00:00:00');
INSERT INTO memories(id, memory_type, content, project, status, created_at,
    updated_at) VALUES
    ('m-new-1', 'knowledge', 'the bore is 14 mm', 'pnew', 'active',
     '2024-03-02 00:00:00', '2024-03-02 00:00:00');
UPDATE project_state SET value = value || ' (revised)'
    WHERE key = 'key_2' AND status = 'active';
UPDATE entities SET properties = json_set(properties, '$.value', 4.8)
    WHERE entity_type = 'parameter';
UPDATE entities SET description = description || ' (revised)'
    WHERE entity_type IN ('subsystem', 'component', 'material');
COMMIT;"
expect "version B of the store is written" test $? = 0

python3 "$MIRROR_TOP/tests/tools/crash_trials.py" "$MIRROR" base work \
    --budget "${CRASH_BUDGET:-30}" --max-trials "${CRASH_MAX_TRIALS:-40}" \
    --writer-trials "${CRASH_WRITER_TRIALS:-12}" \
    >"$T/out" 2>"$T/err"
RC=$?
expect "the trials ran (reference run, then kills)" test "$RC" = 0

# jq_is NAME FILTER: a case on the summary; the details go with a failure.
jq_is() {
	if jq -e "$2" "$T/out" >/dev/null 2>&1; then ok "$1"; else
		not_ok "$1" "jq: $2" "$(jq -c '.bad' "$T/out" 2>/dev/null)" \
		    "$(jq -r '.details[]?' "$T/out" 2>/dev/null | head -6)"
	fi
}

echo "# $(jq -c '{trials, T, seed, phases, events, journals, stale_ref_locks}' "$T/out" 2>/dev/null)"
echo "# writer: $(jq -c '.writer | del(.details)' "$T/out" 2>/dev/null)"
jq_is "a run lasts long enough to be cut at many points" '.T >= 0.05'
jq_is "at least 10 kills" '.trials >= 10'
jq_is "the old and the new site differ (the change adds and removes pages)" \
    '.commit_a != .commit_b and .files_a != .files_b'
jq_is "after every kill the site is exactly the old one or the new one, or a complete journal is beside it" \
    '.bad.site == 0'
jq_is "a kill while the journal was applied left it complete, and its roll-forward alone gives the new site" \
    '.journals.whole > 0 and .bad.rollforward == 0'
jq_is "after every kill git fsck --strict is clean" '.bad.fsck == 0'
jq_is "after every kill the branch is at the old commit or the new" \
    '.bad.branch == 0'
jq_is "after every kill the store passes integrity_check" \
    '.bad.integrity == 0'
jq_is "after every kill the store holds all of the sweep or none of it" \
    '.bad.store == 0'
jq_is "a lock file a kill left in the repository stops the next build, named" \
    '.bad.stale_lock == 0'
jq_is "after every kill the next build succeeds" '.bad.rebuild_exit == 0'
jq_is "... yields the new site" '.bad.rebuild_site == 0'
jq_is "... commits the new site's tree" '.bad.rebuild_tree == 0'
jq_is "... records exactly the reference run's conflicts" \
    '.bad.rebuild_store == 0'
jq_is "... leaves nothing beside the site (staging directory, journal, lock file)" \
    '.bad.stale_stage == 0'
jq_is "... and a repository git fsck --strict passes" '.bad.fsck_after == 0'
jq_is "kills landed in every phase: sweep, render, commit, journal, apply" \
    '[.phases.sweep, .phases.render, .phases.commit, .phases.journal,
      .phases.apply] | all(. != null and . > 0)'

# A killed writer (issue 16): SIGKILLed inside BEGIN IMMEDIATE in
# rollback-journal mode; every read-only command, then a build, on what
# it left, with no manual step.
wjq_is() {
	if jq -e ".writer | $2" "$T/out" >/dev/null 2>&1; then ok "$1"; else
		not_ok "$1" "jq: .writer | $2" \
		    "$(jq -r '.writer.details[]?' "$T/out" 2>/dev/null | head -6)"
	fi
}
wjq_is "killed writers: at least 10 kills inside the transaction" \
    '.kills >= 10 and .kills == .trials'
wjq_is "killed writers: most kills leave a hot journal" \
    '.hot_journals * 2 >= .kills'
wjq_is "killed writers: health, conflicts list, build --no-sweep and a build all exit 0 (no manual step)" \
    '.failed_runs == 0 and .runs == 4 * .trials'
wjq_is "killed writers: every run rolls the journal back (none left)" \
    '.journal_left == 0'
wjq_is "killed writers: every read-only run finds the old store, byte for byte" \
    '.outcomes.old == 3 * .trials and .outcomes.new == 0 and .outcomes.other == 0'
wjq_is "killed writers: the build's store passes integrity_check" \
    '.build_integrity == 0'
