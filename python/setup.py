"""Records the in-tree library beside the package (topomap/_paths.py).

pip builds the package in place (python/), so the checkout's
build/libtopomap.so is known here; the module falls back to it when
neither $TOPOMAP_LIBRARY nor an installed libtopomap is found
(topomap/_lib.py).  Everything else is in pyproject.toml.
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self):
        super().run()
        here = os.path.dirname(os.path.abspath(__file__))
        lib = os.path.join(os.path.dirname(here), "build", "libtopomap.so")
        target = os.path.join(self.build_lib, "topomap", "_paths.py")
        with open(target, "w") as f:
            f.write("# written by setup.py at install time\n")
            f.write("INTREE_LIBRARY = %r\n" % (lib if os.path.exists(lib) else None))


setup(cmdclass={"build_py": BuildPy})
