"""The module's C declarations, made from the library's own headers.

cffi's ABI mode needs the declarations of every function, struct and enum
it calls or reads (its "cdef").  They are not copied by hand: this file
makes them from include/topomap/*.h, the headers the C library is built
with, so a function, a struct field or an enum value added there is in the
module as soon as it is installed again:

1. the C preprocessor (cc -E -dD) expands topomap/topomap.h, so the
   headers' macros (TM_API, the X-macro of tm_err, array sizes) come out
   as the compiler sees them;
2. only what comes from the headers' own folder (topomap/*.h, by the
   preprocessor's line markers) is kept, attributes dropped;
3. pycparser (the C parser cffi itself uses) parses it, behind a prelude
   that declares the standard types (int32_t, size_t, FILE, ...), and
   writes every declaration back but the prelude and the headers' static
   inline functions (Python calls only what the library exports);
4. the object-like macros of the headers, expanded by the preprocessor:
   integers become cdef constants (lib.TM_EFFORT_MAX), floating-point and
   string ones go to CONSTANTS (cffi's ABI mode has no such constants).

setup.py runs it when the package is built (pip install) and writes the
result to topomap/_cdef.py; a module imported from a checkout without
installing makes it on import (_lib.py).  python/tests/test_abi.py checks
the result against the headers and the compiler.  Needs a C preprocessor
($CC, else cc) and pycparser (a dependency of cffi).
"""
import ast
import os
import re
import shutil
import subprocess

# The standard types the headers use, for pycparser (cffi knows them).
_PRELUDE_TYPES = ["int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                  "uint64_t", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "FILE"]
_PRELUDE_NAME = "<prelude>"
# declared for cffi before the generated declarations: FILE * in the readers
# and writers' signatures
FILE_CDEF = "typedef struct _IO_FILE FILE;\n"


class HeaderError(Exception):
    """The headers cannot be found or read, or do not parse."""


def find_include(here=None):
    """The folder that holds topomap/topomap.h: $TOPOMAP_INCLUDE, else the
    checkout's include/ (beside python/), else the installed headers
    (pkg-config topomap)."""
    env = os.environ.get("TOPOMAP_INCLUDE")
    if env:
        if not os.path.isfile(os.path.join(env, "topomap", "topomap.h")):
            raise HeaderError("TOPOMAP_INCLUDE=%s holds no topomap/topomap.h" % env)
        return os.path.abspath(env)
    here = here or os.path.dirname(os.path.abspath(__file__))
    for up in ("..", os.path.join("..", "..")):
        cand = os.path.abspath(os.path.join(here, up, "include"))
        if os.path.isfile(os.path.join(cand, "topomap", "topomap.h")):
            return cand
    try:
        out = subprocess.run(["pkg-config", "--variable=includedir", "topomap"],
                             capture_output=True, text=True)
        cand = out.stdout.strip()
        if out.returncode == 0 and os.path.isfile(os.path.join(cand, "topomap", "topomap.h")):
            return cand
    except OSError:
        pass
    raise HeaderError("cannot find the headers of libtopomap (include/topomap/topomap.h): "
                      "set TOPOMAP_INCLUDE to the folder that holds topomap/, or install "
                      "them (make install, the libtopomap-dev package)")


def _cc():
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise HeaderError("no C compiler (cc) to preprocess the headers: install one (gcc)")
    return cc.split()


def _preprocess(include, text):
    try:
        out = subprocess.run(_cc() + ["-E", "-dD", "-std=c11", "-I", include, "-x", "c", "-"],
                             input=text, capture_output=True, text=True)
    except OSError as e:
        raise HeaderError("cannot run the C preprocessor: %s" % e)
    if out.returncode != 0:
        raise HeaderError("the C preprocessor failed on %s/topomap/topomap.h:\n%s"
                          % (include, out.stderr))
    return out.stdout


def _ours(pp, include):
    """The lines of preprocessed text pp that come from include/topomap/."""
    prefix = os.path.join(os.path.realpath(include), "topomap") + os.sep
    keep, lines = False, []
    for line in pp.split("\n"):
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            keep = os.path.realpath(m.group(1)).startswith(prefix)
        elif keep:
            lines.append(line)
    return lines


def _strip_attributes(text):
    """text without its __attribute__((...)) (pycparser does not read them)."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.find("(", j)
        depth = 0
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k


def _macros(lines):
    """Names of the object-like macros the headers define (in order), but
    the include guards and TM_API."""
    names = []
    for line in lines:
        m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$", line)
        if not m or m.group(2) == "(":
            continue
        name, value = m.group(1), m.group(3).strip()
        if not value or name == "TM_API" or name in names:
            continue
        names.append(name)
    return names


_INT_RE = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b")


def _c_literal(s):
    """A C integer literal without its suffix: hex, octal or decimal."""
    if s[:2] in ("0x", "0X"):
        return int(s, 16)
    return int(s, 8) if len(s) > 1 and s[0] == "0" else int(s)


def _c_int(node):
    """An integer constant expression (parsed by ast), evaluated as C does
    on int64 (division truncates); None if it is not one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        v = _c_int(node.operand)
        if v is None:
            return None
        return -v if isinstance(node.op, ast.USub) else v if isinstance(node.op, ast.UAdd) else ~v
    if isinstance(node, ast.BinOp):
        a, b = _c_int(node.left), _c_int(node.right)
        if a is None or b is None:
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b,
               ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b, ast.BitXor: lambda: a ^ b,
               ast.Div: lambda: int(a / b) if b else None,
               ast.Mod: lambda: a - b * int(a / b) if b else None}
        f = ops.get(type(node.op))
        return f() if f else None
    return None


def _value(expansion):
    """The Python value of a macro's expansion: int, float or str; None for
    anything else (an initializer list, a cast)."""
    s = expansion.strip()
    if s.startswith('"'):
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', s)
        if re.sub(r'"((?:[^"\\]|\\.)*)"', "", s).strip():
            return None
        return "".join(ast.literal_eval('"%s"' % p) for p in parts)
    if not s or "{" in s:
        return None
    ints = _INT_RE.sub(lambda m: str(_c_literal(m.group(1))), s)
    try:
        tree = ast.parse(ints, mode="eval").body
    except SyntaxError:
        tree = None
    if tree is not None:
        v = _c_int(tree)
        if v is not None:
            return v
    try:
        f = float(s.rstrip("fFlL"))
    except ValueError:
        return None
    return f


def _constants(include, names):
    """{name: value} of the macros, each expanded by the preprocessor."""
    if not names:
        return {}
    # the name in a string literal, which the preprocessor leaves alone
    src = ['#include "topomap/topomap.h"'] + ['tm_macro_("%s") %s' % (n, n) for n in names]
    pp = _preprocess(include, "\n".join(src) + "\n")
    out = {}
    for line in pp.split("\n"):
        m = re.match(r'^tm_macro_\("(\w+)"\)\s*(.*)$', line)
        if m:
            v = _value(m.group(2))
            if v is not None:
                out[m.group(1)] = v
    return out


def _declarations(lines):
    """The headers' declarations as cffi cdef text: parsed by pycparser,
    without the prelude and the static inline functions."""
    try:
        from pycparser import c_ast, c_generator, c_parser
    except ImportError:
        raise HeaderError("pycparser is missing (python3-pycparser; cffi needs it too)")
    code = "\n".join(l for l in lines if not l.startswith("#"))
    code = _strip_attributes(code)
    prelude = "".join("typedef int %s;\n" % t for t in _PRELUDE_TYPES)
    text = '# 1 "%s"\n%s# 1 "<headers>"\n%s\n' % (_PRELUDE_NAME, prelude, code)
    try:
        ast_ = c_parser.CParser().parse(text, "<headers>")
    except Exception as e:  # pycparser's ParseError: a construct it does not know
        raise HeaderError("pycparser cannot read the headers: %s" % e)
    gen = c_generator.CGenerator()
    out = []
    for node in ast_.ext:
        if node.coord is not None and node.coord.file == _PRELUDE_NAME:
            continue
        if isinstance(node, c_ast.FuncDef):
            continue  # static inline: not in the library's symbols
        out.append(gen.visit(node) + ";")
    return "\n".join(out) + "\n"


def generate(include=None):
    """(cdef text, {name: float or str}, struct typedef names, include
    folder) from the headers in include (find_include() if None)."""
    include = include or find_include()
    lines = _ours(_preprocess(include, '#include "topomap/topomap.h"\n'), include)
    decls = _declarations(lines)
    consts = _constants(include, _macros(lines))
    ints = ["#define %s %d" % (n, v) for n, v in consts.items()
            if isinstance(v, int) and not isinstance(v, bool)]
    others = {n: v for n, v in consts.items() if not isinstance(v, int)}
    structs = re.findall(r"^typedef struct \w*\s*\{.*?^\} (\w+);", decls, re.S | re.M)
    return decls + "\n".join(ints) + "\n", others, structs, include


def module_text(include=None):
    """The text of topomap/_cdef.py (setup.py writes it at install time)."""
    cdef, consts, structs, include = generate(include)
    return ('"""The C declarations of libtopomap for cffi, made from %s/topomap/*.h by\n'
            'topomap/_cdefgen.py when the package was built: do not edit."""\n'
            "HEADERS = %r\n"
            "CDEF = %r\n"
            "CONSTANTS = %r\n"
            "STRUCTS = %r\n" % (include, include, cdef, consts, structs))
