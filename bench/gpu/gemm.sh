#!/bin/bash
# The OpenCL GEMM kernels of the dense factorizations alone (tools/bench_gemm_cl.c: tensor-core and
# portable, every shape LU and Cholesky produce, lower-triangle updates included), once with one
# tile per work-group and once with the trailing update's cap (CAP groups looping over tiles), then
# cuBLAS dgemm / dsyrk on the same shapes through CuPy (bench/gpu/gemm_ref.py), in the same command.
#   bash bench/gpu/gemm.sh
# Environment: CAP (default 124; empty skips the capped run), DEVICE, REF, OUT. Log: $OUT/gemm.log.
. "$(dirname "$0")/setup.sh"
CAP=${CAP-124}
gpu_build build/bench_gemm_cl
logged gemm build/bench_gemm_cl "$DEVICE"
[ -z "$CAP" ] || logged gemm env LCL_UPD_GROUPS="$CAP" build/bench_gemm_cl "$DEVICE"
if [ "$REF" = 0 ]; then echo "bench/gpu: REF=0, cuBLAS skipped" | tee -a "$OUTDIR/gemm.log"
else logged gemm env PYTHONUNBUFFERED=1 python3 "$(dirname "$0")/gemm_ref.py"; fi
