#!/bin/sh
# mirror serve (issue 20, point 6): the preview server builds the store
# with mirror build's own code into a temporary directory, serves it on
# 127.0.0.1 only, rebuilds when the store or the templates change and
# tells open pages to reload (the script is in served pages only, never
# on disk nor in a built site); a failed build is shown on the pages
# while the last good site stays served; hostile requests get a clean
# 4xx and the server stays up; SIGINT and SIGTERM remove the directory.
# Waits are bounded polls in steps of 0.1 s, never a fixed sleep.
# The promises of doc/reliability.md, "The preview server under hostile clients".
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p tmp tpl
cp "$MIRROR_TOP"/templates/*.md tpl/
new_store s.db "$data/site.sql" || exit 1
cp s.db built.db

# serves: how many temporary directories of serve are in $T/tmp (where
# valgrind, under make memcheck, keeps files of its own too).
serves() { ls -d tmp/mirror-serve.* 2>/dev/null | wc -l; }

# start_serve OUT ERR ARGS...: mirror serve ARGS in the background ($pid),
# its temporary directories under $T/tmp; returns once it prints
# "serving URL (Ctrl-C to stop)" ($url), 1 if it exits or 60 s pass.
start_serve() {
	o=$1 e=$2
	shift 2
	: >"$o"         # before the job opens it: no old URL to read
	TMPDIR="$T/tmp" $MIRROR_WRAP "$MIRROR" serve "$@" >"$o" 2>"$e" &
	pid=$!
	url=""
	i=0
	while [ $i -lt 600 ]; do
		url=$(sed -n 's/^serving \(http:[^ ]*\) (Ctrl-C to stop)$/\1/p' "$o")
		[ -n "$url" ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# eventually COMMAND...: COMMAND succeeds within 60 s (polled every 0.1 s).
eventually() {
	i=0
	while [ $i -lt 600 ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# get PATH [CURL_ARGS...]: request $url/PATH as it is spelt (no dot
# segments removed): $code, the body in body, the headers in hdr.
get() {
	p=$1
	shift
	code=$(curl -s --path-as-is --max-time 20 -o body -D hdr \
	    -w '%{http_code}' "$@" "$url$p")
}
# header NAME: the value of header NAME in the last answer.
header() { grep -i "^$1:" hdr | head -1 | cut -d' ' -f2- | tr -d '\r'; }
# served PATH TEXT: PATH is served with TEXT in it.
served() { get "$1" && [ "$code" = 200 ] && grep -q -- "$2" body; }

start_serve serve.out serve.err --store s.db --port 0 --templates tpl
expect "serve prints 'serving http://127.0.0.1:PORT/ (Ctrl-C to stop)'" \
    sh -c "echo '$url' | grep -Eqx 'http://127\\.0\\.0\\.1:[1-9][0-9]*/'"
port=${url#http://127.0.0.1:}
port=${port%/}
dir=$(ls -d tmp/mirror-serve.* 2>/dev/null)
expect "the site is built in one temporary directory of \$TMPDIR, named" sh -c "
    [ $(serves) = 1 ] && [ -f '$dir/site/index.html' ] &&
    grep -qx 'site: $T/$dir/site (removed on exit)' serve.out"

# --- the site as a browser gets it ----------------------------------------
get ""
expect "the index is served: 200, text/html; charset=utf-8" sh -c "
    [ '$code' = 200 ] && [ '$(header Content-Type)' = 'text/html; charset=utf-8' ] &&
    grep -q '<h1' body"
expect "every answer says Cache-Control: no-store" \
    test "$(header Cache-Control)" = no-store
get projects/p05-interferometer/
cp body project.html
expect "a project page is served as HTML with its facts" sh -c "
    [ '$code' = 200 ] && [ '$(header Content-Type)' = 'text/html; charset=utf-8' ] &&
    grep -q '150 mm' project.html"
# Escapes decode whatever the case of their hex digits: %6f is 'o' as
# %6F is, %2e is '.' as %2E is (issue 56).
get "pr%6fjects/p05-interferometer/index%2ehtml"
lower="$code $(cksum <body)"
get "pr%6Fjects/p05-interferometer/index%2Ehtml"
expect "a path escaped in lower-case hex is the page it names, as in upper case" \
    test "$lower" = "200 $(cksum <project.html)" -a "$code $(cksum <body)" = "$lower"
get projects
expect "a directory without its slash is redirected to it" sh -c "
    [ '$code' = 301 ] && [ '$(header Location)' = /projects/ ]"
get "" -I
expect "HEAD answers 200 with the length and no body" sh -c "
    [ '$code' = 200 ] && [ -n '$(header Content-Length)' ] &&
    ! grep -q '<html' body"

# --- every kind of file, with its media type (issue 67, R4-4) ----------------
# Answers say nosniff, so a script sent as application/octet-stream is
# one Chromium refuses to run: search and the queue's filters were dead
# in the preview. Each kind the site writes, and those a theme's assets/
# may add (planted in the served directory when this site has none),
# asked with HEAD: its Content-Type, charset=utf-8 on text.
while IFS='|' read -r ext want; do
	f=$(cd "$dir/site" && find . -type f -name "*.$ext" | sort | head -1)
	if [ -z "$f" ]; then
		f="./kind-test.$ext"
		printf 'x' >"$dir/site/$f"
	fi
	got=$(curl -sI --max-time 20 "$url${f#./}" | tr -d '\r' |
	    sed -n 's/^[Cc]ontent-[Tt]ype: //p')
	expect ".$ext is sent as '$want'" test "$got" = "$want"
done <<'KINDS'
html|text/html; charset=utf-8
md|text/markdown; charset=utf-8
css|text/css; charset=utf-8
js|text/javascript; charset=utf-8
json|application/json; charset=utf-8
tsv|text/tab-separated-values; charset=utf-8
xml|application/xml; charset=utf-8
gitattributes|text/plain; charset=utf-8
nojekyll|text/plain; charset=utf-8
svg|image/svg+xml; charset=utf-8
txt|text/plain; charset=utf-8
png|image/png
woff2|font/woff2
KINDS
rm -f "$dir"/site/kind-test.*
# untyped: the files of the served site sent as application/octet-stream.
untyped() {
	(cd "$dir/site" && find . -type f ! -name '.mirror*' | sort) |
	while read -r f; do
		curl -sI --max-time 20 "$url${f#./}" |
		    grep -qi '^content-type: application/octet-stream' && echo "$f"
	done
}
expect "no file the site holds is sent as application/octet-stream" \
    test -z "$(untyped)"

# --- the reload script: in served pages only --------------------------------
# (beside the layout's "/" key script, assets/keys.js, on every page)
expect "served HTML polls /__mirror/reload in a script just before </body>" sh -c "
    grep -q 'fetch(\"/__mirror/reload?v=' project.html &&
    [ \$(grep -c '<script' project.html) = 2 ] &&
    [ \$(grep -c '^<script src=\"../../assets/keys.js\" defer></script>\$' project.html) = 1 ] &&
    sed -n '/<script/,\$p' project.html | grep -q '^</body>'"
expect "the files on disk have no script: it is added as pages are sent" sh -c "
    ! grep -rlq __mirror '$dir/site' &&
    ! grep -r '<script' '$dir/site' | grep -v 'assets/keys.js\" defer></script>\$' |
        grep -v -E '/(search/index|changes|conflicts/projects/[^/]+|(projects|conflicts|checks)/index(\.[a-z0-9-]+)*)\.html:' | grep -q ."
mirror build --store built.db --out built --quiet
expect "a site of mirror build holds no script and no reload endpoint" sh -c "
    [ $RC = 0 ] && [ -f built/index.html ] && ! grep -rlq __mirror built &&
    ! grep -r '<script' built | grep -v 'assets/keys.js\" defer></script>\$' |
        grep -v -E '^built/(search/index|changes|conflicts/projects/[^/]+|(projects|conflicts|checks)/index(\.[a-z0-9-]+)*)\.html:' | grep -q ."
get __mirror/reload
gen1=$(tr -d '\n' <body)
expect "/__mirror/reload answers the generation, a number" sh -c "
    [ '$code' = 200 ] && echo '$gen1' | grep -Eqx '[0-9]+'"

# --- a change of the store shows without a manual rebuild -----------------
# serve's own builds take the store's write lock now and then (its sweep,
# then the build that finds nothing to do): wait for it, as a writer
# should, instead of failing at once.
sqlite3 -bail -cmd '.timeout 30000' s.db \
    "UPDATE project_state SET value = '175 mm' WHERE id = 's2'"
expect "the store takes the change while serve runs" test $? = 0
expect "a fact changed in the store shows in the served page by itself" \
    eventually served projects/p05-interferometer/ '175 mm'
# (The files change a moment before the generation does: polled too.)
expect "the generation went up, so open pages reload; serve says so" \
    eventually sh -c "[ \$(curl -s '${url}__mirror/reload') -gt '$gen1' ] &&
        grep -q '^rebuilt in [0-9]* ms: pages reload' serve.out"

# --- a failed build: shown on the pages, the last good site stays ------------
echo '{{#if never_closed}}' >>tpl/index.md
expect "a template that breaks: every page shows the build error" \
    eventually served "" 'role="alert"'
expect "... with the error's words, escaped, and on stderr too" sh -c "
    grep -q 'never closed: &#39;never_closed&#39;' body &&
    grep -q '^mirror: serve: the build failed: .*index.md' serve.err"
expect "... while the last good site is still served" \
    served projects/p05-interferometer/ '175 mm'
cp "$MIRROR_TOP/templates/index.md" tpl/index.md
expect "the template mended: the banner goes, pages reload" \
    eventually sh -c "curl -s '$url' | grep -q '<h1' &&
        ! curl -s '$url' | grep -q 'role=\"alert\"'"

# --- idle, the templates are watched, not walked (issue 55, L3) -------------
# Serve used to fingerprint every watched tree four times a second (45% of
# a core on --templates /usr/share); now inotify tells it. Counted in
# system calls, not CPU time, so a loaded machine cannot blur it: once the
# builds above have settled, within 30 s there is a 2 s window in which
# serve (all its threads) reads no directory (getdents64) while its loop
# goes on napping (clock_nanosleep: strace did attach).
# idle_window: one such window.
idle_window() {
	timeout 2 strace -f -qq -e trace=getdents64,clock_nanosleep \
	    -o strace.out -p "$pid" 2>/dev/null
	[ "$(grep -c 'clock_nanosleep(' strace.out)" -gt 0 ] &&
	    ! grep -q 'getdents64(' strace.out
}
i=0
until idle_window || [ $i -ge 15 ]; do i=$((i + 1)); done
expect "idle, serve reads no directory: the templates are under inotify" \
    idle_window
echo '{{#if idle_broken}}' >>tpl/index.md
expect "... a template broken after that: inotify tells, pages show it" \
    eventually served "" 'idle_broken'
cp "$MIRROR_TOP/templates/index.md" tpl/index.md
expect "... and mended, the banner goes" eventually sh -c "
    curl -s '$url' | grep -q '<h1' && ! curl -s '$url' | grep -q 'role=\"alert\"'"

# --- hostile requests: a clean 4xx, nothing outside the site ---------------
# hostile NAME CODE PATH [CURL_ARGS...]
hostile() {
	name=$1 want=$2 p=$3
	shift 3
	get "$p" "$@"
	if [ "$code" = "$want" ] && ! grep -q 'root:' body; then
		ok "$name: $want"
	else
		not_ok "$name: $want" "got $code for '$p'"
	fi
}
hostile "/../etc/passwd" 400 "../etc/passwd"
hostile "/%2e%2e/%2e%2e/etc/passwd" 400 "%2e%2e/%2e%2e/etc/passwd"
hostile "an escaped dot segment inside a path" 400 \
    "projects/%2E%2E/%2E%2E/%2E%2E/etc/passwd"
hostile "an escaped NUL" 400 "index.html%00.md"
hostile "an escaped slash" 400 "projects%2Fp05-interferometer/index.html"
hostile "a broken escape" 400 "%zz"
hostile "mirror's own marker file" 404 ".mirror-output"
hostile "a 10 kB path" 414 "$(head -c 10240 /dev/zero | tr '\0' a)"
hostile "POST" 405 "" -d 'x=1'
expect "... and a 405 says Allow: GET, HEAD" test "$(header Allow)" = "GET, HEAD"
hostile "DELETE" 405 "index.html" -X DELETE
hostile "a Host of another site (DNS rebinding)" 403 "" -H 'Host: evil.example'
# --- the Host a request may name on the loopback (issue 67) -----------------
# Bound on 127.0.0.1:PORT, a Host names the loopback with the port bound
# (the port left out only on 80, which a browser omits): else 403, as is
# a request with no Host (curl -H 'Host:' sends none; answered 200 until
# issue 67) or an empty one, which no browser sends.
while IFS='|' read -r want host; do
	h=$(printf '%s' "$host" | sed "s/PORT/$port/g")
	case $h in
	NONE) arg='Host:' ;;
	EMPTY) arg='Host;' ;;
	*) arg="Host: $h" ;;
	esac
	get "" -H "$arg"
	expect "Host '$host': $want" test "$code" = "$want"
done <<'HOSTS'
200|127.0.0.1:PORT
200|localhost:PORT
200|LocalHost:PORT
200|[::1]:PORT
403|NONE
403|EMPTY
403|localhost
403|127.0.0.1
403|[::1]
403|localhost:1
403|127.0.0.1:PORT0
403|127.0.0.1:PORT.
403|127.0.0.2:PORT
403|[::ffff:127.0.0.1]:PORT
403|evil.example
403|evil.example:PORT
HOSTS
ln -s /etc/passwd "$dir/site/leak.html"
ln -s /etc "$dir/site/etc"
hostile "a symbolic link planted in the site" 404 "leak.html"
hostile "a path through a planted link to a directory" 404 "etc/passwd"
rm -f "$dir/site/leak.html" "$dir/site/etc"
get ""
expect "the server is still up and serving after all of them" test "$code" = 200

# --- a client trickling headers cannot lock the others out (issue 55, L1) ---
# 64 sockets (the connection limit) each send a request line, then one
# byte of a header a second, for 90 s: every byte is activity, so an idle
# timeout never ends them. The headers' deadline (10 s from accept) does:
# a normal GET behind them is answered well within curl's 40 s.
cat >trickle.py <<'PY'
import socket, sys, time
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks = []
for _ in range(n):
    s = socket.create_connection((host, port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    socks.append(s)
print("open", flush=True)
end = time.time() + 90
while socks and time.time() < end:
    time.sleep(1)
    for s in list(socks):
        try:
            s.sendall(b"x")
        except OSError:
            socks.remove(s)
print("closed by the server:", n - len(socks), flush=True)
PY
python3 trickle.py 127.0.0.1 "$port" 64 >trickle.out 2>trickle.err &
tpid=$!
eventually grep -q '^open' trickle.out
code=$(curl -s --max-time 40 -o body -w '%{http_code}' "$url")
expect "64 sockets trickling header bytes: a normal GET is still answered" \
    test "$code" = 200
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null

# --- idle sockets ahead in the listen queue (issue 67, R4-10) ---------------
# 300 sockets connect and send nothing. The server takes 64; the rest
# waited in the listen queue, 64 more each time the headers' deadline
# (10 s) freed the slots, and a GET behind them was answered after 40 s.
# Now the connection that takes the last slot shuts down the one idle
# longest: a GET is answered at once (5 s: a hang guard, not a timing).
cat >idle.py <<'PY'
import socket, sys, time
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks = [socket.create_connection((host, port)) for _ in range(n)]
print("open", len(socks), flush=True)
time.sleep(60)
PY
python3 idle.py 127.0.0.1 "$port" 300 >idle.out 2>idle.err &
ipid=$!
eventually grep -qs '^open 300' idle.out
code=$(curl -s --max-time 5 -o body -w '%{http_code}' "$url")
expect "300 idle sockets queued ahead: a GET is answered within 5 s" \
    test "$code" = 200
code=$(curl -s --max-time 5 -o body -w '%{http_code}' "$url")
expect "... and the next GET too" test "$code" = 200
kill "$ipid" 2>/dev/null
wait "$ipid" 2>/dev/null

# --- 127.0.0.1 only ---------------------------------------------------------
hexport=$(printf '%04X' "$port")
listen=$(awk -v p=":$hexport" '$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null | sort -u)
expect "it listens on 127.0.0.1 alone (/proc/net/tcp, tcp6)" \
    test "$listen" = "0100007F:$hexport"
other=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9.]+$' |
    grep -v '^127\.' | head -1)
if [ -n "$other" ]; then
	expect "another address of this machine ($other) is refused" sh -c "
	    ! curl -s --max-time 5 -o /dev/null 'http://$other:$port/'"
else
	expect "another local address (127.0.0.2) is refused" sh -c "
	    ! curl -s --max-time 5 -o /dev/null 'http://127.0.0.2:$port/'"
fi
TMPDIR="$T/tmp" $MIRROR_WRAP "$MIRROR" serve --store s.db --port "$port" \
    >busy.out 2>busy.err
RC=$?
expect "a port in use: exit 3, one line, its temporary directory gone" sh -c "
    [ $RC = 3 ] && [ \$(wc -l <busy.err) = 1 ] &&
    grep -q '^mirror: serve: cannot listen on 127.0.0.1:$port' busy.err &&
    [ \$(ls -d tmp/mirror-serve.* | wc -l) = 1 ]"

# --- Ctrl-C ------------------------------------------------------------------
kill -INT "$pid"
wait "$pid"
RC=$?
pid=""
expect "SIGINT stops it with exit status 0" test "$RC" = 0
expect "... its temporary directory is gone" test "$(serves)" = 0
expect "... and nothing listens on the port any more" sh -c "
    ! curl -s --max-time 5 -o /dev/null '$url'"

# --- --json, SIGTERM --------------------------------------------------------
TMPDIR="$T/tmp" $MIRROR_WRAP "$MIRROR" serve --store s.db --port 0 --json \
    >json.out 2>json.err &
pid=$!
eventually grep -q '"url"' json.out
expect "--json prints one document: url, port and dir" sh -c "
    [ \$(jq -s length json.out) = 1 ] &&
    jq -e '(.url | startswith(\"http://127.0.0.1:\")) and
        (.port | type) == \"number\" and (.dir | endswith(\"/site\"))' json.out >/dev/null"
kill -TERM "$pid"
wait "$pid"
RC=$?
pid=""
expect "SIGTERM stops it with exit status 0, its directory gone" sh -c "
    [ $RC = 0 ] && [ $(serves) = 0 ] && [ ! -s json.err ]"

# --- another loopback address: the printed URL answers (issue 55, L2) ------
start_serve b2.out b2.err --store s.db --port 0 --bind 127.0.0.2
get ""
expect "--bind 127.0.0.2: the printed URL answers 200, not 403" sh -c "
    echo '$url' | grep -Eqx 'http://127\\.0\\.0\\.2:[1-9][0-9]*/' &&
    [ '$code' = 200 ] && grep -q '<h1' body"
hostile "... while a Host of another site is still refused" 403 "" \
    -H 'Host: evil.example'
kill -TERM "$pid"
wait "$pid"
pid=""

# --- an IPv4-mapped address is the IPv4 address (issue 67) ------------------
# --bind ::ffff:127.0.0.1 served in round 3 (without the Host check: not
# taken for the loopback), then failed ("Invalid argument": an IPv6-only
# socket cannot bind it). It is 127.0.0.1, the Host check included.
start_serve m.out m.err --store s.db --port 0 --bind ::ffff:127.0.0.1
get ""
expect "--bind ::ffff:127.0.0.1 serves on 127.0.0.1 and says so" sh -c "
    echo '$url' | grep -Eqx 'http://127\\.0\\.0\\.1:[1-9][0-9]*/' &&
    [ '$code' = 200 ] && grep -q '<h1' body"
hostile "... with the loopback's Host check" 403 "" -H 'Host: evil.example'
kill -TERM "$pid"
wait "$pid"
pid=""

# --- search in a real browser, under serve (issue 67, R4-4) ----------------
# The example's search page in Debian chromium, at the URL serve prints:
# its queries and filters (tests/browser/search.test.js) find what they
# find over any static server. With search.js sent as octet-stream and
# nosniff, Chromium ran no script and no query had a result.
if sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>ensure.log; then
	ok "chromium, node and playwright-core are installed"
else
	not_ok "chromium, node and playwright-core are installed" \
	    "$(tail -3 ensure.log)"
fi
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
SOURCE_DATE_EPOCH=1793491200 start_serve ex.out ex.err --store ex.db --port 0
MIRROR_SEARCH_BASE=$url node "$MIRROR_TOP/tests/browser/search.test.js" \
    "$T/ex" >browser.log 2>&1
status=$?
awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ - /, "ok " base + (++k) " - t_serve: ") } { print }' browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
kill -TERM "$pid"
wait "$pid"
pid=""

# --- usage ---------------------------------------------------------------------
TMPDIR="$T/tmp" mirror serve --store s.db --port 65536
expect_error "--port out of range is a usage error" 1 "--port: '65536' is not a port number"
TMPDIR="$T/tmp" mirror serve --store s.db --bind localhost
expect_error "--bind takes a numeric address" 1 "--bind: 'localhost' is not a numeric"
TMPDIR="$T/tmp" mirror serve --store s.db --repo r.git
expect_error "serve does not take --repo" 1 "serve does not take --repo"
TMPDIR="$T/tmp" mirror serve --store missing.db --port 0
expect "a store that is not there: exit 2 before serving" sh -c "
    [ $RC = 2 ] && ! grep -q serving '$T/out'"
expect "no failed start leaves a temporary directory" test "$(serves)" = 0
