#!/bin/sh
# HTML validity: every HTML page of five sites (the site test store after
# a sweep, the example in the default and the plain theme, the hostile
# corpus, a 10,000-fact bench site of 475 pages) passes the Nu HTML
# checker (vnu.jar from npm's vnu-jar, on the system's Java) with no
# error: one JVM over all of them, a case per site naming each error's
# page, line and message.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1700000000
vnu="$MIRROR_TOP/tests/browser/node_modules/vnu-jar/build/dist/vnu.jar"

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "java and vnu-jar are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
new_store s.db "$MIRROR_TOP/tests/data/site.sql" || exit 1
mirror build --store s.db --out site --quiet
expect_status "the test store builds after a sweep" 0
new_store ex.db "$MIRROR_TOP/site-example/example.sql" \
    "$MIRROR_TOP/tests/data/checks.sql" || exit 1
SOURCE_DATE_EPOCH=1793491200 mirror build --store ex.db --out example --quiet
expect_status "the example builds with the default theme" 0
SOURCE_DATE_EPOCH=1793491200 mirror build --store ex.db --out example-plain --quiet --theme plain
expect_status "the example builds with the plain theme" 0
new_store h.db || exit 1
python3 "$MIRROR_TOP/tests/tools/hostile_sql.py" "$MIRROR_TOP/tests/data/hostile" h.sql &&
    sqlite3 -bail h.db < h.sql || exit 1
mirror build --store h.db --out hostile --no-sweep --quiet
expect_status "the hostile site builds" 0
bench_store b.db || exit 1
SOURCE_DATE_EPOCH=1793491200 mirror build --store b.db --out bench10k --quiet
expect_status "the 10,000-fact bench site builds" 0
# A page with errors goes into the same run: the check can fail.
printf '<!DOCTYPE html><html><body><p><div></p></body></html>\n' > broken.html
# One JVM for every page; each error is a line '"file:PATH":L.C-L.C:
# error: MESSAGE' on stdout, PATH absolute and physical.
find site example example-plain hostile bench10k -name '*.html' | LC_ALL=C sort > pages
java -Xss4m -XX:TieredStopAtLevel=1 -jar "$vnu" --errors-only --format gnu --stdout \
    $(cat pages) broken.html > vnu.log 2> vnu.err
here=$(pwd -P)
for s in site example example-plain hostile bench10k; do
	n=$(grep -c "^$s/" pages)
	grep "^\"file:$here/$s/" vnu.log | sed "s|^\"file:$here/||; s|\":| |" > "vnu-$s.log"
	if [ "$n" -gt 0 ] && [ ! -s "vnu-$s.log" ]; then
		ok "the Nu checker finds no error in the $s's $n pages"
	else
		not_ok "the Nu checker finds no error in the $s's $n pages" \
		    "$(wc -l < "vnu-$s.log") errors, the first:"
		sed -n '1,12s/^/#   /p' "vnu-$s.log"
	fi
done
expect "the checker rejects a broken page, and says nothing else (the check can fail)" \
    sh -c "grep -q '^\"file:$here/broken.html\":.*error: Unclosed element' vnu.log &&
        test \$(grep -v -c '^\"file:' vnu.log) = 0"
if [ -s vnu.err ]; then sed -n '1,5s/^/#   stderr: /p' vnu.err; fi
