#!/usr/bin/env python3
"""check-layers.py [ROOT] [--objects DIR] [--mpi-objects DIR] - the layer
rule of ROOT/src/README.md.

src/README.md is the one statement of the layers; this script reads its
four fenced blocks (after the marker lines `<!-- layers -->`,
`<!-- interfaces -->`, `<!-- public-api-only -->` and
`<!-- public-headers -->`), so the page and the check cannot drift apart:

- layers: one line per folder of src/, lowest layer first: "N folder what
  it holds" (lines that start with a blank continue the text).  A folder
  includes only from folders of lower layers, and from those only their
  interface headers; every folder of src/ is placed, every placed one exists.
- interfaces: "folder: h1.h h2.h ...", the headers of a folder that higher
  folders may include (paths inside the folder).
- public-api-only: "folder: f1 f2 ...", folders that sit on the library as
  any program does: from a lower folder they include only the interface
  headers of f1, f2 ... (and topomap/*.h), and call only the functions
  libtopomap.so exports and those of f1, f2 ...
- public-headers: one line per header of include/topomap/, lowest first, as
  the layers.  A public header includes only public headers of lower layers
  ("topomap/x.h") and system or dependency headers (<...>), never a file of
  src/; every header of include/topomap/ is listed, every one listed exists.

Includes: every `#include` line of ROOT/src/**/*.[ch] and ROOT/include/
topomap/*.h.  A quoted include is resolved as the compiler does (beside the
file first, then under include/), and "X/h.h" naming a folder of src/ is
taken as that folder's.

Uses, from the object files (with --objects DIR: the object of src/F/x.c is
DIR/src/F/x.o; with --mpi-objects DIR, that of src/mpi/S/x.c is DIR/S/x.o):
file A uses file B when A's object has an undefined global symbol that B's
object defines: a function A calls or a variable it reads (a table of
function pointers uses the functions it names).  The MPI standard's names
(MPI_*, PMPI_*) are not uses: the PMPI shim defines them to intercept the
application's calls, and a call to MPI_Bcast is a call to MPI, whoever
intercepts it.  Macros and a header's static inline functions are no
symbols: a helper in a header sits below every file that includes it.
Checked: a folder uses only folders of lower layers; a public-api-only
folder uses from them only exported symbols (default visibility: the
TM_API functions) and its listed folders; and inside one folder (its
subfolders included) no files use each other, directly or around a
cycle.  ALLOWED_CYCLES below lists the cycles tolerated for now.

Prints `file:line: what is wrong` for each offence and exits 1; exits 2
when src/README.md lacks a block or is inconsistent (a folder twice,
layers out of order, a folder or header that does not exist) or an object
file is missing or unreadable."""
import glob
import os
import re
import subprocess
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
ENTRY_RE = re.compile(r'^(\d+)\s+(\S+)')
MPI_NAME_RE = re.compile(r'^P?MPI_')

# Cycles between files tolerated for now, each (folder, {files}): the check
# passes over exactly this group of files and fails once it is gone, so
# that the entry cannot outlive it.  None today (the last one, the Slurm
# files of src/io, moved to src/slurm/ and depend one way).
ALLOWED_CYCLES = []


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


def folder_lists(lines):
    """[(folder, [words])] of a "folder: w1 w2 ..." block."""
    out = []
    for line in lines:
        line = line.split("#")[0]
        if ":" in line:
            folder, words = line.split(":", 1)
            out.append((folder.strip(), words.split()))
    return out


def first_use(path, sym):
    """The first line of path that names sym outside a comment line and a
    one-line declaration (1 if none: a name a macro makes)."""
    word = re.compile(r'\b%s\b' % re.escape(sym))
    decl = re.compile(r'^\s*(?:extern\s+)?(?:const\s+)?(?:struct\s+)?(?!return\b)\w+[\s*]+'
                      r'(?:const\s+)?\**%s\s*\(.*\)\s*;\s*$' % re.escape(sym))
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                s = line.lstrip()
                if s.startswith(("*", "/*", "//")) or decl.match(line):
                    continue
                if word.search(line):
                    return n
    except OSError:
        pass
    return 1


def read_symbols(objects):
    """{source: (defined {name: visibility}, undefined set)} from one readelf
    over the object files ({source: object path})."""
    by_obj = {os.path.normpath(o): s for s, o in objects.items()}
    syms = {s: ({}, set()) for s in objects}
    paths = list(objects.values())
    for i in range(0, len(paths), 200):
        out = subprocess.run(["readelf", "-sW"] + paths[i:i + 200], capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise OSError(out.stderr.strip() or "readelf failed")
        cur = None
        for line in out.stdout.split("\n"):
            if line.startswith("File: "):
                cur = by_obj.get(os.path.normpath(line[6:].strip()))
                continue
            f = line.split()
            if cur is None or len(f) < 8 or not f[0].endswith(":") or f[4] not in ("GLOBAL",
                                                                                   "WEAK"):
                continue
            vis, ndx, name = f[5], f[6], f[7]
            if MPI_NAME_RE.match(name):
                continue
            if ndx == "UND":
                syms[cur][1].add(name)
            else:
                syms[cur][0][name] = vis
    return syms


def cycles(files, uses):
    """The strongly connected groups of two files or more of the graph
    files -> {file: {used file: symbol}}, each a sorted list."""
    index, low, stack, on, groups = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # iterative Tarjan: (vertex, iterator over its successors)
        work = [(v, iter(sorted(uses.get(v, {}))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            u, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(uses.get(nxt, {})))))
                elif nxt in on:
                    low[u] = min(low[u], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[u])
            if low[u] == index[u]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == u:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for v in sorted(files):
        if v not in index:
            visit(v)
    return sorted(groups)


def shortest_cycle(start, group, uses):
    """A shortest cycle start -> ... -> start inside group (breadth first)."""
    prev, queue = {start: None}, [start]
    for v in queue:
        for w in sorted(uses.get(v, {})):
            if w not in group:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start, start]


def check_includes(root, rank, iface, api_only, bad):
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
            elif me in api_only and to not in api_only[me]:
                bad.append("%s:%d: includes %s: src/%s uses only the public API (topomap/*.h) "
                           "and src/%s" % (path, n, shown, me, ", src/".join(api_only[me])))


def check_public_headers(pub_dir, hrank, bad):
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


def object_of(src, objects, mpi_objects):
    """The object file of a source of src/, or None when not checked."""
    if src.startswith("src/mpi/"):
        return os.path.join(mpi_objects, src[len("src/mpi/"):-2] + ".o") if mpi_objects else None
    return os.path.join(objects, src[:-2] + ".o")


def check_uses(rank, api_only, objects, mpi_objects, bad, fatal):
    """The checks on the object files' symbols (module docstring)."""
    sources = sorted(glob.glob("src/**/*.c", recursive=True))
    objs = {}
    for s in sources:
        if s.split("/")[1] not in rank:
            continue  # reported by the include check
        o = object_of(s, objects, mpi_objects)
        if o is None:
            continue
        if not os.path.isfile(o):
            fatal("check-layers: no object file %s for %s (build first: make)" % (o, s))
            continue
        objs[s] = o
    if not objs:
        return
    try:
        syms = read_symbols(objs)
    except OSError as e:
        fatal("check-layers: readelf: %s" % e)
        return
    defined = {}
    for s, (defs, _) in syms.items():
        for name, vis in defs.items():
            defined.setdefault(name, []).append((s, vis))
    folder = lambda p: p.split("/")[1]
    uses = {}  # file -> {used file: first symbol}
    for a in sorted(syms):
        fa = folder(a)
        for name in sorted(syms[a][1]):
            for b, vis in defined.get(name, []):
                if b == a:
                    continue
                fb = folder(b)
                if fb == fa:
                    uses.setdefault(a, {}).setdefault(b, name)
                elif rank[fb] >= rank[fa]:
                    bad.append("%s:%d: uses %s of %s: src/%s (layer %d) may not use src/%s "
                               "(layer %d)" % (a, first_use(a, name), name, b, fa, rank[fa], fb,
                                               rank[fb]))
                elif fa in api_only and fb not in api_only[fa] and vis != "DEFAULT":
                    bad.append("%s:%d: uses %s of %s, which libtopomap does not export: src/%s "
                               "calls only the public API (topomap/*.h) and src/%s"
                               % (a, first_use(a, name), name, b, fa,
                                  ", src/".join(api_only[fa])))
    allowed = [(f, set(g)) for f, g in ALLOWED_CYCLES]
    seen = set()
    for f in sorted(set(folder(s) for s in objs)):
        files = [s for s in objs if folder(s) == f]
        for group in cycles(files, uses):
            short = {g.split("/", 2)[2] for g in group}
            if (f, short) in [(af, ag) for af, ag in allowed]:
                seen.add((f, frozenset(short)))
                continue
            path = shortest_cycle(group[0], set(group), uses)
            steps = ", ".join("%s uses %s (%s)" % (a.split("/", 2)[2], b.split("/", 2)[2],
                                                   uses[a][b])
                              for a, b in zip(path, path[1:]))
            rest = sorted(short - {p.split("/", 2)[2] for p in path})
            bad.append("%s:%d: files of src/%s use each other: %s%s" % (
                path[0], first_use(path[0], uses[path[0]][path[1]]), f, steps,
                "; in the same cycle: " + ", ".join(rest) if rest else ""))
    for f, g in allowed:
        if (f, frozenset(g)) not in seen:
            bad.append("tools/check-layers.py:1: ALLOWED_CYCLES lists src/%s: %s, which no "
                       "longer use each other: remove the entry" % (f, " ".join(sorted(g))))


def main():
    args = sys.argv[1:]
    objects = mpi_objects = None
    root = None
    while args:
        a = args.pop(0)
        if a in ("--objects", "--mpi-objects") and args:
            v = os.path.abspath(args.pop(0))
            if a == "--objects":
                objects = v
            else:
                mpi_objects = v
        elif root is None and not a.startswith("--"):
            root = a
        else:
            print("usage: check-layers.py [ROOT] [--objects DIR] [--mpi-objects DIR]",
                  file=sys.stderr)
            return 2
    root = os.path.abspath(root or os.path.join(os.path.dirname(__file__), ".."))
    readme = os.path.join(root, "src", "README.md")
    bad = []      # offences: exit 1
    broken = []   # the page itself, missing objects: exit 2

    def fatal(msg):
        broken.append(msg if msg.startswith("check-layers: ") else "check-layers: " + msg)

    if not os.path.isfile(readme):
        print("check-layers: no %s" % readme, file=sys.stderr)
        return 2
    text = open(readme, encoding="utf-8").read()
    blocks = {}
    for marker in ("layers", "interfaces", "public-api-only", "public-headers"):
        blocks[marker] = block(text, marker)
        if not blocks[marker]:
            print("check-layers: %s has no <!-- %s --> block" % (readme, marker), file=sys.stderr)
            return 2
    rank = ranked(blocks["layers"], "layers", fatal)
    hrank = ranked(blocks["public-headers"], "public-headers", fatal)
    iface = set()
    for folder, heads in folder_lists(blocks["interfaces"]):
        if folder not in rank:
            fatal("src/README.md: interface of %s, which is in no layer" % folder)
        for h in heads:
            iface.add(folder + "/" + h)
            if not os.path.isfile(os.path.join(root, "src", folder, h)):
                fatal("src/README.md: interface header src/%s/%s does not exist" % (folder, h))
    api_only = {}
    for folder, below in folder_lists(blocks["public-api-only"]):
        for f in [folder] + below:
            if f not in rank:
                fatal("src/README.md: public-api-only block names %s, which is in no layer" % f)
        api_only[folder] = below
    for f in rank:
        if not os.path.isdir(os.path.join(root, "src", f)):
            fatal("src/README.md lists src/%s, which does not exist" % f)
    pub_dir = os.path.join(root, "include", "topomap")
    for h in hrank:
        if not os.path.isfile(os.path.join(pub_dir, h)):
            fatal("src/README.md lists include/topomap/%s, which does not exist" % h)

    os.chdir(root)
    check_includes(root, rank, iface, api_only, bad)
    check_public_headers(pub_dir, hrank, bad)
    if objects and not broken:
        check_uses(rank, api_only, objects, mpi_objects, bad, fatal)
    for line in broken + bad:
        print(line)
    return 2 if broken else 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
