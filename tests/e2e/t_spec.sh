#!/bin/sh
# The spec is in the repository and every section of it is checked by a
# test that cites it (doc/development.md, "The spec and its tests";
# tests/tools/spec_cites.py), or listed there with the reason none can.
. "$MIRROR_TOP/tests/e2e/lib.sh"

expect "doc/spec.md is in the repository, its sections numbered 1 to 8" \
    test "$(grep -c '^## [0-9]\. ' "$MIRROR_TOP/doc/spec.md")" = 8
python3 "$MIRROR_TOP/tests/tools/spec_cites.py" --check >"$T/out" 2>&1
RC=$?
expect "every spec section is cited by a test or listed with a reason (spec_cites --check)" \
    test "$RC" = 0

# The check itself, on a copy of the tree where section 1 lost its test
# and where the list names a section a test cites.
mkdir -p top/doc top/tests/tools top/tests/e2e top/tests/unit \
    top/tests/browser top/tests/golden
cp "$MIRROR_TOP"/doc/*.md "$MIRROR_TOP/doc/mirror.1" top/doc/
cp "$MIRROR_TOP/tests/tools/spec_cites.py" top/tests/tools/
cp "$MIRROR_TOP"/tests/unit/*.c top/tests/unit/
cp "$MIRROR_TOP"/tests/browser/*.js top/tests/browser/
cp "$MIRROR_TOP"/tests/golden/*.sh top/tests/golden/
for f in "$MIRROR_TOP"/tests/e2e/*.sh; do
	sed 's/SPEC[ ]1:/(uncited):/' "$f" >"top/tests/e2e/$(basename "$f")"
done
python3 top/tests/tools/spec_cites.py --check >"$T/out" 2>&1
RC=$?
expect "a section that lost its last test fails the check, named" \
    sh -c "test $RC = 1 && grep -q 'no test cites SPEC[ ]1 ' '$T/out'"
cp "$MIRROR_TOP"/tests/e2e/*.sh top/tests/e2e/
sed -i 's/^None\.$/- 4 (Review commands): no reason/' top/doc/development.md
python3 top/tests/tools/spec_cites.py --check >"$T/out" 2>&1
RC=$?
expect "a listed section that a test cites fails the check, named" \
    sh -c "test $RC = 1 && grep -q 'lists SPEC[ ]4,' '$T/out'"

# The same for the promises of the other docs (issue 71): t_promises.sh
# cites doc/history.md's "The message"; without it the section must be
# listed, and a listed section a test cites must leave the list.
sed 's/"The message"/"(uncited)"/' "$MIRROR_TOP/tests/e2e/t_promises.sh" \
    >top/tests/e2e/t_promises.sh
python3 top/tests/tools/spec_cites.py --check >"$T/out" 2>&1
RC=$?
expect "a doc section that lost its last test fails the check, named" \
    sh -c "test $RC = 1 && grep -q 'no test cites doc/history.md \"The message\"' '$T/out'"
cp "$MIRROR_TOP"/tests/e2e/t_promises.sh top/tests/e2e/
printf '%s\n' '- doc/site.md "The review queue": no reason' >list.md
sed -i '/^### Doc promises no test cites$/r list.md' top/doc/development.md
python3 top/tests/tools/spec_cites.py --check >"$T/out" 2>&1
RC=$?
expect "a listed doc section that a test cites fails the check, named" \
    sh -c "test $RC = 1 && grep -q 'lists doc/site.md \"The review queue\", which' '$T/out'"
