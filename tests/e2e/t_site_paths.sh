#!/bin/sh
# Paths and all-or-nothing output: project and conflict ids that try to
# leave the output directory, Windows device names, long and non-ASCII
# ids, ids that slug alike; a failing build (bad template, bad row,
# unknown theme) leaves the previous site byte-identical.
# The promises of doc/templates.md, "Overriding templates".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
linkcheck="$MIRROR_TOP/tests/tools/linkcheck.py"
export SOURCE_DATE_EPOCH=1700000000

long=$(printf 'x%.0s' $(seq 1 300))
new_store p.db || exit 1
sqlite3 -bail p.db "
INSERT INTO projects(id, name) VALUES('../../etc', 'Traversal'), ('con', 'Device'),
 ('$long', 'Long'), ('Ünïcødé проект', 'Unicode'), ('A b', 'Spaced'), ('a-b', 'Clean'),
 ('/abs/path', 'Absolute'), ('..', 'Dots');
INSERT INTO project_state(id, project, category, key, value) VALUES
 ('../s1', '../../etc', 'fact', 'k', 'v1'), ('s2', 'con', 'fact', 'k', 'v2'),
 ('s3', 'A b', 'fact', 'k', 'spaced'), ('s4', 'a-b', 'fact', 'k', 'clean');
INSERT INTO entities(id, entity_type, name, project) VALUES
 ('../../sub', 'subsystem', 'Sub', '../../etc'), ('nul', 'subsystem', 'Nul', 'con');
INSERT INTO conflicts(id, slot_kind, slot_key, project, status) VALUES
 ('../../../tmp/evil', 'cross_layer', '[]', '../../etc', 'open'), ('PRN', 'cross_layer', '[\"x\"]', 'con', 'open');
INSERT INTO conflict_members VALUES('../../../tmp/evil', 'project_state', '../s1', 3, 'v1', NULL),
 ('PRN', 'project_state', 's2', 3, 'v2', NULL);" || exit 1

mkdir box && cd box || exit 1
mirror build --store ../p.db --out site --no-sweep
expect_status "hostile ids build" 0
cd "$T" || exit 1
expect "nothing is written outside the output directory" sh -c "
    test \"\$(ls box)\" = site && test ! -e etc && test ! -e box/etc && test ! -e /tmp/evil.md"
expect "every file name is a safe slug path" sh -c "
    cd box/site && ! find . -type f | grep -v '^\./\.nojekyll$' | grep -v '^\./\.mirror-output$' |
        grep -Ev '^\./[a-z0-9./-]+\$'"
expect "no file name component is longer than 64 bytes" sh -c "
    cd box/site && ! find . | tr '/' '\n' | awk 'length > 64' | grep -q ."
expect "a project id '../../etc' gets a page inside the site" sh -c "
    ls box/site/projects | grep -q '^etc--[0-9a-f]*$'"
expect "a project id 'con' does not become a device name" sh -c "
    ! ls box/site/projects | grep -Eqx 'con|prn|aux|nul'"
expect "two ids that slug alike get distinct pages" sh -c "
    test -f box/site/projects/a-b/index.md &&
    f=\$(ls -d box/site/projects/a-b--*) && test -f \"\$f/index.md\" &&
    grep -q spaced \"\$f/index.md\" && grep -q clean box/site/projects/a-b/index.md"
expect "every project has its overview (8 projects)" \
    test "$(ls -d box/site/projects/*/ | wc -l)" = 8
expect "conflict ids become safe page names" sh -c "
    ls box/site/conflicts | grep -q '^tmp-evil--[0-9a-f]*\.html$' &&
    ! ls box/site/conflicts | grep -iq '^prn\.'"
python3 "$linkcheck" box/site > links.log 2>&1
lc=$?
expect "markers and member links still resolve" sh -c "test $lc = 0 || { sed 's/^/#   /' links.log; exit 1; }"
expect "the traversal project's disputed fact links its conflict page" sh -c "
    grep -q 'class=\"disputed\" href=\"../../conflicts/tmp-evil--' box/site/projects/etc--*/index.html"
# templates/README.md, fact items: conflict_page is where the fact's open
# conflict is shown, from the site's root; a user template that spells
# the path from the conflict's slug, as the built-in ones did, still
# makes the same pages.
mkdir utpl
printf '{{#each state_groups}}{{#each items}}{{#if conflict}}[d](../../{{conflict_page}}.md)\n{{/if}}{{/each}}{{/each}}' > utpl/project.md
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "a template links a fact's conflict by conflict_page" sh -c "
    test $RC = 0 && grep -qx '\\[d\\](../../conflicts/tmp-evil--[0-9a-f]*\\.md)' usite/projects/etc--*/index.md &&
    test -f \"usite/\$(sed -n 's|^\\[d\\](../../\\(.*\\)\\.md)\$|\\1|p' usite/projects/etc--*/index.md).md\""
sed 's#{{conflict_page}}#conflicts/{{conflict|slug}}#g' "$MIRROR_TOP/templates/project.md" > utpl/project.md
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "a template that spells conflicts/{{conflict|slug}} makes the same pages" sh -c "
    test $RC = 0 && for f in box/site/projects/*/index.md box/site/projects/*/index.html; do
        cmp -s \"\$f\" \"usite/\${f#box/site/}\" || exit 1; done"
# templates/README.md: a conflict member's, a check's fact's and an A to Z
# fact's "page" is where the fact is shown, from the site's root.
rm utpl/project.md
printf '{{#each conflict.members}}{{#if linked}}[m](../{{page}}.md#{{anchor|id}})\n{{/if}}{{/each}}' > utpl/conflict.md
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "a template links a conflict member's fact by page" sh -c "
    test $RC = 0 && grep -qx '\\[m\\](../projects/etc--[0-9a-f]*/index\\.md#state-s1--[0-9a-f]*)' usite/conflicts/tmp-evil--*.md"
# templates/README.md: a project's "disputed" conflicts have their page too.
printf '{{#each disputed}}[c](../../{{page}}.md)\n{{/each}}' > utpl/project.md
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "a template links a project's open conflict by page" sh -c "
    test $RC = 0 && grep -qx '\\[c\\](../../conflicts/tmp-evil--[0-9a-f]*\\.md)' usite/projects/etc--*/index.md"
rm utpl/project.md
# templates/README.md: the index's worst projects have their overview's page.
printf '{{#each worst}}[w]({{page}}.md)\n{{/each}}' > utpl/index.md
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "a template links a worst project's overview by page" sh -c "
    test $RC = 0 && grep -qx '\\[w\\](projects/etc--[0-9a-f]*/index\\.md)' usite/index.md &&
    test -f \"usite/\$(sed -n 's|^\\[w\\](\\(projects/etc--.*\\))\$|\\1|p' usite/index.md)\""
rm utpl/index.md
old_fact='{{#if on_index}}\1index.md{{else}}\1projects/{{project_slug|url}}/index.md{{/if}}#'
for t in conflict check atoz_letter; do
    sed "s,(\(\(\.\./\)*\){{page}}\.md#,(${old_fact},g" "$MIRROR_TOP/templates/$t.md" > utpl/$t.md
done
mirror build --store p.db --out usite --no-sweep --templates utpl
expect "templates that spell a fact's page from project_slug and on_index make the same pages" sh -c "
    test $RC = 0 && ! cmp -s utpl/check.md '$MIRROR_TOP/templates/check.md' &&
    for f in box/site/conflicts/*.* box/site/keys/*; do
        cmp -s \"\$f\" \"usite/\${f#box/site/}\" || exit 1; done"

# --- all-or-nothing -----------------------------------------------------------
new_store s.db "$data/site.sql" || exit 1
mirror build --store s.db --out site --no-sweep
expect_status "a first build" 0
before=$(fingerprint site)
mkdir tpl
printf '# {{project.name}}\n\nline two\n{{project.nope}}\n' > tpl/project.md
mirror build --store s.db --out site --no-sweep --templates tpl
expect_error "an unknown placeholder names template, line and name" 2 'project.md:4: .*project.nope'
expect "the failed build leaves the site byte-identical" test "$before" = "$(fingerprint site)"
expect "and leaves no staging directory behind" sh -c "! ls -a | grep -q mirror-stage"
cp s.db swept.db
mirror build --store swept.db --out site --templates tpl
expect_error "with the sweep, too, the unknown placeholder fails the build" 2 'project.md:4: .*project.nope'
expect "before the sweep wrote anything to the store" \
    test "$(sql swept.db 'SELECT count(*) FROM sweep_runs')" = 0
expect "and the site is still byte-identical" test "$before" = "$(fingerprint site)"
printf '{{#each x}}\n' > tpl/project.md
mirror build --store s.db --out site --templates tpl
expect_error "a template that does not parse is bad input" 2 'project.md'
expect "a template that does not parse stops before the sweep writes" \
    test "$(sql s.db 'SELECT count(*) FROM sweep_runs')" = 0
printf '# {{site_title}} overridden\n' > tpl/project.md
mirror build --store s.db --out site --templates tpl
expect "--templates overrides one template, the others come from the default" sh -c "
    test $RC = 0 && grep -q '^# Human Mirror overridden' site/projects/p06-polisher/index.md &&
    grep -q '^# lateral support material: ' site/conflicts/c-5e1a.md"
mirror build --store s.db --out site --no-sweep
before=$(fingerprint site)
cp s.db bad.db
sql bad.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES('e-bad', 'component', 'x', 'p05', 'not json')"
mirror build --store bad.db --out site --no-sweep
expect_error "a bad row fails the build" 2 "entities row 'e-bad': properties is not valid JSON"
expect "and leaves the site byte-identical" test "$before" = "$(fingerprint site)"
# A store whose owner declared no NOT NULL constraints.
sqlite3 null.db "CREATE TABLE projects(id TEXT PRIMARY KEY, name TEXT, aliases TEXT, description TEXT);
CREATE TABLE project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at);
CREATE TABLE entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at);
CREATE TABLE relationships(id, source_entity_id, target_entity_id, relationship_type, confidence, created_at);
CREATE TABLE memories(id, memory_type, content, project, confidence, status, created_at, updated_at);
INSERT INTO project_state VALUES('s-null', 'p', 'fact', 'k', NULL, '', 1, 'active', '', '');"
mirror build --store null.db --out site --no-sweep
expect_error "a NULL in a required column names table, row and column" 2 "project_state row 's-null': value is NULL"
expect "and leaves the site byte-identical too" test "$before" = "$(fingerprint site)"
mkdir notmine && echo keep > notmine/file
mirror build --store s.db --out notmine --no-sweep
expect_error "a non-empty directory mirror did not write is refused" 2 'notmine'
expect "and left alone" test "$(cat notmine/file)" = keep
cp site/index.html default-theme.html
cp site/index.md default-theme.md
mirror build --store s.db --out site --no-sweep --theme plain
expect "--theme plain renders the same pages with another layout" sh -c "
    test $RC = 0 && test -f site/projects/p05-interferometer/index.html &&
    ! cmp -s site/index.html default-theme.html &&
    cmp -s site/index.md default-theme.md"
# Every URL of the site is made in gen/site/items.c (doc/architecture.md,
# "Where URLs are made"); a template links the fields it is given
# ({{page}}, {{conflict_page}}, {{overview_page}}, {{checks_page}},
# {{json}}, an end's or a change's {{link}}) and spells no path made of a field: no
# folder of the site before a placeholder, no placeholder before a '/'.
# None is left to move; a new one fails here.
expect "no template spells a site path around a field by hand" sh -c "
    grep -oE '\]\([^)]*((projects|conflicts|checks|api|keys|search|rules)/[^)]*\{\{|\}\}/)[^)]*\)' \
        \"\$MIRROR_TOP\"/templates/*.md | sed 's|^.*/templates/||' |
    grep -v '^README.md:' | { ! grep .; }"
