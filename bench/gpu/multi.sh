#!/bin/bash
# Several devices against one (opts.device = -1): dense LU and Cholesky of host arrays (upload and
# download timed) on device 0 alone, then split over every device of DEVICE; SpMV on one device, then
# with its rows split by nonzeros over all of them (x broadcast and y gathered through the host).
# For the two-H200 machine (nvidia-h200-x2); on one machine with PoCL:
#   POCL_DEVICES="pthread pthread" DEVICE=pthread SIZES=512 POISSON=gen:poisson3d:30 \
#     POWERLAW=gen:powerlaw:20000:16 bash bench/gpu/multi.sh
# Environment: SIZES (default 8192,16384), REPS (dense, default 3), SPMV_REPS (default 50),
# POISSON (default gen:poisson3d:100), POWERLAW (default gen:powerlaw:2000000:16), DEVICE, OUT.
# Log: $OUT/multi.log.
. "$(dirname "$0")/setup.sh"
SIZES=${SIZES:-8192,16384}
REPS=${REPS:-3}
SPMV_REPS=${SPMV_REPS:-50}
POISSON=${POISSON:-gen:poisson3d:100}
POWERLAW=${POWERLAW:-gen:powerlaw:2000000:16}
gpu_build build/lcl
for op in lu cholesky; do
    logged multi build/lcl bench dense --op "$op" --device "$DEVICE" --split --sizes "$SIZES" --reps "$REPS"
done
for p in double single; do
    for mf in "$POISSON csr" "$POISSON auto" "$POWERLAW auto"; do
        set -- $mf
        for split in "" --split; do
            logged multi build/lcl spmv "$1" --format "$2" --device "$DEVICE" --precision "$p" --reps "$SPMV_REPS" --json $split
        done
    done
done
