#!/bin/sh
# t_pages_record.sh: a build renders only the pages whose inputs changed.
#
# Each page's inputs (its data, template, title and the site-wide inputs)
# are digested into the record, api/pages/*.tsv; the next build renders a page again
# only when its digest changed or a file of it is missing, and the result
# is always the site a --force build writes. (tests/e2e/t_incremental.sh
# checks that on hundreds of random edits; this script checks each rule.)
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store s.db "$MIRROR_TOP/site-example/example.sql" || exit 1

# sums DIR: "sha256  path" of every file under DIR, sorted.
sums() { (cd "$1" && find . -type f ! -name .mirror-output | LC_ALL=C sort |
    xargs sha256sum); }

# same_as_force_of STORE DIR [OPTION...]: DIR holds exactly what a
# --force build of STORE writes into a fresh directory holding only DIR's
# publication a build reads (published, lib.sh) (with OPTIONs, as
# DIR's last build had them); that build does not sweep (the store is
# swept), so its stamp alone may say "swept": false.
same_as_force_of() {
	_db=$1 _dir=$2
	shift 2
	published "$_dir" "$T/full" || return 1
	"$MIRROR" build --store "$_db" --out "$T/full" --no-sweep --force \
	    --quiet "$@" >/dev/null 2>&1 &&
	    [ "$(sums "$_dir" | grep -v ' ./api/build.json$')" = \
	    "$(sums "$T/full" | grep -v ' ./api/build.json$')" ] &&
	    [ "$(jq -S 'del(.swept)' "$_dir/api/build.json")" = \
	    "$(jq -S 'del(.swept)' "$T/full/api/build.json")" ]
}

# same_as_force [OPTION...]: the same for s.db and site.
same_as_force() { same_as_force_of s.db site "$@"; }

# rec: the lines of site's record, its parts one after the other.
rec() { cat site/api/pages/*.tsv; }

mirror build --store s.db --out site --quiet
expect "the first build succeeds" test "$RC" = 0

# Every page (its .md twin; an HTML-only page, an A-Z page, a project's
# decision log or subsystems page or the projects by open conflicts, its
# .html) and every JSON file but the stamp, once.
units=$(cd site && { find . -name '*.md' -o -path './keys/*.html' \
    -o -path './projects/*/decisions.html' -o -path './projects/*/subsystems.html' \
    -o -path './projects/index.conflicts*.html'
    find api -name '*.json' ! -name build.json; } | wc -l)
lines=$(rec | grep -v '^#' | grep -vc '/$')
expect "the record lists every page and JSON file once ($lines of $units)" \
    test "$lines" = "$units" -a "$(rec | cut -f2 | sort | uniq -d |
    wc -l)" = 0 -a "$(head -qn1 site/api/pages/*.tsv | cut -c1-22 |
    sort -u)" = '# mirror page inputs 2'
# ... and a line per project folder (its rows' digest), one for the rows
# of no project ("projects/x--cbf29ce4/", the slug of ""), one for the
# rows of none ("projects/"), one for the A-Z pages ("keys/": what they
# show, the store's keys and names), and one each for the conflicts and
# the checks (what their pages show: every conflict, every violation).
folders=$(cd site && ls -d projects/*/ | sed 's,$,,' | LC_ALL=C sort)
expect "the record has a line for each project's folder, the rows of none, A-Z, conflicts, checks" \
    test "$(rec | grep '/$' | cut -f2 | LC_ALL=C sort |
    tr '\n' ' ')" = "$(printf '%s\n' checks/ conflicts/ keys/ projects/ \
    $folders projects/x--cbf29ce4/ | LC_ALL=C sort | tr '\n' ' ')"

# One fact changes: only the files that show it (and the record, the
# stamp and health, which name the store's snapshot) are written.
sums site >before
sql s.db "UPDATE project_state SET value = 'bring-up, round 2'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --json
sums site >after
changed=$(diff before after | sed -n 's/^> [0-9a-f]*  \.\///p' |
    grep -v '^api/pages/' | sort | tr '\n' ' ')
parts=$(diff before after | grep -c '^> [0-9a-f]*  \./api/pages/')
chunks=$(echo "$changed" | tr ' ' '\n' | grep -c '^search/d-')
shards=$(echo "$changed" | tr ' ' '\n' | grep -c '^search/t-')
# The value shows on its project's overview, on its A-Z letter's page,
# in its search record's chunk and in the term shards of its words
# (two words gone, three new: 1 to 5 shards; here 2); and, changed by an
# UPDATE with no audit row, in the recent changes (changes.*, the index's
# newest, api/changes-unaudited.json: doc/site.md, "Recent changes").
expect "a one-fact change writes only what shows it: $changed" test \
    "$(echo "$changed" | tr ' ' '\n' | grep -v '^search/' | tr '\n' ' ')" = \
    "api/build.json api/changes-unaudited.json api/health.json \
api/projects/p04-gigabit.json changes.html changes.md changes.xml \
index.html index.md keys/p.html \
projects/p04-gigabit/index.html projects/p04-gigabit/index.md  " \
    -a "$chunks" = 1 -a "$shards" -ge 1 -a "$shards" -le 5 -a "$parts" = 1
expect "the build says so: $((14 + shards)) files written (one of them a part of the record)" \
    test "$(jq .files.written "$T/out")" = $((14 + shards))
expect "the incremental site is the --force build's" same_as_force

# A site an older build left with Markdown twins of a project's decision
# log and subsystems page: a build that keeps the project's folder whole
# (its rows unchanged) keeps their .html alone, and the .md go, as no
# file of the new site.
p05=site/projects/p05-interferometer
for f in decisions subsystems; do echo old >"$p05/$f.md"; done
touch stamp
sql s.db "UPDATE project_state SET value = 'bring-up, round 2b'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "a kept project's folder loses the .md of its HTML-only pages" test \
    "$RC" = 0 -a ! -e "$p05/decisions.md" -a ! -e "$p05/subsystems.md" -a \
    -s "$p05/decisions.html" -a -s "$p05/subsystems.html" -a \
    "$(find "$p05" -type f -newer stamp | wc -l)" = 0

# A key renamed: the A-Z pages are built again (the index and the letter
# pages that show it), with the project's.
sql s.db "UPDATE project_state SET key = 'phase_now' WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --json
expect "a renamed key writes the A-Z pages again" test "$RC" = 0 -a \
    "$(grep -c 'phase_now' site/keys/p.html)" -ge 1
sql s.db "UPDATE project_state SET key = 'phase' WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet

# A file of an unchanged page that went missing is written again.
rm site/projects/p05-interferometer/index.html
sql s.db "UPDATE project_state SET value = 'bring-up, round 3'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "a missing file of an unchanged page is rendered again" \
    test -f site/projects/p05-interferometer/index.html
expect "... and the site is the --force build's" same_as_force

# A page whose inputs did not change is not rendered: a hand edit stays
# until its inputs change, and --force renders every page.
echo 'edited by hand' >>site/projects/p05-interferometer/index.md
sql s.db "UPDATE project_state SET value = 'bring-up, round 4'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "an unchanged page is kept, not rendered" grep -q 'edited by hand' \
    site/projects/p05-interferometer/index.md
mirror build --store s.db --out site --quiet --force
expect "--force renders every page again" same_as_force

# Two levels: a project whose folder line (the digest of its rows) is
# unchanged keeps every page without reading its facts, whatever its
# pages' lines say; one whose folder line differs is read, and each of
# its pages is rendered when its own line differs.
sed -i 's/^[0-9a-f]\{8\}\(.*\tprojects\/p06-polisher\/index\)$/00000000\1/' \
    site/api/pages/*.tsv
echo 'edited by hand' >>site/projects/p06-polisher/index.md
echo 'edited by hand' >>site/projects/p06-polisher/decisions.html
sql s.db "UPDATE project_state SET value = 'bring-up, round 4b'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "an unchanged project keeps its pages whole (its page lines unread)" \
    test "$RC" = 0 -a "$(grep -c 'edited by hand' \
    site/projects/p06-polisher/index.md)" = 1
sed -i 's/^[0-9a-f]\{8\}\(.*\tprojects\/p06-polisher\/index\)$/00000000\1/
    s/^[0-9a-f]\{8\}\(.*\tprojects\/p06-polisher\/\)$/00000000\1/' \
    site/api/pages/*.tsv
sql s.db "UPDATE project_state SET value = 'bring-up, round 4c'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "a project whose folder line differs renders the pages whose line does" \
    test "$RC" = 0 -a "$(grep -c 'edited by hand' \
    site/projects/p06-polisher/index.md)" = 0
expect "... and keeps the others" \
    grep -q 'edited by hand' site/projects/p06-polisher/decisions.html
mirror build --store s.db --out site --quiet --force
expect "... and --force renders every page again" same_as_force

# Whole families: the conflicts and the checks show every conflict and
# every violation of the store. When what they show is what it was (the
# lines "conflicts/" and "checks/"), their files stay and none of their
# pages is rendered, whatever the pages' own lines say; when it changed,
# each page is rendered when its own line differs.
spoil() {    # spoil PATH...: hand-edit each page, spoil its record line
	for _p in "$@"; do
		echo 'edited by hand' >>"site/$_p.md"
		sed -i "s|^[0-9a-f]\{8\}\(.*\t$_p\)\$|00000000\1|" \
		    site/api/pages/*.tsv
	done
}
edited() { cat "$@" | grep -c 'edited by hand'; }
spoil conflicts/index checks/index checks/projects/p06-polisher
sql s.db "UPDATE project_state SET value = 'bring-up, round 4d'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --json
expect "a change no conflict or check shows keeps both families whole" \
    test "$RC" = 0 -a "$(edited site/conflicts/index.md site/checks/index.md \
    site/checks/projects/p06-polisher.md)" = 3 -a "$(jq .files.written \
    "$T/out")" = 13
# A check's fact renamed: the checks are built again, the pages whose
# line differs among them; the conflicts stay.
sql s.db "UPDATE entities SET name = 'Reference oscillator, renamed'
    WHERE id = 'p04-cmp-ref-osc'"
mirror build --store s.db --out site --quiet
expect "a check's fact renamed renders the checks whose line differs" \
    test "$RC" = 0 -a "$(grep -c 'Reference oscillator, renamed' \
    site/checks/projects/p04-gigabit.md)" -ge 1 -a "$(edited \
    site/checks/index.md site/checks/projects/p06-polisher.md)" = 0
expect "... and keeps the conflicts whole" \
    test "$(edited site/conflicts/index.md)" = 1
# A conflict's member changed: the conflicts are built again.
sql s.db "UPDATE project_state SET value = 'a value of its own'
    WHERE id = 'p04-st-fpga'"
mirror build --store s.db --out site --quiet
expect "a conflict's member changed renders the conflicts whose line differs" \
    test "$RC" = 0 -a "$(grep -c 'a value of its own' \
    site/conflicts/c4dcd35f8cb.md)" -ge 1 -a "$(edited \
    site/conflicts/index.md)" = 0
# A file of a kept family that went missing: the family is rendered.
rm site/checks/projects/p06-polisher.html site/conflicts/c0e5999fa2c.md
sql s.db "UPDATE project_state SET value = 'bring-up, round 4e'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet
expect "a missing file of a kept family is written again" test "$RC" = 0 \
    -a -f site/checks/projects/p06-polisher.html -a \
    -f site/conflicts/c0e5999fa2c.md
expect "... and the site is the --force build's" same_as_force

# A template change renders every page made with it.
cp -R "$MIRROR_TOP/templates" tpl
printf '\nReviewed weekly.\n' >>tpl/project.md
mirror build --store s.db --out site --quiet --templates tpl
n=$(grep -l 'Reviewed weekly' site/projects/*/index.md | wc -l)
expect "a template change renders every page made with it ($n projects)" \
    test "$n" = "$(ls -d site/projects/*/ | wc -l)" -a "$n" -gt 1
expect "... and the site is the --force build's" same_as_force \
    --templates tpl

# A damaged record is not trusted: every page is rendered (a part of it
# damaged drops it whole).
for f in site/api/pages/*.tsv; do
	printf '# mirror page inputs 2: x\nnot a digest\n' >"$f"
	break
done
echo 'edited by hand' >>site/projects/p05-interferometer/index.md
sql s.db "UPDATE project_state SET value = 'bring-up, round 5'
    WHERE id = 'p04-st-phase'"
mirror build --store s.db --out site --quiet --templates tpl
expect "a damaged record renders every page (the hand edit is gone)" \
    test "$RC" = 0 -a "$(grep -c 'edited by hand' \
    site/projects/p05-interferometer/index.md)" = 0
expect "... and the site is the --force build's" same_as_force \
    --templates tpl

# A build with the sweep never takes a --no-sweep build's site as its
# own: the stamp says whether its build swept.
new_store u.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store u.db --out usite --no-sweep --quiet
expect "a --no-sweep build stamps its site unswept" \
    test "$RC" = 0 -a "$(jq .swept usite/api/build.json)" = false
mirror build --store u.db --out usite --check
expect "the next build sweeps and shows the conflicts (--check: exit 4)" \
    test "$RC" = 4 -a "$(jq .swept usite/api/build.json)" = true -a \
    "$(jq .open_conflicts usite/api/build.json)" = 14

# Only the projects whose digest changed are swept; a memory that
# expires changes its project's digest (the row is the same, the clock
# moved), so the next build sweeps that project and closes the conflict
# the memory was half of, as a --force build does.
new_store x.db "$MIRROR_TOP/site-example/example.sql" || exit 1
SOURCE_DATE_EPOCH=1795000000 mirror build --store x.db --out xsite --quiet
cid=$(sql x.db "SELECT id FROM conflicts WHERE slot_kind = 'memory_slot'
    AND status = 'open' ORDER BY id LIMIT 1")
mid=$(sql x.db "SELECT member_id FROM conflict_members WHERE
    conflict_id = '$cid' AND member_kind = 'memory' ORDER BY member_id
    LIMIT 1")
sql x.db "UPDATE memories SET valid_until = '2026-11-20 00:00:00'
    WHERE id = '$mid'"
SOURCE_DATE_EPOCH=1795000000 mirror build --store x.db --out xsite --quiet
expect "a memory that will expire leaves its conflict open ($cid)" \
    test "$RC" = 0 -a "$(sql x.db "SELECT status FROM conflicts
    WHERE id = '$cid'")" = open
# A fact of another project changes too: the build sweeps by project.
sql x.db "UPDATE project_state SET value = 'bring-up, round 9'
    WHERE id = 'p04-st-phase'"
SOURCE_DATE_EPOCH=1795300000 mirror build --store x.db --out xsite --json
expect "once it has expired the next build sweeps its project and closes it" \
    test "$RC" = 0 -a "$(jq .sweep.conflicts_closed "$T/out")" = 1 -a \
    "$(sql x.db "SELECT status FROM conflicts WHERE id = '$cid'")" = \
    resolved

# The clock is no key of the pages' digests: what it decides (an
# expired memory) is in the data of the pages that show it. The queue
# says the day a conflict was detected, not its age (issue 59), so a
# build the next day of an unchanged store with conflicts writes the
# build's stamp alone, no page.
new_store d.db "$MIRROR_TOP/site-example/example.sql" || exit 1
SOURCE_DATE_EPOCH=1795000000 mirror build --store d.db --out dsite --quiet
SOURCE_DATE_EPOCH=1795090000 mirror build --store d.db --out dsite --json
expect "a day later only the stamp is written: no page shows an age" \
    test "$RC" = 0 -a "$(jq .files.written "$T/out")" = 1

# A link across projects: p04's overview shows an entity of p06 (its
# name, and ⚠ while it is in an open conflict), so it is built again when
# that entity changes, or its conflict closes, though no row of p04 did.
far_cid=$(sql s.db "SELECT conflict_id FROM conflict_members
    JOIN conflicts c ON c.id = conflict_id WHERE c.status = 'open' AND
    member_id = 'p06-dec-pressure-bellows' LIMIT 1")
sql s.db "INSERT INTO relationships(id, source_entity_id, target_entity_id,
    relationship_type) VALUES ('x-link', 'p04-cmp-fpga',
    'p06-dec-pressure-bellows', 'affected_by_decision')"
mirror build --store s.db --out site --quiet
sql s.db "UPDATE entities SET name = 'Bellows, renamed'
    WHERE id = 'p06-dec-pressure-bellows'"
mirror build --store s.db --out site --quiet
expect "a far end renamed builds the overview that links it again" \
    test "$RC" = 0 -a -n "$far_cid" -a "$(grep -c \
    "\[Bellows, renamed\](\.\./p06-polisher/.*conflicts/$far_cid" \
    site/projects/p04-gigabit/index.md)" = 1
expect "... and the site is the --force build's" same_as_force
"$MIRROR" conflicts dismiss "$far_cid" --store s.db --reason test \
    --actor t >/dev/null 2>&1
mirror build --store s.db --out site --quiet
expect "a far end's conflict closed takes its marker off that overview" \
    test "$RC" = 0 -a "$(grep -c 'Bellows, renamed' \
    site/projects/p04-gigabit/index.md)" = 1 -a "$(grep -c \
    "Bellows, renamed.*conflicts/$far_cid" \
    site/projects/p04-gigabit/index.md)" = 0
expect "... and the site is the --force build's" same_as_force
# A letter of many facts: pages of at most 500 facts each (keys/k,
# keys/k-2, ...), linked in order, a name that goes on past a page's end
# marked "continued" on the next; the build holds one page at a time.
new_store k.db "$MIRROR_TOP/site-example/example.sql" || exit 1
sql k.db "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
    WHERE i < 1100) INSERT INTO project_state(id, project, category, key,
    value, source, confidence, status, created_at, updated_at) SELECT
    'kz-' || i, 'p05-interferometer', 'parameter', 'kilo_' || (i / 1000),
    i || ' mm', 'generated', 0.9, 'active', '2026-01-01 00:00:00',
    '2026-01-01 00:00:00' FROM n"
kfacts=$(sql k.db "SELECT (SELECT count(*) FROM project_state WHERE
    lower(substr(key, 1, 1)) = 'k') + (SELECT count(*) FROM entities
    WHERE lower(substr(name, 1, 1)) = 'k')")
mirror build --store k.db --out ksite --no-sweep --quiet
# facts_on PAGE: the facts a letter's page lists (one link each).
facts_on() { grep -o '\.html#\(state\|entity\)-' "ksite/keys/$1.html" | wc -l; }
expect "a letter of $kfacts facts has 3 pages: keys/k, keys/k-2, keys/k-3" \
    test "$RC" = 0 -a -f ksite/keys/k.html -a -f ksite/keys/k-2.html -a \
    -f ksite/keys/k-3.html -a ! -e ksite/keys/k-4.html
expect "... of 500, 500 and the rest" test "$(facts_on k)" = 500 -a \
    "$(facts_on k-2)" = 500 -a "$(facts_on k-3)" = $((kfacts - 1000))
expect "... linked in order, and a letter of few has no page line" \
    grep -q 'Page 2 of 3 · <a href="k.html">previous page</a> · <a href="k-3.html">next page</a>' \
    ksite/keys/k-2.html -a "$(grep -c '<p>Page ' ksite/keys/p.html)" = 0
expect "a name that goes on past a page's end is marked continued, its layer and category once" \
    grep -q '^<li><strong>kilo_[0-9]</strong> (continued; state, parameter): <a ' ksite/keys/k-2.html
expect "... and the site is the --force build's" same_as_force_of k.db ksite
# A fact's source changes: nothing the A-Z pages show, they are kept
# (the search index's chunk and shards of the source's words change).
# Markdown twins of them, as a build before they were HTML only wrote,
# go even so: a kept folder is its pages' .html alone.
sql k.db "UPDATE project_state SET source = 'drawing 7' WHERE id = 'kz-7'"
for f in index k k-2 p; do echo old > "ksite/keys/$f.md"; done
mirror build --store k.db --out ksite --no-sweep --json
expect "a changed source keeps the A-Z pages (no keys/ file written)" \
    test "$RC" = 0 -a "$(jq .files.written "$T/out")" -le 16 -a \
    "$(find ksite/keys -type f -newer ksite/api/health.json | wc -l)" = 0
expect "... and removes the Markdown twins an older build left in keys/" \
    test -z "$(find ksite/keys -name '*.md')" -a -s ksite/keys/k-2.html
# Fewer facts: the letter's last page goes.
sql k.db "DELETE FROM project_state WHERE id LIKE 'kz-%' AND
    CAST(substr(id, 4) AS INTEGER) > 700"
mirror build --store k.db --out ksite --no-sweep --quiet
expect "fewer facts: keys/k-3 goes, keys/k-2 is the last page" \
    test "$RC" = 0 -a ! -e ksite/keys/k-3.html \
    -a "$(grep -c 'next page' ksite/keys/k-2.html)" = 0
expect "... and the site is the --force build's" same_as_force_of k.db ksite
