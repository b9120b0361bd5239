#!/bin/sh
# Themes are a real boundary: the same Markdown twins under the default
# theme, the plain one, and a user's own theme directory; the plain theme
# reads well in a text browser (w3m); broken themes are bad input that
# leaves the site as it was.
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
export SOURCE_DATE_EPOCH=1700000000
p05=projects/p05-interferometer/index

new_store s.db "$data/site.sql" || exit 1

# --- plain: a text browser shows navigation, facts and markers ------------
mirror build --store s.db --out plain --no-sweep --theme plain
expect_status "the plain theme builds" 0
w3m -dump -cols 80 "plain/$p05.html" >dump.txt 2>&1
expect "w3m shows the site navigation as the first line" sh -c "
    head -1 dump.txt | grep -q '^Human Mirror | Projects | Conflicts\$'"
expect "w3m shows the disputed fact with its marker on one item" \
    grep -Eq '^ +• lateral_support_material = GF-PTFE ⚠ disputed' dump.txt
expect "no line is wider than the 80-column terminal" python3 -c "
import sys
sys.exit(any(len(l.rstrip('\\n')) > 80 for l in open('dump.txt', encoding='utf-8')))"
expect "no markup or template syntax leaks into the text" \
    sh -c "! grep -Eq '<|>|\\{\\{|\\}\\}|&[a-z]+;' dump.txt"
expect "the footer names the store snapshot" \
    grep -Eq 'store snapshot [0-9a-f]{16}' dump.txt
w3m -dump -o display_link_number=1 -cols 200 "plain/$p05.html" >links.txt 2>&1
expect "the marker links the conflict's HTML page" \
    grep -Eq '\[[0-9]+\] file://.*/plain/conflicts/c-5e1a\.html$' links.txt
expect "the plain theme ships no stylesheet and no assets" sh -c "
    ! grep -rq 'stylesheet' plain --include='*.html' && test ! -e plain/assets"

# --- default: the same content with no JavaScript -------------------------
mirror build --store s.db --out default --no-sweep
expect_status "the default theme builds" 0
w3m -dump -cols 80 "default/$p05.html" >dump2.txt 2>&1
expect "the default theme's content reads without CSS or JavaScript" \
    grep -Eq '^ +• lateral_support_material = GF-PTFE ⚠ disputed' dump2.txt
expect "no page of any theme holds a script" \
    sh -c "! grep -rqi '<script' default plain"
expect "the stylesheet every page links is there" sh -c "
    grep -q 'href=\"../../assets/style.css\"' default/$p05.html &&
    test -s default/assets/style.css"
expect "themes change the HTML twin only: the .md twins are identical" sh -c "
    cd default && find . -name '*.md' | sort | while read f; do
        cmp -s \"\$f\" \"../plain/\$f\" || { echo \"\$f\"; exit 1; }; done"

# --- a user's own theme, by path ------------------------------------------
cp -R "$MIRROR_TOP/themes/plain" mine
sed 's|<hr>|<hr><p>my theme</p>|' "$MIRROR_TOP/themes/plain/layout.html" \
    >mine/layout.html
mkdir mine/assets && echo 'body { margin: 0 }' >mine/assets/mine.css
mirror build --store s.db --out own --no-sweep --theme ./mine
expect_status "a theme directory given by path builds" 0
expect "its layout wraps every page" sh -c "
    test \$(grep -rL 'my theme' own --include='*.html' | grep -v 404 | wc -l) = 0"
expect "its assets are copied to assets/" cmp -s mine/assets/mine.css \
    own/assets/mine.css

# --- broken themes are bad input; the site stays as it was ----------------
before=$(fingerprint own)
printf '<title>{{title}}</title>\n{{{content}}}\n{{colour}}\n' >mine/layout.html
mirror build --store s.db --out own --no-sweep --theme ./mine
expect_error "a layout naming an unknown key names file, line and key" 2 \
    "mine/layout.html:3: unknown placeholder 'colour'"
expect "and leaves the site byte-identical" test "$before" = "$(fingerprint own)"
printf '<title>{{title}}</title>\n' >mine/layout.html
mirror build --store s.db --out own --no-sweep --theme ./mine
expect_error "a layout without the content slot is refused" 2 \
    'no \{\{\{content\}\}\} slot'
printf '{{{content}}}\n' >mine/layout.html
: >"mine/assets/bad name.css"
mirror build --store s.db --out own --no-sweep --theme ./mine
expect_error "an asset with an unsafe name is refused" 2 \
    'not a usable theme asset'
mirror build --store s.db --out own --no-sweep --theme 'Bad/../../x'
expect_error "a theme path that does not exist is bad input" 2 \
    "theme directory 'Bad/../../x' not found"
expect "after all of these the site is still byte-identical" \
    test "$before" = "$(fingerprint own)"
