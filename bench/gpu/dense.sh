#!/bin/bash
# Dense LU and Cholesky on one OpenCL device (matrix kept on the device, factorization only, median
# of REPS after a warm-up, each run checked by a solve), then cuSOLVER through CuPy in the same command.
#   bash bench/gpu/dense.sh
# Environment: SIZES (default 4096,8192,16384), OPS (default "lu cholesky"), PRECISIONS (default
# "double single"), REPS (default 5), DEVICE, REF, OUT (bench/gpu/setup.sh). The library's own
# variables pass through, e.g. LCL_DENSE_NB=896 (panel width) or LCL_UPD_GROUPS=116 (the cap on the
# trailing update's work-groups). Log: $OUT/dense.log.
. "$(dirname "$0")/setup.sh"
SIZES=${SIZES:-4096,8192,16384}
OPS=${OPS:-lu cholesky}
PRECISIONS=${PRECISIONS:-double single}
REPS=${REPS:-5}
gpu_build build/lcl
for p in $PRECISIONS; do
    for op in $OPS; do
        logged dense build/lcl bench dense --backend opencl --device "$DEVICE" --op "$op" --sizes "$SIZES" --reps "$REPS" --precision "$p"
    done
done
anchors dense
