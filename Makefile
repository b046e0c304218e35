# topomap - build, test, demo, bench, install.
#
#   make            build build/libtopomap.{a,so} and build/topomap
#   make demo       evaluate the consecutive placement of a shipped job and write a rankfile
#   make test       unit + CLI tests, then the same under ASan/UBSan/LSan, then fuzz smoke runs
#   make bench      benchmarks (tools/bench/)
#   make install    PREFIX=/usr/local
#
# Dependencies (igraph, libxml2, cmocka via pkg-config; METIS via -lmetis)
# are installed by tools/install-deps.sh when missing.

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
SAN     ?=
OPT     ?= -O2 -g

DEPS_STAMP := $(BUILD)/.deps-ok
PKGS       := igraph libxml-2.0 cmocka
# Recursively expanded on purpose: evaluated after the deps step ran.
PKG_CFLAGS  = $(shell pkg-config --cflags igraph libxml-2.0)
PKG_LIBS    = $(shell pkg-config --libs igraph libxml-2.0) -lmetis -lpthread -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

ifeq ($(SAN),1)
  CC      := clang
  OPT     := -O1 -g -fno-omit-frame-pointer
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -fPIC $(SANFLAGS) -Iinclude $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps demo test test-unit test-cli test-asan bench install clean fuzz valgrind

all: $(BUILD)/libtopomap.a $(BUILD)/libtopomap.so $(BUILD)/topomap

$(DEPS_STAMP):
	@mkdir -p $(BUILD)
	@if ! pkg-config --exists $(PKGS) || [ ! -f /usr/include/metis.h ] || ! command -v clang >/dev/null; then \
	  tools/install-deps.sh; fi
	@touch $@

deps: $(DEPS_STAMP)

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libtopomap.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtopomap.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LDFLAGS_ALL) $(PKG_LIBS)

$(BUILD)/topomap: $(CLI_OBJ) $(BUILD)/libtopomap.a
	$(CC) -o $@ $(CLI_OBJ) $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/test_util.h $(BUILD)/libtopomap.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ $< $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS) $(CMOCKA_LIBS)

# ---- tests ------------------------------------------------------------------
SHARED ?= ../shared

test-unit: $(TEST_BIN)
	@tests/run-unit.sh $(BUILD) $(TEST_BIN)

test-cli: $(BUILD)/topomap
	@TOPOMAP=$(abspath $(BUILD)/topomap) SHARED=$(abspath $(SHARED)) tests/cli/run.sh

test-asan:
	$(MAKE) BUILD=build-asan SAN=1 test-unit test-cli

test: all
	$(MAKE) test-unit test-cli
	$(MAKE) test-asan
	@echo "make test: all suites passed"

# ---- demo, bench, install ---------------------------------------------------------
DEMO_TOPO := topologies/psmn-x5/X5.topofile
DEMO_MAP  := topologies/psmn-x5/X5.map
DEMO_COMM := topologies/comm/cg-64.size.csv
DEMO_JOB  := topologies/psmn-x5/job-64.hostfile
DEMO_ARGS := --topology $(DEMO_TOPO) --node-name-map $(DEMO_MAP) --slots 12 --comm $(DEMO_COMM)

# The main job: the consecutive (batch-system) placement of a 64-rank job on
# 16 nodes of a real InfiniBand fabric, written as an Open MPI rankfile and
# evaluated exactly.
demo: all
	$(BUILD)/topomap topo info --topology $(DEMO_TOPO) --node-name-map $(DEMO_MAP) --slots 12
	$(BUILD)/topomap map $(DEMO_ARGS) --alloc $(DEMO_JOB) --strategy identity --out $(BUILD)/demo.rankfile
	$(BUILD)/topomap eval $(DEMO_ARGS) --alloc $(DEMO_JOB) --mapping $(BUILD)/demo.rankfile
	@echo "demo: rankfile written to $(BUILD)/demo.rankfile"

BENCH_BIN := $(patsubst tools/bench/%.c,$(BUILD)/%,$(wildcard tools/bench/bench_*.c))

$(BUILD)/bench_%: tools/bench/bench_%.c $(BUILD)/libtopomap.a | $(DEPS_STAMP)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libtopomap.a $(LDFLAGS_ALL) $(PKG_LIBS)

bench: all $(BENCH_BIN)
	tools/bench/run.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/topomap
	install -m 755 $(BUILD)/topomap $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libtopomap.a $(BUILD)/libtopomap.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/topomap/*.h $(DESTDIR)$(PREFIX)/include/topomap/

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
