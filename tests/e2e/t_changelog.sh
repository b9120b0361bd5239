#!/bin/sh
# The change logs never rewrite an entry (issue 70, item 1): each entry of
# recent changes (changes.md, changes.xml) keeps the words and values of
# the moment it happened, and the feed's summary of a conflict (feed.xml)
# keeps the sides as they were when it was found. The example store is
# built, then changed five times (a value edit that closes a conflict, a
# resolve, a dismiss, an edit of a side of an open conflict, a fact
# added), each time built again: every entry of the build before is in
# the next, byte for byte. Before, the entry "conflict opened in P04
# Gigabit Link" changed from "125 MHz · 156.25 MHz" to "125 MHz · 125
# MHz" when the decision was edited. The promise of doc/site.md,
# "Recent changes".
. "$MIRROR_TOP/tests/e2e/lib.sh"

new_store s.db "$MIRROR_TOP/site-example/example.sql" || exit 1

# build N EPOCH: build into site, keep its logs as N.md (the entries of
# changes.md), N.xml (the entries of changes.xml, one a line) and N.feed
# (each id of feed.xml with its summary, one a line).
build() {
	SOURCE_DATE_EPOCH=$2 mirror build --store s.db --out site
	[ "$RC" -eq 0 ] || { echo "build $1 failed: $(cat "$T/err")"; exit 1; }
	grep '^- ' site/changes.md >"$1.md"
	tr '\n' ' ' <site/changes.xml | sed 's|<entry>|\n<entry>|g' |
	    grep '^<entry>' | sed 's|</feed>.*||' >"$1.xml"
	tr '\n' ' ' <site/feed.xml | sed 's|<entry>|\n<entry>|g' |
	    grep '^<entry>' |
	    sed 's|.*<id>\([^<]*\)</id>.*<summary>\(.*\)</summary>.*|\1 \2|' \
	    >"$1.feed"
}
# kept A B: every line of A is a line of B.
kept() {
	missing=$(grep -vxF -f "$2" "$1")
	[ -z "$missing" ] || { echo "rewritten or lost: $missing"; false; }
}
# step N WHAT: the logs of build N-1 are in build N.
step() {
	p=$(($1 - 1))
	expect "$2: every entry of changes.md before is there as it was" kept "$p.md" "$1.md"
	expect "... every entry of changes.xml as it was" kept "$p.xml" "$1.xml"
	expect "... each conflict's summary in feed.xml as it was" kept "$p.feed" "$1.feed"
}

build 1 1793491200
expect "the first build is one entry of changes.md and changes.xml; feed.xml has each conflict" \
    test "$(wc -l <1.md) $(wc -l <1.xml) $(wc -l <1.feed)" = "1 1 35"
expect "feed.xml logs the opened conflicts, with the sides as found" \
    grep -qF 'serdes refclk frequency: 125 MHz (trusted state: design review 2025-06-12) vs 156.25 MHz (engineering record: meeting 2025-11-24)' 1.feed

# 2. The decision edited to the state's value: the disagreement is gone.
sql s.db "UPDATE entities SET properties = json_set(properties, '\$.value', '125 MHz') WHERE id = 'p04-dec-refclk-156'"
build 2 1793491300
step 2 "a value edit that closes a conflict"
expect "... its closing entry says the sides as they were found" \
    grep -q '^- conflict resolved in \[P04 Gigabit Link\](projects/p04-gigabit/index.md): .*\*\*125 MHz\*\* (trusted state: design review 2025-06-12) vs \*\*156.25 MHz\*\*' 2.md

# 3. A resolve and 4. a dismiss by a reviewer.
first_open() { sql s.db "SELECT id FROM conflicts WHERE status = 'open' ORDER BY id LIMIT 1"; }
SOURCE_DATE_EPOCH=1793491400 mirror conflicts resolve "$(first_open)" --store s.db --notes "FEA rev C"
build 3 1793491500
step 3 "a conflict resolved"
SOURCE_DATE_EPOCH=1793491600 mirror conflicts dismiss "$(first_open)" --store s.db --reason "not a real one"
build 4 1793491700
step 4 "a conflict dismissed"

# 5. A side of an open conflict says a third value: still open.
sql s.db "UPDATE entities SET properties = json_set(properties, '\$.value', '141 Hz') WHERE id = 'p05-res-mode1-a'"
build 5 1793491800
step 5 "a side of an open conflict edited"
expect "... which is still open" test "$(sql s.db "SELECT status FROM conflict_members m JOIN conflicts c ON c.id = m.conflict_id WHERE m.member_id = 'p05-res-mode1-a' ORDER BY c.rowid DESC LIMIT 1")" = open

# 6. A fact added.
sql s.db "INSERT INTO memories(id, memory_type, content, project) VALUES ('m-new-1', 'episodic', 'the bench moved to room 4', 'p05-interferometer')"
build 6 1793491900
step 6 "a fact added"
