"""Lines of a Markdown page outside its fenced code blocks.

A fenced block's content is text, never markup, so checks that look for
links, markers or raw HTML in a .md twin skip it. Fences follow
CommonMark 4.5: up to three spaces, then three or more '`' or '~'
(a backtick fence's info string holds no backtick); the block closes on
a line of the same character, at least as many, and only blanks after.
mirror's templates open the only fences: store text placed in one is a
single line that never starts with a fence character (gen/render/template.h,
|code), so it cannot close one.
"""
import re

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def outside_fences(lines):
    """Yield (number, line) for each line outside fenced code blocks,
    the fence lines themselves excluded; numbers start at 1."""
    fence = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line.rstrip("\n"))
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                fence = m.group(1)
                continue
            yield n, line
        elif (m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
              and m.group(2).strip() == ""):
            fence = None


def text_outside_fences(text):
    """The page's text with its fenced code blocks removed."""
    return "".join(line for _, line in outside_fences(text.splitlines(True)))
