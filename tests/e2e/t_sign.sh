#!/bin/sh
# Signed mirror commits (--sign-key, config sign_key): each commit of a
# signed build verifies with git verify-commit against an allowed-signers
# file; a tampered copy does not; a key that cannot sign stops the build
# before anything is written.
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
