#!/bin/sh
# mirror build: the site of SPEC section 5 from tests/data/site.sql, which
# records conflicts as a sweep would (one open cross-layer conflict on the
# SPEC 8 example, one resolved), so these cases hold with --no-sweep.
# Pages, twins, markers, JSON, feed, sitemap, determinism, links, --check.
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
linkcheck="$MIRROR_TOP/tests/tools/linkcheck.py"
export SOURCE_DATE_EPOCH=1700000000

new_store s.db "$data/site.sql" || exit 1
p05=site/projects/p05-interferometer

# --- usage ----------------------------------------------------------------
mirror build --store s.db
expect_error "build without --out is a usage error" 1 'out DIR is required'
mirror build --out site
expect_error "build without --store is a usage error" 1 'store PATH is required'
mirror build --store s.db --out site extra
expect_error "build rejects positionals" 1 "unexpected argument 'extra'"
expect "usage errors write no site" test ! -e site

# --- a build ----------------------------------------------------------------
mirror build --store s.db --out site --no-sweep
expect_status "build succeeds" 0
expect "build prints one summary line with pages and open conflicts" \
    sh -c "test \$(wc -l < '$T/out') = 1 && grep -Eq '^built site: [0-9]+ pages, .*1 open conflicts; store snapshot [0-9a-f]{16}$' '$T/out'"
for page in index projects/p05-interferometer/index \
    projects/p05-interferometer/decisions \
    projects/p05-interferometer/subsystems/e2 \
    projects/p06-polisher/index conflicts/index conflicts/c-5e1a \
    conflicts/c-77b0 404; do
	expect "page $page exists as .md and .html" \
	    test -s "site/$page.md" -a -s "site/$page.html"
done
expect "every .md page has its .html twin and back" sh -c '
    cd site && for f in $(find . -name "*.md"); do
        test -f "${f%.md}.html" || exit 1; done &&
    for f in $(find . -name "*.html"); do
        test -f "${f%.html}.md" || exit 1; done'
for f in .nojekyll feed.xml sitemap.xml api/health.json api/conflicts.json \
    api/conflicts/c-5e1a.json api/projects/p05-interferometer.json; do
	expect "$f is written" test -f "site/$f"
done
expect "every page's footer names the snapshot of what it read" sh -c "
    cd site && for f in \$(find . -name '*.md' -o -name '*.html'); do
        grep -Eq 'store snapshot [0-9a-f]{16}' \"\$f\" || { echo \$f; exit 1; }; done"
expect "the twins of a page name the same snapshot" sh -c "
    a=\$(grep -Eo 'store snapshot [0-9a-f]{16}' site/index.md)
    b=\$(grep -Eo 'store snapshot [0-9a-f]{16}' site/index.html)
    test -n \"\$a\" && test \"\$a\" = \"\$b\""
expect "api/health.json names the whole store's checksum" sh -c "
    snap=\$(sed -n 's/.*store snapshot \\([0-9a-f]*\\)\$/\\1/p' '$T/out')
    test -n \"\$snap\" && jq -e --arg s \"\$snap\" '.snapshot == \$s' site/api/health.json >/dev/null"

# --- the overview, in SPEC order --------------------------------------------
expect "the overview has every section in SPEC order" sh -c "
    grep -n '^## ' $p05/index.md | cut -d: -f2- | tr '\n' '|' |
    grep -q '^## Trusted project state|## System architecture|## Decisions|## Requirements and constraints|## Materials|## Parameters, results and validation claims|## Vendors|## Active memories|## Gaps|'"
expect "trusted state is grouped by category, decision before fact" sh -c "
    grep -n '^### ' $p05/index.md | cut -d: -f2- | tr '\n' '|' |
    grep -q '^### decision|### fact|\$'"
expect "aliases are listed in the header" grep -q 'Aliases: interferometer, p05' $p05/index.md
expect "rows under an alias belong to the canonical project" \
    grep -q '<a id="entity-e1"></a>' $p05/index.md
expect "gaps: a component with no material" \
    grep -q 'Edge clamp.*component with no material' $p05/index.md
expect "gaps: a requirement nothing satisfies" \
    grep -q 'Mass cap.*requirement nothing satisfies' $p05/index.md
expect "gaps: a validation claim nothing supports" \
    grep -q 'Pad stiffness ok.*validation claim nothing supports' $p05/index.md
expect "a component shows its material" \
    grep -q 'Support pad.*material: PEEK' $p05/index.md
expect "an expired memory is not active" sh -c \
    "grep -A100 '^## Not active' site/projects/p06-polisher/index.md | grep -q 'memory-m3.*expired'"
expect "candidates are listed as not active" sh -c \
    "grep -A100 '^## Not active' $p05/index.md | grep -q 'entity-e9.*candidate'"

# --- markers (SPEC 8, cross-layer example) ------------------------------------
md_marker='\[⚠ disputed\]\(\.\./\.\./conflicts/c-5e1a\.md\)'
html_marker='<a class="disputed" href="\.\./\.\./conflicts/c-5e1a\.html" aria-label="[^"]*c-5e1a[^"]*">⚠ disputed</a>'
expect "the state fact's .md item carries the marker" \
    grep -Eq "^- <a id=\"state-s1\"></a>.*$md_marker" $p05/index.md
expect "the entity fact's .md item carries the marker" \
    grep -Eq "^- <a id=\"entity-e1\"></a>.*$md_marker" $p05/index.md
expect "the state fact's HTML element holds a.disputed" \
    grep -Eq "<li id=\"state-s1\">[^<]*(<[^l/][^>]*>[^<]*)*.*$html_marker.*</li>" $p05/index.html
expect "the entity fact's HTML element holds a.disputed" \
    grep -Eq "<li id=\"entity-e1\">.*$html_marker.*</li>" $p05/index.html
expect "exactly two markers on the overview (no other fact is disputed)" \
    test "$(grep -c 'class="disputed"' $p05/index.html)" = 2
expect "the conflict page lists both members, trust order first" sh -c "
    grep -n 'id=\"member-' site/conflicts/c-5e1a.html | cut -d'\"' -f2 | tr '\n' ' ' |
    grep -qx 'member-state-s1 member-entity-e1 '"
expect "the conflict page links each member to its fact" sh -c "
    grep -q 'href=\"../projects/p05-interferometer/index.html#state-s1\"' site/conflicts/c-5e1a.html &&
    grep -q 'href=\"../projects/p05-interferometer/index.html#entity-e1\"' site/conflicts/c-5e1a.html"
expect "the conflict page asks the yes/no question" \
    grep -q 'Is the lateral support material of p05-interferometer GF-PTFE?' site/conflicts/c-5e1a.html
expect "the conflict page gives the exact resolve and dismiss commands" sh -c "
    grep -q \"mirror conflicts resolve c-5e1a --notes 'WHY' --winner s1\" site/conflicts/c-5e1a.html &&
    grep -q \"mirror conflicts dismiss c-5e1a --reason 'WHY'\" site/conflicts/c-5e1a.html"
expect "a closed conflict's members carry no marker" sh -c "
    grep -q 'id=\"memory-m1\"' site/index.html && ! grep -q 'disputed' site/index.html"
expect "the closed conflict's page shows its resolution" \
    grep -q 'both are fine' site/conflicts/c-77b0.html
expect "the queue lists open before resolved" sh -c "
    grep -o 'c-5e1a.html\|c-77b0.html' site/conflicts/index.html | tr '\n' ' ' |
    grep -q '^c-5e1a.html c-77b0.html'"
expect "the decision log marks the reversal silver, aluminium, Silver" sh -c "
    grep -A4 '^## coating' $p05/decisions.md | grep -q 'state-s5.*reversal' &&
    ! grep -q 'state-s3.*reversal' $p05/decisions.md"
expect "the decision log keeps superseded values, newest first" sh -c "
    grep -o 'state-s[345]' $p05/decisions.md | tr '\n' ' ' | grep -q '^state-s5 state-s4 state-s3'"
expect "the subsystem page lists components, materials, requirements, decisions" sh -c "
    f=$p05/subsystems/e2.md
    grep -A3 '^## Components' \$f | grep -q entity-e3 &&
    grep -A3 '^## Components' \$f | grep -q entity-e5 &&
    grep -A3 '^## Materials' \$f | grep -q entity-e4 &&
    grep -A3 '^## Requirements' \$f | grep -q entity-e6 &&
    grep -A3 '^## Decisions' \$f | grep -q entity-e1"

# --- JSON, feed, sitemap --------------------------------------------------------
expect "api/health.json has open_conflicts_count" \
    jq -e '.open_conflicts_count == 1' site/api/health.json
expect "api/conflicts.json lists both conflicts, open first" \
    jq -e '.open_conflicts_count == 1 and ([.conflicts[].id] == ["c-5e1a","c-77b0"])' site/api/conflicts.json
expect "api/conflicts/<id>.json has the members in trust order" \
    jq -e '[.members[].id] == ["s1","e1"] and .members[1].conflicts_with == "s1"' site/api/conflicts/c-5e1a.json
expect "api/projects/<slug>.json is the overview's data" \
    jq -e '.project.id == "p05-interferometer" and (.state_groups[0].items | length) == 2' site/api/projects/p05-interferometer.json
expect "feed.xml is well-formed Atom with a time from the data" python3 -c "
import xml.etree.ElementTree as E
r = E.parse('site/feed.xml').getroot()
a = '{http://www.w3.org/2005/Atom}'
assert r.tag == a + 'feed'
assert r.find(a + 'updated').text == '2024-03-02T12:00:00Z'
assert len(r.findall(a + 'entry')) == 2"
expect "sitemap.xml lists pages with relative URLs" sh -c "
    grep -q '<loc>projects/p05-interferometer/index.html</loc>' site/sitemap.xml &&
    ! grep -q '404.html' site/sitemap.xml"
expect "every relative link and fragment resolves" python3 "$linkcheck" site
expect "markers: right facts, right conflicts, same in both twins" \
    python3 "$MIRROR_TOP/tests/tools/markers.py" site

# --- determinism --------------------------------------------------------------------
mirror build --store s.db --out again --no-sweep
expect "a second build is byte-identical (diff -r)" diff -r site again
MIRROR_JOBS=1 mirror build --store s.db --out serial --no-sweep
MIRROR_JOBS=7 mirror build --store s.db --out seven --no-sweep
expect "one worker or seven: byte-identical sites (diff -r)" sh -c "
    diff -r site serial && diff -r site seven"
rm -rf serial seven
SOURCE_DATE_EPOCH=1700000600 mirror build --store s.db --out later --no-sweep
expect "no page depends on the clock (nothing expired in between)" diff -r site later
inodes() { find "$1" -type f -printf '%i %T@ %p\n' | sort; }
inodes site > before.txt
mirror build --store s.db --out site --no-sweep
expect "rebuilding into the same directory rewrites nothing" \
    grep -q ', 0 files written' "$T/out"

# --- an unchanged build renders nothing (api/build.json) ----------------------
expect "an unchanged store, templates and options render nothing" \
    out_has '^built site: [0-9]+ pages, 0 files written, [0-9]+ reused; 1 open conflicts; store snapshot [0-9a-f]{16} \(unchanged: nothing rendered\)$'
inodes site > after.txt
expect "and leave every file of DIR as it was (inode, mtime)" cmp before.txt after.txt
expect "api/build.json names the snapshot, the inputs and the counts" sh -c "
    jq -e --arg s \"\$(jq -r .snapshot site/api/health.json)\" \
      '.store_snapshot == \$s and (.inputs | test(\"^[0-9a-f]{16}\$\")) and
       .open_conflicts == 1 and .pages == $(find site -name '*.md' | wc -l) and
       .files == $(find site -type f ! -name .mirror-output | wc -l)' \
      site/api/build.json >/dev/null"
mirror build --store s.db --out site --no-sweep --force
expect "--force renders anyway (and reuses every identical file)" sh -c "
    test $RC = 0 && grep -q ', 0 files written' '$T/out' &&
    ! grep -q unchanged '$T/out'"
mirror build --store s.db --out site --no-sweep --title 'Another title'
expect "another --title renders again" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' &&
    grep -q '^# Another title' site/index.md"
mkdir tpl && cp "$MIRROR_TOP/templates/index.md" tpl/
mirror build --store s.db --out site --no-sweep --templates tpl
mirror build --store s.db --out site --no-sweep --templates tpl
expect "the same user templates twice: the second renders nothing" \
    out_has 'unchanged: nothing rendered'
printf '\nA line of our own.\n' >> tpl/index.md
mirror build --store s.db --out site --no-sweep --templates tpl
expect "an edited template renders again" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' &&
    grep -q 'A line of our own' site/index.md"
mkdir -p elsewhere/deeper && cp -r tpl elsewhere/deeper/tpl
mirror build --store s.db --out site2 --no-sweep --templates elsewhere/deeper/tpl
expect "the same templates in another place stamp the same site (diff -r)" \
    diff -r site site2
rm -rf elsewhere site2
sqlite3 s.db "UPDATE project_state SET value = value || ' (edited)' WHERE rowid = (SELECT min(rowid) FROM project_state)"
mirror build --store s.db --out site --no-sweep --templates tpl
expect "a changed fact renders again" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' && grep -q '(edited)' -r site"
sqlite3 s.db "UPDATE project_state SET value = replace(value, ' (edited)', '') WHERE rowid = (SELECT min(rowid) FROM project_state)"
rm -r tpl before.txt after.txt

# --- options ---------------------------------------------------------------------------
mirror build --store s.db --out titled --no-sweep --quiet --title 'Optics <Mirror>' \
    --base-url 'https://example.org/m/'
expect "--quiet prints nothing" test ! -s "$T/out"
expect "--title names the site, escaped" sh -c "
    grep -q '^# Optics \\\\<Mirror>' titled/index.md &&
    grep -q 'Optics &lt;Mirror&gt;' titled/index.html"
expect "--base-url makes sitemap URLs absolute" \
    grep -q '<loc>https://example.org/m/projects/p05-interferometer/index.html</loc>' titled/sitemap.xml
expect "--base-url keeps page links relative" python3 "$linkcheck" titled
mirror build --store s.db --out checked --no-sweep --check
expect_error "--check exits 4 with open conflicts" 4 '1 open conflicts'
expect "--check still writes the site" test -f checked/index.html
mirror build --store s.db --out themed --no-sweep --theme no-such-theme
expect_error "an unknown theme is bad input" 2 'no-such-theme'
expect "a failed build leaves no directory" test ! -e themed

# --- the config file: one line for CI ---------------------------------------------
printf 'store = s.db\nout = fromini\ntitle = From the ini\nbase_url = https://ci.example/site\ntheme = plain\n' > mirror.ini
mirror build --no-sweep --quiet
expect "mirror.ini gives store, out, title, base URL and theme" sh -c "
    test $RC = 0 && grep -q '^# From the ini' fromini/index.md &&
    grep -q '<loc>https://ci.example/site/index.html</loc>' fromini/sitemap.xml &&
    ! test -d fromini/assets"
mirror build --no-sweep --quiet --title 'Command line wins'
expect "the command line wins over mirror.ini" grep -q '^# Command line wins' fromini/index.md
rm mirror.ini

# --- with the sweep, on the example ---------------------------------------------
# The example's expected results assume a clock after 2026-06-30.
export SOURCE_DATE_EPOCH=1793491200
new_store ex1.db "$MIRROR_TOP/site-example/example.sql" || exit 1
cp ex1.db ex2.db
mirror build --store ex1.db --out ex1
expect "the build sweeps first: the example's 14 conflicts are open" sh -c "
    test $RC = 0 && grep -q '; 14 open conflicts;' '$T/out' &&
    jq -e '.open_conflicts_count == 14' ex1/api/health.json >/dev/null"
expect "the sweep is recorded in the store" \
    test "$(sql ex1.db 'SELECT count(*) FROM sweep_runs')" = 1
mirror build --store ex1.db --out ex1
expect "a second build of an unchanged store neither sweeps nor writes" sh -c "
    test $RC = 0 && grep -q ', 0 files written' '$T/out' &&
    grep -q '(unchanged: no sweep, nothing rendered)\$' '$T/out' &&
    test \"\$(sqlite3 ex1.db 'SELECT count(*) FROM sweep_runs')\" = 1"
mirror build --store ex1.db --out ex1 --force
expect "--force sweeps (and records it) and renders" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' &&
    test \"\$(sqlite3 ex1.db 'SELECT count(*) FROM sweep_runs')\" = 2"
sql ex1.db "INSERT INTO memories(id, memory_type, content, project)
    VALUES ('m-late', 'knowledge', 'a late note', 'p05-interferometer')"
mirror build --store ex1.db --out ex1
expect "a changed store sweeps again" sh -c "
    test $RC = 0 && ! grep -q unchanged '$T/out' &&
    test \"\$(sqlite3 ex1.db 'SELECT count(*) FROM sweep_runs')\" = 3"
sql ex1.db "DELETE FROM memories WHERE id = 'm-late'"
mirror build --store ex1.db --out ex1 --quiet
mirror build --store ex2.db --out ex2
expect "two copies of a store give byte-identical sites (diff -r)" diff -r ex1 ex2
expect "the example site's links all resolve" python3 "$linkcheck" ex1
expect "the SPEC 8 pair is disputed on the p05 overview" sh -c "
    grep -q '<li id=\"state-p05-st-lateral-support-material\">.*class=\"disputed\"' ex1/projects/p05-interferometer/index.html &&
    grep -q '<li id=\"entity-p05-dec-lateral-material-peek\">.*class=\"disputed\"' ex1/projects/p05-interferometer/index.html"
before=$(fingerprint ex2.db)
mirror build --store ex2.db --out ex2 --no-sweep
expect "--no-sweep leaves the store byte-identical" sh -c "
    test $RC = 0 && test '$before' = \"\$(cd '$T' && sha256sum < ex2.db)\""
expect "the example's decision log marks SFP, SFP+, SFP as a reversal" sh -c "
    f=ex1/projects/p04-gigabit/decisions.md
    grep -q 'entity-p04-dec-formfactor-sfp-2.*reversal' \$f &&
    ! grep -q 'entity-p04-dec-formfactor-sfp-1.*reversal' \$f &&
    ! grep -q 'entity-p04-dec-formfactor-sfpplus.*reversal' \$f &&
    grep -q '^## transceiver form factor' \$f"
expect "superseded then active (SPEC 8): the log shows both, newest first" sh -c "
    grep -A5 '^## phase shifter actuator' ex1/projects/p05-interferometer/decisions.md |
    grep -o 'piezo stack\|stepper micrometer' | uniq | head -2 | tr '\n' ' ' |
    grep -qx 'piezo stack stepper micrometer '"
expect "the example's gaps are the ones site-example/README.md lists" sh -c "
    for p in p04-gigabit p05-interferometer p06-polisher; do
        sed -n '/^## Gaps/,/^## /p' ex1/projects/\$p/index.md | grep -o '(#entity-[a-z0-9-]*)'
    done | tr -d '()#' | tr '\n' ' ' | grep -qx 'entity-p04-cmp-core-reg entity-p04-cmp-fpga entity-p04-cmp-ref-osc entity-p04-cmp-sfp-module entity-p04-req-emc entity-p04-vc-emc entity-p05-cmp-camera entity-p05-cmp-laser entity-p05-cmp-lateral entity-p05-req-vibration entity-p05-vc-accuracy entity-p06-cmp-linear-axis entity-p06-cmp-controller entity-p06-cmp-spindle-motor entity-p06-req-noise entity-p06-vc-uniformity '"
expect "every marker sits in a member of its open conflict, in both twins, and every member has one" \
    python3 "$MIRROR_TOP/tests/tools/markers.py" ex1
