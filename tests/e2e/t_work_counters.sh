#!/bin/sh
# A one-fact change costs one fact's work at any size (issue 68, item
# 5), counted, never timed: two bench stores (tests/bench/store_gen.sql)
# of 10,000 facts (50 projects) and 40,000 (200), each built with
# --repo, then the same three one-fact changes on each, each built again
# with --json: (a) a value only, (b) one that opens a conflict, (c) one
# that closes it again. Of each build's "work" (doc/performance.md, "Work
# counters"), what a one-fact change costs by itself must not grow with
# the store: at 40,000 facts at most the count at 10,000 plus a quarter
# plus 10. A pass over the whole store (every page rendered again, every
# file written) is four times larger at 40,000 and fails; the quarter
# and the 10 leave room for what a bigger store legitimately adds to a
# change's own files (one more A-Z page, a longer changes page).
#
# pages_rendered, files_written, search_docs (the documents the search
# index took in: an update's are the changed project's, now and then),
# search_peak_bytes (the most bytes the search indexes held at once, as
# their own code counts the room it allocates: an update's hold the
# changed project's documents, a whole index every document's)
# atoz_store_rows (the store's rows the A-Z read: an update's, those of
# the changed projects, merged into the rows the last build kept; a
# whole read is every name, 26,000 rows at 40,000 facts and their
# count) and atoz_rows (the rows of the A-Z pages whose data was built:
# those of the pages the change is on, at most 500 a page; a whole
# A-Z is 26,000 rows at 40,000 facts) and atoz_kept_rows (the rows the
# A-Z read of those the last build kept: an update's, the pages its
# changed rows are on, each twice; at most two pages' 1,000 more at
# 40,000 facts than at 10,000, where a walk of every kept page is
# 52,000) and scope_scan_steps (the steps of SQLite's full table scans
# in the reads of some projects: the check's, the render's, the
# search update's and the A-Z's; a read that filters a table by its
# project column, which no index serves, walks every row of it: the
# search update's read of the changed projects did, 14,154 steps at
# 10,000 facts and 56,154 at 40,000, and fails: tried; so did the A-Z's
# read of their names, 6,498 and 25,998, and fails: tried) are
# asserted, and after each
# change at 10,000 facts the search index, the A-Z pages and every other
# file of the site must be what a whole build of the same store writes.
# The rows the read after the sweep steps (rows.read: the digest folds
# again what the sweep wrote, the model takes the conflicts, checks and
# projects the last read kept, doc/site.md "Conflicts and checks are
# read once", and reads again what changed) are held to at most their
# count at 10,000 facts plus 10 for each change (a whole read of the
# conflicts and checks is 2,552 rows at 10,000 facts and 9,244 at
# 40,000), and those of a change that opens or closes a conflict to a
# value's plus 40 (the conflict's own rows: its row, its members and
# their facts now, its earlier conflicts). The rows the sweep steps
# (rows.sweep: the changed projects' rows and the aliases of those
# projects, doc/performance.md "Work counters") are held like the
# counters above, to the count at 10,000 plus a quarter plus 10 (it
# read every conflict and member again under its write lock, and every
# alias, before: 2,288 rows at 40,000 facts against 826, and fails).
# The rows the render steps (rows.render: the A-Z's of the changed
# projects, the other families' few, and each connection's schema
# check) are held the same way (its connections beside the model's
# read every project into their alias tables before they copied the
# model's: 1,156 rows at 40,000 facts against 706, and fails).
# The rows of the check and bytes_written grow with the store on this
# tree (the digest reads the table written whole, and takes the others'
# folds kept by the last build: tables_kept, asserted to be the same at
# both sizes and at least 3; the files list every project): they are
# printed for the record (as "# work ..." lines), not asserted; hashed_bytes, which grows by about 58,000
# bytes for any change, is held for a conflict opened or closed to that
# growth and to a value's bytes (below). On the 10,000-fact
# store a name is then moved to another letter, a letter added and its
# last name removed: each walks the kept pages, with a whole build's
# pages. Last, the A-Z's kept rows are damaged (the pages', then the
# tables), swapped for another store's and removed: each time the A-Z
# reads every name again and writes a whole build's pages. The first,
# whole build of each
# store is held to search_peak_bytes of at most 512 bytes a fact (about
# 340 at 100,000 facts): what the index holds grows with the store there
# by design, but by the fact, not by more.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # no user's global git config leaks in
export MIRROR_CACHE_DIR="$T/cache"
export SOURCE_DATE_EPOCH=1793491200

# The asserted counters.
counters="pages_rendered files_written search_docs search_peak_bytes atoz_store_rows
    scope_scan_steps"

# setup N: store sN.db of N facts, built into sN with its history in
# sN.git. Returns non-zero when any step fails.
setup() {
	bench_store "s$1.db" "$1" || return 1
	git init -q --bare "s$1.git" &&
	    git -C "s$1.git" config user.name "Mirror Bot" &&
	    git -C "s$1.git" config user.email bot@example.org || return 1
	"$MIRROR" build --store "s$1.db" --out "s$1" --repo "s$1.git" \
	    --json >"$1-whole.json" 2>"$1-whole.err" || return 1
	echo "# work whole $1: $(jq -c .work "$1-whole.json")"
}

# rebuild N CASE: build sN again with --json into N-CASE.json, print
# its work as a comment line, and the number of files its commit
# changed (added, changed or removed) into N-CASE.files. Returns
# mirror's status.
rebuild() {
	"$MIRROR" build --store "s$1.db" --out "s$1" --repo "s$1.git" \
	    --json >"$1-$2.json" 2>"$1-$2.err" || return 1
	git --git-dir "s$1.git" diff-tree -r --no-commit-id --name-only \
	    mirror | wc -l >"$1-$2.files"
	echo "# work $2 $1: $(jq -c .work "$1-$2.json"), $(cat "$1-$2.files") files committed"
}

# The memory of change b: p11's first 'project' memory that restates a
# state value ("key_N is V"), the same row in both stores.
memory="(SELECT id FROM memories WHERE project='p11' AND
    memory_type='project' AND status='active' AND content LIKE
    'key_% is %' ORDER BY rowid LIMIT 1)"

# change N CASE: make change CASE (a, b or c) on sN.db and rebuild.
change() {
	case $2 in
	a) sql "s$1.db" "UPDATE project_state SET value='2.75 mm',
	    updated_at='2025-01-01 00:00:00' WHERE id=(SELECT id FROM
	    project_state WHERE key='key_2' AND status='active' ORDER BY
	    rowid LIMIT 1 OFFSET 4)" ;;
	b) sql "s$1.db" "SELECT writefile('$1-memory', content) FROM
	    memories WHERE id=$memory" >/dev/null &&
	    sql "s$1.db" "UPDATE memories SET content=replace(content,
	    ' is ',' is 9') WHERE id=$memory" ;;
	c) sql "s$1.db" "UPDATE memories SET content=CAST(readfile(
	    '$1-memory') AS TEXT) WHERE id=$memory" ;;
	esac || return 1
	rebuild "$1" "$2"
}

# whole N: build a copy of sN.db into a new DIR whole-N, as a first
# build (no cache: nothing to update, nothing to keep).
whole() {
	rm -rf "whole-$1" && cp "s$1.db" "whole-$1.db" &&
	    MIRROR_CACHE_DIR="$T/nocache" "$MIRROR" build --store \
	    "whole-$1.db" --out "whole-$1" --quiet
}

# same N FOLDER: FOLDER of sN is whole-N's.
same() { diff -r "s$1/$2" "whole-$1/$2" >/dev/null; }

# site N: sN is, byte for byte, what a --force build of a copy of its
# store writes into pub-N, a DIR of what sN published before the change
# (lib.sh's published: the unaudited changes are found against it).
site() {
	cp "s$1.db" "pub-$1.db" && MIRROR_CACHE_DIR="$T/nocache" "$MIRROR" \
	    build --store "pub-$1.db" --out "pub-$1" --force --quiet &&
	    diff -r -x .mirror-output -x .mirror-journal "s$1" "pub-$1"
}

for n in 10000 40000; do
	expect "the $n-fact store is generated and built with --repo" setup $n
	for c in a b c; do
		[ $n != 10000 ] || published "s$n" "pub-$n"
		expect "change $c on the $n-fact store builds with --json" \
		    change $n $c
		[ $n = 10000 ] || continue
		expect "change $c: a whole build of the store is made" whole $n
		expect "change $c: the updated search index is a whole build's" \
		    same $n search
		expect "change $c: the A-Z pages are a whole build's" \
		    same $n keys
		expect "change $c: every file of the site is a whole build's" \
		    site $n
	done
done

# holds FILE FILTER: jq's FILTER is true of FILE.
holds() { jq -e "$2" "$1" >/dev/null; }

# Each change did what it says, at both sizes.
for n in 10000 40000; do
	expect "change a ($n facts) opens and closes no conflict" \
	    holds "$n-a.json" '.sweep.conflicts_opened == 0 and
	    .sweep.conflicts_closed == 0 and .rendered'
	expect "change b ($n facts) opens one conflict" \
	    holds "$n-b.json" '.sweep.conflicts_opened == 1'
	expect "change c ($n facts) closes one conflict" \
	    holds "$n-c.json" '.sweep.conflicts_closed == 1'
done

# quarter_more SMALL BIG KEY [MORE]: KEY of the work in BIG (a build's
# --json) is at most its value in SMALL plus a quarter plus MORE (10
# unless given; and both are counted); else both are printed.
quarter_more() {
	small=$(jq -e ".work.$3" "$1") &&
	    big=$(jq -e ".work.$3" "$2") || return 1
	[ "$big" -le $((small + small / 4 + ${4:-10})) ] && return 0
	echo "#   $3: $big in $2, $small in $1"
	return 1
}

# flat CASE KEY: KEY of work at 40,000 facts is at most its value at
# 10,000 plus a quarter plus 10.
flat() { quarter_more "10000-$1.json" "40000-$1.json" "$2"; }

for c in a b c; do
	for k in $counters; do
		expect "change $c: $k does not grow with the store" flat $c $k
	done
done

# kept_tables CASE: the digests of change CASE took the folds of the
# tables no one wrote from the last build (doc/performance.md, "Kept
# folds"): at least the three a one-fact change leaves alone, and as
# many at 40,000 facts as at 10,000.
kept_tables() {
	small=$(jq -e ".work.tables_kept" "10000-$1.json") &&
	    big=$(jq -e ".work.tables_kept" "40000-$1.json") || return 1
	echo "#   tables_kept of change $1: $small at 10,000, $big at 40,000"
	[ "$small" -ge 3 ] && [ "$small" = "$big" ]
}
for c in a b c; do
	expect "change $c: the digests read only the table written" \
	    kept_tables $c
done

# The heap's pages (core/util/xalloc.h, xalloc_huge): a one-fact change
# ends with its pages faulted in huge at both sizes (a third of its
# faults, a sixth of its CPU time at 100,000 facts), the whole first
# build with small ones (its peak would grow by a third).
for n in 10000 40000; do
	expect "the whole $n-fact build faults its pages in small" \
	    holds "$n-whole.json" '.work.huge_pages == false'
	for c in a b c; do
		expect "change $c ($n facts) faults its pages in huge" \
		    holds "$n-$c.json" '.work.huge_pages == true'
	done
done

# The commit of a conflict opened (change b) holds the files that show
# it and what a value's change has, the same at 10,000 and 40,000
# facts within 2 (issue 68: 52 and 55 files before the open lists were
# cut by their rows' ids and a conflict's search words were its own:
# the rows after a new one moved to later pages, and its members' ids
# and sources put it in 8 more term shards; 44 and 44 then; 42 and 42
# since the review queue's front page left the site-wide totals to the
# index; 41 and 41 since the pages' record stays out of the commit, and
# fails before: 42), and at most 41. (The issue's goal, 20 at 100,000
# facts, is not reached; doc/site.md, "What the commit of a conflict
# opened holds", lists them.)
# committed CASE MAX: the commit of change CASE changed at most MAX
# files at each size, and at 40,000 facts at most 2 more than at 10,000.
committed() {
	small=$(cat "10000-$1.files") && big=$(cat "40000-$1.files") ||
	    return 1
	[ "$small" -gt 0 ] && [ "$small" -le "$2" ] && [ "$big" -le "$2" ] &&
	    [ "$big" -le $((small + 2)) ] && return 0
	echo "#   files committed by change $1: $small at 10,000, $big at 40,000"
	return 1
}
expect "change b: its commit holds at most 41 files, flat with the store" \
    committed b 41

# within CASE KEY MAX: KEY of work at 40,000 facts is at most MAX.
within() {
	big=$(jq -e ".work.$2" "40000-$1.json") || return 1
	[ "$big" -le "$3" ] && return 0
	echo "#   $2 of change $1: $big at 40,000 facts, more than $3"
	return 1
}

# per_fact N MAX: the whole build of the N-fact store held at most MAX
# bytes a fact in its search index.
per_fact() {
	held=$(jq -e ".work.search_peak_bytes" "$1-whole.json") || return 1
	[ "$held" -gt 0 ] && [ "$held" -le $(($1 * $2)) ] && return 0
	echo "#   search_peak_bytes of the whole $1-fact build: $held"
	return 1
}

for n in 10000 40000; do
	expect "the whole $n-fact build's search index holds <= 512 bytes a fact" \
	    per_fact $n 512
done

# plus_more SMALL BIG KEY MORE: KEY of the work in BIG is at most its
# value in SMALL plus MORE (and both are counted); else both are
# printed.
plus_more() {
	small=$(jq -e ".work.$3" "$1") &&
	    big=$(jq -e ".work.$3" "$2") || return 1
	[ "$big" -le $((small + $4)) ] && return 0
	echo "#   $3: $big in $2, $small in $1"
	return 1
}

# read_flat CASE: the rows change CASE read after its sweep at 40,000
# facts are at most those at 10,000 plus 10: the model reads what
# changed, not every conflict, check and project of the store (which it
# did before: 9,244 rows against 2,552, and fails).
read_flat() { plus_more "10000-$1.json" "40000-$1.json" rows.read 10; }

for c in a b c; do
	expect "change $c: the read after the sweep does not grow with the store" \
	    read_flat $c
done

for c in a b c; do
	expect "change $c: the rows the sweep steps do not grow with the store" \
	    flat $c rows.sweep
done

# The VM steps of the read after the sweep (vm_steps.read: SQLite's
# steps of every statement, doc/performance.md "Work counters"), which
# see a pass over the whole store that returns no row or one (an
# INSERT ... SELECT, a count(*) of a filtered scan), where rows.read does
# not: at 40,000 facts at most the count at 10,000 plus a quarter plus
# 1,000 (1,426 steps for a value at both sizes; a conflict opened or
# closed finds its earlier conflicts by a scan of every conflict, which
# no index on its slot serves, 452 steps at 10,000 facts and 1,738 at
# 40,000: 3,260 and 4,598 steps for change b, 3,568 and 4,906 for c).
# A scan of every entity planted in the model's read fails it: tried.
# vm_flat CASE PHASE: vm_steps.PHASE of change CASE at 40,000 facts is
# at most its value at 10,000 plus a quarter plus 1,000.
vm_flat() { quarter_more "10000-$1.json" "40000-$1.json" "vm_steps.$2" 1000; }

for c in a b c; do
	expect "change $c: the VM steps of the read after the sweep do not grow with the store" \
	    vm_flat $c read
done

# The render's VM steps: each connection its families open beside the
# model's sees the model's alias table through a view of an image of
# it (store_open_shared), where it copied a row per project before
# (8,100 steps at 10,000 facts, 32,400 at 40,000: 22,261 and 46,561 in
# all for a value; a whole-store pass planted in the render fails it).
for c in a b c; do
	expect "change $c: the VM steps of the render do not grow with the store" \
	    vm_flat $c render
done

# The VM steps of the sweep (vm_steps.sweep) the same way: a scoped
# sweep finds the open conflicts touching its projects, the slots a
# reviewer decided, the aliases and a closed conflict's members' parents
# through the rows the digest listed for those projects, not by a scan
# (21,161 and 24,788 steps for a value at 10,000 and 40,000 facts,
# 19,843 and 23,844 for change b, 25,718 and 29,741 for c: the counts
# of the open conflicts and violations after it step each row; 36,895
# and 89,508, 37,386 and 90,373, 58,629 and 164,294 before, and fails).
# A scan of every relationship planted in the scoped sweep fails it:
# tried.
for c in a b c; do
	expect "change $c: the VM steps of the sweep do not grow with the store" \
	    vm_flat $c sweep
done

# The render's rows: the connections its families open beside the
# model's see its alias table (store_open_shared), where each read
# every project again (150 rows more each at 40,000 facts, and fails).
for c in a b c; do
	expect "change $c: the rows the render steps do not grow with the store" \
	    flat $c rows.render
done

# as_a_value CASE N: the rows change CASE (a conflict opened or closed)
# read after its sweep on the N-fact store are at most those of change
# a, a value only, plus 40: the read after the sweep folds again what
# the sweep changed into the digest, and reads again the conflicts and
# checks it wrote, not every row of the store (which it did before:
# 59,982 rows at 40,000 facts against 9,244, and fails).
as_a_value() { plus_more "$2-a.json" "$2-$1.json" rows.read 40; }

for n in 10000 40000; do
	for c in b c; do
		expect "change $c ($n facts): the read after the sweep costs what a value's does" \
		    as_a_value $c $n
	done
done

# The bytes a change that opens or closes a conflict hashes for its
# pages' digests (hashed_bytes) are those of the pages that show it,
# not of every conflict's: each conflict's page, each project's queue
# pages and file of conflicts and the queue's lists of every open
# conflict and every project have a digest made from the rows they show
# (doc/site.md "A changed store renders only what changed";
# doc/performance.md "Work counters"), so a page whose rows are the
# last build's is kept without its data built or hashed. At 40,000
# facts at most the bytes at 10,000 plus 80,000 (the value's own change
# a grows by 58,005: the site's other pages); the conflicts family made
# every conflict's data and hashed it before: 2,473,160 bytes at 40,000
# facts against 757,873, and fails.
# hashed_flat CASE: hashed_bytes of change CASE at 40,000 facts is at
# most its value at 10,000 plus 80,000.
hashed_flat() { plus_more "10000-$1.json" "40000-$1.json" hashed_bytes 80000; }

for c in b c; do
	expect "change $c: the bytes hashed for the pages' digests do not grow with the store" \
	    hashed_flat $c
done

# And at each size a conflict opened or closed hashes at most 16,000
# bytes more than change a, a value only (7,457 and 8,106 at 10,000
# and 40,000 facts; 567,717 and 2,224,999 before, and fails).
# hashed_as_value CASE N: hashed_bytes of change CASE on the N-fact
# store is at most change a's plus 16,000.
hashed_as_value() { plus_more "$2-a.json" "$2-$1.json" hashed_bytes 16000; }

for n in 10000 40000; do
	for c in b c; do
		expect "change $c ($n facts): the bytes hashed cost what a value's do, plus its conflict's" \
		    hashed_as_value $c $n
	done
done

# A change is on one A-Z page (a), or two: the facts of the conflict it
# opens or closes (b, c). A page holds at most 500 rows.
for c in a b c; do
	expect "change $c: the A-Z builds the pages of its facts alone" \
	    within $c atoz_rows 1000
done

# The kept A-Z rows an update walks are those of the pages its changed
# rows are on (each twice: checked, then made), not every page's: at
# 40,000 facts at most the count at 10,000 plus two pages' 1,000 (a
# walk of every kept page is 52,000).
# kept_flat CASE: atoz_kept_rows of change CASE at 40,000 facts is at
# most its value at 10,000 plus 1,000.
kept_flat() {
	small=$(jq -e ".work.atoz_kept_rows" "10000-$1.json") &&
	    big=$(jq -e ".work.atoz_kept_rows" "40000-$1.json") || return 1
	[ "$big" -le $((small + 1000)) ] && return 0
	echo "#   atoz_kept_rows of change $1: $big at 40,000, $small at 10,000"
	return 1
}

for c in a b c; do
	expect "change $c: the A-Z walks the kept rows of its pages alone" \
	    kept_flat $c
done

# The A-Z's kept rows are untrusted (doc/site.md, "The pages"): an entry
# damaged, one of another store under this one's name, or
# none (the cache emptied), and the A-Z reads every name again, with
# the pages of a whole build. On the 10,000-fact store, each a value
# changed again.

# value N CASE V: set change a's value to V on sN.db and rebuild.
value() {
	sql "s$1.db" "UPDATE project_state SET value='$3' WHERE id=(SELECT id
	    FROM project_state WHERE key='key_2' AND status='active' ORDER BY
	    rowid LIMIT 1 OFFSET 4)" && rebuild "$1" "$2"
}

# whole_read CASE: the A-Z of the 10,000-fact build CASE read every
# name (its 6,500 rows and their count), not the changed project's.
whole_read() { holds "10000-$1.json" '.work.atoz_store_rows > 6500'; }

# damage FILE: one byte in the middle of FILE changed.
damage() {
	size=$(wc -c <"$1") &&
	    was=$(dd if="$1" bs=1 skip=$((size / 2)) count=1 2>/dev/null) &&
	    if [ "$was" = X ]; then by=Y; else by=X; fi &&
	    printf '%s' "$by" | dd of="$1" bs=1 seek=$((size / 2)) \
	    conv=notrunc 2>/dev/null
}

# kept: the entries of A-Z rows in the cache; newest: the last written
# (this site's, after its build).
kept() { ls "$T/cache/atoz/"*; }
newest() { ls -t "$T/cache/atoz/"* | head -n 1; }

expect "the two sites keep an entry of A-Z rows each, the last build's" \
    test "$(kept | wc -l)" = 2
expect "an update reads the changed project's rows alone" \
    holds 10000-c.json '.work.atoz_store_rows < 500'

# A name moved to another letter, a letter added (a name that starts
# with z, which no other does) and the letter's last name removed
# again: each moves rows to other pages, and the A-Z walks the pages it
# kept (not the store) with a whole build's pages. On the 10,000-fact
# store, two rows of key_3 and key_4.
row3=$(sql s10000.db "SELECT id FROM project_state WHERE key='key_3' AND
    status='active' ORDER BY rowid LIMIT 1 OFFSET 2")
row4=$(sql s10000.db "SELECT id FROM project_state WHERE key='key_4' AND
    status='active' ORDER BY rowid LIMIT 1 OFFSET 2")

# rename N CASE ID KEY: set row ID's key to KEY on sN.db and rebuild.
rename() {
	sql "s$1.db" "UPDATE project_state SET key='$4' WHERE id='$3'" &&
	    rebuild "$1" "$2"
}

# walked CASE: the A-Z of the 10,000-fact build CASE read the changed
# project's rows alone from the store, and walked the pages it kept.
walked() {
	holds "10000-$1.json" '.work.atoz_store_rows < 500 and
	    .work.atoz_kept_rows > 6500'
}

expect "a name moved from k to g builds" rename 10000 h "$row3" g_moved
expect "... and the A-Z walks the kept pages" walked h
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys
expect "a name that adds the letter z builds" rename 10000 i "$row4" zulu
expect "... and the A-Z walks the kept pages" walked i
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys
expect "... and a page for z" test -f s10000/keys/z.html
expect "removing z's last name builds" rename 10000 j "$row4" key_4
expect "... and the A-Z walks the kept pages" walked j
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys
expect "... and z's page gone" test ! -e s10000/keys/z.html
expect "then a value builds again from the pages kept" \
    value 10000 k '3.05 mm'
expect "... walking its page alone" \
    holds 10000-k.json '.work.atoz_kept_rows <= 1000'
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys

# A page's kept rows damaged (every entry of pages and slices): the
# A-Z reads every name, with a whole build's pages.
for f in "$T/cache/atoz-pages/"*; do damage "$f"; done
expect "after damaged pages a change builds" value 10000 l '3.15 mm'
expect "... and the A-Z reads every name" whole_read l
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys

for f in $(kept); do damage "$f"; done
expect "after a damaged entry a change builds" value 10000 d '3.1 mm'
expect "... and the A-Z reads every name" whole_read d
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys
expect "the next change builds from the entry again" value 10000 e '3.2 mm'
expect "... the changed project's rows alone" \
    holds 10000-e.json '.work.atoz_store_rows < 500'
# The other site's entry (the 40,000-fact store's) under this one's name.
cp "$(ls -t "$T/cache/atoz/"* | tail -n 1)" "$(newest)"
expect "after an entry of another store a change builds" \
    value 10000 f '3.3 mm'
expect "... and the A-Z reads every name" whole_read f
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys
rm -rf "$T/cache/atoz"
expect "after the cache was emptied a change builds" value 10000 g '3.4 mm'
expect "... and the A-Z reads every name" whole_read g
whole 10000
expect "... with a whole build's A-Z pages" same 10000 keys

# The conflicts, checks and projects the model kept are untrusted too
# (doc/site.md, "Conflicts and checks are read once"): an entry damaged
# and the read takes every one again, with a whole build's site; the
# next change reads what changed alone.
models() { ls "$T/cache/model/"*; }
expect "each store keeps one entry of conflicts and checks" \
    test "$(models | wc -l)" = 2
for f in $(models); do damage "$f"; done
published s10000 pub-10000
expect "after a damaged entry of conflicts and checks a change builds" \
    value 10000 h '3.5 mm'
expect "... and the read takes every conflict and check" \
    holds 10000-h.json '.work.rows.read > 2000'
expect "... with a whole build's site" site 10000
published s10000 pub-10000
expect "the next change builds from the entry again" value 10000 i '3.6 mm'
expect "... and the read takes what changed alone" \
    holds 10000-i.json '.work.rows.read < 100'
expect "... with a whole build's site" site 10000

# The findings kept are written again only when what they say changed:
# a value's change writes the projects' sums alone (model-sums/, a few
# kB), not the conflicts and checks (model/, 1.7 MB at 100,000 facts).
# sums: the cksum lines of every entry of the cache's KIND folder.
sums() { cksum "$T/cache/$1/"* | sort; }
sums model >model.before && sums model-sums >model-sums.before
published s10000 pub-10000
expect "a value's change builds" value 10000 m '3.7 mm'
expect "... and leaves the kept conflicts and checks as they were" \
    test "$(sums model)" = "$(cat model.before)"
expect "... and writes the projects' sums again" \
    test "$(sums model-sums)" != "$(cat model-sums.before)"
expect "... with a whole build's site" site 10000
# A conflict opened writes them again (a new generation, which the
# sums name).
sums model >model.before
published s10000 pub-10000
expect "a change that opens a conflict builds" change 10000 b
expect "... and writes the kept conflicts and checks again" \
    test "$(sums model)" != "$(cat model.before)"
expect "... with a whole build's site" site 10000
# The sums are untrusted as the findings are: damaged, the read takes
# every conflict and check; the next change reads what changed alone.
for f in "$T/cache/model-sums/"*; do damage "$f"; done
published s10000 pub-10000
expect "after damaged sums a change builds" change 10000 c
expect "... and the read takes every conflict and check" \
    holds 10000-c.json '.work.rows.read > 2000'
expect "... with a whole build's site" site 10000
published s10000 pub-10000
expect "the next change builds from the entry again" value 10000 n '3.8 mm'
expect "... and the read takes what changed alone" \
    holds 10000-n.json '.work.rows.read < 100'
expect "... with a whole build's site" site 10000

# The rules a one-fact change leaves as they were are kept, whatever
# the machine's speed: with the rules' keys in the store, none begins
# beside the check (that waits for the digest that keeps them), so a
# build keeps as many as one with MIRROR_JOBS=1, which evaluates every
# rule after the check. Begun beside the check before, a rule finished
# before the digest kept it counted as evaluated: 3 to 9 kept at 40,000
# facts, run to run, against 10 with one job (fails then: tried).
# kept_alone N ROW: a value of sN.db changed (the key_2 row at offset
# ROW) and built as it is and, on copies of its store, DIR and history,
# with MIRROR_JOBS=1: both keep the same rules, at least one.
kept_alone() {
	sql "s$1.db" "UPDATE project_state SET value='4.5 mm' WHERE id=(SELECT
	    id FROM project_state WHERE key='key_2' AND status='active'
	    ORDER BY rowid LIMIT 1 OFFSET $2)" || return 1
	rm -rf one && mkdir one && cp -R "s$1.db" "s$1" "s$1.git" one/ &&
	    (cd one && MIRROR_JOBS=1 MIRROR_CACHE_DIR="$T/one-cache" "$MIRROR" build --store "s$1.db" \
	    --out "s$1" --repo "s$1.git" --json >../one.json 2>../one.err) &&
	    rebuild "$1" "k$2" || return 1
	one=$(jq -e .sweep.rules_kept one.json) &&
	    two=$(jq -e .sweep.rules_kept "$1-k$2.json") || return 1
	[ "$one" -gt 0 ] && [ "$one" = "$two" ] && return 0
	echo "#   rules kept at $1 facts: $two, with MIRROR_JOBS=1 $one"
	return 1
}
for row in 6 7 8; do
	expect "a value changed at 40,000 facts keeps the rules one job keeps ($row)" \
	    kept_alone 40000 $row
done

# The render's pools take the projects whose pages are made, not every
# project: a value's change hands them its project's pages and nothing
# that grows with the store (MIRROR_PROFILE=1's "N items"; each kept
# project was an item before, 52 at 10,000 facts and 202 at 40,000,
# and fails: tried).
# pooled N ROW: a value of sN.db changed (the key_2 row at offset ROW),
# built with MIRROR_PROFILE=1; its items into N-pROW.items.
pooled() {
	sql "s$1.db" "UPDATE project_state SET value='5.5 mm' WHERE id=(SELECT
	    id FROM project_state WHERE key='key_2' AND status='active'
	    ORDER BY rowid LIMIT 1 OFFSET $2)" || return 1
	export MIRROR_PROFILE=1
	rebuild "$1" "p$2"
	rc=$?
	unset MIRROR_PROFILE
	sed -n 's/.*pools [0-9.]* s wall, \([0-9]*\) items.*/\1/p' \
	    "$1-p$2.err" >"$1-p$2.items"
	[ "$rc" = 0 ] && [ -s "$1-p$2.items" ]
}
expect "a value changed at 10,000 facts builds with MIRROR_PROFILE=1" \
    pooled 10000 11
expect "... and at 40,000" pooled 40000 11
# items_flat: at most 8 items at each size, and as many at both.
items_flat() {
	small=$(cat 10000-p11.items) && big=$(cat 40000-p11.items) ||
	    return 1
	[ "$small" -le 8 ] && [ "$big" = "$small" ] && return 0
	echo "#   pools' items of a value's change: $small at 10,000, $big at 40,000"
	return 1
}
expect "... and its pools take as many items at both sizes, a few" items_flat

# A change of every project's state, built again: its digest faulted
# its pages in huge (DIR holds a build), then it knew it was no small
# build and went back to small pages, which hold its peak lower.
everything() {
	sql "s$1.db" "UPDATE project_state SET
	    updated_at='2025-02-01 00:00:00'" && rebuild "$1" all
}
expect "a change of every project's state builds with --json" \
    everything 10000
expect "... and ends with its pages faulted in small" \
    holds 10000-all.json '.work.huge_pages == false and
    .work.pages_rendered > 50'
