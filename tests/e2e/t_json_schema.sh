#!/bin/sh
# The JSON API has stated shapes: every JSON file under api/ of the
# example site and of a 10,000-fact bench site is valid against its
# schema in doc/schema/ (tests/tools/json_schema.py, Debian's
# python3-jsonschema); arrays are arrays and objects objects, never JSON
# text inside a string; numbers in their fewest digits; and the checks
# can fail.
# The promises of doc/site.md, "The JSON API".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
check="$MIRROR_TOP/tests/tools/json_schema.py"
schemas="$MIRROR_TOP/doc/schema"
# Debian's python3 has python3-jsonschema; another python3 first on PATH
# may not.
py=python3
python3 -c 'import jsonschema' 2>/dev/null || py=/usr/bin/python3

# With violations of made-up rules (tests/data/checks.sql), so that
# api/checks/ has files to check.
new_store ex.db "$MIRROR_TOP/site-example/example.sql" \
    "$MIRROR_TOP/tests/data/checks.sql" || exit 1
mirror build --store ex.db --out ex --quiet
expect_status "the example site builds" 0
bench_store bench.db || exit 1
mirror build --store bench.db --out bench --quiet
expect_status "the 10,000-fact bench site builds" 0

$py "$check" "$schemas" ex > ex.log 2>&1
expect "every JSON file of the example site is valid against its schema" \
    test $? -eq 0
sed -n '1,8s/^/#   /p' ex.log
$py "$check" "$schemas" bench > bench.log 2>&1
expect "every JSON file of the bench site is valid against its schema" \
    test $? -eq 0
sed -n '1,8s/^/#   /p' bench.log
expect "the bench site has conflict and project files to check" \
    sh -c "ls bench/api/conflicts/projects/*.json bench/api/projects/*.json | wc -l | grep -qv '^0$'"

# No string anywhere in api/ is JSON text: an array or object inside a
# string is the shape the schemas forbid.
$py - ex bench > packed.log <<'PY'
import json, os, sys
bad = 0
for site in sys.argv[1:]:
    for d, _, files in os.walk(os.path.join(site, "api")):
        for n in files:
            if not n.endswith(".json"):
                continue
            def walk(v, where):
                global bad
                if isinstance(v, dict):
                    for k, x in v.items():
                        walk(x, where + "." + k)
                elif isinstance(v, list):
                    for x in v:
                        walk(x, where + "[]")
                elif isinstance(v, str) and v[:1] in "[{":
                    try:
                        json.loads(v)
                    except ValueError:
                        return
                    print(f"{d}/{n}: {where} holds JSON text")
                    bad += 1
            walk(json.load(open(os.path.join(d, n))), "$")
sys.exit(1 if bad else 0)
PY
expect "no string in api/ holds JSON text (slot_key, source, properties)" \
    test $? -eq 0
sed -n '1,5s/^/#   /p' packed.log
expect "slot_key is an array and a member's source one line of text" \
    sh -c "jq -s -e '[.[].conflicts[] | (.conflict.slot_key | type == \"array\") and
        all(.members[]; .source | type == \"string\" or . == null)] | all' ex/api/conflicts/projects/*.json >/dev/null"

# The check can fail: a conflict whose slot_key is JSON text again, a
# project whose properties are a string, an api/ file of no known kind.
mkdir -p broken/api/conflicts/projects broken/api/projects
c=$(ls ex/api/conflicts/projects | head -1)
jq '.conflicts[0].conflict.slot_key |= tojson' "ex/api/conflicts/projects/$c" > "broken/api/conflicts/projects/$c"
$py "$check" "$schemas" broken > b1.log 2>&1
expect "a slot_key packed into a string fails the check" \
    sh -c "test $? -eq 1 && grep -q slot_key b1.log"
rm -f broken/api/conflicts/projects/*
p=$(ls ex/api/projects | tail -1)
jq '(.columns.entity | index("properties") + 1) as $i |
    .facts |= map(if .[0] == "entity" then .[$i] |= tojson else . end)' \
    "ex/api/projects/$p" > "broken/api/projects/$p"
$py "$check" "$schemas" broken > b2.log 2>&1
expect "entity properties packed into a string fail the check" \
    sh -c "test $? -eq 1 && grep -q properties b2.log"
rm -f broken/api/projects/*
echo '{}' > broken/api/other.json
$py "$check" "$schemas" broken > b3.log 2>&1
expect "an api/ file of no known kind fails the check" \
    sh -c "test $? -eq 1 && grep -q 'no schema' b3.log"

# Issue 59: every number in its fewest digits that read back the same
# (a confidence of 0.8 is 0.8, not 0.80000000000000004), so a diff shows
# a number only when it changed; and the check can fail.
digits="$MIRROR_TOP/tests/tools/json_digits.py"
$py "$digits" ex bench > digits.log 2>&1
expect "no JSON number of the example or bench site has digits to spare" \
    sh -c "test $? -eq 0 && grep -q '^json_digits: [1-9][0-9]* reals, 0 ' digits.log"
sed -n '1,4s/^/#   /p' digits.log
mkdir -p spare
printf '{"confidence": 0.80000000000000004, "n": 1.5}\n' > spare/x.json
$py "$digits" spare > digits2.log 2>&1
expect "a number with digits to spare fails the digits check" \
    sh -c "test $? -eq 1 && grep -q '0.80000000000000004 where 0.8' digits2.log"
exit 0
