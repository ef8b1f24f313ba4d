#!/bin/bash
# SpMV on one OpenCL device (matrix and vectors on the device, median of REPS products each timed
# with lcl_finish, each checked against the tool's serial CSR product), every format; the CSR
# kernels one by one on the power-law matrix; then cuSPARSE CSR through CuPy in the same command
# (gpu_anchors.py builds SciPy's Poisson 160^3, identical to gen:poisson3d:160, and a power-law
# matrix of 4M rows by the same recipe as gen:powerlaw:4000000:16 with its own random numbers).
#   bash bench/gpu/spmv.sh
# Environment: POISSON (default gen:poisson3d:160), POWERLAW (default gen:powerlaw:4000000:16),
# FORMATS (default csr,ell,sell,hyb,dia,coo), PRECISIONS (default "double single"), REPS (default
# 30), DEVICE, REF, OUT. Log: $OUT/spmv.log.
. "$(dirname "$0")/setup.sh"
POISSON=${POISSON:-gen:poisson3d:160}
POWERLAW=${POWERLAW:-gen:powerlaw:4000000:16}
FORMATS=${FORMATS:-csr,ell,sell,hyb,dia,coo}
PRECISIONS=${PRECISIONS:-double single}
REPS=${REPS:-30}
gpu_build build/lcl build/bench_spmv_cl
export LCL_DEVICE=$DEVICE
for p in $PRECISIONS; do
    logged spmv build/lcl bench spmv "$POISSON" "$POWERLAW" --formats "$FORMATS" --backends opencl --reps "$REPS" --precision "$p"
    for k in scalar vector merge; do
        logged spmv build/lcl spmv "$POWERLAW" --format csr --kernel "$k" --precision "$p" --json
    done
done
# one row per work-item against 8 lanes a row on the stencil (why the vector kernel waits for 16 a row)
logged spmv build/bench_spmv_cl "$POISSON" --device "$DEVICE" --kernels csr-scalar,csr-vector
anchors spmv
