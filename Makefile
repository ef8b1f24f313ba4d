# linalg_cl -- build, test, demo.   make | make test | make demo | make kernels | make bench | make bench-klu | make deps
CC       ?= cc
CXX      ?= c++
OPT      ?= -O2 -march=native
WARN     := -Wall -Wextra -pedantic
# stb_ds.h: Debian's libstb-dev puts it in /usr/include/stb; elsewhere set STB_INCLUDE.
STB_INCLUDE ?= /usr/include/stb
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS := -std=c99 $(WARN) $(CFLAGS) -fopenmp -I. -I$(STB_INCLUDE)
LDLIBS   := -ldl -lpthread -lm
B        := build
SHARED   ?= ../shared
DEBS     := opencl-headers ocl-icd-opencl-dev pocl-opencl-icd libstb-dev
# the tests also build with clang and clang's OpenMP; check-install needs cmake and pkg-config
TEST_DEBS := clang libomp-dev cmake pkg-config

KERNELS  := $(sort $(wildcard kernels/*.cl))
HDRS     := linalg_cl.h kernels_embedded.h
GEN      := tools/lcl_gen.c tools/lcl_gen.h
LCL_SRC  := $(sort $(wildcard tools/lcl/*.c))
LCL_DEPS := $(LCL_SRC) tools/lcl/lcl.h tools/lcl_tool.h
TESTSRC  := $(sort $(wildcard tests/test_*.c))
# mpi_cg needs MPI: built by check-mpi only
EXAMPLES := $(patsubst examples/%.c,$(B)/%,$(filter-out examples/mpi_cg.c,$(wildcard examples/*.c)))

.PHONY: all deps deps-test deps-mpi check-mpi test asan-runner check-asan check-asan-cpu check-asan-opencl check-tsan check-valgrind demo kernels check-kernels bench clean compile-matrix

all: $(B)/lcl $(B)/run_tests $(B)/embed_kernels $(EXAMPLES)

$(B):
	@mkdir -p $(B)

$(B)/embed_kernels: tools/embed_kernels.c | $(B)
	$(CC) -std=c99 $(WARN) -O2 -o $@ $<

# The committed header is regenerated only on request; check-kernels tells when it is stale.
kernels: $(B)/embed_kernels
	LC_ALL=C $(B)/embed_kernels kernels_embedded.h $(KERNELS)

# and each kernel file compiles alone, with no -D options, in both precisions (clang's OpenCL C
# front end, when clang is there): every tunable has its #ifndef default. Where clang has the
# NVPTX target, also as NVIDIA's compiler sees them (__NV_CL_C_VERSION: the tensor-core kernels,
# their PTX asm parsed, not assembled), which PoCL never compiles; and for older GPUs (LCL_NV_CC
# below 80 / 70) the PTX they get must not use what those lack (FP64 MMA, L2 cache hints; release
# and acquire), or NVIDIA's build of the whole file would fail there.
NV_CHECK := -target nvptx64-nvidia-nvcl -D__NV_CL_C_VERSION=120 -Dasm=__asm__
NV_OLD := mma\.|createpolicy|cache_hint|red\.release|ld\.acquire
check-kernels: $(B)/embed_kernels
	@LC_ALL=C $(B)/embed_kernels $(B)/kernels_embedded.h $(KERNELS)
	@cmp -s $(B)/kernels_embedded.h kernels_embedded.h || { echo "kernels_embedded.h is stale: run 'make kernels' and commit it"; exit 1; }
	@if command -v clang >/dev/null 2>&1; then for f in $(KERNELS); do for p in 0 1; do for s in CL1.2 CL2.0; do \
	  clang -x cl -cl-std=$$s -Xclang -finclude-default-header -fsyntax-only -DLCL_FP64=$$p $$f || \
	  { echo "$$f does not compile alone (LCL_FP64=$$p, $$s: NVIDIA reserves 2.0's words, e.g. pipe)"; exit 1; }; done; done; done; \
	  clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only -DLCL_FP64=1 -DTC_EMU=1 -DTC_STAGES=3 kernels/dense.cl || \
	  { echo "kernels/dense.cl: the tensor-core kernels' emulation (TC_EMU) does not compile"; exit 1; }; \
	  if echo 'kernel void k(void) {}' | clang -x cl -cl-std=CL1.2 -fsyntax-only $(NV_CHECK) - 2>/dev/null; then \
	    for f in $(KERNELS); do for p in 0 1; do for v in "" -DTC_ASM_VOLATILE -DTC_STAGES=0 "-DTC_STAGES=3 -DTC_PIPE=7"; do \
	      clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only $(NV_CHECK) $$v -DLCL_FP64=$$p $$f || \
	      { echo "$$f does not compile for NVIDIA (LCL_FP64=$$p $$v)"; exit 1; }; done; done; done; \
	    for f in $(KERNELS); do for cc in 60 75; do \
	      pat='mma\.|createpolicy|cache_hint'; [ $$cc -ge 70 ] || pat='$(NV_OLD)'; \
	      if clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -S -O1 -w -o - $(NV_CHECK) -DLCL_NV_CC=$$cc -DSPMV_HINT=1 $$f | \
	        grep -Eq "$$pat"; then echo "$$f: PTX for compute capability $$cc uses what it lacks"; exit 1; fi; done; done; \
	  else echo "check-kernels: clang has no NVPTX target, NVIDIA's kernels not checked"; fi; fi

$(B)/lcl: $(LCL_DEPS) $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $(LCL_SRC) tools/lcl_gen.c $(LDLIBS)

$(B)/run_tests: tests/run_tests.c tests/lt.h $(TESTSRC) $(GEN) $(LCL_DEPS) $(HDRS) | $(B)
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

# every CPU benchmark, references included (the GPU ones run on the GPU machine: BENCHMARKS.md)
bench: deps
	@$(MAKE) --no-print-directory install-debs PKGS="liblapacke-dev libopenblas-dev"
	@$(MAKE) --no-print-directory $(B)/lcl $(B)/bench_mmio
	$(B)/bench_mmio
	@$(MAKE) --no-print-directory bench-spmv
	@$(MAKE) --no-print-directory bench-dense
	@$(MAKE) --no-print-directory bench-klu

# OpenCL SpMV kernels on one device (the GPU machine: BENCHMARKS.md); see the file's head for options
$(B)/bench_spmv_cl: tools/bench_spmv_cl.c $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -O3 -o $@ tools/bench_spmv_cl.c tools/lcl_gen.c $(LDLIBS)

# the OpenCL GEMM kernels alone (tensor-core and portable), for tuning on a GPU
$(B)/bench_gemm_cl: tools/bench_gemm_cl.c $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ tools/bench_gemm_cl.c $(LDLIBS)
$(B)/trace_dense: tools/trace_dense.c $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ tools/trace_dense.c tools/lcl_gen.c $(LDLIBS)

$(B)/bench_mmio: tools/bench_mmio.c $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -O3 -o $@ tools/bench_mmio.c tools/lcl_gen.c $(LDLIBS)

# CSR SpMV (OpenMP, 2 threads) against a 2-thread copy loop in the same process, double and single,
# and what format auto chooses. BENCH_SPMV_ARGS="--runs 50 poisson3d:120"
.PHONY: bench-spmv
bench-spmv: $(B)/bench_spmv
	OMP_NUM_THREADS=2 $(B)/bench_spmv $(BENCH_SPMV_ARGS)

$(B)/bench_spmv: tools/bench_spmv.c $(GEN) linalg_cl.h | $(B)
	$(CC) $(ALL_CFLAGS) -O3 -o $@ tools/bench_spmv.c tools/lcl_gen.c $(LDLIBS)

# dense LU/Cholesky (OpenMP, 2 threads) against OpenBLAS LAPACKE in the same process; needs
# liblapacke-dev libopenblas-dev. BENCH_DENSE_ARGS="--sizes 1024,2048,4096 --runs 5"
.PHONY: bench-dense
bench-dense: $(B)/bench_dense
	OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2 $(B)/bench_dense $(BENCH_DENSE_ARGS)

$(B)/bench_dense: tools/bench_dense.c linalg_cl.h | $(B)
	$(CC) -std=c99 $(WARN) -O3 -march=native -fopenmp -I. -o $@ tools/bench_dense.c -llapacke -lopenblas $(LDLIBS)

# sparse LU against SuiteSparse KLU in the same process: build/lcl-bench is lcl with -DLCL_BENCH_KLU,
# the only build that links SuiteSparse (the library never does; plain build/lcl runs bench klu
# with our columns only). Needs libsuitesparse-dev. BENCH_KLU_ARGS="--reps 9 gen:circuit:1000000"
SUITESPARSE_INCLUDE ?= /usr/include/suitesparse
KLU_LIBS := -lklu -lamd -lcolamd -lbtf -lsuitesparseconfig
.PHONY: bench-klu
bench-klu: deps
	@$(MAKE) --no-print-directory install-debs PKGS="libsuitesparse-dev"
	@$(MAKE) --no-print-directory $(B)/lcl-bench
	$(B)/lcl-bench bench klu $(BENCH_KLU_ARGS)

$(B)/lcl-bench: $(LCL_DEPS) $(GEN) $(HDRS) | $(B)
	$(CC) $(ALL_CFLAGS) -DLCL_BENCH_KLU -I$(SUITESPARSE_INCLUDE) -o $@ $(LCL_SRC) tools/lcl_gen.c $(KLU_LIBS) $(LDLIBS)

# the dense suite with each micro-kernel: plain C (LCL_DENSE_PORTABLE), AVX2 vectors, this CPU's
# vectors (the default build is the 16-byte-vector one)
.PHONY: check-dense-variants
check-dense-variants: | $(B)
	@for v in "-DLCL_DENSE_PORTABLE" "-mavx2 -mfma" "-march=native"; do \
	  echo "dense suite with $$v"; \
	  $(CC) $(ALL_CFLAGS) $$v -o $(B)/run_tests_variant tests/run_tests.c $(TESTSRC) tools/lcl_gen.c $(LDLIBS) && \
	  LT_FILTER=test_dense LCL_SHARED=$(SHARED) $(B)/run_tests_variant > $(B)/run_tests_variant.log 2>&1; \
	  tail -1 $(B)/run_tests_variant.log; grep -q ' 0 failed' $(B)/run_tests_variant.log || { tail -30 $(B)/run_tests_variant.log; exit 1; }; \
	done; echo "dense variants: ok"

# ---- over MPI (issue 17): tests/mpi/test_mpi.c (the LINALG_CL_MPI section) on 2 and 3 ranks, then
# examples/mpi_cg.c on 2 ranks (serial, OpenMP, then OpenCL with two PoCL devices, rank r on
# device r) and on 3 (uneven parts, a rank with two neighbours); each CG run must PASS (the same
# solve as one process). Without mpicc or mpirun it says so and succeeds: the
# library never needs MPI (make deps-mpi installs Debian's OpenMPI). In containers OpenMPI's
# shared-memory transport cannot always use single-copy (ptrace), hence the MCA setting.
MPICC    ?= mpicc
MPIRUN   ?= mpirun
MPI_DEBS := libopenmpi-dev openmpi-bin
MPI_ENV  := OMPI_MCA_btl_vader_single_copy_mechanism=none OMP_NUM_THREADS=1
deps-mpi:
	@$(MAKE) --no-print-directory install-debs PKGS="$(MPI_DEBS)"

$(B)/mpi_cg: examples/mpi_cg.c $(HDRS) | $(B)
	OMPI_CC=$(CC) $(MPICC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

$(B)/test_mpi: tests/mpi/test_mpi.c $(HDRS) | $(B)
	OMPI_CC=$(CC) $(MPICC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

check-mpi:
	@if ! command -v $(MPICC) >/dev/null 2>&1 || ! command -v $(MPIRUN) >/dev/null 2>&1; then \
	  echo "check-mpi: SKIPPED: $(MPICC) or $(MPIRUN) not found (Debian's OpenMPI: make deps-mpi, or apt-get install $(MPI_DEBS))"; exit 0; fi; \
	$(MAKE) --no-print-directory $(B)/test_mpi $(B)/mpi_cg || exit 1; \
	run="$(MPIRUN) --oversubscribe $$( [ "$$(id -u)" = 0 ] && echo --allow-run-as-root )"; \
	for c in "-np 2 $(B)/test_mpi" "-np 3 $(B)/test_mpi" "-np 2 $(B)/mpi_cg --backend serial" \
	         "-np 2 $(B)/mpi_cg --backend openmp" "-np 3 $(B)/mpi_cg --backend serial --grid 17" \
	         "-np 2 -x POCL_DEVICES $(B)/mpi_cg --backend opencl"; do \
	  echo "mpirun $$c"; \
	  env $(MPI_ENV) POCL_DEVICES="pthread pthread" timeout 300 $$run $$c; rc=$$?; \
	  if [ $$rc = 3 ]; then echo "check-mpi: this backend is unavailable here: skipped"; \
	  elif [ $$rc != 0 ]; then echo "check-mpi: FAILED: mpirun $$c (exit $$rc)"; exit 1; fi; \
	done; echo "check-mpi: ok"

# ---- sanitizers and valgrind (issue 3). Each builds its own runner under build/<kind>/.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer
# The tool's and the examples' tests are left out: they run build/lcl and the examples, which
# are not built with the sanitizers, so under ASan they only repeated make test's runs (48 s of
# CI); the tool's parser runs under ASan in fuzz_args
# The runner is a file target, one a compiler (build/asan-clang/, build/asan-gcc/): CI builds it
# beside make test's runs, where a core is partly idle, and check-asan then only runs it
ASAN_RUNNER := $(B)/asan-$(notdir $(firstword $(CC)))/run_tests
$(ASAN_RUNNER): tests/run_tests.c tests/lt.h $(TESTSRC) $(GEN) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/run_tests.c $(TESTSRC) tools/lcl_gen.c $(LDLIBS)
asan-runner: $(ASAN_RUNNER)
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1 LT_SKIP_COMPILE_MATRIX=1 LT_SMALL=1 LCL_SHARED=$(SHARED)
# check-asan runs them all; CI runs it in two halves (each test in one): the tests named for an
# OpenCL device (two thirds of the time) beside valgrind, the others beside make test
ASAN_CL := opencl,_cl_,program,two_pocl,contexts
check-asan: deps-test
	@$(MAKE) --no-print-directory $(ASAN_RUNNER)
	$(ASAN_ENV) LT_SKIP=test_tool,test_example $(ASAN_RUNNER)
check-asan-cpu: deps-test
	@$(MAKE) --no-print-directory $(ASAN_RUNNER)
	$(ASAN_ENV) LT_SKIP=test_tool,test_example,$(ASAN_CL) $(ASAN_RUNNER)
check-asan-opencl: deps-test
	@$(MAKE) --no-print-directory $(ASAN_RUNNER)
	$(ASAN_ENV) LT_FILTER=$(ASAN_CL) LT_SKIP=test_tool,test_example $(ASAN_RUNNER)

# one OpenMP build for both runs: contexts of every backend (OpenMP's team included) in threads at
# once, then the block LU's host thread per device, exchanging columns; LLVM's OpenMP runtime is
# not instrumented (ignore_noninstrumented_modules, tests/tsan.supp)
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:ignore_noninstrumented_modules=1:suppressions=$(CURDIR)/tests/tsan.supp LCL_SHARED=$(SHARED)
check-tsan: deps-test
	@mkdir -p $(B)/tsan
	clang -std=c99 $(WARN) -I. -I$(STB_INCLUDE) $(SAN_FLAGS) -fsanitize=thread -fopenmp \
	  -o $(B)/tsan/run_tests_omp tests/run_tests.c $(TESTSRC) tools/lcl_gen.c $(LDLIBS)
	$(TSAN_ENV) LT_FILTER=test_threads $(B)/tsan/run_tests_omp
	$(TSAN_ENV) LT_FILTER=test_bklu_opencl_shared LT_NO_SWEEP=1 $(B)/tsan/run_tests_omp

# memcheck on the CPU paths: the OpenCL loader is hidden so every OpenCL test skips; the
# largest dense and sparse sweeps are left to ASan (under valgrind they would take most of CI's time),
# LT_SMALL=1 runs the KLU OpenMP test's circuit:20000 once (4 minutes in every thread count and precision)
# and LT_VALGRIND=1 not at all, with three other sweeps trimmed (tests/lt.h): ASan runs them whole.
# The tool's tests are left out: the tool runs outside valgrind, and CI runs this beside check-asan,
# whose tool tests write the same files
$(B)/vg/run_tests: tests/run_tests.c tests/lt.h $(TESTSRC) $(GEN) $(HDRS)
	@mkdir -p $(dir $@)
	gcc -std=c99 $(WARN) -O1 -gdwarf-4 -fopenmp -I. -I$(STB_INCLUDE) -o $@ tests/run_tests.c $(TESTSRC) tools/lcl_gen.c $(LDLIBS)
check-valgrind: deps-test
	@$(MAKE) --no-print-directory $(B)/lcl $(B)/vg/run_tests
	LCL_OPENCL_LIBRARY=/nonexistent LT_SKIP_COMPILE_MATRIX=1 LT_SMALL=1 LT_VALGRIND=1 LCL_SHARED=$(SHARED) \
	  LT_SKIP=test_tool,test_dense_shared_spd,test_dense_lu_all,test_dense_chol_all,test_dense_lu_blocks,test_dense_chol_blocks,test_sparse_heavy,test_sparse_generated,test_sparse_shared,test_fault_alloc_sparse,test_spmv_cpu_prefetch_choice,test_klu_circuit,test_klu_analyze_circuit,test_bklu_large,test_bklu_openmp \
	  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --suppressions=$(CURDIR)/tests/valgrind.supp $(B)/vg/run_tests

# ---- fuzzing with libFuzzer (clang only): harnesses, seeds and results in tests/fuzz/README.md
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_CFLAGS := -std=c99 $(WARN) -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
               -fno-sanitize-recover=all -I. -I$(STB_INCLUDE)
FUZZ_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_OPTS_mm     := -max_len=4096 -dict=tests/fuzz/mm.dict
FUZZ_OPTS_sparse := -max_len=2048
FUZZ_OPTS_args   := -max_len=1024 -dict=tests/fuzz/args.dict
# one campaign: new inputs go to build/fuzz-corpus/NAME (the committed seeds are only read),
# a crashing input to build/fuzz-artifacts/NAME-*; libFuzzer exits non-zero on any finding
FUZZ_RUN = $(FUZZ_ENV) $(B)/fuzz_$(1) $(FUZZ_OPTS_$(1)) -max_total_time=$(FUZZ_TIME) -timeout=25 -print_final_stats=1 \
           -artifact_prefix=$(B)/fuzz-artifacts/$(1)- $(B)/fuzz-corpus/$(1) tests/fuzz/corpus/$(1)

.PHONY: fuzz fuzz-run fuzz-smoke
fuzz: $(B)/fuzz_mm $(B)/fuzz_sparse $(B)/fuzz_args

# the implementation once for both harnesses that take it from tests/fuzz/impl.c
$(B)/fuzz_impl.o: tests/fuzz/impl.c tests/fuzz/fuzz.h linalg_cl.h | $(B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ tests/fuzz/impl.c

$(B)/fuzz_mm: tests/fuzz/fuzz_mm.c $(B)/fuzz_impl.o tests/fuzz/fuzz.h linalg_cl.h | $(B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_mm.c $(B)/fuzz_impl.o -lm

$(B)/fuzz_sparse: tests/fuzz/fuzz_sparse.c $(B)/fuzz_impl.o tests/fuzz/fuzz.h linalg_cl.h | $(B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_sparse.c $(B)/fuzz_impl.o -lm

# the tool needs the OpenCL backend compiled in (lcl_dmat_*); parsing never reaches it
$(B)/fuzz_args: tests/fuzz/fuzz_args.c $(LCL_DEPS) $(GEN) $(HDRS) | $(B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DLCL_TOOL_NO_MAIN -o $@ tests/fuzz/fuzz_args.c $(LCL_SRC) tools/lcl_gen.c $(LDLIBS)

# each harness for FUZZ_TIME seconds (make fuzz-run FUZZ_TIME=600): one after another, or two at
# a time with make -j2; fuzz-run-mm, fuzz-run-sparse, fuzz-run-args run one
fuzz-run: fuzz-run-mm fuzz-run-sparse fuzz-run-args
fuzz-run-%: fuzz
	@mkdir -p $(B)/fuzz-corpus/$* $(B)/fuzz-artifacts
	$(call FUZZ_RUN,$*)

# CI-sized: every committed seed once through each harness, no mutation (seconds)
fuzz-smoke: fuzz
	$(FUZZ_ENV) $(B)/fuzz_mm tests/fuzz/corpus/mm/*
	$(FUZZ_ENV) $(B)/fuzz_sparse tests/fuzz/corpus/sparse/*
	$(FUZZ_ENV) $(B)/fuzz_args tests/fuzz/corpus/args/*

# ---- install: headers to PREFIX/include, the tool to PREFIX/bin, pkg-config and CMake package
# files to PREFIX/lib (the layout of CMakeLists.txt's install rules). make install PREFIX=... DESTDIR=...
PREFIX ?= /usr/local
LCL_VERSION  = $(shell awk '/^.define LCL_VERSION_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $$3} END{print v}' linalg_cl.h)
LCL_CMAKEDIR := lib/cmake/linalg_cl
LCL_CMAKE_FILES := cmake/linalg_clConfig.cmake cmake/linalg_clConfigVersion.cmake cmake/linalg_clHelpers.cmake
.PHONY: install uninstall check-install
install: $(B)/lcl
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/$(LCL_CMAKEDIR)
	install -m 644 $(HDRS) $(DESTDIR)$(PREFIX)/include
	install -m 755 $(B)/lcl $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LCL_CMAKE_FILES) $(DESTDIR)$(PREFIX)/$(LCL_CMAKEDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(LCL_VERSION)|g' linalg_cl.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/linalg_cl.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/linalg_cl.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/,$(HDRS)) $(DESTDIR)$(PREFIX)/bin/lcl \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/linalg_cl.pc $(addprefix $(DESTDIR)$(PREFIX)/$(LCL_CMAKEDIR)/,$(notdir $(LCL_CMAKE_FILES)))
	rmdir $(DESTDIR)$(PREFIX)/$(LCL_CMAKEDIR) 2>/dev/null || true

# a consumer project built through add_subdirectory, FetchContent, pkg-config and find_package
check-install:
	CC="$(CC)" MAKE="$(MAKE)" sh tests/consumer/check.sh

clean:
	rm -rf $(B)
