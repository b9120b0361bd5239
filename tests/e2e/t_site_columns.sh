#!/bin/sh
# Columns that say something (issue 57, item 4): a fact table of the
# project overview has a Confidence column only when some row's
# confidence is not 1, in the .md twin and the HTML alike; a conflict
# page has one Value column when every member's value then equals its
# value now, and "Value then" / "Value now" once one differs; dates show
# as dates, with the time (HH:MM) only where two dates of one table (or
# of one conflict page) fall on the same day at different minutes; the
# api/ JSON keeps the full timestamps and says no column's words.
# The promises of doc/templates.md, "Columns and dates that depend on the whole table".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200   # 2026-11-01 00:00:00 UTC

cat > facts.sql <<'SQL'
INSERT INTO projects(id, name) VALUES ('p1', 'P1');
INSERT INTO project_state(id, project, category, key, value, confidence,
    created_at, updated_at) VALUES
 ('s-d1', 'p1', 'decision', 'bolt', 'M6', 1, '2026-01-05 08:00:00', '2026-01-05 08:00:00'),
 ('s-d2', 'p1', 'decision', 'nut', 'M6', 1, '2026-01-06 08:00:00', '2026-01-06 08:00:00'),
 ('s-s1', 'p1', 'status', 'phase', 'alignment', 0.7, '2026-01-05 00:00:00', '2026-01-05 00:00:00'),
 ('s-s2', 'p1', 'status', 'owner', 'lab', 1, '2026-01-05 00:00:00', '2026-01-05 00:00:00'),
 ('s-f1', 'p1', 'fact', 'aperture', '150 mm', 1, '2026-01-12 09:15:00', '2026-01-12 09:15:00'),
 ('s-f2', 'p1', 'fact', 'focal', '600 mm', 1, '2026-01-12 14:30:00', '2026-01-12 14:30:00'),
 ('s-f3', 'p1', 'fact', 'mass', '4 kg', 1, '2026-01-13 10:00:00', '2026-01-13 10:00:00'),
 ('s-c1', 'p1', 'config', 'speed', '300 rpm', 1, '2026-02-01 10:00:00', '2026-02-01 10:00:00'),
 ('s-c2', 'p1', 'config', 'speed', '250 rpm', 1, '2026-02-02 10:00:00', '2026-02-02 10:00:00');
INSERT INTO entities(id, entity_type, name, project, description,
    confidence, created_at, updated_at) VALUES
 ('e-dec', 'decision', 'Pad shape', 'p1', 'round', 1, '2026-01-05 00:00:00', '2026-01-05 00:00:00'),
 ('e-req1', 'requirement', 'Flatness', 'p1', 'λ/20', 0.5, '2026-01-05 00:00:00', '2026-01-05 00:00:00'),
 ('e-req2', 'requirement', 'Tilt', 'p1', '1 µrad', 1, '2026-01-05 00:00:00', '2026-01-05 00:00:00');
INSERT INTO memories(id, memory_type, content, project, confidence,
    created_at, updated_at) VALUES
 ('m-1', 'knowledge', 'pads creep', 'p1', 1, '2026-01-05 00:00:00', '2026-01-05 00:00:00');
SQL
new_store s.db facts.sql || exit 1
mirror build --store s.db --out site --quiet
expect_status "the store builds" 0
md=site/projects/p1/index.md
html=site/projects/p1/index.html
sed -n '/^### decision/,/^### /p' $md > decision.md
sed -n '/^### status/,/^### /p' $md > status.md
sed -n '/id="requirements"/,/^## /p' $md > req.md
sed -n '/id="decisions"/,/^## /p' $md > dec.md
sed -n '/id="memories"/,/^## /p' $md > mem.md

expect "a state group whose confidences are all 1 has no Confidence column; one with another has it" sh -c "
    grep -qx '| Key | Value | Source | Updated |' decision.md &&
    grep -qx '| --- | --- | --- | --- |' decision.md &&
    grep -q '^| <a id=\"state-s-d1\"></a>bolt | M6 |  | 2026-01-05 |\$' decision.md &&
    grep -qx '| Key | Value | Source | Confidence | Updated |' status.md &&
    grep -q '| 0.7 | 2026-01-05 |\$' status.md && grep -q '| 1 | 2026-01-05 |\$' status.md"
expect "entity tables and memories: the column where a row is not at 1, not where all are" sh -c "
    grep -q '| Source | Confidence | Updated |\$' req.md && grep -q '| 0.5 | 2026-01-05 |\$' req.md &&
    grep -q '| Details | Source | Updated |\$' dec.md && ! grep -q Confidence dec.md &&
    grep -qx '| Memory | Type | References | Updated |' mem.md"
# The HTML twin: the same tables and header cells, and the labels a
# phone shows in the stylesheet's rules for each table's class.
python3 - "$html" > html.txt <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
for m in re.finditer(r"<table[^>]*>(.*?)</table>", t, re.S):
    head = re.findall(r"<th[^>]*>(.*?)</th>", m.group(1))
    row = re.search(r"<tbody>\s*<tr[^>]*>(.*?)</tr>", m.group(1), re.S)
    cells = len(re.findall(r"<td", row.group(1))) if row else 0
    print("|".join(head), cells)
PY
table_labels site >labels.out 2>labels.err
labels_rc=$?
expect "the HTML twin has the same columns: Confidence only where it says something, its labels in the stylesheet" sh -c "
    grep -qx 'Key|Value|Source|Updated 4' html.txt &&
    grep -qx 'Key|Value|Source|Confidence|Updated 5' html.txt &&
    grep -qx 'Memory|Type|References|Updated 4' html.txt &&
    ! grep -q 'data-label=' $html &&
    test \$(grep -c '<table class=\"cols-' $html) -eq \$(grep -c '<table' $html) &&
    test $labels_rc = 0"
expect "dates show without the time, with HH:MM only where two rows share a day" sh -c "
    grep -q '| 2026-01-12 09:15 |\$' $md && grep -q '| 2026-01-12 14:30 |\$' $md &&
    grep -q '</a>mass | 4 kg |  | 2026-01-13 |\$' $md &&
    ! grep -Eq '[0-9]{2}:[0-9]{2}:[0-9]{2}' $md"
expect "the api/ JSON keeps the full timestamp and the confidence, no words for a column" python3 -c "
import json, os, sys
sys.path.insert(0, os.environ['MIRROR_TOP'] + '/tests/tools')
from api_facts import facts
d = json.load(open('site/api/projects/p1.json'))
d['facts'] = facts(d)
f = {(i['layer'], i['id']): i for i in d['facts']}
s = f[('state', 's-f1')]
assert s['updated_at'] == '2026-01-12 09:15:00', s
assert f[('state', 's-f3')]['updated_at'].startswith('2026-01-13'), f
assert not [k for i in d['facts'] for k in i if k.endswith('_shown') or
            k in ('anchor', 'active', 'created', 'updated')], d
assert 'confidence_shown' not in d and 'state_groups' not in d
assert sorted(i['confidence'] for i in d['facts'] if 'confidence' in i)[0] < 1
assert not [k for k in d if k not in ('project', 'columns', 'facts')], d
"

# The config rows disagree: the sweep opened a conflict of two members
# whose values are as they were detected.
conflict=$(sql s.db "SELECT id FROM conflicts WHERE status = 'open'")
page=site/conflicts/$conflict.md
expect "a conflict's page has one value column, the value as found" sh -c "
    grep -qx '| Fact | From | Value as found | Status now | Created · updated |' $page &&
    grep -qx '|---|---|---|---|---|' $page &&
    grep -q '| trusted state | 300 rpm | active |' $page &&
    grep -q '<th>Value as found</th>' site/conflicts/$conflict.html &&
    ! grep -q 'now:' $page"
expect "a conflict page shows dates alone when no two share a day" sh -c "
    grep -q '^\*\*Open since 2026-11-01\.\*\*' $page &&
    grep -q '| 2026-02-01 · 2026-02-01 |\$' $page"

# One member's value changes (still disagreeing) on the day it was
# detected: then and now differ, and the detection and the change share
# that day.
sql s.db "UPDATE project_state SET value = '280 rpm',
    updated_at = '2026-11-01 09:30:00' WHERE id = 's-c2'"
mirror build --store s.db --out site --quiet
expect_status "the store builds again" 0
expect "once a value changed the page says it after the value as found, and two events of one day show their times" sh -c "
    grep -qx '| Fact | From | Value as found | Status now | Created · updated |' $page &&
    grep -q '| 250 rpm · now: 280 rpm | active |' $page &&
    grep -q '^\*\*Open since 2026-11-01 00:00\.\*\*' $page &&
    grep -q '| 2026-02-02 · 2026-11-01 09:30 |\$' $page"
expect "the conflict's JSON keeps detected_at and each side's values then and now" python3 -c "
import json
import glob
d = [r for f in glob.glob('site/api/conflicts/projects/*.json')
     for r in json.load(open(f))['conflicts'] if r['conflict']['id'] == '$conflict'][0]
c = d['conflict']
assert c['detected_at'] == '2026-11-01 00:00:00', c['detected_at']
assert 'detected_shown' not in c and 'values_differ' not in c
assert any(m['value_then'] != m['value_now'] for m in d['members'])
"

# A build with nothing changed keeps every page (each as it was), and
# the stylesheet it writes again still has the rules of every class
# those kept pages use: the classes depend on the templates and the
# theme alone, and a change of either renders every page again.
before=$(state site/projects site/conflicts site/assets/style.css)
touch -d '2020-01-01' site/projects/p1/index.html
mirror build --store s.db --out site --quiet
expect_status "the store builds a third time, nothing changed" 0
table_labels site >labels.out 2>labels.err
labels_rc=$?
expect "the kept pages' table classes are all in the rewritten stylesheet" sh -c "
    test '$before' = '$(state site/projects site/conflicts site/assets/style.css)' &&
    test \$(stat -c %Y site/projects/p1/index.html) -lt 1600000000 &&
    test $labels_rc = 0 && test \$(cat labels.out) -gt 0"
