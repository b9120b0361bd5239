# lib.sh: helpers for the end-to-end scripts (sourced, POSIX sh).
#
# Each t_*.sh script sources this, runs build/mirror ($MIRROR) on real
# store files in a private scratch directory $T, and reports numbered
# cases as "ok N - script: name" or "not ok N - script: name" followed by
# what was seen. tests/run.sh counts those lines.

: "${MIRROR:?run through tests/run.sh (make check)}"
: "${MIRROR_TOP:?}"
T_NAME=$(basename "$0" .sh)
T_N=0
T=$(mktemp -d "${TMPDIR:-/tmp}/mirror-$T_NAME.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# mirror ARGS...: run mirror, keep stdout in $T/out, stderr in $T/err and
# the exit status in $RC. Never fails by itself.
mirror() {
	$MIRROR_WRAP "$MIRROR" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}

ok() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $T_NAME: $1"
}

not_ok() {
	T_N=$((T_N + 1))
	echo "not ok $T_N - $T_NAME: $1"
	shift
	for line in "$@"; do echo "#   $line"; done
	echo "#   last exit status: ${RC:-none}"
	[ -f "$T/out" ] && sed -n '1,15s/^/#   out: /p' "$T/out"
	[ -f "$T/err" ] && sed -n '1,5s/^/#   err: /p' "$T/err"
}

# expect NAME COMMAND...: a case that passes when COMMAND succeeds.
expect() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name" "failed: $*"; fi
}

# expect_status NAME CODE: the last mirror run exited with CODE.
expect_status() {
	if [ "${RC:-x}" = "$2" ]; then ok "$1"; else
		not_ok "$1" "expected exit status $2"; fi
}

# expect_error NAME CODE PATTERN: exit CODE, and stderr is exactly one
# line "mirror: ..." matching the grep -E PATTERN.
expect_error() {
	lines=$(wc -l <"$T/err")
	if [ "${RC:-x}" = "$2" ] && [ "$lines" -eq 1 ] &&
	    grep -Eq "^mirror: .*$3" "$T/err"; then
		ok "$1"
	else
		not_ok "$1" "expected exit $2 and one error line matching '$3'"
	fi
}

# out_has PATTERN / err_has PATTERN: grep -E on the last run's output.
out_has() { grep -Eq -- "$1" "$T/out"; }
err_has() { grep -Eq -- "$1" "$T/err"; }

# new_store PATH [SQL_FILE...]: a fresh store via mirror init, then the
# SQL files applied with the sqlite3 shell.
new_store() {
	db=$1
	shift
	"$MIRROR" init --store "$db" --quiet >/dev/null || return 1
	for f in "$@"; do sqlite3 -bail "$db" <"$f" || return 1; done
}

# bench_store PATH [FACTS]: a fresh store filled by the benchmarks'
# generator (tests/bench/store_gen.sql) with FACTS facts, 10,000 unless
# told: 50 projects, their subsystems, decisions and conflicts.
bench_store() {
	new_store "$1" || return 1
	{ echo "CREATE TEMP TABLE bench_n(n); INSERT INTO bench_n VALUES(${2:-10000});"
	  cat "$MIRROR_TOP/tests/bench/store_gen.sql"; } |
	    sqlite3 -bail "$1" >/dev/null
}

# published DIR NEW: a new directory NEW holding only what a build reads
# of DIR's last build (api/projects/ and api/changes-unaudited.json: a
# fact changed with no audit row is found against them and kept in
# recent changes, doc/site.md "Recent changes"; and the first line of
# its marker, so that a build may write there, not the tree it names),
# so that a --force build into NEW is the whole render DIR's next build
# is compared with.
published() {
	rm -rf "$2" && mkdir -p "$2/api" || return 1
	[ ! -f "$1/.mirror-output" ] ||
	    head -n 1 "$1/.mirror-output" >"$2/.mirror-output" || return 1
	[ ! -d "$1/api/projects" ] || cp -R "$1/api/projects" "$2/api/" || return 1
	[ ! -f "$1/api/changes-unaudited.json" ] ||
	    cp "$1/api/changes-unaudited.json" "$2/api/"
}

# kept_text FILE: FILE's HTML with the writer's words kept whole
# (gen/render/markdown.h, (i): <span class="nobreak">TOKEN</span> and
# <time>DATE</time>) put back as their text, for a grep of a sentence.
kept_text() {
	sed -e 's#<span class="nobreak">\([^<]*\)</span>#\1#g' \
	    -e 's#<time>\([^<]*\)</time>#\1#g' "$1"
}

# sql DB STATEMENTS: run SQL with the sqlite3 shell, print the result.
sql() { sqlite3 -bail "$1" "$2"; }

# integrity_ok DB: PRAGMA integrity_check says ok.
integrity_ok() { [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ]; }

# fingerprint FILE_OR_DIR: a checksum of bytes (recursively), to prove
# that a failed run left something exactly as it was.
fingerprint() {
	if [ -d "$1" ]; then
		(cd "$1" && find . -type f | LC_ALL=C sort | xargs -r sha256sum |
		    sha256sum)
	else
		sha256sum <"$1"
	fi
}

# state PATH...: per PATH one line "PATH HASH", the hash over the bytes
# of every file under it and the names in it (so a file added or removed
# shows too); "PATH missing" when it does not exist.
state() {
	for p in "$@"; do
		if [ -e "$p" ] || [ -L "$p" ]; then
			printf '%s %s\n' "$p" "$( (fingerprint "$p"
			    if [ -d "$p" ]; then (cd "$p" && find . | LC_ALL=C sort); fi) |
			    sha256sum | cut -c1-16)"
		else
			printf '%s missing\n' "$p"
		fi
	done
}

# as_nobody ARGS...: run mirror ARGS as the unprivileged user nobody (root
# ignores file modes, so read-only cases need another user). The checkout
# may live in a directory nobody cannot enter (/root, a 0700 home), so the
# binary, its templates and themes are copied into $T first, laid out as
# an install (bin/, share/mirror/), and $T is opened to others. Output as
# the mirror function: $T/out, $T/err, $RC.
as_nobody() {
	if [ ! -x "$T/nobody/bin/mirror" ]; then
		mkdir -p "$T/nobody/bin" "$T/nobody/share/mirror" &&
		cp "$MIRROR" "$T/nobody/bin/mirror" &&
		cp -R "$MIRROR_TOP/templates" "$MIRROR_TOP/themes" \
		    "$T/nobody/share/mirror/" &&
		chmod -R a+rX "$T/nobody" && chmod 755 "$T" || {
			echo "as_nobody: cannot copy mirror into $T" >"$T/err"
			RC=99
			return
		}
	fi
	setpriv --reuid=65534 --regid=65534 --clear-groups $MIRROR_WRAP \
	    "$T/nobody/bin/mirror" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}

# table_labels SITE: check what a phone shows of every table of SITE's
# pages: a table with a kind's class (cols-...) has, for each column but the
# first whose header has text, a rule in SITE/assets/style.css showing
# "HEADER: " and no cell with a data-label; any other table's body cells
# but the first carry their column's header as data-label. Prints the
# count of tables with a class; fails (status 1, the first fault on
# stderr) otherwise.
table_labels() {
	python3 - "$1" <<'PY'
import glob, html, os, re, sys
site = sys.argv[1]
css = open(os.path.join(site, "assets/style.css"), encoding="utf-8").read()
def unesc(s):
    s = re.sub(r"\\([0-9A-Fa-f]{1,6}) ?", lambda m: chr(int(m.group(1), 16)), s)
    return re.sub(r"\\(.)", r"\1", s)
rules = {}
for m in re.finditer(r'\.(cols-[0-9a-f]{8}) td:nth-child\((\d+)\)::before '
                     r'\{ content: "((?:[^"\\]|\\.)*)"; \}', css):
    rules.setdefault(m.group(1), {})[int(m.group(2))] = unesc(m.group(3))
def text(h):
    return html.unescape(re.sub(r"<[^>]*>", "", h)).strip()
classed = 0
for f in sorted(glob.glob(os.path.join(site, "**/*.html"), recursive=True)):
    t = open(f, encoding="utf-8").read()
    for m in re.finditer(r"<table( class=\"([^\"]*)\")?>(.*?)</table>", t, re.S):
        heads = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", m.group(3), re.S)]
        # its kind's class (besides "in-section", markdown.h (h)), if any
        kinds = [c for c in (m.group(2) or "").split() if c.startswith("cols-")]
        cls, body = (kinds[0] if kinds else None), m.group(3)
        if cls is not None:
            classed += 1
            want = {i + 1: h + ": " for i, h in enumerate(heads) if i > 0 and h}
            if rules.get(cls) != want or "data-label" in body:
                sys.exit("%s: %s: rules %r, headers %r" % (f, cls, rules.get(cls), heads))
            continue
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>")[-1], re.S):
            for i, td in enumerate(re.findall(r"<td([^>]*)>", row)):
                lab = re.search(r'data-label="([^"]*)"', td)
                want = heads[i] if 0 < i < len(heads) and heads[i] else None
                if (html.unescape(lab.group(1)) if lab else None) != want:
                    sys.exit("%s: cell %d: %r, header %r" % (f, i, td, want))
print(classed)
PY
}
