#!/bin/sh
# A conflict named in one form everywhere (issue 70, item 2): "**name**:
# **X** (where from, date) vs **Y** (...)", the name as the store gives
# it (no capital made up), the values marked; its page titled with its
# values and leading with its state in words: open (since when, what the
# trust order would keep), resolved (who, when, what was kept, why, the
# kept row marked), dismissed (who, when, why), closed by the sweep (when
# and what closed it); its sides as they were found, with the value now
# where it differs. On the example store: the home page, the four states'
# pages, the review queue, changes.md and a search result's title.
# The promises of doc/site.md, "Conflicts in words".
. "$MIRROR_TOP/tests/e2e/lib.sh"

new_store s.db "$MIRROR_TOP/site-example/example.sql" || exit 1
SOURCE_DATE_EPOCH=1793491200 mirror build --store s.db --out site
expect_status "the example builds" 0
id() { sql s.db "SELECT id FROM conflicts WHERE slot_key LIKE '%$1%' ORDER BY rowid DESC LIMIT 1"; }
ref=$(id serdes_refclk) lat=$(id lateral_support) pad=$(id polishing_pad) fpga=$(id fpga_part)

# --- open ------------------------------------------------------------------
expect "the home page names a conflict in the one form, the store's name, values marked" \
    grep -qxF -e "- [**fpga part**: **XC7A100T** (trusted state: BOM rev C, 2025-05-05) vs **XC7A35T** (memory, 2025-02-10) vs **XC7A50T** (memory, 2025-04-14)](conflicts/$fpga.md)" site/index.md
expect "... and asks no long question" sh -c "! grep -q 'Which is right for' site/index.md"
expect "the home page's HTML marks the values" \
    grep -qF '<strong>XC7A100T</strong> (trusted state: BOM rev C, <time>2025-05-05</time>) vs <strong>XC7A35T</strong>' site/index.html
expect "an open conflict's page is titled with its values and project" \
    grep -qxF '# serdes refclk frequency: 125 MHz vs 156.25 MHz — P04 Gigabit Link' "site/conflicts/$ref.md"
expect "... and so is its HTML <title>" \
    grep -qF "<title>serdes refclk frequency: 125 MHz vs 156.25 MHz — P04 Gigabit Link ($ref)" "site/conflicts/$ref.html"
expect "... it leads with since when it is open and what the trust order would keep, once" sh -c \
    "grep -qxF '**Open since 2026-11-01.** The trust order would keep **125 MHz** (trusted state: design review 2025-06-12); which side is right?' site/conflicts/$ref.md &&
     test \$(grep -c 'trust order' site/conflicts/$ref.md) = 1"
expect "... then the conflict in the one form" \
    grep -qxF '**serdes refclk frequency**: **125 MHz** (trusted state: design review 2025-06-12) vs **156.25 MHz** (engineering record: meeting 2025-11-24)' "site/conflicts/$ref.md"
expect "the project's review queue names it in the same form" \
    grep -qF "[**fpga part**](../$fpga.md): **XC7A100T** (trusted state: BOM rev C, 2025-05-05) vs **XC7A35T** (memory, 2025-02-10)" site/conflicts/projects/p04-gigabit.md
expect "a search result names a conflict in the one form: its name, then X vs Y (search.js shows title: value)" \
    grep -qF '"lateral support material","GF-PTFE vs PEEK"' site/search/d-*.js

# --- closed by the sweep, resolved, dismissed --------------------------------
sql s.db "UPDATE entities SET properties = json_set(properties, '\$.value', '125 MHz') WHERE id = 'p04-dec-refclk-156'"
SOURCE_DATE_EPOCH=1793491300 mirror build --store s.db --out site
SOURCE_DATE_EPOCH=1793491400 mirror conflicts resolve "$lat" --store s.db \
    --notes 'FEA rev C confirms GF-PTFE' --winner p05-st-lateral-support-material --actor ada
SOURCE_DATE_EPOCH=1793491500 mirror conflicts dismiss "$pad" --store s.db \
    --reason 'two pads, both in use' --actor bob
SOURCE_DATE_EPOCH=1793491600 mirror build --store s.db --out site
expect_status "the store edited, resolved and dismissed builds" 0
p=site/conflicts/$ref.md
expect "closed by the sweep: the page says when and what closed it" \
    grep -qxF "**Closed by the sweep on 2026-11-01 00:01**: disagreement gone: entity p04-dec-refclk-156 now says '125 MHz'" "$p"
expect "... its sides as found, the value now only where it differs" \
    grep -qxF '**serdes refclk frequency**: **125 MHz** (trusted state: design review 2025-06-12) vs **156.25 MHz** (engineering record: meeting 2025-11-24; now: 125 MHz)' "$p"
expect "... and so does its table, in one value column" \
    grep -qF '| engineering record: meeting 2025-11-24 | 156.25 MHz · now: 125 MHz | active |' "$p"
p=site/conflicts/$lat.md
expect "resolved: who, when, what was kept and why lead the page" \
    grep -qxF '**Resolved by ada on 2026-11-01 00:03**, keeping **GF-PTFE** (trusted state: design review 2025-11-04): FEA rev C confirms GF-PTFE' "$p"
expect "... the kept row is marked in the table, the other is not" sh -c \
    "grep -qF '| trusted state: design review 2025-11-04 · **kept** | GF-PTFE |' '$p' && test \$(grep -c 'kept\*\*' '$p') = 1"
expect "... and no 'contradicts' or question once closed" sh -c "! grep -q 'contradicts\|which side is right' '$p'"
expect "dismissed: who, when and why lead the page, then the conflict in the one form" sh -c "
    grep -qxF '**Dismissed by bob on 2026-11-01 00:05**: two pads, both in use' site/conflicts/$pad.md &&
    grep -qxF '**material of Polishing pad**: **Optical pitch (Gugolz 73)** (engineering record: process review 2026-03-09) vs **Polyurethane pad (IC1000)** (engineering record: process notes, 2025-07-08)' site/conflicts/$pad.md"
expect "changes.md names a conflict in the one form, its sides as found" \
    grep -qF "[**serdes refclk frequency**: **125 MHz** (trusted state: design review 2025-06-12) vs **156.25 MHz** (engineering record: meeting 2025-11-24)](conflicts/$ref.md)" site/changes.md
expect "... and the resolved one too" \
    grep -qF "[**lateral support material**: **GF-PTFE** (trusted state: design review 2025-11-04) vs **PEEK** (engineering record: mount FEA report; meeting 2026-01-19)](conflicts/$lat.md) · by ada" site/changes.md

# --- store text stays data -------------------------------------------------
sql s.db "UPDATE memories SET content = 'FPGA part is **XC7A35T** [x](y)' WHERE id = 'mem-know-fpga-35t'"
sql s.db "UPDATE conflict_members SET value_snapshot = '**XC7A35T** [x](y)' WHERE member_id = 'mem-know-fpga-35t'"
SOURCE_DATE_EPOCH=1793491700 mirror build --store s.db --out site
expect "a value with Markdown in it is escaped inside the marks" \
    grep -qF '**\*\*XC7A35T\*\* \[x\](y)** (memory, 2025-02-10)' "site/conflicts/$fpga.md"
expect "... and shows as its text in the HTML" \
    grep -qF '<strong>**XC7A35T** [x](y)</strong>' "site/conflicts/$fpga.html"
exit 0
