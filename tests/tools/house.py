#!/usr/bin/env python3
"""house.py: check the shape of the source tree against doc/architecture.md.

    python3 tests/tools/house.py [TOP]

Reads every .c and .h under core/ and gen/ of TOP (default: the checkout
this file is in) and checks, from the code's own #include lines:

  1. each stage folder includes only the stages below it (STAGES);
  2. no circle of files: a.c uses b.c when a.c or a.h includes b.h, or
     when a.c names a function that b.c defines (a call, or a pointer
     to it in a table); no file reaches itself through such uses. A
     private header with no .c of its own (template_int.h) belongs to the .c
     whose name starts its name (template.c);
  3. no folder holds more than MAX_C .c files;
  4. no function is longer than MAX_FN lines (from the line with its
     name to its closing brace, KNF: the name starts a line);
  5. doc/architecture.md's "Includes ..." sentence of each stage names
     exactly the stages its code includes, so the doc cannot drift;
  6. no function takes more than MAX_PARAMS parameters (what travels
     together is a struct), but for the callbacks whose signature a
     library sets (LIBRARY_CALLBACKS);
  7. every stage folder is drawn in doc/architecture.md's picture (its
     first fenced block) and has a row in doc/development.md's layout
     table ("| `gen/site/` | ..."), where those files exist, so a new
     folder cannot go undocumented;
  8. every object of static storage the shipped code may change (a
     file-scope variable, or a function's static one, that is not const;
     what #ifdef MIRROR_TEST_HOOKS holds is the test build's) is one
     doc/development.md's "File-scope state" list names with its file
     and reason, and the list names no other (STATE_LIST);
  9. every thread is started by jobs_thread_start (THREAD_START): no
     other file calls pthread_create, so every thread is named and
     joins the build's allocation (util/xalloc.h) before it works.

Prints one line per stage (files, lines, what it includes) and one line
per violation; exits 1 when there is any violation, 0 otherwise.
"""
import os
import re
import sys

MAX_C = 12
MAX_FN = 80
MAX_PARAMS = 6
# Functions whose parameter list a library dictates, and which.
LIBRARY_CALLBACKS = {
    "on_request": "libmicrohttpd's MHD_AccessHandlerCallback",
}

# Each stage and the stages it may include (its own is always allowed).
# The order is the pipeline's: util <- sys <- store <- rules <- sweep <- site ->
# render -> output; git stands apart from them, on util and sys alone; pipeline
# runs them in their order; serve runs builds; cli sits on top.
STAGES = {
    "core/util": [],
    "core/sys": ["core/util"],
    "core/store": ["core/util", "core/sys"],
    "core/rules": ["core/util", "core/sys", "core/store"],
    "core/sweep": ["core/util", "core/sys", "core/store", "core/rules"],
    "gen/output": ["core/util", "core/sys"],
    "gen/render": ["core/util", "core/sys", "gen/output"],
    "gen/words": ["core/util"],
    "gen/gitlib": ["core/util"],
    "gen/git": ["core/util", "core/sys", "gen/words", "gen/gitlib"],
    "gen/search": ["core/util", "core/sys"],
    "gen/site": ["core/util", "core/sys", "core/store", "core/rules",
                 "core/sweep", "gen/search", "gen/render", "gen/output",
                 "gen/words"],
    "gen/pipeline": ["core/util", "core/sys", "core/store", "core/rules",
                     "core/sweep", "gen/site", "gen/render", "gen/output",
                     "gen/git"],
    "gen/serve": ["core/util", "core/sys", "gen/output", "gen/pipeline"],
    "gen/cli": ["core/util", "core/sys", "core/store", "core/rules",
                "core/sweep", "gen/pipeline",
                "gen/site", "gen/search", "gen/render", "gen/output", "gen/git",
                "gen/gitlib", "gen/serve", "gen/words"],
}

# doc/development.md's list of the state that stays: its heading, and
# one bullet a file ("- `core/sys/jobs.c`: `side_mu`, `side_cv`: why").
STATE_LIST = "### File-scope state"
STATE_ITEM = re.compile(r"^- `((?:core|gen)/[\w/]+\.[ch])`: "
                        r"((?:`\w+`(?:, |,\n\s*| and )?)+)", re.M)
KEYWORDS = {"const", "volatile", "restrict", "static", "extern", "struct",
            "union", "enum", "unsigned", "signed", "int", "char", "long",
            "short", "float", "double", "void", "_Thread_local", "__thread",
            "_Atomic", "inline", "register", "_Bool"}

# The one file that calls pthread_create (rule 9).
THREAD_START = "core/sys/jobs.c"
PTHREAD_CREATE = re.compile(r"\bpthread_create\s*\(")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
FN_START = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\(")


def sources(top):
    """Every .c/.h under core/ and gen/, as paths relative to top."""
    out = []
    for root in ("core", "gen"):
        for d, _, files in os.walk(os.path.join(top, root)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), top))
    return sorted(out)


def resolve(top, path, inc):
    """The tree path an include names: beside the file, else from the
    stage roots (-Icore -Igen); None when it is none of ours."""
    cands = [os.path.join(os.path.dirname(path), inc),
             os.path.join("core", inc), os.path.join("gen", inc)]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(top, c)):
            return c
    return None


def unit_of(top, f):
    """The .c a file belongs to: its own, the .c whose stem starts a
    private header's stem (template_int.h: template.c), else itself."""
    stem = f[:-2]
    if os.path.isfile(os.path.join(top, stem + ".c")):
        return stem + ".c"
    d, base = os.path.split(stem)
    best = None
    for c in sorted(os.listdir(os.path.join(top, d))):
        if c.endswith(".c") and base.startswith(c[:-2] + "_"):
            if best is None or len(c) > len(best):
                best = c
    return os.path.join(d, best) if best else f


def code_only(text):
    """text without comments, string and character literals, and member
    names (s->x, s.x), so a word there is no use of a function."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\\n])*"' + r"|'(\\.|[^'\\\n])*'", " ", text)
    return re.sub(r"(->|\.)\s*[A-Za-z_]\w*", " ", text)


def thread_starts(text):
    """The lines (from 1) where text calls pthread_create: in code, not
    in a comment or a string (each of which keeps its newlines)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    code = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"", blank, text,
                  flags=re.S)
    return [code.count("\n", 0, m.start()) + 1
            for m in PTHREAD_CREATE.finditer(code)]


def defined(text):
    """Names of the functions text defines with external linkage."""
    out, prev = [], ""
    for line in text.split("\n"):
        if (FN_START.match(line) and not line.rstrip().endswith(";") and
                not prev.startswith("static")):
            out.append(line.split("(")[0])
        prev = line
    return out


STAGE_ITEM = re.compile(r"^- \*\*`((?:core|gen)/[a-z]+)/?`\*\*", re.M)
STAGE_NAME = re.compile(r"`((?:core|gen)/[a-z]*)/?`")


def doc_includes(top):
    """Each stage of doc/architecture.md's lists and the stages its
    "Includes ..." sentence names (the last such sentence of its item;
    "Includes nothing of ours" names none). A stage without one maps to
    None."""
    path = os.path.join(top, "doc", "architecture.md")
    if not os.path.isfile(path):
        return {}
    text = open(path, encoding="utf-8").read()
    out = {}
    items = list(STAGE_ITEM.finditer(text))
    for i, m in enumerate(items):
        end = items[i + 1].start() if i + 1 < len(items) else len(text)
        body = text[m.end():end].split("\n\n")[0].split("\n## ")[0]
        ats = [x.start() for x in re.finditer(r"Includes\s", body)]
        at = ats[-1] if ats else -1
        if at < 0:
            out[m.group(1)] = None
            continue
        sentence = re.split(r"\.(?:\s|$)", body[at:], maxsplit=1)[0]
        named = set()
        for n in STAGE_NAME.findall(sentence):
            # "all of `core/`": every stage of that side.
            named |= ({x for x in STAGES if x.startswith(n)}
                      if n.endswith("/") else {n})
        out[m.group(1)] = named
    return out


def undocumented(top):
    """The stages missing from doc/architecture.md's picture or from
    doc/development.md's layout table, as problem lines; none for a
    tree without those files."""
    bad = []
    arch = os.path.join(top, "doc", "architecture.md")
    if os.path.isfile(arch):
        m = re.search(r"^```\n(.*?)^```", open(arch, encoding="utf-8").read(),
                      re.M | re.S)
        drawn = set(re.findall(r"\b((?:core|gen)/[a-z]+)\b",
                               m.group(1))) if m else set()
        bad += ["doc/architecture.md: the picture does not draw %s" % st
                for st in STAGES if st not in drawn]
    dev = os.path.join(top, "doc", "development.md")
    if os.path.isfile(dev):
        rows = set(re.findall(r"^\| `((?:core|gen)/[a-z]+)/` \|",
                              open(dev, encoding="utf-8").read(), re.M))
        bad += ["doc/development.md: the layout table has no row for %s/" %
                st for st in STAGES if st not in rows]
    return bad


def shipped_code(text):
    """text as the shipped build compiles it, for the state check: no
    comments, literals emptied, no preprocessor lines, and nothing
    between #ifdef MIRROR_TEST_HOOKS and its #else or #endif."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*",
                  lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "0", text)
    out, stack = [], []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("#"):
            d = line.strip()
            while d.endswith("\\") and i + 1 < len(lines):
                i += 1
                d = d[:-1] + lines[i].strip()
                out.append("")
            w = re.match(r"#\s*(\w+)\s*(\w*)", d)
            kw, arg = (w.group(1), w.group(2)) if w else ("", "")
            if kw in ("if", "ifdef", "ifndef"):
                stack.append(kw == "ifdef" and arg == "MIRROR_TEST_HOOKS")
            elif kw in ("else", "elif") and stack:
                stack[-1] = False
            elif kw == "endif" and stack:
                stack.pop()
            out.append("")
        else:
            out.append("" if any(stack) else line)
        i += 1
    return "\n".join(out)


def _split_top(s, sep):
    """s cut at each sep outside (), [] and {}."""
    parts, depth, cur = [], 0, ""
    for c in s:
        depth += c in "([{" and 1 or c in ")]}" and -1 or 0
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


def _flatten(s, opening, closing, keep):
    """s with each outermost opening..closing group replaced by keep."""
    out, depth = [], 0
    for c in s:
        if c == opening:
            if depth == 0:
                out.append(keep)
            depth += 1
        elif c == closing and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def _depth0_parens(x):
    """(offset, stripped content) of each outermost (...) of x."""
    out, depth, at = [], 0, 0
    for i, c in enumerate(x):
        if c == "(":
            if depth == 0:
                at = i
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append((at, x[at + 1:i].strip()))
    return out


def _mutables(decl, fn_types=()):
    """The names of the objects a declaration (no final ';') defines
    that the program may change: not a typedef, function, extern
    declaration, type or const object."""
    d = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", decl.strip(), flags=re.S)
    if not d or re.match(r"(typedef|extern|_Static_assert|static_assert)\b", d):
        return []
    d = _flatten(_flatten(d, "{", "}", "{}"), "[", "]", "[]")
    parts = [p.split("=")[0].strip() for p in _split_top(d, ",")]
    first = parts[0]
    star = first.find("*")
    base = first[:star] if star >= 0 else first
    words = re.findall(r"\w+", base)
    if star < 0 and len(words) > 1 and words[-2] in fn_types:
        return []               # functions declared by a typedef's name
    out = []
    for x in parts:
        groups = _depth0_parens(x)
        if any(re.search(r"\w\s*$", x[:at]) and not inner.startswith("*")
               for at, inner in groups):
            continue            # a function
        fp = [re.match(r"\*\s*(const\s+)?(\w+)", inner)
              for at, inner in groups if inner.startswith("*")]
        if fp and fp[0]:
            if not fp[0].group(1):
                out.append(fp[0].group(2))
            continue
        names = [w for w in re.findall(r"\b[A-Za-z_]\w*\b", x)
                 if w not in KEYWORDS]
        if not names or (x is first and re.search(
                r"\b(struct|union|enum)\s+\w+\s*(\{\})?$", x)):
            continue            # a type, no object
        st = x.rfind("*")
        if st >= 0:
            const = re.match(r"\s*const\b", x[st + 1:]) is not None
        else:
            const = re.search(r"\bconst\b", base) is not None
        if not const:
            out.append(names[-1])
    return out


def function_types(text):
    """The names text typedefs as function types (typedef int f(void);)."""
    return set(re.findall(r"\btypedef\b[^;{}()]*?\b(\w+)\s*\([^*]",
                          shipped_code(text)))


def static_state(text, fn_types=()):
    """(line, name, 'file' or 'block') of every object of static storage
    the shipped code may change: file-scope variables and the static
    variables of functions."""
    code = shipped_code(text)
    out = []
    i, start, n = 0, 0, len(code)

    def line_of(pos):
        return code.count("\n", 0, pos) + 1

    def skip_braces(j):
        k = 1
        j += 1
        while j < n and k:
            k += code[j] == "{" and 1 or code[j] == "}" and -1 or 0
            j += 1
        return j

    while i < n:
        c = code[i]
        if c == "{":
            head = code[start:i]
            if "=" in head or not head.rstrip().endswith(")"):
                i = skip_braces(i)      # an initializer or a type's body
                continue
            end = skip_braces(i)
            body = code[i + 1:end - 1]
            for m in re.finditer(r"(?<![\w])static\b", body):
                j, k = m.start(), 0
                while j < len(body) and not (body[j] == ";" and k == 0):
                    k += body[j] in "({[" and 1 or body[j] in ")}]" and -1 or 0
                    j += 1
                for name in _mutables(body[m.start():j], fn_types):
                    out.append((line_of(i + 1 + m.start()), name, "block"))
            i = start = end
            continue
        if c == ";":
            decl = code[start:i]
            for name in _mutables(decl, fn_types):
                pos = start + len(decl) - len(decl.lstrip())
                out.append((line_of(pos), name, "file"))
            start = i + 1
        i += 1
    return out


def state_listed(top):
    """{(file, name)} doc/development.md's "File-scope state" list names
    (empty when there is no such file or list)."""
    path = os.path.join(top, "doc", "development.md")
    if not os.path.isfile(path):
        return set()
    text = open(path, encoding="utf-8").read()
    at = text.find("\n" + STATE_LIST + "\n")
    if at < 0:
        return set()
    body = text[at + len(STATE_LIST) + 2:]
    body = body[:body.find("\n#")] if "\n#" in body else body
    return {(m.group(1), n) for m in STATE_ITEM.finditer(body)
            for n in re.findall(r"`(\w+)`", m.group(2))}


def state_problems(top, texts):
    """The objects of static storage the shipped code may change that the
    list leaves out, and the list's names the code lacks, as problem
    lines."""
    listed, found, bad = state_listed(top), set(), []
    fn_types = set()
    for text in texts.values():
        fn_types |= function_types(text)
    for f in sorted(texts):
        for line, name, kind in static_state(texts[f], fn_types):
            found.add((f, name))
            if (f, name) not in listed:
                bad.append("%s:%d: %s is %s state the shipped code may "
                           "change, not in doc/development.md's \"%s\" "
                           "list" % (f, line, name, kind == "file" and
                                     "file-scope" or "a function's static",
                                     STATE_LIST[4:]))
    for f, name in sorted(listed - found):
        bad.append("doc/development.md: \"%s\" lists %s in %s, which the "
                   "code does not have" % (STATE_LIST[4:], name, f))
    return bad, len(found)


def stage_of(path):
    return os.path.dirname(path)


def circles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def long_functions(text):
    """(name, first line, length) of every function over MAX_FN lines."""
    out, name, start = [], None, 0
    for n, line in enumerate(text.split("\n"), 1):
        if name is None and FN_START.match(line) and not line.rstrip().endswith(";"):
            name, start = line.split("(")[0], n
        elif name is not None and line.startswith("}"):
            if n - start + 1 > MAX_FN:
                out.append((name, start, n - start + 1))
            name = None
        elif name is not None and line.rstrip().endswith(";") and n == start:
            name = None
    return out


def wide_functions(text):
    """(name, first line, parameters) of every function definition that
    takes more than MAX_PARAMS parameters and is no library's callback."""
    out, lines = [], text.split("\n")
    for n, line in enumerate(lines, 1):
        if not FN_START.match(line) or line.rstrip().endswith(";"):
            continue
        sig, k = line, n
        while sig.count("(") > sig.count(")") and k < len(lines):
            sig += " " + lines[k].strip()
            k += 1
        if k >= len(lines) or not lines[k].startswith("{"):
            continue            # a declaration or a macro's use
        name = line.split("(")[0]
        inner = sig[sig.index("(") + 1:sig.rindex(")")]
        depth, params = 0, 1
        for c in inner:
            depth += c in "([" and 1 or c in ")]" and -1 or 0
            params += c == "," and depth == 0
        if inner.strip() in ("", "void"):
            params = 0
        if params > MAX_PARAMS and name not in LIBRARY_CALLBACKS:
            out.append((name, n, params))
    return out


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(__file__), "..", ".."))
    files = sources(top)
    bad = []
    unit = {}        # file -> its unit (the .c of the same stem, else itself)
    for f in files:
        unit[f] = unit_of(top, f)
    defs = {}        # non-static function name -> the .c defining it
    texts = {}
    for f in files:
        texts[f] = open(os.path.join(top, f), encoding="utf-8").read()
        if f.endswith(".c"):
            for name in defined(texts[f]):
                defs[name] = f
    uses = re.compile(r"\b(" + "|".join(sorted(defs)) + r")\b") if defs else None
    edges = {}
    reach = {}
    lines = {}
    for f in files:
        st = stage_of(f)
        if st not in STAGES:
            bad.append("%s: not in a stage folder (%s)" % (f, ", ".join(STAGES)))
            continue
        text = texts[f]
        lines[st] = lines.get(st, 0) + text.count("\n")
        for n, inc in ((text.count("\n", 0, m.start()) + 1, m.group(1))
                       for m in INCLUDE.finditer(text)):
            dest = resolve(top, f, inc)
            if dest is None:
                continue
            ds = stage_of(dest)
            reach.setdefault(st, set()).add(ds)
            if ds != st and ds not in STAGES[st]:
                bad.append("%s:%d: includes %s, but %s may include only %s" %
                           (f, n, inc, st, ", ".join(STAGES[st]) or "itself"))
            a, b = unit[f], unit[dest]
            if a != b:
                edges.setdefault(a, set()).add(b)
        if f.endswith(".c") and uses is not None:
            for m in uses.finditer(code_only(text)):
                dest = defs[m.group(1)]
                if dest != f:
                    edges.setdefault(f, set()).add(dest)
        if f != THREAD_START:
            for n in thread_starts(text):
                bad.append("%s:%d: calls pthread_create; start a thread "
                           "with jobs_thread_start (%s)" % (
                               f, n, THREAD_START))
        if f.endswith(".c"):
            for name, start, length in long_functions(text):
                bad.append("%s:%d: %s is %d lines (at most %d)" %
                           (f, start, name, length, MAX_FN))
            for name, start, params in wide_functions(text):
                bad.append("%s:%d: %s takes %d parameters (at most %d)" %
                           (f, start, name, params, MAX_PARAMS))
    for comp in circles(edges):
        bad.append("circle of %d files: %s" % (len(comp), " -> ".join(comp)))
    for st in STAGES:
        ncs = sum(1 for f in files if stage_of(f) == st and f.endswith(".c"))
        if ncs > MAX_C:
            bad.append("%s: %d .c files (at most %d)" % (st, ncs, MAX_C))
        print("%-11s %2d .c %6d lines  includes %s" % (
            st, ncs, lines.get(st, 0),
            ", ".join(sorted(reach.get(st, set()) - {st})) or "nothing"))
    documented = doc_includes(top)
    for st in STAGES:
        if documented and st not in documented:
            bad.append("doc/architecture.md: no item for the stage %s" % st)
    for st, named in sorted(documented.items()):
        got = reach.get(st, set()) - {st}
        if st not in STAGES:
            bad.append("doc/architecture.md: %s is no stage" % st)
        elif named is None:
            bad.append("doc/architecture.md: %s says nothing of what it "
                       "includes (its code includes %s)" %
                       (st, ", ".join(sorted(got)) or "nothing"))
        elif named != got:
            bad.append("doc/architecture.md: %s includes %s, not %s" %
                       (st, ", ".join(sorted(got)) or "nothing",
                        ", ".join(sorted(named)) or "nothing"))
    bad += undocumented(top)
    state_bad, n_state = state_problems(top, texts)
    bad += state_bad
    print("state       %d objects of static storage the shipped code may "
          "change" % n_state)
    for b in bad:
        print("house: " + b)
    print("house: %d problem%s" % (len(bad), "" if len(bad) == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
