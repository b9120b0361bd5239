#!/bin/sh
# Signed mirror commits (--sign-key, config sign_key): each commit of a
# signed build verifies with git verify-commit against an allowed-signers
# file; a tampered copy does not; a key that cannot sign stops the build
# before anything is written.
# The promises of doc/reliability.md, "Child processes".
# The promises of doc/history.md, "Signed commits".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
export SOURCE_DATE_EPOCH=1700000000
author='Mirror CI <mirror@example.org>'
export GIT_CONFIG_NOSYSTEM=1 HOME="$T"   # no user's git config

ssh-keygen -q -t ed25519 -N '' -C mirror-ci -f ci-key || exit 1
ssh-keygen -q -t ed25519 -N '' -C someone -f other-key || exit 1
ssh-keygen -q -t ed25519 -N secret -C locked -f locked-key || exit 1
printf 'mirror@example.org namespaces="git" %s\n' "$(cat ci-key.pub)" >allowed
# verify REV: git verify-commit with the allowed signers; status as git's.
verify() {
	git --git-dir=repo.git -c gpg.format=ssh \
	    -c gpg.ssh.allowedSignersFile="$T/allowed" verify-commit "$1" \
	    >"$T/verify.out" 2>&1
}

new_store s.db "$data/tiny.sql" || exit 1
cp s.db s2.db    # the rows' default times are the clock's: copy, not remake
git init -q --bare repo.git
mirror build --store s.db --out site --repo repo.git --author "$author" --sign-key ci-key
expect_status "a signed build succeeds" 0
expect "its commit carries an SSH signature" sh -c \
    "git --git-dir=repo.git cat-file commit mirror | grep -q '^gpgsig -----BEGIN SSH SIGNATURE-----'"
verify mirror
expect "git verify-commit accepts it with the allowed signers" test $? = 0
expect "... naming the signer's key" grep -q 'Good "git" signature for mirror@example.org' verify.out

# A second signed commit (one fact changes), from the config file's key.
sql s.db "UPDATE project_state SET value = '160 mm' WHERE id = 's2'"
printf '[mirror]\nsign_key = ci-key\n' >mirror.ini
mirror build --store s.db --out site --repo repo.git --author "$author"
expect_status "a build signed through the config file's sign_key succeeds" 0
expect "it made a second commit" test "$(git --git-dir=repo.git rev-list --count mirror)" = 2
verify mirror
expect "the second commit verifies too" test $? = 0
rm mirror.ini

# The same store, clock and key give the same commit id: signing keeps
# builds reproducible (Ed25519 signs deterministically).
git init -q --bare again.git
mirror build --store s2.db --out site2 --repo again.git --author "$author" --sign-key ci-key
first=$(git --git-dir=repo.git rev-list --reverse mirror | head -1)
expect "a rebuild of the same store signs to the same commit id" \
    test "$(git --git-dir=again.git rev-parse mirror)" = "$first"

# Tampered: the same signature over a changed message no longer verifies.
git --git-dir=repo.git cat-file commit mirror | sed 's/^p05/pXX/; $s/$/ (edited)/' >forged.txt
forged=$(git --git-dir=repo.git hash-object -t commit -w forged.txt)
expect "the forged commit still carries the signature" grep -q '^gpgsig ' forged.txt
verify "$forged"
expect "git verify-commit refuses a tampered commit" test $? != 0
# Signed by a key the allowed signers do not list: refused.
git init -q --bare other.git
mirror build --store s.db --out site-o --repo other.git --author "$author" --sign-key other-key --force
git --git-dir=other.git -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$T/allowed" \
    verify-commit mirror >/dev/null 2>&1
expect "a commit signed by another key does not verify" test $? != 0
# Unsigned commits do not verify either.
git init -q --bare plain.git
mirror build --store s.db --out site-p --repo plain.git --author "$author" --force
git --git-dir=plain.git -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$T/allowed" \
    verify-commit mirror >/dev/null 2>&1
expect "an unsigned commit does not verify" test $? != 0

# A key that cannot sign: exit 2, one line, before the sweep writes or
# anything is rendered or committed.
new_store fresh.db "$data/tiny.sql" || exit 1
before=$(sql fresh.db "SELECT count(*) FROM sweep_runs")
git init -q --bare none.git
mirror build --store fresh.db --out site-n --repo none.git --author "$author" --sign-key missing-key
expect_error "a missing key is bad input, named" 2 "--sign-key missing-key: No such file or directory"
mirror build --store fresh.db --out site-n --repo none.git --author "$author" --sign-key locked-key
expect_error "a key with a passphrase is refused, not prompted for" 2 \
    "--sign-key locked-key: the key needs a passphrase, which a build cannot type"
mkdir lonely && cp ci-key.pub lonely/key.pub
SSH_AUTH_SOCK= mirror build --store fresh.db --out site-n --repo none.git --author "$author" --sign-key lonely/key.pub
expect_error "a public key with no private key or agent cannot sign" 2 "--sign-key lonely/key.pub: ssh-keygen cannot sign with it: "
expect "... and nothing was written: no sweep, no site, no branch" sh -c "
    test \"\$(sqlite3 fresh.db 'SELECT count(*) FROM sweep_runs')\" = '$before' &&
    test ! -e site-n && ! git --git-dir=none.git rev-parse -q --verify mirror >/dev/null"
mirror build --store fresh.db --out site-n --sign-key ci-key
expect_error "--sign-key without --repo is a usage error" 1 "--sign-key has no effect without --repo"

# ssh-keygen that never finishes (a blocked ssh-keygen, an ssh-agent that
# accepts and never answers): killed at MIRROR_SIGN_TIMEOUT_MS, exit 3
# naming the key and the bound, nothing written, no lock file, no scratch
# file in TMPDIR, no process left. timeout(1) only guards the old hang.
keygen=$(command -v ssh-keygen)
mkdir fake tmp
export TMPDIR="$T/tmp"
wrap=$MIRROR_WRAP
MIRROR_WRAP="timeout 20 $wrap"
# The commit signs only after the check: a fake that passes the check's
# probe and hangs on the commit hangs while DIR's lock is held.
cat >fake/ssh-keygen <<FAKE
#!/bin/sh
data=\$(cat)
case \$data in *"can this key sign"*)
	printf '%s\n' "\$data" | "$keygen" "\$@"; exit;;
esac
echo commit >>"$T/fake/calls"
sleep 7$$
FAKE
chmod +x fake/ssh-keygen
git init -q --bare hang.git
mirror build --store s2.db --out site-h --repo hang.git --author "$author" --sign-key ci-key
tip=$(git --git-dir=hang.git rev-parse mirror)
(cd site-h && find . -type f | sort | xargs cat | cksum) >site-h.sum
sql s2.db "UPDATE project_state SET value = '170 mm' WHERE id = 's2'"
t0=$(date +%s)
PATH="$T/fake:$PATH" MIRROR_SIGN_TIMEOUT_MS=500 mirror build --store s2.db \
    --out site-h --repo hang.git --author "$author" --sign-key ci-key
t1=$(date +%s)
expect_error "an ssh-keygen that hangs on the commit is killed at the bound: exit 3" 3 \
    "--sign-key ci-key: ssh-keygen did not finish within 500 ms \(MIRROR_SIGN_TIMEOUT_MS\), killed it"
expect "... within seconds, not at the guard's 20 s, at the commit" sh -c "
    test $((t1 - t0)) -le 5 && test \"\$(cat fake/calls)\" = commit"
expect "... DIR and the branch are unchanged, DIR's lock file is gone" sh -c "
    test \"\$(cd site-h && find . -type f | sort | xargs cat | cksum)\" = \"\$(cat site-h.sum)\" &&
    test \"\$(git --git-dir=hang.git rev-parse mirror)\" = '$tip' &&
    test ! -e .site-h.mirror-lock"
expect "... no scratch file in TMPDIR and no ssh-keygen child left" sh -c "
    test -z \"\$(ls -A tmp)\" && ! pgrep -fx 'sleep 7$$' >/dev/null"

# An ssh-agent that takes the connection and never answers.
cat >agent.py <<'AGENT'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(8)
held = []
while True:
    held.append(s.accept()[0])
AGENT
python3 agent.py "$T/agent.sock" & agent=$!
i=0; while [ ! -S agent.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
git init -q --bare mute.git
SSH_AUTH_SOCK="$T/agent.sock" MIRROR_SIGN_TIMEOUT_MS=700 mirror build \
    --store fresh.db --out site-m --repo mute.git --author "$author" --sign-key ci-key
kill "$agent"
expect_error "an ssh-agent that never answers: killed at the bound, exit 3" 3 \
    "--sign-key ci-key: ssh-keygen did not finish within 700 ms"
expect "... nothing written: no sweep, no site, no branch, no lock, no scratch" sh -c "
    test \"\$(sqlite3 fresh.db 'SELECT count(*) FROM sweep_runs')\" = '$before' &&
    test ! -e site-m && test ! -e .site-m.mirror-lock && test -z \"\$(ls -A tmp)\" &&
    ! git --git-dir=mute.git rev-parse -q --verify mirror >/dev/null"
MIRROR_WRAP=$wrap

# A private key others can read: ssh-keygen's reason is passed on, not
# only its last line ("No private key found").
cp ci-key open-key && chmod 644 open-key
mirror build --store fresh.db --out site-n --repo none.git --author "$author" --sign-key open-key
expect_error "a world-readable key: ssh-keygen's own reason, 'too open'" 2 \
    "--sign-key open-key: ssh-keygen cannot sign with it: .*Permissions 0644 for 'open-key' are too open"
# Its whole complaint on one line: every line that says something, each
# control byte (an escape sequence, a carriage return) a space.
mkdir loud
printf '#!/bin/sh\ncat >/dev/null\nprintf %s >&2\nexit 255\n' \
    "'Signing data on standard input\n\033[1mfirst\033[0m reason\n@@@@@\nlast line\r\n'" \
    >loud/ssh-keygen
chmod +x loud/ssh-keygen
PATH="$T/loud:$PATH" mirror build --store fresh.db --out site-n --repo none.git \
    --author "$author" --sign-key ci-key
expect_error "ssh-keygen's complaint: all its lines, control bytes made spaces" 2 \
    "--sign-key ci-key: ssh-keygen cannot sign with it: \[1mfirst \[0m reason last line\$"
expect "... and no escape byte reaches the terminal" sh -c "! grep -q \"\$(printf '\033')\" err"
MIRROR_SIGN_TIMEOUT_MS=soon mirror build --store fresh.db --out site-n --repo none.git \
    --author "$author" --sign-key ci-key
expect_error "a MIRROR_SIGN_TIMEOUT_MS that is not a number is a usage error" 1 \
    "MIRROR_SIGN_TIMEOUT_MS='soon' is not a whole number of milliseconds"

# A signer that exits 0 is believed only for a whole SSH signature: the
# BEGIN line, base64 lines, the END line and nothing after, the blob an
# SSHSIG of version 1 for the namespace git, its fields whole. Each fake
# ssh-keygen below runs the real one and spoils what it prints; on
# a8d6902 any output starting with the BEGIN line was committed. Exit 3,
# one line naming the signer, the key and the fault; nothing written.
# NAME|FAULT|COMMAND printing the signature ($S: the real one; blob: its
# bytes; armor: base64 in the frame; $K: the real ssh-keygen; $D: data):
mkdir bad
cat >bad/ssh-keygen <<FAKE
#!/bin/sh
S="$T/bad/sig" D="$T/bad/data" K="$keygen"
blob() { sed '1d;\$d' "\$S" | base64 -d; }
armor() { echo '-----BEGIN SSH SIGNATURE-----'; base64 -w 70
	echo '-----END SSH SIGNATURE-----'; }
cat >"\$D"
"\$K" "\$@" <"\$D" >"\$S" 2>/dev/null || exit
if [ "\$BAD_AT" = commit ] && grep -q 'can this key sign' "\$D"; then
	cat "\$S"; exit 0; fi
. "$T/bad/spoil"
FAKE
chmod +x bad/ssh-keygen
while IFS='|' read -r name fault cmd; do
	printf '%s\n' "$cmd" >bad/spoil
	rm -rf site-b && git init -q --bare bad.git
	PATH="$T/bad:$PATH" mirror build --store fresh.db --out site-b --repo bad.git \
	    --author "$author" --sign-key ci-key
	expect_error "a signer printing $name: exit 3, '$fault'" 3 \
	    "--sign-key ci-key: ssh-keygen exited 0 without a whole SSH signature: $fault\$"
	expect "... $name: nothing written (no sweep, no site, no branch)" sh -c "
	    test \"\$(sqlite3 fresh.db 'SELECT count(*) FROM sweep_runs')\" = '$before' &&
	    test ! -e site-b && ! git --git-dir=bad.git rev-parse -q --verify mirror >/dev/null"
	rm -rf bad.git
done <<'CASES'
the armor line then garbage|no '-----END SSH SIGNATURE-----' line|printf -- '-----BEGIN SSH SIGNATURE-----\nnot a signature at all\n'
a whole signature then garbage|more after its '-----END SSH SIGNATURE-----' line|cat "$S"; echo garbage
no END line|no '-----END SSH SIGNATURE-----' line|sed '$d' "$S"
the END line without its newline|no '-----END SSH SIGNATURE-----' line|printf %s "$(cat "$S")"
no body|an empty body|sed '1p;$!d' "$S"
an empty line in the body|an empty line in its body|sed '2s/$/\n/' "$S"
a body cut inside a line|its base64 body is cut short|sed '3s/.$//' "$S"
bad base64|a byte that is not base64 in its body|sed '2s/^..../U1N*/' "$S"
'=' inside the body|'=' inside its base64 body|sed '2s/^\(....\)..../\1AA==/' "$S"
the wrong magic|its body is not an SSHSIG blob of version 1|blob | { printf X; tail -c +2; } | armor
a blob cut short|its SSHSIG blob is cut short|blob | head -c 60 | armor
a blob with more after it|more after the signature in its SSHSIG blob|{ blob; printf x; } | armor
a signature for another namespace|it is not made for the namespace 'git'|"$K" -Y sign -n file -P '' -f ci-key <"$D" 2>/dev/null
CASES
# The same at commit time (the check's probe signs well): exit 3, the
# branch not moved.
printf '%s\n' 'cat "$S"; echo garbage' >bad/spoil
git init -q --bare bad.git
mirror build --store s2.db --out site-c --repo bad.git --author "$author" --sign-key ci-key
tip=$(git --git-dir=bad.git rev-parse mirror)
sql s2.db "UPDATE project_state SET value = '180 mm' WHERE id = 's2'"
BAD_AT=commit PATH="$T/bad:$PATH" mirror build --store s2.db --out site-c \
    --repo bad.git --author "$author" --sign-key ci-key
expect_error "garbage after the signature of the commit itself: exit 3" 3 \
    "--sign-key ci-key: ssh-keygen exited 0 without a whole SSH signature: more after its"
expect "... and the branch is where it was" \
    test "$(git --git-dir=bad.git rev-parse mirror)" = "$tip"
