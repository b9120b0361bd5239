#!/bin/sh
# The index as a dashboard and the review queue (issue 20, items 1 and
# 3), on the example store and on a 10,000-fact bench store (the checks
# that hold on any site run on both, each case named with its site): the
# headline in words, the projects table in reading order, counts that
# agree between the index, api/health.json, the project JSON and the
# conflicts, plurals, the chart of open conflicts over time (inline SVG
# with a text alternative, the same bytes from the same store), and the
# queue grouped by project with each conflict's question; on the
# example, each entry's slot as the store wrote it, age, members and
# what the trust order favours. The checks are
# tests/tools/site_dashboard.py.
# The promises of doc/site.md, "The index tells the story".
. "$MIRROR_TOP/tests/e2e/lib.sh"
DAY=86400
EPOCH=1793491200        # 2026-11-01, the example's clock

new_store ex.db "$MIRROR_TOP/site-example/example.sql"
expect "the example store loads" test $? = 0
cp ex.db ex2.db
SOURCE_DATE_EPOCH=$EPOCH mirror build --store ex.db --out site --quiet
expect_status "the example builds" 0

check="$MIRROR_TOP/tests/tools/site_dashboard.py"

bench_store b.db || exit 1
cp b.db b2.db
SOURCE_DATE_EPOCH=$EPOCH mirror build --store b.db --out bench10k --quiet
expect_status "the 10,000-fact bench site builds" 0

# dashboard DIR NAME STORE2: the checks that hold on any site, named with
# NAME; STORE2, a copy of DIR's store, built apart, gives the same bytes.
dashboard() {
	expect "$2: the headline is the open-conflict count in words" \
	    python3 "$check" "$1" headline
	expect "$2: the browser tab names the page, not the site twice" \
	    python3 "$check" "$1" title
	expect "$2: the projects list is in reading order (by name, numbers as numbers), said in its title; the index names at most 12, worst first" \
	    python3 "$check" "$1" order
	expect "$2: table rows, health.json, the project JSON and the conflicts agree" \
	    python3 "$check" "$1" counts
	expect "$2: under the headline each project's open conflicts in words (three, then 'and N more') and its open checks" \
	    python3 "$check" "$1" story
	expect "$2: plurals agree with their numbers (index and queue)" \
	    python3 "$check" "$1" plurals
	expect "$2: the chart is inline SVG (role=img, title, desc = the text alternative, currentColor)" \
	    python3 "$check" "$1" chart
	expect "$2: the queue: a line per project, its pages by status and kind; each conflict on one, none over 300" \
	    python3 "$check" "$1" queue
	SOURCE_DATE_EPOCH=$EPOCH mirror build --store "$3" --out "$1.again" --quiet
	expect "$2: the same store gives the same index and queue, chart included" \
	    sh -c "cmp $1/index.html $1.again/index.html &&
	        cmp $1/conflicts/index.md $1.again/conflicts/index.md"
}
dashboard site example ex2.db
dashboard bench10k bench10k b2.db

expect "the queue keeps the case of keys and names as the store wrote them" \
    python3 "$check" site case
expect "an entry: slot, every side with its origin, its detection date and what the trust order favours" \
    python3 "$check" site entry "detected 2026-11-01"

# Three days later: a review closes one conflict, the next build sweeps;
# the chart has two points, the ages have grown.
id=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' AND
    slot_key LIKE '%fpga_part%'")
SOURCE_DATE_EPOCH=$((EPOCH + 3 * DAY)) mirror conflicts dismiss "$id" \
    --store ex.db --reason 'checked: the part is the XC7A100T' --actor ada
SOURCE_DATE_EPOCH=$((EPOCH + 3 * DAY)) mirror build --store ex.db --out site --quiet
expect "after a review and a build three days on, the chart has two points" \
    python3 "$check" site history 14
expect "... an entry still gives the day it was detected, not an age" \
    python3 "$check" site entry "detected 2026-11-01"
expect "... the dismissed conflict is in its project's group, with its dates" sh -c "
    sed -n '/^## Dismissed/,\$p' site/conflicts/projects/p04-gigabit.md |
    grep -q '^  - detected 2026-11-01 · closed 2026-11-04'"
expect "... recent changes: the dismissal first, by whom and why, then the openings" sh -c "
    grep -m1 '^## ' site/changes.md | grep -qx '## 2026-11-04' &&
    sed -n '/^## 2026-11-04/,/^## /p' site/changes.md | grep -q '^- conflict dismissed in \[P04 Gigabit Link\](projects/p04-gigabit/index.md): \[.*\](conflicts/$id.md) · by ada · why: checked: the part is the XC7A100T\$' &&
    sed -n '/^## 2026-11-01/,\$p' site/changes.md | grep -q '^- first build: \[14 conflicts opened\](conflicts/index.md), \[[0-9]* checks opened\](checks/index.md), [0-9]* active facts\$' &&
    grep -q '^- 2026-11-04 · conflict dismissed in P04 Gigabit Link: .* · by ada\$' site/index.md"
expect "... and the changes feed says the same, valid Atom" sh -c "
    xmllint --noout --relaxng '$MIRROR_TOP/tests/data/atom.rng' site/changes.xml 2>/dev/null &&
    grep -A5 '<title>conflict dismissed: ' site/changes.xml | grep -q '<summary>conflict dismissed in P04 Gigabit Link by ada: checked: the part is the XC7A100T</summary>'"
expect "... and the counts still agree" python3 "$check" site counts

# A day later, the same store: the queue gives dates, not ages, so
# its entries read as they did (a reviewer's diff stays small), and the
# build equals a --force build.
SOURCE_DATE_EPOCH=$((EPOCH + 4 * DAY)) mirror build --store ex.db --out site --quiet
cp ex.db ex3.db
SOURCE_DATE_EPOCH=$((EPOCH + 4 * DAY)) mirror build --store ex3.db --out site3 --force --quiet
expect "a day later the queue still gives the day each conflict was detected" \
    python3 "$check" site entry "detected 2026-11-01"
expect "... as a --force build does, byte for byte" \
    sh -c 'cmp site/conflicts/index.md site3/conflicts/index.md &&
        cmp site/index.html site3/index.html'

# One open conflict: singular words.
new_store one.db
sql one.db "INSERT INTO projects(id, name, aliases, description) VALUES
  ('p07-telescope', 'P07 Telescope', '[\"p07\"]', 'a telescope');
INSERT INTO project_state(id, project, category, key, value) VALUES
  ('st-tube', 'p07', 'decision', 'Tube_Material', 'carbon fibre');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
  ('dec-tube', 'decision', 'Tube material', 'p07-telescope',
   '{\"target\": \"Tube\", \"field\": \"material\", \"value\": \"aluminium\"}');
INSERT INTO memories(id, memory_type, content, project) VALUES
  ('mem-a', 'knowledge', 'The aperture is 200 mm', 'p07');"
SOURCE_DATE_EPOCH=$EPOCH mirror build --store one.db --out one --quiet
expect "one open conflict: singular words ('1 open conflict', '1 conflict')" sh -c '
    grep -m1 "^## " one/index.md | grep -qx "## 1 open conflict" &&
    grep -q "^- \[P07 Telescope\](projects/p07-telescope.md): 1 open conflict (1 across layers)" one/conflicts/index.md &&
    grep -q "^## Open, across layers: 1 conflict\$" one/conflicts/projects/p07-telescope.md &&
    grep -q "1 conflict recorded in all" one/index.md &&
    python3 "$1" one plurals' sh "$check"
expect "... the state key keeps its case in the queue" \
    grep -q "^- \[\*\*Tube Material\*\*\](" one/conflicts/projects/p07-telescope.md

# Facts changed, from the store's audit (issue 57, item 2): the latest
# change of each fact inside the 30 days, what it set old -> new, by
# whom and why, linked to the fact; a fact whose row is gone is named,
# not linked; ids among the fields (*_id) are not said.
new_store au.db "$MIRROR_TOP/site-example/example.sql" || exit 1
sql au.db "INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor,
        before_json, after_json, note, timestamp) VALUES
    ('au-1', 'p05-st-lateral-support-material', 'project_state', 'updated', 'ada',
     '{\"value\":\"PTFE\",\"status\":\"active\"}',
     '{\"value\":\"GF-PTFE\",\"status\":\"active\",\"superseded_by_id\":\"x\"}',
     'creep test passed', '2026-10-28 09:00:00'),
    ('au-2', 'mem-gone', 'memory', 'invalidated', 'bob', '{\"status\":\"active\"}',
     '{\"status\":\"invalid\"}', 'wrong', '2026-10-30 09:00:00'),
    ('au-3', 'p05-st-lateral-support-material', 'project_state', 'updated', 'eve',
     '{}', '{\"value\":\"PTFE\"}', 'too old', '2026-08-01 09:00:00')" || exit 1
SOURCE_DATE_EPOCH=1793491200 mirror build --store au.db --out au --quiet
expect "recent changes name a changed fact: what it set, old -> new, by whom and why, linked" sh -c "
    grep -qxF -- '- trusted state updated in [P05 Interferometer](projects/p05-interferometer/index.md): [lateral_support_material](projects/p05-interferometer/index.md#state-p05-st-lateral-support-material) · value: PTFE → GF-PTFE · by ada · why: creep test passed' au/changes.md &&
    grep -qxF -- '- memory invalidated: a row no longer in the store · status: active → invalid · by bob · why: wrong' au/changes.md &&
    ! grep -q 'superseded_by_id\|too old\|by eve' au/changes.md"
expect "... and the changes feed links the fact's place, valid Atom" sh -c "
    xmllint --noout --relaxng '$MIRROR_TOP/tests/data/atom.rng' au/changes.xml 2>/dev/null &&
    grep -A4 '<title>trusted state updated: lateral_support_material</title>' au/changes.xml |
        grep -q '<link href=\"projects/p05-interferometer/index.html#state-p05-st-lateral-support-material\"/>'"
