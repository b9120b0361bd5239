#!/bin/sh
# t_search_rank.sh: search that finds, at size (issue 69, item 4). The
# bench generator's store of 40,000 facts and 200 projects, plus a
# person named three ways (an entity's name, a state value, a memory's
# words); in a real browser (tests/browser/search.test.js) ten realistic
# queries each have the expected FIRST result (tests/browser/
# search_rank.json): a fact's name, a value, a project's name (its own
# page, exact above prefix), a project's alias, a person, an entity's
# name (exact above prefix), a typo, a plural; and each loads at most
# 300 kB. The promises of doc/site.md, "Search" ("What it finds": a
# project's own page; "Ranking"; "Ranked over every match"). Before
# issue 69 item 4, five of the ten failed: "key 24" (a conflict "key 0
# of p3" first), "Project 133", "Project 7" (no project's page), "proj-42"
# (no result) and "key 4" (a conflict "key 41 of p14" first).
# A check's message of common words alone ("Files", "Bytes a query
# loads": each common term a shard of its own) loads at most 300 kB:
# 370 kB before, when their shards held the rarer terms about them
# (at 1,000,000 facts 440 kB, now 194); a common word with a layer
# filter ("mm", entity) stops at the first batch that shows a result:
# 395 kB before. The 1M figures: doc/performance.md,
# "Bytes a search query loads".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

bench_store gen.db 40000 || exit 1
sql gen.db "INSERT INTO entities(id, entity_type, name, project, description)
    VALUES ('e-ada', 'vendor', 'Ada Lovelace', 'p17', 'optics supplier contact');
  INSERT INTO project_state(id, project, category, key, value, source, status)
    VALUES ('s-ada', 'p90', 'contact', 'lead_contact', 'Ada Lovelace',
        'kickoff minutes', 'active');
  INSERT INTO memories(id, memory_type, content, project)
    VALUES ('m-ada', 'episodic', 'met Ada Lovelace about batch 12', 'p3');" ||
    exit 1
expect "the generated store has 200 projects and 40,000 facts or more" \
    test "$(sql gen.db "SELECT (SELECT count(*) FROM projects) = 200 AND
        (SELECT count(*) FROM project_state) + (SELECT count(*) FROM entities)
        + (SELECT count(*) FROM memories) >= 40000")" = 1
mirror build --store gen.db --out site --quiet
expect_status "the generated store of 40,000 facts builds" 0

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node and playwright-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
node "$MIRROR_TOP/tests/browser/search.test.js" "$T/site" \
    "$MIRROR_TOP/tests/browser/search_rank.json" > browser.log 2>&1
status=$?
awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
