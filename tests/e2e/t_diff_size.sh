#!/bin/sh
# Diffs as small as the change (issue 59, item 3): on copies of the
# example store, a build with --repo, then a small change and a second
# build; the changed lines between the two commits (git diff --numstat)
# of the files a reviewer reads, that is every file the site's own
# .gitattributes does not mark generated (-diff, linguist-generated),
# stay within a budget, and a change to one project touches no line of
# another project's files.
#
# Issue 59's budgets: (a) a change that opens a conflict, 150 lines;
# (b) one that opens none, 40; (c) two facts added with a conflict and a
# check, 250. They hold because a project's facts, conflicts and checks
# JSON, api/conflicts.json and api/health.json are rows (an entry a line),
# a check is a section of its project and rule's page, and the search
# index and the HTML twins are marked generated.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # no user's global git config leaks in
export MIRROR_CACHE_DIR="$T/cache"
ex="$MIRROR_TOP/site-example/example.sql"
author="Mirror Bot <bot@example.org>"
day1=1793491200                  # the example's clock: 2026-11-01
day2=$((day1 + 86400))           # the change comes a day later

# change NAME SQL: NAME.db, a copy of the example, built and committed
# on day 1 into NAME.git, then SQL applied and built again on day 2.
# NAME.ns holds the numstat of the second commit less generated files.
change() {
	new_store "$1.db" "$ex" || return 1
	git init -q --bare "$1.git"
	SOURCE_DATE_EPOCH=$day1 "$MIRROR" build --store "$1.db" --out "$1" \
	    --repo "$1.git" --author "$author" --quiet || return 1
	sql "$1.db" "$2" >/dev/null || return 1
	SOURCE_DATE_EPOCH=$day2 "$MIRROR" build --store "$1.db" --out "$1" \
	    --repo "$1.git" --author "$author" --quiet || return 1
	read_numstat "$1"
}

# read_numstat NAME: NAME.ns, the numstat of NAME.git's last commit
# without the files its .gitattributes marks generated. A bare
# repository has no work tree to read attributes from: they are asked
# of a scratch repository holding the commit's .gitattributes alone.
read_numstat() {
	rm -rf "$1.attr" && git init -q "$1.attr" &&
	git --git-dir="$1.git" show mirror:.gitattributes \
	    >"$1.attr/.gitattributes" &&
	git --git-dir="$1.git" diff --no-renames --numstat mirror~1 mirror >"$1.all" &&
	cut -f3 "$1.all" | (cd "$1.attr" &&
	    git check-attr --stdin diff linguist-generated) >"$1.attrs" &&
	awk -F'\t' 'NR == FNR { split($0, p, ": ")
	        if (p[3] != "unspecified") gen[p[1]] = 1; next }
	    !($3 in gen)' "$1.attrs" "$1.all" >"$1.ns"
}

# lines NAME: the changed lines (added plus deleted) in NAME.ns.
lines() { awk -F'\t' '{ s += $1 + $2 } END { print s + 0 }' "$1.ns"; }

# within NAME MAX: NAME's change is at most MAX lines; says the figure.
within() {
	n=$(lines "$1")
	echo "# $1: $n changed lines in the files a reviewer reads (at most $2)"
	[ "$n" -le "$2" ]
}

# untouched NAME PROJECT...: NAME's commit changed no file of PROJECT.
untouched() {
	f=$1
	shift
	for p in "$@"; do
		if grep -E "	(projects|api/projects|conflicts|checks/projects)/$p[/.]" \
		    "$f.ns"; then
			return 1
		fi
	done
}

# (a) A one-fact change that opens a conflict: the power budget in
# trusted state no longer agrees with the requirement entity.
change power "UPDATE project_state SET value = '7.5 W',
    updated_at = '2026-11-02 00:00:00' WHERE id = 'p04-st-power'" ||
	echo "# power: the change could not be built"
# open_of NAME REV: the open conflicts of p04-gigabit at REV of NAME.git.
open_of() {
	git --git-dir="$1.git" show "$2:api/conflicts.json" | jq \
	    '[.projects[] | select(.project == "p04-gigabit") | .open] | add // 0'
}
was=$(open_of power mirror~1) now=$(open_of power mirror)
expect "the power budget 6 W -> 7.5 W opens a conflict, a line of its project's file" \
    sh -c "grep -q '^[0-9]*	[0-9]*	api/conflicts/projects/p04-gigabit\.json$' power.ns &&
    [ '$now' -eq $((was + 1)) ]"
expect "a one-fact change that opens a conflict: at most 150 lines" \
    within power 150
expect "its message says the open totals after it" sh -c "
    git --git-dir=power.git log -1 --format=%b mirror |
    grep -qx 'Open now: 15 conflicts, 21 checks (0 errors, 21 warnings)'"
expect "it changes no line of another project's files" \
    untouched power p05-interferometer p06-polisher p03-alignment-jig

# (b) A one-fact change that opens none.
change location "UPDATE project_state SET value = 'Lab B016, isolated slab',
    updated_at = '2026-11-02 00:00:00' WHERE id = 'p05-st-location'" ||
	echo "# location: the change could not be built"
expect "the lab's location opens no conflict" sh -c \
    "! grep -q '	api/conflicts/' location.ns"
expect "a one-fact change that opens no conflict: at most 40 lines" \
    within location 40
expect "it changes no line of another project's files" \
    untouched location p04-gigabit p06-polisher p03-alignment-jig

# (c) Two facts added: a second power budget in trusted state that
# disagrees with the first (a new conflict) and a component with no
# material (a new check).
change added "INSERT INTO project_state(id, project, category, key, value,
        source, created_at, updated_at)
    VALUES ('p04-st-power-rev-c', 'p04-gigabit', 'requirement',
        'power_budget', '8 W', 'requirements spec rev C',
        '2025-02-20 11:00:00', '2025-02-20 11:00:00');
    INSERT INTO entities(id, entity_type, name, project, description,
        properties, source_refs, created_at, updated_at)
    VALUES ('p04-cmp-esd', 'component', 'ESD diode array', 'p04-gigabit',
        'Protects the SFP lines.', '{}', '[\"BOM rev D\"]',
        '2025-02-03 00:00:00', '2025-02-03 00:00:00')" ||
	echo "# added: the change could not be built"
expect "two facts added open a conflict and a check" test \
    "$(git --git-dir=added.git log -1 --format=%s mirror)" = \
    "2 facts added, 1 conflict opened, 1 check newly failing — p04-gigabit"
expect "two facts added, a conflict and a check: at most 250 lines" \
    within added 250
expect "it changes no line of another project's files" \
    untouched added p05-interferometer p06-polisher p03-alignment-jig
