#!/bin/sh
# The bundled example store (site-example/): it loads the way run.sh
# loads it, mirror reads it cleanly, it covers every type, status and
# category of the store contract, every SPEC 8 worked example is present
# with the exact status, aliases resolve, and site-example/README.md's
# figures and expected conflicts match the SQL. sqlite3 and jq judge.
. "$MIRROR_TOP/tests/e2e/lib.sh"
ex="$MIRROR_TOP/site-example"
# 2026-11-01 00:00:00 UTC, the clock site-example/README.md assumes.
EPOCH=1793491200

# jqe FILTER FILE: jq -e as a quiet judge.
jqe() { jq -e "$1" "$2" >/dev/null; }

# q SQL: one query against the example store.
q() { sqlite3 -bail ex.db "$1"; }

# same NAME EXPECTED ACTUAL: a case that passes when both texts are equal,
# and shows the difference when they are not.
same() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		printf '%s\n' "$2" >"$T/want"
		printf '%s\n' "$3" >"$T/got"
		not_ok "$1" "expected (<) and got (>):"
		diff "$T/want" "$T/got" | sed -n '1,12s/^/#   /p'
	fi
}

# --- loading --------------------------------------------------------------
mirror init --store ex.db --quiet
expect "mirror init makes the store for the example" test "$RC" = 0
sqlite3 -bail ex.db <"$ex/example.sql" >load.out 2>load.err
load_rc=$?
expect "example.sql loads into a fresh store with no error or output" \
    sh -c "test $load_rc = 0 && test ! -s load.out && test ! -s load.err"
expect "the loaded store passes integrity_check" integrity_ok ex.db
expect "every JSON column holds JSON of the right kind" test "$(q "
  SELECT (SELECT count(*) FROM projects WHERE json_type(aliases) IS NOT 'array')
       + (SELECT count(*) FROM entities WHERE json_type(properties) IS NOT 'object'
                                           OR json_type(source_refs) IS NOT 'array')
       + (SELECT count(*) FROM memories WHERE json_type(domain_tags) IS NOT 'array')
       + (SELECT count(*) FROM memory_audit WHERE json_type(before_json) IS NOT 'object'
                                               OR json_type(after_json) IS NOT 'object')")" = 0

# --- mirror reads it --------------------------------------------------------
SOURCE_DATE_EPOCH=$EPOCH mirror health --store ex.db --json
expect "mirror health --json reads the example with no error" \
    sh -c "test $RC = 0 && test ! -s '$T/err' && jq -e . '$T/out' >/dev/null"
expect "health counts match site-example/README.md" jqe '
  .projects == 3 and .relationships == 287 and .open_conflicts_count == 0 and
  .layers.project_state.total == 52 and
  .layers.project_state.by_status == {"active":44,"invalid":1,"superseded":7} and
  .layers.entities.total == 257 and
  .layers.entities.by_status ==
      {"active":243,"candidate":3,"invalid":2,"superseded":9} and
  .layers.memories.total == 65 and
  .layers.memories.by_status == {"active":51,"candidate":4,"graduated":2,
                                 "invalid":4,"superseded":4} and
  .layers.memories.expired == 4' "$T/out"
# The README's clock window: the same 4 expired memories from just after
# 2026-06-30 to just before 2030-12-31; none before the first expiry.
SOURCE_DATE_EPOCH=1782777601 mirror health --store ex.db --json
e1=$(jq .layers.memories.expired "$T/out")
SOURCE_DATE_EPOCH=1924905599 mirror health --store ex.db --json
e2=$(jq .layers.memories.expired "$T/out")
SOURCE_DATE_EPOCH=1748736000 mirror health --store ex.db --json
e3=$(jq .layers.memories.expired "$T/out")
same "expiry holds across the README's clock window, not before it" \
    "4 4 0" "$e1 $e2 $e3"
expect "the expired memories are the four README lists" test "$(q "
  SELECT group_concat(id, ' ') FROM (SELECT id FROM memories
   WHERE status = 'active' AND valid_until < '2026-11-01 00:00:00' ORDER BY id)")" = \
    "mem-epi-optatec mem-know-aperture-old mem-know-sfp-stock mem-pref-weekly-reviews"

# --- coverage of the contract ---------------------------------------------
same "every entity type of the contract is present and active" \
    "analysis_model artifact component constraint decision interface material parameter process project requirement result subsystem system validation_claim vendor" \
    "$(q "SELECT group_concat(t, ' ') FROM (SELECT DISTINCT entity_type AS t
          FROM entities WHERE status = 'active' ORDER BY t)")"
same "every entity status is present" "active candidate invalid superseded" \
    "$(q "SELECT group_concat(s, ' ') FROM (SELECT DISTINCT status AS s FROM entities ORDER BY s)")"
same "every memory type is present and active" \
    "adaptation episodic identity knowledge preference project" \
    "$(q "SELECT group_concat(t, ' ') FROM (SELECT DISTINCT memory_type AS t
          FROM memories WHERE status = 'active' ORDER BY t)")"
same "every memory status is present" \
    "active candidate graduated invalid superseded" \
    "$(q "SELECT group_concat(s, ' ') FROM (SELECT DISTINCT status AS s FROM memories ORDER BY s)")"
same "every state category has active rows in every project" \
    "p04-gigabit 7
p05-interferometer 7
p06-polisher 7" \
    "$(q "SELECT a.canonical || ' ' || count(DISTINCT s.category) FROM project_state s
          JOIN (SELECT id AS name, id AS canonical FROM projects UNION ALL
                SELECT j.value, p.id FROM projects p, json_each(p.aliases) j) a
            ON a.name = s.project
         WHERE s.status = 'active' AND s.category IN ('status','decision',
               'requirement','contact','milestone','fact','config')
         GROUP BY a.canonical ORDER BY a.canonical")"
expect "trusted state keeps superseded history" \
    test "$(q "SELECT count(*) FROM project_state WHERE status = 'superseded'")" -ge 5
same "every relationship family is present" \
    "affected_by_decision analyzed_by based_on_assumption constrained_by contains depends_on described_by evidenced_by interfaces_with part_of satisfies summarized_in supersedes supports updated_by_session uses_material validated_by" \
    "$(q "SELECT group_concat(t, ' ') FROM (SELECT DISTINCT relationship_type AS t
          FROM relationships ORDER BY t)")"
expect "no relationship points at a missing entity" test "$(q "
  SELECT count(*) FROM relationships r
   WHERE r.source_entity_id NOT IN (SELECT id FROM entities)
      OR r.target_entity_id NOT IN (SELECT id FROM entities)")" = 0
expect "'A supersedes B' always leaves B superseded" test "$(q "
  SELECT count(*) FROM relationships r JOIN entities b ON b.id = r.target_entity_id
   WHERE r.relationship_type = 'supersedes' AND b.status <> 'superseded'")" = 0
expect "uses_material edges agree with the material's component" test "$(q "
  SELECT count(*) FROM relationships r
    JOIN entities c ON c.id = r.source_entity_id
    JOIN entities m ON m.id = r.target_entity_id
   WHERE r.relationship_type = 'uses_material'
     AND (c.entity_type <> 'component' OR m.entity_type <> 'material'
          OR json_extract(m.properties, '$.component') IS NOT c.name)")" = 0
expect "every timestamp is fixed, well formed, in 2025 to mid-2026" test "$(q "
  WITH ts(t) AS (
    SELECT created_at FROM projects UNION ALL
    SELECT created_at FROM project_state UNION ALL SELECT updated_at FROM project_state UNION ALL
    SELECT created_at FROM entities UNION ALL SELECT updated_at FROM entities UNION ALL
    SELECT created_at FROM relationships UNION ALL
    SELECT created_at FROM memories UNION ALL SELECT updated_at FROM memories UNION ALL
    SELECT timestamp FROM memory_audit)
  SELECT count(*) FROM ts WHERE t NOT GLOB '202[56]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]'
      OR t < '2025-01-01' OR t >= '2026-07-01'")" = 0
expect "no row was updated before it was created" test "$(q "
  SELECT (SELECT count(*) FROM project_state WHERE updated_at < created_at)
       + (SELECT count(*) FROM entities WHERE updated_at < created_at)
       + (SELECT count(*) FROM memories WHERE updated_at < created_at)")" = 0
expect "the mirror-owned tables are left empty for the sweep" test "$(q "
  SELECT (SELECT count(*) FROM conflicts) + (SELECT count(*) FROM conflict_members)
       + (SELECT count(*) FROM sweep_runs)")" = 0

# --- projects and aliases ---------------------------------------------------
same "the three projects and their aliases" \
    'p04-gigabit ["p04","gigabit"]
p05-interferometer ["p05","interferometer"]
p06-polisher ["p06"]' "$(q "SELECT id || ' ' || aliases FROM projects ORDER BY id")"
# Rows per canonical project over all three layers, resolving aliases as
# mirror's project_alias table does; and the same without aliases.
resolved() {
	q "SELECT count(*) FROM (
	     SELECT project FROM project_state UNION ALL SELECT project FROM entities
	     UNION ALL SELECT project FROM memories) r
	   WHERE r.project = '$1' OR r.project IN
	     (SELECT j.value FROM projects p, json_each(p.aliases) j WHERE p.id = '$1')"
}
literal() {
	q "SELECT (SELECT count(*) FROM project_state WHERE project = '$1')
	        + (SELECT count(*) FROM entities WHERE project = '$1')
	        + (SELECT count(*) FROM memories WHERE project = '$1')"
}
same "rows written with alias p05 count for p05-interferometer" \
    "$(($(literal p05-interferometer) + $(literal p05) + $(literal interferometer)))" \
    "$(resolved p05-interferometer)"
expect "alias p05 is used in state and memories" test "$(q "
  SELECT (SELECT count(*) FROM project_state WHERE project = 'p05') > 0
     AND (SELECT count(*) FROM memories WHERE project = 'p05') > 0")" = 1
expect "every layer uses some alias" test "$(q "
  WITH al(a) AS (SELECT j.value FROM projects p, json_each(p.aliases) j)
  SELECT (SELECT count(*) FROM project_state WHERE project IN al) > 0
     AND (SELECT count(*) FROM entities WHERE project IN al) > 0
     AND (SELECT count(*) FROM memories WHERE project IN al) > 0")" = 1
same "exactly one row names a project that projects does not list" \
    "memories mem-proj-p03-jig p03-alignment-jig" "$(q "
  WITH known(n) AS (SELECT id FROM projects UNION
                    SELECT j.value FROM projects p, json_each(p.aliases) j)
  SELECT 'state ' || id || ' ' || project FROM project_state WHERE project NOT IN known
  UNION ALL SELECT 'entities ' || id || ' ' || project FROM entities
   WHERE project <> '' AND project NOT IN known
  UNION ALL SELECT 'memories ' || id || ' ' || project FROM memories
   WHERE project <> '' AND project NOT IN known")"
expect "memories tied to no project exist" \
    test "$(q "SELECT count(*) FROM memories WHERE project = ''")" -ge 5

# --- SPEC 8, row by row -----------------------------------------------------
# One line per row: id, status, project as written, and the fields its
# slot reads; a changed status or value shows up as a diff.
same "SPEC 8 rows are present with the exact status and values" \
'state p05-st-lateral-support-material active p05 decision lateral_support_material=GF-PTFE
entity p05-dec-lateral-material-peek active interferometer lateral support/material=PEEK
memory mem-pref-rebase active p04-gigabit preference: prefers rebase workflow
memory mem-pref-merge-commit active p04-gigabit preference: prefers merge-commit workflow
memory mem-pref-small-diffs-1 active  preference: prefers small diffs
memory mem-pref-small-diffs-2 active  preference: prefers small diffs
memory mem-pref-zemax active p05-interferometer preference: uses Zemax OpticStudio for tolerancing
memory mem-pref-codev candidate p05-interferometer preference: uses Code V for tolerancing
entity p05-dec-phase-actuator-stepper superseded p05-interferometer phase shifter/actuator=stepper micrometer
entity p05-dec-phase-actuator-piezo active p05-interferometer phase shifter/actuator=piezo stack
entity p05-req-mass-cap active p05-interferometer mass cap=4.8 kg on Camera head
entity p05-req-heat-cap active p05-interferometer heat flux cap=20 W on Camera head
entity p05-par-mirror-mass-cad active p05-interferometer reference mirror/mass=4.8 kg
entity p05-par-mirror-mass-weighed active p05-interferometer reference mirror/mass=4.82 kg
entity p06-par-head-mass-datasheet active p06-polisher polishing head/mass=4.8 kg
entity p06-par-head-mass-measured active p06-polisher polishing head/mass=4.80 kg' \
    "$(q "
  SELECT 'state ' || id || ' ' || status || ' ' || project || ' ' || category || ' '
         || key || '=' || value FROM project_state WHERE id = 'p05-st-lateral-support-material';
  SELECT 'entity ' || id || ' ' || status || ' ' || project || ' ' ||
         CASE entity_type
           WHEN 'decision' THEN json_extract(properties, '$.target') || '/' ||
                json_extract(properties, '$.field') || '=' || json_extract(properties, '$.value')
           WHEN 'requirement' THEN json_extract(properties, '$.key') || '=' ||
                json_extract(properties, '$.value') || ' ' || json_extract(properties, '$.unit')
                || ' on ' || json_extract(properties, '$.component')
           ELSE json_extract(properties, '$.scope') || '/' || name || '=' ||
                json_extract(properties, '$.value') || ' ' || json_extract(properties, '$.unit')
         END
    FROM entities WHERE id = 'p05-dec-lateral-material-peek';
  SELECT 'memory ' || id || ' ' || status || ' ' || project || ' ' || memory_type || ': ' || content
    FROM memories WHERE id IN ('mem-pref-rebase', 'mem-pref-merge-commit',
         'mem-pref-small-diffs-1', 'mem-pref-small-diffs-2', 'mem-pref-zemax', 'mem-pref-codev')
   ORDER BY CASE id WHEN 'mem-pref-rebase' THEN 1 WHEN 'mem-pref-merge-commit' THEN 2
         WHEN 'mem-pref-small-diffs-1' THEN 3 WHEN 'mem-pref-small-diffs-2' THEN 4
         WHEN 'mem-pref-zemax' THEN 5 ELSE 6 END;
  SELECT 'entity ' || id || ' ' || status || ' ' || project || ' ' ||
         CASE entity_type
           WHEN 'decision' THEN json_extract(properties, '$.target') || '/' ||
                json_extract(properties, '$.field') || '=' || json_extract(properties, '$.value')
           WHEN 'requirement' THEN json_extract(properties, '$.key') || '=' ||
                json_extract(properties, '$.value') || ' ' || json_extract(properties, '$.unit')
                || ' on ' || json_extract(properties, '$.component')
           ELSE json_extract(properties, '$.scope') || '/' || name || '=' ||
                json_extract(properties, '$.value') || ' ' || json_extract(properties, '$.unit')
         END
    FROM entities WHERE id IN ('p05-dec-phase-actuator-stepper',
         'p05-dec-phase-actuator-piezo', 'p05-req-mass-cap', 'p05-req-heat-cap',
         'p05-par-mirror-mass-cad', 'p05-par-mirror-mass-weighed',
         'p06-par-head-mass-datasheet', 'p06-par-head-mass-measured')
   ORDER BY CASE id WHEN 'p05-dec-phase-actuator-stepper' THEN 1
         WHEN 'p05-dec-phase-actuator-piezo' THEN 2 WHEN 'p05-req-mass-cap' THEN 3
         WHEN 'p05-req-heat-cap' THEN 4 WHEN 'p05-par-mirror-mass-cad' THEN 5
         WHEN 'p05-par-mirror-mass-weighed' THEN 6
         WHEN 'p06-par-head-mass-datasheet' THEN 7 ELSE 8 END")"
expect "each SPEC 8 example is marked in example.sql" \
    test "$(grep -c -- '-- SPEC 8 example:' "$ex/example.sql")" -ge 8

# --- the other cases the example must hold ------------------------------------
same "ruff vs flake8 for linting, never use X vs use X: both active" \
'mem-pref-compressed-air active p06-polisher use compressed air for lens cleaning
mem-pref-flake8 active  uses flake8 for linting
mem-pref-never-compressed-air active p06-polisher never use compressed air for lens cleaning
mem-pref-ruff active  uses ruff for linting' "$(q "
  SELECT id || ' ' || status || ' ' || project || ' ' || content FROM memories
   WHERE id IN ('mem-pref-ruff', 'mem-pref-flake8', 'mem-pref-never-compressed-air',
                'mem-pref-compressed-air') ORDER BY id")"
same "one key disagrees across all three layers (spindle max speed)" \
'3 p06-st-spindle-max 300 rpm
2 p06-par-spindle-max 350 rpm
1 mem-know-spindle Spindle max speed is 250 rpm' "$(q "
  SELECT '3 ' || id || ' ' || value FROM project_state
   WHERE key = 'spindle_max_speed' AND status = 'active';
  SELECT '2 ' || id || ' ' || json_extract(properties, '$.value') || ' ' ||
         json_extract(properties, '$.unit') FROM entities
   WHERE entity_type = 'parameter' AND status = 'active' AND name = 'max speed'
     AND json_extract(properties, '$.scope') = 'spindle';
  SELECT '1 ' || id || ' ' || content FROM memories
   WHERE status = 'active' AND content LIKE 'Spindle max speed is %'")"
same "the decision log holds a reversal A, B, A on one slot" \
    "SFP superseded|SFP+ superseded|SFP active" "$(q "
  SELECT group_concat(v, '|') FROM (SELECT json_extract(properties, '$.value') || ' '
         || status AS v FROM entities WHERE entity_type = 'decision'
     AND json_extract(properties, '$.target') = 'transceiver'
     AND json_extract(properties, '$.field') = 'form factor' ORDER BY created_at)")"
expect "two active entities on one slot have validity windows that do not overlap" \
    test "$(q "WITH s(id, slot, p) AS (SELECT id, project || '/' || entity_type || '/' ||
         CASE entity_type WHEN 'parameter' THEN json_extract(properties, '$.scope') || '/' || name
              WHEN 'constraint' THEN json_extract(properties, '$.target') || '/' ||
                   json_extract(properties, '$.kind') END, properties
         FROM entities WHERE status = 'active')
  SELECT count(*) FROM s a JOIN s b ON a.id < b.id AND a.slot = b.slot
   AND json_extract(a.p, '$.valid_until') < json_extract(b.p, '$.valid_from')")" -ge 2
expect "the example has gaps: a component with no material" test "$(q "
  SELECT count(*) FROM entities c WHERE c.entity_type = 'component' AND c.status = 'active'
     AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.source_entity_id = c.id
                        AND r.relationship_type = 'uses_material')")" -ge 1
expect "... a requirement nothing satisfies and a claim nothing supports" test "$(q "
  SELECT (SELECT count(*) FROM entities e WHERE entity_type = 'requirement'
             AND status = 'active' AND NOT EXISTS (SELECT 1 FROM relationships r
             WHERE r.target_entity_id = e.id AND r.relationship_type = 'satisfies')) > 0
     AND (SELECT count(*) FROM entities e WHERE entity_type = 'validation_claim'
             AND status = 'active' AND NOT EXISTS (SELECT 1 FROM relationships r
             WHERE r.target_entity_id = e.id AND r.relationship_type = 'supports')) > 0")" = 1

# Every row README.md names as a member of an expected conflict exists
# and is active, and the table numbers its 14 conflicts.
sed -n '/^## Expected conflicts/,/^## /p' "$ex/README.md" |
    grep -E '^\| [0-9]+ \|' >conflicts.md
same "README lists 14 expected conflicts" 14 "$(wc -l <conflicts.md | tr -d ' ')"
grep -oE '`(p0[456]-|mem-)[a-z0-9-]+`' conflicts.md | tr -d '`' | sort -u >members.txt
q "SELECT id FROM project_state WHERE status = 'active' UNION
   SELECT id FROM entities WHERE status = 'active' UNION
   SELECT id FROM memories WHERE status = 'active'" | sort >active.txt
expect "every member README names is an active row of the example" \
    sh -c "test \$(wc -l <members.txt) -ge 28 && test -z \"\$(comm -23 members.txt active.txt)\""

# --- loading again ------------------------------------------------------------
mirror init --store again.db --quiet
sqlite3 -bail again.db <"$ex/example.sql"
# (but the tables' versions, random by design: doc/store.md)
same "a second fresh store gets exactly the same rows" \
    "$(sqlite3 ex.db .dump | grep -v '^INSERT INTO mirror_table_versions ' |
    sha256sum)" "$(sqlite3 again.db .dump |
    grep -v '^INSERT INTO mirror_table_versions ' | sha256sum)"
before=$(sqlite3 ex.db .dump | sha256sum)
sqlite3 -bail ex.db <"$ex/example.sql" >/dev/null 2>reload.err
RC=$?
expect "loading it twice into one store fails" \
    sh -c "test $RC != 0 && grep -q UNIQUE reload.err"
same "... and changes nothing" "$before" "$(sqlite3 ex.db .dump | sha256sum)"

# --- run.sh and mirror.ini ----------------------------------------------------
mkdir b
ln -s "$MIRROR" b/mirror
sh "$ex/run.sh" "$T/b" >run.out 2>run.err
run_rc=$?
expect "run.sh builds the example store and prints its health" \
    sh -c "test $run_rc = 0 && test ! -s run.err && grep -q '^projects: 3$' run.out && grep -q '^open_conflicts_count: ' run.out"
facts_dump() {
	for t in projects project_state entities relationships memories \
	    memory_audit; do sqlite3 "$1" ".dump $t"; done | sha256sum
}
expect "run.sh's store holds the same facts" \
    test "$(facts_dump b/example/store.db)" = "$(facts_dump again.db)"
expect "run.sh builds the site with the example's 14 open conflicts" \
    sh -c "test -f b/example/site/index.html && grep -q '14 open conflicts' run.out"
expect "run.sh commits the site to the history repository" \
    test "$(git --git-dir=b/example/history.git rev-list --count mirror)" = 1
expect "run.sh makes the bare history repository mirror.ini names" \
    test "$(git --git-dir=b/example/history.git rev-parse --is-bare-repository)" = true
mkdir site-example
cp "$ex/mirror.ini" site-example/
ln -s b build
mirror --config site-example/mirror.ini health --json
expect "mirror.ini finds the generated store relative to itself" \
    sh -c "test $RC = 0 && jq -e '.projects == 3 and (.store | endswith(\"build/example/store.db\"))' '$T/out' >/dev/null"
same "mirror.ini sets every key a site build needs" \
    "author base_url branch out repo store theme title" \
    "$(sed -n 's/^\([a-z_]*\) *=.*/\1/p' site-example/mirror.ini | sort | tr '\n' ' ' | sed 's/ $//')"
