#!/bin/sh
# t_site_links.sh: the link graph on the overview (issue 21, item 5).
#
# A crafted store of two projects and a row of none: one component with
# an edge of every type of the store contract's families out, its
# partners' edges in, edges into the other project (one to a disputed
# decision, one to an entity whose name is markup), to a row of no
# project and to no entity; a supersede chain of three, a supersede
# cycle, a chain of 70 (cut), and an unknown type. The "Links" section
# lists each in words with the other end linked to where it is shown;
# the JSON has the same; an incremental build after the far end changes
# is the --force build.
# The promises of doc/site.md, "Links".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

cat >links.sql <<'EOF'
INSERT INTO projects(id, name) VALUES ('pa', 'Project A'), ('pb', 'Project B');
INSERT INTO entities(id, entity_type, name, project, status) VALUES
 ('a-sys', 'system', 'Frame', 'pa', 'active'),
 ('a-sub', 'subsystem', 'Head', 'pa', 'active'),
 ('a-cmp', 'component', 'Spindle', 'pa', 'active'),
 ('a-cmp2', 'component', 'Other spindle', 'pa', 'active'),
 ('a-mat', 'material', 'Steel', 'pa', 'active'),
 ('a-req', 'requirement', 'Stiffness', 'pa', 'active'),
 ('a-con', 'constraint', 'Mass limit', 'pa', 'active'),
 ('a-dec', 'decision', 'Bearing choice', 'pa', 'active'),
 ('a-asm', 'parameter', 'Room temperature', 'pa', 'active'),
 ('a-am', 'analysis_model', 'Modal FEA', 'pa', 'active'),
 ('a-vc', 'validation_claim', 'Runs true', 'pa', 'active'),
 ('a-res', 'result', 'Runout', 'pa', 'active'),
 ('a-ven', 'vendor', 'SKF', 'pa', 'active'),
 ('a-doc', 'artifact', 'Drawing', 'pa', 'active'),
 ('a-ses', 'artifact', 'Session 7', 'pa', 'active'),
 ('a-ev', 'artifact', 'Test log', 'pa', 'active'),
 ('a-sum', 'artifact', 'Review notes', 'pa', 'active'),
 ('d1', 'decision', 'Drive v1', 'pa', 'superseded'),
 ('d2', 'decision', 'Drive v2', 'pa', 'superseded'),
 ('d3', 'decision', 'Drive v3', 'pa', 'active'),
 ('c1', 'decision', 'Loop one', 'pa', 'superseded'),
 ('c2', 'decision', 'Loop two', 'pa', 'superseded'),
 ('b-ifc', 'interface', 'Flange B', 'pb', 'active'),
 ('b-dec', 'decision', 'Tube material', 'pb', 'active'),
 ('b-evil', 'component', '<script>alert(1)</script> *x* [y](z) | p', 'pb',
  'active'),
 ('l-x', 'artifact', 'Loose note', '', 'active');
UPDATE entities SET properties =
 '{"target": "tube", "field": "material", "value": "aluminium"}'
 WHERE id = 'b-dec';
INSERT INTO project_state(id, project, category, key, value) VALUES
 ('st-tube', 'pb', 'decision', 'tube_material', 'carbon fibre');
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type) VALUES
 ('r-contains', 'a-sys', 'a-sub', 'contains'),
 ('r-part', 'a-cmp', 'a-sub', 'part_of'),
 ('r-ifc', 'a-cmp', 'b-ifc', 'interfaces_with'),
 ('r-sat', 'a-cmp', 'a-req', 'satisfies'),
 ('r-con', 'a-cmp', 'a-con', 'constrained_by'),
 ('r-dec', 'a-cmp', 'a-dec', 'affected_by_decision'),
 ('r-far-dec', 'a-cmp', 'b-dec', 'affected_by_decision'),
 ('r-asm', 'a-cmp', 'a-asm', 'based_on_assumption'),
 ('r-am', 'a-cmp', 'a-am', 'analyzed_by'),
 ('r-val', 'a-cmp', 'a-vc', 'validated_by'),
 ('r-sup', 'a-res', 'a-vc', 'supports'),
 ('r-cw', 'a-cmp', 'a-cmp2', 'conflicts_with'),
 ('r-dep', 'a-cmp', 'a-ven', 'depends_on'),
 ('r-ghost', 'a-cmp', 'ghost', 'depends_on'),
 ('r-desc', 'a-cmp', 'a-doc', 'described_by'),
 ('r-ses', 'a-cmp', 'a-ses', 'updated_by_session'),
 ('r-ev', 'a-cmp', 'a-ev', 'evidenced_by'),
 ('r-sum', 'a-cmp', 'a-sum', 'summarized_in'),
 ('r-mat', 'a-cmp', 'a-mat', 'uses_material'),
 ('r-loose', 'a-cmp', 'l-x', 'described_by'),
 ('r-evil', 'a-cmp', 'b-evil', 'interfaces_with'),
 ('r-refines', 'a-cmp', 'a-sub', 'refines'),
 ('r-s2', 'd2', 'd1', 'supersedes'),
 ('r-s3', 'd3', 'd2', 'supersedes'),
 ('r-c1', 'c1', 'c2', 'supersedes'),
 ('r-c2', 'c2', 'c1', 'supersedes');
-- A chain of 70: l1 supersedes l0, l2 supersedes l1, ...
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 69)
INSERT INTO entities(id, entity_type, name, project, status)
SELECT 'l' || i, 'decision', 'Long ' || i, 'pa', 'superseded' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 69)
INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type)
SELECT 'r-l' || i, 'l' || i, 'l' || (i - 1), 'supersedes' FROM n;
EOF
new_store s.db links.sql
expect "the crafted store loads" test $? = 0
# A CPU cap: a chain walked without end would reach it.
(ulimit -S -t 60; "$MIRROR" build --store s.db --out site --quiet \
    >"$T/out" 2>"$T/err")
RC=$?
expect_status "the site builds (the cycle and the long chain end)" 0

A=site/projects/pa/index.md
B=site/projects/pb/index.md
# links_of FILE NAME: the lines under NAME's entry of FILE's Links.
links_of() {
	sed -n '/^## <a id="links"><\/a>Links$/,$p' "$1" |
	    awk -v e="- [$2](" 'index($0, e) == 1 { on = 1; next }
	    /^- / { on = 0 } on'
}

# entry_has NAME LINE...: NAME's entry on pa's overview holds every LINE.
entry_has() {
	en=$1
	shift
	links_of "$A" "$en" >entry
	for line in "$@"; do grep -qxF -- "$line" entry || return 1; done
}
expect "the overview has a Links section in its contents" \
    grep -qxF -- '- [Links](#links)' "$A"
expect "structural out: part of, interfaces with (the other project)" \
    entry_has Spindle "  - part of: [Head](#entity-a-sub)" \
    "  - interfaces with: [Flange B](../pb/index.md#entity-b-ifc) (in pb)"
expect "structural in: has part, contained in" entry_has Head \
    "  - has part: [Spindle](#entity-a-cmp)" \
    "  - contained in: [Frame](#entity-a-sys)"
expect "intent out: satisfies, constrained by, affected by decision, based on assumption" \
    entry_has Spindle "  - satisfies: [Stiffness](#entity-a-req)" \
    "  - constrained by: [Mass limit](#entity-a-con)" \
    "  - affected by decision: [Bearing choice](#entity-a-dec)" \
    "  - based on assumption: [Room temperature](#entity-a-asm)"
expect "intent in: satisfied by" entry_has Stiffness \
    "  - satisfied by: [Spindle](#entity-a-cmp)"
expect "intent in: affects" entry_has 'Bearing choice' \
    "  - affects: [Spindle](#entity-a-cmp)"
expect "validation out: analyzed by, validated by, conflicts with, depends on" \
    entry_has Spindle "  - analyzed by: [Modal FEA](#entity-a-am)" \
    "  - validated by: [Runs true](#entity-a-vc)" \
    "  - conflicts with: [Other spindle](#entity-a-cmp2)" \
    "  - depends on: [SKF](#entity-a-ven)"
expect "validation in: validates, supported by" entry_has 'Runs true' \
    "  - validates: [Spindle](#entity-a-cmp)" \
    "  - supported by: [Runout](#entity-a-res)"
expect "validation out: supports" entry_has Runout \
    "  - supports: [Runs true](#entity-a-vc)"
expect "provenance out: described by, updated by session, evidenced by, summarized in" \
    entry_has Spindle "  - described by: [Drawing](#entity-a-doc)" \
    "  - updated by session: [Session 7](#entity-a-ses)" \
    "  - evidenced by: [Test log](#entity-a-ev)" \
    "  - summarized in: [Review notes](#entity-a-sum)"
expect "provenance in: describes" entry_has Drawing \
    "  - describes: [Spindle](#entity-a-cmp)"
expect "provenance in: updated" entry_has 'Session 7' \
    "  - updated: [Spindle](#entity-a-cmp)"
expect "provenance in: evidence for" entry_has 'Test log' \
    "  - evidence for: [Spindle](#entity-a-cmp)"
expect "provenance in: summarizes" entry_has 'Review notes' \
    "  - summarizes: [Spindle](#entity-a-cmp)"
expect "uses material out" entry_has Spindle "  - uses material: [Steel](#entity-a-mat)"
expect "used by in" entry_has Steel "  - used by: [Spindle](#entity-a-cmp)"
links_of "$A" Spindle >spindle
expect "families in the contract's order: structural, intent, validation, provenance, material" \
    test "$(sed 's/:.*//' spindle | uniq | tr '\n' '|')" = \
"  - part of|  - interfaces with|  - satisfies|  - constrained by|  - affected by decision|  - based on assumption|  - analyzed by|  - validated by|  - conflicts with|  - depends on|  - described by|  - updated by session|  - evidenced by|  - summarized in|  - uses material|  - refines|"
expect "an unknown type is listed as it is, out" entry_has Spindle \
    "  - refines: [Head](#entity-a-sub)"
expect "... and in (← refines)" entry_has Head \
    "  - ← refines: [Spindle](#entity-a-cmp)"
expect "an end in no entity is named by its id" entry_has Spindle \
    "  - depends on: ghost (not in the store)"
expect "an end of no project links to the index" entry_has Spindle \
    "  - described by: [Loose note](../../index.md#entity-l-x)"
expect "a row of no project lists its links on the index" grep -qxF \
    "  - describes: [Spindle](projects/pa/index.md#entity-a-cmp) (in pa)" \
    site/index.md

# Across projects, both ways, and the disputed far end.
cid=$(sql s.db "SELECT conflict_id FROM conflict_members WHERE
    member_id = 'b-dec'")
expect "the far end in another project carries its ⚠ disputed marker" \
    test -n "$cid" -a "$(grep -cxF "  - affected by decision: [Tube material](../pb/index.md#entity-b-dec) (in pb) [⚠ disputed](../../conflicts/$cid.md)" spindle)" = 1
expect "the other project lists the edges in, linked back" test \
    "$(grep -cxF -e "  - interfaced by: [Spindle](../pa/index.md#entity-a-cmp) (in pa)" \
    -e "  - affects: [Spindle](../pa/index.md#entity-a-cmp) (in pa)" "$B")" = 3
expect "in HTML the far end links to its project's page, the marker to its conflict" \
    grep -qF "<a href=\"../pb/index.html#entity-b-dec\">Tube material</a> (in pb) <a class=\"disputed\" href=\"../../conflicts/$cid.html\"" \
    site/projects/pa/index.html
expect "every marker marks an open conflict's member (markers.py)" \
    python3 "$MIRROR_TOP/tests/tools/markers.py" site
expect "every link resolves (linkcheck.py)" \
    python3 "$MIRROR_TOP/tests/tools/linkcheck.py" site

expect "the row's notes name a far end by its name, not its id" \
    grep -q '^- <a id="entity-a-cmp"></a>.*interfaces: .*, Flange B$' "$A"

# Supersede chains.
expect "a superseded entity names the head of its chain" entry_has 'Drive v1' \
    "  - superseded by: [Drive v2](#entity-d2) (superseded), now [Drive v3](#entity-d3)"
expect "the entity before the head names no further head" entry_has 'Drive v2' \
    "  - superseded by: [Drive v3](#entity-d3)"
expect "a supersede cycle is shown as one, and ends" entry_has 'Loop one' \
    "  - superseded by: [Loop two](#entity-c2) (superseded), in a supersede cycle: [Loop two](#entity-c2) (superseded) → [Loop one](#entity-c1) (superseded) → [Loop two](#entity-c2) (superseded)"
expect "a chain longer than 64 steps is cut, and says so" entry_has 'Long 0' \
    "  - superseded by: [Long 1](#entity-l1) (superseded), now [Long 65](#entity-l65) (superseded) (cut after 64 steps)"

# Hostile names are text.
expect "a name with markup is escaped in the .md" entry_has Spindle \
    '  - interfaces with: [\<script>alert(1)\</script> \*x\* \[y\](z) \| p](../pb/index.md#entity-b-evil) (in pb)'
expect "... and text in the HTML" \
    sh -c '! grep -q "<script>alert" site/projects/pa/index.html &&
    grep -qF "&lt;script&gt;alert(1)&lt;/script&gt; *x* [y](z) | p</a>" \
    site/projects/pa/index.html'

# The JSON: the relationships as rows of the store, the far end's
# conflict on its own project's row; the Links' words are the page's.
J=site/api/projects/pa.json
fjq() { jq -L "$MIRROR_TOP/tests/tools" "$@"; }
out_of() { fjq -c --arg s "$1" --arg t "$2" 'include "facts"; [facts |
    select(.layer == "relationship" and .source == $s and .type == $t) |
    .target]' "$J"; }
in_of() { fjq -c --arg e "$1" 'include "facts"; [facts | select(.layer ==
    "relationship" and .target == $e)] | group_by(.type) | map({(.[0].type):
    map(.source)}) | add' "$J"; }
expect "an entity's links in the JSON: a relationship row each, out and in by type" \
    test "$(out_of a-cmp part_of)$(out_of a-cmp interfaces_with)$(out_of a-cmp depends_on)" = \
    '["a-sub"]["b-evil","b-ifc"]["a-ven","ghost"]' -a \
    "$(in_of a-sub)" = '{"contains":["a-sys"],"part_of":["a-cmp"],"refines":["a-cmp"]}'
expect "the far end in another project: its row there carries its open conflict" \
    test "$(fjq -r 'include "facts"; facts | select(.id == "b-dec") |
    .conflict' site/api/projects/pb.json)" = "$cid"
expect "the facts are one a line, by layer then id" sh -c "
    jq -r '.facts[] | [.[0], .[1]] | @tsv' $J > rows.tsv &&
    LC_ALL=C sort -c rows.tsv &&
    test \$(grep -c '^\[\"[a-z]*\",' $J) -eq \$(wc -l < rows.tsv)"
expect "the JSON files match their schemas" \
    python3 "$MIRROR_TOP/tests/tools/json_schema.py" "$MIRROR_TOP/doc/schema" site

# Incremental: pa's pages show b-ifc and b-dec of pb; a change of pb
# alone builds pa's overview again, as a --force build writes it.
sums() { (cd "$1" && find . -type f ! -name .mirror-output ! -name build.json |
    LC_ALL=C sort | xargs sha256sum); }
same_as_force() {       # into what a build reads of site's (lib.sh)
	published site "$T/full" || return 1
	"$MIRROR" build --store s.db --out "$T/full" --no-sweep --force \
	    --quiet >/dev/null 2>&1 &&
	    [ "$(sums site)" = "$(sums "$T/full")" ]
}
sql s.db "UPDATE entities SET name = 'Flange B2', status = 'candidate'
    WHERE id = 'b-ifc'"
mirror build --store s.db --out site --json
expect "a far end renamed: the overview that links it is written again" \
    grep -qxF "  - interfaces with: [Flange B2](../pb/index.md#entity-b-ifc) (in pb, candidate)" "$A"
expect "... and the site is the --force build's" same_as_force
"$MIRROR" conflicts dismiss "$cid" --store s.db --reason test --actor t \
    >/dev/null 2>&1
mirror build --store s.db --out site --quiet
expect "a far end's conflict dismissed: its marker leaves the other project's page" \
    test "$(grep -c "conflicts/$cid" "$A")" = 0 -a \
    "$(grep -cxF "  - affected by decision: [Tube material](../pb/index.md#entity-b-dec) (in pb)" "$A")" = 1
expect "... and the site is the --force build's" same_as_force
sql s.db "DELETE FROM entities WHERE id = 'b-ifc'"
mirror build --store s.db --out site --quiet
expect "a far end deleted: named by its id" \
    grep -qxF "  - interfaces with: b-ifc (not in the store)" "$A"
expect "... and the site is the --force build's" same_as_force
