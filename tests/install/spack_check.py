#!/usr/bin/env python3
"""spack_check.py RECIPE --prefix P [--variants +mpi+shim] [--mpi openmpi]
[--mpicc mpicc.openmpi] [--phases edit,build,install]

Spack cannot be installed here, so the recipe (packaging/spack/package.py)
is imported with a stub `spack.package` module that provides what the
recipe uses of Spack v0.23's package API: the directives (version, variant,
depends_on, conflicts: recorded), MakefilePackage with its edit, build and
install phases (build and install run `make(*build_targets)` and
`make(*install_targets)` in build_directory, as Spack's MakefileBuilder
does), working_dir, and the module globals Spack's build environment sets
(make, spack_cc).  The recipe's metadata is checked, the phases are run, and
every make call they issue is printed as one shell line ("make ARGS"), which
tests/cli/t70-install.sh runs.  Exit 1 with a message when the recipe breaks
the conventions checked below.
"""
import argparse
import contextlib
import importlib.util
import os
import shlex
import sys
import types

sys.dont_write_bytecode = True  # no __pycache__ beside the recipe


class Recorder:
    """The `make` executable: records its arguments instead of running."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        if any(not isinstance(a, str) for a in args):
            raise SystemExit('make called with a non-string argument: %r' % (args,))
        self.calls.append(list(args))


DIRECTIVES = []


def directive(kind):
    def record(*args, **kwargs):
        DIRECTIVES.append((kind, args, kwargs))
    return record


class Spec:
    def __init__(self, name, variants, mpi, mpicc):
        self.name = name
        self.variants = variants
        self.mpi = types.SimpleNamespace(name=mpi, mpicc=mpicc)

    def satisfies(self, constraint):
        on = constraint.startswith('+')
        if not on and not constraint.startswith('~'):
            raise SystemExit('stub Spec.satisfies supports +variant / ~variant only, not %r'
                             % constraint)
        name = constraint[1:]
        if name not in self.variants:
            raise SystemExit('satisfies(%r): no such variant' % constraint)
        return self.variants[name] == on

    def __contains__(self, constraint):
        return self.satisfies(constraint)

    def __getitem__(self, dep):
        if dep != 'mpi' or not self.variants.get('mpi'):
            raise SystemExit('spec[%r] is not a dependency of this spec' % dep)
        return self.mpi


class MakefilePackage:
    """Spack v0.23's MakefilePackage as the recipe sees it."""
    build_targets = []
    install_targets = ['install']

    def __init__(self, spec, prefix, source):
        self.spec = spec
        self.prefix = prefix
        self._source = source

    @property
    def build_directory(self):
        return self._source

    def edit(self, spec, prefix):
        pass

    def build(self, spec, prefix):
        with working_dir(self.build_directory):
            sys.modules[type(self).__module__].make(*self.build_targets)

    def install(self, spec, prefix):
        with working_dir(self.build_directory):
            sys.modules[type(self).__module__].make(*self.install_targets)


@contextlib.contextmanager
def working_dir(path):
    yield path


def stub_spack():
    spack = types.ModuleType('spack')
    pkg = types.ModuleType('spack.package')
    for kind in ('version', 'variant', 'depends_on', 'conflicts'):
        setattr(pkg, kind, directive(kind))
    pkg.MakefilePackage = MakefilePackage
    pkg.working_dir = working_dir
    pkg.__all__ = ['version', 'variant', 'depends_on', 'conflicts', 'MakefilePackage',
                   'working_dir']
    spack.package = pkg
    sys.modules['spack'] = spack
    sys.modules['spack.package'] = pkg


def check_metadata(cls):
    """The conventions of the issue: a MakefilePackage with variants mpi and
    shim, dependencies igraph, metis (32-bit idx_t), libxml2 (link),
    pkgconfig (build), cmocka (test), mpi when +mpi, and +shim conflicting
    with ~mpi."""
    errors = []
    if not issubclass(cls, MakefilePackage):
        errors.append('not a MakefilePackage')
    if not (cls.__doc__ or '').strip():
        errors.append('no docstring (spack info shows it)')
    variants = {a[0]: kw for k, a, kw in DIRECTIVES if k == 'variant'}
    for v in ('mpi', 'shim'):
        if v not in variants:
            errors.append('variant %s missing' % v)
        elif not variants[v].get('description'):
            errors.append('variant %s has no description' % v)
    deps = {a[0].replace(' ', ''): kw for k, a, kw in DIRECTIVES if k == 'depends_on'}
    # metis with a 32-bit idx_t: src/graph/partition.c asserts it
    want = {'igraph@0.10:': None, 'metis@5.1:~int64': None, 'libxml2': None,
            'pkgconfig': 'build', 'cmocka': 'test', 'mpi': None}
    for d, typ in want.items():
        if d not in deps:
            errors.append('depends_on(%r) missing' % d)
        elif typ and deps[d].get('type') != typ:
            errors.append('depends_on(%r) should have type=%r' % (d, typ))
    if deps.get('mpi', {}).get('when') != '+mpi':
        errors.append('depends_on("mpi") should be when="+mpi"')
    if not any(k == 'conflicts' and a[0] == '+shim' and kw.get('when') == '~mpi'
               for k, a, kw in DIRECTIVES):
        errors.append('conflicts("+shim", when="~mpi") missing')
    if not any(k == 'version' for k, _, _ in DIRECTIVES):
        errors.append('no version()')
    if errors:
        raise SystemExit('spack recipe: ' + '; '.join(errors))


def parse_variants(text):
    out, i = {}, 0
    while i < len(text):
        sign = text[i]
        j = i + 1
        while j < len(text) and text[j] not in '+~':
            j += 1
        if sign not in '+~' or j == i + 1:
            raise SystemExit('bad --variants %r' % text)
        out[text[i + 1:j]] = sign == '+'
        i = j
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('recipe')
    ap.add_argument('--prefix', required=True)
    ap.add_argument('--variants', default='+mpi+shim')
    ap.add_argument('--mpi', default='openmpi')
    ap.add_argument('--mpicc', default='mpicc.openmpi')
    ap.add_argument('--cc', default='cc')
    ap.add_argument('--phases', default='edit,build,install')
    opt = ap.parse_args()

    stub_spack()
    spec_ = importlib.util.spec_from_file_location('spack_pkg_topomap', opt.recipe)
    mod = importlib.util.module_from_spec(spec_)
    sys.modules['spack_pkg_topomap'] = mod
    spec_.loader.exec_module(mod)
    cls = getattr(mod, 'Topomap', None)
    if cls is None:
        raise SystemExit('spack recipe: no class Topomap')
    check_metadata(cls)

    variants = parse_variants(opt.variants)
    if variants.get('shim') and not variants.get('mpi'):
        raise SystemExit('+shim ~mpi is a declared conflict: Spack would not concretize it')
    make = Recorder()
    mod.make = make
    mod.spack_cc = opt.cc
    pkg = cls(Spec('topomap', variants, opt.mpi, opt.mpicc), opt.prefix,
              os.path.dirname(os.path.abspath(opt.recipe)))
    for phase in opt.phases.split(','):
        if phase == 'check':
            pkg.check()
        else:
            getattr(pkg, phase)(pkg.spec, pkg.prefix)
    for call in make.calls:
        print(shlex.join(['make'] + call))


if __name__ == '__main__':
    main()
