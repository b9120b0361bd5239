#!/bin/sh
# The static hosts' budget, scaled (issue 59): the sites of the bench
# store at 10,000 and 20,000 facts, projected along the line through
# them to 1,000,000 facts (at most 100,000 files and folders, Cloudflare
# Pages' paid plan; at most 1 GB, GitHub and GitLab Pages, less the 2%
# the line was seen to fall short of the 1M site by) and to
# 100,000 (at most 20,000 files, Cloudflare's free plan); and each of
# the two sites' largest file within 25 MiB scaled to its facts (a list
# that grows with the store would pass 25 MiB at 1M). The generator
# grows every part in proportion, so the line is the site's growth
# (tests/tools/site_budget.py says how; make bench BENCH=full measures
# the 1M site itself).
# The promises of doc/publishing.md, "How large a store fits".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
budget="$MIRROR_TOP/tests/tools/site_budget.py"

bench_store a.db 10000 || exit 1
bench_store b.db 20000 || exit 1
mirror build --store a.db --out a --quiet
expect_status "the 10,000-fact bench store builds" 0
mirror build --store b.db --out b --quiet
expect_status "the 20,000-fact bench store builds" 0
python3 "$budget" a 10000 b 20000 > budget.txt 2>&1
sed "s/^/#   /" budget.txt
expect "projected to 1,000,000 facts: at most 100,000 files and folders" \
    grep -q '^ok 1000000 facts: files and folders ' budget.txt
expect "projected to 1,000,000 facts: at most 1 GB (980 MB projected)" \
    grep -q '^ok 1000000 facts: bytes ' budget.txt
expect "projected to 100,000 facts: at most 20,000 files" \
    grep -q '^ok 100000 facts: files ' budget.txt
expect "at 10,000 facts no file is over 25 MiB scaled (262,144 bytes)" \
    grep -q '^ok 10000 facts: .* budget 262144)$' budget.txt
expect "at 20,000 facts no file is over 25 MiB scaled (524,288 bytes)" \
    grep -q '^ok 20000 facts: .* budget 524288)$' budget.txt
# The projection must be able to fail: a site with a file past the
# scaled limit, and one that grows by two files a fact.
mkdir -p big/x && head -c 300000 /dev/zero > big/x/f
cp -R a grow && i=0 && while [ $i -lt 200 ]; do : > "grow/f$i"; i=$((i + 1)); done
python3 "$budget" a 10000 grow 10100 > over.txt 2>&1
expect "a site that grows by two files a fact is over the files budget" \
    grep -q '^OVER 1000000 facts: files and folders ' over.txt
python3 "$budget" big 10000 b 20000 > big.txt 2>&1
expect "a file over the scaled limit is named" \
    grep -q '^OVER 10000 facts: .*largest 300000 (x/f; budget 262144)$' big.txt
exit 0
