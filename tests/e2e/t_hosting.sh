#!/bin/sh
# mirror build --check-hosting (issue 59): the build says the site's
# bytes, files, folders and largest file and which static hosts it fits,
# and exits 5 when it passes a limit of a host named, with the site
# built; an unknown host is a usage error before anything is built.
# The promises of doc/publishing.md, "Will it fit the host?".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1

mirror build --store ex.db --out ex --check-hosting github-pages,cloudflare-pages-free
expect_status "the example fits GitHub Pages and Cloudflare's free plan (exit 0)" 0
expect "it prints the site's size and the hosts it fits" out_has \
    '^hosting: [0-9.]+ MB in [0-9,]+ files and [0-9]+ folders, largest [0-9.]+ kB \([a-z0-9/._-]+\); fits GitHub Pages, GitLab Pages, Cloudflare Pages \(free\), Cloudflare Pages \(paid\)$'
expect "... whose files are the files DIR holds" sh -c "
    grep -q \"in \$(find ex -type f | wc -l | sed 's/\\(...\\)\$/,\\1/;s/^,//') files and \$(find ex -mindepth 1 -type d | wc -l) folders\" out"
mirror build --store ex.db --out ex --check-hosting gitlab-pages --json --force
expect "with --json the size is an object: bytes, files, folders, largest, fits" sh -c "
    jq -e '.hosting | (.files > 100) and (.folders > 10) and (.bytes > 1000000)
        and (.largest_path | test(\"^[a-z0-9/._-]+\$\")) and (.fits | index(\"gitlab-pages\") != null)' out >/dev/null"

mirror build --store ex.db --out nope --check-hosting netlify
expect_error "an unknown host is a usage error naming the known ones" 1 \
    "--check-hosting: no host 'netlify' \\(known: github-pages, gitlab-pages, cloudflare-pages-free, cloudflare-pages\\)$"
expect "... and nothing is built" test ! -e nope
mirror build --store ex.db --out nope --check-hosting ''
expect_status "an empty list is a usage error" 1
# An empty item (a leading, doubled or trailing comma) is refused with
# one line naming the option, the item and the list, as an unknown id is
# (on a8d6902 'github-pages,' was taken as github-pages). LIST|ITEM:
while IFS='|' read -r list item; do
	mirror build --store ex.db --out nope --check-hosting "$list"
	expect_error "'$list' is a usage error naming its empty item $item" 1 \
	    "--check-hosting: item $item of '$list' is empty$"
done <<'LISTS'
github-pages,|2
,github-pages|1
github-pages,,gitlab-pages|2
,|1
github-pages,gitlab-pages,|3
LISTS
expect "... and nothing is built" test ! -e nope
for list in 'github-pages, gitlab-pages' 'github-pages,netlify' 'GitHub-Pages'; do
	mirror build --store ex.db --out nope --check-hosting "$list"
	expect_error "'$list' is a usage error naming the unknown host" 1 \
	    "--check-hosting: no host '[^']+' \\(known: "
done

# 7,500 one-fact projects (three files each: the overview's twins and
# the project's JSON; no decision, so no decision log): about 22,700
# files, past Cloudflare's free plan (20,000) and within its paid one
# (100,000).
new_store many.db || exit 1
sql many.db "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 7500)
    INSERT INTO projects(id, name) SELECT printf('p%05d', i), printf('Project %d', i) FROM n;
    INSERT INTO project_state(id, project, category, key, value)
    SELECT 'st-' || id, id, 'fact', 'k', 'v' FROM projects" || exit 1
mirror build --store many.db --out many --check-hosting cloudflare-pages,cloudflare-pages-free
expect_error "a site past a host's limit exits 5, naming DIR, the host and the limit" 5 \
    'many does not fit Cloudflare Pages \(free\): 22,[0-9][0-9][0-9] files, over its 20,000 \(--check-hosting\)$'
expect "... with the site built (and the report said it fits the paid plan)" sh -c "
    test -f many/index.html && test -f many/projects/p07500/index.html &&
    grep -q 'fits GitHub Pages, GitLab Pages, Cloudflare Pages (paid)\$' out"
mirror build --store many.db --out many --check-hosting cloudflare-pages
expect_status "the same site fits the paid plan (exit 0)" 0
exit 0
