"""api_facts.py: the facts of an api/projects/<slug>.json as objects.

Each row of the file's "facts" is an array, its layer first, then its
values in the order the file's "columns" names them for that layer,
ending at its last value that is not null (a column past its end is
null, as CSV readers take missing trailing fields); facts(doc) makes
each an object, the layer under "layer" and each value under its
column's name, null (None) where the fact has none.
"""


def facts(doc):
    """The facts of doc (a parsed api/projects/<slug>.json) as dicts."""
    cols = doc["columns"]
    out = []
    for row in doc["facts"]:
        names = cols[row[0]]
        if not 2 <= len(row) <= len(names) + 1:
            raise ValueError("row %r: %d values for %d columns"
                             % (row[:2], len(row) - 1, len(names)))
        full = row + [None] * (len(names) + 1 - len(row))
        out.append(dict(zip(["layer"] + names, full)))
    return out
