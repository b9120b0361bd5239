#!/bin/sh
# Promises of doc/*.md that no test checked (issue 71), each with the
# class it belongs to walked as a table: which files the rules loader
# takes and which rule a param.RULE.NAME reaches (doc/rules.md); a review
# queue exactly a page full and one more (doc/site.md, "The review
# queue"); what an error line names: the holder of DIR's lock
# (doc/reliability.md), the file and line of a bad setting or rule; the
# open totals every commit message carries (doc/history.md); what a
# read-only command leaves as it was (doc/store.md); the Host values
# serve answers (doc/site.md, "Previewing"). Mutants 72 to 77
# (tests/mutants/) each break one of them.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000 HOME="$T" GIT_CONFIG_NOSYSTEM=1
data="$MIRROR_TOP/tests/data"
bg=""
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null
    [ -n "$bg" ] && kill -CONT "$bg" 2>/dev/null; rm -rf "$T"' EXIT
new_store s.db "$data/site.sql" || exit 1

# === the rules loader: which files it takes ==================================
# doc/rules.md, "Where rules come from": every *.sql file in DIR, not
# its subdirectories, not a hidden file. Each file holds a rule of
# severity error named after its row: a rule taken that should not be
# shows in rule_runs (and would fail --check).
# rule_file PATH ID: a rule ID of severity error with one violation.
rule_file() {
	mkdir -p "$(dirname "$1")"
	printf -- '-- rule: %s\n-- severity: error\n-- description: %s\nSELECT %s AS project, %s AS facts, %s AS message;\n' \
	    "$2" "$2" "''" "'[\"memory:m1\"]'" "'$2'" >"$1"
}
mkdir r
while read -r file id taken; do
	rule_file "r/$file" "$id"
	eval "taken_$(echo "$id" | tr - _)=$taken"
done <<'EOF'
plain.sql t-plain yes
.draft.sql t-hidden-draft no
.x.sql t-hidden-swap no
plain.sql~ t-backup no
plain.sql.bak t-bak no
upper.SQL t-upper no
sub/deep.sql t-subdir no
sql t-bare no
EOF
mirror sweep --store s.db --rules r
ran=$(sql s.db "SELECT DISTINCT rule_id FROM rule_runs WHERE rule_id LIKE 't-%'")
for id in t-plain t-hidden-draft t-hidden-swap t-backup t-bak t-upper \
    t-subdir t-bare; do
	eval "want=\$taken_$(echo "$id" | tr - _)"
	if echo "$ran" | grep -qx -- "$id"; then got=yes; else got=no; fi
	file=$(grep -rl -- "rule: $id\$" r | sed 's,^r/,,')
	expect "rules loader: $file in --rules DIR is taken: $want" \
	    test "$got" = "$want"
done
rm -rf r/* r/.[!.]*

# === the rules loader: which rule a param.RULE.NAME reaches ==================
# doc/rules.md, "A rule file": param.RULE.NAME = VALUE overrides a
# default of RULE, and
# of no other rule, even one with a parameter of the same name.
# days_rule ID DEFAULT PARAM: a rule whose message is its :PARAM.
days_rule() {
	printf -- '-- rule: %s\n-- severity: warn\n-- description: %s\n-- param: %s = %s\nSELECT %s AS project, %s AS facts, :%s AS message;\n' \
	    "$1" "$1" "$3" "$2" "''" "'[\"memory:m1\"]'" "$3" >"r/$1.sql"
}
days_rule p-state 365 days
days_rule p-entity 365 days
days_rule p-weeks 5 weeks
# messages: the three rules' open messages, "STATE ENTITY WEEKS".
messages() {
	for id in p-state p-entity p-weeks; do
		sql s.db "SELECT message FROM rule_violations WHERE rule_id = '$id' AND status = 'open'"
	done | tr '\n' ' ' | sed 's/ $//'
}
while IFS='|' read -r ini want; do
	printf '%b' "$ini" >mirror.ini
	mirror sweep --store s.db --rules r
	got=$(messages)
	shown=$(printf '%s' "$ini" | sed 's/\\n$//; s/\\n/; /g')
	if [ "$RC" = 0 ] && [ "$got" = "$want" ]; then
		ok "param override '${shown:-none}' gives state, entity, weeks: $want"
	else
		not_ok "param override '${shown:-none}' gives state, entity, weeks: $want" \
		    "got: $got"
	fi
done <<'EOF'
|365 365 5
param.p-state.days = 30\n|30 365 5
param.p-entity.days = 7\n|365 7 5
param.p-state.days = 30\nparam.p-entity.days = 7\n|30 7 5
param.p-weeks.weeks = 2\n|365 365 2
param.p-state.days = 30\nparam.p-weeks.weeks = 2\n|30 365 2
EOF
rm -f mirror.ini
rm -rf r

# === paging edges of the review queue ========================================
# doc/site.md, "The review queue" (and doc/site.md, "The pages"): a
# page holds at most 300 entries; a project with more
# continues on <slug>.page-2 (and so on). Exactly 300 is one page, 301
# two, 600 two, 601 three; never an empty page.
# disagree DB N FROM: conflicts FROM+1 .. N of project p99-edge.
disagree() {
	sql "$1" "INSERT INTO project_state(id, project, category, key, value,
	    source, status, created_at, updated_at)
	  WITH RECURSIVE n(i) AS (SELECT $3 + 1 UNION ALL SELECT i + 1 FROM n
	    WHERE i < $2)
	  SELECT 'e-a-' || i, 'p99-edge', 'fact', 'Key_' || i, 'left',
	    'spec', 'active', '2024-01-01 00:00:00', '2024-01-01 00:00:00'
	    FROM n
	  UNION ALL
	  SELECT 'e-b-' || i, 'p99-edge', 'fact', 'Key_' || i, 'right',
	    'log', 'active', '2024-01-02 00:00:00', '2024-01-02 00:00:00'
	    FROM n"
}
# pages_ok N PAGES: the queue of p99-edge is PAGES pages, full but the
# last, no more, and page 1 says how many.
pages_ok() {
	q=site/conflicts/projects/p99-edge
	total=$(jq '.projects[] | select(.project == "p99-edge") | .total' \
	    site/api/conflicts.json)
	[ "$total" = "$1" ] || { echo "total $total"; return 1; }
	[ -f "$q.md" ] && [ ! -e "$q.page-$(($2 + 1)).md" ] || return 1
	k=1
	while [ $k -le "$2" ]; do
		f=$q.md
		[ $k -gt 1 ] && f=$q.page-$k.md
		want=300
		[ $k = "$2" ] && want=$(($1 - 300 * ($2 - 1)))
		[ "$(grep -c '^- \[' "$f")" = "$want" ] || return 1
		k=$((k + 1))
	done
	if [ "$2" = 1 ]; then
		! grep -q '^Pages:' "$q.md" && ! grep -q 'page 1 of' "$q.md"
	else
		grep -q "page 1 of $2)" "$q.md" &&
		    ! grep -q "page-$(($2 + 1))\.md" "$q.md"
	fi
}
have=0
while read -r n pages; do
	disagree s.db "$n" "$have"
	have=$n
	mirror build --store s.db --out site
	if [ "$RC" = 0 ] && pages_ok "$n" "$pages" >pages.log 2>&1; then
		ok "a queue of $n conflicts is $pages page(s), none empty"
	else
		not_ok "a queue of $n conflicts is $pages page(s), none empty" \
		    "$(cat pages.log)" "$(ls site/conflicts/projects/ | grep p99)"
	fi
done <<'EOF'
1 1
299 1
300 1
301 2
600 2
601 3
EOF

# === what an error line names ================================================
# doc/reliability.md, "Concurrency": a second build that gives up
# waiting for DIR's
# lock exits 3 naming the lock file and the holder's pid; a bad setting
# is named with its file and line (doc/site.md, mirror.ini); a bad rule
# with its id, file and line (doc/rules.md); doc/mirror.1, "EXIT STATUS":
# every failure prints one line naming what went wrong and where.
# hold: a mirror build of a large store into pub, stopped (SIGSTOP)
# while it holds pub's lock with its pid written; its pid in $bg.
hold() {
	bench_store big.db 10000 || return 1
	rm -rf pub .pub.mirror-lock
	$MIRROR_WRAP "$MIRROR" build --store big.db --out pub --quiet \
	    >hold.out 2>&1 &
	bg=$!
	i=0
	while [ $i -lt 2000 ]; do
		if [ -e .pub.mirror-lock ]; then
			kill -STOP "$bg"
			[ -s .pub.mirror-lock ] && return 0
			kill -CONT "$bg"
		fi
		kill -0 "$bg" 2>/dev/null || return 1
		sleep 0.005
		i=$((i + 1))
	done
	kill -STOP "$bg"
}
hold
holder=$bg
MIRROR_LOCK_TIMEOUT_MS=200 mirror build --store s.db --out pub --quiet
kill -CONT "$bg"
wait "$bg"
bg=""
expect_error "a build waiting past DIR's lock names its holder's pid" 3 \
    "pub: another build is writing it: \./\.pub\.mirror-lock is held by pid $holder \("
printf 'title = x\n\nbogus = 1\n' >mirror.ini
mirror sweep --store s.db
expect_error "an unknown key in mirror.ini names the file and line" 2 \
    "config mirror\.ini:3: unknown key 'bogus'"
printf 'param.ok.x = 1\nparam.Bad!.x = 2\n' >mirror.ini
mirror sweep --store s.db
expect_error "a bad param key in mirror.ini names the file and line" 2 \
    "config mirror\.ini:2: param\.Bad!\.x: want param\.RULE\.NAME"
rm -f mirror.ini
mkdir r
printf -- '-- a comment\n-- rule: t-broken\n-- severity: warn\n-- description: x\nSELEC nonsense;\n' >r/broken.sql
mirror sweep --store s.db --rules r
expect "a rule that does not parse is named with its id, file and line" \
    test "$(cat "$T/err")" = 'mirror: rule t-broken (r/broken.sql:2): line 5: near "SELEC": syntax error'
rm -rf r

# === what every commit message carries =======================================
# doc/history.md, "The message": the open totals on a line of their
# own in every
# message, whatever changed, so git log --grep='^Open now' lists them:
# a commit of a template change alone too, whose api/health.json did
# not change (its totals were missing until issue 71 found it).
A='Mirror Bot <mirror@example.org>'
new_store h.db "$data/site.sql" || exit 1
git init -q --bare h.git
mkdir -p tpl
cp "$MIRROR_TOP"/templates/*.md tpl/
epoch=1700000000
while IFS='|' read -r what change; do
	[ -n "$change" ] && eval "$change"
	epoch=$((epoch + 3600))
	before=$(git -C h.git rev-list --count mirror 2>/dev/null || echo 0)
	SOURCE_DATE_EPOCH=$epoch mirror build --store h.db --out hsite \
	    --repo h.git --author "$A" --templates tpl --quiet
	after=$(git -C h.git rev-list --count mirror 2>/dev/null || echo 0)
	if [ "$RC" = 0 ] && [ "$after" = $((before + 1)) ] &&
	    git -C h.git log -1 --format=%B mirror |
	    grep -Eqx 'Open now: [0-9]+ conflicts?, [0-9]+ checks? \(.*\)'; then
		ok "the commit of $what carries an 'Open now:' line"
	else
		not_ok "the commit of $what carries an 'Open now:' line" \
		    "commits $before -> $after" \
		    "$(git -C h.git log -1 --format=%B mirror 2>&1 | head -20)"
	fi
done <<'EOF'
the first build|
a fact changed|sql h.db "UPDATE project_state SET value = value || ' x' WHERE id = (SELECT min(id) FROM project_state)"
a row of no project changed|sql h.db "UPDATE memories SET content = content || ' again' WHERE id = 'm1'"
a template changed alone|printf '\nA line a template added.\n' >>tpl/project.md
a memory expired by the clock|sql h.db "INSERT INTO memories(id, memory_type, content, project, confidence, status, reference_count, valid_until, created_at, updated_at) VALUES ('m-soon', 'preference', 'short-lived', '', 0.5, 'active', 0, '2023-11-14 23:30:00', '2023-01-01 00:00:00', '2023-01-01 00:00:00')"
EOF
expect "git log --grep='^Open now' lists every commit" test \
    "$(git -C h.git log --grep='^Open now' --format=%H mirror | wc -l)" = \
    "$(git -C h.git rev-list --count mirror)"

# === what a read-only command leaves as it was ===============================
# doc/store.md, "Opening the store": the store is read-write only for
# the sweep and the review commands; reading commands (health,
# conflicts list and show, build --no-sweep) never change the file. Each is walked on a swept store, on an older one
# that mirror never wrote (no table of mirror's: it must not create
# them), and as a user who may read the store but not write it; the
# store's bytes must stay as they were. Show on the older store has no
# conflict to show: exit 2, saying no sweep has run.
new_store ro.db "$data/site.sql" || exit 1
mirror sweep --store ro.db
cp ro.db old.db
sql old.db "DROP TABLE conflict_members; DROP TABLE conflicts;
    DROP TABLE sweep_runs; DROP TABLE violation_facts;
    DROP TABLE rule_violations; DROP TABLE rule_runs; DROP TABLE mirror_meta"
cid=$(sql ro.db "SELECT id FROM conflicts ORDER BY id LIMIT 1")
mkdir -m 777 ro-out
chmod 644 ro.db old.db
while IFS='|' read -r who db want cmd; do
	before=$(sha256sum <"$db")
	case $who in
	owner) eval "mirror $cmd --store $db" ;;
	nobody) eval "as_nobody $cmd --store $T/$db" ;;
	esac
	after=$(sha256sum <"$db")
	expect "$cmd on the $db store as its $who: exit $want, the store as it was" \
	    test "$RC|$after" = "$want|$before"
done <<EOF2
owner|ro.db|0|health
owner|ro.db|0|conflicts list
owner|ro.db|0|conflicts show $cid
owner|ro.db|0|build --no-sweep --out ro-out/a
owner|old.db|0|health
owner|old.db|0|conflicts list
owner|old.db|2|conflicts show $cid
owner|old.db|0|build --no-sweep --out ro-out/b
nobody|ro.db|0|health
nobody|ro.db|0|conflicts list
nobody|ro.db|0|build --no-sweep --out $T/ro-out/c
nobody|old.db|0|health
EOF2
expect "... and the older store still has none of mirror's tables" \
    test "$(sql old.db "SELECT count(*) FROM sqlite_schema WHERE name IN ('conflicts', 'mirror_meta', 'sweep_runs')")" = 0

# === the Host values serve answers ===========================================
# doc/site.md, "Previewing: mirror serve": a request whose Host is not
# the bound address,
# 127.0.0.1, localhost or [::1] with the port gets 403 (the DNS-rebinding
# guard); without a Host header (HTTP/1.0) it is served.
: >serve.out
TMPDIR="$T" $MIRROR_WRAP "$MIRROR" serve --store s.db --port 0 \
    >serve.out 2>serve.err &
pid=$!
url=""
i=0
while [ $i -lt 600 ] && [ -z "$url" ]; do
	url=$(sed -n 's/^serving \(http:[^ ]*\) (Ctrl-C to stop)$/\1/p' serve.out)
	kill -0 "$pid" 2>/dev/null || break
	[ -z "$url" ] && sleep 0.1
	i=$((i + 1))
done
port=${url#http://127.0.0.1:}
port=${port%/}
while read -r host want; do
	code=$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' \
	    -H "Host: $host" "$url")
	if [ "$code" = "$want" ]; then ok "serve: Host: $host gets $want"; else
		not_ok "serve: Host: $host gets $want" "got $code from $url"; fi
done <<EOF
127.0.0.1:$port 200
localhost:$port 200
LocalHost:$port 200
[::1]:$port 200
localhost 403
127.0.0.1 403
[::1] 403
localhost:$((port + 1)) 403
evil.example:$port 403
localhost.evil.example:$port 403
EOF
kill "$pid"
wait "$pid"
pid=""
