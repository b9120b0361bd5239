#!/usr/bin/env python3
"""linkcheck.py DIR: every relative link and #fragment in a built site
resolves.

Walks every .html and .md page under DIR. HTML: every href/src of a, link,
img and script. Markdown: every inline link destination "](dest)". A link
with a scheme or starting with "//" must not appear at all (the site is
relative everywhere, also with --base-url), so it is reported; the one
exception is the layout's empty icon <link href="data:,">. The other
exception is 404.html, which a web server sends for a missing URL at any
depth: its links start at the site's base URL (the address feed.xml's
rel="self" link gives, less "feed.xml"), else at "/", and are checked as
links from the site root.
A relative link must name a file inside DIR; its #fragment must be an
id="..." (HTML) or an explicit <a id="..."></a> anchor (Markdown) of that
file. Prints one line per broken link and exits 1 if any; prints a count
and exits 0 otherwise.
"""
import html.parser
import os
import re
import sys
import urllib.parse

from mdfence import text_outside_fences


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" and v is not None:
                self.ids.add(v)
            if k in ("href", "src") and v is not None and \
                    tag in ("a", "link", "img", "script"):
                # An empty data: icon keeps browsers from asking the
                # server for /favicon.ico; it loads nothing.
                if tag == "link" and v == "data:,":
                    continue
                self.links.append(v)


MD_LINK = re.compile(r"(?<!\\)\]\(([^()\s]+)\)")
MD_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".html"):
        p = Page()
        p.feed(text)
        return p.ids, p.links
    # Fenced code is text: what looks like a link there is none.
    text = text_outside_fences(text)
    return set(MD_ANCHOR.findall(text)), MD_LINK.findall(text)


def site_base(root):
    """Where 404.html's links start: feed.xml's self link less
    "feed.xml" when it is absolute, else "/"."""
    try:
        with open(os.path.join(root, "feed.xml"), encoding="utf-8") as f:
            m = re.search(r'<link rel="self"[^>]* href="([^"]*)feed\.xml"',
                          f.read())
    except OSError:
        m = None
    if m and urllib.parse.urlsplit(m.group(1)).scheme:
        return m.group(1)
    return "/"


def main():
    root = os.path.realpath(sys.argv[1])
    d = root
    cache = {}

    def info(path):
        if path not in cache:
            cache[path] = parse(path)
        return cache[path]

    bad = 0
    checked = 0
    base = site_base(root)
    for d, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".html", ".md")):
                continue
            page = os.path.join(d, name)
            _, links = info(page)
            for link in links:
                checked += 1
                u = urllib.parse.urlsplit(link)
                where = os.path.relpath(page, root)
                if where == "404.html" and not link.startswith("#"):
                    if not link.startswith(base):
                        print(f"{where}: {link} does not start at {base}")
                        bad += 1
                        continue
                    link = "./" + link[len(base):]
                    u = urllib.parse.urlsplit(link)
                    d = root
                elif u.scheme or link.startswith("//"):
                    print(f"{where}: absolute link {link}")
                    bad += 1
                    continue
                target = page
                if u.path:
                    target = os.path.realpath(os.path.join(
                        d, urllib.parse.unquote(u.path)))
                    if not (target == root or
                            target.startswith(root + os.sep)):
                        print(f"{where}: {link} leaves the site")
                        bad += 1
                        continue
                    if os.path.isdir(target):
                        target = os.path.join(target, "index.html")
                    if not os.path.isfile(target):
                        print(f"{where}: {link}: no such file")
                        bad += 1
                        continue
                if u.fragment:
                    if not target.endswith((".html", ".md")):
                        continue
                    ids, _ = info(target)
                    frag = urllib.parse.unquote(u.fragment)
                    if frag not in ids:
                        print(f"{where}: {link}: no id '{frag}'")
                        bad += 1
    print(f"linkcheck: {checked} links checked, {bad} broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
