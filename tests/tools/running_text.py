#!/usr/bin/env python3
"""running_text.py STORE SITE: the words people read hold no machine text.

Issue 57: no running text of any page holds a project slug, a fact,
conflict or check id, or a raw timestamp ('2026-11-01 00:00:00'). The
text read is every HTML page's visible text outside what may carry
them: URLs and anchors (attributes are never text), <code> and <pre>,
<script>, <style>, <svg> titles aside, and the id line (a block whose
text starts "id" or "<Word> id", as "Conflict id: c4dcd35f8cb"), and
words with a / or an @ (paths and addresses a value holds).

The names come from the store: projects.id, the ids of project_state,
entities, memories, conflicts and rule_violations. Matched as whole
words (a slug inside a longer word does not count).

Prints one line per finding, 'page: "name" in: text', and exits 1 when
there is any; prints 'running_text: N pages, no machine text' and exits
0 otherwise.
"""
import html.parser
import os
import re
import sqlite3
import sys

SKIP = {'code', 'pre', 'script', 'style', 'title'}
BLOCK = {'p', 'li', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
         'dt', 'dd', 'figcaption', 'caption', 'summary', 'blockquote',
         'div', 'section', 'header', 'footer', 'nav', 'main', 'article',
         'aside', 'label', 'option', 'button', 'table', 'tr', 'ul', 'ol',
         'dl', 'details', 'body', 'text', 'tspan'}
VOID = {'br', 'img', 'input', 'meta', 'link', 'hr', 'col', 'wbr',
        'source', 'area', 'base', 'embed', 'track', 'param'}
ID_LINE = re.compile(r'^\s*(?:[A-Za-z]+ )?id\b', re.I)
TIMESTAMP = re.compile(r'\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\b')
# A path, an address or a URL a value holds ('git@host:hw/p04.git') is
# the store's text, not the mirror's words.
PATHLIKE = re.compile(r'\S*[/@]\S*')


class Blocks(html.parser.HTMLParser):
    """Collects the text of each block element, skipped elements left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.tags = []
        self.stack = []
        self.blocks = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if tag in SKIP:
            self.skip += 1
        self.stack.append([] if tag in BLOCK else None)
        self.tags.append(tag)

    def handle_endtag(self, tag):
        tags = self.tags
        if tag in VOID or tag not in tags:
            return
        while tags:
            t = tags.pop()
            buf = self.stack.pop()
            if t in SKIP:
                self.skip -= 1
            if buf is not None:
                text = ''.join(buf).strip()
                if text:
                    self.blocks.append(' '.join(text.split()))
            if t == tag:
                break

    def handle_data(self, data):
        if self.skip:
            return
        for buf in reversed(self.stack):
            if buf is not None:
                buf.append(data)
                return


def names(store):
    db = sqlite3.connect('file:%s?mode=ro' % store, uri=True)
    out = set()
    for table in ('projects', 'project_state', 'entities', 'memories',
                  'conflicts', 'rule_violations'):
        try:
            out.update(r[0] for r in db.execute('SELECT id FROM ' + table))
        except sqlite3.OperationalError:
            pass
    db.close()
    return sorted((n for n in out if isinstance(n, str) and n), key=len,
                  reverse=True)


def main():
    store, site = sys.argv[1:3]
    words = names(store)
    pattern = re.compile(r'(?<![\w-])(' + '|'.join(map(re.escape, words))
                         + r')(?![\w-])') if words else None
    pages = 0
    found = 0
    for root, _, files in os.walk(site):
        for f in sorted(files):
            if not f.endswith('.html'):
                continue
            path = os.path.join(root, f)
            pages += 1
            p = Blocks()
            with open(path, encoding='utf-8') as fh:
                p.feed(fh.read())
            p.close()
            rel = os.path.relpath(path, site)
            for text in p.blocks:
                if ID_LINE.match(text):
                    continue
                hits = []
                if pattern is not None:
                    hits += pattern.findall(PATHLIKE.sub(' ', text))
                hits += TIMESTAMP.findall(text)
                for h in sorted(set(hits)):
                    found += 1
                    print('%s: "%s" in: %s' % (rel, h, text[:160]))
    if found:
        print('running_text: %d findings in %d pages' % (found, pages))
        return 1
    print('running_text: %d pages, no machine text' % pages)
    return 0


if __name__ == '__main__':
    sys.exit(main())
