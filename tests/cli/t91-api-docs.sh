#!/usr/bin/env bash
# Every public function (TM_API in include/topomap/*.h) has a comment above
# its declaration or above its group (igraph's rule; docs/design.md).
# tools/check-api-docs.py lists the ones that have none; it is first shown
# to catch one (a copy of the headers with a comment removed).
set -eu
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
expect_exit 0 python3 "$root/tools/check-api-docs.py" "$root"
expect_in "public functions, 0 without a comment" "$ERR"
mkdir -p copy/include
cp -r "$root/include/topomap" copy/include/
python3 - copy/include/topomap/net.h <<'P'
import sys
p = sys.argv[1]
s = open(p).read()
doc = "/* An empty network (TM_ENOMEM without memory); free releases it and\n * everything it holds (NULL is allowed). */\n"
assert doc in s, "net.h: the comment this test removes has changed"
open(p, "w").write(s.replace(doc, ""))
P
expect_exit 1 python3 "$root/tools/check-api-docs.py" copy
expect_in "include/topomap/net.h:" "$OUT"
expect_in ": tm_net_new" "$OUT"
expect_in ": tm_net_free" "$OUT"
[ "$(echo "$OUT" | wc -l)" = 2 ] || { echo "more than the two undocumented: $OUT"; exit 1; }
