#!/bin/sh
# The project overview that can be scanned (issue 20, item 2), on the
# example site and on a 10,000-fact bench site (the same checks, each
# case named with its site): at the top what is disputed here (each open
# conflict's question, linked) and the gaps count, a table of contents
# whose links reach headings, facts as table rows with their ids and
# markers, the architecture as an SVG diagram in the HTML twin
# (well-formed, titled, scaled by a viewBox, disputed nodes linked to
# open conflicts of the project, the same bytes on every build) with the
# list below it and in the .md twin, plurals right and "expired" in
# words. The checks are tests/tools/site_overview.py.
# The promises of doc/site.md, "Navigating a project overview".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
cp ex.db ex2.db
mirror build --store ex.db --out site --quiet
expect_status "the example builds" 0
p05=site/projects/p05-interferometer

check="$MIRROR_TOP/tests/tools/site_overview.py"
bench_store b.db || exit 1
cp b.db b2.db
mirror build --store b.db --out bench10k --quiet
expect_status "the 10,000-fact bench site builds" 0

# overviews DIR NAME: the checks that hold on any site, named with NAME.
overviews() {
	expect "$2: 'Disputed here' names each open conflict in its one form, linked, and counts the gaps" \
	    python3 "$check" "$1" disputed
	expect "$2: the contents link to the ids of the section headings" \
	    python3 "$check" "$1" toc
	expect "$2: every fact is a table row with its id, the architecture a list item" \
	    python3 "$check" "$1" rows
	expect "$2: the diagram is well-formed SVG: titled, scaled, linked only to open conflicts, one box a node" \
	    python3 "$check" "$1" svg
	expect "$2: no plural slips and no '*active*' beside 'expired'" \
	    python3 "$check" "$1" words
	expect "$2: the Markdown tables stay tables: every row has the header's cells" \
	    python3 "$check" "$1" tables
}
overviews site example
overviews bench10k bench10k
expect "example: overviews with diagrams and disputed nodes" sh -c "
    test \$(grep -l '<svg class=\"diagram\"' site/projects/*/index.html | wc -l) -eq 3 &&
    grep -q 'diagram-disputed' $p05/index.html"
expect "bench10k: each of the 50 overviews has a diagram and its contents" sh -c "
    test \$(grep -l '<svg class=\"diagram\"' bench10k/projects/*/index.html | wc -l) -eq 50 &&
    test \$(grep -l '^<nav class=\"toc\" aria-label=\"Contents\">' bench10k/projects/*/index.md | wc -l) -eq 50"
expect "the lateral support and its mirror mount are disputed in the picture" sh -c "
    grep -q '<a href=\"../../conflicts/c1da3c4868f.html\"><title>Lateral support (no material), ⚠ disputed: lateral support material; see its conflict</title>' $p05/index.html &&
    grep -q '<a href=\"../../conflicts/c1da3c4868f.html\"><title>Mirror mount (subsystem), ⚠ disputed: lateral support material; see its conflict</title>' $p05/index.html"
expect "a component shows its material in the picture" \
    grep -q '<text class="diagram-detail" x="[0-9]*" y="[0-9]*">Invar 36</text>' $p05/index.html
expect "the architecture list follows the picture: a subsystem, then its components" sh -c "
    grep -A2 'entity-p05-sub-refoptics\"></a>' $p05/index.md | grep -c 'part of: Reference optics' | grep -qx 2"
expect "an expired memory says 'expired', not its status" sh -c "
    grep -Eq '^\| <a id=\"memory-mem-know-sfp-stock\"></a>knowledge \| .* \| memory \| expired \| ' site/projects/p04-gigabit/index.md"
# Navigation (issue 57, item 5): breadcrumbs, contents of the sections
# the page has, long sections folded, the project's own lists.
expect "breadcrumbs: Index, then the project, then its subsystems" sh -c "
    grep -qx '<nav class=\"crumbs\" aria-label=\"Breadcrumbs\">' $p05/index.html &&
    grep -qxF '[Index](../../index.md) › P05 Interferometer' $p05/index.md &&
    grep -qxF '<p><a href=\"../../index.html\">Index</a> › <a href=\"index.html\">P05 Interferometer</a> › Subsystems</p>' $p05/subsystems.html"
expect "a project with one memory lists one section, not nine empty ones" sh -c "
    test \$(grep -c '^## ' site/projects/p03-alignment-jig/index.md) -eq 1 &&
    grep -qxF -- '- [Active memories](#memories)' site/projects/p03-alignment-jig/index.md &&
    ! grep -q 'recorded\.' site/projects/p03-alignment-jig/index.md"
expect "links and facts not active are folded, their count in the summary" sh -c "
    grep -A1 -x '<details>' $p05/index.html | grep -qx '<summary>12 facts not active</summary>' &&
    grep -A1 -x '<details>' $p05/index.html | grep -Eqx '<summary>[0-9]+ entities with links</summary>'"
expect "the project's conflicts and checks link to its own lists" sh -c "
    grep -qF '[4 open conflicts](#disputed) · [6 open checks](#gaps)' $p05/index.md &&
    grep -qF '(../../checks/projects/p05-interferometer.md)' $p05/index.md &&
    ! grep -qF '(../../conflicts/index.md)' $p05/index.md"
mirror build --store ex2.db --out site2 --quiet
expect "example: a second store gives the same overviews, diagrams and all" \
    diff -r site/projects site2/projects
mirror build --store b2.db --out bench2 --quiet
expect "bench10k: a second store gives the same overviews, diagrams and all" \
    diff -r bench10k/projects bench2/projects
