#!/usr/bin/env python3
"""check_pages.py STORE SITE: the checks of a built site are on one page
per project, each under its own anchor.

- one file pair checks/projects/<project slug>.md and .html per project
  that has violations in STORE, no other file and no folder below
  checks/projects/ (a static host counts files and folders alike);
- the anchor id="<check id>" of every violation in STORE is on exactly
  one page of the site (.md and .html alike), the page of its project;
- every link to a check ("#chk-...") in any .md or .html page names a
  file that exists and an anchor that file holds.
Prints one line per problem and exits 1 if any; else a count and 0.
The example store's ids are clean slugs, so they are their own slugs.
"""
import os
import re
import sqlite3
import sys

store, site = sys.argv[1], sys.argv[2]
rows = sqlite3.connect(store).execute(
    "SELECT id, project, rule_id FROM rule_violations").fetchall()
bad = []
want = {p for _, p, _ in rows}
have = set()
top = os.path.join(site, "checks", "projects")
for f in os.listdir(top):
    if os.path.isdir(os.path.join(top, f)):
        bad.append(f"a folder below checks/projects/: {f}")
    else:
        have.add(f)
for p in sorted(want):
    for ext in (".md", ".html"):
        if p + ext not in have:
            bad.append(f"no page checks/projects/{p}{ext}")
extra = have - {p + e for p in want for e in (".md", ".html")}
bad += [f"a file of no project: {f}" for f in sorted(extra)]

pages = {}
for dirpath, _, files in os.walk(site):
    for f in files:
        if f.endswith((".md", ".html")):
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8") as fh:
                pages[path] = fh.read()
for cid, p, r in rows:
    holders = [path for path, text in pages.items()
               if text.count(f'id="{cid}"') > 0]
    for ext in (".md", ".html"):
        page = os.path.join(site, "checks", "projects", p + ext)
        if pages.get(page, "").count(f'id="{cid}"') != 1:
            bad.append(f"{cid}: not once on {page}")
    if len(holders) != 2:
        bad.append(f"{cid}: anchored on {len(holders)} pages, not 2")
links = 0
for path, text in pages.items():
    for dest in re.findall(r'(?:\]\(|href=")([^)"\s]*#chk-[0-9a-f]+)', text):
        links += 1
        file, frag = dest.split("#", 1)
        target = os.path.normpath(os.path.join(os.path.dirname(path), file)
                                  ) if file else path
        if f'id="{frag}"' not in pages.get(target, ""):
            bad.append(f"{path}: link {dest} does not resolve")
for b in bad:
    print(b)
if not bad:
    print(f"check_pages: {len(rows)} checks, {len(want)} pages, "
          f"{links} links")
sys.exit(1 if bad else 0)
