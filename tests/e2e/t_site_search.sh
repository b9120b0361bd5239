#!/bin/sh
# t_site_search.sh: the search index (issue 57, item 3). The example
# site's search/ holds the manifest, term shards and record chunks, each
# bounded; the same store gives the same bytes (any MIRROR_JOBS); an
# incremental build after a fact's change holds what a full build does;
# every page's header links the search page, whose text without
# JavaScript points to the A-Z index; then a real browser types queries
# over HTTP and from file:// (tests/browser/search.test.js), on the
# example and on a generated store: ranked, with typos and plurals, the
# words marked, the filters' counts, every page's search box and "/".
# The promises of doc/site.md, "Search".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out site --quiet
expect_status "the example site builds" 0

files_there() {
	[ -f site/search/index.js ] && [ -f site/search/index.html ] &&
	    [ -f site/search/index.md ] && [ -f site/assets/search.js ] &&
	    ls site/search/t-*.js >/dev/null && ls site/search/d-*.js >/dev/null
}
expect "the manifest, a term shard, a record chunk, the page and the script are written" files_there

# Shards cut at most 72,000 bytes (three times their mean; one term's
# postings may pass it by its own length: at most 1,500 documents),
# chunks of 256 records on average.
bounded() {
	for f in site/search/t-*.js; do
		[ "$(wc -c <"$f")" -le 80000 ] || return 1
	done
	for f in site/search/d-*.js; do
		[ "$(grep -c '^\[' "$f")" -le 512 ] || return 1
		[ "$(wc -c <"$f")" -le 131072 ] || return 1
	done
}
expect "every shard and chunk is bounded" bounded

docs_counted() {
	n=$(sed -n 's/.*"docs":\([0-9]*\).*/\1/p' site/search/index.js)
	[ "$n" -gt 0 ] && [ "$(cat site/search/d-*.js | grep -c '^\[')" -eq "$n" ]
}
expect "the manifest counts every record" docs_counted

# Every fact of the store is a record, and every conflict and check.
all_there() {
	facts=$(sql ex.db "SELECT (SELECT count(*) FROM project_state) +
	    (SELECT count(*) FROM entities) + (SELECT count(*) FROM memories)
	    + (SELECT count(*) FROM conflicts) + (SELECT count(*) FROM
	    rule_violations)")
	# and a record of each project's own page (a project of rows but
	# no projects row too)
	pages=$(ls site/projects/*/index.html | wc -l)
	[ "$(cat site/search/d-*.js | grep -c '^\[')" -eq "$((facts + pages))" ]
}
expect "every fact, conflict, check and project's page is a record" all_there

MIRROR_JOBS=1 mirror build --store ex.db --out site1 --no-sweep --quiet
expect "the same store gives the same index with one job" \
    diff -r site/search site1/search

sql ex.db "UPDATE project_state SET value = '325 rpm' WHERE id = 'p06-st-spindle-max'"
mirror build --store ex.db --out site --no-sweep --quiet
mirror build --store ex.db --out full --no-sweep --quiet
changed() {
	grep -q '"325 rpm"' site/search/d-*.js && diff -r site/search full/search
}
expect "an incremental build after a change holds the full build's index" changed

# What a conflict opened rewrites in search/ (issue 68): its chunk,
# its members' chunks and the shards of its words, not every chunk and
# shard after it. The bench generator's store of 10,000 facts (50
# projects, 4 kinds of chunks); a project memory made to contradict the
# state value it restates opens one conflict. On 2cd520a, whose numbers
# ran one after another, 52 files of search/ changed; 10 on 1f7386c;
# 19 since each common term has a shard of its own (one of 1 to 4 kB for
# each common word of the conflict's text: 127 kB rewritten, 261 before);
# 11 since a conflict's words are its slot's, values' and id alone, not
# its members' ids and sources (those find the members): at most 12.
gen_store() {
	mirror init --store "$1" --quiet &&
	    { printf 'CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES(%d);\n' "$2"
	      cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
	    sqlite3 -bail "$1" >/dev/null
}
gen_store gen.db 10000 || exit 1
mirror build --store gen.db --out gsite --quiet
expect_status "the generated store of 10,000 facts builds" 0
cp -R gsite gbefore
sql gen.db "UPDATE memories SET content = replace(content, ' is ', ' is 9')
    WHERE id = (SELECT id FROM memories WHERE project = 'p11' AND
    memory_type = 'project' AND status = 'active' AND content LIKE
    'key_% is %' ORDER BY rowid LIMIT 1)"
mirror build --store gen.db --out gsite --json --quiet
opened=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["sweep"]["conflicts_opened"])' <"$T/out")
expect "... a memory contradicting its state value opens one conflict" \
    test "$opened" = 1
search_changed=$( (diff -rq gbefore/search gsite/search || :) | wc -l)
expect "... the conflict opened rewrites at most 12 files of search/ ($search_changed)" \
    test "$search_changed" -ge 3 -a "$search_changed" -le 12
mirror build --store gen.db --out gfull --no-sweep --quiet
expect "... and the index is the one a full build writes" \
    diff -r gsite/search gfull/search

# The documents a whole index keeps for the next build's update go in
# one pack of the user's cache, not a file a project (doc/site.md,
# "Search": at 100,000 projects the files cost 13% of the build). An
# update finds a project's documents there, after one update or several;
# a pack gone or damaged is a whole index of the same bytes. A store of
# 2,000 one-fact projects (tests/bench/projects_gen.sql).
new_store pk.db || exit 1
{ echo "CREATE TEMP TABLE bench_projects(n); INSERT INTO bench_projects VALUES(2000);"
  cat "$MIRROR_TOP/tests/bench/projects_gen.sql"; } | sqlite3 -bail pk.db >/dev/null
saved_cache=$MIRROR_CACHE_DIR
export MIRROR_CACHE_DIR="$T/pcache"
mirror build --store pk.db --out pk --json --quiet
entries=$(find pcache/search -type f | wc -l)
expect "a whole build of 2,000 projects keeps their search documents in one entry ($entries)" \
    test "$RC" = 0 -a "$entries" = 1
whole_docs=$(jq .work.search_docs "$T/out")

# pk_step N: project N's fact changed and built into pk (its
# work.search_docs into docs), then a copy built whole with no cache
# into pkfull: 0 when both build.
pk_step() {
	sql pk.db "UPDATE project_state SET value='$1 cm' WHERE id='s-$1'" &&
	    mirror build --store pk.db --out pk --json --no-sweep --quiet &&
	    docs=$(jq .work.search_docs "$T/out") && rm -rf pkfull &&
	    cp pk.db pkfull.db && MIRROR_CACHE_DIR="$T/nocache" "$MIRROR" \
	    build --store pkfull.db --out pkfull --no-sweep --quiet
}

# updated: the last pk_step updated the index (a few documents, not
# the whole build's) and it is a whole build's.
updated() {
	[ "$docs" -lt 10 ] && [ "$whole_docs" -gt 2000 ] &&
	    diff -r pk/search pkfull/search
}

# rebuilt: the last pk_step built the index whole, as a whole build.
rebuilt() {
	[ "$docs" = "$whole_docs" ] && diff -r pk/search pkfull/search
}
pk_step 5
expect "an update finds the project's documents in the pack: a whole build's index" updated
pk_step 700 && pk_step 5 && pk_step 1999
expect "... and after several updates ($docs documents)" updated
find pcache/search -type f -size +10k -delete
pk_step 6
expect "with the pack gone an update builds the index whole, the same bytes" rebuilt
pk_step 7
expect "... the next update finds the new pack" updated
# A byte of project 8's documents in the pack changed.
pack=$(find pcache/search -type f -size +10k)
at=$(grep -boa 'projects/p000008' "$pack" | head -1 | cut -d: -f1)
printf 'X' | dd of="$pack" bs=1 seek=$((at + 60)) conv=notrunc 2>/dev/null
pk_step 8
expect "with the pack damaged an update builds the index whole, the same bytes" rebuilt
truncate -s -100 "$(find pcache/search -type f -size +10k)"
pk_step 9
expect "... and with it cut" rebuilt
expect "the cache holds the last pack and an entry of each project an update changed" \
    test "$(find pcache/search -type f | wc -l)" -le 5
export MIRROR_CACHE_DIR="$saved_cache"

links_search() {
	for p in index.html projects/p06-polisher/index.html keys/index.html \
	    conflicts/index.html; do
		grep -q 'href="[./]*search/index.html"' "site/$p" || return 1
	done
}
expect "every page kind's header links the search page" links_search
expect "without JavaScript the search page points to the A-Z index" \
    grep -q 'href="../keys/index.html"' site/search/index.html

records="$MIRROR_TOP/tests/tools/search_records.py"
expect "example: every record's URL names a page holding its anchor" \
    python3 "$records" site urls

# Long text is cut in the records as the pages cut it (issue 67, R4-6:
# on a8d6902 a 5 MiB name gave a 5.3 MB d-0.js, a 30 MiB key a 31.5 MB
# one, past Cloudflare's 25 MiB a file): 4096 bytes at a character's
# start, then " … (N bytes more)". An entity name of 21 bytes and 2.5 Mi
# 'é' (5 MiB; 4096 falls inside an 'é'), a state key of 30 MiB, a
# conflict between two rows of a 2 MiB key (its title is the key), an id
# of 6,002 bytes (its anchor is a slug, so its record names its URL).
new_store big.db "$MIRROR_TOP/tests/data/tiny.sql" || exit 1
sql big.db "INSERT INTO entities(id, entity_type, name, project, properties, status) VALUES
 ('e-big', 'component', 'Gigantic lens mounts ' || replace(hex(zeroblob(2621440)), '00', 'é'),
  'p05', '{}', 'active'),
 ('e-' || replace(hex(zeroblob(3000)), '00', 'id'), 'component', 'Long id part', 'p05', '{}', 'active');
INSERT INTO project_state(id, project, category, key, value, status) VALUES
 ('s-big', 'p06-polisher', 'fact', 'huge clamp key ' || replace(hex(zeroblob(15728640)), '00', 'k '), 'v', 'active'),
 ('s-c1', 'p06-polisher', 'fact', 'clash key ' || replace(hex(zeroblob(1048576)), '00', 'w '), '1', 'active'),
 ('s-c2', 'p06-polisher', 'fact', 'clash key ' || replace(hex(zeroblob(1048576)), '00', 'w '), '2', 'active')" || exit 1
mirror build --store big.db --out big --check-hosting cloudflare-pages
expect_status "a store of a 5 MiB name and a 30 MiB key fits Cloudflare Pages (exit 0)" 0
expect "... no file in search/ is over 100 kB" \
    test -z "$(find big/search -type f -size +100k)"
expect "... every string of a record is cut at 4096 bytes and marked" \
    python3 "$records" big cut
expect "... 'gigantic' finds the name, cut before the 'é' 4096 splits: 4095 bytes, 5,238,806 more" \
    python3 "$records" big find gigantic 1 'Gigantic lens mounts é' 4095 5238806
expect "... 'clamp' finds the key: 4096 bytes kept, 31,453,199 more" \
    python3 "$records" big find clamp 0 'huge clamp key k k' 4096 31453199
expect "... 'clash' finds the conflict, its title cut" \
    python3 "$records" big find clash 3 'clash key w w' 4096 '*'
expect "... every record's URL, the long id's too, names a page holding its anchor" \
    python3 "$records" big urls

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node and playwright-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
# The browser's cases, on the example and on the generated store of
# 10,000 facts (tests/browser/search_gen.json: a key, a value, a
# project's name, a typo, plurals, each with its first result; issue 69).
browser() {
	node "$MIRROR_TOP/tests/browser/search.test.js" "$@" > browser.log 2>&1
	status=$?
	awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
	T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
	if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
		RC=$status
		not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
	fi
}
browser "$T/site1"
browser "$T/gfull" "$MIRROR_TOP/tests/browser/search_gen.json"
