#!/bin/sh
# The rules' violations as a user sees them (doc/rules.md "On the
# pages"): rows written straight into the rule tables of a store, then
# built with --no-sweep, so what is tested is the reading and the
# rendering alone: the ⚑ marker and its link on the overview's rows, the
# page of a project's checks (a section per rule, a subsection per
# check) and the rule's page, with hostile text shown as text, the Checks pages, the
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
    grep -qF '**Tube** (component) [⚑ check: no \<i>material\</i>](../../checks/projects/p07.md#chk-00000000aaaa)' "$ov.md"
expect "the flagged memory's row carries it too; the unflagged rows do not" \
    sh -c "grep -F 'The tube is long' '$ov.md' | grep -qF '⚑ check' &&
        ! grep -F 'Mirror cell' '$ov.md' | grep -qF '⚑' &&
        ! grep -F 'aperture' '$ov.md' | grep -qF '⚑'"
expect "the HTML marker is a link to the violation page, its label text" \
    grep -qF '<a href="../../checks/projects/p07.html#chk-00000000aaaa">⚑ check: no &lt;i&gt;material&lt;/i&gt;</a>' "$ov.html"
expect "the overview's Gaps are the project's open violations" sh -c "
    sed -n '/id=\"gaps\"/,/^## /p' '$ov.md' | grep -qF '[⚑ no \<i>material\</i>](../../checks/projects/p07.md#chk-00000000aaaa): Tube has'"

pg=site/checks/projects/p07
rp=site/checks/rules/no-material
expect "the check's subsection is under its anchor, the message as text; the rule's text is not repeated there" sh -c "
    grep -qxF '### <a id=\"chk-00000000aaaa\"></a>Tube' '$pg.md' &&
    grep -qF 'Tube has \<img src=x onerror=alert(1)> \*\*no\*\* material \| at all' '$pg.md' &&
    ! grep -qF 'Components need a material' '$pg.md' && ! grep -qF 'json_array' '$pg.md' &&
    grep -qF '[its page](../../checks/rules/no-material.md)' '$pg.md'"
expect "the rule's section on the project's page: its marker, its name in words, severity; what to do once a page" sh -c "
    grep -qxF '## <a id=\"rule-no-material\"></a>⚑ no \\<i>material\\</i> (no material): 1 open, 0 closed' '$pg.md' &&
    [ \$(grep -c '^What to do ' '$pg.md') = 1 ] && [ \$(grep -c 'Severity warn' '$pg.md') = 1 ] &&
    ! grep -qE '^- (Severity|Rule|Project):' '$pg.md'"
expect "the rule's page shows its description and query as text, once" sh -c "
    grep -qF 'Components need a material \</p>\<script>alert(1)\</script>' '$rp.md' &&
    grep -qF \"json_array('entity:' || id) AS facts -- | pipe \\\`tick\\\`\" '$rp.md' &&
    grep -qxF -- '- [P07 Telescope](../../checks/projects/p07.md#rule-no-material): 1 open, 0 closed' '$rp.md' &&
    [ \$(grep -rlF 'json_array(' site --include=*.md --include=*.json | wc -l) = 1 ]"
expect "no markup from the store reaches the HTML" sh -c "
    ! grep -hE '<(img|script|i|b)[ >]' '$pg.html' '$rp.html' |
        grep -vF 'assets/keys.js\" defer></script>' | grep -q . &&
    grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' '$rp.html'"
expect "the check lists its facts, linked to where they are shown, without the page's project" sh -c "
    grep -qF '[Tube](../../projects/p07/index.md#entity-c-tube) |  | entity | active |' '$pg.md' &&
    grep -qF '[The tube is long](../../projects/p07/index.md#memory-m-1) |  | memory | active |' '$pg.md' &&
    grep -qxF '| Fact | Sources | Layer | Status now |' '$pg.md'"
expect "the check says its status and since when, in one line (its id is its anchor); no earlier violations, no line" sh -c "
    grep -qxF '**open** since 2026-09-01' '$pg.md' && ! grep -qF 'Earlier' '$pg.md'"
expect "the page says what to do about an open warning" \
    grep -q '^What to do with an open warning: look at its facts and correct them where they come from' "$pg.md"
expect "the rule's query comes last on its page, under How this is checked" sh -c "
    sed -n '/id=\"query\"/,\$p' '$rp.html' | grep -qF '<pre><code class=\"language-sql\">SELECT' &&
    ! sed '/id=\"query\"/,\$d' '$rp.html' | grep -qF '<pre>'"
expect "the site's Checks page names the project with its counts, linked to its Checks page; the list by project has its row" sh -c "
    grep -qxF -- '- [P07 Telescope](../checks/projects/p07.md): 1 open, 0 closed · [overview](../projects/p07/index.md)' site/checks/index.md &&
    grep -qxF '| [P07 Telescope](../checks/projects/p07.md) | 0 | 1 | 0 | 1 |' site/checks/index.projects.md &&
    ! grep -qF 'chk-' site/checks/index.md"
expect "every page's header links the Checks page, in the default theme" sh -c "
    n=0; for f in \$(find site -name '*.html' ! -name 404.html); do n=\$((n + 1))
        d=\$(dirname \"\${f#site/}\" | sed 's|[^/.][^/]*|..|g; s|^\\.\$||; s|\$|/|; s|^/\$||')
        grep -qF \"<li><a href=\\\"\${d}checks/index.html\\\"\" \"\$f\" || { echo \"\$f\"; exit 1; }; done; [ \$n -gt 10 ]"
mirror build --store s.db --out plain --no-sweep --theme plain --quiet
expect "... and in the plain theme" sh -c "
    n=0; for f in \$(find plain -name '*.html' ! -name 404.html); do n=\$((n + 1))
        d=\$(dirname \"\${f#plain/}\" | sed 's|[^/.][^/]*|..|g; s|^\\.\$||; s|\$|/|; s|^/\$||')
        grep -qF \" | <a href=\\\"\${d}checks/index.html\\\">Checks</a>\" \"\$f\" || { echo \"\$f\"; exit 1; }; done; [ \$n -gt 10 ]"
expect "the project's Checks page lists it at its top, linked to its subsection on the page" \
    grep -qF '(#chk-00000000aaaa) · ⚑ no \<i>material\</i> · since 2026-09-01' site/checks/projects/p07.md
expect "the project's checks are one page pair, no folder below checks/projects/" sh -c "
    test -f site/checks/projects/p07.md -a -f site/checks/projects/p07.html &&
    [ -z \"\$(find site/checks/projects -mindepth 1 -type d)\" ]"
expect "api/checks.json counts it, lists the rule without its query and the project's file" sh -c "
    jq -e '.open_warn == 1 and .open_error == 0 and .rules_failed == 0 and
      .rules[0].description == \"Components need a material </p><script>alert(1)</script>\" and
      (.rules[0] | has(\"query\") or has(\"query_lines\") | not) and
      .projects == [{\"project\": \"p07\", \"project_name\": \"P07 Telescope\", \"project_slug\": \"p07\",
        \"open\": 1, \"closed\": 0, \"json\": \"api/checks/p07.json\"}]' site/api/checks.json >/dev/null &&
    jq -e '(.checks | length) == 1 and .checks[0].status == \"open\" and
      .checks[0].label == \"no <i>material</i>\" and (.checks[0].facts | map(.id)) == [\"c-tube\", \"m-1\"] and
      .checks[0].page == \"checks/projects/p07\" and
      (.checks[0] | has(\"rule_info\") | not)' site/api/checks/p07.json >/dev/null"
expect "the JSON of a flagged fact names its check" sh -c "
    jq -L \"\$MIRROR_TOP/tests/tools\" -e 'include \"facts\"; facts | select(.id == \"c-tube\") | .checks == [\"chk-00000000aaaa\"]' site/api/projects/p07.json >/dev/null"
expect "the feed has an entry for the violation, its text escaped" sh -c "
    grep -qF '<id>urn:mirror:check:chk-00000000aaaa</id>' site/feed.xml &&
    grep -qF 'href=\"checks/projects/p07.html#chk-00000000aaaa\"' site/feed.xml &&
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
    grep -qF -- '- **broken** (rules/y.sql): no such column: z' site/checks/index.md
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
    grep -qF '| [no material](../checks/rules/no-material.md) | ⚑ no \<i>material\</i> | rules/x.sql | ok | warn | 3 |' site/checks/index.md
expect "... and on the rule's page, not on the page of its checks" sh -c "
    grep -qxF '⚑ no \\<i>material\\</i> · severity warn · checks its latest run found: 3' '$rp.md' &&
    ! grep -qF 'latest run found' '$pg.md'"
expect "the project's Checks page holds each once, in its own subsection" sh -c "
    for c in aaaa bbbb cccc; do [ \$(grep -c \"^### <a id=\\\"chk-00000000\$c\\\"></a>\" '$pg.md') = 1 ] || exit 1; done &&
    [ \$(find site/checks -name '*.md' ! -name 'index.open*' ! -name 'index.projects*' | wc -l) = 3 ]"
expect "the commit of two new violations says 2 checks newly failing" \
    test "$(git --git-dir=r.git log -1 --format=%s mirror)" = "2 checks newly failing — p07"
expect "its body names each with its label and message" \
    sh -c "git --git-dir=r.git log -1 --format=%b mirror | grep -qxF '  ⚑ check newly failing: no <i>material</i>: Mirror cell has no material [chk-00000000bbbb]'"
expect "an opened violation marks its state row" sh -c \
    "grep -F '</a>aperture |' '$ov.md' | grep -qF 'checks/projects/p07.md#chk-00000000cccc'"
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
    sed -n '/id=\"chk-00000000aaaa\"/,/^## /p' '$pg.md' | grep -qF -- '**closed**: from 2026-09-01' &&
    grep -qF -- '- [P07 Telescope](../checks/projects/p07.md): 2 open, 1 closed' site/checks/index.md &&
    grep -qxF '| [P07 Telescope](../checks/projects/p07.md) | 0 | 2 | 1 | 1 |' site/checks/index.projects.md"
expect "after a violation closes, the incremental build equals --force" same_as_force

# Only the rule's label and description change: the pages that show them
# are rendered again.
# The site holds files of one page per check too, as a build before
# pages per project and rule left them, and the pages per project and
# rule of a build before one page per project, in a folder per project:
# this build removes them and the folder, as it removes every file no
# longer made.
sql s.db "UPDATE rule_runs SET label = 'lacks material', description = 'New words'"
mkdir -p site/checks/projects/p07
for f in checks/chk-00000000aaaa.md checks/chk-00000000aaaa.html \
    api/checks/chk-00000000aaaa.json checks/projects/p07/no-material.md \
    checks/projects/p07/no-material.html; do echo old >"site/$f"; done
mirror build --store s.db --out site --no-sweep --quiet
expect "an incremental build removes the files of one page per check" sh -c "
    ! ls site/checks/chk-* site/api/checks/chk-* 2>/dev/null | grep -q . &&
    test -f '$pg.md' -a -f site/api/checks/p07.json"
expect "... and the pages per project and rule, and their folder" \
    test ! -e site/checks/projects/p07
expect "a rule's new label reaches the markers of the kept overview" \
    grep -qF '[⚑ check: lacks material](../../checks/projects/p07.md#chk-00000000bbbb)' "$ov.md"
expect "its new description reaches the rule's page" \
    grep -qxF 'New words' "$rp.md"
expect "after a rule's words change, the incremental build equals --force" same_as_force

# A bad row in the rule tables is refused before anything is written.
sql s.db "UPDATE rule_violations SET severity = 'fatal' WHERE id = 'chk-00000000bbbb'"
mirror build --store s.db --out site --no-sweep
expect_error "a bad severity is bad input naming table, row and column" 2 \
    "rule_violations row 'chk-00000000bbbb': severity"

# The example's checks: one page pair per project, each check under its
# anchor once, every link to a check resolving.
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out exsite --quiet
expect "the example's checks: a page pair per project, no folder, each anchor once, every link to one resolves" \
    python3 "$MIRROR_TOP/tests/tools/check_pages.py" ex.db exsite
expect "... and the search index and the sitemap link them there too" sh -c "
    grep -qF '\"chk-007e8f8c4120\",[\"checks/projects/p06-polisher.html\"]' exsite/search/d-*.js &&
    ! grep -qF 'checks/chk-' exsite/search/d-*.js exsite/sitemap.xml exsite/changes.xml exsite/feed.xml &&
    grep -qF 'checks/projects/p06-polisher.html</loc>' exsite/sitemap.xml"

# Hard names: a rule id that is no slug, a project whose slug is
# "rules", violations of no project and of a project the store does not
# list, and an earlier violation of the same facts in another project.
new_store odd.db || exit 1
sql odd.db "
INSERT INTO projects(id, name) VALUES ('rules', 'Rules Project');
INSERT INTO entities(id, entity_type, name, project) VALUES
  ('c1', 'component', 'Tube', 'rules'), ('c2', 'component', 'Loose', '');
INSERT INTO rule_runs VALUES ('r1', '../../etc/Pässwd rule', 'rules/x.sql:3',
  'warn', 'odd', 'desc', 'SELECT 1', 'ok', '', 3, 2);
INSERT INTO rule_violations(id, rule_id, severity, project, facts, message,
  status, detected_at, opened_run) VALUES
 ('chk-00000000aaaa', '../../etc/Pässwd rule', 'warn', 'rules',
  '[\"entity:c1\"]', 'm1', 'open', '2026-09-01 10:00:00', 'r1'),
 ('chk-00000000bbbb', '../../etc/Pässwd rule', 'warn', '',
  '[\"entity:c2\"]', 'm2', 'open', '2026-09-01 10:00:00', 'r1'),
 ('chk-00000000cccc', '../../etc/Pässwd rule', 'warn', 'ghost',
  '[\"entity:c2\"]', 'm3', 'closed', '2026-09-01 10:00:00', 'r1');
INSERT INTO violation_facts VALUES ('chk-00000000aaaa', 'entity', 'c1'),
  ('chk-00000000bbbb', 'entity', 'c2'), ('chk-00000000cccc', 'entity', 'c2');" || exit 1
mirror build --store odd.db --out odd --no-sweep --quiet
r=etc-passwd-rule--52ac1053
expect "hard names: pages by slug below checks/projects/, apart from the rule's; every link resolves" sh -c "
    test -f odd/checks/rules/$r.md -a -f odd/checks/projects/rules.md -a \
      -f odd/checks/projects/x--cbf29ce4.md -a -f odd/checks/projects/ghost.md &&
    [ -z \"\$(find odd/checks/projects -mindepth 1 -type d)\" ] &&
    grep -qF 'SELECT 1' odd/checks/rules/$r.md &&
    python3 '$MIRROR_TOP/tests/tools/linkcheck.py' odd >/dev/null"
expect "an earlier violation in another project is linked on that project's page" \
    grep -qF "(../../checks/projects/x--cbf29ce4.md#chk-00000000bbbb)" odd/checks/projects/ghost.md
expect "a check naming a fact of another project keeps the facts' Project column" sh -c "
    grep -qxF '| Fact | Sources | Project | Layer | Status now |' odd/checks/projects/ghost.md &&
    ! grep -qF '| Project |' odd/checks/projects/rules.md"
