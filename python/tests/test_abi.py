"""The module's C declarations are the headers' (topomap/_cdefgen.py makes
them from include/topomap/*.h when the package is built):

- the declarations the module loaded are exactly what the headers under
  test give now: a function, a field or an enum value added to a header
  and not in the module (an install older than the headers) fails here;
- every function libtopomap.so exports is declared, and every enum value
  and integer macro of the headers is a constant of the module;
- cffi lays every struct out as the C compiler does (a C program compiled
  against the headers prints each struct's size and each field's offset),
  and the floating-point and string macros the module read have the
  compiler's values.
"""
import os
import shutil
import subprocess

import pytest

import topomap
from topomap import _cdefgen, _lib
from conftest import REPO

INCLUDE = os.environ.get("TOPOMAP_INCLUDE", os.path.join(REPO, "include"))


def _have_headers():
    return os.path.exists(os.path.join(INCLUDE, "topomap", "topomap.h"))


def _cc():
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not _have_headers():
        pytest.skip("no C compiler or no headers")
    return cc


def _run_c(tmp_path, name, body):
    """Compiles and runs a C program over topomap/topomap.h; its stdout's words."""
    src = tmp_path / (name + ".c")
    src.write_text("\n".join(['#include <stddef.h>', '#include <stdio.h>',
                              '#include "topomap/topomap.h"', 'int main(void) {'] + body +
                             ["return 0; }"]))
    exe = tmp_path / name
    subprocess.run([_cc(), "-std=c11", "-I", INCLUDE, str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()


def test_declarations_are_the_headers():
    _cc()
    cdef, consts, structs, _ = _cdefgen.generate(INCLUDE)
    assert _lib.CDEF == cdef, "the module's declarations differ from %s/topomap/*.h: " \
        "install the module again (pip install ./python)" % INCLUDE
    assert _lib.CONSTANTS == consts
    # enum values the hand-written copy once lacked are there
    assert topomap.lib.TM_ROUTE_UGAL == topomap.lib.TM_ROUTE_VALIANT + 1
    assert "tm_metrics" in structs and "tm_workload_doc" in structs


def test_every_export_declared():
    lib_path = topomap.LIBRARY_PATH
    nm = shutil.which("nm")
    if nm is None or not os.path.isabs(lib_path):
        pytest.skip("no nm, or the library was found by the loader (no path)")
    out = subprocess.run([nm, "-D", "--defined-only", lib_path], capture_output=True,
                         text=True, check=True).stdout
    names = sorted({line.split()[-1] for line in out.splitlines() if " T " in line})
    missing = [n for n in names if n.startswith("tm_") and not hasattr(topomap.lib, n)]
    assert names and not missing


def test_struct_layouts(tmp_path):
    ffi = topomap.ffi
    lines, expect = [], []
    for s in _cdefgen.generate(INCLUDE)[2] if _have_headers() else []:
        lines.append('printf("%%zu\\n", sizeof(%s));' % s)
        expect.append((s, None, ffi.sizeof(s)))
        for name, field in ffi.typeof(s).fields:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (s, name))
            expect.append((s, name, field.offset))
    got = _run_c(tmp_path, "abi", lines)
    assert len(expect) > 100 and len(got) == len(expect)
    for (s, name, want), have in zip(expect, got):
        assert int(have) == want, "%s%s: compiler %s, cffi %d" % (
            s, "." + name if name else " size", have, want)


def test_constants(tmp_path):
    """The floating-point and string macros (TM_TIME_OPTS_INIT's defaults
    among them) and the integer ones equal the compiler's values."""
    consts = _lib.CONSTANTS
    nums = sorted(k for k, v in consts.items() if isinstance(v, float))
    strs = sorted(k for k, v in consts.items() if isinstance(v, str))
    ints = ["TM_EFFORT_AUTO", "TM_EFFORT_MAX", "TM_COMM_PHASE_MAX_REPEAT", "TM_SHARD_MAX"]
    body = ['printf("%%.17g\\n", (double)(%s));' % k for k in nums]
    body += ['printf("%%lld\\n", (long long)(%s));' % k for k in ints]
    body += ['printf("%%zu\\n", sizeof(%s) - 1);' % k for k in strs]
    got = _run_c(tmp_path, "consts", body)
    assert [float(g) for g in got[:len(nums)]] == [consts[k] for k in nums]
    assert [int(g) for g in got[len(nums):len(nums) + len(ints)]] == \
        [getattr(topomap.lib, k) for k in ints]
    assert [int(g) for g in got[len(nums) + len(ints):]] == [len(consts[k]) for k in strs]
    assert consts["TOPOMAP_VERSION"] == topomap.__version__
    from topomap.mapping import TIME_DEFAULTS
    assert TIME_DEFAULTS["TM_TIME_LATENCY_PER_HOP_DEFAULT"] == 5e-7
