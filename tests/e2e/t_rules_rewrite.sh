#!/bin/sh
# Starter rules rewritten for speed (issue 68) find exactly what they
# found before: each rule of tests/data/rules/before/ (the rule text
# before its rewrite) and the rule of the same id in rules/ return the
# same rows (project, facts, message) on the store of hits and near
# misses, the example, the corner cases of the gaps and of the
# anachronisms (tests/data/rules/anachronisms_edges.sql) and a 10,000-fact
# bench store edited so that every rule finds something
# (tests/data/rules/rewrite_edits.sql), at three times and, for a rule
# with a days parameter, three values of it.
# The promises of doc/rules.md, "What they cost".
. "$MIRROR_TOP/tests/e2e/lib.sh"
rules="$MIRROR_TOP/rules"
before="$MIRROR_TOP/tests/data/rules/before"
tool="$MIRROR_TOP/tests/tools/rules_sql.py"
data="$MIRROR_TOP/tests/data/rules"

new_store ck.db "$data/checks.sql" || exit 1
new_store ge.db "$data/gaps_edges.sql" || exit 1
new_store ae.db "$data/anachronisms_edges.sql" || exit 1
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
bench_store be.db || exit 1
sqlite3 -bail be.db <"$data/rewrite_edits.sql" || exit 1

ids=$(python3 "$tool" check "$before" | cut -d' ' -f1)
expect "the rules rewritten are there to compare" test -n "$ids"
for id in $ids; do
	same=0 differ='' hits=0
	days=$(PYTHONPATH="$MIRROR_TOP/tests/tools" python3 -c "import rules_sql
r = [r for r in rules_sql.load('$before') if r['id'] == '$id'][0]
print('days=30 days=365' if 'days' in r['params'] else '')")
	for db in ck.db ge.db ae.db ex.db be.db; do
		for now in '2024-06-01 00:00:00' '2024-09-01 00:00:00' \
		    '2026-11-01 00:00:00'; do
			for p in '' $days; do
				python3 "$tool" run "$before" "$id" "$db" "$now" \
				    $p >old 2>&1
				python3 "$tool" run "$rules" "$id" "$db" "$now" \
				    $p >new 2>&1
				if cmp -s old new; then same=$((same + 1)); else
					differ="$differ $db@$now${p:+ $p}"; fi
				hits=$((hits + $(wc -l <new)))
			done
		done
	done
	if [ -z "$differ" ] && [ "$hits" -gt 0 ]; then
		ok "$id finds what it found before ($same runs, $hits rows)"
	else
		not_ok "$id finds what it found before" \
		    "differs on:$differ; rows in all: $hits"
	fi
done
