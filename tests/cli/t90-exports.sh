#!/usr/bin/env bash
# The dynamic symbols of libtopomap.so are exactly the functions declared in
# include/topomap/*.h: nothing internal (tm__*, helpers) leaks, and nothing
# public is missing (a declaration without TM_API would be hidden).
#
# Declarations are read from the preprocessor's output, not from the raw
# headers, so multi-line prototypes, comments and macros cannot fool it:
# each public header is preprocessed, only text coming from include/topomap/
# is kept (line markers), brace bodies are dropped, and every top-level
# statement that is not a typedef or a static (inline) definition and names
# tm_x( is a function declaration.
set -eu
. "$(dirname "$0")/lib.sh"   # the failing step in make test's summary
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../include" && pwd)
lib=${TOPOMAP_LIB:-$(dirname "${TOPOMAP_REAL:-$TOPOMAP}")/libtopomap.so}
[ -f "$lib" ] || { echo "no shared library at $lib (set TOPOMAP_LIB)"; exit 1; }

# topomap/mpi.h is the header of the separate libtopomap_mpi (it needs
# <mpi.h>): tests/cli/t60-mpi.sh checks that library's exports.
for h in "$inc"/topomap/*.h; do
    [ "$(basename "$h")" = mpi.h ] && continue
    printf '#include "topomap/%s"\n' "$(basename "$h")" > tu.c
    cc -std=c11 -E -I"$inc" tu.c > "pp-$(basename "$h").i"
done
python3 - "$inc/topomap/" pp-*.i > declared.txt <<'EOF'
import re, sys
prefix, names = sys.argv[1], set()
for path in sys.argv[2:]:
    keep, text = False, []
    for line in open(path):
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            keep = m.group(1).startswith(prefix)
        elif keep and not line.startswith('#'):
            text.append(line)
    depth, stmt, stmts = 0, [], []
    for ch in ''.join(text):
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                stmts.append(''.join(stmt)); stmt = []
        elif depth == 0:
            if ch == ';':
                stmts.append(''.join(stmt)); stmt = []
            else:
                stmt.append(ch)
    for s in stmts:
        if re.search(r'\b(typedef|static)\b', s):
            continue
        m = re.search(r'\b(tm_[A-Za-z0-9_]*)\s*\(', s)
        if m:
            names.add(m.group(1))
print('\n'.join(sorted(names)))
EOF
# Linker-defined markers some binutils versions list are not ours.
nm -D --defined-only "$lib" | awk '{print $NF}' |
    grep -vxE '_init|_fini|_edata|_end|__bss_start' | sort -u > exported.txt

nd=$(wc -l < declared.txt); ne=$(wc -l < exported.txt)
# Guards against a parser or nm failure making both lists empty.
grep -qx tm_ctx_new declared.txt || { echo "tm_ctx_new not found among declarations ($nd)"; exit 1; }
grep -qx tm_ctx_new exported.txt || { echo "tm_ctx_new not exported by $lib ($ne symbols)"; exit 1; }
extra=$(comm -13 declared.txt exported.txt); missing=$(comm -23 declared.txt exported.txt)
if [ -n "$extra" ]; then
    echo "exported by $(basename "$lib") but not declared in include/topomap/ (internal symbols must be hidden):"
    echo "$extra" | sed 's/^/  /'
fi
if [ -n "$missing" ]; then
    echo "declared in include/topomap/ but not exported (TM_API missing, or not defined):"
    echo "$missing" | sed 's/^/  /'
fi
[ -z "$extra$missing" ] || exit 1
echo "exports: $ne symbols = $nd public functions"
