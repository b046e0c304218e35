"""helptext.py - reads the topomap CLI's own --help output (the single source
of the man pages and of the bash completion: tools/gen-man.py,
tools/gen-completion.py).

Only the layout every --help page shares is assumed: a "usage:" block first,
blank lines between blocks, option and list entries indented under a
heading or paragraph, continuation lines indented deeper.  The commands come
from the "commands:" block of `topomap --help`; a command has a page when
`topomap CMD --help` exits 0 and starts with "usage:".
"""
import re
import subprocess

OPTION_RE = re.compile(r'--[a-z][a-z0-9-]*')


def run(binary, *args):
    """stdout of `binary args` (exit 0 required)."""
    res = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise SystemExit('%s %s: exit %d: %s' % (binary, ' '.join(args), res.returncode,
                                                 res.stderr.strip()))
    return res.stdout


def version(binary):
    """'0.1.0' from 'topomap 0.1.0'."""
    return run(binary, '--version').split()[-1]


def commands(binary):
    """[(name, summary)] of the commands that have their own --help page."""
    text = run(binary, '--help')
    out, inside = [], False
    for line in text.splitlines():
        if re.match(r'^commands?:\s*$', line, re.IGNORECASE):
            inside = True
            continue
        if inside:
            m = re.match(r'^\s+([a-z][a-z0-9-]*)\s+(.*)$', line)
            if not m:
                break
            res = subprocess.run([binary, m.group(1), '--help'], capture_output=True,
                                 text=True, check=False)
            if res.returncode == 0 and res.stdout.startswith('usage:'):
                out.append((m.group(1), m.group(2).strip()))
    if not out:
        raise SystemExit('%s --help lists no command with its own --help' % binary)
    return out


def blocks(text):
    """The help text as lists of lines separated by blank lines."""
    out, cur = [], []
    for line in text.rstrip('\n').splitlines():
        if line.strip():
            cur.append(line.rstrip())
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def indent(line):
    return len(line) - len(line.lstrip(' '))


def entries(lines):
    """Indented lines as [(tag, [description lines])]: an entry starts at the
    smallest indent; its tag ends at two spaces (or the line end); deeper
    lines continue it, and a tag ending with ',' continues on the next line."""
    base = min(indent(l) for l in lines)
    out = []
    for line in lines:
        body = line.strip()
        if indent(line) == base and not (out and not out[-1][1] and out[-1][0].endswith(',')):
            parts = re.split(r'\s{2,}', body, maxsplit=1)
            out.append((parts[0], [parts[1]] if len(parts) > 1 else []))
        elif out and indent(line) == base:
            parts = re.split(r'\s{2,}', body, maxsplit=1)
            out[-1] = (out[-1][0] + ' ' + parts[0], [parts[1]] if len(parts) > 1 else [])
        elif out:
            out[-1][1].append(body)
        else:
            out.append((body, []))
    return out


def usage_lines(text):
    """The synopsis lines of the usage block, without 'usage: '."""
    first = blocks(text)[0]
    if not first[0].startswith('usage:'):
        raise SystemExit('help text does not start with "usage:"')
    width = len('usage: ')
    return [l[width:] if l.startswith('usage: ') else l[min(width, indent(l)):] for l in first]
