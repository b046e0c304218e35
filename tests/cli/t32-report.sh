#!/usr/bin/env bash
# eval --report / map --report (docs/report.md): one self-contained HTML page.
# Checked without a browser: every strategy row and figure is on the page, names
# from input files are escaped, nothing outside the file is referenced, errors
# leave no file.  Then in headless Chromium (installed by tools/install-deps.sh;
# the test is skipped, exit 77, only when it is missing): the rendered picture is
# not blank (congested links in red, the job's hosts in blue), the labels are in
# the DOM, and the page made no network request (Chromium's NetLog; a control
# page with one external image proves that the check sees requests).
set -eu
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
T=$TOPO_DIR/psmn-x5/X5.topofile; M=$TOPO_DIR/psmn-x5/X5.map; C=$TOPO_DIR/comm/lulesh-64.graphStats.txt
J=$TOPO_DIR/psmn-x5/job-64-scattered.hostfile; D=$TM_TEST_DATA/report

# self_contained FILE: no reference to anything outside the file, in any tag
# or in the style sheet (text between tags, such as an escaped host name, is
# only text)
self_contained() {
    python3 - "$1" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
s = " ".join(re.findall(r"<[^>]*>", page) + re.findall(r"<style>(.*?)</style>", page, re.S))
bad = [p for p in (r"https?:", r"//[a-z0-9]", r"\bsrc\s*=", r"\bhref\s*=", r"@import", r"<script",
                   r"<link", r"<iframe", r"<object", r"<embed", r"<img", r"url\(\s*[^#\s]")
       if re.search(p, s, re.I)]
assert not bad, (sys.argv[1], bad)
PY
}

# 1. map: every strategy row of the run, the chosen one marked, the figures
expect_exit 0 "$TOPOMAP" map --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --out m.rankfile --report map.html --json
echo "$OUT" | python3 -c "
import json, sys, re
d = json.load(sys.stdin)
page = open('map.html', encoding='utf-8').read()
rows = re.findall(r'<tr><td>([^<]*)</td>', page)
assert len(rows) == len(d['strategies']), (rows, len(d['strategies']))
for r in d['strategies']:
    assert any(x.split(' (chosen)')[0] == r['name'] or x.startswith(r['name'] + ' + ') for x in rows), (r['name'], rows)
assert sum('(chosen)' in x for x in rows) == 1, rows
assert '%.6g' % d['max_congestion'] in page and '%.6g' % d['consecutive']['max_congestion'] in page
assert 'igraph_layout_sugiyama' in page and 'Drawn: 100 of 100 vertices, 159 of 159 cables' in page
assert 'Hosts of the job (blue): 16, 16 drawn' in page
assert page.count('class=\"hj\"') == 16, page.count('class=\"hj\"')
"
self_contained map.html
# the congestion legend ends at the chosen mapping's maximum
grep -q "$(echo "$OUT" | python3 -c "import json,sys; print('%.4g' % json.load(sys.stdin)['max_congestion'])")</text><text x=\"320\"" map.html

# 2. eval: grid layout on a torus, groups on a dragonfly, hostile names escaped
expect_exit 0 "$TOPOMAP" eval --topology torus:4x4x4 --comm $D/ring4.edges --report torus.html
grep -q 'grid coordinates of the 3-D torus' torus.html
expect_exit 0 "$TOPOMAP" eval --topology dragonfly:h=2 --comm $D/ring4.edges --report df.html
grep -q 'one box per group (9)' df.html
expect_exit 0 "$TOPOMAP" eval --topology $D/hostile-names.graphml --comm $D/ring4.edges --report h.html
self_contained h.html
grep -q 'sw&lt;script&gt;alert(1)&lt;/script&gt;' h.html
grep -q 'h&#39;3&lt;img/src=x/onerror=alert(2)&gt;' h.html
grep -q 'h&quot;2' h.html && grep -q 'h&amp;1' h.html
# a mapping given to eval is compared with consecutive: two different rows of figures
expect_exit 0 "$TOPOMAP" eval --topology $T --node-name-map $M --slots 12 --comm $C --alloc $J \
    --mapping m.rankfile --report e.html
grep -q '<tr><td>m.rankfile</td>' e.html
# 3. a 65,536-host fat-tree: the 16,384 switches and the job's 256 hosts are drawn,
# the other hosts are not, at most 12,000 cables (the loaded ones first), < 5 MB
python3 -c "
n = 256
print('\n'.join('%d %d 1' % (i, (i + 1) % n) for i in range(n)))" > ring.edges
expect_exit 0 "$TOPOMAP" eval --topology fattree:k=16,n=4 --comm ring.edges --report big.html
grep -q 'Drawn: 16640 of 81920 vertices, 12000 of 262144 cables' big.html
grep -q 'Hosts of the job (blue): 256, 256 drawn' big.html
[ "$(grep -c 'class="hj"' big.html)" = 256 ] && [ "$(stat -c %s big.html)" -lt 5000000 ]
# every loaded cable is among the drawn ones: 2 * 256 host cables and more above
[ "$(grep -c '<line[^>]*stroke="#' big.html)" -ge 512 ]

# 4. errors: no file, nothing half-written, an existing page left as it was
expect_exit 2 "$TOPOMAP" eval --topology torus:4x4 --comm $D/ring4.edges --report nodir/x.html
[ ! -e nodir ]
# map writes the page first: a page that cannot be written leaves no rankfile
expect_exit 2 "$TOPOMAP" map --topology torus:4x4 --comm $D/ring4.edges --out no.rankfile \
    --report nodir/x.html
[ ! -e no.rankfile ]
cp torus.html keep.html
expect_exit 2 "$TOPOMAP" eval --topology torus:4x4 --comm missing.edges --report torus.html
cmp torus.html keep.html
expect_exit 1 "$TOPOMAP" eval --hierarchy 2:2 --distances 1:10 --comm $D/ring4.edges --report x.html
expect_in "--report" "$ERR"
expect_exit 1 "$TOPOMAP" map --hierarchy 2:2 --distances 1:10 --comm $D/ring4.edges --report x.html
[ ! -e x.html ] && [ -z "$(ls -A | grep -E '^\.|tmp' || true)" ]

# 5. in a real browser
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium not installed (tools/install-deps.sh installs it)"; exit 77; }
browser() { # browser PAGE NETLOG args...: Chromium with no network (every host unresolvable)
    local page=$1 log=$2; shift 2
    rm -rf profile
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$PWD/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
        --log-net-log="$PWD/$log" "$@" "file://$PWD/$page" 2>/dev/null
}
# page_requests NETLOG: requests made by the page (its network isolation key is
# the file:// site; Chromium's own background requests are not counted)
page_requests() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = {v: k for k, v in d["constants"]["logEventTypes"].items()}
urls = {e["params"]["url"] for e in d["events"]
        if kinds.get(e["type"]) == "URL_REQUEST_START_JOB"
        and "file://" in e["params"].get("network_isolation_key", "")
        and not e["params"]["url"].startswith(("file:", "data:"))}
print(len(urls), *sorted(urls))
PY
}
printf '<!DOCTYPE html><html><body><p>x</p><img src="http://example.invalid/x.png"></body></html>' > control.html
browser control.html control.json --dump-dom > control.dom
[ "$(page_requests control.json)" = "1 http://example.invalid/x.png" ]

browser map.html map.json --dump-dom > map.dom
[ "$(page_requests map.json)" = "0" ]
for label in "topomap map" "Results against the consecutive placement" "max congestion" \
    "avg dilation" "QAP J" "consecutive" "(chosen)" "Fabric and link loads" \
    "congestion = load / capacity" "fraction of used links" "$(head -1 $J | cut -d' ' -f1)"; do
    grep -qF "$label" map.dom || { echo "'$label' not in the DOM"; exit 1; }
done
[ "$(grep -c '<circle[^>]*class="hj"' map.dom)" = 16 ]
browser h.html h.json --dump-dom > h.dom
[ "$(page_requests h.json)" = "0" ]
! grep -q '<script\|<img' h.dom
grep -qF 'sw&lt;script&gt;alert(1)&lt;/script&gt;' h.dom

browser map.html shot.json --screenshot="$PWD/map.png" --window-size=1150,1300 >/dev/null
[ "$(page_requests shot.json)" = "0" ]
# width height colours non-white-fraction red(#bd0026) blue(#1f77b4)
read -r w h ncol nonwhite red blue < <("$here/pngstat.py" map.png '#bd0026' '#1f77b4')
echo "map.png: ${w}x$h, $ncol colours, non-white $nonwhite, red $red px, blue $blue px"
[ "$w" = 1150 ] && [ "$h" = 1300 ] && [ "$ncol" -ge 50 ] && [ "$red" -ge 20 ] && [ "$blue" -ge 500 ]
python3 -c "import sys; assert float(sys.argv[1]) > 0.05" "$nonwhite"
