#!/bin/bash
# xparts.sh: the power-law SpMV with x in column parts (LCL_SPMV_XPART_KB) against the same product
# without them and cuSPARSE, one call; then the SpMV tests on the GPU with parts forced everywhere.
#   bash bench/gpu/xparts.sh        (from the repository root, after bash bench/gpu/prepare.sh here)
# MATRIX (default gen:powerlaw:4000000:16), REPS (30); OUT, DEVICE as in setup.sh.
source bench/gpu/setup.sh
gpu_build build/bench_spmv_cl build/run_tests
MATRIX=${MATRIX:-gen:powerlaw:4000000:16}
REPS=${REPS:-30}
nvidia-smi --query-gpu=name,driver_version --format=csv
V="LCL_SPMV_XPART_KB=0;LCL_SPMV_XPART_KB=16384;LCL_SPMV_XPART_KB=0;LCL_SPMV_XPART_KB=12000;LCL_SPMV_XPART_KB=8192"
logged xparts build/bench_spmv_cl "$MATRIX" --device "$DEVICE" --kernels csr-auto --reps "$REPS" --variants "$V"
logged xparts build/bench_spmv_cl "$MATRIX" --f32 --device "$DEVICE" --kernels csr-auto --reps "$REPS" --variants "LCL_SPMV_XPART_KB=8192;LCL_SPMV_XPART_KB=0"
[ "$REF" = 1 ] && logged xparts python3 bench/gpu/cusparse.py
LT_FILTER=spmv_opencl logged xparts timeout 300 build/run_tests
LCL_SPMV_XPART_KB=1 LT_FILTER=spmv_opencl logged xparts timeout 300 build/run_tests
