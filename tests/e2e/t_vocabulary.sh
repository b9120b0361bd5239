#!/bin/sh
# A person's vocabulary (issue 70, item 3; doc/site.md, "The words the
# site uses"): no visible text of any page kind, on the example store
# (with checks, a failed rule, a resolved and a dismissed conflict, an
# edited value) and on a generated store of 40,000 facts and 200
# projects, holds a word of the glossary's forbidden list: a store
# column name, a rule id, a file position, "rows", "slot", "sweep",
# "supersede chain", "store snapshot", "Check id" (tests/tools/
# vocabulary.py says what it reads). Empty sections are left out and a
# paragraph is said once (doc/site.md, "The words the site uses").
# And the scan can fail.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
scan="python3 $MIRROR_TOP/tests/tools/vocabulary.py"
rules="$MIRROR_TOP/rules"
new_store ex.db "$MIRROR_TOP/site-example/example.sql" \
    "$MIRROR_TOP/tests/data/checks.sql" || exit 1
mirror sweep --store ex.db --quiet
expect_status "the example store sweeps" 0
c1=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' ORDER BY id LIMIT 1")
c2=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' ORDER BY id LIMIT 1 OFFSET 1")
mirror conflicts resolve "$c1" --store ex.db --notes 'kept the state value' --actor alice
mirror conflicts dismiss "$c2" --store ex.db --reason 'not a real conflict' --actor bob
sql ex.db "UPDATE project_state SET value = '145 MHz' WHERE id = 'p04-st-serdes-refclk'"
mirror build --store ex.db --out site --quiet
expect_status "the example site builds (a conflict resolved, one dismissed, a value edited)" 0
$scan ex.db site "$rules" > scan.log 2>&1
expect "example: no visible text of any page kind holds a word of the forbidden list" \
    test $? -eq 0
sed -n '1,12s/^/#   /p' scan.log

# Empty sections are left out; what to do is said once a page.
pg=site/checks/projects/p04-gigabit.md
expect "example: a Checks page has no empty group, says what to do once, and no id line" sh -c "
    ! grep -qxF 'None.' $pg && ! grep -qE '^## (Open errors|Closed): 0 checks' $pg &&
    [ \$(grep -c '^What to do with an open warning' $pg) = 1 ] &&
    ! grep -qE '^What to do with an open error' $pg && ! grep -qF 'Check id' $pg"
expect "example: no section of failed rules when every rule ran" sh -c "
    ! grep -qiE 'failed rules|rules that failed|every rule ran' $pg site/checks/index.md"
expect "example: a rule's page keeps its query's indentation and names its file without a line" sh -c "
    grep -qxF \"       json_array('entity:' || e.id) AS facts,\" site/checks/rules/claim-unsupported.md &&
    grep -qF '       json_array(' site/checks/rules/claim-unsupported.html &&
    grep -qxF 'From rules/gaps.sql; its latest run: ok.' site/checks/rules/claim-unsupported.md"
expect "example: a subsystem's empty lists are left out" sh -c "
    ! grep -qE 'No (interfaces|components|materials|decisions|requirements)[a-z ]* recorded' site/projects/*/subsystems.html"
expect "example: the home page lists the current facts of no project; superseded, invalid and expired ones once, folded" sh -c "
    sed -n '/^## Not tied/,/<details>/p' site/index.md > cur.txt &&
    grep -qF 'Give every tolerance with its unit' cur.txt && ! grep -qF 'Reply in French' cur.txt &&
    ! grep -qF 'Attended the Optatec fair' cur.txt &&
    [ \$(grep -cF 'Reply in French' site/index.md) = 1 ] &&
    grep -qF '<summary>Not current: 6 facts</summary>' site/index.html"

# A generated store: 40,000 facts, 200 projects. Its generator names
# entities after their type ("validation_claim 3"): store text, which
# may say anything, so they are made words first.
bench_store big.db 40000 || exit 1
sql big.db "UPDATE entities SET name = replace(name, '_', ' '),
    description = replace(description, '_', ' '),
    properties = replace(properties, 'analysis_model', 'analysis model')"
np=$(sql big.db "SELECT count(*) FROM projects")
mirror build --store big.db --out bigsite --quiet
expect_status "a generated store of 40,000 facts and $np projects builds" 0
$scan big.db bigsite "$rules" > big.log 2>&1
expect "generated: no visible text of any page kind holds a word of the forbidden list" \
    sh -c "test $? -eq 0 && test $np -ge 200"
sed -n '1,12s/^/#   /p' big.log

# The scan can fail: a page with each kind of forbidden word in its
# text; the same words in code, a link and an attribute, and a state
# key as the store writes it, do not count.
mkdir -p bad
cat > bad/page.html <<'HTML'
<p>18 trusted state rows; the sweep leaves them out.</p>
<p>names it through affected_by_decision (claim-unsupported)</p>
<p>From rules/gaps.sql:41: every decision slot</p>
<p>Check id chk-3d8b17eb72b9; the head of the supersede chain</p>
<h1>Rule: supersede chain</h1>
<p>api/health.json names the store snapshot.</p>
<p><code>depends_on</code> <a href="x#claim-unsupported" title="rows">spindle_max_speed</a></p>
<pre>SELECT updated_at FROM project_state -- rows</pre>
HTML
$scan ex.db bad "$rules" > bad.log 2>&1
expect "the scan fails on a column, a rule id, a file position and each internal term; code, URLs and keys pass" sh -c "
    test $? -eq 1 && grep -q 'vocabulary: 9 findings' bad.log &&
    for w in rows sweep affected_by_decision claim-unsupported rules/gaps.sql:41 slot 'Check id' \
        'supersede chain' 'store snapshot'; do grep -qF \"\\\"\$w\\\"\" bad.log || exit 1; done &&
    ! grep -qF '\"depends_on\"' bad.log && ! grep -qF '\"spindle_max_speed\"' bad.log &&
    ! grep -qF 'updated_at' bad.log"
exit 0
