#!/bin/bash
# Where the block LU's refactor spends its device time, one GPU and two, in one call: build/trace_dense
# bklu on BASE (default gen:circuit:1000) at each M of MS (default 256,512) with DEVS (default "1 2")
# devices, each under every setting of VARIANTS (several devices; default: the defaults, then the
# eager GEMMs on every unit, then leaving 36 free, then the eager rounds on the level's queue, then
# no eager U steps; "X=1" is the defaults) or VARIANTS1 (one device; default: the defaults, the
# eager GEMMs leaving 19 units free, no eager U steps): per
# device each level's phases (values in, U steps, pivot LU, inverses, L) from markers on its
# queue, the idle gap before each level, every kernel and transfer summed; the untraced refactors'
# times first. TRACE_EVENTS=FILE (optional) keeps every command for bench/gpu/timeline.py.
# A variant may set several variables, comma-separated. SOLVE=1: then each variant's residual on
# every device of DEVICE (lcl solve --method bklu, gen:circuit:1000, M = 64, refactor 2; "gpu" is
# every GPU: on the GPU machine PoCL's CPU device is device 0, so "0,1" is the CPU and one GPU).
# Log: $OUT/bklu_trace.log.
#   bash bench/gpu/bklu_trace.sh
#   MS=256 DEVS=2 VARIANTS="X=1 LCL_BKLU_HOST_THREADS=1" bash bench/gpu/bklu_trace.sh
#   SOLVE=1 VARIANTS="X=1 LCL_BKLU_LR_NB=32,LCL_BKLU_SWAP_REG=1" VARIANTS1="$VARIANTS" bash bench/gpu/bklu_trace.sh
. "$(dirname "$0")/setup.sh"
gpu_build build/trace_dense
export LCL_CACHE_DIR=${LCL_CACHE_DIR:-/tmp/lc}
MS=${MS:-256,512}
VARIANTS=${VARIANTS:-X=1 LCL_BKLU_EAGER_FREE=0 LCL_BKLU_EAGER_FREE=36 LCL_BKLU_EAGER_QUEUE=0 LCL_BKLU_EAGER=0}
VARIANTS1=${VARIANTS1:-X=1 LCL_BKLU_EAGER_FREE=19 LCL_BKLU_EAGER=0}
for m in ${MS//,/ }; do
    for nd in ${DEVS:-1 2}; do
        vs=$VARIANTS
        [ "$nd" = 1 ] && vs=$VARIANTS1
        for v in $vs; do
            logged bklu_trace env ${v//,/ } build/trace_dense bklu "$DEVICE" "${BASE:-gen:circuit:1000}" "$m" "$nd"
        done
    done
done
if [ "${SOLVE:-0}" = 1 ]; then
    gpu_build build/lcl
    for v in $VARIANTS; do
        logged bklu_trace env ${v//,/ } build/lcl solve --method bklu gen:hb:gen:circuit:1000:64 --backend opencl --device "$DEVICE" --refactor 2
    done
fi
