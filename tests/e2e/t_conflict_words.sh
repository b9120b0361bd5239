#!/bin/sh
# A conflict said in words (doc/site.md, "Conflicts in words"): its page
# and the review queue name the slot and every side as found, with where
# it comes from and the value now where it differs; the project page
# every side's value as the store holds it now; after the disputed value
# is edited twice they show the last value, not the one between.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000

new_store s.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
mirror build --store s.db --out site
expect_status "the store builds" 0
page=site/conflicts/c-5e1a.md
expect "the page's title names the slot, its values and the project's name" \
    grep -qxF '# lateral support material: GF-PTFE vs PEEK — P05 Interferometer' "$page"
expect "it names every side with where it comes from" \
    grep -qxF '**lateral support material**: **GF-PTFE** (trusted state: design review 3, 2024-03-01) vs **PEEK** (engineering record, 2024-03-02)' "$page"
expect "the trust order's favourite is said once, in words" sh -c \
    "grep -c 'trust order would keep \\*\\*GF-PTFE\\*\\* (trusted state' '$page' | grep -qx 1"
expect "no slug or fact id in the lead lines" sh -c \
    "! grep '^\*\*' '$page' | grep -q 'p05-interferometer\|\[s1\]\|e1'"

for v in 'PTFE rev 2' 'PTFE rev 3'; do
	sql s.db "UPDATE project_state SET value = '$v', updated_at =
	    '2024-04-01 00:00:00' WHERE id = 's1'"
	SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 86400)) \
	    mirror build --store s.db --out site
done
expect_status "a store edited twice builds" 0
open=$(jq -r '.conflicts[].conflict | select(.status == "open" and
    (.slot_key | index("lateral_support_material"))) | .id' \
    site/api/conflicts/projects/*.json)
expect "one open conflict on the slot" test "$(echo "$open" | wc -w)" = 1
page=site/conflicts/$open.md
expect "after two edits the page says the side as found and its last value" \
    grep -qxF '**lateral support material**: **GF-PTFE** (trusted state: design review 3, 2024-03-01; now: PTFE rev 3) vs **PEEK** (engineering record, 2024-03-02)' "$page"
expect "... and names no earlier value" sh -c \
    "! grep -q 'PTFE rev 2' '$page'"
expect "the project's queue shows the last value" \
    grep -qF '**GF-PTFE** (trusted state: design review 3, 2024-03-01; now: PTFE rev 3) vs **PEEK** (engineering record, 2024-03-02)' site/conflicts/projects/p05-interferometer.md
expect "the project page says it in the same form: the sides as found, each with its value now" \
    grep -qF "](../../conflicts/$open.md): **GF-PTFE** (trusted state: design review 3, 2024-03-01; now: PTFE rev 3) vs **PEEK** (engineering record, 2024-03-02)" site/projects/p05-interferometer/index.md
expect "the JSON's sides are the current ones" sh -c \
    "jq -e '.conflicts[] | select(.conflict.id == \"$open\") | [.members[].value_now] == [\"PTFE rev 3\", \"PEEK\"]' site/api/conflicts/projects/p05-interferometer.json >/dev/null"
