# Spack recipe for topomap (docs/install.md, "Spack").
#
# Syntax: Spack v0.23 package API (spack.readthedocs.io/en/v0.23.1,
# "Makefile" build system and packaging guide): `from spack.package import *`,
# the version/variant/depends_on/conflicts directives, MakefilePackage with
# its edit/build/install phases, build_targets/install_targets, the
# `make` and `spack_cc` module globals, spec["mpi"].mpicc.  Spack is not
# installed where this recipe is tested: tests/install/spack_check.py
# imports it with a stub `spack.package` and records the make lines it
# issues, and tests/cli/t70-install.sh runs exactly those lines.
#
# Use: put this file in a Spack repository as packages/topomap/package.py
# (`spack repo create`), then from a checkout of topomap
#   spack dev-build topomap@0.1.0 +mpi +shim ^openmpi
# The project has no release download yet: add url/sha256 (or git) to
# version() when one is published.
from spack.package import *


class Topomap(MakefilePackage):
    """Topology-aware mapping of MPI processes onto HPC interconnects: exact
    link congestion, dilation and QAP cost of a placement on a real
    InfiniBand fabric or a generated network, better placements, rank files
    for mpirun and Slurm.  C11 library (libtopomap), CLI (topomap),
    MPI rank reordering (libtopomap_mpi) and its PMPI shim."""

    version("0.1.0")

    variant("mpi", default=True,
            description="Build libtopomap_mpi (tm_mpi_*: topology-aware rank reordering) "
                        "against the spec's MPI")
    variant("shim", default=True,
            description="Build the PMPI shim libtopomap_pmpi.so (reordering by LD_PRELOAD)")
    conflicts("+shim", when="~mpi", msg="the PMPI shim is part of the MPI build (+mpi)")

    depends_on("c", type="build")
    depends_on("gmake", type="build")
    depends_on("pkgconfig", type="build")
    # man pages and bash completion are generated from `topomap --help`
    depends_on("python@3:", type="build")
    depends_on("igraph@0.10:")
    # src/graph/partition.c asserts METIS's idx_t is 32 bits
    depends_on("metis@5.1: ~int64")
    depends_on("libxml2")
    # study merge reads the shards' JSON (src/shard/)
    depends_on("jansson")
    depends_on("libyaml")
    depends_on("mpi", when="+mpi")
    depends_on("cmocka", type="test")

    def make_args(self):
        """Variables of every make line: the install prefix, the compiler,
        no apt (INSTALL_DEPS=no), and which MPI builds (Makefile, "MPI")."""
        args = ["PREFIX={0}".format(self.prefix), "CC={0}".format(spack_cc), "INSTALL_DEPS=no"]
        if self.spec.satisfies("+mpi"):
            mpi = self.spec["mpi"]
            flavor = mpi.name if mpi.name in ("openmpi", "mpich") else "default"
            args += ["MPI_FLAVORS={0}".format(flavor), "MPICC_{0}={1}".format(flavor, mpi.mpicc)]
            if not self.spec.satisfies("+shim"):
                args.append("MPI_SHIM=0")
        else:
            args.append("MPI_FLAVORS=")
        return args

    def edit(self, spec, prefix):
        # Nothing to edit: every setting is a make variable (make_args).
        pass

    @property
    def build_targets(self):
        return ["all"] + self.make_args()

    @property
    def install_targets(self):
        return ["install"] + self.make_args()

    def check(self):
        # `make test` also runs the sanitizer, ThreadSanitizer and fuzz
        # stages (clang, Chromium): `spack install --test` runs the unit
        # tests, which need only cmocka.
        with working_dir(self.build_directory):
            make("test-unit", *self.make_args())
