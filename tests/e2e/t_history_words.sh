#!/bin/sh
# mirror build --repo: each commit message says what changed in words
# (SPEC section 6, doc/history.md), on a store of our own
# (tests/data/site.sql) and on the bundled example: a one-fact change, a
# resolution by --actor with --winner, a dismissal and an auto-close each
# make one commit whose subject and body say exactly that; git log
# --grep=<id> and git log -S'<value>' find them; store text cannot forge
# a trailer. git is the judge throughout.
# The promises of doc/history.md, "Reviewing the mirror's history".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
A='Mirror Bot <mirror@example.org>'
ARROW=$(printf '\342\206\222')

# build STORE REPO EPOCH [ARGS]: one build with --repo; the message of
# the branch tip goes to subject.txt, body.txt, trailers.txt (mirror's
# own trailers and the decisions') and ids.txt (the trailers naming the
# facts and conflicts it changed: Fact-Changed: ID...).
build() {
	s=$1 r=$2 e=$3
	shift 3
	SOURCE_DATE_EPOCH=$e mirror build --store "$s" --out "site-$s" \
	    --repo "$r" --author "$A" "$@"
	git -C "$r" log -1 --format=%s mirror > subject.txt
	git -C "$r" log -1 --format=%b mirror > body.txt
	git -C "$r" log -1 --format=%B mirror |
	    git interpret-trailers --parse > all-trailers.txt
	grep -vE '^(Fact|Conflict)-[A-Za-z]+: ' all-trailers.txt > trailers.txt
	grep -E '^(Fact|Conflict)-[A-Za-z]+: ' all-trailers.txt > ids.txt
}
# ids_are LINE...: ids.txt holds exactly these lines.
ids_are() {
	[ "$(cat ids.txt)" = "$(printf '%s\n' "$@")" ] ||
	    { echo "ids: $(cat ids.txt)"; false; }
}
subject_is() { [ "$(cat subject.txt)" = "$1" ] || { echo "subject: $(cat subject.txt)"; false; }; }
body_has() { grep -qxF -- "$1" body.txt; }
commits() { git -C "$1" rev-list --count mirror; }
# id_of STORE DESCRIPTION: a conflict's id, read from the site's JSON.
id_of() {
	jq -r --arg d "$2" '.conflicts[].conflict | select(.description == $d) | .id' \
	    "site-$1"/api/conflicts/projects/*.json
}

# === a store of our own ======================================================
new_store s.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
git init -q --bare r.git
build s.db r.git 1700000000
expect "the first commit summarises the store" subject_is \
    "first mirror of the store: 2 projects, 20 facts (7 project_state, 9 entities, 4 memories), 1 open conflict"
expect "its body counts facts per layer and lists the open conflict" sh -c \
    "grep -qxF '  project_state (trust 3): 7 facts: 5 active, 2 superseded' body.txt &&
     grep -qxF '  conflict on lateral support material [c-5e1a] open: GF-PTFE (trusted state: design review 3) [s1] · PEEK (engineering record) [e1]' body.txt"

n=$(commits r.git)
sql s.db "UPDATE project_state SET value='160 mm' WHERE id='s2'"
build s.db r.git 1700000100
expect "a one-fact change is one commit" test "$(commits r.git)" = $((n + 1))
expect "its subject is the change" subject_is \
    "p05-interferometer aperture: 150 mm $ARROW 160 mm"
expect "its body names the fact by key and id" body_has \
    "  aperture [s2, state] changed: 150 mm $ARROW 160 mm"
expect "the page list and the two trailers follow" sh -c \
    "grep -qxF 'Pages changed:' body.txt && test \$(wc -l < trailers.txt) = 2"
expect "... then a trailer naming the fact changed" ids_are "Fact-Changed: s2"

sql s.db "INSERT INTO project_state(id, project, category, key, value, status) VALUES('s8', 'p06-polisher', 'status', 'phase', 'build', 'active')"
build s.db r.git 1700000200
expect "a new disagreeing fact: the subject is the fact, then the conflict it opens" \
    subject_is "p06-polisher phase added: build; conflict opened"
cphase=$(id_of s.db 'phase of p06-polisher')
expect "the body names the new fact and the conflict with their ids" sh -c \
    "grep -qxF '  phase [s8, state] added: build' body.txt &&
     grep -qxF '  conflict on phase [$cphase] opened: design (trusted state) [s6] · build (trusted state) [s8]' body.txt"
expect "... and trailers naming the fact added and the conflict opened" \
    ids_are "Fact-Added: s8" "Conflict-Opened: $cphase"

n=$(commits r.git)
mirror conflicts dismiss "$cphase" --store s.db --actor bob --reason 'the phases overlap'
build s.db r.git 1700000300
expect "a dismissal is one commit" test "$(commits r.git)" = $((n + 1))
expect "a dismissal says who" subject_is \
    "p06-polisher: conflict on phase dismissed by bob"
expect "... and why, in the body" body_has \
    "  conflict on phase [$cphase] dismissed by bob; reason: the phases overlap"
expect "a dismissal adds a Dismissed-by trailer" test "$(tail -1 trailers.txt)" = "Dismissed-by: bob"
expect "... and a trailer naming the conflict closed, dismissed" \
    ids_are "Conflict-Closed: $cphase (dismissed)"

n=$(commits r.git)
mirror conflicts resolve c-5e1a --store s.db --actor alice --winner s1 --notes 'design review 3 stands'
build s.db r.git 1700000400
expect "a resolution is one commit" test "$(commits r.git)" = $((n + 1))
expect "a resolution says who and which value won" subject_is \
    "p05-interferometer: conflict on lateral support material resolved by alice (kept GF-PTFE (trusted state: design review 3))"
expect "the body: the loser retired, the winner and the notes" sh -c \
    "grep -qxF '  Lateral support material [e1, entity] retired: active $ARROW superseded (PEEK) $(printf '\342\200\224') by alice (superseded: conflict c-5e1a: design review 3 stands)' body.txt &&
     grep -qxF '  conflict on lateral support material [c-5e1a] resolved by alice: kept GF-PTFE (trusted state: design review 3) [s1]; notes: design review 3 stands' body.txt"
expect "git reads exactly three trailers, Resolved-by last" test "$(cat trailers.txt | cut -d: -f1 | tr '\n' ' ')" = \
    "Mirror-Sweep-Run Mirror-Store-Checksum Resolved-by "
expect "... then the fact retired and the conflict closed, resolved" \
    ids_are "Fact-Changed: e1" "Conflict-Closed: c-5e1a (resolved)"
expect "the reflog line is the subject" test \
    "$(git -C r.git reflog show -1 --format=%gs mirror)" = "mirror: build: $(cat subject.txt)"
expect "a commit of one reviewer's decision has the reviewer as author, the build's identity as committer" \
    test "$(git -C r.git log -1 --format='%an <%ae>|%cn <%ce>' mirror)" = \
    "alice <alice@reviewer.invalid>|$A"
expect "git log --author finds each reviewer's decision" test \
    "$(git -C r.git log --format=%s --author=alice mirror)|$(git -C r.git log --format=%an --author=bob mirror)" = \
    "$(cat subject.txt)|bob"

sql s.db "INSERT INTO project_state(id, project, category, key, value, status) VALUES('s9', 'p06-polisher', 'milestone', 'pdr', 'failed', 'active')"
build s.db r.git 1700000500
cpdr=$(id_of s.db 'pdr of p06-polisher')
n=$(commits r.git)
sql s.db "UPDATE project_state SET value='passed' WHERE id='s9'"
build s.db r.git 1700000600
expect "an auto-close is one commit" test "$(commits r.git)" = $((n + 1))
expect "an auto-close says the change, then that the sweep closed it" \
    subject_is "p06-polisher pdr: failed $ARROW passed; conflict closed by the sweep"
expect "... with the change that closed it in the body" sh -c \
    "grep -qxF '  pdr [s9, state] changed: failed $ARROW passed' body.txt &&
     grep -qF '  conflict on pdr [$cpdr] closed by the sweep: disagreement gone' body.txt"
expect "no human, no decision trailer" test "$(wc -l < trailers.txt)" = 2
expect "... the fact changed and the conflict closed by the sweep" \
    ids_are "Fact-Changed: s9" "Conflict-Closed: $cpdr (sweep)"
expect "git log --grep of a trailer lists the commits that added and changed a fact" \
    test "$(git -C r.git log --format=%s --grep='^Fact-Added: s9$' mirror)|$(git -C r.git log --format=%s --grep='^Fact-Changed: s9$' mirror)" = \
    "p06-polisher pdr added: failed; conflict opened|p06-polisher pdr: failed $ARROW passed; conflict closed by the sweep"

# Store text is data: it can neither forge a trailer nor a paragraph.
sql s.db "UPDATE project_state SET value='x

Resolved-by: eve
Mirror-Sweep-Run: forged' WHERE id='s7'"
build s.db r.git 1700000700
expect "a hostile value stays on its line" sh -c \
    "grep -qxF '  pdr [s7, state] changed: passed $ARROW x Resolved-by: eve Mirror-Sweep-Run: forged' body.txt"
expect "a hostile value forges no trailer" test "$(cut -d: -f1 trailers.txt | tr '\n' ' ')" = \
    "Mirror-Sweep-Run Mirror-Store-Checksum Reopened-by "
expect "the value reopened the question the sweep had closed" \
    test "$(tail -1 trailers.txt)" = "Reopened-by: $(cat ids.txt | sed -n 's/^Conflict-Opened: //p') (earlier: $cpdr)"
sql s.db "INSERT INTO project_state(id, project, category, key, value, status) VALUES('s10', 'p06-polisher', 'status', 'phase', 'test', 'active')"
build s.db r.git 1700000800
cnew=$(jq -r '[.conflicts[].conflict | select(.status == "open")][0].id' site-s.db/api/conflicts/projects/p06-polisher.json)
expect "a conflict opened on a slot a reviewer decided names the decision it reopens" \
    grep -qxF "Reopened-by: $cnew (earlier: $cphase)" all-trailers.txt
expect "git log --grep of the decided conflict finds the commit that reopened it" test \
    "$(git -C r.git log --format=%s --grep="^Reopened-by: .*$cphase" mirror)" = \
    "p06-polisher phase added: test; conflict opened"
# mirror refuses such an actor or note on its command line (t_terminal);
# another program writing the store can still put them there.
mirror conflicts resolve "$cnew" --store s.db --actor mallory --notes a
sql s.db "UPDATE conflicts SET resolved_by = 'mallory' || char(10) || 'Resolved-by: eve',
    resolution = 'a' || char(10, 10) || 'Dismissed-by: eve' || char(1)
    WHERE id = '$cnew'"
build s.db r.git 1700000900
expect "a hostile actor is one trailer value on one line" sh -c \
    "test \"\$(cut -d: -f1 trailers.txt | tr '\\n' ' ')\" = 'Mirror-Sweep-Run Mirror-Store-Checksum Resolved-by ' &&
     test \"\$(tail -1 trailers.txt)\" = 'Resolved-by: mallory Resolved-by: eve'"
expect "a hostile note stays on its line" sh -c \
    "grep -qF 'notes: a Dismissed-by: eve' body.txt && ! grep -q '^Dismissed-by' body.txt"

# A template-only change: nothing in words, the page count stays.
mkdir tpl && cp -R "$MIRROR_TOP/templates/." tpl/
printf '\nNothing here.\n' >> tpl/404.md
build s.db r.git 1700001000 --templates tpl --no-sweep
expect "no fact or conflict changed: the subject counts pages" subject_is \
    "1 page changed"

# === the example =============================================================
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
git init -q --bare ex.git
E=1793491200
build ex.db ex.git $E
expect "the example's first commit summarises it" subject_is \
    "first mirror of the store: 4 projects, 374 facts (52 project_state, 257 entities, 65 memories), 14 open conflicts"

n=$(commits ex.git)
sql ex.db "UPDATE project_state SET value='320 rpm' WHERE id='p06-st-spindle-max'"
build ex.db ex.git $E
expect "example: a one-fact change is one commit" test "$(commits ex.git)" = $((n + 1))
expect "example: its subject is the change" subject_is \
    "p06-polisher spindle_max_speed: 300 rpm $ARROW 320 rpm"
expect "example: its body names the fact by id" body_has \
    "  spindle_max_speed [p06-st-spindle-max, state] changed: 300 rpm $ARROW 320 rpm"
spindle=$(git -C ex.git rev-parse mirror)

n=$(commits ex.git)
clat=$(id_of ex.db 'lateral support material of p05-interferometer')
mirror conflicts resolve "$clat" --store ex.db --actor alice --winner p05-st-lateral-support-material --notes 'the rev B drawing is current'
build ex.db ex.git $E
expect "example: a resolution is one commit" test "$(commits ex.git)" = $((n + 1))
expect "example: the resolution in words" subject_is \
    "p05-interferometer: conflict on lateral support material resolved by alice (kept GF-PTFE (trusted state: design review 2025-11-04))"
expect "example: winner, notes and the retired loser in the body" sh -c \
    "grep -qxF '  conflict on lateral support material [$clat] resolved by alice: kept GF-PTFE (trusted state: design review 2025-11-04) [p05-st-lateral-support-material]; notes: the rev B drawing is current' body.txt &&
     grep -qF '[p05-dec-lateral-material-peek, entity] retired: active $ARROW superseded' body.txt"
expect "example: Resolved-by trailer" test "$(tail -1 trailers.txt)" = "Resolved-by: alice"

n=$(commits ex.git)
clint=$(id_of ex.db 'preferred linting')
mirror conflicts dismiss "$clint" --store ex.db --actor bob --reason 'either linter is fine'
build ex.db ex.git $E
expect "example: a dismissal is one commit" test "$(commits ex.git)" = $((n + 1))
expect "example: the dismissal in words" subject_is \
    "conflict on preferred linting dismissed by bob"
expect "example: its reason in the body, Dismissed-by trailer" sh -c \
    "grep -qxF '  conflict on preferred linting [$clint] dismissed by bob; reason: either linter is fine' body.txt &&
     test \"\$(tail -1 trailers.txt)\" = 'Dismissed-by: bob'"

n=$(commits ex.git)
cref=$(id_of ex.db 'serdes refclk frequency of p04-gigabit')
sql ex.db "UPDATE project_state SET value='156.25 MHz' WHERE id='p04-st-serdes-refclk'"
build ex.db ex.git $E
expect "example: an auto-close is one commit" test "$(commits ex.git)" = $((n + 1))
expect "example: the auto-close in words, its cause first" subject_is \
    "p04-gigabit serdes_refclk_frequency: 125 MHz $ARROW 156.25 MHz; conflict closed by the sweep"
expect "example: the change that closed it in the body" body_has \
    "  serdes_refclk_frequency [p04-st-serdes-refclk, state] changed: 125 MHz $ARROW 156.25 MHz"

v='TwinCAT 3.1.4026 (build: 2026-11-01)'
sql ex.db "UPDATE project_state SET value='$v' WHERE id='p06-st-firmware'"
build ex.db ex.git $E
value=$(git -C ex.git rev-parse mirror)
expect "example: git log --grep=<fact id> finds the commit of its change" sh -c \
    "git -C ex.git log --format=%H --grep=p06-st-spindle-max mirror | grep -qx $spindle"
expect "example: git log --grep=<conflict id> finds its decision" test \
    "$(git -C ex.git log --format=%s --grep="$clat" mirror | head -1)" = \
    "p05-interferometer: conflict on lateral support material resolved by alice (kept GF-PTFE (trusted state: design review 2025-11-04))"
expect "example: git log -S'<value with - . : (>' -- api/ finds its commit" test \
    "$(git -C ex.git log --format=%H -S"$v" mirror -- api/)" = "$value"
expect "example: ... and the message has the value as stored" test \
    "$(git -C ex.git log -1 --format=%s "$value")" = "p06-polisher controller_firmware: TwinCAT 3.1.4024.56 $ARROW $v"

# Deterministic: the same store and SOURCE_DATE_EPOCH, the same commit.
new_store ex2.db "$MIRROR_TOP/site-example/example.sql" || exit 1
git init -q --bare ex2.git
build ex2.db ex2.git $E
sql ex2.db "UPDATE project_state SET value='320 rpm' WHERE id='p06-st-spindle-max'"
build ex2.db ex2.git $E
expect "the same history gives the same commit ids" test \
    "$(git -C ex2.git rev-parse mirror)" = "$spindle"
expect "git fsck --strict on both histories" sh -c \
    "git -C r.git fsck --strict --no-progress 2>/dev/null && git -C ex.git fsck --strict --no-progress 2>/dev/null"

# === who changed a fact, where the store's audit says so ==============
sql s.db "UPDATE project_state SET value='170 mm' WHERE id='s2';
    INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, note, timestamp)
    VALUES ('a-1', 's2', 'project_state', 'updated', 'bob', 'measured on the bench', '2024-05-01 10:00:00')"
build s.db r.git 1700000900
expect "an audited change: the subject names who" subject_is \
    "p05-interferometer aperture: 160 mm $ARROW 170 mm (by bob)"
expect "... and the body who, what and why" body_has \
    "  aperture [s2, state] changed: 160 mm $ARROW 170 mm $(printf '\342\200\224') by bob (updated: measured on the bench)"
expect "the fact's JSON names its latest audit row" sh -c \
    "jq -L \"\$MIRROR_TOP/tests/tools\" -e 'include \"facts\"; [facts | select(.layer == \"state\" and .id == \"s2\") | .changed_by] | unique == [{\"actor\":\"bob\",\"action\":\"updated\",\"note\":\"measured on the bench\",\"at\":\"2024-05-01 10:00:00\"}]' site-s.db/api/projects/p05-interferometer.json >/dev/null"
# The latest row wins; a hostile actor stays one line and forges nothing.
sql s.db "UPDATE project_state SET value='180 mm' WHERE id='s2';
    INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, note, timestamp)
    VALUES ('a-0', 's2', 'project_state', 'updated', 'old', '', '2024-01-01 00:00:00'),
           ('a-2', 's2', 'project_state', 'updated', 'eve
Resolved-by: mallory', '', '2024-06-01 00:00:00')"
build s.db r.git 1700001000
expect "the latest audit row names who, on one line" subject_is \
    "p05-interferometer aperture: 170 mm $ARROW 180 mm (by eve Resolved-by: mallory)"
expect "... and forges no trailer" test "$(wc -l < trailers.txt)" = 2
# A change the audit does not name says nothing about who.
sql s.db "UPDATE project_state SET value='190 mm' WHERE id='s2'"
build s.db r.git 1700001100
expect "an unaudited change names nobody" subject_is \
    "p05-interferometer aperture: 180 mm $ARROW 190 mm"
# Audit rows are not checked as facts are: invalid UTF-8 and control
# characters in them are cleaned, never a failed build or broken JSON.
sql s.db "UPDATE project_state SET value='200 mm' WHERE id='s2';
    INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, note, timestamp)
    VALUES ('a-3', 's2', 'project_state', 'updated', CAST(X'6576ff65' AS TEXT), CAST(X'6e6f0774' AS TEXT), '2024-07-01 00:00:00')"
build s.db r.git 1700001200
expect "an audit row with invalid UTF-8 still builds and commits" sh -c \
    "[ $RC = 0 ] && jq -L \"\$MIRROR_TOP/tests/tools\" -e 'include \"facts\"; [facts | select(.id == \"s2\") | .changed_by.actor] | unique == [\"ev\\ufffde\"]' site-s.db/api/projects/p05-interferometer.json >/dev/null"
expect "... and the subject names the cleaned actor" subject_is \
    "p05-interferometer aperture: 190 mm $ARROW 200 mm (by ev$(printf '\357\277\275')e)"
