#!/usr/bin/env python3
"""check-layers.py [ROOT] - the layer rule of ROOT/src/README.md.

src/README.md is the one statement of the layers; this script reads its
three fenced blocks (after the marker lines `<!-- layers -->`,
`<!-- interfaces -->` and `<!-- public-headers -->`), so the page and the
check cannot drift apart:

- layers: one line per folder of src/, lowest layer first: "N folder what
  it holds" (lines that start with a blank continue the text).  A folder
  includes only from folders of lower layers, and from those only their
  interface headers; every folder of src/ is placed, every placed one exists.
- interfaces: "folder: h1.h h2.h ...", the headers of a folder that higher
  folders may include (paths inside the folder).
- public-headers: one line per header of include/topomap/, lowest first, as
  the layers.  A public header includes only public headers of lower layers
  ("topomap/x.h") and system or dependency headers (<...>), never a file of
  src/; every header of include/topomap/ is listed, every one listed exists.

Checked: every `#include` line of ROOT/src/**/*.[ch] and ROOT/include/topomap/
*.h.  A quoted include is resolved as the compiler does (beside the file
first, then under include/), and, as before, "X/h.h" naming a folder of
src/ is taken as that folder's.  Prints `file:line: what is wrong` for each
offence and exits 1; exits 2 when src/README.md lacks a block or is
inconsistent (a folder twice, layers out of order, a folder or header that
does not exist)."""
import glob
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
ENTRY_RE = re.compile(r'^(\d+)\s+(\S+)')


def block(text, marker):
    """The lines of the fenced block after the line `<!-- marker -->`."""
    lines = text.split("\n")
    try:
        i = lines.index("<!-- %s -->" % marker)
    except ValueError:
        return None
    while i < len(lines) and not lines[i].startswith("```"):
        i += 1
    out = []
    for line in lines[i + 1:]:
        if line.startswith("```"):
            return out
        out.append(line)
    return None


def ranked(lines, what, fatal):
    """{name: layer} of a layers-style block, in order (layer numbers may
    not go down)."""
    rank, last = {}, 0
    for line in lines:
        if not line.strip() or line[0] in " \t#":
            continue
        m = ENTRY_RE.match(line)
        if not m:
            fatal("src/README.md: %s block: '%s' is not 'N name what it holds'" % (what, line))
            continue
        n, name = int(m.group(1)), m.group(2)
        if name in rank:
            fatal("src/README.md: %s block lists %s twice" % (what, name))
        if n < last:
            fatal("src/README.md: %s block: %s (layer %d) after layer %d: list them bottom "
                  "to top" % (what, name, n, last))
        rank[name], last = n, max(last, n)
    return rank


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    readme = os.path.join(root, "src", "README.md")
    bad = []      # offences: exit 1
    broken = []   # the page itself: exit 2

    def fatal(msg):
        broken.append("check-layers: " + msg)

    if not os.path.isfile(readme):
        print("check-layers: no %s" % readme, file=sys.stderr)
        return 2
    text = open(readme, encoding="utf-8").read()
    blocks = {}
    for marker in ("layers", "interfaces", "public-headers"):
        blocks[marker] = block(text, marker)
        if not blocks[marker]:
            print("check-layers: %s has no <!-- %s --> block" % (readme, marker), file=sys.stderr)
            return 2
    rank = ranked(blocks["layers"], "layers", fatal)
    hrank = ranked(blocks["public-headers"], "public-headers", fatal)
    iface = set()
    for line in blocks["interfaces"]:
        line = line.split("#")[0]
        if ":" not in line:
            continue
        folder, heads = line.split(":", 1)
        folder = folder.strip()
        if folder not in rank:
            fatal("src/README.md: interface of %s, which is in no layer" % folder)
        for h in heads.split():
            iface.add(folder + "/" + h)
            if not os.path.isfile(os.path.join(root, "src", folder, h)):
                fatal("src/README.md: interface header src/%s/%s does not exist" % (folder, h))
    for f in rank:
        if not os.path.isdir(os.path.join(root, "src", f)):
            fatal("src/README.md lists src/%s, which does not exist" % f)
    pub_dir = os.path.join(root, "include", "topomap")
    for h in hrank:
        if not os.path.isfile(os.path.join(pub_dir, h)):
            fatal("src/README.md lists include/topomap/%s, which does not exist" % h)

    os.chdir(root)
    unplaced = set()
    sources = sorted(p for ext in ("c", "h")
                     for p in glob.glob("src/**/*.%s" % ext, recursive=True))
    for path in sources:
        me = path.split("/")[1]
        if me not in rank:
            if me not in unplaced:
                bad.append("%s:1: folder src/%s is in no layer of src/README.md" % (path, me))
                unplaced.add(me)
            continue
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = INCLUDE_RE.match(line)
            if not m or m.group(1) == "<":
                continue
            inc = m.group(2)
            if inc.startswith("topomap/"):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), inc))
            if not os.path.exists(target) and "/" in inc and not inc.startswith("."):
                target = os.path.normpath(inc if inc.startswith("src/") else "src/" + inc)
            parts = target.split("/")
            if parts[0] != "src" or len(parts) < 3:
                if os.path.exists(target):
                    bad.append("%s:%d: includes %s, which is outside src/ and not a public "
                               "header" % (path, n, inc))
                continue  # not found anywhere: the compiler says so
            to, inside = parts[1], "/".join(parts[2:])
            shown = to + "/" + inside
            if to == me:
                continue
            if to not in rank:
                bad.append("%s:%d: includes %s from src/%s, which is in no layer of "
                           "src/README.md" % (path, n, shown, to))
            elif rank[to] >= rank[me]:
                bad.append("%s:%d: includes %s: src/%s (layer %d) may not include from src/%s "
                           "(layer %d)" % (path, n, shown, me, rank[me], to, rank[to]))
            elif shown not in iface:
                bad.append("%s:%d: includes %s, private to src/%s (not in its interface in "
                           "src/README.md)" % (path, n, shown, to))

    for path in sorted(glob.glob("include/topomap/*.h")):
        me = os.path.basename(path)
        if me not in hrank:
            bad.append("%s:1: public header %s is not in the public-headers block of "
                       "src/README.md" % (path, me))
            continue
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            quoted, inc = m.group(1) == '"', m.group(2)
            name = inc[len("topomap/"):] if inc.startswith("topomap/") else None
            if name is None and quoted and "/" not in inc and os.path.isfile(
                    os.path.join(pub_dir, inc)):
                name = inc
            if name is None:
                if quoted:
                    bad.append("%s:%d: includes \"%s\": a public header includes only public "
                               "headers (\"topomap/x.h\") and system or dependency headers, "
                               "never a file of src/" % (path, n, inc))
                continue
            if name not in hrank:
                bad.append("%s:%d: includes topomap/%s, which is no public header listed in "
                           "src/README.md" % (path, n, name))
            elif hrank[name] >= hrank[me]:
                bad.append("%s:%d: includes topomap/%s: %s (layer %d) may not include %s "
                           "(layer %d)" % (path, n, name, me, hrank[me], name, hrank[name]))
    for line in broken + bad:
        print(line)
    return 2 if broken else 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
