#!/bin/sh
# t_make_deps.sh: what make installs and removes (issue 58, item 8).
# scripts/install-deps.sh, run with stand-ins for dpkg-query, apt-get and
# sudo that record what they were asked (nothing is really installed):
# outside CI it first names the missing packages and 'make deps', then
# asks y/N on a terminal, and installs when there is no terminal to ask
# (make test must run on a fresh machine); with CI set or --yes (make
# deps, make example) it installs at once. Then make test
# and make example in a scratch copy of the Makefile, and make clean.
. "$MIRROR_TOP/tests/e2e/lib.sh"

deps="$MIRROR_TOP/scripts/install-deps.sh"
unset CI MIRROR_EXTRA_PKGS

# bin/: dpkg-query answers "not installed" for every package while
# $T/none exists, else "installed"; apt-get and sudo log their arguments.
mkdir bin && touch none || exit 1
cat >bin/dpkg-query <<SH
#!/bin/sh
[ -e "$T/none" ] && exit 1
printf 'install ok installed'
SH
cat >bin/apt-get <<SH
#!/bin/sh
echo "apt-get \$*" >>"$T/apt.log"
SH
cat >bin/sudo <<SH
#!/bin/sh
echo "sudo \$*" >>"$T/apt.log"
exec "\$@"
SH
chmod +x bin/* || exit 1
P="$T/bin:$PATH"

# deps [ARGS...]: install-deps.sh with the stand-ins, stdin not a
# terminal; RC, out, err; apt.log fresh.
deps() {
	rm -f apt.log
	PATH="$P" sh "$deps" "$@" </dev/null >out 2>err
	RC=$?
}

deps
expect "outside CI, stdin no terminal: it says so and installs" \
    sh -c "test $RC = 0 && grep -q 'no terminal to ask: installing' err &&
        grep -q 'apt-get install -y -q --no-install-recommends .*libgit2-dev' apt.log"
expect "... naming the missing packages and 'make deps'" \
    sh -c "grep -q '^install-deps: missing Debian packages: gcc make .*libcmark-gfm-dev' err &&
        grep -q \"'make deps' installs them\" err"
rm -f apt.log
MIRROR_EXTRA_PKGS="hugo cmark-gfm" PATH="$P" sh "$deps" </dev/null >out 2>err
RC=$?
expect "with extra packages it names the command that installs those too" \
    sh -c "test $RC = 0 && grep -q \"'MIRROR_EXTRA_PKGS='hugo cmark-gfm' make deps'\" err &&
        grep -q 'apt-get install .*cmark-gfm' apt.log"
CI=false deps
expect "CI=false is outside CI: the packages are named first" \
    sh -c "test $RC = 0 && grep -q '^install-deps: missing Debian packages:' err"
CI=true deps
expect "with CI=true it installs what is missing at once (apt-get update, install)" \
    sh -c "test $RC = 0 && ! grep -q 'missing Debian packages' err &&
        grep -q 'apt-get update' apt.log &&
        grep -q 'apt-get install -y -q --no-install-recommends .*libgit2-dev' apt.log"
deps --yes
expect "with --yes (make deps) it installs" \
    sh -c "test $RC = 0 && grep -q 'apt-get install' apt.log"
rm none
deps
expect "nothing missing: exit 0, no output, nothing run" \
    sh -c "test $RC = 0 && test ! -s err && test ! -s out && test ! -e apt.log"
touch none

# On a terminal it asks: y installs, anything else does not.
cat >askpty.py <<'EOF2'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", sys.argv[1]])
out = b""
while b"[y/N]" not in out:
    d = os.read(fd, 1024)
    if not d:
        break
    out += d
os.write(fd, sys.argv[2].encode() + b"\n")
try:
    while True:
        d = os.read(fd, 1024)
        if not d:
            break
        out += d
except OSError:
    pass
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(st))
EOF2
rm -f apt.log
PATH="$P" python3 askpty.py "$deps" n >out 2>&1
RC=$?
expect "on a terminal it asks y/N; 'n' installs nothing (exit 1)" \
    sh -c "test $RC = 1 && grep -q 'install them now? \[y/N\]' out &&
        grep -q 'nothing installed' out && test ! -e apt.log"
PATH="$P" python3 askpty.py "$deps" y >out 2>&1
RC=$?
expect "'y' installs them" sh -c "test $RC = 0 && grep -q 'apt-get install' apt.log"

# --- make test, make example, make clean in a scratch copy ----------------------------
mkdir -p co/scripts co/site-example && cp "$MIRROR_TOP/Makefile" co/ &&
    cp "$deps" co/scripts/ && : >co/site-example/run.sh || exit 1
rm -f apt.log
(cd co && PATH="$P" make test </dev/null) >out 2>err
RC=$?
expect "make test outside CI, no terminal: names 'make deps', then installs" \
    sh -c "grep -q \"'make deps' installs them\" err &&
        grep -q 'apt-get install' apt.log"
rm -f apt.log
(cd co && PATH="$P" make example </dev/null) >out 2>err
expect "make example (the README's first command) installs what is missing" \
    grep -q 'apt-get install' apt.log

cd co || exit 1
mkdir -p build/example/site build-san/core build-fuzz build-x keep &&
    touch build-x/mirror keep/file || exit 1
make -s clean BUILD=build-x >"$T/out" 2>&1
RC=$?
expect "make clean BUILD=build-x removes build/, build-san/, build-fuzz/ and build-x/" \
    sh -c "test $RC = 0 && test ! -e build && test ! -e build-san &&
        test ! -e build-fuzz && test ! -e build-x && test -f keep/file"
make -s clean BUILD=. >"$T/out" 2>&1
RC=$?
expect "make clean refuses a BUILD that holds the checkout, removing nothing" \
    sh -c "test $RC != 0 && grep -q 'holds the checkout' '$T/out' &&
        test -f Makefile && test -f keep/file"
