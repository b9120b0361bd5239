#!/usr/bin/env python3
"""vocabulary.py STORE SITE [RULES_DIR]: the words people read are a person's.

Issue 70: no visible text of any HTML page holds a word of doc/site.md's
forbidden list ("The words the site uses"): a store column or table name
(`depends_on`, `project_state`, any name of the store's schema that has
an underscore, and any other snake_case word), a rule id in running text
(`claim-unsupported`: its name in words, "claim unsupported", instead),
a file position (`rules/gaps.sql:41`), or an internal term: "row",
"rows", "slot", "slots", "sweep", "supersede chain", "store snapshot",
"Check id". A trusted-state key is the store's name for a fact and may
show as the store writes it (`spindle_max_speed`); a rule's name in
words is its author's and may hold a term where it names the rule
("Rule: supersede chain", "(supersede chain)", a cell of its name).

The text read is what a reader sees: every HTML page's text outside tags
and attributes (URLs and anchors are never text), <code>, <pre>,
<script>, <style> left out, words with a / or an @ (paths and addresses
a value holds) left out. Store text (a fact's value, a source, a note)
is the store's and may say anything: the scan looks at the site's own
words, so the test's stores hold none of these words in their values.

ALLOW (below) lists phrases of text that another change rewrites, each
with who owns it; a finding inside one is printed as '# allowed'.

Prints one line per finding, 'page (kind): "phrase" in: text', and
exits 1 when there is any; prints 'vocabulary: N pages of K kinds, no
forbidden word' and exits 0 otherwise.
"""
import glob
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from running_text import Blocks, PATHLIKE, SKIP  # noqa: E402

SKIP.discard('title')  # a page's title is read in the tab and the history

TERMS = [r'rows?', r'slots?', r'sweeps?', r'supersede chains?',
         r'store snapshots?', r'check id', r'snake_case']
FILEPOS = r'[\w./-]+\.(?:sql|c|h|md|py|sh|json):\d+'
SNAKE = r'[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+'

# Text another engineer's change rewrites at the same time: a finding
# inside one of these is reported, not failed. None now.
ALLOW = []


def schema_names(db):
    out = set()
    for (t,) in db.execute("SELECT name FROM sqlite_master "
                           "WHERE type IN ('table', 'view')"):
        out.add(t)
        for (c,) in db.execute("SELECT name FROM pragma_table_info(?)",
                               (t,)):
            out.add(c)
    return out


def rule_ids(db, rules_dir):
    out = set()
    for table in ('rule_violations', 'rule_runs'):
        try:
            out.update(r[0] for r in db.execute(
                'SELECT DISTINCT rule_id FROM ' + table))
        except sqlite3.OperationalError:
            pass
    for path in glob.glob(os.path.join(rules_dir or '', '*.sql')):
        with open(path, encoding='utf-8') as f:
            out.update(re.findall(r'^-- rule: (\S+)', f.read(), re.M))
    return {r for r in out if isinstance(r, str) and '-' in r}


def kind(rel):
    """The page's kind: its path with the names of a store's things as '*'."""
    parts = rel.split('/')
    if len(parts) > 1:
        parts[-1] = re.sub(r'^[^.]*?(-\d+)?\.html$',
                           lambda m: ('*' if parts[-1] != 'index.html'
                                      else 'index') + '.html', parts[-1])
    if parts[0] == 'projects' and len(parts) > 2:
        parts[1] = '*'
    return '/'.join(parts)


def state_keys(db):
    try:
        return {r[0] for r in db.execute('SELECT DISTINCT key FROM '
                                         'project_state')
                if isinstance(r[0], str)}
    except sqlite3.OperationalError:
        return set()


def pattern(store, rules_dir):
    """(the forbidden words' pattern, the text the scan may skip: the
    state keys and the rules' names in words, as one pattern)."""
    db = sqlite3.connect('file:%s?mode=ro' % store, uri=True)
    words = sorted((n for n in schema_names(db) if '_' in n), key=len,
                   reverse=True)
    rules = sorted(rule_ids(db, rules_dir), key=len, reverse=True)
    keys = state_keys(db)
    db.close()
    free = sorted({r.replace('-', ' ') for r in rules}, key=len,
                  reverse=True) or ['\0']
    keys = sorted(keys, key=len, reverse=True) or ['\0']
    skip = re.compile(r'(?:(?<![\w-])(?:' + '|'.join(map(re.escape, keys))
                      + r')|(?:^Rule: |\(|^)(?:' + '|'.join(map(re.escape, free))
                      + r')(?=\)|$))(?![\w-])')
    alts = [re.escape(w) for w in words + rules] + [FILEPOS, SNAKE]
    alts += [r'\b' + t + r'\b' for t in TERMS]
    return (re.compile(r'(?<![\w-])(' + '|'.join(alts) + r')(?![\w-])',
                       re.I), skip)


def scan(path, pat, skip):
    p = Blocks()
    with open(path, encoding='utf-8') as fh:
        p.feed(fh.read())
    p.close()
    for text in p.blocks:
        seen = skip.sub(' ', PATHLIKE.sub(' ', text)) + ' ' + \
            ' '.join(re.findall(FILEPOS, text))
        for h in sorted(set(m.group(1) for m in pat.finditer(seen))):
            yield h, text


def main():
    store, site = sys.argv[1:3]
    pat, skip = pattern(store, sys.argv[3] if len(sys.argv) > 3 else None)
    pages, kinds, found = 0, set(), 0
    for root, _, files in os.walk(site):
        for f in sorted(files):
            if not f.endswith('.html'):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, site)
            pages += 1
            kinds.add(kind(rel))
            seen = set()
            for h, text in scan(path, pat, skip):
                if (h.lower(), text) in seen:
                    continue
                seen.add((h.lower(), text))
                if any(a in text for a in ALLOW):
                    print('# allowed %s: "%s" in: %s' % (rel, h, text[:160]))
                    continue
                found += 1
                print('%s (%s): "%s" in: %s' % (rel, kind(rel), h,
                                                 text[:160]))
    if found:
        print('vocabulary: %d findings in %d pages' % (found, pages))
        return 1
    print('vocabulary: %d pages of %d kinds, no forbidden word'
          % (pages, len(kinds)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
