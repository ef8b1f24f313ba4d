#!/bin/bash
# Where the time of one OpenCL LU / Cholesky goes: every kernel timed by OpenCL event profiling,
# summed per kernel and per queue, with the time both queues were busy at once (tools/trace_dense.c).
#   N=16384 OP=cholesky bash bench/gpu/trace.sh
# Environment: N (default 16384), OP (lu, cholesky or both; default cholesky), BLOCK (panel width,
# default the library's), DEVICE, OUT; LCL_DENSE_NB, LCL_UPD_GROUPS, LCL_NO_FUSED_STEP and
# trace_dense's TRACE_PRIO / TRACE_WIN / TRACE_LOG pass through. Log: $OUT/trace.log.
. "$(dirname "$0")/setup.sh"
N=${N:-16384}
OP=${OP:-cholesky}
gpu_build build/trace_dense
logged trace build/trace_dense "$DEVICE" "$N" "$OP" ${BLOCK:+"$BLOCK"}
