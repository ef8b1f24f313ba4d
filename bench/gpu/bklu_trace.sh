#!/bin/bash
# Where the block LU's refactor spends its device time, one GPU and two, in one call: build/trace_dense
# bklu on BASE (default gen:circuit:1000) at each M of MS (default 256,512) with DEVS (default "1 2")
# devices, several also under LCL_BKLU_HOST_THREADS=1: per device each level's phases (values in,
# U steps, pivot LU, inverses, L) from markers on its queue, the idle gap before each level, every
# kernel and transfer summed. TRACE_EVENTS=FILE (optional) keeps every command for
# bench/gpu/timeline.py. Log: $OUT/bklu_trace.log.
#   bash bench/gpu/bklu_trace.sh
. "$(dirname "$0")/setup.sh"
gpu_build build/trace_dense
export LCL_CACHE_DIR=${LCL_CACHE_DIR:-/tmp/lc}
MS=${MS:-256,512}
for m in ${MS//,/ }; do
    for nd in ${DEVS:-1 2}; do
        logged bklu_trace build/trace_dense bklu "$DEVICE" "${BASE:-gen:circuit:1000}" "$m" "$nd"
        # several devices: again with a host thread per device (when nothing is exchanged)
        [ "$nd" = 1 ] || logged bklu_trace env LCL_BKLU_HOST_THREADS=1 build/trace_dense bklu "$DEVICE" "${BASE:-gen:circuit:1000}" "$m" "$nd"
    done
done
