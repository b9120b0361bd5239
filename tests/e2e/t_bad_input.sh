#!/bin/sh
# The bad-input matrix of SPEC section 7 in one place, one numbered case
# per kind of bad input (issue 7). Each case runs what a CI job runs,
# `mirror build --store S --out site --repo repo.git`, against a site and a
# repository a good build made first, and asserts together: the exit
# status of SPEC section 2, exactly one line on stderr ("mirror: ...")
# naming what and where, and the store, the output directory and the
# repository byte-identical to before (hashed). The store cases run
# `mirror sweep` on the same file too (same status, one line, nothing
# written). Two rows are not failures by design and say so: a value
# megabytes long is rendered, cut at 4 KiB with a note (the JSON files
# too); hostile project ids get slug pages inside the site.
#
# Older, narrower cases live on in t_store.sh, t_sweep.sh, t_build.sh,
# t_build_repo.sh and t_site_paths.sh; this is the matrix.
# The promises of doc/reliability.md, "Bad input".
# The promises of doc/reliability.md, "Values the writer could not write".
# The promises of doc/reliability.md, "A huge value in the JSON files".
# The promises of doc/store.md, "Bad input".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # no user's global git config leaks in
export SOURCE_DATE_EPOCH=1700000000
author="Mirror Bot <bot@example.org>"

new_store good.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
git init -q --bare repo.git
mirror build --store good.db --out site --repo repo.git --author "$author"
if [ "$RC" -ne 0 ]; then
	not_ok "a good build makes the site and the repository the cases start from"
	exit 1
fi
# Fault-injected copies start from a swept store, so a sweep that did run
# would show as a change.
cp good.db base.db

# begin PATH...: a new case; remember the state of PATHs.
begin() {
	why=""
	watched="$*"
	before=$(state "$@")
}

# end NAME: one numbered case: ok when every run matched and the watched
# paths are byte-identical to what begin saw.
end() {
	# shellcheck disable=SC2086 # the watched paths hold no blanks
	changed=$(printf '%s\n%s\n' "$before" "$(state $watched)" | LC_ALL=C sort |
	    uniq -u | cut -d' ' -f1 | uniq | tr '\n' ' ')
	[ -z "$changed" ] || why="$why; changed: $changed"
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1" "${why#; }"; fi
}

# try CODE PATTERN ARGS...: run mirror ARGS; it must exit CODE with one
# stderr line "mirror: ..." matching the grep -E PATTERN.
try() {
	code=$1 pattern=$2
	shift 2
	mirror "$@"
	result "$code" "$pattern" "$1"
}

# try_build CODE PATTERN STORE [ARGS...]: try the CI job's build of STORE
# into site and repo.git.
try_build() {
	code=$1 pattern=$2 store=$3
	shift 3
	try "$code" "$pattern" build --store "$store" --out site --repo repo.git \
	    --author "$author" "$@"
}

# try_store CODE PATTERN STORE: try the build, then a sweep of STORE.
try_store() {
	try_build "$@"
	try "$1" "$2" sweep --store "$3"
}

# nobody ARGS...: mirror ARGS as an unprivileged user (root ignores file
# modes), checked as by try.
nobody() {
	code=$1 pattern=$2
	shift 2
	as_nobody "$@"
	result "$code" "$pattern" "$1 as nobody"
}

# result CODE PATTERN WHAT: add to $why what is wrong with the last run.
result() {
	lines=$(wc -l < "$T/err")
	[ "$RC" = "$1" ] || why="$why; $3: exit $RC, not $1"
	[ "$lines" -eq 1 ] || why="$why; $3: $lines lines on stderr"
	grep -Eq "^mirror: .*$2" "$T/err" ||
	    why="$why; $3: stderr '$(head -c 200 "$T/err")' does not match '$2'"
}

chmod 755 "$T"    # for the cases run as nobody

# 1. A store that does not exist: named, and not created.
begin missing.db site repo.git
try_store 2 'missing\.db: no such file' missing.db
end "missing store: exit 2 naming the file, nothing created"

# 2. A file that is not SQLite.
printf 'hello, not a database\n' > text.db
begin text.db site repo.git
try_store 2 'text\.db: not an SQLite database' text.db
end "not an SQLite file: exit 2 naming the file"

# 3. Truncated and corrupt stores.
head -c 8192 base.db > truncated.db
cp base.db corrupt.db
# Keep the header, overwrite the schema page.
awk 'BEGIN { for (i = 0; i < 400; i++) printf "garbage" }' |
    dd of=corrupt.db bs=1 seek=100 conv=notrunc 2>/dev/null
begin truncated.db corrupt.db site repo.git
try_store 2 'truncated\.db: .*(malformed|truncated|corrupt|not a database)' truncated.db
try_store 2 'corrupt\.db: .*(malformed|corrupt|not a database)' corrupt.db
end "truncated and corrupt stores: exit 2 naming the file"

# 4. A store the user may read but not write, when the sweep must write.
# The output directory (beside which the staging directory goes) and the
# repository belong to that user, or they would be refused first.
mkdir ro nbout && cp base.db ro/ro.db && chmod 755 ro && chmod 644 ro/ro.db
cp -a site nbout/site
chown -R 65534:65534 nbout repo.git
begin ro nbout repo.git
nobody 2 'ro/ro\.db: read-only' build --store ro/ro.db --out nbout/site --repo repo.git --author "$author"
nobody 2 'ro/ro\.db: read-only' sweep --store ro/ro.db
end "a read-only store the sweep must write: exit 2 naming it"
chown -R 0:0 repo.git

# 5. A mirror schema version newer than this mirror.
cp base.db future.db
sql future.db "UPDATE mirror_meta SET value = '99' WHERE key = 'schema_version'"
begin future.db site repo.git
try_store 2 'future\.db: mirror schema version 99 is newer' future.db
end "unknown mirror schema version: exit 2 naming file and version"

# 6. A required table and a required column missing.
cp base.db notable.db && sql notable.db 'DROP TABLE memories'
cp base.db nocol.db && sql nocol.db 'DROP INDEX mirror_entity_windows; ALTER TABLE entities DROP COLUMN properties'
begin notable.db nocol.db site repo.git
try_store 2 "notable\.db: missing required table 'memories'" notable.db
try_store 2 "nocol\.db: table 'entities' lacks required column 'properties'" nocol.db
end "a required table or column missing: exit 2 naming table and column"

# 7. A careless writer: the contract's NOT NULL taken out of the schema
# text (the file format stays as it is), then a NULL written.
cp base.db null.db
sqlite3 -bail null.db "PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'value       TEXT NOT NULL', 'value TEXT')
    WHERE name = 'project_state';" &&
sqlite3 -bail null.db "INSERT INTO project_state(id, project, category, key, value)
    VALUES('s-null', 'p05-interferometer', 'fact', 'k', NULL)" || exit 1
begin null.db site repo.git
try_store 2 "null\.db: project_state row 's-null': value is NULL" null.db
end "NULL in a NOT NULL column: exit 2 naming table, row and column"

# 8. Invalid JSON in properties: of a component, which the sweep reads
# for its claim, and of a vendor, which only the page reads.
cp base.db json.db
sql json.db "INSERT INTO entities(id, entity_type, name, project, properties)
    VALUES('e-json', 'component', 'x', 'p05-interferometer', '{\"a\":')"
cp base.db json2.db
sql json2.db "INSERT INTO entities(id, entity_type, name, project, properties)
    VALUES('e-json2', 'vendor', 'x', 'p05-interferometer', '{\"a\":')"
begin json.db json2.db site repo.git
try_store 2 "json\.db: entities row 'e-json': properties is not (valid JSON|a JSON object)" json.db
try_build 2 "json2\.db: entities row 'e-json2': properties is not valid JSON" json2.db
end "invalid JSON in properties: exit 2 naming table, row and column"

# 8b. Values the row check refuses though SQLite and jansson take them,
# so the build fails before its sweep writes, not while it writes the
# JSON files (issue 55, D4): properties nested 1,500 deep (jansson reads
# 2048; the row check allows 64 levels, STOREROW_JSON_DEPTH) and 65 deep,
# and a confidence of 9e999, which SQLite keeps as Inf and JSON cannot
# hold. 64 levels build (in a DIR of their own).
# nest N: a JSON object nested N levels deep.
nest() { python3 -c "import sys; n = int(sys.argv[1]); print('{\"a\":' * n + '1' + '}' * n)" "$1"; }
for d in 1500 65 64; do
	cp base.db deep$d.db
	sql deep$d.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1;
INSERT INTO entities(id, entity_type, name, project, properties)
    VALUES('e-deep', 'component', 'x', 'p05-interferometer', '$(nest $d)')"
done
cp base.db inf.db
sql inf.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1;
INSERT INTO memories(id, memory_type, content, project, confidence)
    VALUES('m-inf', 'knowledge', 'x', 'p05-interferometer', 9e999)"
begin deep1500.db deep65.db inf.db site repo.git
try_build 2 "deep1500\.db: entities row 'e-deep': properties nests deeper than 64 levels" deep1500.db
try_build 2 "deep65\.db: entities row 'e-deep': properties nests deeper than 64 levels" deep65.db
try_build 2 "inf\.db: memories row 'm-inf': confidence is not a finite number" inf.db
mirror build --store deep64.db --out deep64site
[ "$RC" = 0 ] && jq -e '[.. | objects | select(has("a"))] | length == 64' \
    deep64site/api/projects/p05-interferometer.json >/dev/null ||
    why="$why; properties 64 levels deep: exit $RC, not built whole"
end "JSON nested past 64 levels, an infinite number: exit 2 naming table, row and column; 64 levels build"

# 9. Invalid UTF-8 in a text column. (The build only: 'mirror sweep'
# alone does not check UTF-8 and succeeds.)
cp base.db utf8.db
sql utf8.db "INSERT INTO memories(id, memory_type, content, project)
    VALUES('m-utf8', 'knowledge', CAST(X'6f6bff20c328' AS TEXT), 'p05-interferometer')"
begin utf8.db site repo.git
try_build 2 "utf8\.db: memories row 'm-utf8': content is not valid UTF-8" utf8.db
end "invalid UTF-8: exit 2 naming table, row and column"

# 9b. Bad rows in three tables, checked whole (a build into a new DIR,
# which has no record of what changed): the error is the first table's
# in the order project_state, entities, relationships, memories, whether
# two connections check them at once (two cores) or one in turn.
cp base.db multi.db
sql multi.db "INSERT INTO project_state(id, project, category, key, value)
    VALUES('s-utf8', 'p05-interferometer', 'fact', 'k9', CAST(X'6f6bff' AS TEXT));
INSERT INTO entities(id, entity_type, name, project, properties)
    VALUES('e-json3', 'vendor', 'x', 'p05-interferometer', '{\"a\":');
INSERT INTO memories(id, memory_type, content, project)
    VALUES('m-utf8b', 'knowledge', CAST(X'6f6bff' AS TEXT), 'p05-interferometer')"
cp multi.db multi2.db
sql multi2.db "DELETE FROM project_state WHERE id = 's-utf8'"
for jobs in 2 1; do
	export MIRROR_JOBS=$jobs
	begin multi.db multi2.db site repo.git
	try 2 "multi\.db: project_state row 's-utf8': value is not valid UTF-8" \
	    build --store multi.db --out fresh
	try 2 "multi2\.db: entities row 'e-json3': properties is not valid JSON" \
	    build --store multi2.db --out fresh
	[ ! -e fresh ] || why="$why; a new DIR was made"
	end "bad rows in three tables (MIRROR_JOBS $jobs): exit 2 naming the first table's"
done
unset MIRROR_JOBS

# 10. A value of 5 MiB is not an error: it is rendered cut at 4 KiB with a
# note, in bounded memory, and the site stays small.
cp base.db big.db
python3 -c "
v = 'x' * (5 << 20)
print(\"INSERT INTO project_state(id, project, category, key, value) VALUES('s-big', 'p05-interferometer', 'fact', 'big', '%s');\" % v)
print(\"INSERT INTO memories(id, memory_type, content, project) VALUES('m-big', 'knowledge', '%s', 'p05-interferometer');\" % v)
" | sqlite3 -bail big.db || exit 1
why=""
if [ -z "$MIRROR_WRAP" ] && [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M %e' -o time.txt "$MIRROR" build --store big.db --out bigsite \
	    --repo repo.git --branch big --author "$author" >"$T/out" 2>"$T/err"
	RC=$?
else
	mirror build --store big.db --out bigsite --repo repo.git --branch big --author "$author"
fi
[ "$RC" = 0 ] || why="$why; exit $RC"
[ -s "$T/err" ] && why="$why; stderr: $(head -c 200 "$T/err")"
page=bigsite/projects/p05-interferometer/index
for twin in md html; do
	n=$(grep -c 'x … \\\{0,1\}(5238784 bytes more' "$page.$twin")
	[ "$n" = 2 ] || why="$why; $n cut notes in the .$twin twin, not 2"
done
size=$(wc -c < "$page.html")
[ "$size" -lt 100000 ] || why="$why; the overview is $size bytes"
# The JSON twin cuts them as the pages do, marked inside the string
# (doc/site.md), so no file of the site is large.
big=$(find bigsite -type f -size +100k)
[ -z "$big" ] || why="$why; large files: $big"
n=$(jq '[.. | strings | select(endswith("x \u2026 (5238784 bytes more)"))] | length' \
    bigsite/api/projects/p05-interferometer.json)
[ "$n" = 2 ] || why="$why; $n cut values in the project's JSON, not 2"
figures="not measured under MIRROR_WRAP"
if [ -s time.txt ]; then
	read -r rss secs < time.txt
	# Two values of 5 MiB: about 100 MiB (each is held some ten times on
	# its way into the JSON twin), not a copy per page; AddressSanitizer's
	# shadow memory and quarantine add a few hundred.
	limit=262144
	grep -q __asan_init "$MIRROR" && limit=1048576
	[ "$rss" -lt "$limit" ] || why="$why; peak RSS $rss KiB, limit $limit"
	figures="peak RSS $((rss / 1024)) MiB, $secs s"
fi
if [ -z "$why" ]; then ok "a 5 MiB value: built, cut at 4 KiB with a note in both twins and the JSON ($figures)"
else not_ok "a 5 MiB value is built and cut" "${why#; }"; fi

# 11. Hostile project ids: pages under slugs inside the site, one
# overview each; nothing written outside the output directory.
cp base.db ids.db
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "x" }')
sql ids.db "INSERT INTO projects(id, name) VALUES('../../etc', 'up'), ('con', 'dev'),
    ('CON.txt', 'dev2'), ('/abs', 'abs'), ('..', 'dots'), ('.', 'dot'),
    ('a/b\\c', 'seps'), ('nul', 'nul'), ('$long', 'long'), ('.git', 'git'),
    ('-rf', 'opt'), ('../../../../../../tmp/evil', 'deep');
INSERT INTO project_state(id, project, category, key, value)
    SELECT 'st-' || name, id, 'fact', 'k', 'v' FROM projects WHERE id NOT LIKE 'p0%';"
mkdir -p hostile/a/b/c/work
why=""
(cd hostile/a/b/c/work && $MIRROR_WRAP "$MIRROR" build --store "$T/ids.db" --out site \
    --repo "$T/repo.git" --branch ids --author "$author" >"$T/out" 2>"$T/err")
RC=$?
[ "$RC" = 0 ] || why="$why; exit $RC"
[ -s "$T/err" ] && why="$why; stderr: $(head -c 200 "$T/err")"
outside=$(cd hostile && find . -mindepth 1 | grep -v '^\./a/b/c/work/site/' |
    grep -Ev '^\./a(/b(/c(/work(/site)?)?)?)?$')
[ -z "$outside" ] || why="$why; written outside the site: $outside"
[ ! -e /tmp/evil ] || why="$why; /tmp/evil exists"
bad=$(cd hostile/a/b/c/work && find site | grep -Ev '^site(/[a-z0-9._-]+)*$' | head -3)
[ -z "$bad" ] || why="$why; unsafe names: $bad"
site=hostile/a/b/c/work/site
for id in ../../etc con CON.txt /abs .. . 'a/b\c' nul "$long" .git -rf ../../../../../../tmp/evil; do
	slug=$(cat "$site"/api/projects/*.json |
	    jq -r --arg id "$id" 'select(.project.id == $id) | .project.slug')
	[ -n "$slug" ] && [ -f "$site/projects/$slug/index.html" ] ||
	    why="$why; no overview for '$id'"
done
git --git-dir=repo.git fsck --strict --no-progress >/dev/null 2>&1 || why="$why; git fsck fails"
if [ -z "$why" ]; then ok "hostile project ids (../../etc, con, /abs, .., .git, ...): slug pages inside the site, nothing outside"
else not_ok "hostile project ids stay inside the site" "${why#; }"; fi

# 12. A template with an unknown placeholder: found before the sweep
# writes (the store has something new to sweep).
mkdir tpl && printf '# {{project.name}}\n\n{{project.nope}}\n' > tpl/project.md
cp base.db tpl.db
sql tpl.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1"
begin tpl.db tpl site repo.git
try_build 2 "tpl/project\.md:3: unknown placeholder 'project\.nope'" tpl.db --templates tpl
end "unknown template placeholder: exit 2 naming template, line and name"

# 12b. The same in the A-Z pages, which render on a thread and a store
# connection of their own beside the other families (gen/site/families.h)
# when there are two cores, and in turn with one.
mkdir tpl_atoz && printf '# {{label}}\n\n{{nope}}\n' > tpl_atoz/atoz_letter.md
for jobs in 2 1; do
	export MIRROR_JOBS=$jobs
	begin tpl.db tpl_atoz site repo.git
	try_build 2 "tpl_atoz/atoz_letter\.md:3: unknown placeholder 'nope'" \
	    tpl.db --templates tpl_atoz
	end "unknown placeholder in the A-Z pages (MIRROR_JOBS $jobs): exit 2 naming template, line and name"
done
unset MIRROR_JOBS

# 12c. The same in the projects list (projects/index.md and its pages),
# a template of its own that every build renders.
mkdir tpl_list && printf '# {{order_words}}\n\n{{nope}}\n' > tpl_list/projects.md
begin tpl.db tpl_list site repo.git
try_build 2 "tpl_list/projects\.md:3: unknown placeholder 'nope'" \
    tpl.db --templates tpl_list
end "unknown placeholder in the projects list: exit 2 naming template, line and name"

# 13. --repo that is not a repository (an empty directory).
mkdir notrepo
cp base.db norepo.db
sql norepo.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1"
begin norepo.db notrepo site repo.git
try 3 'notrepo' build --store norepo.db --out site --repo notrepo --author "$author"
end "--repo not a repository: exit 3 naming it"

# 14. A stale lock on the branch: reported, never removed.
cp base.db lock.db
sql lock.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1"
: > repo.git/refs/heads/mirror.lock
begin lock.db site repo.git
try_build 3 'refs/heads/mirror\.lock' lock.db
try_build 3 'refs/heads/mirror\.lock' lock.db --no-sweep
end "a stale refs/heads/mirror.lock: exit 3 naming the lock, which stays"
rm repo.git/refs/heads/mirror.lock

# 15. The output directory a symlink, or in a directory the user cannot
# write (the staging directory goes beside it). As nobody, who owns the
# store (in a directory of its own, for the journal), the old site and
# the repository, but not the site's parent.
cp base.db out.db
sql out.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1"
ln -s site sitelink
mkdir nb parent && cp out.db nb/out.db && cp -a site parent/site && chmod 755 parent
begin out.db site sitelink nb parent repo.git
try 2 'sitelink.*(symbolic link|symlink)' build --store out.db --out sitelink --repo repo.git --author "$author"
chown -R 65534:65534 nb parent/site repo.git
nobody 2 'parent/site: parent directory parent is not writable' build --store nb/out.db --out parent/site --repo repo.git --author "$author"
chown -R 0:0 nb parent/site repo.git
end "output directory a symlink or not writable: exit 2 naming it"

# 16. A file already named like DIR's lock that is not mirror's: a hard
# link to another file, or a file holding something other than a pid.
# Refused, and never truncated or written.
cp base.db lk.db
sql lk.db "UPDATE project_state SET value = 'changed' WHERE rowid = 1"
printf 'precious data\n' > precious.txt
ln precious.txt .site.mirror-lock
begin lk.db site repo.git precious.txt
try_build 3 '\.site\.mirror-lock: a file with other names \(hard links\)' lk.db
end "a hard link where DIR's lock goes: exit 3 naming it, the file untouched"
rm .site.mirror-lock
printf 'my notes\n' > .site.mirror-lock
begin lk.db site repo.git .site.mirror-lock
try_build 3 '\.site\.mirror-lock: a file holding something other than a mirror lock' lk.db
end "a foreign file where DIR's lock goes: exit 3 naming it, not truncated"
# A lock a crashed build left (its pid, no holder) is taken over.
printf '999999\n' > .site.mirror-lock
mirror build --store lk.db --out site --repo repo.git --author "$author"
expect "a stale lock with a dead build's pid is taken over" test "$RC" = 0
rm -f .site.mirror-lock

# 17. A DIR name near NAME_MAX (255 bytes): its lock and staging names
# are shortened with a hash, so it builds, twice (the second reuses it).
long=$(printf 'd%.0s' $(seq 1 250))
mirror build --store base.db --out "$long" --no-sweep
expect "a 250-byte DIR name builds" sh -c "[ $RC = 0 ] && test -f '$long/index.html'"
mirror build --store base.db --out "$long" --no-sweep --force
expect "... and builds again into the same DIR, leaving no side files" sh -c \
    "[ $RC = 0 ] && test \$(ls -A | grep -c '^\.d.*mirror-\(stage\|old\|lock\)') = 0"

# 18. Tunables from the environment: a bad value is a usage error naming
# the variable, before anything runs.
for v in MIRROR_JOBS=abc MIRROR_JOBS=0 MIRROR_JOBS=65 MIRROR_BUSY_TIMEOUT_MS=-5 \
    MIRROR_BUSY_TIMEOUT_MS=' 10' MIRROR_LOCK_TIMEOUT_MS=1e3 \
    MIRROR_QUERY_TIMEOUT_MS=0; do
	name=${v%%=*}
	begin base.db site repo.git
	env "$v" "$MIRROR" build --store base.db --out site --repo repo.git \
	    --author "$author" >"$T/out" 2>"$T/err"
	RC=$?
	result 1 "environment variable $name='.*' is not a whole number of [a-z]+ from [0-9]+ to [0-9]+" "$v"
	end "$v: exit 1 naming the variable, nothing touched"
done

MIRROR_JOBS= MIRROR_LOCK_TIMEOUT_MS= mirror build --store base.db --out emptyenv --no-sweep
expect "an empty tunable (VAR= cmd) means unset" test "$RC" = 0

# 19. A base URL that is not http(s) with a host never reaches the
# sitemap or the feed.
for u in 'javascript:alert(1)//' 'data:text/html,x' 'https://' 'http://x/"onmouseover="a'; do
	begin base.db site repo.git
	try_build 1 "--base-url: '" base.db --base-url "$u"
	end "--base-url '$u': exit 1, nothing written"
done

# 20. A config file that starts with a UTF-8 byte-order mark is read.
printf '\357\273\277store = base.db\nout = bomsite\n' > bom.ini
mirror --config bom.ini build --no-sweep
expect "a config file with a UTF-8 BOM is read" sh -c "[ $RC = 0 ] && test -f bomsite/index.html"
