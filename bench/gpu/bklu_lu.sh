#!/bin/bash
# The block LU's pivot-LU options against the default, in one call (nvidia-h200-x2: one and two
# GPUs, the reference in the same run): lu_probe on one block (each kernel in one launch and panel
# by panel, with and without the warp butterflies), the GPU tests, then bklu_quick's refactor times
# (1 and 2 GPUs) with each option off. Since 2026-11-27 (sixth session) the default on NVIDIA is all
# three on: LCL_BKLU_LU_SPLIT=256, BK_SHFL=1, BK_TRI_PF=1 (BENCHMARKS.md, "the pivot LU").
#   bash bench/gpu/bklu_lu.sh     MS (default 256,512), REPS (default 3), RUNS (default cl1,cl2),
#                                 PROBE=0 (skip the probe and the tests), BKLU_DEVICE (bklu_quick's),
#                                 ONLY (which variants, e.g. "1 2 3")
. "$(dirname "$0")/setup.sh"
gpu_build build/lcl build/run_tests
CC=${CC:-gcc}
$CC -std=c99 -O1 bench/gpu/lu_probe.c -lOpenCL -o build/lu_probe || exit 1
$CC -O3 -march=native -fopenmp -std=c99 -I. -I"$STB_INCLUDE" -o build/bklu_quick bench/gpu/bklu_quick.c tools/lcl_gen.c -lm -ldl || exit 1
q() { logged quick env "$@" BKLU_NOSOLVE_ABOVE=300 build/bklu_quick gen:circuit:1000 "${MS:-256,512}" "${REPS:-3}" "${RUNS:-cl1,cl2}"; }
if [ "${PROBE:-1}" = 1 ]; then
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
    logged probe env LAUNCH=1 SPLIT=1 build/lu_probe kernels/bklu.cl "-DBK_LU_UNROLL=1" "-DBK_LU_UNROLL=1 -DBK_SHFL=1 -DLCL_NV_CC=${cc:-90}"
    logged tests env LCL_DEVICE=gpu LT_NO_SWEEP=${LT_NO_SWEEP:-1} LT_FILTER=bklu_opencl build/run_tests   # the fault sweeps: minutes more
fi
# ONLY="1 2 3": run only those of the seven variants below (to split the call in two)
n=0
v() { n=$((n + 1)); case " ${ONLY:-1 2 3 4 5 6 7} " in *" $n "*) q "$@" ;; esac; }
v BKLU_DEFAULT=1   # the default (the variable only labels the run)
v LCL_BKLU_LU_SPLIT=0
v LCL_BUILD_OPTIONS=-DBK_SHFL=0
v LCL_BUILD_OPTIONS=-DBK_TRI_PF=0
v LCL_BKLU_LU_SPLIT=0 "LCL_BUILD_OPTIONS=-DBK_SHFL=0 -DBK_TRI_PF=0"   # the default before 2026-11-27
v BKLU_DEFAULT=1   # the default again: the drift over the call
v LCL_BKLU_EAGER=1   # later columns' ready U steps with earlier levels (BENCHMARKS.md, "the levels, not the matrix")
