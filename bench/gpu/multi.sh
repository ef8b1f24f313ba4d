#!/bin/bash
# Several devices against one: dense LU and Cholesky of a device-resident matrix on device 0 alone,
# then split over every device of DEVICE (lcl_dmat_upload_split, factorization timed; RESIDENT=0:
# host arrays with opts.device = -1, upload and download timed); SpMV with its rows split
# by nonzeros and x and y resident per device (lcl_vec_create_like: only the halo of x crosses, through
# pinned host memory), against device 0 alone in the same run (`lcl spmv --split` prints both, the
# ratio and the halo's bytes per product), then again with LCL_HALO_SKIP=1 (the exchange skipped, the
# ghosts keeping the values of the same x): the difference is what the staging through the host costs.
# The defaults are issue 17's bar: >= 200M nonzeros (poisson3d:320 = 229M, powerlaw:14000000:16 =
# 224M; in double about 3 GB of matrix, far inside one H200).
# For the two-H200 machine (nvidia-h200-x2); on one machine with PoCL:
#   POCL_DEVICES="pthread pthread" DEVICE=pthread SIZES=512 POISSON=gen:poisson3d:30 \
#     POWERLAW=gen:powerlaw:20000:16 bash bench/gpu/multi.sh
# Environment: SIZES (default 16384,32768), RESIDENT (default 1), REPS (dense, default 3), SPMV_REPS (default 50),
# POISSON (default gen:poisson3d:320), POWERLAW (default gen:powerlaw:14000000:16), DENSE (0: SpMV
# only), SKIP (0: no LCL_HALO_SKIP runs), DEVICE, OUT. Log: $OUT/multi.log.
. "$(dirname "$0")/setup.sh"
SIZES=${SIZES:-16384,32768}
RESIDENT=${RESIDENT:-1}
REPS=${REPS:-3}
SPMV_REPS=${SPMV_REPS:-50}
POISSON=${POISSON:-gen:poisson3d:320}
POWERLAW=${POWERLAW:-gen:powerlaw:14000000:16}
DENSE=${DENSE:-1}
SKIP=${SKIP:-1}
gpu_build build/lcl
if [ "$DENSE" != 0 ]; then
    for op in lu cholesky; do
        logged multi build/lcl bench dense --op "$op" --device "$DEVICE" --split $([ "$RESIDENT" != 0 ] && echo --resident) \
            --sizes "$SIZES" --reps "$REPS"
    done
fi
for p in double single; do
    for mf in "$POISSON csr" "$POISSON auto" "$POWERLAW auto"; do
        set -- $mf
        logged multi build/lcl spmv "$1" --format "$2" --device "$DEVICE" --precision "$p" --reps "$SPMV_REPS" --split
        [ "$SKIP" != 0 ] && logged multi env LCL_HALO_SKIP=1 build/lcl spmv "$1" --format "$2" --device "$DEVICE" --precision "$p" \
            --reps "$SPMV_REPS" --split --json
    done
done
exit 0
