# linalg_cl -- build, test, demo.   make | make test | make demo | make kernels | make bench | make deps
CC       ?= cc
CXX      ?= c++
OPT      ?= -O2
WARN     := -Wall -Wextra -pedantic
# stb_ds.h: Debian's libstb-dev puts it in /usr/include/stb; elsewhere set STB_INCLUDE.
STB_INCLUDE ?= /usr/include/stb
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS := -std=c99 $(WARN) $(CFLAGS) -fopenmp -I. -I$(STB_INCLUDE)
LDLIBS   := -ldl -lpthread -lm
B        := build
SHARED   ?= ../shared
DEBS     := opencl-headers ocl-icd-opencl-dev pocl-opencl-icd libstb-dev
# the tests also build with clang and clang's OpenMP
TEST_DEBS := clang libomp-dev

KERNELS  := $(sort $(wildcard kernels/*.cl))
HDRS     := linalg_cl.h kernels_embedded.h
GEN      := tools/lcl_gen.c tools/lcl_gen.h
TESTSRC  := $(sort $(wildcard tests/test_*.c))
EXAMPLES := $(patsubst examples/%.c,$(B)/%,$(wildcard examples/*.c))

.PHONY: all deps deps-test test demo kernels check-kernels bench clean compile-matrix

all: $(B)/lcl $(B)/run_tests $(B)/embed_kernels $(EXAMPLES)

$(B):
	@mkdir -p $(B)

$(B)/embed_kernels: tools/embed_kernels.c | $(B)
	$(CC) -std=c99 $(WARN) -O2 -o $@ $<

# The committed header is regenerated only on request; check-kernels tells when it is stale.
kernels: $(B)/embed_kernels
	LC_ALL=C $(B)/embed_kernels kernels_embedded.h $(KERNELS)

check-kernels: $(B)/embed_kernels
	@LC_ALL=C $(B)/embed_kernels $(B)/kernels_embedded.h $(KERNELS)
	@cmp -s $(B)/kernels_embedded.h kernels_embedded.h || { echo "kernels_embedded.h is stale: run 'make kernels' and commit it"; exit 1; }

$(B)/lcl: tools/lcl.c tools/lcl_tool.h $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ tools/lcl.c tools/lcl_gen.c $(LDLIBS)

$(B)/run_tests: tests/run_tests.c tests/lt.h $(TESTSRC) $(GEN) tools/lcl.c $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ tests/run_tests.c $(TESTSRC) tools/lcl_gen.c $(LDLIBS)

$(B)/%: examples/%.c $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

# Installs only what is missing; sudo when not root. Nothing to do on a prepared machine.
deps:
	@$(MAKE) --no-print-directory install-debs PKGS="$(DEBS)"

deps-test:
	@$(MAKE) --no-print-directory install-debs PKGS="$(DEBS) $(TEST_DEBS)"

install-debs:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

test: deps-test
	@$(MAKE) --no-print-directory check-kernels all
	LCL_SHARED=$(SHARED) CC=$(CC) $(B)/run_tests

compile-matrix:
	sh tests/compile_matrix.sh

demo: deps
	@$(MAKE) --no-print-directory $(B)/lcl
	$(B)/lcl demo

bench: deps
	@$(MAKE) --no-print-directory $(B)/lcl $(B)/bench_mmio
	$(B)/bench_mmio

$(B)/bench_mmio: tools/bench_mmio.c $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -O3 -o $@ tools/bench_mmio.c tools/lcl_gen.c $(LDLIBS)

clean:
	rm -rf $(B)
