#!/usr/bin/env python3
"""json_digits.py DIR...: no number in any JSON file under DIR has more
digits than it needs to read back as the same double.

Each real literal is compared with Python's repr of its value, the
shortest text that reads back the same: '0.80000000000000004' (17
digits) where '0.8' (1) would do is a finding. Prints each finding and
the count of reals read; exits 1 on a finding, 2 when no real was read
(the check would prove nothing), 0 otherwise.
"""
import json
import os
import re
import sys

DIGITS = re.compile(r'[^0-9eE]*([0-9.]*)')


def significant(text):
    """The significant digits of a number's text (no sign, point,
    exponent, leading or trailing zeros)."""
    mantissa = re.split(r'[eE]', text.lstrip('-'))[0].replace('.', '')
    return len(mantissa.strip('0')) or 1


def main():
    reals = 0
    bad = 0
    for top in sys.argv[1:]:
        for d, _, files in os.walk(top):
            for n in sorted(files):
                if not n.endswith('.json'):
                    continue
                path = os.path.join(d, n)
                found = []
                with open(path, encoding='utf-8') as fh:
                    json.load(fh, parse_float=lambda t: found.append(t))
                for t in found:
                    reals += 1
                    if significant(t) > significant(repr(float(t))):
                        bad += 1
                        print('%s: %s where %r reads back the same'
                              % (path, t, float(t)))
    print('json_digits: %d reals, %d with digits to spare' % (reals, bad))
    if bad:
        return 1
    return 0 if reals else 2


if __name__ == '__main__':
    sys.exit(main())
