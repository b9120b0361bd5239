#!/usr/bin/env python3
"""search_records.py SITE CASE [ARGS]: reads a built site's search index
(search/index.js, its shards t-*.js and record chunks d-*.js, in the format
gen/search/search_index.h gives) as assets/search.js does, without a
browser; prints what it found wrong and exits 1, else exits 0.

Cases:
  cut      every string of every record (title, value, id, URL, the
           chunk's project names) is at most 4096 bytes, or a cut of at
           most 4096 bytes marked " ... (N bytes more)" as the pages mark
           it (util/text.h);
  find TERM LAYER PREFIX BYTES MORE
           a record among those the term TERM finds, of layer code LAYER
           (0 state .. 4 check), has a title cut to BYTES bytes starting
           with PREFIX and marked "(MORE bytes more)" (MORE or BYTES '*':
           any);
  urls     every record's URL, made as search.js makes it, names a
           page of the site holding the anchor it points at.
Used by tests/e2e/t_site_search.sh (issue 67, R4-6).
"""
import json, os, re, sys

site, case = sys.argv[1], sys.argv[2]
S = os.path.join(site, 'search')
MARK = re.compile(r'^(.*) \u2026 \((\d+) bytes more\)$', re.S)


def js_call(path, name):
    """The arguments of the one mirrorSearch.NAME(...) call of a file."""
    t = open(path, encoding='utf-8').read()
    head = 'mirrorSearch.%s(' % name
    if not (t.startswith(head) and t.endswith(');\n')):
        sys.exit('%s: not one mirrorSearch.%s call' % (path, name))
    return json.loads('[' + t[len(head):-3] + ']')


def files(pattern):
    return [os.path.join(S, f) for f in sorted(os.listdir(S))
            if re.fullmatch(pattern, f)]


def records():
    """Document number -> (record, its chunk's tables): chunk n holds
    kind n % 4's slots (n // 4) * chunk + lo, a record's lo is the one
    before's plus its first element, and a document's number is its
    slot past its kind's range start in the manifest."""
    man = js_call(os.path.join(S, 'index.js'), 'm')[0]
    base = [man['kinds'][k][0] for k in ('c', 'k', 'f')]
    out = {}
    for f in files(r'd-\d+\.js'):
        n, tabs, recs = js_call(f, 'd')
        lo = 0
        for r in recs:
            lo += r[0]
            out[base[n % 4] + (n // 4) * man['chunk'] + lo] = (r[1:], tabs)
    return out


def lookup(term):
    """The documents the shards list for term (its kept postings)."""
    for f in files(r't-[0-9a-f]{12}(-\d+)?\.js'):
        _, body = js_call(f, 't')
        toks, prev = body.split(' '), ''
        for i in range(0, len(toks) - 1, 2):
            prev = prev[:int(toks[i][0], 36)] + toks[i][1:]
            if prev == term:
                ids, d = [], 0
                for x in toks[i + 1].split(';')[-1].split(','):
                    if not x:
                        continue
                    d += int(x, 36)
                    ids.append(d)
                return ids
    return []


def url(r, tabs):
    """A record's URL as search.js's url() makes it: as written, else
    the manifest's template of its layer filled in."""
    layer = r[0] >> 3
    if len(r) > 6:
        return r[6][0] + '#' + r[5] if isinstance(r[6], list) else r[6]
    slug = tabs['p'][r[3]][1]
    t = MAN['urls'][layer][0 if slug else 1]
    return re.sub(r'\{(p|id)\}',
                  lambda m: slug if m.group(1) == 'p' else r[5], t)


MAN = js_call(os.path.join(S, 'index.js'), 'm')[0]
recs = records()
if case == 'cut':
    for r, tabs in recs.values():
        texts = [x for x in r if isinstance(x, str)]
        if len(r) > 6 and isinstance(r[6], list):
            texts.append(r[6][0])
        texts += [p[0] for p in tabs['p']] + tabs['s']
        for s in texts:
            m = MARK.match(s)
            if len(s.encode()) > 4096 and (
                    m is None or len(m.group(1).encode()) > 4096):
                sys.exit('a record keeps %d bytes: %.60s...' %
                         (len(s.encode()), s))
elif case == 'find':
    term, layer, prefix, nbytes, more = sys.argv[3:8]
    seen = []
    for d in lookup(term):
        r = recs[d][0]
        m = MARK.match(r[1])
        seen.append('%d:%.40s' % (r[0] >> 3, r[1]))
        if (r[0] >> 3 == int(layer) and m and m.group(1).startswith(prefix)
                and nbytes in ('*', str(len(m.group(1).encode())))
                and more in ('*', m.group(2))):
            sys.exit(0)
    sys.exit('%s finds no such record, only: %s' % (term, seen))
elif case == 'urls':
    for r, tabs in recs.values():
        page, _, frag = url(r, tabs).partition('#')
        path = os.path.join(site, page)
        if not os.path.isfile(path):
            sys.exit('record %.40s: no page %s' % (r[5], page))
        if frag and ('id="%s"' % frag) not in open(path, encoding='utf-8').read():
            sys.exit('record %.40s: no anchor %.60s in %s' % (r[5], frag, page))
else:
    sys.exit('no case ' + case)
