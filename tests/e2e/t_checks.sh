#!/bin/sh
# The rules' violations as a user sees them (doc/rules.md "On the
# pages"): rows written straight into the rule tables of a store, then
# built with --no-sweep, so what is tested is the reading and the
# rendering alone: the ⚑ marker and its link on the overview's rows, the
# violation page with hostile text shown as text, the Checks pages, the
# JSON, health, the feed, the commit message words, --check, and a
# violation that closes or a rule whose words change updating the pages
# incrementally as a --force build would.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1790000000 HOME="$T" GIT_CONFIG_NOSYSTEM=1
A='Mirror Bot <mirror@example.org>'

new_store s.db || exit 1
sql s.db "
INSERT INTO projects(id, name, aliases) VALUES ('p07', 'P07 Telescope', '[\"tel\"]');
INSERT INTO project_state(id, project, category, key, value) VALUES
  ('st-ap', 'tel', 'fact', 'aperture', '200 mm');
INSERT INTO entities(id, entity_type, name, project) VALUES
  ('c-tube', 'component', 'Tube', 'p07'),
  ('c-cell', 'component', 'Mirror cell', 'p07');
INSERT INTO memories(id, memory_type, content, project) VALUES
  ('m-1', 'knowledge', 'The tube is long', 'p07');
INSERT INTO rule_runs VALUES ('r1', 'no-material', 'rules/x.sql:3', 'warn',
  'no <i>material</i>', 'Components need a material </p><script>alert(1)</script>',
  'SELECT ''<b>x</b>'' AS message,
  json_array(''entity:'' || id) AS facts -- | pipe \`tick\`
FROM entities;', 'ok', '', 1, 2);
INSERT INTO rule_violations(id, rule_id, severity, project, facts, message,
  status, detected_at, opened_run) VALUES ('chk-00000000aaaa', 'no-material',
  'warn', 'p07', '[\"entity:c-tube\",\"memory:m-1\"]',
  'Tube has <img src=x onerror=alert(1)> **no** material | at all',
  'open', '2026-09-01 10:00:00', 'r1');
INSERT INTO violation_facts VALUES ('chk-00000000aaaa', 'entity', 'c-tube'),
  ('chk-00000000aaaa', 'memory', 'm-1');" || exit 1
git init -q --bare r.git
mirror build --store s.db --out site --no-sweep --repo r.git --author "$A"
expect_status "a store with a violation builds" 0

ov=site/projects/p07/index
expect "the flagged entity's row carries the marker, linked to its page" \
    grep -qF '**Tube** (component) [⚑ check: no \<i>material\</i>](../../checks/chk-00000000aaaa.md)' "$ov.md"
expect "the flagged memory's row carries it too; the unflagged rows do not" \
    sh -c "grep -F 'The tube is long' '$ov.md' | grep -qF '⚑ check' &&
        ! grep -F 'Mirror cell' '$ov.md' | grep -qF '⚑' &&
        ! grep -F 'aperture' '$ov.md' | grep -qF '⚑'"
expect "the HTML marker is a link to the violation page, its label text" \
    grep -qF '<a href="../../checks/chk-00000000aaaa.html">⚑ check: no &lt;i&gt;material&lt;/i&gt;</a>' "$ov.html"
expect "the overview's Gaps are the project's open violations" sh -c "
    sed -n '/id=\"gaps\"/,/^## /p' '$ov.md' | grep -qF '[⚑ no \<i>material\</i>](../../checks/chk-00000000aaaa.md): Tube has'"

pg=site/checks/chk-00000000aaaa
expect "the violation page shows the message, the rule's description and query as text" sh -c "
    grep -qF 'Tube has \<img src=x onerror=alert(1)> \*\*no\*\* material \| at all' '$pg.md' &&
    grep -qF 'Components need a material \</p>\<script>alert(1)\</script>' '$pg.md' &&
    grep -qF \"json_array('entity:' || id) AS facts -- | pipe \\\`tick\\\`\" '$pg.md'"
expect "no markup from the store reaches the HTML" sh -c "
    ! grep -qE '<(img|script|i|b)[ >]' '$pg.html' &&
    grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' '$pg.html'"
expect "the violation page lists its facts, linked to where they are shown" sh -c "
    grep -qF '[Tube](../projects/p07/index.md#entity-c-tube) |  | P07 Telescope | entity | active |' '$pg.md' &&
    grep -qF '[The tube is long](../projects/p07/index.md#memory-m-1) |  | P07 Telescope | memory | active |' '$pg.md'"
expect "the violation page says what it found: the project by name, its facts linked" \
    grep -qxF 'In [P07 Telescope](../projects/p07/index.md), the rule no-material has flagged [Tube](../projects/p07/index.md#entity-c-tube), [The tube is long](../projects/p07/index.md#memory-m-1) since 2026-09-01.' "$pg.md"
expect "the violation page says what to do about an open warning" sh -c "
    sed -n '/id=\"todo\"/,/^## /p' '$pg.md' | grep -q '^Look at the facts below: correct them where they come from'"
expect "the query is folded under How this is checked, after the rest" sh -c "
    sed -n '/^<details>\$/,/^<\/details>\$/p' '$pg.html' | grep -qxF '<summary>How this is checked</summary>' &&
    sed -n '/^<details>\$/,/^<\/details>\$/p' '$pg.html' | grep -qF '<pre><code class=\"language-sql\">SELECT' &&
    ! sed '/^<details>\$/,/^<\/details>\$/d' '$pg.html' | grep -qF '<pre>' &&
    ! sed -n '/^<\/details>\$/,\$p' '$pg.html' | grep -q '<h2'"
expect "the site's Checks page groups by project, named, then by rule" sh -c "
    sed -n '/^## <a id=\"project-p07\"><\/a>P07 Telescope: 1 open, 0 closed\$/,/^## /p' site/checks/index.md |
        sed -n '/^### ⚑ no \\\\<i>material\\\\<\/i> (no-material): 1 open\$/,/^#/p' |
        grep -qF '(chk-00000000aaaa.md) · P07 Telescope · open warning since 2026-09-01'"
expect "every page's header links the Checks page, in the default theme" sh -c "
    n=0; for f in \$(find site -name '*.html' ! -name 404.html); do n=\$((n + 1))
        d=\$(dirname \"\${f#site/}\" | sed 's|[^/.][^/]*|..|g; s|^\\.\$||; s|\$|/|; s|^/\$||')
        grep -qF \"<li><a href=\\\"\${d}checks/index.html\\\"\" \"\$f\" || { echo \"\$f\"; exit 1; }; done; [ \$n -gt 10 ]"
mirror build --store s.db --out plain --no-sweep --theme plain --quiet
expect "... and in the plain theme" sh -c "
    n=0; for f in \$(find plain -name '*.html' ! -name 404.html); do n=\$((n + 1))
        d=\$(dirname \"\${f#plain/}\" | sed 's|[^/.][^/]*|..|g; s|^\\.\$||; s|\$|/|; s|^/\$||')
        grep -qF \" | <a href=\\\"\${d}checks/index.html\\\">Checks</a>\" \"\$f\" || { echo \"\$f\"; exit 1; }; done; [ \$n -gt 10 ]"
expect "the project's Checks page lists it, linked one folder up" \
    grep -qF '(../chk-00000000aaaa.md)' site/checks/projects/p07.md
expect "api/checks.json counts it and holds its object" sh -c "
    jq -e '.open_warn == 1 and .open_error == 0 and .rules_failed == 0 and
      (.checks | length) == 1 and .checks[0].rule_info.description ==
      \"Components need a material </p><script>alert(1)</script>\" and
      (.checks[0].fact_list | map(.id)) == [\"c-tube\", \"m-1\"]' site/api/checks.json >/dev/null &&
    jq -e '.status == \"open\" and .label == \"no <i>material</i>\"' site/api/checks/chk-00000000aaaa.json >/dev/null"
expect "the JSON of a flagged fact names its check" sh -c "
    jq -e '[.. | objects | select(.id? == \"c-tube\" and has(\"check\"))][0].check.id == \"chk-00000000aaaa\"' site/api/projects/p07.json >/dev/null"
expect "the feed has an entry for the violation, its text escaped" sh -c "
    grep -qF '<id>urn:mirror:check:chk-00000000aaaa</id>' site/feed.xml &&
    grep -qF 'check failing: no &lt;i&gt;material&lt;/i&gt;' site/feed.xml"
mirror health --store s.db
expect "health counts the open violation by severity" \
    out_has '^checks: 1 open \(0 error, 1 warn\), 0 closed; 0 of 1 rules failed$'
mirror health --store s.db --json
expect "health --json too, and api/health.json" sh -c "
    jq -e '.checks == {\"open_error\":0,\"open_warn\":1,\"closed\":0,\"rules_failed\":0}' '$T/out' >/dev/null &&
    jq -e '.checks.open_warn == 1' site/api/health.json >/dev/null"

# --check: a warning passes, an error or a failed rule fails (exit 4).
mirror build --store s.db --out site --no-sweep --check
expect_status "--check passes with open warnings only" 0
sql s.db "UPDATE rule_violations SET severity = 'error'"
mirror build --store s.db --out site --no-sweep --check
expect_error "--check fails on an open violation of an error rule" 4 \
    'build --check: 1 open violation of error rules in s.db'
sql s.db "UPDATE rule_violations SET severity = 'warn';
  INSERT INTO rule_runs VALUES ('r1', 'broken', 'rules/y.sql:1', 'warn', '',
  'd', 'SELECT 1', 'failed', 'no such column: z', 0, 0);"
mirror build --store s.db --out site --no-sweep --check
expect_error "--check fails on a rule that failed in the latest sweep" 4 \
    'build --check: 1 rule failed in the latest sweep of s.db'
expect "the Checks page lists the failed rule with its error" \
    grep -qF -- '- **broken** (rules/y.sql:1): no such column: z' site/checks/index.md
sql s.db "DELETE FROM rule_runs WHERE rule_id = 'broken'"

# same DIR: an incremental build of site equals a --force build.
same_as_force() {
	mirror build --store s.db --out force --no-sweep --force --quiet &&
	    diff -r -x pages -x build.json -x .mirror-output site force >/dev/null
}

# Two new violations: the commit says so.
mirror build --store s.db --out site --no-sweep --repo r.git --author "$A"
sql s.db "
INSERT INTO rule_violations(id, rule_id, severity, project, facts, message,
  status, detected_at, opened_run) VALUES
  ('chk-00000000bbbb', 'no-material', 'warn', 'p07', '[\"entity:c-cell\"]',
   'Mirror cell has no material', 'open', '2026-09-02 10:00:00', 'r2'),
  ('chk-00000000cccc', 'no-material', 'warn', 'p07', '[\"project_state:st-ap\"]',
   'aperture flagged', 'open', '2026-09-02 10:00:00', 'r2');
INSERT INTO violation_facts VALUES ('chk-00000000bbbb', 'entity', 'c-cell'),
  ('chk-00000000cccc', 'project_state', 'st-ap');
INSERT INTO rule_runs SELECT 'r2', rule_id, origin, severity, label,
  description, query, status, error, 3, 2 FROM rule_runs WHERE sweep_run = 'r1';"
mirror build --store s.db --out site --no-sweep --repo r.git --author "$A"
expect "the rule's new count of hits is on the site's Checks page" \
    grep -qF '| no-material | ⚑ no \<i>material\</i> | rules/x.sql:3 | ok | warn | 3 |' site/checks/index.md
expect "... and not in the files of its violation that stayed as it was" sh -c "
    ! git --git-dir=r.git diff --name-only mirror~1 mirror | grep -F chk-00000000aaaa &&
    jq -e '.rule_info | has(\"hits\") | not' site/api/checks/chk-00000000aaaa.json >/dev/null"
expect "the commit of two new violations says 2 checks newly failing" \
    test "$(git --git-dir=r.git log -1 --format=%s mirror)" = "2 checks newly failing — p07"
expect "its body names each with its label and message" \
    sh -c "git --git-dir=r.git log -1 --format=%b mirror | grep -qxF '  ⚑ check newly failing: no <i>material</i>: Mirror cell has no material [chk-00000000bbbb]'"
expect "an opened violation marks its state row" sh -c \
    "grep -F '**aperture**' '$ov.md' | grep -qF 'checks/chk-00000000cccc.md'"
expect "after violations open, the incremental build equals --force" same_as_force

# One closes by itself: marker and Gaps line go, the page says closed.
sql s.db "UPDATE rule_violations SET status = 'closed',
  closed_at = '2026-09-03 10:00:00', closed_run = 'r3' WHERE id = 'chk-00000000aaaa'"
mirror build --store s.db --out site --no-sweep --repo r.git --author "$A"
expect "the commit of a closed violation says check passing again" \
    test "$(git --git-dir=r.git log -1 --format=%s mirror)" = "p07: check passing again: no <i>material</i> (Tube has <img src=x onerror=alert(1)> **no** material | at all)"
expect "the closed violation's marker and Gaps line are gone" sh -c "
    ! grep -qF 'chk-00000000aaaa' '$ov.md'"
expect "its page says closed, and the Checks page lists it as closed" sh -c "
    grep -qF -- '- Status: **closed**' '$pg.md' &&
    grep -qF '(chk-00000000aaaa.md) · P07 Telescope · closed, 2026-09-01 to ' site/checks/index.md"
expect "after a violation closes, the incremental build equals --force" same_as_force

# Only the rule's label and description change: the pages that show them
# are rendered again.
sql s.db "UPDATE rule_runs SET label = 'lacks material', description = 'New words'"
mirror build --store s.db --out site --no-sweep --quiet
expect "a rule's new label reaches the markers of the kept overview" \
    grep -qF '[⚑ check: lacks material](../../checks/chk-00000000bbbb.md)' "$ov.md"
expect "its new description reaches the violation pages" \
    grep -qxF 'New words' site/checks/chk-00000000bbbb.md
expect "after a rule's words change, the incremental build equals --force" same_as_force

# A bad row in the rule tables is refused before anything is written.
sql s.db "UPDATE rule_violations SET severity = 'fatal' WHERE id = 'chk-00000000bbbb'"
mirror build --store s.db --out site --no-sweep
expect_error "a bad severity is bad input naming table, row and column" 2 \
    "rule_violations row 'chk-00000000bbbb': severity"
