# topomap - build, test, demo, bench, install.
#
#   make            build build/libtopomap.{a,so} and build/topomap (installs nothing)
#   make demo       install what is missing (as make deps), build, map a shipped job
#                   against its consecutive placement; write the rankfile and the HTML
#                   report build/demo-report.html
#   make test       install what is missing (as make deps), then build, then
#                   the layer check (tools/check-layers.py), unit + CLI tests, then the
#                   same under ASan/UBSan/LSan, the threaded unit tests under
#                   ThreadSanitizer, then fuzz smoke runs: every stage, also after one
#                   failed, then one summary of each failed test and step (tests/run-stages.sh)
#   make bench      benchmarks (tools/bench/)
#   make bench-map  the mapping engine against Scotch (tools/bench/map-scotch.sh)
#   make bench-gap  the lower bounds and the gaps of the default, --effort exhaustive and
#                   Scotch (tools/bench/gap.py, docs/performance.md "Lower bounds and gaps")
#   make bench-scale  time and peak RSS against size (tools/bench/scale.sh)
#   make bench-budget quality against wall time (default, --effort, --time-limit), Scotch
#                   beside (tools/bench/budget.sh)
#   make bench-robust the default under 20 numberings of every trace, beside Scotch
#                   (tools/bench/robust.py)
#   make install    PREFIX=/usr/local DESTDIR= LIBDIR=PREFIX/lib ... (docs/install.md): the
#                   libraries, headers, CLI, MPI libraries (LIBDIR/topomap-mpi-<mpi>/),
#                   pkg-config and CMake files, man pages, bash completion; make uninstall
#   make deb        the Debian packages into build/deb/ (debian/, docs/install.md)
#   make bench-record the overhead of TOPOMAP_RECORD on halo3d (tools/bench/record.sh)
#   make bench-sim  mapped against consecutive as real MPI programs in SimGrid's SMPI
#                   (tools/bench/sim.sh, docs/time.md)
#   make record-traces  LULESH_SRC= COMD_SRC= MINIFE_SRC=: records the traces of
#                   topologies/comm/recorded again under SMPI (tools/bench/record_traces.sh,
#                   docs/performance.md); CHECK=1 compares instead of replacing
#   make bench-workload  topomap alloc on 1,000-node fabrics, a replay (tools/bench/workload.sh)
#   make bench-slurm-hook  the submit hook in the real slurmctld, 1,000 nodes 70 % busy
#   make deps       install what is missing (tools/install-deps.sh: apt, sudo when not root);
#                   FOR=bench|sim|deb: the tools of bench-map/bench-budget, bench-sim, deb
#
# Dependencies: a plain `make` (and install, test-unit, ...) installs nothing:
# it checks the build dependencies (a C compiler, pkg-config's igraph,
# libxml-2.0 and jansson, METIS's header: tools/check-build-deps.sh) and, when
# one is missing, names it with its Debian package and stops before building.
# The README's two commands, `make demo` and `make test`, and `make deps` run
# tools/install-deps.sh (the build and test dependencies: CMocka, clang, MPI,
# Chromium, Slurm, SimGrid, ...); INSTALL_DEPS=no never does.  The bench
# targets that need a peer (Scotch, SimGrid) and `make deb` (its packaging
# tools) check them and say `make deps FOR=bench|sim|deb` installs them.

PREFIX  ?= /usr/local
# The version is TOPOMAP_VERSION in include/topomap/topomap.h (what
# `topomap --version` prints); the SONAME is libtopomap.so.<major>.
VERSION   := $(shell sed -n 's/^\#define TOPOMAP_VERSION "\(.*\)"/\1/p' include/topomap/topomap.h)
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
BUILD   ?= build
CC      ?= cc
SAN     ?=
OPT     ?= -O2 -g

DEPS_STAMP := $(BUILD)/.deps-ok
TEST_DEPS_STAMP := $(BUILD)/.test-deps-ok
DEPS_INSTALLED := $(BUILD)/.deps-installed
# jansson: `study merge` reads the shards' JSON (src/shard/), and Slurm's JSON (src/slurm/)
# yaml-0.1 (libyaml): Slurm's topology.yaml read back (src/slurm/yaml_read.c)
PKGS       := igraph libxml-2.0 jansson yaml-0.1 cmocka
# Recursively expanded on purpose: evaluated after the deps step ran.
PKG_CFLAGS  = $(shell pkg-config --cflags igraph libxml-2.0 jansson yaml-0.1)
PKG_LIBS    = $(shell pkg-config --libs igraph libxml-2.0 jansson yaml-0.1) -lmetis -lpthread -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

ifeq ($(SAN),1)
  CC      := clang
  OPT     := -O1 -g -fno-omit-frame-pointer
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif
# ThreadSanitizer (build-tsan/, `make test-tsan`).  libmetis, igraph and
# libc are not instrumented: races inside them are invisible to TSan, which
# is why test_metis_pool also compares concurrent results bit for bit.
ifeq ($(SAN),tsan)
  CC      := clang
  OPT     := -O1 -g -fno-omit-frame-pointer
  SANFLAGS := -fsanitize=thread
endif
# Library objects for the libFuzzer targets (build-fuzz/): coverage
# instrumentation without libFuzzer's main, plus ASan/UBSan.
ifeq ($(SAN),fuzz)
  CC      := clang
  OPT     := -O1 -g -fno-omit-frame-pointer
  SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
  # Generator caps small enough that any accepted spec builds within the
  # fuzzer's 10 s per input (src/gen/gen_int.h; same checks, lower bound).
  SANFLAGS += -DTM_GEN_MAX_VERTICES='(INT64_C(1) << 15)' -DTM_GEN_MAX_CABLES='(INT64_C(1) << 17)'
  # Same for hostlists and explicit XML specs (src/alloc/hostlist.c, src/io/xmlspec.c).
  SANFLAGS += -DTM_HOSTLIST_MAX=32768u -DSPEC_MAX_VERTICES='(INT64_C(1) << 15)' \
              -DSPEC_MAX_LINK_CABLES=131072LL
  # And for the phases: tasks x phases (src/comm/read_phases.c), so that an input
  # naming 2^24 tasks does not spend the run allocating their offsets.
  SANFLAGS += -DTM_PHASES_MAX_TASK_ROWS='(INT64_C(1) << 20)'
endif

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -fPIC $(SANFLAGS) -Iinclude $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(sort $(filter-out src/cli/% src/mpi/%,$(wildcard src/*/*.c)))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all mpi deps demo check-layers test test-build test-unit test-cli test-asan test-tsan bench bench-map bench-budget bench-gap bench-robust bench-scale bench-record bench-sim record-traces bench-workload bench-slurm-hook install clean fuzz fuzz-smoke \
        install-files uninstall man completion deb \
        fuzz-build valgrind

all: $(BUILD)/libtopomap.a $(BUILD)/libtopomap.so $(BUILD)/topomap mpi

# ---- dependencies --------------------------------------------------------------
# The build dependencies, checked, never installed: every object waits for
# DEPS_STAMP (order-only), so a missing one stops `make` before anything is
# compiled, with what is missing and how to get it.  The unit tests also
# need CMocka (TEST_DEPS_STAMP).  The stamps are made only when the check
# passes: after `make deps` the next make checks again.
$(DEPS_STAMP): tools/check-build-deps.sh
	@mkdir -p $(BUILD)
	@tools/check-build-deps.sh '$(CC)' $(CFLAGS)
	@touch $@
$(TEST_DEPS_STAMP): tools/check-build-deps.sh | $(DEPS_STAMP)
	@tools/check-build-deps.sh --tests '$(CC)' $(CFLAGS)
	@touch $@

# Installing: `make deps` always, `make demo` and `make test` through
# DEPS_INSTALLED, which depends on install-deps.sh (a package added there is
# installed by the next make demo or make test).  When everything the build
# and the test stages need is there (the build dependencies, CMocka, clang,
# Chromium, CMake, man) a failing install-deps.sh (no sudo, no apt) only
# means some tests skip; otherwise it is an error.  A fresh machine has no
# pkg-config yet: it is looked for before it is run.  INSTALL_DEPS=no
# (package builds: debian/rules, the Spack recipe): never apt, only the
# check.
INSTALL_DEPS ?= yes
define RUN_INSTALL_DEPS
@mkdir -p $(BUILD)
@have_pc() { command -v pkg-config >/dev/null && pkg-config --exists "$$@"; }; \
if [ "$(INSTALL_DEPS)" = no ]; then \
  echo "make: INSTALL_DEPS=no: nothing installed (tools/install-deps.sh lists the test tools)"; \
elif ! have_pc $(PKGS) || [ ! -f /usr/include/metis.h ] || ! command -v clang >/dev/null \
  || ! command -v chromium >/dev/null || ! command -v cmake >/dev/null || ! command -v man >/dev/null; then \
  tools/install-deps.sh && touch $(DEPS_INSTALLED); \
else \
  { tools/install-deps.sh || echo "make: some test tools (MPI, slurmctld, ...) not installed: the tests that need them skip"; } \
  && touch $(DEPS_INSTALLED); fi
endef
$(DEPS_INSTALLED): tools/install-deps.sh
	$(RUN_INSTALL_DEPS)
deps:
ifeq ($(FOR),)
	$(RUN_INSTALL_DEPS)
else
	@case "$(FOR)" in bench|sim|deb) ;; *) echo "make deps: FOR=$(FOR): bench, sim or deb"; exit 1;; esac; \
	if [ "$(INSTALL_DEPS)" = no ]; then echo "make: INSTALL_DEPS=no: nothing installed"; \
	else tools/install-deps.sh --$(FOR); fi
endif

# The tools of one target beyond the tests' (Scotch for bench-map and
# bench-budget, SimGrid's smpicc for bench-sim, the packaging tools for
# deb) are checked, never installed: NEED_TOOL,PROGRAM,WHAT,FOR says what
# is missing and that `make deps FOR=...` installs it (tools/install-deps.sh
# --FOR), and stops.
NEED_TOOL = command -v $(1) >/dev/null || { echo "make $@: $(2) ($(1)) is not installed: \
'make deps FOR=$(3)' installs it (tools/install-deps.sh --$(3))"; exit 2; }

# Library objects hide every symbol but the TM_API functions of
# include/topomap/ (export.h): libtopomap.so exports the public API only
# (tests/cli/t90-exports.sh).  The CLI, tests and benchmarks link
# libtopomap.a, where hidden symbols still resolve.
$(LIB_OBJ): VISIBILITY := -fvisibility=hidden

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(VISIBILITY) -MMD -MP -c $< -o $@

$(BUILD)/libtopomap.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtopomap.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libtopomap.so.$(SOVERSION) -o $@ $^ $(LDFLAGS_ALL) $(PKG_LIBS)
	ln -sf libtopomap.so $(BUILD)/libtopomap.so.$(SOVERSION)

$(BUILD)/topomap: $(CLI_OBJ) $(BUILD)/libtopomap.a
	$(CC) -o $@ $(CLI_OBJ) $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS)

# ---- MPI (docs/mpi.md) --------------------------------------------------------
# libtopomap_mpi.so (tm_mpi_*), the PMPI shim libtopomap_pmpi.so, the halo
# example and the test program, built once per MPI implementation found
# (BUILD/mpi-openmpi/, BUILD/mpi-mpich/; plain `mpicc`: BUILD/mpi-default/):
# a library built against one MPI cannot run under another.  Without any
# mpicc, `make` builds the rest and says so.  Not under the sanitizers
# (their runtimes and LD_PRELOAD shims do not mix).
# (strip: with no mpicc the foreach gives " ", which $(if) and ifeq take for a value)
MPI_FLAVORS := $(strip $(foreach f,openmpi mpich,$(if $(shell command -v mpicc.$(f) 2>/dev/null),$(f))))
ifeq ($(MPI_FLAVORS),)
  MPI_FLAVORS := $(if $(shell command -v mpicc 2>/dev/null),default)
endif
ifneq ($(SAN),)
  MPI_FLAVORS :=
endif
# MPICC_<mpi>=path overrides the wrapper of a flavour (the Spack recipe
# passes MPI_FLAVORS=<mpi> MPICC_<mpi>=<its mpicc>); MPI_SHIM=0 builds no
# PMPI shim (Spack's ~shim).
MPI_SHIM ?= 1
mpicc_of = $(or $(MPICC_$(1)),$(if $(filter default,$(1)),mpicc,mpicc.$(1)))
# src/mpi/ (docs/mpi.md): lib/ is libtopomap_mpi (tm_mpi_*); the shim
# libtopomap_pmpi.so is lib/ plus shim/ (the four topology calls,
# MPI_Init/Finalize) and record/ (the recorder, TOPOMAP_RECORD, with its
# point-to-point and collective wrappers).
MPI_LIB_SRC := $(sort $(wildcard src/mpi/lib/*.c))
MPI_SHIM_SRC := $(sort $(wildcard src/mpi/shim/*.c src/mpi/record/*.c))
MPI_DIRS    := $(MPI_FLAVORS:%=$(abspath $(BUILD))/mpi-%)
MPI_OUT      = $(foreach f,$(MPI_FLAVORS),$(addprefix $(BUILD)/mpi-$(f)/,libtopomap_mpi.so \
                 $(if $(filter 1,$(MPI_SHIM)),libtopomap_pmpi.so record_pattern record_threads record_phases record_waits) \
                 halo3d tm_neighbors placement))

# MPI_FLAVORS is found when the Makefile is read: on a fresh machine that is
# before the deps step installed MPI, so one make started afresh (once:
# TM_MPI_AGAIN) builds them.  Not when MPI_FLAVORS is given (Spack's ~mpi).
MPI_AGAIN := $(if $(filter file,$(origin MPI_FLAVORS)),$(if $(TM_MPI_AGAIN),,yes))
mpi: $(MPI_OUT)
	@$(if $(MPI_FLAVORS)$(SAN),:,if [ -n "$(MPI_AGAIN)" ] && { command -v mpicc.openmpi || command -v mpicc.mpich \
	  || command -v mpicc; } >/dev/null; then $(MAKE) --no-print-directory TM_MPI_AGAIN=1 mpi; \
	  else echo "make: no mpicc found: libtopomap_mpi not built (tools/install-deps.sh installs Open MPI and MPICH)"; fi)

define MPI_RULES
$(BUILD)/mpi-$(1)/obj/%.o: src/mpi/%.c $(BUILD)/libtopomap.a | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) $$(CFLAGS_ALL) -fvisibility=hidden -MMD -MP -c $$< -o $$@
$(BUILD)/mpi-$(1)/libtopomap_mpi.so: $(MPI_LIB_SRC:src/mpi/%.c=$(BUILD)/mpi-$(1)/obj/%.o) src/mpi/lib/export_mpi.map
	$(call mpicc_of,$(1)) -shared -Wl,--version-script=src/mpi/lib/export_mpi.map -Wl,-soname,libtopomap_mpi.so -o $$@ \
	  $$(filter %.o,$$^) $(BUILD)/libtopomap.a $$(LDFLAGS_ALL) $$(PKG_LIBS)
$(BUILD)/mpi-$(1)/libtopomap_pmpi.so: $(MPI_LIB_SRC:src/mpi/%.c=$(BUILD)/mpi-$(1)/obj/%.o) \
    $(MPI_SHIM_SRC:src/mpi/%.c=$(BUILD)/mpi-$(1)/obj/%.o) src/mpi/shim/export_pmpi.map
	$(call mpicc_of,$(1)) -shared -Wl,-z,defs -Wl,--version-script=src/mpi/shim/export_pmpi.map -o $$@ \
	  $$(filter %.o,$$^) $(BUILD)/libtopomap.a $$(LDFLAGS_ALL) $$(PKG_LIBS)
$(BUILD)/mpi-$(1)/halo3d: examples/halo3d.c examples/commstat.h | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 -D_GNU_SOURCE $$(OPT) $$(WARN) -o $$@ $$<
$(BUILD)/mpi-$(1)/placement: tests/mpi/placement.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 $$(OPT) $$(WARN) -o $$@ $$<
$(BUILD)/mpi-$(1)/record_pattern: tests/mpi/record_pattern.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 $$(OPT) $$(WARN) -o $$@ $$<
$(BUILD)/mpi-$(1)/record_phases: tests/mpi/record_phases.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 $$(OPT) $$(WARN) -o $$@ $$<
$(BUILD)/mpi-$(1)/record_waits: tests/mpi/record_waits.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 $$(OPT) $$(WARN) -o $$@ $$<
$(BUILD)/mpi-$(1)/record_threads: tests/mpi/record_threads.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$(call mpicc_of,$(1)) -std=c11 $$(OPT) $$(WARN) -pthread -o $$@ $$<
$(BUILD)/mpi-$(1)/tm_neighbors: tests/mpi/tm_neighbors.c $(BUILD)/mpi-$(1)/libtopomap_mpi.so
	$(call mpicc_of,$(1)) -std=c11 -D_GNU_SOURCE $$(OPT) $$(WARN) -Iinclude -o $$@ $$< \
	  -L$(BUILD)/mpi-$(1) -ltopomap_mpi -Wl,-rpath,'$$$$ORIGIN'
endef
$(foreach f,$(MPI_FLAVORS),$(eval $(call MPI_RULES,$(f))))

# -MMD -MP: every header a test includes (src/ internals too) is a
# dependency (BUILD/tests/test_x.d, included at the end).
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtopomap.a | $(TEST_DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -MMD -MP -MF $@.d -o $@ $< $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(TEST_LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS)

# test_ofile injects I/O failures (disk full, failing fsync/rename) into
# src/io/ofile.c by wrapping the libc calls it makes (CMocka-style --wrap).
$(BUILD)/tests/test_ofile: TEST_LDFLAGS = -Wl,--wrap=fflush -Wl,--wrap=fsync -Wl,--wrap=rename \
    -Wl,--wrap=fdopen
# test_oom fails the Nth allocation made by libtopomap.a (not by the shared
# igraph/libxml2/METIS, which --wrap cannot reach): docs/trust.md.
$(BUILD)/tests/test_oom: TEST_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
    -Wl,--wrap=strdup,--wrap=strndup,--wrap=posix_memalign,--wrap=aligned_alloc

# ---- tests ------------------------------------------------------------------
# Every input the tests read is in the repository (tests/data, topologies):
# `make test` needs nothing beside the checkout.
test-unit: $(TEST_BIN)
	@tests/run-unit.sh $(BUILD) $(TEST_BIN)

# TOPOMAP_LIB: tests/cli/t90-exports.sh checks the shared library's symbols.
# TOPOMAP_MPI_DIRS: the per-MPI builds tests/cli/t6x-mpi.sh runs (none under
# the sanitizers).
test-cli: $(BUILD)/topomap $(BUILD)/libtopomap.so mpi
	@TOPOMAP=$(abspath $(BUILD)/topomap) TOPOMAP_LIB=$(abspath $(BUILD)/libtopomap.so) \
	  TOPOMAP_MPI_DIRS="$(MPI_DIRS)" \
	  tests/cli/run.sh

# ---- sanitizers, fuzzing, valgrind (docs/trust.md) -------------------------
# ASan + UBSan + LeakSanitizer.  Every report also goes to a log file under
# build-asan/san-logs/, and test-asan fails if any log exists: a test that
# expects a non-zero exit (or swallows stderr) cannot hide a report.
SAN_LOGS := $(abspath build-asan/san-logs)
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:exitcode=86:strict_string_checks=1:$\
detect_stack_use_after_return=1:check_initialization_order=1:log_path=$(SAN_LOGS)/asan \
  LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0:exitcode=86 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$(SAN_LOGS)/ubsan

# -k: the CLI tests run even when a unit test failed.  A report is also
# listed in `make test`'s summary (TM_TEST_FAILURES, tests/run-stages.sh).
test-asan:
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@$(SAN_ENV) $(MAKE) -k BUILD=build-asan SAN=1 test-unit test-cli; rc=$$?; \
	  if [ -n "$$(ls -A $(SAN_LOGS))" ]; then cat $(SAN_LOGS)/*; \
	    echo "test-asan: sanitizer reports above (logs in $(SAN_LOGS))"; \
	    [ -z "$$TM_TEST_FAILURES" ] || for f in $(SAN_LOGS)/*; do \
	      echo "asan report $$(basename $$f): $$(grep -m 1 -E 'ERROR|SUMMARY|runtime error' $$f | cut -c1-160)" \
	        >> "$$TM_TEST_FAILURES"; done; exit 1; fi; \
	  [ $$rc -eq 0 ] && echo "test-asan: no sanitizer reports"; exit $$rc

# The longer allocation-failure sweeps of tests/unit/test_oom.c (make test
# runs shorter ones), plain and under ASan: docs/trust.md.
test-oom: $(BUILD)/tests/test_oom
	TM_OOM_FULL=1 tests/run-unit.sh $(BUILD) $(BUILD)/tests/test_oom
	$(MAKE) BUILD=build-asan SAN=1 build-asan/tests/test_oom
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@$(SAN_ENV) TM_OOM_FULL=1 tests/run-unit.sh build-asan build-asan/tests/test_oom; rc=$$?; \
	  if [ -n "$$(ls -A $(SAN_LOGS))" ]; then cat $(SAN_LOGS)/*; exit 1; fi; exit $$rc

# ThreadSanitizer run of the unit tests that start threads (the METIS
# stress test, the threaded multisection / portfolio / metrics / oracle
# tests).  Any report fails the run (halt_on_error, exitcode 66).
TSAN_TESTS := test_metis_pool test_qap_parallel test_map_strategies test_map_auto test_metrics test_netdist test_study test_shard test_util
TSAN_ENV = TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1
test-tsan:
	@$(MAKE) BUILD=build-tsan SAN=tsan $(addprefix build-tsan/tests/,$(TSAN_TESTS))
	@$(TSAN_ENV) tests/run-unit.sh build-tsan $(addprefix build-tsan/tests/,$(TSAN_TESTS)) && \
	  echo "test-tsan: no ThreadSanitizer reports"

# libFuzzer targets tests/fuzz/fuzz_<reader>.c, built in build-fuzz/.
# `make fuzz FUZZ_TIME=600` fuzzes each target for FUZZ_TIME seconds
# (FUZZ_TARGETS="fuzz_metis fuzz_mtx" to pick some); `make fuzz-smoke`
# (part of `make test`) replays tests/fuzz/regressions/ and fuzzes each
# target for FUZZ_SMOKE seconds.  Corpora live in build-fuzz/corpus/.
FUZZ_TIME    ?= 60
FUZZ_SMOKE   ?= 3
FUZZ_JOBS    ?= 1
# the smoke stage runs two fuzzers at a time (one core each): make test
# stays under 15 minutes on a fresh 2-core machine
FUZZ_SMOKE_JOBS ?= 2
FUZZ_TARGETS ?=
FUZZ_BUILD   := build-fuzz

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libtopomap.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -MMD -MP -MF $@.d -fsanitize=fuzzer -o $@ $< $(BUILD)/libtopomap.a $(LDFLAGS_ALL) \
	  -fsanitize=fuzzer $(PKG_LIBS)

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) SAN=fuzz $(FUZZ_BUILD)/libtopomap.a

fuzz: fuzz-build
	@MAKE="$(MAKE)" FUZZ_JOBS=$(FUZZ_JOBS) \
	  tests/fuzz/run.sh $(FUZZ_BUILD) run $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	@MAKE="$(MAKE)" FUZZ_JOBS=$(FUZZ_SMOKE_JOBS) \
	  tests/fuzz/run.sh $(FUZZ_BUILD) smoke $(FUZZ_SMOKE) $(FUZZ_TARGETS)

# The CLI end-to-end tests with every topomap run under valgrind memcheck
# (tests/valgrind-topomap.sh wraps the binary; logs per run in
# build/valgrind/, any error or definite leak fails).
VG_LOGS := $(abspath $(BUILD)/valgrind)
valgrind: $(BUILD)/topomap $(BUILD)/libtopomap.so
	@rm -rf $(VG_LOGS) && mkdir -p $(VG_LOGS)
	@TOPOMAP=$(abspath tests/valgrind-topomap.sh) TOPOMAP_REAL=$(abspath $(BUILD)/topomap) \
	  TOPOMAP_LIB=$(abspath $(BUILD)/libtopomap.so) \
	  VG_LOGS=$(VG_LOGS) tests/cli/run.sh; rc=$$?; \
	  bad=$$(grep -L 'ERROR SUMMARY: 0 errors' $(VG_LOGS)/vg.* 2>/dev/null); \
	  if [ -n "$$bad" ]; then cat $$bad; echo "valgrind: errors in $$bad"; exit 1; fi; \
	  echo "valgrind: $$(ls $(VG_LOGS) | wc -l) topomap runs, 0 errors, 0 definite leaks"; exit $$rc

# Each suite runner appends "passed failed" to TM_TEST_TALLY and a line per
# failed test to TM_TEST_FAILURES (tests/run-stages.sh sets both): the end of
# `make test` totals the unit and CLI cases and lists every failure.
# Every tree the suites need is compiled first, JOBS at a time (the suites
# then only run): serial compilation of the plain, ASan, TSan and fuzz
# trees was a third of a clean `make test`.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_BIN = $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
# Every tree is tried even when one fails to compile (the stages that need
# it then fail too, and the summary of `make test` names the first error).
test-build:
	@rc=0; \
	$(MAKE) -j$(JOBS) all $(TEST_BIN) || rc=1; \
	$(MAKE) -j$(JOBS) BUILD=build-asan SAN=1 build-asan/topomap build-asan/libtopomap.so \
	  $(TEST_BIN:$(BUILD)/%=build-asan/%) || rc=1; \
	$(MAKE) -j$(JOBS) BUILD=build-tsan SAN=tsan $(addprefix build-tsan/tests/,$(TSAN_TESTS)) || rc=1; \
	$(MAKE) -j$(JOBS) BUILD=$(FUZZ_BUILD) SAN=fuzz $(FUZZ_BIN) || rc=1; \
	exit $$rc

# The layer rule of src/README.md (also tests/cli/t93-layers.sh): the
# includes, and the uses the objects' symbols show (the library's, the
# CLI's and the first MPI build's: built first).
MPI_OBJ_DIR = $(if $(MPI_FLAVORS),$(BUILD)/mpi-$(firstword $(MPI_FLAVORS))/obj)
check-layers: $(LIB_OBJ) $(CLI_OBJ) mpi
	@tools/check-layers.py --objects $(BUILD)/obj $(if $(MPI_OBJ_DIR),--mpi-objects $(MPI_OBJ_DIR)) \
	  && echo "check-layers: every include and every call points down, no two files of a folder call each other"

# Every stage runs, also after one failed (tests/run-stages.sh): test-build,
# check-layers, test-unit, test-cli, test-asan, test-tsan, fuzz-smoke; then one
# summary names each failed test and the step inside it that failed.
# `make test` first installs what is missing (the README's second command).
test: $(DEPS_INSTALLED)
	@MAKE="$(MAKE)" TM_STAGES_DIR=build tests/run-stages.sh

# ---- demo, bench, install ---------------------------------------------------------
DEMO_TOPO := topologies/psmn-x5/X5.topofile
DEMO_MAP  := topologies/psmn-x5/X5.map
DEMO_COMM := topologies/comm/lulesh-64.graphStats.txt
DEMO_JOB  := topologies/psmn-x5/job-64-scattered.hostfile
DEMO_ARGS := --topology $(DEMO_TOPO) --node-name-map $(DEMO_MAP) --slots 12 --comm $(DEMO_COMM)

# The main job: LULESH (64 ranks, a real mpiP trace) on 16 nodes scattered over
# six leaf switches of a real InfiniBand fabric.  One run: every strategy, the
# consecutive (batch-system) placement beside the result, the rankfile, the
# HTML report (docs/report.md) and the mpirun line that uses the rankfile.
# The README's first command: installs what is missing, then builds (a make
# of its own, which finds the MPI compilers just installed) and runs.
demo: $(DEPS_INSTALLED)
	@$(MAKE) --no-print-directory all
	$(BUILD)/topomap map $(DEMO_ARGS) --alloc $(DEMO_JOB) --out $(BUILD)/demo.rankfile \
	  --report $(BUILD)/demo-report.html
	@echo "run it (Open MPI 4):  mpirun --hostfile $(DEMO_JOB) --rankfile $(BUILD)/demo.rankfile -np 64 ./lulesh2.0 -s 35"
	@echo "        (Open MPI 5:  mpirun --hostfile $(DEMO_JOB) --map-by rankfile:file=$(BUILD)/demo.rankfile -np 64 ./lulesh2.0 -s 35)"

BENCH_BIN := $(patsubst tools/bench/%.c,$(BUILD)/%,$(wildcard tools/bench/bench_*.c))

$(BUILD)/bench_%: tools/bench/bench_%.c $(BUILD)/libtopomap.a | $(DEPS_STAMP)
	$(CC) $(CFLAGS_ALL) -MMD -MP -MF $@.d -o $@ $< $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS)

bench: all $(BENCH_BIN)
	tools/bench/run.sh $(BUILD)

# The one-engine table of docs/mapping.md with Scotch side by side
# (tools/install-deps.sh --bench installs Scotch).
bench-map: all
	@$(call NEED_TOOL,scotch_gmap,Scotch,bench)
	tools/bench/map-scotch.sh $(BUILD)

# Quality against wall time: the default, --effort and the --time-limit
# curve beside Scotch's three strategies on seven instances up to 131,072
# tasks (docs/performance.md "Effort and time"); BIG=0 skips the largest.
bench-budget: all
	@$(call NEED_TOOL,scotch_gmap,Scotch,bench)
	tools/bench/budget.sh $(BUILD)

# Does the default's answer depend on how the ranks are numbered?  Every
# real trace (../shared/data/commmatrix/, topologies/comm/), SpMV and a
# stencil on tori, a fat-tree and X5, N numberings each (default 20): the
# default, --effort exhaustive and Scotch over the best known placement
# (docs/performance.md "Numbering").  ONLY=key,...  NUMBERINGS=N
bench-robust: all
	@$(call NEED_TOOL,scotch_gmap,Scotch,bench)
	tools/bench/robust.py $(BUILD) --numberings $(or $(NUMBERINGS),20) \
	    $(if $(ONLY),--only $(ONLY)) --fresh

# How far from the optimum: the lower bounds beside the default, --effort
# exhaustive and Scotch on tori, fat-trees, X5, PlaFRIM and a dragonfly, SpMV,
# stencils and real traces (docs/performance.md "Lower bounds and gaps");
# BIG=0 skips the 131,072-task case, REPS=1 times one run.
bench-gap: all
	@$(call NEED_TOOL,scotch_gmap,Scotch,bench)
	python3 tools/bench/gap.py $(BUILD) --threads 2 --reps $${REPS:-3} $$([ "$${BIG:-1}" = 0 ] && echo --no-big)

# Time and peak RSS against size (docs/performance.md); SIZES and LIMIT
# as in tools/bench/scale.sh.  Long: up to an hour on 2 cores.
bench-scale: all
	tools/bench/scale.sh $(BUILD) $(SIZES)

# The example MPI programs built with SimGrid's smpicc (halo3d without
# MPI_Dist_graph_create_adjacent, which SMPI 3.32 lacks), run in simulation
# on platforms from `topo export --format simgrid` (docs/time.md).
SIM_PROGS := halo3d spmv fft3d
$(BUILD)/sim/%: examples/%.c examples/commstat.h
	@$(call NEED_TOOL,smpicc,SimGrid,sim)
	@mkdir -p $(dir $@)
	smpicc -std=c11 -D_GNU_SOURCE -O2 $(WARN) -DHALO3D_NO_DIST_GRAPH -o $@ $< -lm

# The recorder (TOPOMAP_RECORD) for programs built with smpicc: the shim's
# files compiled against SMPI's mpi.h, linked statically into the program
# (SMPI runs every rank in one process and privatizes the program's own
# globals, so the shim's state must be part of the program; SMPI's MPI
# functions are weak, so the shim's wrappers take their place):
#   smpicc -o prog prog.o -Wl,--whole-archive BUILD/sim/libtopomap_smpi.a \
#     -Wl,--no-whole-archive BUILD/libtopomap.a -ligraph -lxml2 -lmetis -lm
SMPI_REC_OBJ := $(patsubst src/mpi/%.c,$(BUILD)/sim/obj/%.o,$(MPI_LIB_SRC) $(MPI_SHIM_SRC))
$(BUILD)/sim/obj/%.o: src/mpi/%.c $(BUILD)/libtopomap.a
	@$(call NEED_TOOL,smpicc,SimGrid,sim)
	@mkdir -p $(dir $@)
	smpicc $(CFLAGS_ALL) -Wno-unused-parameter -MMD -MP -c $< -o $@
$(BUILD)/sim/libtopomap_smpi.a: $(SMPI_REC_OBJ)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/sim/%-rec: examples/%.c examples/commstat.h $(BUILD)/sim/libtopomap_smpi.a
	smpicc -std=c11 -D_GNU_SOURCE -O2 $(WARN) -DHALO3D_NO_DIST_GRAPH -o $@ $< \
	  -Wl,--whole-archive $(BUILD)/sim/libtopomap_smpi.a -Wl,--no-whole-archive \
	  $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS) -lm

# SIM_SETS: which cases (tools/bench/sim.sh): 512 (default), 64, or both.
# LULESH_SRC=DIR: a LULESH 2.0 source tree (LLNL/LULESH), COMD_SRC=DIR the
# src-mpi folder of CoMD (ECP-copa/CoMD), built with SMPI's compilers by
# the bench; without them those rows are skipped (said so).
SIM_SETS ?= 512
bench-sim: all $(SIM_PROGS:%=$(BUILD)/sim/%) $(BUILD)/sim/halo3d-rec $(BUILD)/sim/libtopomap_smpi.a
	SIM_SETS="$(SIM_SETS)" tools/bench/sim.sh $(BUILD)

# The recorded traces of topologies/comm/recorded (PROVENANCE.md there):
# LULESH, CoMD and miniFE recorded by TOPOMAP_RECORD under SMPI at 64, 512
# and 1,000-1,024 ranks, from the sources given (LULESH_SRC, COMD_SRC: its
# src-mpi, MINIFE_SRC: its ref folder; *_REV their commits); TRACES="..."
# chooses some; CHECK=1 checks they are re-recorded byte for byte.
record-traces: all $(BUILD)/sim/libtopomap_smpi.a
	CHECK="$(CHECK)" tools/bench/record_traces.sh $(BUILD)

# The PMPI shim's recorder against plain MPI and the shim alone on
# examples/halo3d, every MPI built (tools/bench/record.sh, docs/mpi.md).
bench-record: mpi
	tools/bench/record.sh $(BUILD)

# The cost of `topomap alloc` on 1,000-node fabrics and of a replay
# (tools/bench/workload.sh, docs/workload.md "Performance")
bench-workload: all
	tools/bench/workload.sh $(BUILD)

# The submit hook's cost in Debian's slurmctld (docs/slurm.md "The submit hook").
bench-slurm-hook: all
	python3 tools/bench/slurm_hook.py $(BUILD)/topomap

# ---- install (docs/install.md) ----------------------------------------------
# GNU-style directories, each overridable; DESTDIR is prepended to every one
# (staged installs, packaging).  Debian's multiarch LIBDIR is set by
# debian/rules.  The .pc and CMake files never name DESTDIR (see PKG_SUBST).
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/topomap
BASHCOMPDIR  ?= $(DATADIR)/bash-completion/completions
INSTALL      ?= install
SONAME       := libtopomap.so.$(SOVERSION)

# Man pages and bash completion are generated from the built CLI's --help
# (tools/gen-man.py, tools/gen-completion.py): rebuilt whenever topomap is,
# so they cannot drift from it.
MAN_STAMP := $(BUILD)/man/.stamp
$(MAN_STAMP): $(BUILD)/topomap tools/gen-man.py
	@rm -rf $(BUILD)/man && mkdir -p $(BUILD)/man
	python3 tools/gen-man.py $(BUILD)/topomap $(BUILD)/man
	@touch $@
$(BUILD)/topomap.bash: $(BUILD)/topomap tools/gen-completion.py
	python3 tools/gen-completion.py $(BUILD)/topomap > $@.tmp && mv $@.tmp $@
man: $(MAN_STAMP)
completion: $(BUILD)/topomap.bash

# The pkg-config and CMake files with this install's paths (packaging/).
# topomap-mpi-<mpi>.pc requires that MPI's own module (ompi-c, mpich; mpi for
# a plain mpicc) and the CMake target carries its flags.
# Relocatable (issue 37): a tree staged with DESTDIR, moved or unpacked
# elsewhere (module trees, containers) still works.  topomapConfig.cmake
# computes the prefix from its own directory (CM_UP levels up, as CMake's
# generated packages do); the .pc files say prefix=${pcfiledir}/PC_UP, except
# for PREFIX=/usr (distribution packages, never moved), whose absolute paths
# keep pkg-config's system-directory filtering (it drops -I/usr/include by
# string, not a ${pcfiledir}/../../include).  LIBDIR or INCLUDEDIR outside
# PREFIX stay absolute.  docs/install.md "Relocating an install".
norm_dir = $(shell realpath -m -s '$(1)')
rel_dir = $(shell realpath -m -s --relative-to='$(2)' '$(1)')
# $(call under,DIR,VAR): DIR as VAR/<its path below PREFIX>, or absolute outside PREFIX
under = $(if $(filter $(call norm_dir,$(PREFIX)),$(call norm_dir,$(1))),$(2),$(if \
  $(filter $(call norm_dir,$(PREFIX))/%,$(call norm_dir,$(1))),$(2)/$(patsubst \
  $(call norm_dir,$(PREFIX))/%,%,$(call norm_dir,$(1))),$(call norm_dir,$(1))))
PC_ABSOLUTE = $(filter /usr,$(call norm_dir,$(PREFIX)))
pc_dir = $(if $(PC_ABSOLUTE),$(call norm_dir,$(1)),$(call under,$(1),$${prefix}))
PKG_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' \
  -e 's|@PREFIX@|$(call norm_dir,$(PREFIX))|g' -e 's|@CMAKEDIR@|$(call norm_dir,$(CMAKEDIR))|g' \
  -e 's|@PC_PREFIX@|$(if $(PC_ABSOLUTE),/usr,$${pcfiledir}/$(call rel_dir,$(PREFIX),$(PKGCONFIGDIR)))|g' \
  -e 's|@PC_LIBDIR@|$(call pc_dir,$(LIBDIR))|g' -e 's|@PC_INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|g' \
  -e 's|@CM_UP@|$(call rel_dir,$(PREFIX),$(CMAKEDIR))|g' \
  -e 's|@CM_LIBDIR@|$(call under,$(LIBDIR),$${_topomap_prefix})|g' \
  -e 's|@CM_INCLUDEDIR@|$(call under,$(INCLUDEDIR),$${_topomap_prefix})|g'
install-files: all man completion
	@rm -rf $(BUILD)/install && mkdir -p $(BUILD)/install
	$(PKG_SUBST) packaging/pkgconfig/topomap.pc.in > $(BUILD)/install/topomap.pc
	$(PKG_SUBST) packaging/cmake/topomapConfig.cmake.in > $(BUILD)/install/topomapConfig.cmake
	$(PKG_SUBST) packaging/cmake/topomapConfigVersion.cmake.in > $(BUILD)/install/topomapConfigVersion.cmake
	@for f in $(MPI_FLAVORS); do \
	  case $$f in openmpi) pc=ompi-c;; mpich) pc=mpich;; *) pc=mpi;; esac; \
	  if pkg-config --exists $$pc; then req=$$pc; cf=$$(pkg-config --cflags $$pc); lf=$$(pkg-config --libs $$pc); \
	  else echo "make: no pkg-config module $$pc: topomap-mpi-$$f.pc does not name the MPI (compile with the MPI wrapper)"; \
	    req=; cf=; lf=; fi; \
	  $(PKG_SUBST) -e "s|@FLAVOR@|$$f|g" -e "s|@MPI_PC@|$$req|g" -e "s|@MPI_CFLAGS@|$$cf|g" -e "s|@MPI_LIBS@|$$lf|g" \
	    packaging/pkgconfig/topomap-mpi.pc.in > $(BUILD)/install/topomap-mpi-$$f.pc && \
	  $(PKG_SUBST) -e "s|@FLAVOR@|$$f|g" -e "s|@MPI_CFLAGS@|$$cf|g" -e "s|@MPI_LIBS@|$$lf|g" \
	    packaging/cmake/topomap-mpi.cmake.in > $(BUILD)/install/topomap-mpi-$$f.cmake || exit 1; done

install: install-files
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/topomap \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 $(BUILD)/topomap $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(BUILD)/libtopomap.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(BUILD)/libtopomap.so $(DESTDIR)$(LIBDIR)/libtopomap.so.$(VERSION)
	ln -sf libtopomap.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtopomap.so
	$(INSTALL) -m 644 include/topomap/*.h $(DESTDIR)$(INCLUDEDIR)/topomap/
	$(INSTALL) -m 644 $(BUILD)/install/topomap.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 $(BUILD)/install/topomapConfig.cmake $(BUILD)/install/topomapConfigVersion.cmake \
	  $(DESTDIR)$(CMAKEDIR)/
	$(INSTALL) -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(BUILD)/topomap.bash $(DESTDIR)$(BASHCOMPDIR)/topomap
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/topomap/slurm
	$(INSTALL) -m 644 contrib/slurm/job_submit.lua contrib/slurm/topomap-hook.conf \
	  contrib/slurm/topomap-snapshot.cron $(DESTDIR)$(DATADIR)/topomap/slurm/
	@for f in $(MPI_FLAVORS); do \
	  echo "install topomap-mpi-$$f: $(DESTDIR)$(LIBDIR)/topomap-mpi-$$f/" && \
	  $(INSTALL) -d $(DESTDIR)$(LIBDIR)/topomap-mpi-$$f && \
	  $(INSTALL) -m 755 $(BUILD)/mpi-$$f/libtopomap_mpi.so $(if $(filter 1,$(MPI_SHIM)),$(BUILD)/mpi-$$f/libtopomap_pmpi.so) \
	    $(DESTDIR)$(LIBDIR)/topomap-mpi-$$f/ && \
	  $(INSTALL) -m 644 $(BUILD)/install/topomap-mpi-$$f.pc $(DESTDIR)$(PKGCONFIGDIR)/ && \
	  $(INSTALL) -m 644 $(BUILD)/install/topomap-mpi-$$f.cmake $(DESTDIR)$(CMAKEDIR)/ || exit 1; done

# Removes what `make install` with the same variables installed (the
# directories stay).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/topomap $(DESTDIR)$(LIBDIR)/libtopomap.a \
	  $(DESTDIR)$(LIBDIR)/libtopomap.so $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libtopomap.so.$(VERSION) \
	  $(DESTDIR)$(PKGCONFIGDIR)/topomap.pc $(DESTDIR)$(PKGCONFIGDIR)/topomap-mpi-*.pc \
	  $(DESTDIR)$(CMAKEDIR)/topomapConfig.cmake $(DESTDIR)$(CMAKEDIR)/topomapConfigVersion.cmake \
	  $(DESTDIR)$(CMAKEDIR)/topomap-mpi-*.cmake $(DESTDIR)$(MANDIR)/man1/topomap.1 \
	  $(DESTDIR)$(MANDIR)/man1/topomap-*.1 $(DESTDIR)$(BASHCOMPDIR)/topomap
	rm -rf $(DESTDIR)$(INCLUDEDIR)/topomap $(DESTDIR)$(LIBDIR)/topomap-mpi-* $(DESTDIR)$(DATADIR)/topomap
	-rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null

# The Debian packages (debian/): built from a copy of the tree in
# build/deb/src with dpkg-buildpackage, then unpacked with dpkg -x into a
# clean directory whose topomap --version must run (tools/deb.sh).
deb:
	tools/deb.sh

clean:
	rm -rf build build-asan build-tsan build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d) $(BENCH_BIN:=.d) \
         $(wildcard $(BUILD)/fuzz/*.d) $(wildcard $(BUILD)/mpi-*/obj/*/*.d) $(wildcard $(BUILD)/sim/obj/*/*.d)
