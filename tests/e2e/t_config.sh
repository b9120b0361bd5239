#!/bin/sh
# The config file (--config FILE or ./mirror.ini), as a user meets it:
# comments and quotes reach the built page as documented, and every
# mistake is one line "mirror: config FILE:LINE: what", exit 2, with
# nothing built. The syntax is documented at the top of gen/cli/config.c.
# The promises of doc/publishing.md, "Without the script".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000

new_store s.db "$MIRROR_TOP/tests/data/tiny.sql" || exit 1

# expect_line NAME CODE LINE: exit CODE and stderr exactly "mirror: LINE".
expect_line() {
	if [ "${RC:-x}" = "$2" ] && [ "$(cat "$T/err")" = "mirror: $3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected exit $2 and the one line 'mirror: $3'"
	fi
}

# bad NAME LINE: build with bad.ini (written by the caller) fails with
# exit 2 and exactly LINE, and writes no site.
bad() {
	rm -rf badsite
	mirror --config bad.ini build
	expect_line "$1" 2 "$2"
	[ -e badsite ] && not_ok "$1: no site is written" "badsite exists"
}

# title_is DIR TEXT: DIR/index.html's <title> is the site title TEXT
# (HTML-escaped as the page shows it), once. The .md twin escapes
# Markdown punctuation, so the HTML is where the text is seen as given.
title_is() {
	grep -qF "<title>$2</title>" "$1/index.html"
}

# --- what reaches the page ------------------------------------------------
printf '# the site\nstore = s.db\nout = site\ntitle = Plant # a note\n' > c.ini
mirror --config c.ini build --quiet
expect_status "a config with a comment after a value builds" 0
expect "the title stops before the comment" grep -qx '# Plant' site/index.md
expect "the HTML title has no comment in it" sh -c "
    grep -q '<title>Plant</title>' site/index.html &&
    ! grep -q 'a note' site/index.html"
expect "the default theme's CSS is written" test -s site/assets/style.css

printf '[mirror]\nstore = s.db\nout = site\ntitle = "  Plant #1; \\"best\\" \\\\ all  " # why\n' > c.ini
mirror --config c.ini build --quiet
expect "a quoted title keeps '#', ';', blanks and escaped quotes" \
    title_is site '  Plant #1; &quot;best&quot; \ all  '

printf 'store = s.db\n[mirror]\r\nout = site\r\ntitle = C# on Windows ; crlf\r\n' > c.ini
mirror --config c.ini build --quiet
expect "keys before [mirror], CRLF lines and a '#' inside a word" \
    title_is site 'C# on Windows'

mirror --config c.ini build --quiet --title 'From the command line'
expect "the command line wins over the config file" \
    grep -qx '# From the command line' site/index.md

mkdir -p conf
printf 'store = ../s.db\nout = ../rel-site\ntheme = plain\ntitle = Relative\n' > conf/site.ini
mirror --config conf/site.ini build --quiet
expect "paths are relative to the config file" grep -qx '# Relative' rel-site/index.md
expect "theme = plain is used" test ! -e rel-site/assets

awk 'BEGIN { printf "store = s.db\nout = long\n# "
    for (i = 0; i < 40000; i++) printf "note "; printf "\ntitle = Long lines\n" }' > long.ini
mirror --config long.ini build --quiet
expect "a 200 000-byte comment line is no limit" title_is long 'Long lines'
awk 'BEGIN { printf "store = s.db\nout = long\ntitle = "
    for (i = 0; i < 20000; i++) printf "Plant "; printf "# end\n" }' > long.ini
mirror --config long.ini build --quiet
# The page cuts a long title and says how much it left out.
expect "a 120 000-byte title is read whole" sh -c "
    test $RC = 0 && n=\$(head -1 long/index.md | sed -n 's/.*(\\([0-9]*\\) bytes more.*/\\1/p') &&
    test \"\$n\" -gt 100000"

printf 'store = s.db\ntitle = From mirror.ini\n' > mirror.ini
mirror build --out implicit --quiet
expect "./mirror.ini is read when --config is not given" \
    title_is implicit 'From mirror.ini'
printf 'store = s.db\ntitle = a\ntitle = b\n' > mirror.ini
mirror health
expect_line "an error in ./mirror.ini names it" 2 \
    "config mirror.ini:3: duplicate key 'title' (first set at line 2)"
rm mirror.ini

# --- every mistake: one line naming file and line, exit 2 ------------------
printf 'store = s.db\nout = badsite\ntitle = a\n\ntitle = b\n' > bad.ini
bad "a duplicate key names both lines" \
    "config bad.ini:5: duplicate key 'title' (first set at line 3)"
printf 'store = s.db\nout = badsite\ntitel = Plant\n' > bad.ini
bad "an unknown key suggests the nearest" \
    "config bad.ini:3: unknown key 'titel' (did you mean 'title'?)"
printf 'store = s.db\nout = badsite\ncolour = red\n' > bad.ini
bad "an unknown key far from any lists the known keys" \
    "config bad.ini:3: unknown key 'colour' (known: store, out, repo, branch, author, sign_key, templates, rules, theme, base_url, title, param.RULE.NAME)"
printf '[site]\nstore = s.db\nout = badsite\n' > bad.ini
bad "an unknown section" \
    "config bad.ini:1: unknown section [site] (the only section is [mirror])"
printf '[mirror\nstore = s.db\nout = badsite\n' > bad.ini
bad "a section header without ']'" \
    "config bad.ini:1: bad section header: no closing ']'"
printf '[mirror] out = badsite\nstore = s.db\n' > bad.ini
bad "text after a section header" \
    "config bad.ini:1: bad section header: text after ']'"
printf '[mirror]\nstore = s.db\n[mirror]\nout = badsite\n' > bad.ini
bad "a second [mirror]" \
    "config bad.ini:3: a second [mirror] section (the first is at line 1)"
printf 'store = s.db\nout = badsite\ntitle Plant\n' > bad.ini
bad "a line without '='" "config bad.ini:3: missing '=' (want 'key = value')"
printf 'store = s.db\nout = badsite\n = Plant\n' > bad.ini
bad "an empty key" "config bad.ini:3: empty key before '='"
printf 'store = s.db\nout = badsite\ntitle = "Plant\n' > bad.ini
bad "an unterminated quote" \
    "config bad.ini:3: unterminated quoted value (no closing '\"')"
printf 'store = s.db\nout = badsite\ntitle = "Plant" and more\n' > bad.ini
bad "text after the closing quote" "config bad.ini:3: text after the closing quote"
printf 'store = s.db\nout = badsite\ntitle = "C:\\\\dir\\n"\n' > bad.ini
bad "an unknown escape in quotes" \
    "config bad.ini:3: unknown escape '\\n' in a quoted value (only \\\" and \\\\)"
printf 'store = s.db\nout =   # nowhere\n' > bad.ini
bad "an empty path" "config bad.ini:2: empty value for 'out'"
printf 'store = s.db\nout = badsite\nbase_url = example.org/site\n' > bad.ini
bad "base_url must be an absolute http(s) URL" \
    "config bad.ini:3: base_url: 'example.org/site' is not an absolute http(s) URL (like https://example.org/mirror)"
printf 'store = s.db\nout = badsite\nrepo = r.git\nauthor = Mirror Bot\n' > bad.ini
bad "author must be 'Name <email>'" \
    "config bad.ini:4: author: 'Mirror Bot' is not of the form 'Name <email>'"
printf 'store = s.db\nout = badsite\nrepo = r.git\nbranch = a..b\n' > bad.ini
bad "branch must be a valid git branch name" \
    "config bad.ini:4: branch: 'a..b' is not a valid git branch name"
printf 'store = s.db\nout = badsite\ntheme = Dark Mode\n' > bad.ini
bad "theme must be a theme name or a path" \
    "config bad.ini:3: theme: bad theme name 'Dark Mode' (use [a-z0-9_-]+ or a directory path)"
printf 'store = s.db\nout = badsite\ntitle = Pl\000nt\n' > bad.ini
bad "a NUL byte" "config bad.ini:3: a NUL byte (column 11)"
printf 'store = s.db\nout = badsite\ntitle = Pl\351nt\n' > bad.ini
bad "invalid UTF-8 (Latin-1)" "config bad.ini:3: invalid UTF-8 (byte 0xe9, column 11)"
printf 'store = s.db\nout = badsite\ntitle = \033[31mred\n' > bad.ini
bad "a control character" "config bad.ini:3: a control character 0x1b (column 9)"

rm -rf bad.ini && mkdir bad.ini
bad "a directory is refused" "config bad.ini: a directory, not a regular file"
rmdir bad.ini && mkfifo bad.ini
rm -rf badsite
RC=x
timeout 20 "$MIRROR" --config bad.ini build >"$T/out" 2>"$T/err"
RC=$?
expect_line "a FIFO is refused at once, not read (no hang)" 2 \
    "config bad.ini: a FIFO, not a regular file"
rm -f bad.ini
mirror --config nosuch.ini health
expect_line "a missing file" 2 "config nosuch.ini: No such file or directory"

cp s.db before.db
printf 'store = s.db\nout = badsite\ntitle = ok\ntitle = again\n' > bad.ini
mirror --config bad.ini sweep
expect_status "a bad config fails the sweep" 2
expect "a bad config stops before the store is touched" \
    test "$(fingerprint s.db)" = "$(fingerprint before.db)"
