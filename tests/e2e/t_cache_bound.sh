#!/bin/sh
# The user's cache stays bounded (doc/site.md, "An unchanged build does
# nothing"; doc/reliability.md, "The store is SQLite's alone"): forty
# one-fact changes to a 10,000-fact bench store (50 projects), each
# built, leave each kind of the cache as many entries as the whole build
# did (the store's model entry, the A-Z's table replace those they came
# after; the A-Z's pages at most twice the whole build's, their slices
# compacted after 16 builds; the search documents the whole build's
# pack, an entry of each project a change updated, an alias) and at
# most twice its bytes, and the site is a whole build's. Then under
# MIRROR_CACHE_MAX_MB=1 six other stores are built into DIRs of their
# own: each kind is pruned, least recently used first, to at most the
# bound plus what the last build used itself (never pruned), where it
# would hold the six stores' entries; a one-fact change of the first
# store, whose entries were pruned, still builds a whole build's site;
# and the files in the cache that are not entries (a link named as one
# to a file outside, another name) stay, as does the file linked. Last,
# with the cache emptied, a one-fact change gives a whole build's site
# (every kind's miss is its work done again).
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"
export MIRROR_CACHE_DIR="$T/cache"
export SOURCE_DATE_EPOCH=1793491200

# census KIND: "ENTRIES BYTES" of the cache's kind (entries: files
# named by 16 hex digits).
census() {
	find "cache/$1" -type f -name '????????????????' -printf '%s\n' |
	    awk '{ n++; b += $1 } END { printf "%d %d\n", n, b }'
}

kinds="search atoz atoz-pages model stores"

# whole: s.db built into s, the census of each kind into whole-KIND.
whole() {
	bench_store s.db 10000 &&
	    "$MIRROR" build --store s.db --out s --quiet || return 1
	for k in $kinds; do census $k >"whole-$k" || return 1; done
}

# changes N: N one-fact changes of s.db (a value of another project
# each time), each built into s.
changes() {
	i=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		sql s.db "UPDATE project_state SET value='$i mm',
		    updated_at='2025-01-01 00:00:00' WHERE id=(SELECT id FROM
		    project_state WHERE key='key_2' AND status='active' ORDER
		    BY rowid LIMIT 1 OFFSET $((i * 2)))" &&
		    "$MIRROR" build --store s.db --out s --quiet || return 1
	done
}

# bounded KIND: the kind holds as many entries as after the whole build
# (the A-Z's pages at most twice as many), and at most twice its bytes.
bounded() {
	set -- "$1" $(census "$1") $(cat "whole-$1")
	echo "# cache $1: $2 entries $3 bytes (whole build: $4, $5)"
	if [ "$1" = atoz-pages ]; then
		[ "$2" -le $(($4 * 2)) ] || return 1
	elif [ "$1" = search ]; then
		# the whole build's pack, an entry of each project changed
		# (forty), an alias of the pack
		[ "$2" -le $(($4 + 41)) ] || return 1
	else
		[ "$2" -le "$4" ] || return 1
	fi
	[ "$3" -le $(($5 * 2)) ]
}

# site: s is, byte for byte, what a --force build of a copy of s.db
# writes with no cache into pub, a DIR of what s published before.
site() {
	cp s.db pub.db && MIRROR_CACHE_DIR="$T/nocache" "$MIRROR" build \
	    --store pub.db --out pub --force --quiet &&
	    diff -r -x .mirror-output -x .mirror-journal s pub
}

expect "a 10,000-fact store is built with a fresh cache" whole
expect "forty one-fact changes are built" changes 40
for k in $kinds; do
	expect "after forty one-fact builds the cache's $k is bounded" \
	    bounded $k
done
published s pub
sql s.db "UPDATE project_state SET value='last mm' WHERE id=(SELECT id
    FROM project_state WHERE key='key_3' AND status='active' ORDER BY
    rowid LIMIT 1)"
expect "a last one-fact change builds" "$MIRROR" build --store s.db \
    --out s --quiet
expect "its site is a whole build's" site

# The files that are not entries, planted before the bound is reached.
echo outside >outside
ln -s "$T/outside" cache/search/0123456789abcdef
echo keep >cache/search/notes
touch -d '2001-01-01' cache/search/notes outside
touch -h -d '2001-01-01' cache/search/0123456789abcdef

# others: six more stores (7,000 to 9,500 facts), each built into a DIR
# of its own under a bound of 1 MB; after each, every kind holds at most
# the bound plus that build's own bytes (its whole build's census).
others() {
	for n in 7000 7500 8000 8500 9000 9500; do
		bench_store "o$n.db" $n &&
		    MIRROR_CACHE_MAX_MB=1 "$MIRROR" build --store "o$n.db" \
		    --out "o$n" --quiet || return 1
	done
	for k in $kinds; do
		set -- $(census $k)
		echo "# cache $k after six stores: $1 entries $2 bytes"
		[ "$2" -le $((1048576 + 2 * $(cut -d' ' -f2 "whole-$k"))) ] ||
		    return 1
	done
}
expect "six other stores under MIRROR_CACHE_MAX_MB=1 keep each kind bounded" \
    others
expect "pruning removed the first store's least recently used entries" \
    test "$(census search | cut -d' ' -f1)" -lt \
    "$(( $(cut -d' ' -f1 whole-search) * 3 ))"
expect "a link named as an entry, and another name, stay" \
    test -L cache/search/0123456789abcdef -a -f cache/search/notes
expect "the file the link names stays" test "$(cat outside)" = outside

published s pub
sql s.db "UPDATE project_state SET value='after mm' WHERE id=(SELECT id
    FROM project_state WHERE key='key_3' AND status='active' ORDER BY
    rowid LIMIT 1 OFFSET 7)"
expect "a one-fact change of the first store builds after the pruning" \
    "$MIRROR" build --store s.db --out s --quiet
expect "its site is still a whole build's" site

# Every kind missing at once (the cache emptied: a new machine): a
# one-fact change reads what it needs again, with a whole build's site.
published s pub
rm -rf cache
sql s.db "UPDATE project_state SET value='empty mm' WHERE id=(SELECT id
    FROM project_state WHERE key='key_3' AND status='active' ORDER BY
    rowid LIMIT 1 OFFSET 9)"
expect "a one-fact change builds with the cache emptied" \
    "$MIRROR" build --store s.db --out s --quiet
expect "its site is a whole build's too" site
