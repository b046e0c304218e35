"""Writes what the package needs from the C side when it is built (pip):

- topomap/_cdef.py: the C declarations cffi reads, made from the headers of
  libtopomap (topomap/_cdefgen.py: $TOPOMAP_INCLUDE, else the checkout's
  include/, else the installed headers that pkg-config finds), so the
  module declares exactly what the library's headers declare;
- topomap/_paths.py: the checkout's build/libtopomap.so, which the module
  falls back to when neither $TOPOMAP_LIBRARY nor an installed libtopomap
  is found (topomap/_lib.py).

Everything else is in pyproject.toml.
"""
import importlib.util
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _cdefgen():
    """topomap/_cdefgen.py, loaded alone (importing the package would load
    the library)."""
    spec = importlib.util.spec_from_file_location(
        "topomap_cdefgen", os.path.join(HERE, "topomap", "_cdefgen.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class BuildPy(build_py):
    def run(self):
        super().run()
        gen = _cdefgen()
        try:
            text = gen.module_text(gen.find_include(HERE))
        except gen.HeaderError as e:
            raise SystemExit("topomap: %s" % e)
        with open(os.path.join(self.build_lib, "topomap", "_cdef.py"), "w") as f:
            f.write(text)
        lib = os.path.join(os.path.dirname(HERE), "build", "libtopomap.so")
        target = os.path.join(self.build_lib, "topomap", "_paths.py")
        with open(target, "w") as f:
            f.write("# written by setup.py at install time\n")
            f.write("INTREE_LIBRARY = %r\n" % (lib if os.path.exists(lib) else None))


setup(cmdclass={"build_py": BuildPy})
