#!/bin/sh
# Rules' text and parameters, strictly (doc/rules.md, "What a rule file
# may hold"; issues 55 and 56): a rule file or a mirror_rules row with
# invalid UTF-8 or a control character is refused at load, exit 2, naming
# the file and line (the row), before the store is touched; a store an
# older mirror poisoned with such a rule_runs row still builds (the row
# skipped with a warning); a byte order mark is skipped; an integer
# parameter outside 64 bits is an error naming file, line and parameter;
# a negative integer is bound as an integer; two parameters of one rule
# in mirror.ini are two keys.
# The promises of doc/reliability.md, "Rule files and the rule tables".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store s.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mkdir r

# rule FILE LABEL DESCRIPTION QUERY-LINE: a one-rule file (printf's
# escapes apply to all four texts).
rule() {
	printf -- "-- rule: t\n-- severity: warn\n-- label: $2\n-- description: $3\n$4\n" >"$1"
}
good_query="SELECT '' AS project, '[\"memory:x\"]' AS facts, 'm' AS message;"

# --- D3: bad text in a rule file is refused at load -------------------
runs=$(sql s.db "SELECT count(*) FROM sweep_runs")
for c in "description|lbl|caf\\351 bad|$good_query|4" \
    "label|caf\\351|d|$good_query|3" \
    "comment in the query|lbl|d|SELECT 1 AS x -- caf\\351\\n;|5" \
    "control character in the query|lbl|d|SELECT '\\001' AS x;|5" \
    "carriage return inside a line|lbl|d|SELECT 1\\r AS x;|5"; do
	what=${c%%|*}
	rest=${c#*|}
	label=${rest%%|*}
	rest=${rest#*|}
	desc=${rest%%|*}
	rest=${rest#*|}
	query=${rest%|*}
	line=${rest##*|}
	rm -f r/*
	rule r/bad.sql "$label" "$desc" "$query"
	mirror sweep --store s.db --rules r
	expect_error "bad text in a rule's $what: exit 2 naming file and line" \
	    2 "rules r/bad\.sql:$line: column [0-9]+ (is not valid UTF-8 text|holds a control character)"
done
expect "no refused rule file touched the store" \
    test "$(sql s.db "SELECT count(*) FROM sweep_runs")" = "$runs"
rm -f r/*
rule "$(printf 'r/caf\351.sql')" lbl d "$good_query"
mirror sweep --store s.db --rules r
expect_error "a rule file's name that is not UTF-8 is refused, exit 2" 2 \
    "rules r: a file name .*caf\\\\xe9\.sql.* is not valid UTF-8"
rm -f r/*
rule "$(printf 'r/a\001.sql')" lbl d "$good_query"
mirror sweep --store s.db --rules r
expect_error "a rule file's name with a control character is refused" 2 \
    "rules r: a file name .* holds a control character"
rm -f r/*

# --- a mirror_rules row with bad text is refused naming the row -------
cp s.db mr.db
sql mr.db "CREATE TABLE mirror_rules(id TEXT, severity TEXT, label TEXT,
    description TEXT, query TEXT);
  INSERT INTO mirror_rules VALUES ('mr', 'warn', 'l',
    CAST(x'636166e9' AS TEXT), 'SELECT 1');"
runs=$(sql mr.db "SELECT count(*) FROM rule_runs")
mirror sweep --store mr.db
expect_error "a mirror_rules row with invalid UTF-8 is refused naming it" 2 \
    "store mr\.db: mirror_rules row 'mr': description is not valid UTF-8"
expect "... and no rule_runs row was written" \
    test "$(sql mr.db "SELECT count(*) FROM rule_runs")" = "$runs"
sql mr.db "UPDATE mirror_rules SET description = 'd',
    query = 'SELECT 1' || char(7)"
mirror sweep --store mr.db
expect_error "a mirror_rules row with a control character is refused" 2 \
    "store mr\.db: mirror_rules row 'mr': query holds a control character"

# --- D3: a store an older mirror poisoned still builds ----------------
mirror build --store s.db --out site
expect_status "a build of the example store succeeds" 0
sql s.db "INSERT INTO rule_runs SELECT sweep_run, 'old-bad', origin, severity,
    label, CAST(x'636166ff' AS TEXT), query, status, error, hits, duration_ms
    FROM rule_runs LIMIT 1"
mirror build --store s.db --out site
expect_status "a build on a store with a bad rule_runs row succeeds" 0
expect "... with one warning naming the row it skips" test "$(cat "$T/err")" = \
    "mirror: warning: store s.db: rule_runs row 'old-bad': description is not valid UTF-8 text; the row is skipped"
mirror build --store s.db --out site2 --rules r
expect_status "... and with --rules too" 0
sql s.db "UPDATE rule_runs SET label = CAST(x'6c61ff62' AS TEXT)
    WHERE rowid = (SELECT max(rowid) FROM rule_runs WHERE rule_id = 'stale-state')"
mirror build --store s.db --out site --no-sweep
expect_status "a build --no-sweep reading the bad latest run of a rule succeeds" 0
expect "... and warns of that row" \
    grep -q "^mirror: warning: store s\.db: rule_runs row 'stale-state': label is not valid UTF-8 text; the row is skipped$" "$T/err"
mirror health --store s.db
expect_status "health reads the store" 0
mirror sweep --store s.db
expect_status "sweep runs" 0
expect "a sweep writes the starter rule's row again, valid" \
    test "$(sql s.db "SELECT label FROM rule_runs WHERE rule_id = 'stale-state' ORDER BY rowid DESC LIMIT 1")" = stale

# --- D3: a rule's rows may hold any bytes; what mirror writes is text --
cp s.db rows.db
cat >r/rows.sql <<'SQL'
-- rule: bad-rows
-- severity: warn
-- description: a project and a message that are not UTF-8
SELECT CAST(x'70ff' AS TEXT) AS project, json_array('entity:e1') AS facts,
       CAST(x'6dfe' AS TEXT) AS message;
SQL
mirror sweep --store rows.db --rules r
expect_status "a rule returning a project that is not UTF-8 runs" 0
expect "... its violation is stored as text (U+FFFD for the bad bytes)" \
    test "$(sql rows.db "SELECT hex(project) || ' ' || hex(message) FROM rule_violations WHERE rule_id = 'bad-rows'")" = "70EFBFBD 6DEFBFBD"
mirror build --store rows.db --out rows-site --rules r
expect_status "... and later builds read it" 0
rm -f r/*

# --- L6: a byte order mark is skipped -----------------------------------
printf '\357\273\277' >r/bom.sql
rule r/tail.sql lbl d "$good_query"
cat r/tail.sql >>r/bom.sql && rm r/tail.sql
mirror sweep --store s.db --rules r
expect_status "a rule file starting with a byte order mark is read" 0
expect "... and its rule runs, from line 1" \
    test "$(sql s.db "SELECT status || ' ' || origin FROM rule_runs WHERE rule_id = 't' ORDER BY rowid DESC LIMIT 1")" = "ok r/bom.sql:1"
rm -f r/*

# --- L7: an integer parameter outside 64 bits is an error ---------------
cat >r/big.sql <<'SQL'
-- rule: big
-- severity: warn
-- description: a parameter too large
-- param: v = 99999999999999999999999
SELECT '' AS project, '["memory:x"]' AS facts, :v AS message;
SQL
mirror sweep --store s.db --rules r
expect "a parameter past INT64_MAX fails its rule naming file, line, parameter" \
    grep -q "^mirror: rule big (r/big\.sql:1): line 4: param: v = 99999999999999999999999 is an integer outside the 64-bit range" "$T/err"
expect "... and is recorded failed, not run" \
    test "$(sql s.db "SELECT status FROM rule_runs WHERE rule_id = 'big' ORDER BY rowid DESC LIMIT 1")" = failed
sed 's/= 9999.*/= -9223372036854775809/' r/big.sql >r/big2.sql
mv r/big2.sql r/big.sql
mirror sweep --store s.db --rules r
expect "... and one below INT64_MIN" \
    grep -q "^mirror: rule big (r/big\.sql:1): line 4: param: v = -9223372036854775809 is an integer outside" "$T/err"
sed 's/= -9.*/= -9223372036854775808/' r/big.sql >r/big2.sql
mv r/big2.sql r/big.sql
mirror sweep --store s.db --rules r
expect "INT64_MIN itself is bound, as an integer" \
    test "$(sql s.db "SELECT message FROM rule_violations WHERE rule_id = 'big' AND status = 'open'")" = "-9223372036854775808"
printf 'param.big.v = 18446744073709551616\n' >mirror.ini
mirror sweep --store s.db --rules r
expect_error "a param.RULE.NAME past 64 bits is refused naming file, line, key" \
    2 "config mirror\.ini:1: param\.big\.v: 18446744073709551616 is an integer outside the 64-bit range"
rm -f r/* mirror.ini

# --- issue 56 (5): a negative integer parameter is an integer -----------
cat >r/neg.sql <<'SQL'
-- rule: neg
-- severity: warn
-- description: how a negative parameter compares
-- param: min = -5
SELECT '' AS project, '["memory:x"]' AS facts,
       typeof(:min) || ' ' || (-10 < :min) || (-1 < :min) AS message;
SQL
mirror sweep --store s.db --rules r
expect "-- param: min = -5 is bound as an integer (-10 < :min, not -1 < :min)" \
    test "$(sql s.db "SELECT message FROM rule_violations WHERE rule_id = 'neg' AND status = 'open'")" = "integer 10"
printf 'param.neg.min = -20\n' >mirror.ini
mirror sweep --store s.db --rules r
expect "param.neg.min = -20 in mirror.ini is an integer too" \
    test "$(sql s.db "SELECT message FROM rule_violations WHERE rule_id = 'neg' AND status = 'open'")" = "integer 00"

# --- issue 56 (6): two parameters of one rule in mirror.ini ------------
cat >r/two.sql <<'SQL'
-- rule: stale
-- severity: warn
-- description: two parameters
SELECT '' AS project, '["memory:x"]' AS facts,
       :days || ' ' || :status AS message;
SQL
printf 'param.stale.days = 30\nparam.stale.status = active\n' >mirror.ini
mirror sweep --store s.db --rules r
expect_status "two parameters of one rule in mirror.ini are accepted" 0
expect "... and both are bound" \
    test "$(sql s.db "SELECT message FROM rule_violations WHERE rule_id = 'stale' AND status = 'open'")" = "30 active"
printf 'param.stale.days = 30\nparam.stale.status = active\nparam.stale.days = 31\n' >mirror.ini
mirror sweep --store s.db --rules r
expect_error "the same rule and name twice is a duplicate key" 2 \
    "config mirror\.ini:3: duplicate key 'param\.stale\.days' \(first set at line 1\)"
rm -f mirror.ini
