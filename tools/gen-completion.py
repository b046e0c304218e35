#!/usr/bin/env python3
"""gen-completion.py TOPOMAP - prints the bash completion of topomap, read
from the CLI's own --help (tools/helptext.py); the Makefile reruns it
whenever topomap is rebuilt, and `make install` puts it in
share/bash-completion/completions/topomap.

What is read from each `topomap CMD --help`:
- the options: every --name in the text (not --name=value, which quotes
  another tool's option);
- the sub-commands (topo info, topo export, study merge, workload eval):
  the word after the command in the usage lines (a command whose usage also
  has a line without one, as study, offers its options beside them); a
  sub-command whose own --help differs from the command's (workload eval,
  workload replay) gets the options of its page;
- which options take a value: an occurrence followed by one space and an
  argument name (T, F.html, a1:..:ak, S,.. or a|b|c), on this command's page
  or, for an option listed there without one ("as for 'topomap eval'"), on
  another command's page;
- the values of an option: its a|b|c alternatives, and the entries of a list
  headed by its plural ("strategies:" for --strategy, "refinements:" for
  --refine) with the words quoted in its own description ('all');
- arguments named N, SEC, EPS, C, P% (numbers), TIME, S (names) or written as a
  spec (a1:..:ak, LEVEL=FACTOR, A:B) complete nothing; any other argument
  without values (T, G, F, F.html, M, A, R) completes file names.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402

# Arguments with nothing to complete: numbers, switch or strategy names (S), K/N,
# and literal specs (a1:..:ak, LEVEL=FACTOR, A:B).
NO_COMPLETION = re.compile(r'^(N|SEC|EPS|C|P%|S|K/N|TIME)(\W|$)|^[a-z]|[:=]')
ARG_NAME = re.compile(r'^(?:[A-Z]\S*|\S*[|:%,][^\s]*)$')


def options(text):
    out = []
    for m in helptext.OPTION_RE.finditer(text):
        if text[m.end():m.end() + 1] == '=' or m.group(0) in out:
            continue
        out.append(m.group(0))
    return out


def option_args(text, opts):
    """{option: argument name} for the options that take a value."""
    args = {}
    for o in opts:
        for m in re.finditer(re.escape(o) + r' ([^\s\[\]]+)', text):
            tok = m.group(1).rstrip(',')
            if ARG_NAME.match(tok) and not tok.startswith('-') and (o not in args or '|' in tok):
                args[o] = tok
    return args


def option_values(text, opts, args):
    """{option: [values]} from a|b|c alternatives and plural-headed lists."""
    vals = {}
    for o in opts:
        for m in re.finditer(re.escape(o) + r' ([a-z0-9-]+(?:\|[a-z0-9-]+)+)\b', text):
            for v in m.group(1).split('|'):
                vals.setdefault(o, [])
                if v not in vals[o]:
                    vals[o].append(v)
    for block in helptext.blocks(text):
        for i, line in enumerate(block[:-1]):
            m = re.match(r'^([a-z]+):$', line)
            if not m or helptext.indent(block[i + 1]) == 0:
                continue
            rows = [l for l in block[i + 1:]]
            end = next((k for k, l in enumerate(rows) if helptext.indent(l) == 0), len(rows))
            names = [t.split()[0] for t, _ in helptext.entries(rows[:end])]
            for o in opts:
                # strategies: --strategy, refinements: --refine
                if o in args and m.group(1).startswith(o[2:].rstrip('y')) and len(o) > 4:
                    vals.setdefault(o, [])
                    vals[o].extend(n for n in names if n not in vals[o])
    for o in vals:
        for t, desc in entries_of(text):
            if t.split()[0].rstrip(',') == o:
                for q in re.findall(r"'([a-z][a-z0-9-]*)'", ' '.join(desc)):
                    if q not in vals[o]:
                        vals[o].append(q)
    return vals


def entries_of(text):
    out = []
    for block in helptext.blocks(text)[1:]:
        rows = [l for l in block if helptext.indent(l) > 0]
        if rows:
            out.extend(helptext.entries(rows))
    return out


def subcommands(text, cmd):
    out = []
    for line in helptext.usage_lines(text):
        words = line.split()
        if len(words) > 2 and words[:2] == ['topomap', cmd] and words[2][0] not in '-[':
            if words[2] not in out:
                out.append(words[2])
    return out


def runs_bare(text, cmd):
    """Whether the command also runs without a sub-command (`topomap study
    --topology ...` beside `topomap study merge ...`)."""
    for line in helptext.usage_lines(text):
        words = line.split()
        if len(words) > 2 and words[:2] == ['topomap', cmd] and words[2][0] in '-[':
            return True
    return False


def option_cases(text, shared_args, indent):
    """The `case $prev in ... esac` lines of the options of one page."""
    opts = options(text)
    if '--help' not in opts:
        opts.append('--help')
    args = option_args(text, opts)
    for o in opts:
        if o not in args and o in shared_args:
            args[o] = shared_args[o]
    vals = option_values(text, opts, args)
    pad = ' ' * indent
    lines = [pad + 'case $prev in']
    for o in opts:
        if o in vals:
            lines.append("%s%s) words='%s' ;;" % (pad, o, ' '.join(vals[o])))
    numeric = [o for o in opts if o in args and o not in vals and NO_COMPLETION.match(args[o])]
    files = [o for o in opts if o in args and o not in vals and o not in numeric]
    if numeric:
        lines.append('%s%s) return 0 ;;' % (pad, '|'.join(numeric)))
    if files:
        lines.append('%s%s) files=1 ;;' % (pad, '|'.join(files)))
    lines.append("%s*) words='%s' ;;" % (pad, ' '.join(opts)))
    lines.append(pad + 'esac')
    return lines


def case_for(cmd, text, shared_args, sub_texts=None):
    """sub_texts: {sub-command: its own --help} where it differs from the
    command's."""
    subs = subcommands(text, cmd)
    lines = ['    %s)' % cmd]
    if subs:
        # the sub-commands, and the command's own options when it runs without one
        opts = options(text)
        first = subs + (opts + ['--help'] * ('--help' not in opts) if runs_bare(text, cmd)
                        else ['--help'])
        lines += ['        if [ "$COMP_CWORD" -eq 2 ]; then',
                  "            COMPREPLY=($(compgen -W '%s' -- \"$cur\"))" % ' '.join(first),
                  '            return 0',
                  '        fi']
    if sub_texts:
        # a sub-command with its own page, else the command's page
        lines.append('        case ${COMP_WORDS[2]} in')
        for sub in subs:
            if sub in sub_texts:
                lines.append('        %s)' % sub)
                lines += option_cases(sub_texts[sub], shared_args, 12)
                lines.append('            ;;')
        lines.append('        *)')
        lines += option_cases(text, shared_args, 12)
        lines += ['            ;;', '        esac']
    else:
        lines += option_cases(text, shared_args, 8)
    lines.append('        ;;')
    return lines


def main():
    if len(sys.argv) != 2:
        raise SystemExit('usage: gen-completion.py TOPOMAP')
    binary = sys.argv[1]
    cmds = helptext.commands(binary)
    top = [c for c, _ in cmds] + ['version', '--help', '--version']
    out = ['# bash completion for topomap %s: generated by tools/gen-completion.py from'
           % helptext.version(binary),
           "# topomap's --help; do not edit.",
           '_topomap()',
           '{',
           '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
           '    local words= files=0',
           '    COMPREPLY=()',
           '    if [ "$COMP_CWORD" -le 1 ]; then',
           "        COMPREPLY=($(compgen -W '%s' -- \"$cur\"))" % ' '.join(top),
           '        return 0',
           '    fi',
           '    case ${COMP_WORDS[1]} in']
    texts = {c: helptext.run(binary, c, '--help') for c, _ in cmds}
    # An option one page lists with "as for 'topomap eval'" takes the
    # argument the other page names.
    shared = {}
    for c, _ in cmds:
        for o, a in option_args(texts[c], options(texts[c])).items():
            shared.setdefault(o, a)
    subtexts = {}
    for c, _ in cmds:
        for sub in subcommands(texts[c], c):
            t = helptext.run(binary, c, sub, '--help')
            if t.strip() and t != texts[c]:
                subtexts.setdefault(c, {})[sub] = t
    for c, _ in cmds:
        out += case_for(c, texts[c], shared, subtexts.get(c))
    out += ['    *) return 0 ;;',
            '    esac',
            '    if [ "$files" = 1 ]; then',
            '        compopt -o filenames 2>/dev/null',
            '        COMPREPLY=($(compgen -f -- "$cur"))',
            '    else',
            '        COMPREPLY=($(compgen -W "$words" -- "$cur"))',
            '    fi',
            '    return 0',
            '}',
            'complete -F _topomap topomap']
    print('\n'.join(out))


if __name__ == '__main__':
    main()
