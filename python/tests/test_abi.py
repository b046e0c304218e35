"""The cdef of topomap/_cdef.py matches the installed headers: a C program
compiled against include/topomap/ prints the size of every struct the
module declares and the offset of each field, and cffi must agree.  A
field added to a header (a new figure in tm_metrics) changes the struct's
size, so this test fails until _cdef.py declares it too."""
import os
import shutil
import subprocess

import pytest

import topomap
from topomap._cdef import STRUCTS
from conftest import REPO

INCLUDE = os.environ.get("TOPOMAP_INCLUDE", os.path.join(REPO, "include"))


def test_struct_layouts(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not os.path.exists(os.path.join(INCLUDE, "topomap", "topomap.h")):
        pytest.skip("no C compiler or no headers")
    ffi = topomap.ffi
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "topomap/topomap.h"',
             'int main(void) {']
    expect = []
    for s in STRUCTS:
        lines.append('printf("%%zu\\n", sizeof(%s));' % s)
        expect.append((s, None, ffi.sizeof(s)))
        for name, field in ffi.typeof(s).fields:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (s, name))
            expect.append((s, name, field.offset))
    lines.append("return 0; }")
    src = tmp_path / "abi.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "abi"
    subprocess.run([cc, "-std=c11", "-I", INCLUDE, str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert len(got) == len(expect)
    for (s, name, want), have in zip(expect, got):
        assert int(have) == want, "%s%s: header %s, _cdef.py %d" % (
            s, "." + name if name else " size", have, want)


def test_time_defaults(tmp_path):
    """The module's copy of TM_TIME_OPTS_INIT's values equals the header's."""
    from topomap.mapping import TIME_DEFAULTS
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not os.path.exists(os.path.join(INCLUDE, "topomap", "topomap.h")):
        pytest.skip("no C compiler or no headers")
    lines = ['#include <stdio.h>', '#include "topomap/topomap.h"', 'int main(void) {']
    lines += ['printf("%%.17g\\n", (double)(%s));' % k for k in TIME_DEFAULTS]
    lines.append("return 0; }")
    src = tmp_path / "tdef.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "tdef"
    subprocess.run([cc, "-std=c11", "-I", INCLUDE, str(src), "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert [float(g) for g in got] == [float(v) for v in TIME_DEFAULTS.values()]
