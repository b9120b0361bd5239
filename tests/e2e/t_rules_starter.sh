#!/bin/sh
# The starter rules (rules/*.sql, doc/rules.md "The starter set"), run
# with the sqlite3 shell by tests/tools/rules_sql.py as the format of
# doc/rules.md says (header, one statement, :now and the parameters
# bound by name), in a read-only connection:
#   - every file parses, with the ids and severities documented;
#   - the three gap rules list exactly the gaps the overviews list, on the
#     example and on a store of corner cases (aliases, inactive and
#     missing ends, properties against edges, rows of no project), and a
#     gap rule with one condition dropped is caught;
#   - each other rule returns exactly its rows on a store of hits and near
#     misses (tests/data/rules/checks.sql), and the checks the example
#     was given (site-example/README.md, "Checks the starter rules find");
#   - on a 10,000-fact bench store every rule runs, returns the right
#     shape under the 100,000-row cap, and leaves the store as it was.
# The promises of doc/rules.md, "Anachronisms (`rules/anachronisms.sql`)".
# The promises of doc/rules.md, "Stale facts (`rules/stale.sql`)".
# The promises of doc/rules.md, "The link graph (`rules/links.sql`)".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
now='2026-11-01 00:00:00'
rules="$MIRROR_TOP/rules"
tool="$MIRROR_TOP/tests/tools/rules_sql.py"
data="$MIRROR_TOP/tests/data/rules"

# run ID DB [NAME=VALUE...]: the rule's rows as "project<TAB>facts".
run() {
	id=$1 db=$2
	shift 2
	python3 "$tool" run "$rules" "$id" "$db" "$now" "$@" | cut -f1,2
}

# rows NAME ID DB WANT [NAME=VALUE...]: a case that passes when rule ID
# returns exactly the rows WANT (lines "project<TAB>facts", sorted).
rows() {
	name=$1 id=$2 db=$3 want=$4
	shift 4
	got=$(run "$id" "$db" "$@" 2>&1)
	if [ "$got" = "$want" ]; then ok "$name"; else
		not_ok "$name" "rule $id returned:" "$got" "wanted:" "$want"; fi
}

python3 "$tool" check "$rules" >"$T/out" 2>"$T/err"
RC=$?
expect "every starter rule parses, with its documented id and severity" \
    sh -c "[ $RC -eq 0 ] && cut -d' ' -f1,2 '$T/out' | sort | tr '\n' ' ' |
    grep -qx 'claim-unsupported warn component-without-material warn decision-outside-window warn edge-outside-window warn requirement-unsatisfied warn result-before-model warn stale-entity warn stale-state warn supersede-chain warn supersede-cycle error supersedes-missing error '"

# ---- the gaps -------------------------------------------------------------
# gaps NAME SQL DIR N: build the site of a store made from SQL into DIR
# (store DIR.db); then a case that passes when the gap rules list its
# overviews' N gaps, no more.
gaps() {
	new_store "$3.db" "$2" || exit 1
	mirror build --store "$3.db" --out "$3" --quiet
	expect_status "$1: the site builds" 0
	python3 "$tool" gaps "$rules" "$3.db" "$now" "$3" >"$T/out" 2>"$T/err"
	RC=$?
	expect "$1: the gap rules list the overviews' $4 gaps, no more" \
	    sh -c "[ $RC -eq 0 ] && grep -qx '$4 gaps' '$T/out'"
}
gaps example "$MIRROR_TOP/site-example/example.sql" ex 16
gaps "corner cases" "$data/gaps_edges.sql" ge 18

# The comparison can fail: without "rows of no project are left out" the
# component rule names one more gap than the pages.
mkdir loose
sed "s/AND e.project <> ''//" "$rules/gaps.sql" >loose/gaps.sql
python3 "$tool" gaps loose ge.db "$now" ge >"$T/out" 2>"$T/err"
RC=$?
expect "a gap rule that also counts rows of no project is caught" \
    sh -c "[ $RC -eq 1 ] && grep -qx 'only in the rules: .*c-noproject (component with no material)' '$T/out'"

# ---- the other rules on their store of hits and misses ---------------------
new_store ck.db "$data/checks.sql" || exit 1

# ---- their check pages: the description with the values the run used ------
# placeholders DIR: the check and rule pages of DIR that show a ":name"
# outside a rule's query (a ':' after a letter, digit, '_' or ':' starts
# none).
placeholders() {
	for f in "$1"/checks/rules/*.md "$1"/checks/projects/*.md; do
		sed '/id="query"/,$d' "$f" |
		    grep -qE '(^|[^A-Za-z0-9_:]):[A-Za-z_]' && echo "$f"
	done
}
mirror build --store ck.db --out cksite --quiet
expect "a rule's page gives its description with its parameters' values" sh -c "
    grep -qF 'within the last 180 days, and this one was last updated at least 180 days before' cksite/checks/rules/stale-state.md &&
    grep -qF 'updated within the last 365 days, and this one was last updated at least 365 days' cksite/checks/rules/stale-entity.md"
bad=$(placeholders cksite)
expect "no check or rule page shows a :name placeholder outside a rule's query" \
    sh -c "[ -z '$bad' ] && [ -n \"\$(grep -lF ':days' cksite/checks/rules/*.md)\" ]"
printf 'param.stale-state.days = 100\n' > mirror.ini
mirror build --store ck.db --out cksite --quiet
rm mirror.ini
bad=$(placeholders cksite)
expect "a param.RULE.NAME override is the value the rule's page gives" sh -c "
    grep -qF 'within the last 100 days, and this one' cksite/checks/rules/stale-state.md &&
    ! grep -qF '180 days' cksite/checks/rules/stale-state.md && [ -z '$bad' ]"
tab=$(printf '\t')
rows "edge-outside-window: recorded after a window, windows that never meet" \
    edge-outside-window ck.db "pa${tab}[\"entity:w-2024\", \"entity:w-2027\", \"relationship:hit-disjoint\"]
pa${tab}[\"entity:w-2025\", \"relationship:hit-late\"]"
rows "decision-outside-window: by date, by created_at, superseded too" \
    decision-outside-window ck.db "a${tab}[\"entity:d-early\", \"entity:w-2027\", \"relationship:dhit-early\"]
pa${tab}[\"entity:d-late\", \"entity:w-2025\", \"relationship:dhit-late\"]
pa${tab}[\"entity:d-old\", \"entity:w-2025\", \"relationship:dhit-old\"]"
rows "result-before-model: by name through an alias, by id, by edge" \
    result-before-model ck.db "a${tab}[\"entity:am-fea\", \"entity:res-hit-name\"]
pa${tab}[\"entity:am-fea\", \"entity:res-hit-id\"]
pb${tab}[\"entity:am-fea\", \"entity:res-hit-edge\"]"
rows "stale-state: the row its family left behind, across an alias" \
    stale-state ck.db "a${tab}[\"project_state:st-spindle-stale\"]"
rows "stale-state: days = 150 also flags the row five months behind" \
    stale-state ck.db "a${tab}[\"project_state:st-spindle-stale\"]
pa${tab}[\"project_state:st-spindle-close\"]" days=150
rows "stale-entity: by part_of and by the subsystem property" \
    stale-entity ck.db "a${tab}[\"entity:x-stale-prop\"]
pa${tab}[\"entity:x-stale-edge\"]
pa${tab}[\"entity:y-stale\"]"
rows "supersede-cycle: a circle of three once, a self loop" \
    supersede-cycle ck.db "pb${tab}[\"relationship:cy-12\", \"relationship:cy-23\", \"relationship:cy-31\"]
pb${tab}[\"relationship:cy-ss\"]"
rows "supersedes-missing: a missing target, source, or both" \
    supersedes-missing ck.db "${tab}[\"relationship:dang-both\"]
pa${tab}[\"relationship:dang-source\"]
pa${tab}[\"relationship:dang-target\"]"
rows "supersede-chain: the two rows behind the head, none for a circle" \
    supersede-chain ck.db "pa${tab}[\"entity:s-a\"]
pa${tab}[\"entity:s-b\"]"
expect "supersede-chain names the current one, at the end of the replacements" sh -c "
    python3 '$tool' run '$rules' supersede-chain ck.db '$now' |
    grep -x 'pa${tab}\[\"entity:s-a\"\]${tab}A was superseded by B, itself superseded: the current one is D' >/dev/null"
rows "the gap rules find nothing on a store with no gaps" \
    component-without-material ck.db ""
new_store st.db "$data/stale_two.sql" || exit 1
expect "stale-entity: one row, one message, for an entity in two moved subsystems" sh -c "
    python3 '$tool' run '$rules' stale-entity st.db '$now' >'$T/st' &&
    test \$(wc -l <'$T/st') -eq 1 &&
    grep -qx 'q${tab}\[\"entity:x-two\"\]${tab}old part was last updated 2025-01-01, while new lens (same subsystem: Optics) was updated 2026-10-01' '$T/st'"

# ---- the example's checks ---------------------------------------------------
rows "example: the ripple result depends on a retired switching frequency" \
    edge-outside-window ex.db "p04-gigabit${tab}[\"entity:p04-par-fsw-1\", \"relationship:p04-res-ripple:depends_on:p04-par-fsw-1\"]"
rows "example: the derating decision names the 2025 supply limit" \
    decision-outside-window ex.db "p06-polisher${tab}[\"entity:p06-con-power-2025\", \"entity:p06-dec-spindle-derate\", \"relationship:p06-con-power-2025:affected_by_decision:p06-dec-spindle-derate\"]"
rows "example: the preliminary surface error is older than its model" \
    result-before-model ex.db "p05-interferometer${tab}[\"entity:p05-am-mount\", \"entity:p05-res-surface-prelim\"]"
rows "example: the spindle speed was left behind by the new bearings" \
    stale-state ex.db "p06${tab}[\"project_state:p06-st-spindle-max\"]"
rows "example: SFP, then SFP+, then SFP again: the first SFP's successor is superseded" \
    supersede-chain ex.db "p04-gigabit${tab}[\"entity:p04-dec-formfactor-sfp-1\"]"
for id in stale-entity supersede-cycle supersedes-missing; do
	rows "example: $id finds nothing" $id ex.db ""
done

# ---- every rule on a bench store ---------------------------------------------
bench_store b.db || exit 1
before=$(fingerprint b.db)
fails=
ids=$(python3 "$tool" check "$rules" | cut -d' ' -f1)
for id in $ids; do
	n=$(python3 "$tool" run "$rules" "$id" b.db "$now" 2>"$T/err" | wc -l) &&
	    [ ! -s "$T/err" ] && [ "$n" -le 100000 ] || fails="$fails $id"
done
expect "bench 10k: every rule runs read-only, in shape, under the row cap" \
    test -z "$fails"
expect "bench 10k: the store is byte-identical after the rules ran" \
    test "$(fingerprint b.db)" = "$before"
