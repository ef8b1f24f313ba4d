#!/bin/bash
# Where the time of one OpenCL LU / Cholesky goes: every kernel timed by OpenCL event profiling,
# summed per kernel and per queue, with the time both queues were busy at once (tools/trace_dense.c).
#   N=16384 OP=cholesky bash bench/gpu/trace.sh
#   SPLIT=1 N=32768 bash bench/gpu/trace.sh    the matrix split over every GPU (lcl_dmat_upload_split),
#                                             transfers traced too, then bench/gpu/timeline.py per device
# Environment: N (default 16384), OP (lu, cholesky or both; default cholesky), BLOCK (panel width,
# default the library's), SPLIT, DEVICE, OUT; LCL_DENSE_NB, LCL_UPD_GROUPS, LCL_NO_FUSED_STEP,
# LCL_SHARED_CONTEXT and trace_dense's TRACE_PRIO / TRACE_WIN / TRACE_LOG pass through.
# Log: $OUT/trace.log (SPLIT=1: the events in $OUT/trace-events.txt).
. "$(dirname "$0")/setup.sh"
N=${N:-16384}
OP=${OP:-cholesky}
gpu_build build/trace_dense
if [ "${SPLIT:-0}" != 0 ]; then
    rm -f "$OUTDIR/trace-events.txt"
    logged trace env TRACE_SPLIT=1 TRACE_EVENTS="$OUTDIR/trace-events.txt" build/trace_dense "$DEVICE" "$N" "$OP" ${BLOCK:+"$BLOCK"}
    logged trace python3 "$(dirname "$0")/timeline.py" "$OUTDIR/trace-events.txt"
else
    logged trace build/trace_dense "$DEVICE" "$N" "$OP" ${BLOCK:+"$BLOCK"}
fi
