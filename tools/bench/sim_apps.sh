# shellcheck shell=bash
# sim_apps.sh - builds the applications that are not part of topomap with
# SimGrid's compilers (sourced by tools/bench/sim.sh and
# tools/bench/record_traces.sh).  Their sources are given, never fetched:
#
#   LULESH_SRC  a LULESH 2.0 source tree (LLNL/LULESH: lulesh.cc ...)
#   COMD_SRC    the src-mpi folder of a CoMD source tree (ECP-copa/CoMD)
#   MINIFE_SRC  the ref folder of a miniFE source tree (Mantevo/miniFE: its
#               src, utils and fem folders; the MPI reference version, no
#               OpenMP)
#
# Each sim_app_NAME builds BUILD/sim/BIN and BIN-rec (topomap's recorder
# linked in: TOPOMAP_RECORD under SMPI, docs/mpi.md) into SIMDIR (the
# caller's; objects are rebuilt only when their source is newer) and
# prints the binary's path without -rec; it returns 1 without output when
# its source is not given, 2 when the build fails (the compiler's errors on
# stderr).  Needs BUILD and SIMDIR (absolute paths) and
# BUILD/sim/libtopomap_smpi.a (`make build/sim/libtopomap_smpi.a`).

# sim_ring N FILE: a ring over N tasks as Matrix Market, for
# `map --strategy identity --refine none --format smpi`, whose placement (the
# consecutive one: rank i on the i-th slot) does not depend on the matrix
sim_ring() {
    python3 -c "
n = $1
print('%%MatrixMarket matrix coordinate real general')
print(n, n, n)
for i in range(n): print(i + 1, (i + 1) % n + 1, 1)" > "$2"
}

# sim_link2 COMPILER BIN OBJECTS...: BIN, and BIN-rec with topomap's
# recorder linked in
sim_link2() {
    local cc=$1 bin=$2; shift 2
    "$cc" -o "$bin" "$@" -lm || return 2
    "$cc" -o "$bin-rec" "$@" -Wl,--whole-archive "$SIMDIR/libtopomap_smpi.a" \
        -Wl,--no-whole-archive "$BUILD/libtopomap.a" -ligraph -lxml2 -lmetis -lpthread -lm || return 2
}

# sim_compile COMPILER SOURCE OBJECT FLAGS...: OBJECT unless newer than SOURCE
sim_compile() {
    local cc=$1 src=$2 obj=$3; shift 3
    [ "$obj" -nt "$src" ] || "$cc" "$@" -O2 -w -c "$src" -o "$obj" || return 2
}

# LULESH 2.0 with MPI (-DUSE_MPI=1), no OpenMP: $SIMDIR/lulesh2.0
sim_app_lulesh() {
    [ -n "${LULESH_SRC:-}" ] && [ -f "$LULESH_SRC/lulesh.cc" ] || return 1
    local src d=$SIMDIR/lulesh f
    src=$(cd "$LULESH_SRC" && pwd)
    mkdir -p "$d"
    for f in lulesh lulesh-comm lulesh-viz lulesh-util lulesh-init; do
        sim_compile smpicxx "$src/$f.cc" "$d/$f.o" -DUSE_MPI=1 -I"$src" >&2 || return 2
    done
    sim_link2 smpicxx "$SIMDIR/lulesh2.0" "$d"/*.o >&2 || return 2
    echo "$SIMDIR/lulesh2.0"
}

# CoMD's MPI version (-DDO_MPI, double precision): $SIMDIR/comd-mpi
sim_app_comd() {
    [ -n "${COMD_SRC:-}" ] && [ -f "$COMD_SRC/CoMD.c" ] || return 1
    local src d=$SIMDIR/comd f
    src=$(cd "$COMD_SRC" && pwd)
    mkdir -p "$d"
    # CoMD_info.h, which its Makefile generates
    (cd "$d" && bash "$src/generate_info_header" CoMD-mpi smpicc \
        "-std=gnu99 -DDOUBLE -DDO_MPI" "-lm" > /dev/null 2>&1)
    for f in "$src"/*.c; do
        sim_compile smpicc "$f" "$d/$(basename "${f%.c}").o" -std=gnu99 -DDOUBLE -DDO_MPI \
            -I"$d" -I"$src" >&2 || return 2
    done
    sim_link2 smpicc "$SIMDIR/comd-mpi" "$d"/*.o >&2 || return 2
    echo "$SIMDIR/comd-mpi"
}

# miniFE's reference version (ref/src with ref/utils and ref/fem), its
# Makefile's options (CSR matrix, double, int ordinals, MPI): $SIMDIR/miniFE.x
sim_app_minife() {
    [ -n "${MINIFE_SRC:-}" ] && [ -f "$MINIFE_SRC/src/main.cpp" ] || return 1
    local src d=$SIMDIR/minife f
    src=$(cd "$MINIFE_SRC" && pwd)
    mkdir -p "$d"
    # miniFE_info.hpp, which its Makefile generates
    (cd "$d" && bash "$src/src/generate_info_header" smpicxx "-O2" miniFE MINIFE \
        > /dev/null 2>&1)
    for f in src/main.cpp src/YAML_Doc.cpp src/YAML_Element.cpp utils/BoxPartition.cpp \
             utils/param_utils.cpp utils/utils.cpp utils/mytimer.cpp; do
        sim_compile smpicxx "$src/$f" "$d/$(basename "${f%.cpp}").o" -I"$d" -I"$src/src" \
            -I"$src/utils" -I"$src/fem" -DMINIFE_SCALAR=double -DMINIFE_LOCAL_ORDINAL=int \
            -DMINIFE_GLOBAL_ORDINAL=int -DMINIFE_CSR_MATRIX -DHAVE_MPI -DMPICH_IGNORE_CXX_SEEK >&2 || return 2
    done
    sim_link2 smpicxx "$SIMDIR/miniFE.x" "$d"/*.o >&2 || return 2
    echo "$SIMDIR/miniFE.x"
}
