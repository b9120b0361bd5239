#!/bin/sh
# t_readme.sh: the README says what is true.
#
# Every output block of README.md (a ```text block, each preceded by a
# comment "<!-- output of: WHAT -->") is compared with what really
# happens:
#   quickstart N  the README's ```sh blocks marked "<!-- quickstart N -->",
#                 run verbatim and in order in one shell in $T, with
#                 `mirror` on PATH standing for $MIRROR; block N's output
#   make example  site-example/run.sh (what make example runs after deps
#                 and the build) in a copy of site-example/
# A shown line "…" stands for any number of lines left out, "…" inside a
# line for any text; commit ids, conflict ids, store hashes, sweep run
# ids and times are compared by their shape, not their value. Also: the
# README's length, no reference to the project's private shared folder in
# any tracked file, every relative link (and #fragment) of README.md,
# doc/*.md, doc/perf-log/*.md and site-example/README.md resolves inside the checkout, and
# the LICENSE.
. "$MIRROR_TOP/tests/e2e/lib.sh"

readme="$MIRROR_TOP/README.md"
unset SOURCE_DATE_EPOCH
export GIT_CONFIG_NOSYSTEM=1 HOME="$T"   # no user's git config

# mirror on PATH: the binary under test.
mkdir -p bin && printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${MIRROR_WRAP:-}" \
    "$MIRROR" >bin/mirror && chmod +x bin/mirror || exit 1

cat >readme.py <<'EOF'
import re, sys

def blocks(path):
    """(marker, info, text) for every fenced block; marker is the HTML
    comment on the line before the fence, or None."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if m:
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            k = i - 1
            prev = lines[k] if k >= 0 else ""
            c = re.fullmatch(r"<!-- (.*) -->", prev.strip())
            out.append((c.group(1) if c else None, m.group(1),
                        "\n".join(lines[i + 1:j]) + "\n"))
            i = j
        i += 1
    return out

SHAPES = [
    (r"\b[0-9a-f]{40}\b", "<commit>"),
    (r"\bc[0-9a-f]{10}\b", "<conflict>"),
    (r"\b[0-9a-f]{16}\b", "<hash>"),
    (r"\bsweep-[0-9]{8}T[0-9]{6}-[0-9]+\b", "<sweep>"),
    (r"\b[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\b", "<time>"),
    (r"\b[0-9]{4}\\-[0-9]{2}\\-[0-9]{2}\b", "<date>"),
    (r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b", "<date>"),
]

def shape(s):
    for pat, rep in SHAPES:
        s = re.sub(pat, rep, s)
    return s

def matches(shown, real):
    parts = []
    for line in shape(shown).rstrip("\n").split("\n"):
        if line == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in line.split("…"))
                         .replace(".*", r"[^\n]*") + "\n")
    return re.fullmatch("".join(parts), shape(real).rstrip("\n") + "\n")

cmd = sys.argv[1]
if cmd == "check":          # check README: every text block is marked
    bad = [b[2].split("\n")[0] for b in blocks(sys.argv[2])
           if b[1] == "text" and not (b[0] or "").startswith("output of: ")]
    if bad:
        print("\n".join(bad))
    sys.exit(1 if bad else 0)
elif cmd == "quickstart":   # print the quickstart as one script
    n = 0
    for marker, info, text in blocks(sys.argv[2]):
        if marker and marker.startswith("quickstart "):
            n += 1
            if marker != "quickstart %d" % n or info != "sh":
                sys.exit("README: quickstart blocks must be ```sh, numbered 1, 2, ...")
            print("echo '@@ quickstart %d'" % n)
            print(text)
    sys.exit(0 if n else 1)
elif cmd == "outputs":      # print the markers of the output blocks
    for marker, info, text in blocks(sys.argv[2]):
        if marker and marker.startswith("output of: "):
            print(marker[len("output of: "):])
elif cmd == "compare":      # compare README's block WHAT with a file
    readme, what, real = sys.argv[2:5]
    shown = [t for m, i, t in blocks(readme) if m == "output of: " + what]
    got = open(real, encoding="utf-8").read()
    if len(shown) == 1 and matches(shown[0], got):
        sys.exit(0)
    print("# README shows:\n" + "".join("#   " + l + "\n" for l in shown[0].split("\n")) +
          "# the real output:\n" + "".join("#   " + l + "\n" for l in got.split("\n")))
    sys.exit(1)
elif cmd == "split":        # quickstart output into qs.N files
    cur = None
    for line in open(sys.argv[2], encoding="utf-8"):
        m = re.fullmatch(r"@@ quickstart (\d+)\n", line)
        if m:
            cur = open("qs.%s" % m.group(1), "w", encoding="utf-8")
        elif cur:
            cur.write(line)
EOF

# --- the README's shape -----------------------------------------------------------
lines=$(wc -l <"$readme")
expect "README.md is at most 300 lines ($lines)" test "$lines" -le 300
expect "README.md starts with the two commands" sh -c "
    sed -n '3,6p' '$readme' | grep -q '^make example ' &&
    sed -n '3,6p' '$readme' | grep -q '^make test '"
expect "every output block of README.md is marked '<!-- output of: ... -->'" \
    python3 readme.py check "$readme"
# The example's first commit is reproducible (site-example/run.sh fixes
# the clock and the author): the id the README shows is the one
# tests/golden/bench-digests.txt records, which t_golden checks.
example_commit=$(awk '$1 == "example" && $2 == "commit" { print $3 }' \
    "$MIRROR_TOP/tests/golden/bench-digests.txt")
expect "the README shows the example's commit as it is ($example_commit)" \
    grep -q "^committed $example_commit to mirror of build/example/history.git" "$readme"
expect "README.md does not show the help texts (it links to mirror help and man)" sh -c "
    ! grep -q '^usage: mirror' '$readme' &&
    grep -q 'mirror help COMMAND' '$readme' && grep -q 'man mirror' '$readme'"

# --- the quickstart, run as written ----------------------------------------------------
python3 readme.py quickstart "$readme" >quickstart.sh
mkdir qs && (cd qs && PATH="$T/bin:$PATH" sh -e ../quickstart.sh) >qs.out 2>&1
RC=$?
python3 readme.py split qs.out
expect "the quickstart runs as written (exit 0)" test "$RC" = 0

# --- make example, as run.sh does it after make deps and make --------------------------
mkdir -p co/build && cp -R "$MIRROR_TOP/site-example" co/ &&
    cp bin/mirror co/build/mirror || exit 1
(cd co && sh site-example/run.sh build) >example.out 2>&1
RC=$?
expect "site-example/run.sh runs (exit 0)" test "$RC" = 0

# --- every output block against the real output ------------------------------------------
python3 readme.py outputs "$readme" >outputs.txt
expect "README.md shows the output of make example and of the quickstart" sh -c '
    grep -qx "make example" outputs.txt && grep -qx "quickstart 1" outputs.txt'
while IFS= read -r what; do
	case $what in
	"make example") real=example.out ;;
	"quickstart "*) real="qs.${what#quickstart }" ;;
	*) real=/nonexistent ;;
	esac
	if [ -f "$real" ] && python3 readme.py compare "$readme" "$what" "$real" \
	    >cmp.out; then
		ok "README output of '$what' is what it prints"
	else
		not_ok "README output of '$what' is what it prints" \
		    "(no such output, or it differs: below)"
		cat cmp.out
	fi
done <outputs.txt

# --- links, the private folder, the licence ------------------------------------------------
cat >links.py <<'EOF'
import os, re, sys, unicodedata
top = os.path.realpath(sys.argv[1])

def slug(h):
    h = re.sub(r"[`*_]", "", h.strip().lower())
    h = "".join(c for c in h if c.isalnum() or c in " -")
    return h.replace(" ", "-")

def anchors(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"(?ms)^```.*?^```", "", text)
    return {slug(m) for m in re.findall(r"(?m)^#+ (.*)$", text)}

bad = []
for f in sys.argv[2:]:
    text = open(f, encoding="utf-8").read()
    text = re.sub(r"(?ms)^```.*?^```", "", text)      # code blocks
    text = re.sub(r"`[^`\n]*`(?!\])", "", text)        # code spans outside links
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        dest = os.path.realpath(os.path.join(os.path.dirname(f), path)) if path \
            else os.path.realpath(f)
        if not (dest == top or dest.startswith(top + os.sep)) or not os.path.exists(dest):
            bad.append("%s: %s (no such file)" % (os.path.relpath(f, top), target))
        elif frag and dest.endswith(".md") and frag not in anchors(dest):
            bad.append("%s: %s (no such heading)" % (os.path.relpath(f, top), target))
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
python3 links.py "$MIRROR_TOP" "$readme" "$MIRROR_TOP"/doc/*.md \
    "$MIRROR_TOP"/doc/perf-log/*.md "$MIRROR_TOP/site-example/README.md" >links.out
RC=$?
expect "every relative link of README.md, doc/*.md, doc/perf-log/*.md, site-example/README.md resolves" \
    sh -c "test $RC = 0 || { sed 's/^/#   /' links.out; exit 1; }"
expect "doc/ has the topic files the README links to" sh -c "
    for f in store sweep site templates history publishing reliability \
        performance development; do
        test -s '$MIRROR_TOP/doc/'\$f.md && grep -q \"(doc/\$f.md)\" '$readme' || exit 1
    done"
# (CI's own script .ci/run may use the folder beside the clone; nothing
# shipped to users may.)
if git -C "$MIRROR_TOP" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$MIRROR_TOP" ls-files | grep -v '^\.ci/' >files.txt
else
	(cd "$MIRROR_TOP" && find . -type f ! -path './build*' ! -path './.git/*' |
	    sed 's|^\./||' | grep -v '^\.ci/') >files.txt
fi
expect "no tracked file refers to the shared folder beside the clone" sh -c "
    cd '$MIRROR_TOP' && ! tr '\\n' '\\0' <'$T/files.txt' |
        xargs -0 grep -l '\\.\\./shared' 2>/dev/null | grep ."
expect "LICENSE exists, is ISC, and the README says so" sh -c "
    head -1 '$MIRROR_TOP/LICENSE' | grep -q 'ISC License' &&
    grep -q '^ISC (see \[LICENSE\](LICENSE))' '$readme'"
