#!/usr/bin/env python3
"""check-api-docs.py [ROOT] - lists the public functions (TM_API in
include/topomap/*.h) that have no comment above their declaration or above
their group (igraph's rule).

A group is a block of lines without a blank line holding TM_API
declarations, one-statement typedefs and #defines; the comment must end on
the line just above the block (or follow the declaration on its last line).
Exit 1 and one "file:line: function" per undocumented function
(tests/cli/t91-api-docs.sh runs it in `make test`)."""
import glob
import os
import re
import sys


def spans_of(lines):
    """(start, end) of every TM_API declaration and one-statement typedef /
    #define, and for each line the start of the statement that holds it."""
    decls, owner = [], {}
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        kind = ("api" if re.match(r"TM_API\b", s) else
                "typedef" if s.startswith("typedef") and "{" not in s else
                "define" if s.startswith("#define") else None)
        if not kind:
            i += 1
            continue
        j = i
        if kind != "define":
            while j < len(lines) and not re.search(r"[;{]", lines[j]):
                j += 1
        for k in range(i, j + 1):
            owner[k] = i
        if kind == "api":
            decls.append((i, j))
        i = j + 1
    return decls, owner


def documented(lines, owner, s, e):
    tail = lines[e].split(";")[-1]
    if "/*" in tail or "//" in tail:
        return True
    p = s - 1
    while p >= 0 and lines[p].strip():
        t = lines[p].strip()
        if t.endswith("*/") and (t.startswith("/*") or t.startswith("*")):
            return True
        if p not in owner:
            return False
        p = owner[p] - 1
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    bad, total = [], 0
    for path in sorted(glob.glob(os.path.join(root, "include/topomap/*.h"))):
        lines = open(path).read().split("\n")
        decls, owner = spans_of(lines)
        for s, e in decls:
            total += 1
            if not documented(lines, owner, s, e):
                decl = " ".join(x.strip() for x in lines[s:e + 1]).replace("TM_API", "", 1)
                m = re.search(r"(\w+)\s*\(", decl)
                bad.append("%s:%d: %s" % (os.path.relpath(path, root), s + 1,
                                          m.group(1) if m else decl))
    for b in bad:
        print(b)
    print("%d public functions, %d without a comment above them or their group" %
          (total, len(bad)), file=sys.stderr)
    return 1 if bad or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
