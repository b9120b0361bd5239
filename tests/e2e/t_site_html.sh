#!/bin/sh
# HTML validity: every HTML page of three sites (the site test store after
# a sweep, the example, the hostile corpus) passes the Nu HTML checker
# (vnu.jar from npm's vnu-jar, on the system's Java) with no error.
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
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out example --quiet --theme plain
expect_status "the example builds with the plain theme" 0
new_store h.db || exit 1
python3 "$MIRROR_TOP/tests/tools/hostile_sql.py" "$MIRROR_TOP/tests/data/hostile" h.sql &&
    sqlite3 -bail h.db < h.sql || exit 1
mirror build --store h.db --out hostile --no-sweep --quiet
expect_status "the hostile site builds" 0
find site example hostile -name '*.html' | LC_ALL=C sort > pages
java -Xss4m -XX:TieredStopAtLevel=1 -jar "$vnu" --errors-only --stdout $(cat pages) > vnu.log 2>&1
RC=$?
expect "the Nu checker finds no error in $(wc -l < pages) pages" \
    sh -c "test $RC = 0 && test ! -s vnu.log"
[ -s vnu.log ] && sed -n '1,10s/^/#   /p' vnu.log
# A page with an error must fail: the check can fail.
printf '<!DOCTYPE html><html><body><p><div></p></body></html>\n' > broken.html
java -Xss4m -XX:TieredStopAtLevel=1 -jar "$vnu" --errors-only broken.html > /dev/null 2>&1
expect "the checker rejects a broken page (the check can fail)" test $? -ne 0
