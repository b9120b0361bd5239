#!/bin/sh
# Store text stands in the .md twin as stored (SPEC 6): escape_md
# escapes only what could form Markdown where it stands, so a value with
# hyphens, dots, colons, parentheses, an underscore and an e-mail address
# is in the page byte for byte, git log -S finds the commit that brought
# it, and the HTML twin shows it as text (no link, no emphasis).
. "$MIRROR_TOP/tests/e2e/lib.sh"
data="$MIRROR_TOP/tests/data"
export SOURCE_DATE_EPOCH=1700000000

v='GF-PTFE (rev B), 4.8 kg at 2026-11-01 00:00:00; cross_layer, ask qa@example.org'
new_store s.db "$data/site.sql" || exit 1
sql s.db "INSERT INTO project_state(id, project, category, key, value)
    VALUES('s-verbatim', 'p05-interferometer', 'fact', 'pad_spec', '$v')" ||
    exit 1
git init --bare -q repo.git
mirror build --store s.db --out site --repo repo.git --no-sweep --quiet \
    --author 'Test <test@example.org>'
expect_status "the store builds into a commit" 0
md=site/projects/p05-interferometer/index.md
expect "the value is in the .md byte for byte" grep -Fq "| $v |" "$md"
expect "and so is its key, underscore and all" grep -Fq '></a>pad_spec | ' "$md"
expect "git log -S finds the commit that brought it" sh -c "
    test \"\$(git --git-dir=repo.git log --format=%H -S'GF-PTFE (rev B), 4.8 kg' mirror | wc -l)\" -eq 1"
# The HTML writer keeps "GF-PTFE" and the date whole (a span, a <time>:
# gen/render/markdown.h, (i)); with those taken out, the cell is the text.
kept_text site/projects/p05-interferometer/index.html > p05.txt
expect "the HTML shows it as text: no mailto link, no emphasis" sh -c "
    grep -Fq '<td>$v</td>' p05.txt &&
    ! grep -q 'mailto:' site/projects/p05-interferometer/index.html"
