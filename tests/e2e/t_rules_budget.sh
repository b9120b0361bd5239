#!/bin/sh
# A rule's budget bounds its time whatever its SQL does (doc/rules.md,
# "Safe by construction"; issue 55, D2): one instr() or rtrim() over
# long strings is one VM step that took 19 s and 88 s, a sort of 400
# values of 15 MB took 58 s, and all three were recorded "ok". Now the
# quadratic calls are refused past their bound of work, the sort stops
# at the rule's deadline, each is a failed rule naming what it passed,
# and the build goes on and writes the site. A rule using the same
# functions within bounds gives what SQLite gives.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
# 2 million steps: a deadline of 2.4 s.
MIRROR_RULE_STEPS=2 MIRROR_WRAP="timeout 90" \
    mirror build --store ex.db --out site --rules "$MIRROR_TOP/tests/rules/budget"
expect_status "the build with hostile rules ends (well under 90 s) and succeeds" 0
run_row() {
	sql ex.db "SELECT status || '|' || coalesce(error, '') FROM rule_runs WHERE rule_id = '$1' AND sweep_run = (SELECT id FROM sweep_runs ORDER BY rowid DESC LIMIT 1)"
}
expect "a quadratic instr() is a failed rule naming the function and its bound" \
    test "$(run_row quadratic-instr)" = "failed|instr() of 2000000 and 1000001 bytes: past the bound of a rule's call of it (62500062500 units of work, at most 134217728; doc/rules.md)"
expect "a quadratic rtrim() is a failed rule naming the function and its bound" \
    test "$(run_row quadratic-trim)" = "failed|rtrim() of 200000 and 200001 bytes: past the bound of a rule's call of it (40000200000 units of work, at most 134217728; doc/rules.md)"
expect "a huge sort is a failed rule naming the budget of time" \
    test "$(run_row huge-sort)" = "failed|ran past its budget of time, 2.4 s for 2 million SQLite steps (MIRROR_RULE_STEPS sets it)"
expect "the huge sort stopped near its deadline (under 20 s)" \
    test "$(sql ex.db "SELECT duration_ms < 20000 FROM rule_runs WHERE rule_id = 'huge-sort'")" = 1
expect "each failure is one stderr line naming the rule and its file" sh -c \
    "grep -c '^mirror: rule \(quadratic-instr\|quadratic-trim\|huge-sort\) (.*budget/[a-z]*.sql:1): ' '$T/err' | grep -qx 3"
want=$(sql ex.db "SELECT count(*) FROM entities e WHERE instr(e.name, 'a') > 0 AND replace(e.name, 'a', 'b') LIKE '%b%' AND trim(e.name, 'x') GLOB '*' AND e.name LIKE '%a%' ESCAPE '\\'")
expect "a rule using instr, replace, trim, like and glob within bounds finds what SQLite finds" \
    test "$(run_row fine-instr)|$(sql ex.db "SELECT hits FROM rule_runs WHERE rule_id = 'fine-instr'")" = "ok||$want"
expect "the starter rules still run" \
    test "$(sql ex.db "SELECT count(*) FROM rule_runs WHERE status = 'ok' AND origin NOT LIKE '%budget/%'")" = 11
expect "the site is written" test -f site/index.html
