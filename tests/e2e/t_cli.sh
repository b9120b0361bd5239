#!/bin/sh
# The command line as a newcomer meets it (issue 14, point 3): help for
# every command and subcommand, "did you mean" for what is mistyped,
# options refused where they do nothing (but not from a shared config
# file), bad values, --json on every command as exactly one document,
# --quiet printing nothing, --version naming the libraries, and the man
# page agreeing with the option table.
# The promises of doc/mirror.1, "DESCRIPTION".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T"                 # no user's global git config leaks in
export SOURCE_DATE_EPOCH=1700000000
data="$MIRROR_TOP/tests/data"
author="Mirror Bot <bot@example.org>"

# silent: the last run printed nothing at all.
silent() { [ ! -s "$T/out" ] && [ ! -s "$T/err" ]; }
# one_json FILTER: stdout is exactly one JSON document, nothing on stderr,
# and jq -e FILTER holds for it.
one_json() {
	[ ! -s "$T/err" ] && [ "$(jq -s length "$T/out")" = 1 ] &&
	    jq -e "$1" "$T/out" >/dev/null
}
# exact_error CODE LINE: exit CODE, stderr is exactly LINE, stdout empty.
exact_error() {
	[ "$RC" = "$1" ] && [ "$(cat "$T/err")" = "$2" ] && [ ! -s "$T/out" ]
}

new_store s.db "$data/site.sql" || exit 1
new_store r.db "$data/sweep/layers.sql" || exit 1

# --- help ---------------------------------------------------------------------
for c in init health sweep build serve; do
	mirror "$c" --help
	cp "$T/out" "help-$c.txt"
	expect "$c --help prints synopsis, options, exit status, example" sh -c "
	    [ $RC = 0 ] && [ ! -s '$T/err' ] &&
	    head -1 '$T/out' | grep -q '^usage: mirror $c --store PATH' &&
	    grep -qx 'options:' '$T/out' && grep -qx 'exit status:' '$T/out' &&
	    grep -qx 'example:' '$T/out' && grep -q '^  mirror $c ' '$T/out'"
	mirror "$c" -h
	expect "$c -h is the same help" cmp -s "$T/out" "help-$c.txt"
	mirror help "$c"
	expect "mirror help $c is the same help" cmp -s "$T/out" "help-$c.txt"
done
expect "build's help lists each option it takes, one line each" sh -c "
    for o in store out repo branch author templates theme base-url title \
        no-sweep check check-hosting force json quiet config help; do
	    [ \$(grep -c \"^  --\$o \" help-build.txt) = 1 ] || exit 1
    done"
expect "health's help lists no option health does not take" sh -c "
    ! grep -Eq '^  --(out|repo|notes|winner|status|check|force)\\b' help-health.txt"
expect "sweep's help gives exit status 4 for --check" \
    grep -q '^  4  open conflicts, open error checks or failed rules, with --check$' help-sweep.txt
expect "each --json line says what the command prints" sh -c "
    grep -q '^  --json  *print the sweep run record as JSON$' help-sweep.txt &&
    grep -q '^  --json  *print pages, conflicts, commit, timings as JSON$' help-build.txt"
for s in list show resolve dismiss; do
	mirror conflicts "$s" --help
	cp "$T/out" "help-$s.txt"
	mirror help conflicts "$s"
	expect "conflicts $s --help and mirror help conflicts $s agree" sh -c "
	    [ $RC = 0 ] && cmp -s '$T/out' 'help-$s.txt' &&
	    head -1 '$T/out' | grep -q '^usage: mirror conflicts $s'"
done
expect "resolve's help has --notes, --winner and --actor" sh -c "
    grep -q '^  --notes TEXT ' help-resolve.txt &&
    grep -q '^  --winner MEMBER_ID ' help-resolve.txt &&
    grep -q '^  --actor NAME ' help-resolve.txt"
expect "dismiss's help has --reason but not --winner" sh -c "
    grep -q '^  --reason TEXT ' help-dismiss.txt && ! grep -q -- '--winner' help-dismiss.txt"
mirror conflicts --help
expect "conflicts --help lists the four subcommands" sh -c "
    [ $RC = 0 ] && grep -qx 'subcommands:' '$T/out' &&
    [ \$(grep -cE '^  (list|show|resolve|dismiss) ' '$T/out') = 4 ]"
mirror help
cp "$T/out" help-global.txt
expect "mirror help prints the global usage" sh -c "
    [ $RC = 0 ] && [ ! -s '$T/err' ] &&
    head -1 '$T/out' | grep -qx 'usage: mirror \\[--config FILE\\] COMMAND \\[options\\]' &&
    grep -q \"See 'mirror help COMMAND'\" '$T/out'"
expect "the global usage lists every command and subcommand" sh -c "
    for c in init health sweep build serve 'conflicts list' 'conflicts show' \
        'conflicts resolve' 'conflicts dismiss' help; do
	    grep -q \"^  \$c \" help-global.txt || exit 1
    done"
mirror --help
expect "mirror --help is the global usage" cmp -s "$T/out" help-global.txt
mirror -h
expect "mirror -h is the global usage" cmp -s "$T/out" help-global.txt
mirror help help
expect "mirror help help is the global usage" cmp -s "$T/out" help-global.txt
mirror build --stor s.db --help
expect_error "a mistyped option still fails under --help" 1 "unknown option '--stor'"
cat help-*.txt | awk 'length > 79' >wide.txt
expect "no help text is wider than 79 columns" test ! -s wide.txt

# --- did you mean ---------------------------------------------------------------
mirror biuld
expect "an unknown command names the nearest one" exact_error 1 \
    "mirror: unknown command 'biuld'; did you mean 'build'? (see mirror help)"
mirror biuld site
expect "an unknown command with an argument is still the command" exact_error 1 \
    "mirror: unknown command 'biuld'; did you mean 'build'? (see mirror help)"
mirror helth --store s.db
expect "a dropped letter is near too" exact_error 1 \
    "mirror: unknown command 'helth'; did you mean 'health'? (see mirror help)"
mirror xyzzy
expect "nothing close: no suggestion" exact_error 1 \
    "mirror: unknown command 'xyzzy' (see mirror help)"
mirror build --stor s.db --out site
expect "an unknown option names the nearest one and the command's help" \
    exact_error 1 "mirror: unknown option '--stor'; did you mean '--store'? (see mirror help build)"
mirror --tempaltes t build
expect "an option before the command points at the global help" \
    exact_error 1 "mirror: unknown option '--tempaltes'; did you mean '--templates'? (see mirror help)"
mirror health --store s.db --bogus
expect "an option near nothing gets no suggestion" exact_error 1 \
    "mirror: unknown option '--bogus' (see mirror help health)"
mirror conflicts lsit --store s.db
expect "an unknown subcommand names the nearest one" exact_error 1 \
    "mirror: conflicts: unknown subcommand 'lsit'; did you mean 'list'? (see mirror help conflicts)"
mirror conflicts resolve c1 --notse x --store s.db
expect "an option of a subcommand points at its help" exact_error 1 \
    "mirror: unknown option '--notse'; did you mean '--notes'? (see mirror help conflicts resolve)"
mirror help biuld
expect "mirror help of a mistyped command suggests too" exact_error 1 \
    "mirror: unknown command 'biuld'; did you mean 'build'? (see mirror help)"
mirror help conflicts dimsiss
expect "mirror help of a mistyped subcommand suggests too" exact_error 1 \
    "mirror: conflicts: unknown subcommand 'dimsiss'; did you mean 'dismiss'? (see mirror help conflicts)"
mirror conflicts --store s.db
expect "conflicts without a subcommand names them" exact_error 1 \
    "mirror: conflicts: give one of list, show, resolve, dismiss (see mirror help conflicts)"

# --- options that do nothing here ---------------------------------------------
mirror health --store s.db --notes x
expect "an option the command does not take is refused, named" exact_error 1 \
    "mirror: health does not take --notes (see mirror help health)"
mirror sweep --store s.db --out site
expect_error "sweep does not take --out" 1 "sweep does not take --out "
mirror init --store new.db --check
expect_error "init does not take --check" 1 "init does not take --check"
expect "and the refused init created nothing" test ! -e new.db
mirror conflicts list --store s.db --winner w
expect_error "list does not take --winner" 1 "conflicts list does not take --winner"
mirror conflicts dismiss c1 --reason r --winner w --store s.db
expect "dismiss refuses --winner" exact_error 1 \
    "mirror: conflicts dismiss does not take --winner (see mirror help conflicts dismiss)"
mirror conflicts show c1 --notes n --store s.db
expect_error "show does not take --notes" 1 "conflicts show does not take --notes"
mirror build --store s.db --out site --branch pages
expect "--branch without --repo is refused" exact_error 1 \
    "mirror: build: --branch has no effect without --repo"
mirror build --store s.db --out site --author "$author"
expect "--author without --repo is refused" exact_error 1 \
    "mirror: build: --author has no effect without --repo"
expect "the refused builds wrote nothing" test ! -e site
mirror help build --json
expect_error "help takes no --json" 1 "help does not take --json"

# A shared mirror.ini names what health, sweep and build without --repo
# ignore: values from the file are never refused.
mkdir cfg
cat >cfg/mirror.ini <<EOF
store = ../s.db
out = site
repo = nowhere.git
branch = pages
author = $author
templates = nowhere
title = From the config
base_url = https://example.org/cfg/
EOF
cd cfg || exit 1
mirror health --quiet
expect "health with a ./mirror.ini naming out, repo, branch ... succeeds" silent
mirror sweep --quiet
expect "sweep with the same config succeeds" silent
mirror conflicts list --quiet
expect "conflicts list with the same config succeeds" silent
cd "$T" || exit 1
printf 'store = s.db\nout = site-cfg\nbranch = pages\nauthor = %s\n' "$author" >b.ini
mirror --config b.ini build --quiet
expect "build takes a config's branch and author without a repo" sh -c \
    "[ $RC = 0 ] && [ -f site-cfg/index.html ]"
git init -q --bare cfg.git
printf 'repo = cfg.git\n' >r.ini
mirror --config r.ini build --store s.db --out site-r --branch pages --author "$author" --quiet
expect "--branch on the command line with the config's repo commits" sh -c \
    "[ $RC = 0 ] && git --git-dir=cfg.git rev-parse -q --verify pages >/dev/null"

# --- bad values ---------------------------------------------------------------
mirror build --store s.db --out site --base-url 'not a url'
expect "a base URL that is not a URL is refused, named" exact_error 1 \
    "mirror: --base-url: 'not a url' holds a blank or control character"
for u in ftp://example.org/m https:// 'https://exa mple.org/' \
    'https://example.org/m?x=1' 'https://example.org/m#top' /relative/path; do
	mirror build --store s.db --out site --base-url "$u"
	expect_error "--base-url '$u' is refused" 1 "--base-url: '.*' (is not an absolute http\\(s\\) URL|has no valid host name|holds)"
done
expect "the refused builds left no site" test ! -e site
printf 'store = s.db\nout = site\nbase_url = example.org\n' >badurl.ini
mirror --config badurl.ini build
expect_error "a bad base_url in the config file is bad input naming it" 2 \
    "config badurl.ini:3: base_url: 'example.org' is not an absolute http\\(s\\) URL \\(like https://example.org/mirror\\)"
mirror build --store s.db --out u1 --base-url https://example.org/m --quiet
mirror build --store s.db --out u2 --base-url https://example.org/m/ --quiet
expect "with or without a trailing slash, the same site" \
    test "$(fingerprint u1)" = "$(fingerprint u2)"
expect "the feed's links are absolute under the base URL" \
    grep -q '<link rel="alternate" type="text/html" href="https://example.org/m/conflicts/index.html"/>' u1/feed.xml
mirror build --store s.db --out u3 --base-url HTTP://Example.ORG:8080 --quiet
expect_status "a port and an upper-case scheme are fine" 0
mirror build --store s.db --out u4 --base-url '' --quiet
expect "an empty base URL means relative links" sh -c \
    "[ $RC = 0 ] && ! grep -q 'https://' u4/feed.xml"
mirror build --store s.db --out site --theme nosuch
expect_error "an unknown theme is bad input" 2 "unknown theme 'nosuch'"
mirror build --store s.db --out site --templates /etc/passwd
expect_error "--templates that is not a directory is bad input" 2 "/etc/passwd: templates directory not found"
mirror build --store s.db --out site --templates "$T/nothing"
expect_error "--templates that does not exist is bad input" 2 "templates directory not found"
mirror conflicts list --store r.db --status bogus
expect "an unknown status is exit 2 naming the valid ones" exact_error 2 \
    "mirror: conflicts list: unknown status 'bogus' (open, resolved or dismissed)"
mirror conflicts list --store r.db --status opne
expect "a mistyped status is exit 2 with the nearest" exact_error 2 \
    "mirror: conflicts list: unknown status 'opne'; did you mean 'open'? (open, resolved or dismissed)"
"$MIRROR" sweep --store r.db --quiet
mirror conflicts list --store r.db --project nosuch
expect "an unknown project is exit 2" exact_error 2 \
    "mirror: no project 'nosuch' in r.db"
mirror conflicts list --store r.db --project nosuch --json
expect "an unknown project under --json: stdout empty, one error line" \
    exact_error 2 "mirror: no project 'nosuch' in r.db"
mirror conflicts list --store r.db --project p06 --json
expect "a project alias is known" one_json 'length == 1 and .[0].project == "p06-polisher"'
mirror conflicts list --store r.db --project p06-polisher --status dismissed --json
expect "a known project without conflicts is an empty list, exit 0" one_json 'length == 0'
mirror conflicts show NOSUCH --store r.db
expect_error "an unknown conflict is exit 2" 2 "no conflict 'NOSUCH'"

# --- --json on every command ------------------------------------------------------
mirror init --store j.db --json
expect "init --json: the store and its schema version" one_json \
    '.store == "j.db" and .schema_version == 2'
mirror health --store r.db --json
expect "health --json: counts, with open_conflicts_count" one_json \
    '.store == "r.db" and .open_conflicts_count == 5 and .resolved_conflicts == 0 and .sweep_runs == 1 and .layers.project_state.trust == 3'
mirror sweep --store s.db --json
expect "sweep --json: the run record" one_json \
    '(.id | startswith("sweep-20231114T221320")) and .started_at == "2023-11-14 22:13:20" and .open_after == 1 and .facts_scanned == 17 and .attempts == 1'
mirror build --store s.db --out js --json
cp "$T/out" build1.json
expect "build --json: pages, files, conflicts by status, no commit" one_json \
    '.store == "s.db" and .out == "js" and .rendered and .pages == 40 and .files.written == 98 and .files.reused == 0 and .conflicts == {"open": 1, "resolved": 1, "dismissed": 0} and .commit == null and .repo == null and .changes == null and (.snapshot | test("^[0-9a-f]{16}$"))'
expect "build --json: the sweep it ran" one_json \
    '.sweep.open_after == 1 and .sweep.started_at == "2023-11-14 22:13:20"'
expect "build --json: timings in ms per phase, and their total" one_json \
    '(.timings_ms | keys) == ["check", "commit", "lock", "read", "render", "swap", "sweep", "total"] and ([.timings_ms[] | select(type == "number" and . >= 0)] | length) == 8 and .timings_ms.total >= .timings_ms.render'
expect "build --json's snapshot is the one the site's stamp holds" \
    test "$(jq -r .snapshot build1.json)" = "$(jq -r .store_snapshot js/api/build.json)"
mirror build --store s.db --out js --json
expect "an unchanged build --json: nothing rendered, no sweep, files reused" one_json \
    '(.rendered | not) and .sweep == null and .pages == 40 and .files.written == 0 and .files.reused == 98 and .conflicts.open == 1 and .commit == null'
git init -q --bare site.git
mirror build --store s.db --out jr --repo site.git --author "$author" --json
expect "build --repo --json: the commit id the branch holds" one_json \
    ".repo == \"site.git\" and .branch == \"mirror\" and .commit == \"$(git --git-dir=site.git rev-parse mirror 2>/dev/null)\" and .changes.pages_added == 40 and .changes.pages_removed == 0"
mirror build --store s.db --out jr --repo site.git --author "$author" --json
expect "an unchanged build --repo --json: commit null" one_json \
    '.commit == null and .changes == null and .branch == "mirror"'
mirror build --store s.db --out jc --json --check
expect "build --json --check: exit 4, the document, one error line" sh -c "
    [ $RC = 4 ] && [ \"\$(jq -s length '$T/out')\" = 1 ] &&
    jq -e '.conflicts.open == 1' '$T/out' >/dev/null &&
    [ \$(wc -l <'$T/err') = 1 ] && grep -q '^mirror: build: 1 open conflicts (--check)$' '$T/err'"
lsm=$(sql r.db "SELECT id FROM conflicts WHERE slot_key LIKE '%pad_material%'")
seal=$(sql r.db "SELECT id FROM conflicts WHERE slot_key LIKE '%seal%'")
mirror conflicts list --store r.db --json
expect "conflicts list --json: one array" one_json \
    'type == "array" and length == 5 and all(.[]; .status == "open")'
mirror conflicts show "$lsm" --store r.db --json
expect "conflicts show --json: one object with its members" one_json \
    ".id == \"$lsm\" and .status == \"open\" and .members[0].id == \"s-pad\" and (.members | length) == 5"
mirror conflicts resolve "$lsm" --notes "pitch" --winner s-pad --actor alice --store r.db --json
expect "conflicts resolve --json: the closed conflict and rows superseded" one_json \
    ".id == \"$lsm\" and .status == \"resolved\" and .resolution == \"pitch\" and .resolved_by == \"alice\" and .superseded == 4"
mirror conflicts dismiss "$seal" --reason "two seals" --actor bob --store r.db --json
expect "conflicts dismiss --json: the closed conflict" one_json \
    ".id == \"$seal\" and .status == \"dismissed\" and .resolution == \"two seals\" and .resolved_by == \"bob\" and (has(\"superseded\") | not)"
mirror health --store nosuch.db --json
expect "an error under --json: stdout empty, one line on stderr" sh -c "
    [ $RC = 2 ] && [ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') = 1 ]"
mirror --version --json
expect "--version --json: mirror, the three libraries and the allocator" one_json \
    '(.mirror | test("^[0-9]+\\.[0-9]+\\.[0-9]+$")) and (keys == ["cmark-gfm", "libgit2", "malloc", "mirror", "sqlite"])'

# --- --quiet ----------------------------------------------------------------------
new_store q.db "$data/sweep/layers.sql"
mirror init --store q2.db --quiet
expect "init --quiet prints nothing" sh -c "[ $RC = 0 ] && [ -f q2.db ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ]"
mirror health --store q.db --quiet
expect "health --quiet prints nothing" silent
mirror sweep --store q.db --quiet
expect "sweep --quiet prints nothing (and sweeps)" sh -c \
    "[ $RC = 0 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ] && [ \"\$(sqlite3 q.db 'SELECT count(*) FROM conflicts')\" = 5 ]"
qid=$(sql q.db "SELECT id FROM conflicts WHERE slot_key LIKE '%pad_material%'")
qid2=$(sql q.db "SELECT id FROM conflicts WHERE slot_key LIKE '%seal%'")
mirror conflicts list --store q.db --quiet
expect "conflicts list --quiet prints nothing" silent
mirror conflicts show "$qid" --store q.db --quiet
expect "conflicts show --quiet prints nothing" silent
mirror conflicts resolve "$qid" --notes n --store q.db --quiet
expect "conflicts resolve --quiet prints nothing (and resolves)" sh -c \
    "[ $RC = 0 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ] && [ \"\$(sqlite3 q.db \"SELECT status FROM conflicts WHERE id = '$qid'\")\" = resolved ]"
mirror conflicts dismiss "$qid2" --reason r --store q.db --quiet
expect "conflicts dismiss --quiet prints nothing" silent
mirror build --store q.db --out qs --quiet
expect "build --quiet prints nothing (and builds)" sh -c \
    "[ $RC = 0 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ] && [ -f qs/index.html ]"
mirror build --store q.db --out qs --quiet
expect "an unchanged build --quiet prints nothing" silent
mirror build --store q.db --out qs --quiet --check
expect "build --quiet --check: only the error line" sh -c \
    "[ $RC = 4 ] && [ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') = 1 ]"
mirror health --store q.db --quiet --json
expect "--json --quiet: the JSON document, nothing else" one_json '.open_conflicts_count == 3'
mirror conflicts show c0 --store q.db --quiet
expect_error "--quiet still prints the error" 2 "no conflict 'c0'"

# --- --version --------------------------------------------------------------------
mirror --version
expect "--version: mirror X.Y.Z first, then the libraries it runs with" sh -c "
    [ $RC = 0 ] && [ \$(wc -l <'$T/out') = 5 ] &&
    sed -n 1p '$T/out' | grep -Eqx 'mirror [0-9]+\\.[0-9]+\\.[0-9]+' &&
    sed -n 2p '$T/out' | grep -Eqx 'cmark-gfm [0-9]+\\.[0-9]+\\.[0-9]+.*' &&
    sed -n 3p '$T/out' | grep -Eqx 'SQLite [0-9]+\\.[0-9]+\\.[0-9]+' &&
    sed -n 4p '$T/out' | grep -Eqx 'libgit2 [0-9]+\\.[0-9]+\\.[0-9]+'"
expect "the SQLite named is the library the sqlite3 shell loads too" \
    test "$(sed -n 3p "$T/out")" = "SQLite $(sqlite3 :memory: 'SELECT sqlite_version()')"
git2=$(sed -n 4p "$T/out" | cut -d' ' -f2 | cut -d. -f1-2)
# libgit2 is opened by the SONAME the binary holds (gen/gitlib), not
# linked: the version it names is that library's.
expect "the libgit2 named is the one the binary opens, not links" sh -c \
    "grep -aq 'libgit2\\.so\\.$git2' '$MIRROR' && ! ldd '$MIRROR' | grep -q libgit2"
# make links jemalloc, but not under the sanitizers (MALLOC=, Makefile)
if ldd "$MIRROR" | grep -q 'libjemalloc\.so'; then alloc='jemalloc [0-9]+\.[0-9]+\.[0-9]+'
else alloc='libc malloc'; fi
expect "the allocator named last is the one the binary is linked with" sh -c \
    "sed -n 5p '$T/out' | grep -Eqx '$alloc'"
mirror build --version
expect "--version after a command is the version too" sh -c \
    "[ $RC = 0 ] && head -1 '$T/out' | grep -q '^mirror '"

# --- the option table, the help texts and the man page agree ---------------------
man="$MIRROR_TOP/doc/mirror.1"
sed -n 's/^	\[CLI_[A-Z_]*\] = { "\(--[a-z-]*\)".*/\1/p' "$MIRROR_TOP/gen/cli/cli.c" | sort >table.txt
cat help-*.txt | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | sort -u >helped.txt
expect "the option table has every option (28)" test "$(wc -l <table.txt)" = 28
expect "every option in the table is in some command's help, and no other" \
    cmp -s table.txt helped.txt
expect "every option in the table is in the man page" sh -c "
    while read -r o; do grep -q \"^\\.It Fl \${o#-}\\b\" '$man' || { echo \"missing \$o\"; exit 1; }; done <table.txt"
expect "every command and subcommand is in the man page" sh -c "
    for c in init health sweep build serve 'conflicts list' 'conflicts show' \
        'conflicts resolve' 'conflicts dismiss' help; do
	    grep -q \"^\\.It Cm \$c\" '$man' || exit 1
    done"
expect "every environment variable mirror reads is in the man page" sh -c "
    cd '$MIRROR_TOP' && for v in \$(grep -ho 'getenv(\"[A-Z_]*\"\\|env_long(\"[A-Z_]*\"' core/*/*.c gen/*/*.c | grep -o '\"[A-Z_]*\"' | tr -d '\"' | sort -u); do
	    grep -q \"^\\.It Ev \$v\$\" '$man' || { echo \"missing \$v\"; exit 1; }
    done"
# man-db is a test package of scripts/install-deps.sh: no man, a failure.
expect "man --warnings formats the page without a word" sh -c \
    "command -v man >/dev/null && [ -z \"\$(man --warnings -l '$man' 2>&1 >/dev/null)\" ]"
