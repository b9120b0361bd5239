#!/usr/bin/env python3
"""css_selectors.py FILE.css...: the selectors whose cost grows with the page.

A browser matches ':has(...)' by looking at what an element holds, and
the general sibling combinator 'a ~ b' by looking back over b's earlier
siblings; both are looked at again as a page is parsed and grows. On a
page of tens of thousands of elements (the home page or the checks index
of a million-fact store) one such rule took the load from under a second
to a minute and a half (issue 69). The shipped themes style with classes
the templates and the renderer write instead.

Prints one line per use, "FILE:LINE: ':has(' ..." or "FILE:LINE: '~'
(general sibling combinator) ...", and exits 1 when there is one, else 0.
Comments and quoted strings are skipped; '~=' (the attribute selector
"has this word") is fine.
"""
import sys


def scan(text):
    """Yield (line, what) for each costly selector in the CSS text."""
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, min(j + 1, n))
            i = j + 1
        elif c == "\\":
            i += 2          # an escaped character is part of a name
        elif c == "~" and not text.startswith("~=", i):
            yield line, "'~' (general sibling combinator)"
            i += 1
        elif text.startswith(":has(", i) and (
                i == 0 or text[i - 1] != "\\"):
            yield line, "':has('"
            i += 5
        else:
            i += 1


def main():
    bad = 0
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, what in scan(text):
            print("%s:%d: %s: a selector whose cost grows with the page; "
                  "style with a class the layout or the renderer writes" %
                  (path, line, what))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
